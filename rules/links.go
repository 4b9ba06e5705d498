package rules

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

var _ review.Judge = (*Link)(nil)

// Link is the link rule: a relative link of a Markdown claim to a file or
// directory missing at head, a #fragment naming no heading or anchor of its
// Markdown target, or a #L10 line anchor past the target's end is
// contradicted. The zero value is ready to use and safe for concurrent use.
type Link struct {
	lines memo[[]string]
}

// Name returns "link".
func (*Link) Name() string { return "link" }

// Judge checks the claim's relative links; see [Link]. It fails when a
// target that exists cannot be read.
func (r *Link) Judge(_ context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	return r.linkVerdict(ws, c)
}

// linkProblem is one broken relative link of a Markdown claim.
type linkProblem struct {
	m       review.Mention
	target  string // the resolved repository path of the link's file part
	anchor  string // the fragment without '#'; "" when the file is missing
	heads   []heading
	closest string // the corrected link destination as written; "" if none
	lines   int    // for a line anchor past the end: the file's line count
}

// heading is a link target inside a Markdown file: a heading's slug or
// an explicit HTML anchor.
type heading struct {
	slug string
	line int
}

// ignoredLinkDirs are top-level directories whose links are not checked:
// their files are not part of the reviewed tree.
var ignoredLinkDirs = []string{".git", "vendor", "node_modules", "testdata"}

// linkVerdict checks the relative link targets of a Markdown claim: the
// file or directory must exist at head, a #fragment must name a heading or
// HTML anchor of a Markdown target, and a #L10 line anchor must be within
// a non-Markdown target. It reports the first broken link.
func (r *Link) linkVerdict(ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.HeadFS == nil || c.Kind != review.KindMarkdown {
		return nil, nil
	}
	for _, m := range c.Mentions {
		if m.Kind != review.MentionPath || !strings.Contains(c.Text, "]("+m.Text) && !strings.Contains(c.Text, "](<"+m.Text) {
			continue
		}
		p, err := r.checkLink(ws, c, m)
		if err != nil {
			return nil, err
		}
		if p != nil {
			return r.linkFinding(c, p), nil
		}
	}
	return nil, nil
}

// checkLink returns the problem of one link, or nil when it is fine or
// cannot be judged.
func (r *Link) checkLink(ws *review.Workspace, c review.Claim, m review.Mention) (*linkProblem, error) {
	dest := m.Text
	if dest == "" || hasURLScheme(dest) || strings.HasPrefix(dest, "/") || strings.ContainsAny(dest, "?{}$<>") {
		return nil, nil
	}
	file, anchor, _ := strings.Cut(dest, "#")
	if file != "" && !strings.ContainsFunc(file, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		// "[term](@)" and the like are markup conventions (CommonMark's
		// spec marks definitions so), not paths.
		return nil, nil
	}
	target := c.Path
	if file != "" {
		target = path.Join(path.Dir(c.Path), file)
		if target == ".." || strings.HasPrefix(target, "../") {
			return nil, nil
		}
	}
	if first, _, _ := strings.Cut(target, "/"); slices.Contains(ignoredLinkDirs, first) {
		return nil, nil
	}
	info, err := fs.Stat(ws.HeadFS, target)
	if errors.Is(err, gitrepo.ErrSkipped) {
		// A file the snapshot holds no text of (an image, a binary, a
		// file over the size limit) exists all the same.
		return nil, nil
	}
	if err != nil {
		p := &linkProblem{m: m, target: target}
		if near := closeSibling(ws.HeadFS, target); near != "" {
			p.closest = path.Join(path.Dir(file), near)
			if strings.HasSuffix(file, "/") {
				p.closest += "/"
			}
			if !strings.Contains(file, "/") {
				p.closest = near
			}
			if anchor != "" {
				p.closest += "#" + anchor
			}
		}
		return p, nil
	}
	if anchor == "" || info.IsDir() {
		return nil, nil
	}
	lines, err := r.fileLines(ws, target)
	if err != nil {
		return nil, err
	}
	if !isMarkdownPath(target) {
		n, ok := lineAnchor(anchor)
		if !ok {
			return nil, nil
		}
		count := len(lines)
		if count > 0 && lines[count-1] == "" {
			count--
		}
		if n <= count {
			return nil, nil
		}
		return &linkProblem{m: m, target: target, anchor: anchor, lines: count}, nil
	}
	heads := headings(lines)
	want := strings.ToLower(anchor)
	for _, h := range heads {
		if h.slug == want || strings.ReplaceAll(h.slug, "_", "") == strings.ReplaceAll(want, "_", "") {
			return nil, nil
		}
	}
	p := &linkProblem{m: m, target: target, anchor: anchor, heads: heads}
	var near []string
	for _, h := range heads {
		if d := prose.EditDistance(h.slug, want); d <= max(1, len(want)/3) && !slices.Contains(near, h.slug) {
			near = append(near, h.slug)
		}
	}
	if len(near) == 1 {
		p.closest = file + "#" + near[0]
	}
	return p, nil
}

// linkFinding turns a broken link into a contradicted verdict.
func (r *Link) linkFinding(c review.Claim, p *linkProblem) *review.Verdict {
	hop := fmt.Sprintf("%s:%d (link %s)", c.Path, p.m.Line, p.m.Text)
	v := &review.Verdict{Label: review.Contradicted, Rule: r.Name(), Confidence: 0.9}
	var why string
	switch {
	case p.anchor == "":
		why = fmt.Sprintf("links to %s, which does not exist at head", p.target)
		v.Message = fmt.Sprintf("The link %s points to %s, which does not exist at head", p.m.Text, p.target)
	case p.lines > 0 || p.heads == nil && !isMarkdownPath(p.target):
		why = fmt.Sprintf("links to line %s of %s, which has %d lines", strings.TrimPrefix(p.anchor, "L"), p.target, p.lines)
		v.Message = fmt.Sprintf("The link %s points past the end of %s, which has %d lines", p.m.Text, p.target, p.lines)
	default:
		why = fmt.Sprintf("links to #%s, which no heading of %s has", p.anchor, p.target)
		v.Message = fmt.Sprintf("The link %s names the anchor #%s, which no heading of %s has", p.m.Text, p.anchor, p.target)
	}
	if p.closest != "" {
		v.Message += fmt.Sprintf(" (closest: %s)", p.closest)
		if strings.Count(c.Text, "]("+p.m.Text) == 1 {
			v.Suggestion = strings.Replace(c.Text, "]("+p.m.Text, "]("+p.closest, 1)
		}
	}
	v.Message += "."
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: c.Path, StartLine: p.m.Line, EndLine: max(p.m.EndLine, p.m.Line), Source: review.SourceDoc, Why: why, Hops: []string{hop},
	})
	if len(p.heads) > 0 {
		var slugs []string
		for _, h := range p.heads {
			slugs = append(slugs, h.slug)
		}
		v.Evidence = append(v.Evidence, review.Evidence{
			Path: p.target, StartLine: p.heads[0].line, EndLine: p.heads[len(p.heads)-1].line, Source: review.SourceDoc,
			Why:  fmt.Sprintf("headings of %s: %s", p.target, strings.Join(uniq(slugs), ", ")),
			Hops: []string{hop, p.target},
		})
	}
	return v
}

// hasURLScheme reports whether dest starts with a URL scheme ("https:",
// "mailto:") or is protocol-relative.
func hasURLScheme(dest string) bool {
	return strings.HasPrefix(dest, "//") || urlSchemeRE.MatchString(dest)
}

var urlSchemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// isMarkdownPath reports whether p names a Markdown file.
func isMarkdownPath(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdown", ".mkd":
		return true
	}
	return false
}

// lineAnchor parses a GitHub line anchor, "L10" or "L10-L20", returning
// its last line.
func lineAnchor(a string) (int, bool) {
	if i := strings.LastIndex(a, "-L"); i > 0 {
		a = a[i+1:]
	}
	if !strings.HasPrefix(a, "L") {
		return 0, false
	}
	n, err := strconv.Atoi(a[1:])
	return n, err == nil && n > 0
}

// closeSibling returns the unique entry of target's directory whose name
// is close to target's base name, or "".
func closeSibling(fsys fs.FS, target string) string {
	dir, base := path.Dir(target), path.Base(target)
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return ""
	}
	var near []string
	for _, e := range entries {
		if d := prose.EditDistance(strings.ToLower(e.Name()), strings.ToLower(base)); d <= max(1, len(base)/4) {
			near = append(near, e.Name())
		}
	}
	if len(near) != 1 {
		return ""
	}
	return near[0]
}

var (
	atxRE       = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	htmlIDRE    = regexp.MustCompile(`(?i)<[a-z][^>]*\s(?:name|id)\s*=\s*["']([^"']+)["']`)
	inlineLink  = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	setextUnder = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
)

// headings returns the anchors of a Markdown file: the GitHub slugs of its
// ATX and setext headings (duplicates numbered -1, -2, ...) and the names
// and ids of its HTML elements, outside fenced code blocks.
func headings(lines []string) []heading {
	var out []heading
	seen := map[string]int{}
	add := func(text string, line int) {
		s := slugify(text)
		if n, ok := seen[s]; ok {
			seen[s] = n + 1
			s = fmt.Sprintf("%s-%d", s, n+1)
		} else {
			seen[s] = 0
		}
		out = append(out, heading{slug: s, line: line})
	}
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			// A fence closes with a run of the same character at least as
			// long as the one that opened it, and nothing after it.
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
			continue
		}
		for _, m := range htmlIDRE.FindAllStringSubmatch(l, -1) {
			out = append(out, heading{slug: strings.ToLower(m[1]), line: i + 1})
		}
		if m := atxRE.FindStringSubmatch(l); m != nil {
			add(m[2], i+1)
			continue
		}
		if i+1 < len(lines) && t != "" && setextUnder.MatchString(lines[i+1]) && !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "|") {
			add(t, i+1)
		}
	}
	return out
}

// slugify makes a heading's anchor as GitHub does: link text kept, lower
// case, punctuation other than '-' and '_' dropped, spaces made '-'.
func slugify(text string) string {
	text = inlineLink.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// fileLines returns the lines of a file at head.
func (r *Link) fileLines(ws *review.Workspace, path string) ([]string, error) {
	return headLines(&r.lines, ws, path)
}

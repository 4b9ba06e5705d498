package report

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/docreview/docreview/review"
)

// Markdown writes r to w as GitHub-flavoured Markdown: a heading, a table
// of the counts in r.Stats, the findings (contradicted and incomplete claims) grouped
// by file with label, rule, claim text, message, a "Suggested:" code block
// when a suggestion is set and a collapsible evidence trail, then the
// skipped claims and the report's notes. Consistent claims are only
// counted. Text from the repository is escaped so it cannot break the
// Markdown structure, open HTML or mention users; snippets and suggestions
// go in fenced code blocks whose fence is longer than any backtick run they
// contain.
//
// With opt.RepoURL set, locations link to RepoURL/blob/<head>/<path>#L<a>-L<b>.
// Markdown returns an error when opt.RepoURL is not an absolute http or
// https URL without query or fragment, and w's error.
func Markdown(w io.Writer, r review.Report, opt Options) error {
	m := mdWriter{}
	if opt.RepoURL != "" {
		base, err := blobBase(opt.RepoURL, r.Head)
		if err != nil {
			return fmt.Errorf("render markdown report: %w", err)
		}
		if r.Head != "" && r.Head != "worktree" {
			m.blob = base
		}
	}

	m.para("## docreview")
	if r.Base != "" || r.Head != "" {
		m.para("Reviewed " + mdCode(shortRev(r.Base)) + ".." + mdCode(shortRev(r.Head)) + ".")
	}
	s := r.Stats
	m.para("| Claims | Contradicted | Incomplete | Consistent | Skipped |\n" +
		"| ---: | ---: | ---: | ---: | ---: |\n" +
		fmt.Sprintf("| %d | %d | %d | %d | %d |", s.Claims, s.Contradicted, s.Incomplete, s.Consistent, s.Skipped))
	if sum := modelSummary(s.Model); sum != "" {
		m.para(mdText(sum))
	}
	if sum := coverageSummary(s.Coverage); sum != "" {
		m.para(mdText(sum))
	}

	var findings, skipped []review.Verdict
	for _, v := range sortedVerdicts(r.Verdicts) {
		if v.Label != review.Consistent {
			findings = append(findings, v)
		}
		if v.Skipped != "" {
			skipped = append(skipped, v)
		}
	}
	if len(findings) == 0 {
		m.para("No contradicted or incomplete claims.")
	}
	for _, group := range byPath(findings) {
		m.para("### " + mdCode(group[0].Claim.Path))
		for _, v := range group {
			m.verdict(v)
		}
	}
	if len(skipped) > 0 {
		var b strings.Builder
		for _, v := range skipped {
			c := v.Claim
			b.WriteString("- " + m.loc(c.Path, c.Line, c.EndLine))
			if c.Symbol != "" {
				b.WriteString(" " + mdCode(c.Symbol))
			}
			b.WriteString(": " + mdText(v.Skipped) + "\n")
		}
		m.para("### Skipped claims")
		m.para(strings.TrimSuffix(b.String(), "\n"))
	}
	if len(r.Notes) > 0 {
		var b strings.Builder
		for _, n := range sortedNotes(r.Notes) {
			b.WriteString("- " + mdCode(n.Path) + ": " + mdText(n.Message) + "\n")
		}
		m.para("### Notes")
		m.para(strings.TrimSuffix(b.String(), "\n"))
	}
	return write(w, "markdown", bytes.TrimSuffix(m.buf.Bytes(), []byte("\n")))
}

// mdWriter accumulates Markdown output, one block per call of para.
type mdWriter struct {
	buf bytes.Buffer
	// blob is RepoURL/blob/<head>, empty when locations are not linked.
	blob string
}

// para writes a block followed by a blank line.
func (m *mdWriter) para(s string) {
	m.buf.WriteString(s)
	m.buf.WriteString("\n\n")
}

// loc renders path:lines as inline code, linked to the repository when a
// RepoURL was given.
func (m *mdWriter) loc(p string, start, end int) string {
	text := mdCode(location(p, start, end))
	if m.blob == "" {
		return text
	}
	return "[" + text + "](" + m.blob + "/" + escapePath(p) + "#L" + strconv.Itoa(start) + "-L" + strconv.Itoa(max(end, start)) + ")"
}

func (m *mdWriter) verdict(v review.Verdict) {
	c := v.Claim
	head := "**" + mdText(labelTitle(v.Label)) + "** · " + m.loc(c.Path, c.Line, c.EndLine)
	if c.Symbol != "" {
		head += " · " + mdCode(c.Symbol)
	}
	if v.Rule != "" {
		head += " · rule " + mdCode(v.Rule)
	}
	if v.Confidence > 0 {
		head += " · confidence " + strconv.FormatFloat(v.Confidence, 'f', 2, 64)
	}
	m.para(head)
	if lang, ok := codeBlock(c); ok {
		m.para(fenced("", lang, snippetLines(c.Text)))
	} else if strings.TrimSpace(c.Text) != "" {
		var q []string
		for _, l := range strings.Split(strings.TrimSpace(clean(c.Text)), "\n") {
			if l = mdText(l); l == "" {
				q = append(q, ">")
			} else {
				q = append(q, "> "+l)
			}
		}
		m.para(strings.Join(q, "\n"))
	}
	if v.Message != "" {
		m.para(mdText(v.Message))
	}
	if v.Skipped != "" {
		m.para("Skipped: " + mdText(v.Skipped))
	}
	if v.Suggestion != "" {
		m.para("Suggested:")
		m.para(fenced("", "text", snippetLines(v.Suggestion)))
	}
	if len(v.Evidence) == 0 {
		return
	}
	m.para("<details>\n<summary>Evidence (" + strconv.Itoa(len(v.Evidence)) + ")</summary>")
	for _, e := range v.Evidence {
		item := "- " + m.loc(e.Path, e.StartLine, e.EndLine)
		if e.Source != "" {
			item += " (" + mdText(string(e.Source)) + ")"
		}
		if e.Why != "" {
			item += " " + mdText(e.Why)
		}
		if len(e.Hops) > 0 {
			hops := make([]string, len(e.Hops))
			for i, h := range e.Hops {
				hops[i] = mdCode(h)
			}
			item += "; hops: " + strings.Join(hops, " → ")
		}
		m.para(item)
		if lines := snippetLines(e.Snippet); len(lines) > 0 {
			m.para(fenced("  ", snippetLang(e.Path), lines))
		}
	}
	m.para("</details>")
}

// codeBlock reports whether the claim is a code block as a whole (its text
// is the code of its one block mention), and the block's language.
func codeBlock(c review.Claim) (string, bool) {
	for _, mn := range c.Mentions {
		if mn.Kind == review.MentionBlock && strings.TrimSpace(mn.Text) == strings.TrimSpace(c.Text) {
			return mn.Lang, true
		}
	}
	return "", false
}

// labelTitle is a label capitalised for display.
func labelTitle(l review.Label) string {
	s := oneLine(string(l))
	if s == "" {
		return "Unlabelled"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// blobBase validates a repository URL and returns repo/blob/<head>.
func blobBase(repo, head string) (string, error) {
	u, err := url.Parse(repo)
	if err != nil {
		return "", fmt.Errorf("invalid RepoURL %q: %w", repo, err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("invalid RepoURL %q: want an absolute http or https URL without query or fragment", repo)
	}
	return strings.TrimSuffix(u.String(), "/") + "/blob/" + escapeSegment(head), nil
}

// escapePath percent-escapes each segment of a slash-separated path for a
// link destination.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = escapeSegment(s)
	}
	return strings.Join(segs, "/")
}

// escapeSegment percent-escapes one path segment, parentheses included so
// the URL cannot end a Markdown link early.
func escapeSegment(s string) string {
	return strings.NewReplacer("(", "%28", ")", "%29").Replace(url.PathEscape(s))
}

// shortRev abbreviates a full hexadecimal commit SHA to 12 digits and leaves
// anything else as it is.
func shortRev(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return s
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return s
		}
	}
	return s[:12]
}

// mdCode renders s on one line as an inline code span, delimited by more
// backticks than any run inside it.
func mdCode(s string) string {
	s = oneLine(clean(s))
	if s == "" {
		return ""
	}
	delim := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return delim + s + delim
}

// mdText renders s as inline Markdown on one line. Code spans of s are kept;
// outside them, characters that would start HTML, emphasis, links, table
// cells or block syntax are escaped, and "@" is followed by a zero-width
// space so that names are not turned into mentions.
func mdText(s string) string {
	s = oneLine(clean(s))
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '`' {
			n := runAt(s, i, '`')
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString(s[i : end+n])
				i = end + n
				continue
			}
			b.WriteString(strings.Repeat("\\`", n))
			i += n
			continue
		}
		switch c := s[i]; c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '@':
			b.WriteString("@&#8203;")
		case '\\', '*', '_', '[', ']', '~', '|', '!':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '#', '-', '+', '=':
			if i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '.', ')':
			if isDigits(s[:i]) && i > 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}

// runAt is the length of the run of c starting at s[i].
func runAt(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun returns the index of the first run of exactly n backticks at
// or after from, or -1.
func closingRun(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		k := runAt(s, i, '`')
		if k == n {
			return i
		}
		i += k
	}
	return -1
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best := 0
	for i := 0; i < len(s); {
		if s[i] != c {
			i++
			continue
		}
		k := runAt(s, i, c)
		best = max(best, k)
		i += k
	}
	return best
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// fenced renders lines as a fenced code block indented by indent, with a
// fence of backticks longer than any backtick run in the lines.
func fenced(indent, lang string, lines []string) string {
	n := 2
	for _, l := range lines {
		n = max(n, longestRun(l, '`'))
	}
	fence := strings.Repeat("`", n+1)
	var b strings.Builder
	b.WriteString(indent + fence + lang + "\n")
	for _, l := range lines {
		if l != "" {
			b.WriteString(indent + l)
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + fence)
	return b.String()
}

// snippetLang is the code block language for a file, empty when unknown.
func snippetLang(p string) string {
	switch path.Ext(p) {
	case ".go":
		return "go"
	case ".md", ".markdown":
		return "markdown"
	case ".sh", ".bash":
		return "sh"
	case ".yml", ".yaml":
		return "yaml"
	case ".json":
		return "json"
	case ".toml":
		return "toml"
	case ".py":
		return "python"
	case ".js":
		return "js"
	case ".ts":
		return "ts"
	}
	return ""
}

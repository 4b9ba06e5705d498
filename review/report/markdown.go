package report

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/mdtext"
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
	m := mdWriter{shown: map[string]bool{}}
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
	switch {
	case r.Base != "" && r.Head != "":
		m.para("Reviewed " + mdtext.Code(shortRev(r.Base)) + ".." + mdtext.Code(shortRev(r.Head)) + ".")
	case r.Head != "":
		m.para("Reviewed " + mdtext.Code(shortRev(r.Head)) + ".")
	}
	s := r.Stats
	m.para("| Claims | Contradicted | Incomplete | Consistent | Skipped |\n" +
		"| ---: | ---: | ---: | ---: | ---: |\n" +
		fmt.Sprintf("| %d | %d | %d | %d | %d |", s.Claims, s.Contradicted, s.Incomplete, s.Consistent, s.Skipped))
	if sum := modelSummary(s.Model); sum != "" {
		m.para(mdtext.Text(sum))
	}
	if sum := coverageSummary(s.Coverage); sum != "" {
		m.para(mdtext.Text(sum))
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
		m.para("### " + mdtext.Code(group[0].Claim.Path))
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
				b.WriteString(" " + mdtext.Code(c.Symbol))
			}
			b.WriteString(": " + mdtext.Text(v.Skipped) + "\n")
		}
		m.para("### Skipped claims")
		m.para(strings.TrimSuffix(b.String(), "\n"))
	}
	if len(r.Notes) > 0 {
		var b strings.Builder
		for _, n := range sortedNotes(r.Notes) {
			b.WriteString("- " + mdtext.Code(n.Path) + ": " + mdtext.Text(n.Message) + "\n")
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
	// shown holds the evidence blocks whose snippet was rendered, by
	// [blockKey], so a later finding citing one does not repeat it.
	shown map[string]bool
}

// para writes a block followed by a blank line.
func (m *mdWriter) para(s string) {
	m.buf.WriteString(s)
	m.buf.WriteString("\n\n")
}

// loc renders path:lines as inline code, linked to the repository when a
// RepoURL was given.
func (m *mdWriter) loc(p string, start, end int) string {
	text := mdtext.Code(location(p, start, end))
	if m.blob == "" {
		return text
	}
	return "[" + text + "](" + m.blob + "/" + mdtext.EscapePath(p) + "#L" + strconv.Itoa(start) + "-L" + strconv.Itoa(max(end, start)) + ")"
}

func (m *mdWriter) verdict(v review.Verdict) {
	c := v.Claim
	head := "**" + mdtext.Text(labelTitle(v.Label)) + "** · " + m.loc(c.Path, c.Line, c.EndLine)
	if c.Symbol != "" {
		head += " · " + mdtext.Code(c.Symbol)
	}
	if v.Rule != "" {
		head += " · rule " + mdtext.Code(v.Rule)
	}
	if v.Confidence > 0 {
		head += " · confidence " + strconv.FormatFloat(v.Confidence, 'f', 2, 64)
	}
	m.para(head)
	if lang, ok := codeBlock(c); ok {
		m.para(mdtext.Fence("", lang, snippetLines(c.Text)))
	} else if strings.TrimSpace(c.Text) != "" {
		var q []string
		for _, l := range strings.Split(strings.TrimSpace(clean(c.Text)), "\n") {
			if l = mdtext.Text(l); l == "" {
				q = append(q, ">")
			} else {
				q = append(q, "> "+l)
			}
		}
		m.para(strings.Join(q, "\n"))
	}
	if v.Message != "" {
		m.para(mdtext.Text(v.Message))
	}
	if v.Skipped != "" {
		m.para("Skipped: " + mdtext.Text(v.Skipped))
	}
	if v.Suggestion != "" {
		m.para("Suggested:")
		m.para(mdtext.Fence("", "text", snippetLines(v.Suggestion)))
	}
	if len(v.Evidence) == 0 {
		return
	}
	m.para("<details>\n<summary>Evidence (" + strconv.Itoa(len(v.Evidence)) + ")</summary>")
	for _, e := range v.Evidence {
		item := "- " + m.loc(e.Path, e.StartLine, e.EndLine)
		own := ownLines(c, e)
		if e.Source != "" && !own {
			item += " (" + mdtext.Text(string(e.Source)) + ")"
		}
		if e.Why != "" {
			item += " " + mdtext.Text(e.Why)
		}
		if len(e.Hops) > 0 && !own {
			hops := make([]string, len(e.Hops))
			for i, h := range e.Hops {
				hops[i] = mdtext.Code(h)
			}
			item += "; via " + strings.Join(hops, " → ")
		}
		lines := snippetLines(e.Snippet)
		key := blockKey(e)
		if len(lines) > 0 && m.shown[key] {
			item += " (lines shown above)"
			lines = nil
		}
		m.para(item)
		if len(lines) > 0 {
			m.shown[key] = true
			m.para(mdtext.Fence("  ", mdtext.Lang(e.Path), lines))
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
	return strings.TrimSuffix(u.String(), "/") + "/blob/" + mdtext.EscapeSegment(head), nil
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

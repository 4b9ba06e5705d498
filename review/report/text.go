package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/docreview/docreview/review"
)

// ANSI SGR sequences of the text renderer.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

// textSnippetLines is how many snippet lines text output shows per evidence
// item.
const textSnippetLines = 6

// Text writes r to w for a terminal. Findings (contradicted and incomplete
// claims) are grouped by file, ordered by path, line, symbol and ID; each
// shows its location, label, rule and symbol, the message, the suggestion
// when set and the evidence trail with the first lines of each snippet.
// Consistent claims are counted in one line unless opt.Verbose lists them.
// A claim's unverified names follow its suggestion.
// Skipped claims with their reasons, the report's notes and a summary line
// of the counts in r.Stats follow. Text from the repository is printed with control
// characters escaped. Text returns w's error.
func Text(w io.Writer, r review.Report, opt Options) error {
	t := textWriter{color: opt.Color, shown: map[string]bool{}}
	vs := sortedVerdicts(r.Verdicts)
	if h := reviewedLine(r); h != "" {
		t.line(clean(h))
		t.line("")
	}

	var shown []review.Verdict
	var quiet, skipped []review.Verdict
	for _, v := range vs {
		switch {
		case v.Label != review.Consistent:
			shown = append(shown, v)
		case v.Skipped == "" && opt.Verbose:
			shown = append(shown, v)
		case v.Skipped == "":
			quiet = append(quiet, v)
		}
		if v.Skipped != "" {
			skipped = append(skipped, v)
		}
	}

	for i, group := range byPath(shown) {
		if i > 0 {
			t.line("")
		}
		t.line(t.paint(ansiBold, clean(group[0].Claim.Path)))
		for _, v := range group {
			t.verdict(v)
		}
	}
	if len(shown) > 0 {
		t.line("")
	}
	if len(skipped) > 0 {
		t.line("skipped:")
		for _, v := range skipped {
			head := location(v.Claim.Path, v.Claim.Line, v.Claim.EndLine)
			if v.Claim.Symbol != "" {
				head += " " + v.Claim.Symbol
			}
			t.indented("  ", clean(head)+": ", clean(v.Skipped))
		}
		t.line("")
	}
	if len(r.Notes) > 0 {
		t.line("notes:")
		for _, n := range sortedNotes(r.Notes) {
			t.indented("  ", clean(n.Path)+": ", clean(n.Message))
		}
		t.line("")
	}
	if len(quiet) > 0 {
		t.line(fmt.Sprintf("%d consistent %s not listed (verbose output lists them)", len(quiet), plural(len(quiet), "claim", "claims")))
	}
	s := r.Stats
	if m := modelSummary(s.Model); m != "" {
		t.line(clean(m))
	}
	if c := coverageSummary(s.Coverage); c != "" {
		t.line(c)
	}
	t.line(fmt.Sprintf("%d claims: %s, %s, %s, %d skipped",
		s.Claims,
		t.paint(ansiRed, fmt.Sprintf("%d contradicted", s.Contradicted)),
		t.paint(ansiYellow, fmt.Sprintf("%d incomplete", s.Incomplete)),
		t.paint(ansiGreen, fmt.Sprintf("%d consistent", s.Consistent)),
		s.Skipped))
	return write(w, "text", t.buf.Bytes())
}

// textWriter accumulates text output.
type textWriter struct {
	buf   bytes.Buffer
	color bool
	// shown holds the evidence blocks whose snippet was printed, by
	// [blockKey], so a later finding citing one does not repeat it.
	shown map[string]bool
}

func (t *textWriter) line(s string) {
	t.buf.WriteString(s)
	t.buf.WriteByte('\n')
}

// paint wraps s in an SGR sequence when colour is on.
func (t *textWriter) paint(sgr, s string) string {
	if !t.color || sgr == "" || s == "" {
		return s
	}
	return sgr + s + ansiReset
}

// indented writes prefix+s, with every further line of s indented to
// line up under the first.
func (t *textWriter) indented(indent, prefix, s string) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	t.line(indent + prefix + lines[0])
	for _, l := range lines[1:] {
		t.line(strings.TrimRight(indent+strings.Repeat(" ", len(prefix))+l, " "))
	}
}

func (t *textWriter) verdict(v review.Verdict) {
	c := v.Claim
	head := "  " + clean(location(c.Path, c.Line, c.EndLine)) + "  " + t.paint(labelColor(v.Label), strings.ToUpper(clean(string(v.Label))))
	if v.Rule != "" {
		head += "  [" + clean(v.Rule) + "]"
	}
	if c.Symbol != "" {
		head += "  " + clean(c.Symbol)
	}
	t.line(head)
	if v.Message != "" {
		t.indented("    ", "", clean(v.Message))
	}
	if v.Suggestion != "" {
		t.indented("    ", "suggestion: ", clean(v.Suggestion))
	}
	if v.Skipped != "" {
		t.indented("    ", "skipped: ", clean(v.Skipped))
	}
	if len(v.Unverified) > 0 {
		t.indented("    ", "unverified: ", clean(strings.Join(v.Unverified, ", ")+" (not checked: declared outside what the review loaded, or possibly prose)"))
	}
	for _, e := range v.Evidence {
		item := location(e.Path, e.StartLine, e.EndLine)
		own := ownLines(c, e)
		if e.Source != "" && !own {
			item += " (" + string(e.Source) + ")"
		}
		if e.Why != "" {
			item += " " + e.Why
		}
		if len(e.Hops) > 0 && !own {
			item += "; via " + strings.Join(e.Hops, " → ")
		}
		lines := snippetLines(e.Snippet)
		key := blockKey(e)
		if len(lines) > 0 && t.shown[key] {
			item += " (lines shown above)"
			lines = nil
		}
		if len(lines) > 0 {
			t.shown[key] = true
		}
		t.line("    " + t.paint(ansiDim, clean(oneLine(item))))
		more := 0
		if len(lines) > textSnippetLines {
			more = len(lines) - textSnippetLines
			lines = lines[:textSnippetLines]
		}
		for _, l := range lines {
			t.line(strings.TrimRight("        "+t.paint(ansiDim, l), " "))
		}
		if more > 0 {
			t.line("        " + t.paint(ansiDim, fmt.Sprintf("… %d more %s", more, plural(more, "line", "lines"))))
		}
	}
}

// labelColor is the SGR colour of a label; unknown labels are uncoloured.
func labelColor(l review.Label) string {
	switch l {
	case review.Contradicted:
		return ansiRed
	case review.Incomplete:
		return ansiYellow
	case review.Consistent:
		return ansiGreen
	}
	return ""
}

// plural picks the singular or plural noun for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package report

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/mdtext"
)

// Format names an output format of [Render].
type Format string

// The output formats.
const (
	// FormatText is plain text for a terminal, optionally coloured.
	FormatText Format = "text"
	// FormatJSON is the versioned JSON output contract.
	FormatJSON Format = "json"
	// FormatMarkdown is Markdown for a pull-request comment or a job
	// summary.
	FormatMarkdown Format = "markdown"
	// FormatSARIF is a SARIF 2.1.0 log for GitHub code scanning upload.
	FormatSARIF Format = "sarif"
	// FormatRDJSON is the reviewdog Diagnostic Format (rdjson).
	FormatRDJSON Format = "rdjson"
)

// Formats returns the output formats [ParseFormat] accepts, in a fixed order.
func Formats() []Format {
	return []Format{FormatText, FormatJSON, FormatMarkdown, FormatSARIF, FormatRDJSON}
}

// ParseFormat returns the format named by s, ignoring case and surrounding
// space. An unknown name gives an error that lists the valid formats.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Formats(), f) {
		return f, nil
	}
	names := make([]string, 0, len(Formats()))
	for _, v := range Formats() {
		names = append(names, string(v))
	}
	return "", fmt.Errorf("unknown format %q (valid: %s)", s, strings.Join(names, ", "))
}

// Options tunes the renderers; the zero value renders plain text without
// colour, omits consistent claims from text output, links nothing in
// Markdown, and writes SARIF and rdjson without repository links or rdjson
// suggestions. JSON output ignores Options.
type Options struct {
	// Color adds ANSI colour to text output: red for contradicted, yellow
	// for incomplete, green for consistent, dim for evidence. The caller
	// decides, typically only when the output is a terminal.
	Color bool
	// Verbose lists consistent claims in text output too; by default text
	// output only counts them in one line.
	Verbose bool
	// RepoURL, when set (https://github.com/o/r), turns locations in
	// Markdown output into links to RepoURL/blob/<head>/<path>#L<a>-L<b>.
	// Links are omitted when the report's Head is empty or "worktree".
	// In SARIF output it becomes the run's versionControlProvenance
	// (repository and Head) under the same condition.
	RepoURL string
	// ToolVersion is docreview's version for SARIF's
	// tool.driver.semanticVersion ("1.4.0"; a leading "v" is dropped). Empty
	// means [DevVersion].
	ToolVersion string
	// Source, when set, is the repository at Head, rooted at the repository
	// root. rdjson output reads a finding's documentation lines from it to
	// turn a certain Suggestion into a line replacement (see [RDJSON]).
	Source fs.FS
}

// Render writes r to w in format f, which is matched as [ParseFormat]
// matches names. It returns an error for an unknown format, for a report
// the format cannot represent (see [JSON]), for an invalid Options.RepoURL
// (see [Markdown]), and when w fails.
func Render(w io.Writer, r review.Report, f Format, opt Options) error {
	f, err := ParseFormat(string(f))
	if err != nil {
		return err
	}
	switch f {
	case FormatJSON:
		return JSON(w, r)
	case FormatMarkdown:
		return Markdown(w, r, opt)
	case FormatSARIF:
		return SARIF(w, r, opt)
	case FormatRDJSON:
		return RDJSON(w, r, opt)
	}
	return Text(w, r, opt)
}

// sortedVerdicts returns a copy of vs ordered by path, line, symbol and ID,
// so output never depends on the order the caller passed.
func sortedVerdicts(vs []review.Verdict) []review.Verdict {
	out := slices.Clone(vs)
	slices.SortStableFunc(out, func(a, b review.Verdict) int {
		return cmp.Or(
			cmp.Compare(a.Claim.Path, b.Claim.Path),
			cmp.Compare(a.Claim.Line, b.Claim.Line),
			cmp.Compare(a.Claim.Symbol, b.Claim.Symbol),
			cmp.Compare(a.Claim.ID, b.Claim.ID),
		)
	})
	return out
}

// sortedNotes returns a copy of ns ordered by path and message.
func sortedNotes(ns []review.Note) []review.Note {
	out := slices.Clone(ns)
	slices.SortStableFunc(out, func(a, b review.Note) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Message, b.Message))
	})
	return out
}

// byPath splits sorted verdicts into runs with the same path.
func byPath(vs []review.Verdict) [][]review.Verdict {
	var groups [][]review.Verdict
	for i := 0; i < len(vs); {
		j := i + 1
		for j < len(vs) && vs[j].Claim.Path == vs[i].Claim.Path {
			j++
		}
		groups = append(groups, vs[i:j])
		i = j
	}
	return groups
}

// reviewedLine says what the report compared: "Reviewed BASE..HEAD." for
// a diff, "Reviewed HEAD." for an audit of one revision, "" when the report
// names neither.
func reviewedLine(r review.Report) string {
	switch {
	case r.Base != "" && r.Head != "":
		return "Reviewed " + shortRev(r.Base) + ".." + shortRev(r.Head) + "."
	case r.Head != "":
		return "Reviewed " + shortRev(r.Head) + "."
	}
	return ""
}

// ownLines reports whether evidence e lies within the lines of claim c:
// the claim quoting its own line (a code block's failing line), which
// needs neither a source tag nor the hops that lead back to the claim.
func ownLines(c review.Claim, e review.Evidence) bool {
	return e.Path == c.Path && c.Line > 0 && e.StartLine >= c.Line && max(e.EndLine, e.StartLine) <= max(c.EndLine, c.Line)
}

// blockKey identifies an evidence block's lines, so a renderer shows them
// once per report.
func blockKey(e review.Evidence) string {
	return location(e.Path, e.StartLine, max(e.EndLine, e.StartLine))
}

// lineRange formats a 1-based inclusive range: "41" or "41-43".
func lineRange(start, end int) string {
	if end <= start {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "-" + strconv.Itoa(end)
}

// location formats path:line[-end].
func location(path string, start, end int) string {
	return path + ":" + lineRange(start, end)
}

// clean makes text from the repository safe to print: CRLF becomes LF, and
// control characters other than tab and newline, invalid UTF-8 and Unicode
// bidirectional controls are shown as escapes, so documentation text cannot
// drive the terminal or reorder what the reader sees.
func clean(s string) string { return mdtext.Clean(s) }

// oneLine collapses all whitespace runs of s, newlines included, to single
// spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// snippetLines returns the lines of a snippet with tabs expanded to four
// spaces, trailing space trimmed, leading and trailing blank lines dropped
// and the indentation common to all lines removed.
func snippetLines(s string) []string {
	s = strings.ReplaceAll(clean(s), "\t", "    ")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	indent := -1
	for _, l := range lines {
		if l == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	if indent > 0 {
		for i, l := range lines {
			if len(l) >= indent {
				lines[i] = l[indent:]
			}
		}
	}
	return lines
}

// write copies the rendered output to w in one call.
func write(w io.Writer, format string, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write %s report: %w", format, err)
	}
	return nil
}

// modelSummary is the model judge's sentence, or "" without a model.
func modelSummary(s *review.ModelStats) string {
	if s == nil {
		return ""
	}
	return s.Sentence()
}

// coverageSummary is the coverage sentence for a diff, or "" without one.
func coverageSummary(c *review.CoverageChange) string {
	if c == nil {
		return ""
	}
	return c.Sentence("this diff")
}

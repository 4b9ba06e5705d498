package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"

	"github.com/docreview/docreview/review"
)

// The reviewdog Diagnostic Format shapes [RDJSON] writes, in the field
// names of reviewdog's proto/rdf/jsonschema/DiagnosticResult.json.
type rdResult struct {
	Source      rdSource       `json:"source"`
	Severity    string         `json:"severity,omitempty"`
	Diagnostics []rdDiagnostic `json:"diagnostics"`
}

type rdSource struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type rdDiagnostic struct {
	Message     string         `json:"message"`
	Location    rdLocation     `json:"location"`
	Severity    string         `json:"severity"`
	Code        rdCode         `json:"code"`
	Suggestions []rdSuggestion `json:"suggestions,omitempty"`
}

type rdLocation struct {
	Path  string  `json:"path"`
	Range rdRange `json:"range"`
}

type rdRange struct {
	Start rdPosition `json:"start"`
	End   rdPosition `json:"end"`
}

type rdPosition struct {
	Line int `json:"line"`
}

type rdCode struct {
	Value string `json:"value"`
	URL   string `json:"url,omitempty"`
}

type rdSuggestion struct {
	Range rdRange `json:"range"`
	Text  string  `json:"text"`
}

// RDJSON writes r to w as one indented reviewdog Diagnostic Format
// (rdjson) result, ending in a newline, for `reviewdog -f=rdjson`. Its
// source is "docreview" ([HomeURL]) and its severity the highest of its
// diagnostics ("ERROR" or "WARNING"; omitted without diagnostics).
//
// Only contradicted (severity "ERROR") and incomplete ("WARNING") verdicts
// become diagnostics, ordered by path, line, symbol and ID. A diagnostic's
// location is the claim's path as it is (slash-separated, relative to the
// repository root) and its lines as a line-wise range; its code is the rule,
// with a url for the rules documented in docs/rules.md; its message is the
// verdict's message, then the suggestion when it is not given as a
// suggestion, then one line per evidence item: "- path:lines (source) why
// [hops]".
//
// A Suggestion becomes a rdjson suggestion, replacing the claim's whole
// lines, only when it is certain how the documentation text sits in those
// lines: Options.Source is set and holds the file at Head with the claim's
// lines, and they are either a "//" doc comment of a Go file with one
// indentation whose text is the claim's, or Markdown lines each ending in
// the matching line of the claim's text after a prefix of list, quote and
// space characters, with the suggestion as many lines long. Files with
// carriage returns, and files Source cannot open, give no suggestion.
//
// RDJSON returns an error, and writes nothing, for a report [JSON] rejects,
// for an error reading Options.Source other than a missing file, and w's
// error.
func RDJSON(w io.Writer, r review.Report, opt Options) error {
	if err := check(r); err != nil {
		return fmt.Errorf("encode rdjson report: %w", err)
	}
	out := rdResult{
		Source:      rdSource{Name: "docreview", URL: HomeURL},
		Diagnostics: []rdDiagnostic{},
	}
	for _, v := range findings(r.Verdicts) {
		c := v.Claim
		lines := rdRange{Start: rdPosition{Line: c.Line}, End: rdPosition{Line: max(c.Line, c.EndLine)}}
		d := rdDiagnostic{
			Location: rdLocation{Path: c.Path, Range: lines},
			Severity: "WARNING",
			Code:     rdCode{Value: v.Rule, URL: ruleHelpURL(v.Rule)},
		}
		if v.Label == review.Contradicted {
			d.Severity = "ERROR"
			out.Severity = "ERROR"
		} else if out.Severity == "" {
			out.Severity = "WARNING"
		}
		msg := []string{v.Message}
		if v.Suggestion != "" {
			text, ok, err := rdReplacement(opt.Source, c, v.Suggestion)
			if err != nil {
				return fmt.Errorf("encode rdjson report: claim %s: %w", c.ID, err)
			}
			if ok {
				d.Suggestions = []rdSuggestion{{Range: lines, Text: text}}
			} else {
				msg = append(msg, "Suggested replacement:\n"+v.Suggestion)
			}
		}
		if len(v.Evidence) > 0 {
			ev := []string{"Evidence:"}
			for _, e := range v.Evidence {
				item := "- " + location(e.Path, e.StartLine, e.EndLine)
				if e.Source != "" {
					item += " (" + string(e.Source) + ")"
				}
				if e.Why != "" {
					item += " " + oneLine(e.Why)
				}
				if len(e.Hops) > 0 {
					item += " [" + strings.Join(e.Hops, " → ") + "]"
				}
				ev = append(ev, item)
			}
			msg = append(msg, strings.Join(ev, "\n"))
		}
		d.Message = strings.TrimSpace(strings.Join(msg, "\n\n"))
		out.Diagnostics = append(out.Diagnostics, d)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encode rdjson report: %w", err)
	}
	return write(w, "rdjson", buf.Bytes())
}

// goDocLine matches one line of a "//" comment: its indentation and text.
var goDocLine = regexp.MustCompile(`^([ \t]*)//(.*)$`)

// rdReplacement returns the text that replaces claim c's whole lines with
// suggestion, ending in a newline when the last of those lines has one, and
// whether the rewrite is certain (see [RDJSON]).
func rdReplacement(src fs.FS, c review.Claim, suggestion string) (string, bool, error) {
	if src == nil || c.Kind == review.KindExample {
		return "", false, nil
	}
	data, err := fs.ReadFile(src, c.Path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", c.Path, err)
	}
	file := string(data)
	if strings.ContainsRune(file, '\r') {
		return "", false, nil
	}
	all := strings.SplitAfter(file, "\n")
	end := max(c.Line, c.EndLine)
	if end > len(all) || (end == len(all) && all[end-1] == "") {
		return "", false, nil
	}
	orig := all[c.Line-1 : end]
	eol := ""
	if strings.HasSuffix(orig[len(orig)-1], "\n") {
		eol = "\n"
	}
	for i := range orig {
		orig[i] = strings.TrimSuffix(orig[i], "\n")
	}
	text := strings.Split(strings.TrimRight(c.Text, "\n"), "\n")
	sugg := strings.Split(strings.TrimRight(suggestion, "\n"), "\n")
	if strings.ContainsRune(suggestion, '\r') || strings.Join(sugg, "\n") == strings.Join(text, "\n") {
		return "", false, nil
	}

	var out []string
	switch {
	case c.Kind == review.KindDocComment && strings.HasSuffix(c.Path, ".go"):
		indent := ""
		var got []string
		for i, l := range orig {
			m := goDocLine.FindStringSubmatch(l)
			if m == nil || (i > 0 && m[1] != indent) {
				return "", false, nil
			}
			indent = m[1]
			got = append(got, strings.TrimPrefix(m[2], " "))
		}
		if strings.Join(got, "\n") != strings.Join(text, "\n") {
			return "", false, nil
		}
		for _, t := range sugg {
			switch {
			case t == "":
				out = append(out, indent+"//")
			case strings.HasPrefix(t, "\t"):
				out = append(out, indent+"//"+t)
			default:
				out = append(out, indent+"// "+t)
			}
		}
	case c.Kind == review.KindMarkdown:
		if len(text) != len(orig) || len(sugg) != len(orig) {
			return "", false, nil
		}
		for i, l := range orig {
			prefix, ok := strings.CutSuffix(l, text[i])
			if !ok || strings.Trim(prefix, " \t>-*+.)0123456789") != "" {
				return "", false, nil
			}
			out = append(out, prefix+sugg[i])
		}
	default:
		return "", false, nil
	}
	return strings.Join(out, "\n") + eol, true, nil
}

package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/docreview/docreview/review"
)

func TestTextEscapesControlCharacters(t *testing.T) {
	r := review.Report{
		Verdicts: []review.Verdict{{
			Claim: review.Claim{ID: "x", Path: "a.md", Line: 1, EndLine: 1, Kind: review.KindMarkdown},
			Label: review.Contradicted, Rule: "r",
			Message: "clears \x1b[2J the screen\rand \u202eesrever",
			Evidence: []review.Evidence{{
				Path: "b\x07.go", StartLine: 1, EndLine: 1, Source: review.SourceCode,
				Why: "bell", Snippet: "x := 1\r\ny := \"\x1b]0;title\x07\"\xff",
			}},
		}},
		Stats: review.Stats{Claims: 1, Contradicted: 1},
	}
	var buf bytes.Buffer
	if err := Text(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\xff"} {
		if strings.Contains(out, bad) {
			t.Errorf("output contains raw %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{`clears \x1b[2J the screen\x0dand \u202eesrever`, `b\x07.go:1`, `y := "\x1b]0;title\x07"\xff`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestTextEmpty(t *testing.T) {
	for _, opt := range []Options{{}, {Color: true, Verbose: true}} {
		var buf bytes.Buffer
		if err := Text(&buf, review.Report{}, opt); err != nil {
			t.Fatal(err)
		}
		want := "0 claims: 0 contradicted, 0 incomplete, 0 consistent, 0 skipped\n"
		if opt.Color {
			want = "0 claims: \x1b[31m0 contradicted\x1b[0m, \x1b[33m0 incomplete\x1b[0m, \x1b[32m0 consistent\x1b[0m, 0 skipped\n"
		}
		if diff := cmp.Diff(want, buf.String()); diff != "" {
			t.Errorf("empty report, %+v (-want +got):\n%s", opt, diff)
		}
	}
}

func TestSnippetLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"blank", "\n  \n\t\n", nil},
		{"dedent tabs", "\n\tif x {\n\t\ty()  \n\n\t}\n", []string{"if x {", "    y()", "", "}"}},
		{"crlf", "a\r\n  b\r\n", []string{"a", "  b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, snippetLines(tt.in), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("snippetLines(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestEvidenceShownOnce: text and Markdown name what was compared, show
// an evidence block's lines once per report (a later finding citing the
// same lines says they are shown above), and do not tag a claim's own
// line (a code block's failing line) as a separate doc source.
func TestEvidenceShownOnce(t *testing.T) {
	def := review.Evidence{Path: "store.go", StartLine: 39, EndLine: 41, Source: review.SourceCode, Why: "defines New",
		Hops: []string{"NewStore (doc)", "New"}, Snippet: "func New(opts Options) *Store {\n\treturn &Store{}\n}"}
	finding := func(id string, line int) review.Verdict {
		return review.Verdict{
			Claim: review.Claim{ID: id, Path: "README.md", Line: line, EndLine: line + 4, Kind: review.KindMarkdown, Text: "x"},
			Label: review.Contradicted, Rule: "stale-reference", Message: "NewStore does not exist.",
			Evidence: []review.Evidence{
				{Path: "README.md", StartLine: line + 2, EndLine: line + 2, Source: review.SourceDoc, Why: "code block uses NewStore",
					Hops: []string{"README.md:10 (code block)"}, Snippet: "s := NewStore()"},
				def,
			},
		}
	}
	r := review.Report{Base: "0123456789abcdef0123456789abcdef01234567", Head: "89abcdef0123456789abcdef0123456789abcdef",
		Verdicts: []review.Verdict{finding("a", 10), finding("b", 30)}}
	r.Stats = review.Count(r.Verdicts)
	for _, format := range []Format{FormatText, FormatMarkdown} {
		var buf bytes.Buffer
		if err := Render(&buf, r, format, Options{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.Contains(out, "Reviewed ") || !strings.Contains(out, "0123456789ab") || !strings.Contains(out, "89abcdef0123") {
			t.Errorf("%s: does not say what was compared:\n%s", format, out)
		}
		if n := strings.Count(out, "func New(opts Options) *Store {"); n != 1 {
			t.Errorf("%s: the shared evidence block is shown %d times, want once:\n%s", format, n, out)
		}
		if n := strings.Count(out, "(lines shown above)"); n != 1 {
			t.Errorf("%s: %d back references, want 1:\n%s", format, n, out)
		}
		if strings.Contains(out, "12 (doc)") || strings.Contains(out, "12` (doc)") || strings.Contains(out, "(code block)") {
			t.Errorf("%s: the claim's own line is tagged as a source or hop:\n%s", format, out)
		}
		if !strings.Contains(out, "via ") {
			t.Errorf("%s: hops are not introduced:\n%s", format, out)
		}
	}
}

package github

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/mdtext"
)

// TestSuggestionExactness renders inline comment bodies for claims whose
// lines can or cannot be replaced exactly, against golden files under
// testdata/bodies. A suggestion block must replace exactly the commented
// lines, markers and indentation included; otherwise the suggested text is
// shown in the evidence section.
func TestSuggestionExactness(t *testing.T) {
	ev := []review.Evidence{{Path: "pkg/a.go", StartLine: 30, EndLine: 31, Snippet: "func New() *T {\n\treturn &T{}", Why: "defines New"}}
	tests := []struct {
		name       string
		patch      string
		claim      review.Claim
		suggestion string
		block      []string // the suggestion block's lines; nil when none is offered
		lines      [2]int   // commented lines
	}{
		{
			name:  "go-single-line",
			patch: "@@ -1,2 +1,3 @@\n package a\n \n+// Open opens the file at path.",
			claim: review.Claim{Path: "a.go", Line: 3, EndLine: 3, Kind: review.KindDocComment, Symbol: "Open",
				Text: "Open opens the file at path."},
			suggestion: "Open opens the file at name.",
			block:      []string{"// Open opens the file at name."},
			lines:      [2]int{3, 3},
		},
		{
			name:  "go-struct-field-indented",
			patch: "@@ -3,3 +3,5 @@ type Options struct {\n \tName string\n \n-\t// Timeout is in seconds.\n+\t// Timeout is how long to wait,\n+\t// in seconds.\n+\tTimeout int\n }",
			claim: review.Claim{Path: "opts.go", Line: 5, EndLine: 6, Kind: review.KindDocComment, Symbol: "Options.Timeout",
				Text: "Timeout is how long to wait,\nin seconds."},
			suggestion: "Timeout is how long to wait.\n\nZero means no limit.",
			block:      []string{"\t// Timeout is how long to wait.", "\t//", "\t// Zero means no limit."},
			lines:      [2]int{5, 6},
		},
		{
			name:  "go-code-block-in-comment",
			patch: "@@ -1,1 +1,5 @@\n package a\n+// Run runs it:\n+//\n+//\tRun(ctx)\n+func Run() {}",
			claim: review.Claim{Path: "a.go", Line: 2, EndLine: 4, Kind: review.KindDocComment, Symbol: "Run",
				Text: "Run runs it:\n\n\tRun(ctx)"},
			suggestion: "Run runs f:\n\n\tRun(ctx, f)",
			block:      []string{"// Run runs f:", "//", "//\tRun(ctx, f)"},
			lines:      [2]int{2, 4},
		},
		{
			name:       "go-block-comment-falls-back",
			patch:      "@@ -1,1 +1,2 @@\n package a\n+/* Close closes it. */",
			claim:      review.Claim{Path: "a.go", Line: 2, EndLine: 2, Kind: review.KindDocComment, Symbol: "Close", Text: "Close closes it."},
			suggestion: "Close closes it and flushes.",
			lines:      [2]int{2, 2},
		},
		{
			name:  "go-partly-in-diff-falls-back",
			patch: "@@ -1,2 +1,3 @@\n // Sum adds\n+// the numbers\n // it is given.",
			claim: review.Claim{Path: "s.go", Line: 1, EndLine: 4, Kind: review.KindDocComment, Symbol: "Sum",
				Text: "Sum adds\nthe numbers\nit is given.\nIt never fails."},
			suggestion: "Sum adds the numbers it is given.",
			lines:      [2]int{1, 3},
		},
		{
			name:  "go-directive-inside-falls-back",
			patch: "@@ -0,0 +1,3 @@\n+// Gen makes code.\n+//go:generate stringer\n+// It is slow.",
			claim: review.Claim{Path: "g.go", Line: 1, EndLine: 3, Kind: review.KindDocComment, Symbol: "Gen",
				Text: "Gen makes code.\nIt is slow."},
			suggestion: "Gen makes code quickly.",
			lines:      [2]int{1, 3},
		},
		{
			name:  "markdown-paragraph",
			patch: "@@ -1,2 +1,3 @@\n # Title\n+Install it with go get\n+and run it.",
			claim: review.Claim{Path: "README.md", Line: 2, EndLine: 3, Kind: review.KindMarkdown,
				Text: "Install it with go get\nand run it."},
			suggestion: "Install it with `go install`\nand run it.",
			block:      []string{"Install it with `go install`", "and run it."},
			lines:      [2]int{2, 3},
		},
		{
			name:       "markdown-list-item-grows",
			patch:      "@@ -1,1 +1,2 @@\n Steps:\n+- Run `make` first.",
			claim:      review.Claim{Path: "docs/x.md", Line: 2, EndLine: 2, Kind: review.KindMarkdown, Text: "Run `make` first."},
			suggestion: "Run `make build` first.\nIt needs Go 1.26.",
			block:      []string{"- Run `make build` first.", "  It needs Go 1.26."},
			lines:      [2]int{2, 2},
		},
		{
			name:       "markdown-quoted-list-item",
			patch:      "@@ -0,0 +1,2 @@\n+> 1. Call Open\n+>    then Close.",
			claim:      review.Claim{Path: "docs/x.md", Line: 1, EndLine: 2, Kind: review.KindMarkdown, Text: "Call Open\nthen Close."},
			suggestion: "Call Open,\nthen Flush,\nthen Close.",
			block:      []string{"> 1. Call Open,", ">    then Flush,", ">    then Close."},
			lines:      [2]int{1, 2},
		},
		{
			name:       "markdown-fenced-block-falls-back",
			patch:      "@@ -0,0 +1,3 @@\n+```sh\n+go get example.com/x\n+```",
			claim:      review.Claim{Path: "README.md", Line: 1, EndLine: 3, Kind: review.KindMarkdown, Text: "go get example.com/x"},
			suggestion: "go install example.com/x@latest",
			lines:      [2]int{1, 3},
		},
		{
			name:       "suggestion-with-backtick-fence",
			patch:      "@@ -0,0 +1,1 @@\n+Use the snippet below.",
			claim:      review.Claim{Path: "README.md", Line: 1, EndLine: 1, Kind: review.KindMarkdown, Text: "Use the snippet below."},
			suggestion: "Use the snippet below:\n\n```go\nx := New()\n```",
			block:      []string{"Use the snippet below:", "", "```go", "x := New()", "```"},
			lines:      [2]int{1, 1},
		},
		{
			name:       "crlf-falls-back",
			patch:      "@@ -0,0 +1,1 @@\n+// Open opens it.\r",
			claim:      review.Claim{Path: "a.go", Line: 1, EndLine: 1, Kind: review.KindDocComment, Symbol: "Open", Text: "Open opens it."},
			suggestion: "Open opens the file.",
			lines:      [2]int{1, 1},
		},
		{
			name:       "bidi-control-falls-back",
			patch:      "@@ -0,0 +1,1 @@\n+// Open opens \u202eelif\u202c it.",
			claim:      review.Claim{Path: "a.go", Line: 1, EndLine: 1, Kind: review.KindDocComment, Symbol: "Open", Text: "Open opens \u202eelif\u202c it."},
			suggestion: "Open opens \u202eelif eht\u202c it.",
			lines:      [2]int{1, 1},
		},
	}
	opt := Options{ServerURL: "https://ghe.example.com", Owner: "o", Repo: "r", HeadSHA: head1}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.claim.ID = "0123456789abcdef"
			v := review.Verdict{Claim: tt.claim, Label: review.Contradicted, Rule: "go-snippet", Message: "It changed.",
				Suggestion: tt.suggestion, Evidence: ev}
			pl, ok := place(parsePatch(tt.patch), tt.claim.Line, tt.claim.EndLine)
			if !ok || pl.start != tt.lines[0] || pl.end != tt.lines[1] {
				t.Fatalf("placement %+v, %v; want lines %v", pl, ok, tt.lines)
			}
			body := inlineBody(opt, finding{v: v, fp: Fingerprint(v), place: pl})
			golden(t, "bodies/"+tt.name+".md", body)
			if mdtext.Unsafe(body) {
				t.Errorf("body has a control or bidirectional character a reviewer would not see:\n%q", body)
			}
			got := suggestionBlock(body)
			if diff := cmp.Diff(tt.block, got); diff != "" {
				t.Errorf("suggestion block (-want +got):\n%s", diff)
			}
			if tt.block == nil && !strings.Contains(body, "**Suggested text**") {
				t.Errorf("suggestion missing from the evidence section:\n%s", body)
			}
			if tt.block != nil && len(pl.lines) > 0 && !pl.exact {
				t.Errorf("suggestion offered on an inexact placement")
			}
		})
	}
}

// suggestionBlock extracts the lines of the suggestion block of body.
func suggestionBlock(body string) []string {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if fence, ok := strings.CutSuffix(l, "suggestion"); ok && strings.Trim(fence, "`") == "" && len(fence) >= 3 {
			for j := i + 1; j < len(lines); j++ {
				if lines[j] == fence {
					return lines[i+1 : j]
				}
			}
		}
	}
	return nil
}

func TestParsePatchAndPlace(t *testing.T) {
	patch := "@@ -1,3 +1,4 @@ func a() {\n a\n-b\n+B\n+C\n c\n\\ No newline at end of file\n@@ -10,2 +11,3 @@\n x\n+y\n z"
	hunks := parsePatch(patch)
	want := []hunk{{start: 1, lines: []string{"a", "B", "C", "c"}}, {start: 11, lines: []string{"x", "y", "z"}}}
	if diff := cmp.Diff(want, hunks, cmp.AllowUnexported(hunk{})); diff != "" {
		t.Fatalf("hunks (-want +got):\n%s", diff)
	}
	tests := []struct {
		from, to   int
		ok         bool
		start, end int
		exact      bool
	}{
		{2, 3, true, 2, 3, true},
		{3, 6, true, 3, 4, false},    // clamped to the first hunk
		{4, 12, true, 11, 12, false}, // more lines in the second hunk
		{5, 10, false, 0, 0, false},
		{13, 13, true, 13, 13, true},
		{14, 14, false, 0, 0, false},
	}
	for _, tt := range tests {
		pl, ok := place(hunks, tt.from, tt.to)
		if ok != tt.ok || pl.start != tt.start || pl.end != tt.end || pl.exact != tt.exact {
			t.Errorf("place(%d, %d) = %+v, %v", tt.from, tt.to, pl, ok)
		}
	}
	for _, p := range []string{"", "Binary files differ", "@@ bad @@\n+x", "@@ -1 +1 @@\n-a\n+b"} {
		_ = parsePatch(p) // never panics
	}
	if h := parsePatch("@@ -1 +1 @@\n-a\n+b"); len(h) != 1 || h[0].start != 1 || len(h[0].lines) != 1 {
		t.Errorf("single-line hunk header: %+v", h)
	}
}

func TestFingerprint(t *testing.T) {
	c := review.Claim{ID: "3f2a9c0d1e4b5a67", Path: "a.go"}
	tests := []struct {
		rule, want string
	}{
		{"stale-reference", "3f2a9c0d1e4b5a67.stale-reference"},
		{"LLM", "3f2a9c0d1e4b5a67.llm"},
		{"a--b <!-- x -->", "3f2a9c0d1e4b5a67.a-b-x"},
		{"", "3f2a9c0d1e4b5a67.unknown"},
	}
	for _, tt := range tests {
		if got := Fingerprint(review.Verdict{Claim: c, Rule: tt.rule}); got != tt.want {
			t.Errorf("Fingerprint(rule %q) = %q, want %q", tt.rule, got, tt.want)
		}
	}
	noID := review.Verdict{Claim: review.Claim{Path: "a.go", Symbol: "A", Text: "A does  x."}, Rule: "go-snippet"}
	if got, want := Fingerprint(noID), review.Fingerprint("a.go", "A", "A does x.")+".go-snippet"; got != want {
		t.Errorf("without claim ID: %q, want %q", got, want)
	}
}

func TestMarkersAndDismissReplies(t *testing.T) {
	markerTests := []struct {
		body string
		want markers
		ok   bool
	}{
		{"<!-- docreview:fingerprint=abc.rule -->\nbody", markers{fp: "abc.rule"}, true},
		{"<!-- docreview:fingerprint=abc.rule -->\n<!-- docreview:resolved=deadbeef -->\n", markers{fp: "abc.rule", resolved: "deadbeef"}, true},
		{"quote\n<!-- docreview:fingerprint=abc.rule -->", markers{}, false},
		{"<!-- docreview:fingerprint=a b -->", markers{}, false},
		{"<!-- docreview:fingerprint= -->", markers{}, false},
	}
	for _, tt := range markerTests {
		got, ok := parseMarkers(tt.body)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseMarkers(%q) = %+v, %v", tt.body, got, ok)
		}
	}
	dismissTests := []struct {
		body, reason string
		ok           bool
	}{
		{"/docreview dismiss intended", "intended", true},
		{"  /docreview dismiss\n  the alias stays\n", "the alias stays", true},
		{"/docreview dismiss", "", true},
		{"/docreview dismissal", "", false},
		{"please /docreview dismiss x", "", false},
		{"/docreview keep", "", false},
		{"/docreview\tdismiss  kept\ton purpose", "kept on purpose", true},
		{"/docreview  dismiss", "", true},
		{"\n\n/docreview dismiss late\nsecond line", "late second line", true},
		{"/docreviewdismiss x", "", false},
	}
	for _, tt := range dismissTests {
		reason, ok := ParseDismiss(tt.body)
		if ok != tt.ok || reason != tt.reason {
			t.Errorf("ParseDismiss(%q) = %q, %v", tt.body, reason, ok)
		}
	}
}

func TestMarkdownEscaping(t *testing.T) {
	long := strings.Repeat("é", 40000) // 80000 bytes
	got := truncate(long, maxCheckText)
	if len(got) > maxCheckText || !strings.Contains(got, "truncated") || !strings.HasPrefix(got, "é") {
		t.Errorf("truncate: %d bytes, note %v", len(got), strings.Contains(got, "truncated"))
	}
	for i := range len(got) {
		if got[i] == 0xC3 && (i+1 >= len(got) || got[i+1] != 0xA9) {
			t.Fatalf("truncate split a rune at %d", i)
		}
	}
}

func TestCoverageLine(t *testing.T) {
	if got := coverageLine(nil); got != "" {
		t.Errorf("nil: %q", got)
	}
	got := coverageLine(&review.CoverageChange{Symbols: 2, FactsBefore: 4, FactsAfter: 4, StatedBefore: 1, StatedAfter: 3, Gained: 2})
	if want := "Documentation coverage of the 2 symbols this pull request touched: 25% → 75% (2 facts newly stated)."; got != want {
		t.Errorf("coverageLine = %q, want %q", got, want)
	}
}

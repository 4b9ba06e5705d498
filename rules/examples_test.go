package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
)

func TestSnippetExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	ws := loadWorkspace(t, "examples")
	ws.Dir, ws.Head = filepath.Join("testdata", "examples", "head"), "worktree"
	ws.Diff = []diff.File{{OldPath: "calc/calc.go", NewPath: "calc/calc.go", Status: diff.Modified}}
	const path = "calc/example_test.go"
	tests := []struct {
		name   string
		rule   *ExampleOutput
		symbol string
		want   *want
	}{{
		name: "stale output", rule: &ExampleOutput{RunExamples: true}, symbol: "ExampleAdd",
		want: &want{
			label:   review.Contradicted,
			message: `ExampleAdd prints "5", but its // Output: comment says "6".`,
			evidence: []ev{{path, lineOf(t, ws, path, "// Output: 6"), lineOf(t, ws, path, "// Output: 6"), review.SourceExample,
				`go test: got "5", want "6"`}},
		},
	},
		{name: "matching output", rule: &ExampleOutput{RunExamples: true}, symbol: "ExampleAdd_zero"},
		{name: "off by default", rule: &ExampleOutput{}, symbol: "ExampleAdd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.rule.Judge(t.Context(), ws, goClaim(t, ws, path, tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, tt.rule, got, tt.want)
		})
	}
}

func TestSnippetExamplesOtherHead(t *testing.T) {
	ws := loadWorkspace(t, "examples")
	ws.Dir, ws.Head = t.TempDir(), "0123456789abcdef0123456789abcdef01234567"
	ws.Diff = []diff.File{{NewPath: "calc/calc.go", Status: diff.Modified}}
	rule := &ExampleOutput{RunExamples: true}
	_, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "calc/example_test.go", "ExampleAdd"))
	if err == nil || !strings.Contains(err.Error(), "run examples") {
		t.Fatalf("Judge error = %v, want one saying the examples could not run", err)
	}
}

package report_test

import (
	"os"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/report"
)

func ExampleText() {
	r := review.Report{
		Base: "abc123",
		Head: "def456",
		Verdicts: []review.Verdict{
			{
				Claim: review.Claim{
					ID: "c1", Path: "cache/cache.go", Line: 41, EndLine: 43,
					Kind: review.KindDocComment, Symbol: "Cache.Purge",
					Text: "Purge removes all entries immediately.",
				},
				Label:      review.Contradicted,
				Rule:       "llm",
				Message:    "Purge only marks entries; the sweeper removes them later.",
				Suggestion: "Purge marks all entries expired; the sweeper removes them on its next run.",
				Evidence: []review.Evidence{{
					ID: "e1", Path: "cache/sweeper.go", StartLine: 80, EndLine: 82,
					Source: review.SourceCode, Why: "callee of Cache.Purge",
					Hops:    []string{"Cache.Purge", "sweeper.mark"},
					Snippet: "func (s *sweeper) mark() {\n\ts.expired = true\n}",
				}},
			},
			{
				Claim: review.Claim{
					ID: "c2", Path: "README.md", Line: 3, EndLine: 3,
					Kind: review.KindMarkdown, Text: "Install with go install.",
				},
				Label: review.Consistent,
				Rule:  "stale-reference",
			},
		},
		Stats: review.Stats{Claims: 2, Consistent: 1, Contradicted: 1},
	}
	if err := report.Text(os.Stdout, r, report.Options{}); err != nil {
		panic(err)
	}
	// Output:
	// Reviewed abc123..def456.
	//
	// cache/cache.go
	//   cache/cache.go:41-43  CONTRADICTED  [llm]  Cache.Purge
	//     Purge only marks entries; the sweeper removes them later.
	//     suggestion: Purge marks all entries expired; the sweeper removes them on its next run.
	//     cache/sweeper.go:80-82 (code) callee of Cache.Purge; via Cache.Purge → sweeper.mark
	//         func (s *sweeper) mark() {
	//             s.expired = true
	//         }
	//
	// 1 consistent claim not listed (verbose output lists them)
	// 2 claims: 1 contradicted, 0 incomplete, 1 consistent, 0 skipped
}

package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralLimitConst: a sentence's "down to", "at most" bound of a
// setting is compared with the package's min/max constant named for it.
func TestLiteralLimitConst(t *testing.T) {
	ws := loadWorkspace(t, "limitconst")
	ws.Scope = review.ScopeAll
	rule := &LiteralMismatch{}
	const md = "forward/README.md"
	tests := []struct {
		name string
		text string // a claim of forward/README.md containing this
		want *want
	}{
		{name: "a lower bound that is not the min constant's", text: "down to 100ms", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 100ms for dial timeout's lower bound, but minDialTimeout is 1 * time.Second (1s).",
			suggestion: "The dial timeout by default is 30s, and can decrease automatically down to 1000ms based on early results.",
			evidence:   []ev{{"forward/persistent.go", 7, 7, review.SourceCode, "minDialTimeout = 1 * time.Second"}},
		}},
		// Both bounds agree, one in another unit.
		{name: "bounds that agree", text: "at most 30 seconds"},
		// "wait" alone is one word: too weak a tie.
		{name: "a constant of one topic word", text: "at least 10ms"},
		// maxRetries has one topic word, and 3 is an example's.
		{name: "an example's count", text: "up to 3 times"},
		// No constant for the read timeout.
		{name: "a bound of a setting with no constant", text: "down to 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, mdClaim(t, ws, md, tt.text))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

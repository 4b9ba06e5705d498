package rules

import (
	"slices"
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralParamDefault: a func's doc gives the value a parameter left
// zero or nil falls back to, against the constant the body uses.
func TestLiteralParamDefault(t *testing.T) {
	ws := loadWorkspace(t, "paramdefault")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol     string
		message    string // "" for no verdict
		evidence   string // the line of pool.go the evidence starts on
		suggestion string
	}{
		{"NewPool", "The doc gives 4096 bytes for size, but the code sets size = 8192 (8192 bytes).", "size = 8192",
			"NewPool returns a pool of buffers of the given size. If size is zero or\nnegative, a default size of 8192 bytes is used."},
		// The body uses a constant where it would use *timeout.
		{"Dial", "The doc gives 5 seconds for timeout, but Dial's value for an unset timeout is time.Second * 2 (2s).", "deadline = time.Now().Add(time.Second * 2)",
			"Dial connects to addr. If timeout is nil, a default timeout of 2 seconds\nis used."},
		{"Retry", "The doc gives 3 as the default of attempts, but the code sets attempts = 5.", "attempts = 5",
			"Retry calls fn up to attempts times. When attempts is 0, it defaults to 5."},
		{"NewScheduler", "", "", ""}, // agrees, through a constant
		{"Wait", "", "", ""},         // a number without a fallback's cue
		{"Backoff", "", "", ""},      // the same duration in another unit
		{"Shards", "", "", ""},       // a computed fallback; the numbers are an example
		{"Batch", "", "", ""},        // two fallbacks stated in one sentence: which is the zero's is not certain
		{"Limit", "", "", ""},        // agrees; another number beside it is what callers pass
		{"Both", "", "", ""},         // the sentence names two parameters
		{"Seconds", "", "", ""},      // a bare number for a duration has no unit
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "pool.go", tt.symbol)
			got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if !checkContradicted(t, got, tt.message, equal) {
				return
			}
			line := lineOf(t, ws, "pool.go", tt.evidence)
			if len(got.Evidence) == 0 || got.Evidence[0].Path != "pool.go" || got.Evidence[0].StartLine != line {
				t.Errorf("evidence %+v, want pool.go:%d", got.Evidence, line)
			}
			if want := []string{tt.symbol + " (doc)", tt.symbol}; len(got.Evidence) > 0 && !slices.Equal(got.Evidence[0].Hops, want) {
				t.Errorf("hops %q, want %q", got.Evidence[0].Hops, want)
			}
			if got.Suggestion != tt.suggestion {
				t.Errorf("suggestion %q, want %q", got.Suggestion, tt.suggestion)
			}
		})
	}
}

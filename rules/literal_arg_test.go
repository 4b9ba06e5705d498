package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralArgValue: a number a func's doc gives a word that names a
// parameter of a callee, against the constant the body passes for it.
func TestLiteralArgValue(t *testing.T) {
	ws := loadWorkspace(t, "argvalue")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol     string
		message    string // "" for no verdict
		evidence   string // the line of obj.go with the call
		suggestion string
	}{
		{"SeekEnd", "The doc gives 10 for whence, but SeekEnd passes 2 as Seek's whence (o.Seek(-100, 2)).", "o.Seek(-100, 2)",
			"SeekEnd tests the seeker from the end, using whence set to '2'."},
		{"Dec", "The doc gives 10 for base, but Dec passes 16 as strconv.FormatInt's base (strconv.FormatInt(n, 16)).", "func Dec(",
			"Dec formats n in base 16."},
		{"Fetch", "The doc gives 3 seconds for timeout, but Fetch passes 5 * time.Second (5s) as context.WithTimeout's timeout (context.WithTimeout(ctx, 5 * time.Second)).", "context.WithTimeout(ctx, 5*time.Second)",
			"Fetch gives up after a timeout of 5 seconds."},
		{"Similarity", "The doc gives 3 for splitLength, but Similarity passes 2 as cosine's splitLength (cosine(a, b, 2)).", "func Similarity(",
			"Similarity compares a and b; cosine is used with the shingle split\nmethod with a length of 2."},
		{"Overlap", "", "", ""},  // "length" alone: the rest of splitLength is not in the sentence
		{"SeekBack", "", "", ""}, // the same number
		{"SeekBoth", "", "", ""}, // two calls pass two values: which one the doc means is not certain
		{"Hex", "", "", ""},      // agrees
		{"Octal", "", "", ""},    // an example
		{"Poll", "", "", ""},     // the same duration in another unit
		{"Reader", "", "", ""},   // size is the func's own parameter
		{"Buffered", "", "", ""}, // a size in KiB against a count is not compared
		{"Object.Seek", "", "", ""},
		{"Exponent", "", "", ""},        // the doc gives base the value passed too: it speaks of more than the call
		{"Store.Decrement", "", "", ""}, // the doc also gives value the -1 passed
		{"DefaultBackoff", "", "", ""},  // "initial max delay" is initialMaxDelay, not maxDelay // numbers that are the func's own parameter's values
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "obj.go", tt.symbol)
			got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if !checkContradicted(t, got, tt.message, equal) {
				return
			}
			line := lineOf(t, ws, "obj.go", tt.evidence)
			if len(got.Evidence) == 0 || got.Evidence[0].Path != "obj.go" || got.Evidence[0].StartLine != line {
				t.Errorf("evidence %+v, want obj.go:%d", got.Evidence, line)
			}
			if got.Suggestion != tt.suggestion {
				t.Errorf("suggestion %q, want %q", got.Suggestion, tt.suggestion)
			}
		})
	}
}

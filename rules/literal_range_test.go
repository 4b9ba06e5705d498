package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralRange: a range a doc states for a setting is compared with
// the guard that rejects the values outside it.
func TestLiteralRange(t *testing.T) {
	ws := loadWorkspace(t, "ranges")
	ws.Scope = review.ScopeAll
	rule := &LiteralMismatch{}
	const md = "codec/options.md"
	tests := []struct {
		name   string
		symbol string // a doc comment of codec/options.go, or
		row    string // a claim of codec/options.md containing this
		want   *want
	}{
		{name: "field doc's upper bound against a named constant", symbol: "DecOptions.MaxArrayElements", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 134217728 as a bound of DecOptions.MaxArrayElements, but the code rejects values above maxMaxArrayElements (2147483647).",
			suggestion: "MaxArrayElements is the most elements of an array. It can be set\nto [16, 2147483647].",
			evidence:   []ev{{"codec/options.go", 47, 47, review.SourceCode, "if opts.MaxArrayElements < minMaxArrayElements || opts.MaxArrayElements > maxMaxArrayElements"}},
		}},
		{name: "parameter named in the func's doc", symbol: "NewWriter", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 11 as a bound of level, but the code rejects values above 9.",
			suggestion: "NewWriter returns a writer at the given compression level, which must\nbe between -2 and 9.",
			evidence:   []ev{{"codec/options.go", 71, 71, review.SourceCode, "if level < -2 || level > 9"}},
		}},
		// size >= 64 is rejected, so 63 is the greatest accepted.
		{name: "bound of a >= comparison", symbol: "Writer.SetWindow", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 64 as a bound of size, but the code rejects values above 64 - 1 (63).",
			suggestion: "SetWindow sets the window to size bytes; size can be between 1 and 63.",
			evidence:   []ev{{"codec/options.go", 82, 82, review.SourceCode, "if size <= 0 || size >= 64"}},
		}},
		{name: "Markdown table row naming a field", row: "| MaxArrayElements", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 134217728 as a bound of DecOptions.MaxArrayElements, but the code rejects values above maxMaxArrayElements (2147483647).",
			suggestion: "| MaxArrayElements | **131072**, can be set to [16, 2147483647] |",
			evidence:   []ev{{"codec/options.go", 47, 47, review.SourceCode, "if opts.MaxArrayElements < minMaxArrayElements || opts.MaxArrayElements > maxMaxArrayElements"}},
		}},
		{name: "Markdown bound against a shift", row: "| MaxMapPairs", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 2097152 as a bound of DecOptions.MaxMapPairs, but the code rejects values above 1 << 20 (1048576).",
			suggestion: "| MaxMapPairs | **131072**, can be set to [16, 1048576] |",
			evidence:   []ev{{"codec/options.go", 50, 50, review.SourceCode, "if opts.MaxMapPairs < 16 || opts.MaxMapPairs > 1 << 20"}},
		}},
		{name: "set of values a guard accepts", symbol: "ValidateKey", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 64 among the values key may take, but the code accepts 32, not 64.",
			suggestion: "ValidateKey checks a key: key should be either 16, 24, or 32 bytes to\nselect AES-128, AES-192, or AES-256.",
			evidence:   []ev{{"codec/options.go", 91, 91, review.SourceCode, "if l := len(key); l != 16 && l != 24 && l != 32"}},
		}},
		{name: "set of values that agrees", symbol: "CheckMode"},
		{name: "value listed twice in place of another", symbol: "CheckWidth", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 32 among the values width may take, but the code accepts 16, not 32.",
			suggestion: "CheckWidth checks a width: width must be one of 8, 16, or 32.",
			evidence:   []ev{{"codec/options.go", 107, 107, review.SourceCode, "if width != 8 && width != 16 && width != 32"}},
		}},
		{name: "range that agrees", symbol: "DecOptions.MaxNestedLevels"},
		{name: "Markdown row that agrees", row: "| MaxNestedLevels"},
		{name: "Markdown sentence that agrees", row: "The `MaxMapPairs` option"},
		// "waits between 1 and 5 seconds" is a span of time, not the
		// values Retries accepts.
		{name: "range of something else", symbol: "DecOptions.Retries"},
		{name: "range in another unit that agrees", symbol: "DecOptions.Timeout"},
		// The && guard of Workers rejects a combination, not a bound.
		{name: "guard of a combination beside the bounds", symbol: "DecOptions.Workers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "codec/options.go", tt.symbol)
			} else {
				c = mdClaim(t, ws, md, tt.row)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

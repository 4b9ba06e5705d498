package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralExprValue: a doc that spells out the value of a backticked
// expression of constants ("`maxBatchSize * maxPacketSize` bytes
// (currently 64 × 1472 = 94,208 bytes)") is checked number by number.
func TestLiteralExprValue(t *testing.T) {
	ws := loadWorkspace(t, "literalexpr")
	rule := &LiteralMismatch{}
	at := func(s, why string) ev {
		l := lineOf(t, ws, "sess.go", s)
		return ev{"sess.go", l, l, review.SourceCode, why}
	}
	tests := []struct {
		name   string
		symbol string // a doc comment of sess.go, else
		md     string // a claim of README.md containing this
		want   *want
	}{
		{name: "the value as the code has it", md: "(currently 64 × 1472 = 94,208 bytes)"},
		{name: "an operand changed, the result kept", md: "(currently 64 × 258 = 94,208 bytes)", want: &want{
			label:      review.Contradicted,
			message:    "The doc spells out the value of `maxBatchSize * maxPacketSize`, but in the code maxPacketSize is 1472, not 258.",
			suggestion: "The bucket allows an initial burst of up to `maxBatchSize * maxPacketSize` bytes (currently 64 × 1472 = 94,208 bytes), then limits the rate.",
			evidence:   []ev{at("maxPacketSize = 1472", "maxPacketSize = 1472")},
		}},
		{name: "the other operand", md: "(currently 128 × 1472 = 94,208 bytes)", want: &want{
			label:      review.Contradicted,
			message:    "The doc spells out the value of `maxBatchSize * maxPacketSize`, but in the code maxBatchSize is 64, not 128.",
			suggestion: "The bucket allows an initial burst of up to `maxBatchSize * maxPacketSize` bytes (currently 64 × 1472 = 94,208 bytes), then limits the rate.",
			evidence:   []ev{at("maxBatchSize  = 64", "maxBatchSize = 64")},
		}},
		{name: "a result after which is", md: "which is 1,500 in all", want: &want{
			label:      review.Contradicted,
			message:    "The doc spells out the value of `maxPacketSize + headerLen`, but in the code maxPacketSize + headerLen is 1484, not 1500.",
			suggestion: "A packet is `maxPacketSize + headerLen` bytes, which is 1,484 in all.",
			evidence:   []ev{at("maxPacketSize = 1472", "maxPacketSize = 1472"), at("headerLen     = 12", "headerLen = 12")},
		}},
		{name: "no value stated", md: "bytes at most"},
		{name: "a ratio, not a value", md: "is 2 times larger"},
		{name: "doc comment that agrees", symbol: "Burst"},
		{name: "doc comment result that agrees", symbol: "Frame"},
		{name: "a number given as an example", symbol: "Scratch"},
		{name: "an operand that is no constant", symbol: "Window"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "sess.go", tt.symbol)
			} else {
				c = mdClaim(t, ws, "README.md", tt.md)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

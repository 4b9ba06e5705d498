package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralTypeWord: a numeric type a declaration's doc names for its
// result or values, against the declaration's own.
func TestLiteralTypeWord(t *testing.T) {
	ws := loadWorkspace(t, "typeword")
	ws.Scope = review.ScopeAll
	rule := &LiteralMismatch{}
	at := func(s, why string) []ev {
		l := lineOf(t, ws, "metric.go", s)
		return []ev{{"metric.go", l, l, review.SourceCode, why}}
	}
	tests := []struct {
		symbol string
		want   *want
	}{
		{"featureBits", &want{
			label:      review.Contradicted,
			message:    "The doc names uint8, but featureBits returns uint32.",
			suggestion: "featureBits extracts and merges the feature bits of the headers.\nIt returns a bitmask represented as a uint32.",
			evidence:   at("func featureBits(", "featureBits returns uint32"),
		}},
		{"Float64CounterConfig", &want{
			label:      review.Contradicted,
			message:    "The doc names int64, but Float64CounterConfig is named for float64 values.",
			suggestion: "Float64CounterConfig contains options for asynchronous counter\ninstruments that record float64 values.",
			evidence:   at("type Float64CounterConfig struct", "Float64CounterConfig is named for float64 values"),
		}},
		// The type word is not what the func returns: a clause after
		// a comma (go-diff), a condition (starlark's AsInt32).
		{"suffixBytes", nil},
		{"AsInt32", nil},
		{"Parse", &want{
			label:      review.Contradicted,
			message:    "The doc names float32, but Parse returns float64.",
			suggestion: "Parse returns the value as a float64.",
			evidence:   at("func Parse(", "Parse returns float64"),
		}},
		{"Count", &want{
			label:      review.Contradicted,
			message:    "The doc names int64, but Count returns uint32.",
			suggestion: "Count returns the number of fields as a uint32.",
			evidence:   at("func Count(", "Count returns uint32"),
		}},
		{"Sum", nil},                // the result it has
		{"Bits", nil},               // "an Int" is prose for an integer
		{"Width", nil},              // the body converts to the type the doc names
		{"Mean", nil},               // one result beside the error, as documented
		{"Int64CounterConfig", nil}, // its own type
		{"Float64ToInt64", nil},     // a conversion names both
		{"Int32Gauge", nil},         // the doc names both its own type and another
		{"Offset", nil},             // what it does not return, and the elements of a slice
		{"Runes", nil},              // the elements of a slice
		{"uint8Strs", nil},          // its own type, opening an unexported name
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "metric.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

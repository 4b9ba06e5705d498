package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestMissingContract(t *testing.T) {
	ws := loadWorkspace(t, "contract")
	rule := &MissingContract{}
	at := func(s, why string) ev {
		l := lineOf(t, ws, "stock.go", s)
		return ev{"stock.go", l, l, review.SourceCode, why}
	}
	tests := []struct {
		symbol string
		want   *want
	}{{
		symbol: "Store.Hold",
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Store.Hold does not say that it returns ErrInvalidQuantity (qty <= 0), ErrNotFound (!ok) or ErrInsufficientStock (have < qty).",
			suggestion: "Hold takes qty units of sku out of stock. It returns ErrInvalidQuantity when `qty <= 0`, returns ErrNotFound and returns ErrInsufficientStock when `have < qty`.",
			evidence: []ev{
				at("return ErrInvalidQuantity", "returns ErrInvalidQuantity when qty <= 0"),
				at("return ErrNotFound", "returns ErrNotFound when !ok"),
				at("ErrInsufficientStock)", "returns ErrInsufficientStock when have < qty"),
			},
		},
	}, {
		symbol: "Store.Take", // wrapped sentinel; the if has an init statement
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Store.Take does not say that it returns ErrNotFound.",
			suggestion: "Take takes qty units of sku out of stock. It returns ErrNotFound.",
			evidence:   []ev{at(`"take %s: %w"`, "returns ErrNotFound")},
		},
	}, {
		symbol: "Check", // typed error
		want: &want{
			label:      review.Incomplete,
			message:    `Doc comment of Check does not say that it returns *SKUError (sku == "").`,
			suggestion: "Check checks that sku is well formed. It returns *SKUError when `sku == \"\"`.",
			evidence:   []ev{at("return &SKUError", `returns *SKUError when sku == ""`)},
		},
	}, {
		symbol: "Store.Must", // panic; the one in the func literal does not count
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Store.Must does not say that it panics (!ok).",
			suggestion: "Must returns the count of sku. It panics.",
			evidence:   []ev{at(`panic("stock: unknown`, "panics when !ok")},
		},
	}, {
		symbol: "Expiry", // zero default
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Expiry does not say that it uses DefaultTTL (5m0s) when ttl == 0.",
			suggestion: "Expiry returns when a hold made now ends. It uses DefaultTTL (5m0s) when `ttl == 0`.",
			evidence:   []ev{at("ttl = DefaultTTL", "substitutes DefaultTTL (5m0s) when ttl == 0")},
		},
	}, {
		symbol: "Next", // another package's sentinel
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Next does not say that it returns io.EOF.",
			suggestion: "Next returns the next SKU. It returns io.EOF.",
			evidence:   []ev{at("return io.EOF", "returns io.EOF")},
		},
	},
		{symbol: "Store.Count"}, // names ErrNotFound, one of its items
		{symbol: "Read"},        // only passes on a callee's error
		{symbol: "Wait"},        // states the default
		{symbol: "Store.Drop"},  // deprecated
		{symbol: "hold"},        // unexported
		{symbol: "Store.Size"},  // implements the documented Sizer.Size
		{symbol: "SKUError"},    // not a func
		{symbol: "NewSKUError"}, // returns *SKUError by design, not as an error
		{symbol: "Mode"},        // panics in a switch case: an assertion
		{symbol: "Kind"},        // panics as unreachable
		{symbol: "Store.Flush"}, // says it implements an interface method
		{symbol: "Safe"},        // recovers its panics
		{symbol: "Store.Match"}, // fills in a result, no default value
		{symbol: "Validate"},    // "a syntax error" states *SyntaxError
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "stock.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestMissingContractUnexported: an unexported sentinel or error type is
// no contract a caller can test for, so a doc that only says "returns an
// error" is complete enough.
func TestMissingContractUnexported(t *testing.T) {
	ws := loadWorkspace(t, "contract")
	rule := &MissingContract{}
	got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "private.go", "Parse"))
	if err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, rule, got, nil)
}

// TestMissingContractSameErrorTwice: an error returned on several paths is
// named once, without conditions, and each path is evidence.
func TestMissingContractSameErrorTwice(t *testing.T) {
	ws := loadWorkspace(t, "contract")
	rule := &MissingContract{}
	got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "dup.go", "CheckInput"))
	if err != nil {
		t.Fatal(err)
	}
	first := lineOf(t, ws, "dup.go", "return ErrBadInput")
	checkVerdict(t, rule, got, &want{
		label:      review.Incomplete,
		message:    "Doc comment of CheckInput does not say that it returns ErrBadInput.",
		suggestion: "CheckInput checks s. It returns ErrBadInput.",
		evidence: []ev{
			{"dup.go", first, first, review.SourceCode, `returns ErrBadInput when s == ""`},
			{"dup.go", first + 3, first + 3, review.SourceCode, "returns ErrBadInput when len(s) > 64"},
		},
	})
}

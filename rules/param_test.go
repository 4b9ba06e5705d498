package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestWrongParameter(t *testing.T) {
	ws := loadWorkspace(t, "param")
	rule := &WrongParameter{}
	sig := func(s, sign string) ev {
		l := lineOf(t, ws, "shop.go", s)
		return ev{"shop.go", l, l, review.SourceCode, sign}
	}
	hunk := func(s string, lines int, why string) ev {
		l := lineOf(t, ws, "shop.go", s)
		return ev{"shop.go", l, l + lines - 1, review.SourceDiff, why}
	}
	tests := []struct {
		symbol string
		want   *want
	}{{
		symbol: "Store.Hold", // renamed in the diff
		want: &want{
			label:      review.Contradicted,
			message:    "The doc names parameter ttl, but Store.Hold's parameters are sku and qty; qty is not mentioned (this diff renamed ttl to qty).",
			suggestion: "Hold takes qty units of sku out of stock.",
			evidence: []ev{
				sig("func (s *Store) Hold(", "signature: func (s *Store) Hold(sku string, qty int) bool"),
				hunk("func (s *Store) Hold(", 2, "this diff renamed parameter ttl to qty"),
			},
		},
	}, {
		symbol: "Store.Get", // a plain word, renamed in the diff
		want: &want{
			label:      review.Contradicted,
			message:    "The doc names parameter key, but Store.Get's parameters are name; name is not mentioned (this diff renamed key to name).",
			suggestion: "Get returns the stock for name.",
			evidence: []ev{
				sig("func (s *Store) Get(", "signature: func (s *Store) Get(name string) int"),
				hunk("func (s *Store) Get(", 2, "this diff renamed parameter key to name"),
			},
		},
	}, {
		symbol: "Store.Expire", // identifier-shaped, renamed in the diff
		want: &want{
			label:      review.Contradicted,
			message:    "doc names parameter maxAge, but Store.Expire's parameters are age; age is not mentioned",
			suggestion: "Expire drops entries older than age.",
			evidence: []ev{
				sig("func (s *Store) Expire(", "signature: func (s *Store) Expire(age time.Duration) int"),
				hunk("func (s *Store) Expire(", 2, "this diff renamed parameter maxAge to age"),
			},
		},
	}, {
		symbol: "Lookup", // same camel-case words, no diff rename
		want: &want{
			label:      review.Contradicted,
			message:    "The doc names parameter skuID, but Lookup's parameters are s and sku_id; sku_id is not mentioned.",
			suggestion: "Lookup returns the count of `sku_id` in s.",
			evidence:   []ev{sig("func Lookup(", "signature: func Lookup(s *Store, sku_id string) int")},
		},
	}, {
		symbol: "Reserve", // a typo of a parameter
		want: &want{
			label:      review.Contradicted,
			message:    "The doc names parameter amout, but Reserve's parameters are s, sku and amount; amount is not mentioned.",
			suggestion: "Reserve holds `amount` units of sku.",
			evidence:   []ev{sig("func Reserve(", "signature: func Reserve(s *Store, sku string, amount int) bool")},
		},
	}, {
		symbol: "Store.Take", // "the given item" points at the parameter the diff renamed
		want: &want{
			label:      review.Contradicted,
			message:    "The doc names parameter item, but Store.Take's parameters are sku; sku is not mentioned (this diff renamed item to sku).",
			suggestion: "Take takes the given sku out of stock.",
			evidence: []ev{
				sig("func (s *Store) Take(", "signature: func (s *Store) Take(sku string) bool"),
				hunk("func (s *Store) Take(", 1, "this diff renamed parameter item to sku"),
			},
		},
	}, {
		symbol: "Remove",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc names parameter force, but Remove's parameters are s, sku and forced; forced is not mentioned.",
			suggestion: "Remove deletes sku from the store when `forced` is set or the stock is empty.",
			evidence:   []ev{sig("func Remove(", "signature: func Remove(s *Store, sku string, forced bool)")},
		},
	},
		{symbol: "Move", // the doc writes the call with swapped parameters
			want: &want{
				label:      review.Contradicted,
				message:    "The doc writes Move(to, from, n), but Move takes its parameters in the order from, to and n.",
				suggestion: "Move moves n units: Move(from, to, n) takes them out of from first.",
				evidence:   []ev{sig("func Move(", "signature: func Move(from, to *Store, n int)")},
			},
		},
		{symbol: "Count", // the diff replaced the parameter name sku with Drop's item
			want: &want{
				label:      review.Contradicted,
				message:    "The doc names parameter item, but Count's parameters are s and sku; sku is not mentioned (this diff replaced sku with item in the doc).",
				suggestion: "Count returns the units held for sku.",
				evidence: []ev{
					sig("func Count(", "signature: func Count(s *Store, sku string) int"),
					hunk("// Count returns", 1, "this diff replaced parameter name sku with item in the doc"),
				},
			},
		},
		{symbol: "Restock", // a word no English text writes, with qty still named
			want: &want{
				label:      review.Contradicted,
				message:    "The doc names parameter rv, but Restock's parameters are s, sku and qty (this diff replaced qty with rv in the doc).",
				suggestion: "Restock adds qty units of sku; qty must be positive.",
				evidence: []ev{
					sig("func Restock(", "signature: func Restock(s *Store, sku string, qty int)"),
					hunk("// Restock adds", 1, "this diff replaced parameter name qty with rv in the doc"),
				},
			},
		},
		{symbol: "Empty"},        // "the item": an English noun behind an article
		{symbol: "Clear"},        // "it": a pronoun
		{symbol: "Wrap"},         // the diff edited a code example
		{symbol: "Swap"},         // also written in order
		{symbol: "Store.Put"},    // renamed count to n, but the doc's "the count" is English
		{symbol: "Store.Scale"},  // renamed value to factor, but value is a field and behind "the"
		{symbol: "Store.Verify"}, // renamed proof to pf, but "the given consistency proof" is a noun phrase
		{symbol: "Find"},         // names its parameters correctly
		{symbol: "Release"},      // `count` is a parameter
		{symbol: "Drop"},         // deprecated
		{symbol: "Store"},        // not a func
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "shop.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

func TestBareUse(t *testing.T) {
	tests := []struct {
		text, word string
		want       bool
	}{
		{"Get returns the value for key.", "key", true},
		{"Get returns the key.", "key", false},
		{"Get returns the key, or key itself.", "key", true},
		{"Get uses s.key.", "key", false},
		{"Get uses keys.", "key", false},
		{"Get looks up the key argument.", "key", true},
		{"Get checks the key parameters.", "key", true},
		{"Get returns the key, argument or not.", "key", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := bareUse(tt.text, tt.word); got != tt.want {
				t.Errorf("bareUse(%q, %q) = %v, want %v", tt.text, tt.word, got, tt.want)
			}
		})
	}
}

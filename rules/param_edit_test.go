package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWordSubstitutions(t *testing.T) {
	tests := []struct {
		base, head string
		want       []substitution
	}{
		{"removes the tls.Config associated with key.", "removes the tls.Config associated with dial.", []substitution{{"key", "dial"}}},
		{"if n is negative", "if n is negative", nil},
		{"returns the value for key", "returns the value for the given key", nil},            // an insertion
		{"adds n units of sku", "adds a few units of item", []substitution{{"sku", "item"}}}, // "n" became two words
		{"a b c", "x b y", []substitution{{"a", "x"}, {"c", "y"}}},
		{"one two", "", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, wordSubstitutions(tt.base, tt.head), cmp.AllowUnexported(substitution{})); diff != "" {
			t.Errorf("wordSubstitutions(%q, %q) (-want +got):\n%s", tt.base, tt.head, diff)
		}
	}
}

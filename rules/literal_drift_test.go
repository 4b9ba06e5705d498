package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/google/go-cmp/cmp"
)

func TestLiteralDrift(t *testing.T) {
	ws := loadWorkspace(t, "literaldrift")
	rule := &LiteralMismatch{}
	code := func(s, why string) ev {
		l := lineOf(t, ws, "key.go", s)
		return ev{"key.go", l, l, review.SourceCode, why}
	}
	hunk := func(s, why string) ev {
		l := lineOf(t, ws, "key.go", s)
		return ev{"key.go", l, l, review.SourceDiff, why}
	}
	tests := []struct {
		name   string
		symbol string
		want   *want
	}{{
		name:   "code changed: comparison, number stated twice",
		symbol: "SetKey",
		want: &want{
			label:   review.Contradicted,
			message: "The doc states 6 bytes, but SetKey compares len(id) with 7 (this diff changed 6 to 7).",
			evidence: []ev{
				code("if len(id) < 7", "len(id) < 7"),
				hunk("if len(id) < 7", "this diff changed 6 to 7"),
			},
		},
	}, {
		name:   "code changed: type array length",
		symbol: "ID",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 16 byte, but ID declares [32]byte (this diff changed 16 to 32).",
			suggestion: "An ID is a 128 bit (32 byte) identifier.",
			evidence: []ev{
				code("type ID [32]byte", "[32]byte"),
				hunk("type ID [32]byte", "this diff changed 16 to 32"),
			},
		},
	}, {
		name:   "code changed: assignment in a func body",
		symbol: "Format",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 9 digits, but Format sets precision = 10 (this diff changed 9 to 10).",
			suggestion: "Format renders n. The highest precision allowed is 10 digits after the\ndecimal point.",
			evidence: []ev{
				code("precision = 10", "precision = 10"),
				hunk("precision = 10", "this diff changed 9 to 10"),
			},
		},
	}, {
		name:   "doc changed: method with an array",
		symbol: "ID.Node",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 7 byte, but ID.Node declares [6]byte (this diff changed the doc's 6 to 7).",
			suggestion: "Node returns the 6 byte node of k.",
			evidence: []ev{
				code("var node [6]byte", "[6]byte"),
				hunk("Node returns the 7 byte", "this diff changed the doc's 6 to 7"),
			},
		},
	}, {
		name:   "doc changed: a radix argument is no count",
		symbol: "Digits",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 16 digits, but Digits compares len(s) with 10 (this diff changed the doc's 10 to 16).",
			suggestion: "Digits formats n with at most 10 digits.",
			evidence: []ev{
				code("if 10 < len(s)", "10 < len(s)"),
				hunk("with at most 16 digits", "this diff changed the doc's 10 to 16"),
			},
		},
	}, {
		name:   "doc changed: a bare number the code still returns",
		symbol: "Heuristic",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 8, but Heuristic returns 4 (this diff changed the doc's 4 to 8).",
			suggestion: "Heuristic returns 4 for known project kinds.",
			evidence: []ev{
				code("return 4", "return 4"),
				hunk("Heuristic returns 8", "this diff changed the doc's 4 to 8"),
			},
		},
	},
		{name: "doc corrected to the value the code returns", symbol: "Level"},
		{name: "bare number the declaration never held", symbol: "Phase"},
		{name: "doc and code changed together", symbol: "Truncate"},
		{name: "number in a sentence about the past", symbol: "Width"},
		{name: "number without a unit word", symbol: "Step"},
		{name: "declaration the diff leaves alone", symbol: "Pad"},
		{name: "literals changed to different values", symbol: "Split"},
		{name: "doc's new number is a constant expression of the code", symbol: "Frame"},
		{name: "number in a quoted string", symbol: "Quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "key.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
	t.Run("whole-repository audit", func(t *testing.T) {
		all := *ws
		all.Scope = review.ScopeAll
		got, err := rule.Judge(t.Context(), &all, goClaim(t, ws, "key.go", "SetKey"))
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, rule, got, nil)
	})
}

func TestDocNumbers(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"The first 6 bytes of id are used.", []string{"6 bytes"}},
		{"A 128 bit (16 byte) value, a 6-byte node and 2048 bytes.", []string{"128 bit", "16 byte", "6-byte", "2048 bytes"}},
		{"It holds (12) slots and spans\n9\ndigits.", []string{"12", "9\ndigits"}},
		{"Version 2 of RFC 4122, step 3 of it, 0 bytes, 1 byte.", []string{"~2", "~4122", "~3"}},
		{"Returns 4 for known types; (1–32) and 8+ characters, not in 2024.", []string{"~4", "~32", "~8"}},
		{"v1.2 bytes, 1.2.3 bytes, 0x10 bytes, 1,000 bytes, 05 bytes.", nil},
		{"In (2019) it was `6 bytes` or \"7 bytes\" long.", nil},
		{"Previously it was 6 bytes. Now 8 bytes.", []string{"8 bytes"}},
		{"Example:\n\n\tbuf := make([]byte, 16) // 16 bytes\n\nUses 2.5 seconds.", []string{"2.5 seconds"}},
		{"See https://example.com/16 bytes.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			var got []string
			for _, n := range docNumbers(tt.text) {
				if n.bare {
					got = append(got, "~"+n.digits)
					continue
				}
				got = append(got, tt.text[n.start:n.end]+tt.text[n.end:n.end+len(n.text)-len(n.digits)])
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("docNumbers(%q) (-want +got):\n%s", tt.text, d)
			}
		})
	}
}

func TestChangedTo(t *testing.T) {
	lits := func(keys ...string) []codeLit {
		var out []codeLit
		for _, k := range keys {
			out = append(out, codeLit{key: k, text: k})
		}
		return out
	}
	tests := []struct {
		name       string
		base, head []codeLit
		key        string
		want       string // "" for no result
	}{
		{"one literal changed", lits("2", "9", "64"), lits("2", "10", "64"), "9", "10"},
		{"statement added elsewhere", lits("6", "8"), lits("3", "7", "8"), "6", ""},
		{"statement added after", lits("6", "8"), lits("7", "8", "3", "4"), "6", "7"},
		{"both occurrences to one value", lits("4", "2", "4"), lits("5", "2", "5"), "4", "5"},
		{"occurrences to different values", lits("4", "4"), lits("5", "6"), "4", ""},
		{"literal removed", lits("4", "2"), lits("2"), "4", ""},
		{"no literals", nil, lits("2"), "4", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := changedTo(tt.base, tt.head, tt.key)
			if ok != (tt.want != "") || ok && got.key != tt.want {
				t.Errorf("changedTo = %q, %v; want %q", got.key, ok, tt.want)
			}
		})
	}
}

// TestLiteralMismatchFieldDrift covers a diff that edits a number in a
// struct field's doc: contradicted when the old number was the field's
// default and the new one is not.
func TestLiteralMismatchFieldDrift(t *testing.T) {
	ws := loadWorkspace(t, "fielddrift")
	rule := &LiteralMismatch{}
	tests := []struct {
		symbol string
		want   *want
	}{
		{"ConnOptions.IdleTimeout", &want{
			label:      review.Contradicted,
			message:    "The doc states 5000, but the default of ConnOptions.IdleTimeout is 1 * time.Minute (this diff changed the doc's 60000000000 to 5000).",
			suggestion: "IdleTimeout is the longest wait between frames.\n\nDefault: 1 minute (60000000000).",
			evidence: []ev{
				{"conn.go", 5, 5, review.SourceCode, "defaultIdleTimeout = 1 * time.Minute"},
				{"conn.go", 11, 11, review.SourceDiff, "this diff changed the doc's 60000000000 to 5000"},
			},
		}},
		// The edit brings the doc to the default.
		{"ConnOptions.MaxSessions", nil},
		// Neither number is the default: the doc may speak of something
		// else.
		{"ConnOptions.Retries", nil},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "conn.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

package rules

import (
	"strconv"
	"testing"

	"github.com/docreview/docreview/review"
)

// TestMissingContractLost: a diff that deletes the sentence stating a
// function's error, panic or failure contract is reported while the
// function keeps the contract, with the return or panic line, the doc's
// diff lines and the doc with the sentence put back.
func TestMissingContractLost(t *testing.T) {
	ws := loadWorkspace(t, "contractlost")
	rule := &MissingContract{}
	code := func(s, why string) ev {
		l := lineOf(t, ws, "lost.go", s)
		return ev{"lost.go", l, l, review.SourceCode, why}
	}
	doc := func(from, to, sentence, symbol string) ev {
		a, b := lineOf(t, ws, "lost.go", from), lineOf(t, ws, "lost.go", to)
		return ev{"lost.go", a, b, review.SourceDiff, `the diff removes "` + sentence + `" from the doc of ` + symbol}
	}
	line := func(s string) string {
		return strconv.Itoa(lineOf(t, ws, "lost.go", s))
	}
	tests := []struct {
		symbol string
		want   *want
	}{{
		symbol: "FromBytes", // the error comes from a callee; the paragraph was reflowed
		want: &want{
			label: review.Incomplete,
			message: `The doc no longer states the error contract that this diff removed: "Returns an error if the slice does not have a length of 4."; FromBytes still returns errors (line ` +
				line("return id, err") + `).`,
			suggestion: "FromBytes creates a new ID from a byte slice. Returns an error if the\nslice does not have a length of 4. The bytes in the slice are copied.",
			evidence: []ev{
				code("return id, err", "returns err"),
				doc("// FromBytes creates", "// copied.", "Returns an error if the slice does not have a length of 4.", "FromBytes"),
			},
		},
	}, {
		symbol: "Parse", // names a sentinel that a callee returns
		want: &want{
			label: review.Incomplete,
			message: `The doc no longer states the error contract that this diff removed: "The return value will be ErrHelp if -help was set but not defined."; Parse still returns errors (line ` +
				line("\t\treturn err") + `).`,
			suggestion: "Parse parses the arguments. Call it before any flag is read. The\nreturn value will be ErrHelp if -help was set but not defined.",
			evidence: []ev{
				code("\t\treturn err", "returns err"),
				doc("// Parse parses", "// Parse parses", "The return value will be ErrHelp if -help was set but not defined.", "Parse"),
			},
		},
	}, {
		symbol: "Template", // the sentence was a paragraph of its own
		want: &want{
			label: review.Incomplete,
			message: `The doc no longer states the error contract that this diff removed: "An error will be returned if the route does not define a path."; Template still returns errors (line ` +
				line(`errors.New("no path")`) + `).`,
			suggestion: "Template returns the route's template.\n\nAn error will be returned if the route does not define a path.",
			evidence: []ev{
				code(`errors.New("no path")`, `returns errors.New("no path")`),
				doc("// Template returns", "// Template returns", "An error will be returned if the route does not define a path.", "Template"),
			},
		},
	}, {
		symbol: "Must", // panics in a loop, which the silence check leaves out
		want: &want{
			label: review.Incomplete,
			message: `The doc no longer states the panic contract that this diff removed: "It panics if s is not a number."; Must still panics (line ` +
				line("panic(err)") + `).`,
			suggestion: "Must returns the value of s. It panics if s is not a number.",
			evidence: []ev{
				code("panic(err)", "panics"),
				doc("// Must returns", "// Must returns", "It panics if s is not a number.", "Must"),
			},
		},
	}, {
		symbol: "Lookup", // returns nil on a condition
		want: &want{
			label: review.Incomplete,
			message: `The doc no longer states the failure contract that this diff removed: "It returns nil if the key is unknown."; Lookup still returns nil (line ` +
				line("return nil // unknown") + `).`,
			suggestion: "Lookup returns the entry of key. It returns nil if the key is unknown.",
			evidence: []ev{
				code("return nil // unknown", "returns nil"),
				doc("// Lookup returns", "// Lookup returns", "It returns nil if the key is unknown.", "Lookup"),
			},
		},
	}, {
		symbol: "Widened", // results changed: no suggestion
		want: &want{
			label: review.Incomplete,
			message: `The doc no longer states the error contract that this diff removed: "Returns an error if s is not a number."; Widened still returns errors (line ` +
				line("strconv.ParseInt") + `).`,
			evidence: []ev{
				code("strconv.ParseInt", "returns strconv.ParseInt(s, 10, 64)"),
				doc("// Widened returns", "// Widened returns", "Returns an error if s is not a number.", "Widened"),
			},
		},
	}, {
		symbol: "Bare", // a bare return of a named error result that is set
		want: &want{
			label: review.Incomplete,
			message: `The doc no longer states the error contract that this diff removed: "Returns an error if s is not a number."; Bare still returns errors (line ` +
				strconv.Itoa(lineOf(t, ws, "lost.go", "n, err = strconv.Atoi(s)")+1) + `).`,
			suggestion: "Bare returns the number in s. Returns an error if s is not a number.",
			evidence: []ev{
				{"lost.go", lineOf(t, ws, "lost.go", "n, err = strconv.Atoi(s)") + 1, lineOf(t, ws, "lost.go", "n, err = strconv.Atoi(s)") + 1, review.SourceCode, "returns err"},
				doc("// Bare returns", "// Bare returns", "Returns an error if s is not a number.", "Bare"),
			},
		},
	}, {
		symbol: "Find", // the silence check fires first
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Find does not say that it returns ErrNotFound (!ok).",
			suggestion: "Find returns the ID of name. It returns ErrNotFound.",
			evidence:   []ev{code("return ID{}, ErrNotFound", "returns ErrNotFound when !ok")},
		},
	},
		{symbol: "Reflowed"},       // the same sentence, rewrapped
		{symbol: "Typo"},           // a typo fixed in the sentence
		{symbol: "Reworded"},       // the diff wrote another error sentence
		{symbol: "NoError"},        // the error result is gone
		{symbol: "NilOnly"},        // every return has a nil error
		{symbol: "Moved"},          // the sentence moved to another paragraph
		{symbol: "NotAboutErrors"}, // the removed sentence is no contract
		{symbol: "parse"},          // unexported
		{symbol: "Old"},            // deprecated
		{symbol: "Named"},          // another sentence names ErrHelp
		{symbol: "Never"},          // the removed sentence denied the contract
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "lost.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestMissingContractLostNoBase: without a base, or in an audit of every
// doc, nothing was removed.
func TestMissingContractLostNoBase(t *testing.T) {
	for _, scope := range []review.Scope{review.ScopeAll, "no base"} {
		t.Run(string(scope), func(t *testing.T) {
			ws := loadWorkspace(t, "contractlost")
			if scope == "no base" {
				ws.BaseFS, ws.Base, ws.Diff = nil, "", nil
			} else {
				ws.Scope = scope
			}
			rule := &MissingContract{}
			for _, sym := range []string{"FromBytes", "Template", "Must", "Lookup"} {
				got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "lost.go", sym))
				if err != nil {
					t.Fatal(err)
				}
				checkVerdict(t, rule, got, nil)
			}
			// Parse's doc never names ErrHelp, which its callee parseArgs
			// returns: without a diff to blame, that is the finding.
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "lost.go", "Parse"))
			if err != nil {
				t.Fatal(err)
			}
			ret := lineOf(t, ws, "lost.go", "\t\t\treturn ErrHelp")
			checkVerdict(t, rule, got, &want{
				label:      review.Incomplete,
				message:    "Doc comment of Parse does not say that it returns ErrHelp.",
				suggestion: "Parse parses the arguments. Call it before any flag is read. It returns ErrHelp.",
				evidence:   []ev{{"lost.go", ret, ret, review.SourceCode, "returns ErrHelp to Parse through parseArgs"}},
			})
		})
	}
}

// TestContractSentence pins which sentences state a contract, and which.
func TestContractSentence(t *testing.T) {
	tests := []struct {
		s    string
		kind lostKind
		ok   bool
	}{
		{"Returns an error if the slice does not have a length of 16.", lostError, true},
		{"If GetTime fails to return the current NewV6 returns Nil and an error.", lostError, true},
		{"On error, NewV7 returns Nil and an error", lostError, true},
		{"The return value will be ErrHelp if -help was set but not defined.", lostError, true},
		{"If there is a parse error it will be returned.", lostError, true},
		{"It returns a *SyntaxError for bad input.", lostError, true},
		{"Invalid names are rejected.", lostError, true},
		{"It panics if n is negative.", lostPanic, true},
		{"Panics on error.", lostPanic, true},
		{"It returns false if the key is unknown.", lostResult, true},
		{"Returns nil when the cache is empty.", lostResult, true},
		{"It returns nil.", 0, false},                          // no condition
		{"It never returns an error.", 0, false},               // denies it
		{"It does not panic.", 0, false},                       // denies it
		{"Close returns a nil error once closed.", 0, false},   // success
		{"Parse reads the whole input.", 0, false},             // no contract
		{"Invalid bytes are replaced by U+FFFD.", 0, false},    // "invalid" without a rejection
		{"Errorf formats according to a format.", 0, false},    // a name, not the word
		{"The terror of the deep is unrelated.", 0, false},     // a word containing err
		{"It can't fail for a valid name.", 0, false},          // denies it
		{"The failover address is used next.", 0, false},       // fail as part of a word
		{"ReadError wraps the cause.", lostError, true},        // an error type
		{"Use errors.Is to test for io.EOF.", lostError, true}, // speaks of errors
	}
	for _, tt := range tests {
		kind, ok := contractSentence(tt.s)
		if ok != tt.ok || ok && kind != tt.kind {
			t.Errorf("contractSentence(%q) = %v, %v; want %v, %v", tt.s, kind, ok, tt.kind, tt.ok)
		}
	}
}

// TestLostSentences pins what counts as still stated.
func TestLostSentences(t *testing.T) {
	tests := []struct {
		name, base, head string
		want             []string
	}{
		{"removed", "F does x. Returns an error if s is empty. It is fast.\n", "F does x. It is fast.\n", []string{"Returns an error if s is empty."}},
		{"reflowed", "F does x. Returns an error if s\nis empty.\n", "F does x.\nReturns an error if s is empty.\n", nil},
		{"moved", "F does x. Returns an error if s is empty.\n\nIt is fast.\n", "F does x.\n\nIt is fast. Returns an error if s is empty.\n", nil},
		{"typo", "F does x. Retuns an eror if s is empty.\n", "F does x. Returns an error if s is empty.\n", nil},
		{"reworded", "F does x. Returns an error if s is empty.\n", "F does x. It fails on an empty s.\n", nil},
		{"same sentinel", "F returns ErrX if a. ErrX is also returned if b.\n", "F returns ErrX if a.\n", nil},
		{"same condition", "F does x. Returns an error if the path is missing. It fails when the path is missing or bad.\n", "F does x. It fails when the path is missing or bad.\n", nil},
		{"other sentinel", "F returns ErrX if a. It returns ErrY if b.\n", "F returns ErrX if a.\n", []string{"It returns ErrY if b."}},
		{"not a contract", "F does x. It is fast.\n", "F does x.\n", nil},
		{"code block", "F does x.\n\n\tif err != nil { panic(err) }\n", "F does x.\n", nil},
		{"panic kept, error lost", "F does x. It panics if n < 0. Returns an error if s is empty.\n", "F does x. It panics if n < 0.\n", []string{"Returns an error if s is empty."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range lostSentences(tt.base, tt.head) {
				got = append(got, l.text)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("lostSentences = %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("lostSentences = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

// TestRestoreSentence pins where a lost sentence goes back.
func TestRestoreSentence(t *testing.T) {
	tests := []struct {
		name, base, head, want string
	}{
		{"after its predecessor", "A b. C d. E f.\n", "A b. E f.\n", "A b. C d. E f.\n"},
		{"before its successor", "C d. A b.\n", "A b.\n", "C d. A b.\n"},
		{"own paragraph", "A b.\n\nC d.\n\nE f.\n", "A b.\n\nE f.\n", "A b.\n\nC d.\n\nE f.\n"},
		{"first paragraph", "C d.\n\nA b.\n", "A b.\n", "C d.\n\nA b.\n"},
		{"neighbours gone", "A b. C d.\n", "X y.\n", ""},
		{"earlier lines kept", "Aa bb cc.\nDd ee. C d. E f.\n", "Aa bb cc.\nDd ee. E f.\n", "Aa bb cc.\nDd ee. C d. E f.\n"},
		{"before a line's first sentence", "Aa bb cc. C d.\nE f.\n", "Aa bb cc.\nE f.\n", "Aa bb cc. C d. E f.\n"},
		{"code kept", "A b. C d.\n\n\tcode()\n", "A b.\n\n\tcode()\n", "A b. C d.\n\n\tcode()\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lost *lostPlace
			for _, s := range lostProse(lostBlocks(tt.base)) {
				if s.text == "C d." {
					lost = &s
				}
			}
			if lost == nil {
				t.Fatal("no sentence C d. at base")
			}
			if got := restoreSentence(tt.base, tt.head, *lost); got != tt.want {
				t.Errorf("restoreSentence = %q, want %q", got, tt.want)
			}
		})
	}
}

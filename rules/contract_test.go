package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

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
		{symbol: "WriteAll"},    // io.ErrShortWrite from a Write… func: the io contract
		{symbol: "WriteStock"},  // the same through a callee
		{symbol: "ReadHeader"},  // states io.EOF, one of its items
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

// TestMissingContractInternalPanic: a panic that guards an internal
// invariant is no contract a caller could act on. Modelled on zap's
// RedirectStdLog ("Can't get here" above the panic), go-cmp's Diff (an
// "inconsistent ..." check over locals) and Equal (the assertion helpers
// of its callees); the panics that check a parameter stay findings even
// when their message blames a programmer or says "inconsistent".
func TestMissingContractInternalPanic(t *testing.T) {
	ws := loadWorkspace(t, "contractreal")
	rule := &MissingContract{}
	at := func(path, s, why string) []ev {
		l := lineOf(t, ws, path, s)
		return []ev{{path, l, l, review.SourceCode, why}}
	}
	tests := []struct {
		path, symbol string
		want         *want
	}{
		{path: "zap/global.go", symbol: "RedirectStdLog"}, // "Can't get here" above the panic
		{path: "zap/global.go", symbol: "ReplaceGlobals"}, // "should never happen" above its if
		{path: "cmp/compare.go", symbol: "Diff"},          // "inconsistent" over locals
		{path: "cmp/compare.go", symbol: "Equal"},         // only callees panic
		{
			path: "zap/global.go", symbol: "NewStdLogAt", // "programmer error", but it checks level
			want: &want{
				label:      review.Incomplete,
				message:    "Doc comment of NewStdLogAt does not say that it panics (level > FatalLevel).",
				suggestion: "NewStdLogAt returns a standard library logger that writes to l at level. It panics when `level > FatalLevel`.",
				evidence:   at("zap/global.go", `panic(fmt.Sprintf("programmer error`, "panics when level > FatalLevel"),
			},
		},
		{
			path: "cmp/compare.go", symbol: "Exporter", // "inconsistent", but it checks f and strict
			want: &want{
				label:      review.Incomplete,
				message:    "Doc comment of Exporter does not say that it panics (f == nil && strict).",
				suggestion: "Exporter returns an Option that lets Equal read unexported fields of the\ntypes for which f returns true. It panics when `f == nil && strict`.",
				evidence:   at("cmp/compare.go", `panic("inconsistent exporter`, "panics when f == nil && strict"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, tt.path, tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestMissingContractAfterCode: a doc ending in an indented block (code
// or a list) gets the sentence as a paragraph of its own, never glued to
// the block's last line.
func TestMissingContractAfterCode(t *testing.T) {
	ws := loadWorkspace(t, "contractreal")
	rule := &MissingContract{}
	at := func(s, why string) []ev {
		l := lineOf(t, ws, "mux/mux.go", s)
		return []ev{{"mux/mux.go", l, l, review.SourceCode, why}}
	}
	tests := []struct {
		symbol string
		want   *want
	}{{
		symbol: "Handle",
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Handle does not say that it panics (h == nil).",
			suggestion: "Handle registers h for pattern, as in\n\n\tmux.Handle(\"/\", mux.HandlerFunc(func(path string) {\n\t\tlog.Print(path)\n\t}))\n\nIt panics when `h == nil`.",
			evidence:   at(`panic("mux: nil handler")`, "panics when h == nil"),
		},
	}, {
		symbol: "HandleFunc",
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of HandleFunc does not say that it returns ErrEmptyPattern (pattern == \"\").",
			suggestion: "HandleFunc registers f for pattern. For example:\n\n\terr := mux.HandleFunc(\"/\", func(path string) {\n\t\tlog.Print(path)\n\t})\n\nIt returns ErrEmptyPattern when `pattern == \"\"`.",
			evidence:   at("return ErrEmptyPattern", `returns ErrEmptyPattern when pattern == ""`),
		},
	}}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "mux/mux.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestAddContractParagraph pins where the sentence goes: after prose on
// the same paragraph, after an indented block (a tab or spaces, code or a
// list) as a new paragraph.
func TestAddContractParagraph(t *testing.T) {
	items := []contractItem{{kind: contractPanic, cond: "h == nil"}}
	names := map[string]bool{"h": true}
	tests := []struct {
		text, want string
	}{
		{"Handle registers h.", "Handle registers h. It panics when `h == nil`."},
		{"Handle registers h", "Handle registers h. It panics when `h == nil`."},
		{"Handle registers h:\n\n\tHandle(\"/\", h)", "Handle registers h:\n\n\tHandle(\"/\", h)\n\nIt panics when `h == nil`."},
		{"Handle registers h:\n\n    Handle(\"/\", func() {\n    })\n", "Handle registers h:\n\n    Handle(\"/\", func() {\n    })\n\nIt panics when `h == nil`."},
		{"Handle registers h for:\n  - a path\n  - a host", "Handle registers h for:\n  - a path\n  - a host\n\nIt panics when `h == nil`."},
	}
	for _, tt := range tests {
		if got := addContract(tt.text, items, nil, names); got != tt.want {
			t.Errorf("addContract(%q):\n%s", tt.text, cmp.Diff(tt.want, got))
		}
	}
}

// TestMissingContractPartialTrace: the error items are a sample when the
// function can return an exported error the trace cannot list: one past
// its two calls (viper's "ReadInConfig", whose README tells users to
// check "ConfigFileNotFoundError", returned four calls down) or a
// conversion to an error type ("UnsupportedConfigError"(in)). The message
// lists what was found and there is no suggestion. A trace that saw every
// such error keeps its suggestion.
func TestMissingContractPartialTrace(t *testing.T) {
	ws := loadWorkspace(t, "contractreal")
	rule := &MissingContract{}
	parse := lineOf(t, ws, "viper/viper.go", "return ConfigParseError{err}")
	noType := lineOf(t, ws, "viper/viper.go", "return ErrNoConfigType")
	tests := []struct {
		symbol string
		want   *want
	}{{
		symbol: "ReadInConfig",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of ReadInConfig does not say that it returns ConfigParseError.",
			evidence: []ev{{"viper/viper.go", parse, parse, review.SourceCode, "returns ConfigParseError to ReadInConfig through Viper.ReadInConfig → Viper.unmarshalReader"}},
		},
	}, {
		// Its own error, with a conversion to an error type beside it
		// that no trace lists.
		symbol: "SetConfigType",
		want: &want{
			label:    review.Incomplete,
			message:  `Doc comment of SetConfigType does not say that it returns ErrNoConfigType (in == "").`,
			evidence: []ev{{"viper/viper.go", noType, noType, review.SourceCode, `returns ErrNoConfigType when in == ""`}},
		},
	}, {
		symbol: "Unmarshal",
		want: &want{
			label:      review.Incomplete,
			message:    "Doc comment of Unmarshal does not say that it returns ConfigParseError.",
			suggestion: "Unmarshal decodes a configuration into a map. It returns ConfigParseError.",
			evidence:   []ev{{"viper/viper.go", parse, parse, review.SourceCode, "returns ConfigParseError to Unmarshal through Viper.decode → Viper.unmarshalReader"}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "viper/viper.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestMissingContractOnType checks that a constraint the receiver type's
// doc states counts for its methods' panics.
func TestMissingContractOnType(t *testing.T) {
	ws := loadWorkspace(t, "contracttype")
	rule := &MissingContract{}
	for _, tt := range []struct {
		symbol string
		want   bool
	}{
		{"Tree.Set", false}, // Tree's doc gives the key range
		{"List.At", true},   // List's doc says nothing of the index
	} {
		got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "tree.go", tt.symbol))
		if err != nil {
			t.Fatal(err)
		}
		if (got != nil) != tt.want {
			t.Errorf("%s: got %v, want a finding: %v", tt.symbol, got, tt.want)
		}
	}
}

// TestMissingContractCommonErrors checks that a sentinel most of a
// package's API returns (nats.ErrConnectionClosed) is left to the
// package: a doc silent on it alone is no finding, and a finding names
// only the function's own errors.
func TestMissingContractCommonErrors(t *testing.T) {
	ws := loadWorkspace(t, "contractcommon")
	ws.Scope = review.ScopeAll
	rule := &MissingContract{}
	for _, tt := range []struct {
		symbol  string
		message string // "" for no finding
	}{
		{"Conn.Publish", ""},
		{"Conn.FlushTimeout", "Doc comment of Conn.FlushTimeout does not say that it returns ErrBadTimeout (timeout <= 0)."},
	} {
		got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, "conn.go", tt.symbol))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.message == "" && got != nil:
			t.Errorf("%s: got %q, want no finding", tt.symbol, got.Message)
		case tt.message != "" && (got == nil || got.Message != tt.message):
			t.Errorf("%s: got %v, want %q", tt.symbol, got, tt.message)
		}
	}
}

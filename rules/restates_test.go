package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/google/go-cmp/cmp"
)

func TestRestatesName(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	// These docs restated their names before the fixture's diff already;
	// only an audit reports them (see TestPredatingGaps).
	ws.Scope = review.ScopeAll
	rule := &RestatesName{}
	decl := func(s, why string) []ev {
		start := lineOf(t, ws, "store.go", s)
		return []ev{{"store.go", start, declEnd(t, ws, "store.go", start), review.SourceCode, why}}
	}
	tests := []struct {
		symbol string
		path   string // default store.go
		want   *want
	}{{
		symbol: "Store.Count",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of Store.Count only restates its name; state what sku must hold and what the returned int holds.",
			evidence: decl("func (s *Store) Count(", "declaration of Store.Count: takes sku string; returns int"),
		},
	}, {
		symbol: "Store.Close",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of Store.Close only restates its name; state what it releases, whether it is safe to call twice and when it returns an error.",
			evidence: decl("func (s *Store) Close(", "declaration of Store.Close: takes no arguments; returns error"),
		},
	}, {
		symbol: "New",
		want: &want{
			label:    review.Incomplete,
			message:  "state what name must hold and what the returned *Store holds.",
			evidence: decl("func New(", "declaration of New: takes name string; returns *Store"),
		},
	}, {
		symbol: "Snapshot",
		want: &want{
			label:    review.Incomplete,
			message:  "state what a Snapshot holds or stands for, whether its zero value is ready to use, and whether it is safe for concurrent use.",
			evidence: decl("type Snapshot struct", "declaration of Snapshot: struct with 1 field"),
		},
	},
		{symbol: "Store.Name"},    // trivial accessor: return s.name
		{symbol: "Store.IsEmpty"}, // Is… with one return statement
		{symbol: "Store.String"},  // String methods are exempt
		{symbol: "Store.reset"},   // unexported
		{symbol: "MaxSKUs"},       // consts are exempt
		{symbol: "ErrNotFound"},   // says what it is returned for
		{symbol: "Store"},         // two sentences
		{symbol: "Store.Add"},     // says more than the name
		{symbol: "Store.Hold"},    // a full doc
		{symbol: "package inventory"},
		{symbol: "NewPool", path: "pool.go"},   // constructor without parameters
		{symbol: "Pool.Size", path: "pool.go"}, // return p.stats.size
		{symbol: "Pool.Mode", path: "pool.go"}, // Mode() Mode: the result type is the contract
		{symbol: "Pool.Len", path: "pool.go"},  // implements the documented Sizer.Len
		{
			symbol: "Pool.Weight", path: "pool.go",
			want: &want{
				label:   review.Incomplete,
				message: "Doc comment of Pool.Weight only restates its name; state what the returned int holds.",
				evidence: []ev{{"pool.go", lineOf(t, ws, "pool.go", "func (p *Pool) Weight("), declEnd(t, ws, "pool.go", lineOf(t, ws, "pool.go", "func (p *Pool) Weight(")),
					review.SourceCode, "declaration of Pool.Weight: takes no arguments; returns int"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = "store.go"
			}
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, path, tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

func TestRestatesNameDeprecated(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	c := goClaim(t, ws, "store.go", "Store.Close")
	c.Text = "Deprecated: Close closes the store.\n"
	got, err := (&RestatesName{}).Judge(t.Context(), ws, c)
	if err != nil || got != nil {
		t.Fatalf("Judge = %v, %v; want nil, nil", got, err)
	}
}

func TestResidue(t *testing.T) {
	tests := []struct {
		text   string
		names  []string
		remain []string
	}{
		{"Close closes the store.", []string{"Store.Close"}, nil},
		{"Closing closed stores.", []string{"Store.Close"}, nil},
		{"Entries returns the entries.", []string{"Cache.Entries"}, nil},
		{"NewHTTPClient creates a new HTTP client.", []string{"NewHTTPClient"}, nil},
		{"Close flushes pending writes.", []string{"Store.Close"}, []string{"flushes", "pending", "writes"}},
		{"Purge purges entries older than 30s.", []string{"Cache.Purge"}, []string{"entries", "older", "than", "30s"}},
		{`Name returns "restates-name".`, []string{"RestatesName.Name"}, []string{`"restates-name"`}},
		{"Type returns BoolType", []string{"BoolNode.Type"}, []string{"BoolType"}},
		{"Name is the name of the [Transformer].", []string{"Transform.Name"}, []string{"Transformer"}},
		{"Close closes the [Store].", []string{"Store.Close"}, nil},
		{"GetFloat64Slice gets the float64 slice.", []string{"FlagSet.GetFloat64Slice"}, nil},
		{"Int32SliceP returns the int32 slice p.", []string{"Int32SliceP"}, nil},
		{"Int32 returns the int64 value.", []string{"Value.Int32"}, []string{"int64"}},
		{"Read reads up to 512 bytes.", []string{"Reader.Read"}, []string{"up", "512", "bytes"}},
		{"IsInvalidLengthError reports whether it is invalid length error.", []string{"IsInvalidLengthError"}, nil},
		{"Ready reports whether the pool has capacity.", []string{"Pool.Ready"}, []string{"has", "capacity"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if d := cmp.Diff(tt.remain, residue(tt.text, tt.names...)); d != "" {
				t.Errorf("residue (-want +got):\n%s", d)
			}
		})
	}
}

func TestSentences(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"Close closes the store.", 1},
		{"Close closes the store. It is safe to call twice.", 2},
		{"Close closes the store.\n\nIt is idempotent.", 2},
		{"Close closes the store (see Open).", 1},
		{"", 0},
	}
	for _, tt := range tests {
		if got := sentences(tt.text); got != tt.want {
			t.Errorf("sentences(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

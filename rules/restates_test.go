package rules

import (
	"go/ast"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/google/go-cmp/cmp"
)

func TestRestatesName(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	// These docs restated their names before the fixture's diff already;
	// only an audit reports them (see TestPredatingGaps).
	ws.Scope = review.ScopeAll
	rule := &RestatesName{Audit: true}
	decl := func(s, why string) []ev {
		start := lineOf(t, ws, "store.go", s)
		return []ev{{"store.go", start, declEnd(t, ws, "store.go", start), review.SourceCode, why}}
	}
	tests := []struct {
		symbol string
		path   string // default store.go
		want   *want
	}{{
		// Straight-line code, but the doc is the name's words alone.
		symbol: "Store.Count",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of Store.Count only restates its name; state what sku must hold and what the returned int holds.",
			evidence: decl("func (s *Store) Count(", "declaration of Store.Count: takes sku string; returns int"),
		},
	}, {
		// Close returns nil only: no error contract to state.
		symbol: "Store.Close",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of Store.Close only restates its name; state what it releases and whether it is safe to call twice.",
			evidence: decl("func (s *Store) Close(", "declaration of Store.Close: takes no arguments; returns error (always nil)"),
		},
	}, {
		symbol: "Snapshot",
		want: &want{
			label:    review.Incomplete,
			message:  "state what a Snapshot holds or stands for, whether its zero value is ready to use, and whether it is safe for concurrent use.",
			evidence: decl("type Snapshot struct", "declaration of Snapshot: struct with 1 field"),
		},
	},
		{symbol: "New"},           // a straight-line constructor: return &Store{...}
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

// TestRestatesNameReal covers docs from audited modules (modelled in
// testdata/restatesreal) that say something their names do not, next to
// restatements from the same declarations that stay findings.
func TestRestatesNameReal(t *testing.T) {
	ws := loadWorkspace(t, "restatesreal")
	ws.Scope = review.ScopeAll
	rule := &RestatesName{Audit: true}
	decl := func(path, s, why string) []ev {
		start := lineOf(t, ws, path, s)
		return []ev{{path, start, declEnd(t, ws, path, start), review.SourceCode, why}}
	}
	tests := []struct {
		name   string
		path   string
		symbol string
		want   *want
	}{{
		// zap: Sync is a method of the receiver; its word is only the
		// stem of the receiver type's (Syncer).
		name: "another identifier", path: "ztest/writer.go", symbol: "Syncer.SetError",
	}, {
		name: "receiver type capitalised", path: "ztest/writer.go", symbol: "Syncer.Reset",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of Syncer.Reset only restates its name; state what it does and which state it changes.",
			evidence: decl("ztest/writer.go", "func (s *Syncer) Reset(", "declaration of Syncer.Reset: takes no arguments; returns nothing"),
		},
	}, {
		// Level is an identifier of the package, but also a word of the
		// name.
		name: "identifier that is a word of the name", path: "ztest/writer.go", symbol: "Syncer.SetLevel",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of Syncer.SetLevel only restates its name; state what l must hold.",
			evidence: decl("ztest/writer.go", "func (s *Syncer) SetLevel(", "declaration of Syncer.SetLevel: takes l Level; returns nothing"),
		},
	}, {
		// go-cmp: "as a uintptr" says the result is the receiver
		// converted, which the name Uintptr leaves open.
		name: "conversion", path: "value/pointer.go", symbol: "Pointer.Uintptr",
	}, {
		name: "same result without conversion", path: "value/pointer.go", symbol: "Pointer.Addr",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of Pointer.Addr only restates its name; state what the returned uintptr holds.",
			evidence: decl("value/pointer.go", "func (p Pointer) Addr(", "declaration of Pointer.Addr: takes no arguments; returns uintptr"),
		},
	}, {
		// squirrel: "updated" is a word of the receiver type, but not
		// a name for the receiver (an update builder, a builder).
		name: "receiver word as a verb", path: "squirrel/update.go", symbol: "UpdateBuilder.Table",
	}, {
		name: "receiver named by its words", path: "squirrel/update.go", symbol: "UpdateBuilder.Prefix",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of UpdateBuilder.Prefix only restates its name; state what sql must hold and what the returned UpdateBuilder holds.",
			evidence: decl("squirrel/update.go", "func (b UpdateBuilder) Prefix(", "declaration of UpdateBuilder.Prefix: takes sql string; returns UpdateBuilder"),
		},
	}, {
		// bigcache: every return statement returns nil, so there is no
		// error contract to state, and nothing else is missing.
		name: "error always nil", path: "bigcache/bigcache.go", symbol: "BigCache.ResetStats",
	}, {
		name: "error always nil with a parameter", path: "bigcache/bigcache.go", symbol: "BigCache.Drop",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of BigCache.Drop only restates its name; state what key must hold.",
			evidence: decl("bigcache/bigcache.go", "func (c *BigCache) Drop(", "declaration of BigCache.Drop: takes key string; returns error (always nil)"),
		},
	}, {
		// Straight-line code decides nothing a doc could leave open
		// (ristretto's Cache.MaxCost, paho's ClientOptionsReader.ClientID
		// were judged complete in audits).
		name: "straight-line result", path: "bigcache/bigcache.go", symbol: "BigCache.ShardCount",
	}, {
		name: "straight-line loop", path: "bigcache/bigcache.go", symbol: "BigCache.SetShardHits",
	}, {
		// nats' Conn.DiscoveredServersHandler: a nil-receiver guard
		// decides nothing a doc must state.
		name: "nil receiver guard", path: "bigcache/bigcache.go", symbol: "BigCache.Hits",
	}, {
		// nats' ObjectStoreConfig: each field documents an option.
		name: "struct with documented fields", path: "bigcache/bigcache.go", symbol: "CacheConfig",
	}, {
		name: "struct with an undocumented field", path: "bigcache/bigcache.go", symbol: "CacheOptions",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of CacheOptions only restates its name; state what a CacheOptions holds or stands for, whether its zero value is ready to use, and whether it is safe for concurrent use.",
			evidence: decl("bigcache/bigcache.go", "type CacheOptions struct", "declaration of CacheOptions: struct with 2 fields"),
		},
	}, {
		// The constants list the valid values.
		name: "type with constants", path: "bigcache/bigcache.go", symbol: "CacheMode",
	}, {
		name: "error sometimes not nil", path: "bigcache/bigcache.go", symbol: "BigCache.Reset",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of BigCache.Reset only restates its name; state when it returns an error.",
			evidence: decl("bigcache/bigcache.go", "func (c *BigCache) Reset(", "declaration of BigCache.Reset: takes no arguments; returns error"),
		},
	}, {
		// A bare return of a named result: the rule does not track
		// assignments, so the error may be set.
		name: "bare return", path: "bigcache/bigcache.go", symbol: "BigCache.Flush",
		want: &want{
			label:    review.Incomplete,
			message:  "Doc comment of BigCache.Flush only restates its name; state when it returns an error.",
			evidence: decl("bigcache/bigcache.go", "func (c *BigCache) Flush(", "declaration of BigCache.Flush: takes no arguments; returns error"),
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, goClaim(t, ws, tt.path, tt.symbol))
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
	got, err := (&RestatesName{Audit: true}).Judge(t.Context(), ws, c)
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
		// "as" and a type name state a conversion; "bytes" is no type.
		{"Uintptr returns the pointer as a uintptr.", []string{"Pointer.Uintptr"}, []string{"as uintptr"}},
		{"Bytes returns the slice as a []byte.", []string{"Buffer.Bytes"}, []string{"slice", "as byte"}},
		{"Bytes returns the buffer as bytes.", []string{"Buffer.Bytes"}, nil},
		{"Close closes the store as soon as possible.", []string{"Store.Close"}, []string{"soon", "possible"}},
		// The receiver type's words name the receiver only as a run that
		// ends its name: "cache", "big cache", "update builder".
		{"ResetStats resets the big cache stats.", []string{"BigCache.ResetStats"}, nil},
		{"ResetStats resets cache stats", []string{"BigCache.ResetStats"}, nil},
		{"Prefix sets the update builder prefix.", []string{"UpdateBuilder.Prefix"}, nil},
		{"Table sets the table to be updated.", []string{"UpdateBuilder.Table"}, []string{"updated"}},
		{"Reset resets the big stats.", []string{"BigCache.Reset"}, []string{"big", "stats"}},
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

func TestDecidesWithoutBody(t *testing.T) {
	// A func implemented in assembly has no body.
	if decides(&ast.FuncDecl{Name: ast.NewIdent("Sqrt"), Type: &ast.FuncType{}}) {
		t.Error("a func without a body decides something")
	}
}

// TestRestatesNameAudit checks that an audit leaves restatements alone by
// default, and reports them with Audit set.
func TestRestatesNameAudit(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	ws.Scope = review.ScopeAll
	c := goClaim(t, ws, "store.go", "Store.Count")
	if got, err := (&RestatesName{}).Judge(t.Context(), ws, c); err != nil || got != nil {
		t.Errorf("default audit: got %v, %v; want no verdict", got, err)
	}
	if got, err := (&RestatesName{Audit: true}).Judge(t.Context(), ws, c); err != nil || got == nil {
		t.Errorf("audit with Audit set: got %v, %v; want a verdict", got, err)
	}
}

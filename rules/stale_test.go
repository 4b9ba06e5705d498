package rules

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	"github.com/google/go-cmp/cmp"
)

func TestStaleReference(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	rule := &StaleReference{}

	def := func(path, decl, why string) ev {
		start := lineOf(t, ws, path, decl)
		return ev{path, start, declEnd(t, ws, path, start), review.SourceCode, why}
	}
	line := func(path, s string, source review.Source, why string) ev {
		l := lineOf(t, ws, path, s)
		return ev{path, l, l, source, why}
	}
	holdDef := def("store.go", "func (s *Store) Hold(", "defines Store.Hold")
	releaseDef := def("store.go", "func (s *Store) Release(", "defines Store.Release")

	tests := []struct {
		name  string
		claim func() review.Claim
		// fix is the replacement applied to the claim's text to give the
		// suggestion; empty for none.
		fix  []string
		want *want
	}{{
		name:  "renamed in the diff, doc link in a doc comment",
		claim: func() review.Claim { return goClaim(t, ws, "store.go", "Store.Release") },
		fix:   []string{"[Store.Reserve]", "[Store.Hold]"},
		want: &want{
			label:   review.Contradicted,
			message: "Store.Reserve was renamed to Store.Hold in this diff",
			evidence: []ev{
				holdDef,
				{"store.go", lineOf(t, ws, "store.go", "// Hold takes"), lineOf(t, ws, "store.go", "func (s *Store) Hold("), review.SourceDiff, "Store.Reserve renamed to Store.Hold in this diff"},
				usageOf(t, ws, "store_test.go", "func TestHold", review.SourceTest, "test that calls Store.Hold"),
			},
		},
	}, {
		name:  "two close names in one doc comment",
		claim: func() review.Claim { return goClaim(t, ws, "store.go", "Store.Add") },
		fix:   []string{"`Store.Relase`", "`Store.Release`", "[MaxSKU]", "[MaxSKUs]"},
		want: &want{
			label:   review.Contradicted,
			message: "Store.Relase does not exist in package inventory (the closest existing name is Store.Release); MaxSKU does not exist in package inventory (the closest existing name is MaxSKUs)",
			evidence: []ev{
				releaseDef,
				usageOf(t, ws, "example_test.go", "func ExampleStore_Release", review.SourceExample, "example of Store.Release"),
				line("store.go", "const MaxSKUs", review.SourceCode, "defines MaxSKUs"),
				// No test uses MaxSKUs in the symbol graph; the lexical
				// channel finds one that names it.
				usageOf(t, ws, "store_test.go", "func TestLimit", review.SourceTest, "BM25: test that uses MaxSKUs"),
			},
		},
	}, {
		name:  "removed in the diff, nothing close",
		claim: func() review.Claim { return goClaim(t, ws, "store.go", "Store.Snapshot") },
		want: &want{
			label:    review.Contradicted,
			message:  "Store.Drain was removed in this diff",
			evidence: []ev{{"store.go", 85, 90, review.SourceDiff, "Store.Drain removed in this diff"}},
		},
	}, {
		name:  "markdown: close name from the module root",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "Store.Relase") },
		fix:   []string{"Store.Relase", "Store.Release"},
		want: &want{
			label:   review.Contradicted,
			message: "Store.Relase does not exist in package inventory (the closest existing name is Store.Release)",
			evidence: []ev{
				releaseDef,
				usageOf(t, ws, "example_test.go", "func ExampleStore_Release", review.SourceExample, "example of Store.Release"),
			},
		},
	}, {
		name:  "markdown: removed in the diff",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "Store.Drain") },
		want: &want{
			label:    review.Contradicted,
			message:  "Store.Drain was removed in this diff",
			evidence: []ev{{"store.go", 85, 90, review.SourceDiff, "Store.Drain removed in this diff"}},
		},
	}, {
		name:  "markdown in a directory without a package: qualified doc link",
		claim: func() review.Claim { return mdClaim(t, ws, "docs/guide.md", "inventory.Neww") },
		fix:   []string{"[inventory.Neww]", "[inventory.New]"},
		want: &want{
			label:   review.Contradicted,
			message: "inventory.Neww does not exist in package inventory (the closest existing name is inventory.New)",
			evidence: []ev{
				def("store.go", "func New(", "defines inventory.New"),
				// TestHold and TestLimit call New but neither calls
				// Store.Close, the other member the sentence names: a test
				// that merely calls the new name does not bear on the
				// claim, so none is cited.
			},
		},
	}, {
		name:  "identifier-shaped prose word",
		claim: func() review.Claim { return proseClaim(ws, "Call Store.Relase() to give units back.") },
		fix:   []string{"Store.Relase", "Store.Release"},
		want: &want{
			label:   review.Contradicted,
			message: "Store.Relase does not exist",
			evidence: []ev{
				releaseDef,
				usageOf(t, ws, "example_test.go", "func ExampleStore_Release", review.SourceExample, "example of Store.Release"),
			},
		},
	}, {
		name:  "names that resolve",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "inventory.Store.Hold") },
	}, {
		name:  "doc comment whose links resolve",
		claim: func() review.Claim { return goClaim(t, ws, "store.go", "Store.Hold") },
	}, {
		name:  "nothing close and not in the diff: absent, with no suggestion",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "Store.Frobnicate") },
		want: &want{
			label:   review.Contradicted,
			message: "Store.Frobnicate does not exist: type Store has no field or method Frobnicate, and no name there is close to it",
			evidence: []ev{
				def("store.go", "type Store struct", "declares Store, which has no field or method Frobnicate"),
			},
		},
	}, {
		name:  "a guide whose code is in another language names that language's API",
		claim: func() review.Claim { return mdClaim(t, ws, "docs/java.md", "Store.Frobnicate") },
	}, {
		name:  "standard library and third-party names",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "http.Get") },
	}, {
		name:  "names inside code blocks belong to the snippet rule",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "s.Reserve(ctx") },
	}, {
		name:  "plain English words are not identifiers",
		claim: func() review.Claim { return proseClaim(ws, "Released stock is Holdable again.") },
	}, {
		name:  "a test file's doc comment may name the test files' declarations",
		claim: func() review.Claim { return goClaim(t, ws, "store_test.go", "TestHold") },
	}, {
		name: "quoted examples in prose are not references",
		claim: func() review.Claim {
			return proseClaim(ws, `Identifier-shaped words such as "Store.Relase" are checked.`)
		},
	}, {
		name:  "doc comment opening with a misspelling of its symbol",
		claim: func() review.Claim { return goClaim(t, ws, "pool.go", "Pool.AddStore") },
		fix:   []string{"AddStor adds", "AddStore adds"},
		want: &want{
			label:   review.Contradicted,
			message: "The doc comment of Pool.AddStore opens with AddStor, which does not exist; it should name AddStore",
			evidence: []ev{
				def("pool.go", "func (p *Pool) AddStore(", "defines Pool.AddStore, the declaration this doc comment documents"),
			},
		},
	}, {
		// connect's Unmarshal doc: "Marshal unmarshals the given message".
		name: "a doc comment copied from a sibling's, opening with its name",
		claim: func() review.Claim {
			c := goClaim(t, ws, "store.go", "Store.Count")
			c.Text = strings.Replace(c.Text, "Count returns", "Close closes", 1)
			return c
		},
		fix: []string{"Close closes", "Count closes"},
		want: &want{
			label:   review.Contradicted,
			message: "The doc comment of Store.Count opens with Close, another method of Store, whose own doc opens the same way: it was copied from Close's; by Go convention it opens with Count",
			evidence: []ev{
				line("store.go", "// Close closes the store.", review.SourceCode, "the doc of Store.Close, which opens with Close too"),
				def("store.go", "func (s *Store) Count(", "defines Store.Count, the declaration this doc comment documents"),
			},
		},
	}, {
		// "Hold and Count …" documents both; "Store counts …" names a
		// type, not a sibling method.
		name: "a doc comment whose first sentence names its own symbol too, or opens with a type",
		claim: func() review.Claim {
			c := goClaim(t, ws, "store.go", "Store.Count")
			c.Text = strings.Replace(c.Text, "Count returns the count.", "Close and Count return the count. Store counts.", 1)
			return c
		},
	}, {
		name: "a doc comment opening with a type's name",
		claim: func() review.Claim {
			c := goClaim(t, ws, "store.go", "Store.Count")
			c.Text = strings.Replace(c.Text, "Count returns", "Store returns", 1)
			return c
		},
	}, {
		name:  "change logs are history",
		claim: func() review.Claim { return mdClaim(t, ws, "CHANGELOG.md", "Store.Reserve") },
	}, {
		name:  "plural of an existing name",
		claim: func() review.Claim { return proseClaim(ws, "Keep `Snapshots` of every store.") },
	}, {
		// squirrel writes "ExecContext builds and ExecContexts the query":
		// a method's name with an -s, used as a verb.
		name: "a method name used as a verb",
		claim: func() review.Claim {
			c := goClaim(t, ws, "store.go", "Store.Hold")
			c.Mentions = append(c.Mentions, review.Mention{Kind: review.MentionIdent, Text: "AddStores", Line: c.Line, EndLine: c.Line})
			return c
		},
	}, {
		name: "a doc comment opening with its symbol's plural",
		claim: func() review.Claim {
			// The fixture's doc opens with "AddStor"; make it "AddStores".
			c := goClaim(t, ws, "pool.go", "Pool.AddStore")
			c.Text = strings.Replace(c.Text, "AddStor ", "AddStores ", 1)
			for i := range c.Mentions {
				if c.Mentions[i].Text == "AddStor" {
					c.Mentions[i].Text = "AddStores"
				}
			}
			return c
		},
		fix: []string{"AddStores adds", "AddStore adds"},
		want: &want{
			label:   review.Contradicted,
			message: "The doc comment of Pool.AddStore opens with AddStores, which does not exist; it should name AddStore",
			evidence: []ev{
				def("pool.go", "func (p *Pool) AddStore(", "defines Pool.AddStore, the declaration this doc comment documents"),
			},
		},
	}, {
		name: "the closest name is the claim's own symbol",
		claim: func() review.Claim {
			c := goClaim(t, ws, "store.go", "Store.Count")
			c.Mentions = append(c.Mentions, review.Mention{Kind: review.MentionCode, Text: "Store.Cont", Line: c.Line, EndLine: c.Line})
			return c
		},
	}, {
		name: "receiver-less member name and own parameter",
		claim: func() review.Claim {
			c := goClaim(t, ws, "store.go", "Store.Hold")
			c.Mentions = append(c.Mentions,
				review.Mention{Kind: review.MentionCode, Text: "Release", Line: c.Line, EndLine: c.Line},
				// Store.Drain was removed, but Pool.Drain exists.
				review.Mention{Kind: review.MentionCode, Text: "Drain", Line: c.Line, EndLine: c.Line},
				review.Mention{Kind: review.MentionCode, Text: "sku", Line: c.Line, EndLine: c.Line},
				review.Mention{Kind: review.MentionCode, Text: "nil", Line: c.Line, EndLine: c.Line})
			return c
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.claim()
			if tt.want != nil && len(tt.fix) > 0 {
				r := strings.NewReplacer(tt.fix...)
				tt.want.suggestion = r.Replace(c.Text)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestStaleReferenceNeedsTheDiff checks that without the diff a renamed
// name gets no guessed replacement from an unrelated close name.
// TestStaleReferenceLexicalUsage checks that, when the symbol graph knows
// no test or example using the corrected name, the retriever's lexical
// channel supplies one.
func TestStaleReferenceLexicalUsage(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	c := goClaim(t, ws, "store.go", "Store.Add")
	got, err := (&StaleReference{}).Judge(t.Context(), ws, c)
	if err != nil || got == nil {
		t.Fatalf("Judge = %v, %v; want a verdict", got, err)
	}
	start := lineOf(t, ws, "store_test.go", "func TestLimit")
	want := ev{"store_test.go", start, declEnd(t, ws, "store_test.go", start), review.SourceTest, "BM25: test that uses MaxSKUs"}
	for _, e := range got.Evidence {
		if e.Why == want.Why {
			if d := cmp.Diff(want, ev{e.Path, e.StartLine, e.EndLine, e.Source, e.Why}); d != "" {
				t.Errorf("lexical evidence (-want +got):\n%s", d)
			}
			if e.Score <= 0 {
				t.Errorf("lexical evidence has score %v, want > 0", e.Score)
			}
			return
		}
	}
	t.Errorf("no lexical evidence among %+v", got.Evidence)
}

func TestStaleReferenceNeedsTheDiff(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	ws.Diff, ws.BaseFS = nil, nil
	c := goClaim(t, ws, "store.go", "Store.Release")
	got, err := (&StaleReference{}).Judge(t.Context(), ws, c)
	if err != nil {
		t.Fatal(err)
	}
	if got != nil && strings.Contains(got.Suggestion, "Store.Hold") {
		t.Fatalf("suggested %q without the diff", got.Suggestion)
	}
}

// proseClaim is a Markdown claim of README.md with the given text, whose
// mentions are found with the symbol table as the resolver, as the
// extractor does for a review.
func proseClaim(ws *review.Workspace, text string) review.Claim {
	return review.Claim{
		Path: "README.md", Line: 1, EndLine: 1, Kind: review.KindMarkdown, Text: text,
		Mentions: extract.Mentions(text, 1, ws.Symbols, "."),
	}
}

// usageOf is the evidence expected for the test or example function fn
// that uses a symbol: the whole function.
func usageOf(t *testing.T, ws *review.Workspace, path, fn string, source review.Source, why string) ev {
	t.Helper()
	decl := lineOf(t, ws, path, fn)
	return ev{path, docStart(t, ws, path, decl), declEnd(t, ws, path, decl), source, why}
}

// docStart returns the first line of the doc comment right above line
// decl of a head file, or decl when there is none: where the retriever's
// chunk of the declaration starts.
func docStart(t *testing.T, ws *review.Workspace, path string, decl int) int {
	t.Helper()
	src, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	start := decl
	for start > 1 && strings.HasPrefix(lines[start-2], "//") {
		start--
	}
	return start
}

// TestStaleReferenceRenamedBesideImport checks that a bare name an
// imported package also exports is still the package's own when this
// diff renamed the package's declaration of it: ndp's "an error from
// ParseMessage" after ParseMessage became ParseNo, beside x/net/icmp's
// ParseMessage.
func TestStaleReferenceRenamedBesideImport(t *testing.T) {
	ws := loadWorkspace(t, "importrename")
	c := resolvedClaim(t, ws, "span.go", "errBad reports")
	got, err := (&StaleReference{}).Judge(t.Context(), ws, c)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Message != "ParseDuration was renamed to ParseSpan in this diff." {
		t.Fatalf("got %+v, want ParseDuration reported renamed", got)
	}
	// An example program's doc names a func of the library it imports
	// bare (pmtiles' minimal example, "Uses only two library functions,
	// SerializeHeader and SerializeEntries").
	demo := resolvedClaim(t, ws, "demo/main.go", "Command demo")
	got, err = (&StaleReference{}).Judge(t.Context(), ws, demo)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Message != "RoundSpan was renamed to TruncSpan in this diff." {
		t.Fatalf("demo: got %+v, want RoundSpan reported renamed", got)
	}
	// Without the diff, the bare name is time's ParseDuration.
	ws.Diff, ws.BaseFS = nil, nil
	if got, err := (&StaleReference{}).Judge(t.Context(), ws, c); err != nil || got != nil {
		t.Fatalf("without the diff: got %+v, %v; want no verdict", got, err)
	}
}

func TestCertainlyClose(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	pkg := ws.Symbols.Package(".")
	tests := []struct {
		a, b   string
		member bool
		want   bool
	}{
		{"Store.Relase", "Store.Release", true, true},
		{"MaxSKU", "MaxSKUs", false, true},
		{"Stor.Drain", "Store.Drain", false, true},
		{"Store.HoldAll", "Store.Hold", true, true},     // words dropped from a member
		{"HoldAll", "Hold", false, false},               // not from a top-level name
		{"NewStore", "New", false, true},                // a type's name dropped
		{"Pool", "InventoryPool", false, true},          // the package's name added
		{"Hold", "StoreHold", false, true},              // a type's name added
		{"Shot", "Snapshot", false, false},              // "Snap" is no package or type name
		{"Store.Hold", "Store.HoldAll", true, false},    // words added to a member
		{"reset", "Reset", false, false},                // exportedness differs
		{"Store.Frobnicate", "Store.Hold", true, false}, // not close
		{"EncodeOptions", "IndexOptions", false, false}, // a whole word differs
		{"AddOptions", "Options", false, false},         // a word dropped from a top-level name
		{"Store.Releas", "Store.Release", true, true},
		{"SweepExpierd", "SweepExpired", false, true},
		{"Store.Hold", "Pool.Drain", false, false}, // two parts differ
	}
	for _, tt := range tests {
		if got := certainlyClose(tt.a, tt.b, pkg, tt.member); got != tt.want {
			t.Errorf("certainlyClose(%q, %q, member %v) = %v, want %v", tt.a, tt.b, tt.member, got, tt.want)
		}
	}
}

func TestHasMember(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	for _, c := range []review.Claim{
		{Path: "store.go", Kind: review.KindDocComment, Package: "."},
		{Path: "docs/guide.md", Kind: review.KindMarkdown},
	} {
		sc := newScope(ws.Symbols, c)
		for name, want := range map[string]bool{"Tally": true, "Hold": true, "AddStore": true, "Frob": false, "New": false} {
			if got := sc.hasMember(name); got != want {
				t.Errorf("%s: hasMember(%q) = %v, want %v", c.Path, name, got, want)
			}
		}
	}
}

func TestQuotedOnly(t *testing.T) {
	tests := []struct {
		text, name string
		want       bool
	}{
		{`words such as "NewStore" and "maxSize"`, "NewStore", true},
		{`call "Hold()" twice`, "Hold", true},
		{`"NewStore" is gone; use NewStore`, "NewStore", false},
		{`use NewStore`, "NewStore", false},
		{`no mention`, "NewStore", false},
	}
	for _, tt := range tests {
		if got := quotedOnly(tt.text, tt.name); got != tt.want {
			t.Errorf("quotedOnly(%q, %q) = %v, want %v", tt.text, tt.name, got, tt.want)
		}
	}
}

func TestStaleReferenceRenamedMethods(t *testing.T) {
	ws := loadWorkspace(t, "rename")
	rule := &StaleReference{}
	tests := []struct {
		name       string
		claim      func() review.Claim
		message    string
		suggestion string
	}{{
		name:       "doc opening with the old name, a plain word",
		claim:      func() review.Claim { return goClaim(t, ws, "route.go", "Route.Nest") },
		message:    "Subrouter was renamed to Nest in this diff",
		suggestion: "Nest creates a router for the paths under the route.",
	}, {
		name:       "receiver-less old method name in Markdown",
		claim:      func() review.Claim { return extracted(t, ws, "README.md") },
		message:    "GetPath was renamed to PathTemplate in this diff",
		suggestion: "Call PathTemplate() to read a route's template.",
	}, {
		name:       "receiver-less misspelt method name",
		claim:      func() review.Claim { return mdClaim(t, ws, "README.md", "Wakl") },
		message:    "Wakl does not exist in package routes (the closest existing name is Walk)",
		suggestion: "The `Walk` method visits a route.",
	}, {
		name:       "doc link by import path into another module package",
		claim:      func() review.Claim { return goClaim(t, ws, "route.go", "Route.Mount") },
		message:    "sub.Opne does not exist in package sub (the closest existing name is sub.Open).",
		suggestion: "Mount mounts the routes; see [example.com/routes/sub.Open] and [encoding/json.Marshl].",
	}, {
		name:       "a name the diff wrote in place of an existing one, declared nowhere",
		claim:      func() review.Claim { return goClaim(t, ws, "route.go", "Route.Match") },
		message:    "This diff replaced RouteSet with RouteGroup, which does not exist.",
		suggestion: "Match reports whether the route matches p; see RouteSet.",
	}, {
		name:       "a Markdown name the diff wrote in place of an existing one, declared nowhere",
		claim:      func() review.Claim { return mdClaim(t, ws, "README.md", "RouteBag") },
		message:    "This diff replaced RouteSet with RouteBag, which does not exist.",
		suggestion: "Group the routes of a service with a RouteSet.",
	}, {
		name:       "a doc the diff made open with another declaration's name",
		claim:      func() review.Claim { return goClaim(t, ws, "route.go", "Table") },
		message:    "This diff made RouteSet the first word of the doc comment of Table, where Table was",
		suggestion: "Table holds the routes by path.",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, tt.claim())
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("got no verdict, want contradicted")
			}
			if got.Label != review.Contradicted || !strings.Contains(got.Message, tt.message) || got.Suggestion != tt.suggestion {
				t.Errorf("got %s %q, suggestion %q; want contradicted %q, suggestion %q", got.Label, got.Message, got.Suggestion, tt.message, tt.suggestion)
			}
		})
	}
}

// extracted returns the first claim of path that the extractor selects
// for the workspace's diff in the affected scope, with the mentions it
// resolves through the diff's changes.
func extracted(t *testing.T, ws *review.Workspace, path string) review.Claim {
	t.Helper()
	for _, c := range extractAll(t, ws, review.ScopeAffected) {
		if c.Path == path {
			return c
		}
	}
	t.Fatalf("%s: no claim selected", path)
	return review.Claim{}
}

// extractAll returns the claims the extractor selects in scope, with the
// mentions it resolves through the workspace's symbols.
func extractAll(t *testing.T, ws *review.Workspace, scope review.Scope) []review.Claim {
	t.Helper()
	claims, _, err := (&extract.Extractor{}).Extract(t.Context(), ws, scope)
	if err != nil {
		t.Fatal(err)
	}
	return claims
}

// resolvedClaim returns the claim of path containing s as the extractor
// selects it in --scope all, its bare names resolved.
func resolvedClaim(t *testing.T, ws *review.Workspace, path, s string) review.Claim {
	t.Helper()
	for _, c := range extractAll(t, ws, review.ScopeAll) {
		if c.Path == path && strings.Contains(c.Text, s) {
			return c
		}
	}
	t.Fatalf("%s: no claim containing %q", path, s)
	return review.Claim{}
}

// fakeHistory answers RemovedIn from a map.
type fakeHistory map[string]review.Commit

func (h fakeHistory) RemovedIn(_ context.Context, name string) (review.Commit, bool, error) {
	c, ok := h[name]
	return c, ok, nil
}

// TestStaleReferenceEditedClean: a diff that replaces a name by another
// existing one, or by a word sharing nothing with it, or that edits a code
// example, is not judged.
func TestStaleReferenceEditedClean(t *testing.T) {
	ws := loadWorkspace(t, "rename")
	for _, sym := range []string{"Route.Clean", "Route.Serve", "Route.Each"} {
		got, err := (&StaleReference{}).Judge(t.Context(), ws, goClaim(t, ws, "route.go", sym))
		if err != nil {
			t.Fatal(err)
		}
		if got != nil {
			t.Errorf("%s: got %s %q, want no verdict", sym, got.Label, got.Message)
		}
	}
	// In Markdown: RouteSet became Table, another existing name.
	got, err := (&StaleReference{}).Judge(t.Context(), ws, mdClaim(t, ws, "README.md", "in a Table"))
	if err != nil {
		t.Fatal(err)
	}
	if got != nil {
		t.Errorf("README.md: got %s %q, want no verdict", got.Label, got.Message)
	}
}

func TestStaleReferenceHistory(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	ws.History = fakeHistory{"Store.Relase": {SHA: "0123456789abcdef", Short: "0123456789ab", Date: "2026-01-02", Subject: "store: drop Relase"}}
	got, err := (&StaleReference{}).Judge(t.Context(), ws, goClaim(t, ws, "store.go", "Store.Add"))
	if err != nil {
		t.Fatal(err)
	}
	want := `Store.Relase does not exist in package inventory (the closest existing name is Store.Release); it was removed in commit 0123456789ab (2026-01-02, "store: drop Relase")`
	if got == nil || !strings.Contains(got.Message, want) {
		t.Fatalf("got %+v, want a message containing %q", got, want)
	}
	ws.History = fakeHistory{}
	got, err = (&StaleReference{}).Judge(t.Context(), ws, goClaim(t, ws, "store.go", "Store.Add"))
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || strings.Contains(got.Message, "removed in commit") {
		t.Fatalf("got %+v, want the finding without history", got)
	}
}

func TestStaleReferenceRenamedEarlier(t *testing.T) {
	ws := loadWorkspace(t, "rename")
	claim := func(text string) review.Claim {
		c := mdClaim(t, ws, "README.md", "Wakl")
		c.Text = text
		c.Mentions = []review.Mention{{Kind: review.MentionCode, Text: "Route.Resolve", Line: c.Line, EndLine: c.Line}}
		return c
	}
	commit := review.Commit{SHA: "0123456789abcdef", Short: "0123456789ab", Date: "2026-01-02", Subject: "routes: rename Resolve"}
	tests := []struct {
		name       string
		added      []string
		message    string
		suggestion string
	}{
		{"one replacement", []string{"Route.PathTemplate"},
			`Route.Resolve was renamed to Route.PathTemplate in commit 0123456789ab (2026-01-02, "routes: rename Resolve")`,
			"Call `Route.PathTemplate` for the template."},
		// Without one certain replacement the name is still absent.
		{"two candidates", []string{"Route.PathTemplate", "Route.Walk"}, "Route.Resolve does not exist: type Route has no field or method Resolve", ""},
		{"replacement gone since", []string{"Route.Missing"}, "Route.Resolve does not exist: type Route has no field or method Resolve", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := commit
			c.Added = tt.added
			ws.History = fakeHistory{"Route.Resolve": c}
			got, err := (&StaleReference{}).Judge(t.Context(), ws, claim("Call `Route.Resolve` for the template."))
			if err != nil {
				t.Fatal(err)
			}
			if tt.message == "" {
				if got != nil {
					t.Fatalf("got %q, want no verdict", got.Message)
				}
				return
			}
			if got == nil || !strings.Contains(got.Message, tt.message) || got.Suggestion != tt.suggestion {
				t.Fatalf("got %+v, want message %q and suggestion %q", got, tt.message, tt.suggestion)
			}
		})
	}
}

// TestUsageEvidenceBearsOnTheClaim: a test of the replacement name is
// cited only when it uses another member the claim names, or when the
// claim names none.
func TestUsageEvidenceBearsOnTheClaim(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	start := lineOf(t, ws, "store_test.go", "func TestLimit")
	ev := review.Evidence{Path: "store_test.go", StartLine: start, EndLine: declEnd(t, ws, "store_test.go", start)}
	tests := []struct {
		claim string
		want  bool
	}{
		{"Create one with [inventory.Neww].", true},
		{"Create one with [inventory.Neww] and release it with `Store.Close`.", false},
		{"Create one with [inventory.Neww]; [Store.Add] fails past [MaxSKUs].", true},
		{"See `Store.Relase` and [MaxSKU].", true},
	}
	for _, tt := range tests {
		if got := bearsOn(ws, ev, tt.claim, []string{"inventory.Neww", "inventory.New", "Store.Relase", "Store.Release", "MaxSKU", "MaxSKUs"}); got != tt.want {
			t.Errorf("bearsOn(%q) = %v, want %v", tt.claim, got, tt.want)
		}
	}
}

// TestStaleReferenceSiblingCopy covers doc comments copied from a
// sibling's: one that opens with the sibling's name, one whose copied
// sentence keeps a name belonging to the sibling.
func TestStaleReferenceSiblingCopy(t *testing.T) {
	ws := loadWorkspace(t, "sibling")
	rule := &StaleReference{}
	tests := []struct {
		symbol string
		fix    []string
		want   *want
	}{
		{"Value.AsStringSlice", []string{"INT64SLICE", "STRINGSLICE"}, &want{
			label:   review.Contradicted,
			message: "The doc comment of Value.AsStringSlice names INT64SLICE in a sentence copied word for word from the doc of Value.AsInt64Slice, where INT64SLICE belongs; for AsStringSlice it is STRINGSLICE.",
			evidence: []ev{
				{"value.go", 22, 23, review.SourceCode, "the doc of Value.AsInt64Slice, which has the same sentence with INT64SLICE"},
				{"value.go", 12, 12, review.SourceCode, "defines STRINGSLICE"},
			},
		}},
		{"Value.Unmarshal", []string{"Marshal unmarshals", "Unmarshal unmarshals"}, &want{
			label:   review.Contradicted,
			message: "The doc comment of Value.Unmarshal opens with Marshal, another method of Value, whose own doc opens the same way: it was copied from Marshal's; by Go convention it opens with Unmarshal.",
			evidence: []ev{
				{"value.go", 30, 30, review.SourceCode, "the doc of Value.Marshal, which opens with Marshal too"},
				{"value.go", 34, 34, review.SourceCode, "defines Value.Unmarshal, the declaration this doc comment documents"},
			},
		}},
		// The sibling named on purpose, in a sentence of its own.
		{"Value.Len", nil, nil},
		// A doc shared by two siblings names each one's type.
		{"Int64Slice", nil, nil},
		// "Reset the value …": an imperative verb, on either method.
		{"Value.ResetKeep", nil, nil},
		{"Value.AsInt64Slice", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "value.go", tt.symbol)
			if tt.want != nil {
				tt.want.suggestion = strings.NewReplacer(tt.fix...).Replace(c.Text)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

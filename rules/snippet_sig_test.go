package rules

import (
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

// TestGoSnippetSignatureListing: a block that lists signatures is
// compared with the declarations it copies: a count or a type that
// certainly differs contradicts it; names, any for interface{}, a named
// type written as its underlying type, unresolved and generic
// declarations do not.
func TestGoSnippetSignatureListing(t *testing.T) {
	ws := loadWorkspace(t, "siglisting")
	ws.Scope = review.ScopeAll
	tests := []struct {
		line string // a line of the claim's block
		want string // a part of the message, "" for no verdict
		fix  string // a part of the suggestion, "" for none
		// guide reads docs/guide.md, whose package is not certain,
		// instead of store/README.md.
		guide bool
	}{
		{"func New(names ...string) *Store", "the code declares `func New(timeout time.Duration, names ...string) *Store`", "func New(timeout time.Duration, names ...string) *Store", false},
		{"func (s *Store) Get(key string) (string, error)", "", "", false},
		{"func (s *Store) Get(k string) (value string, err error)", "", "", false}, // own qualifier, other names
		{"func (s *Store) Each(fn func(key string, v any) bool)", "", "", false},
		{"func (s *Store) Hook() func(string) error", "", "", false}, // Hook's underlying type
		{"func (s *Store) Timeout() int", "lists Store.Timeout as `func (s *Store) Timeout() int`", "Timeout() time.Duration", false},
		{"func (s *Store) Level() string", "", "", false}, // Level is a string
		{"func (s *Store) Ctx() *Context", "`func (s *Store) Ctx() Context`", "Ctx() Context", false},
		{"result.Uint() int64", "lists Result.Uint as `result.Uint() int64`", "result.Uint() uint64   // the value", false},
		{"result.Uint() uint64", "", "", false},
		{"x.Close() bool", "", "", false}, // Closer and Store both close
		{"func Gone() int", "", "", false},
		{"p.Missing() int", "", "", false},
		{"func Map[T any](in []T) []T", "", "", false},
		{"func Open[T any](size, extra T) *Store", "", "", false}, // a generic listing: its T is its own
		{"func (s *Store) Server() *dep.Server", "", "", false},   // dep is not loaded
		// docs/guide.md is read from the root package; other.New fits.
		{"func New(names ...string) *Store", "", "", true},
		{"func Open(names ...string) *Store", "the code declares `func Open(size int) *Store`", "func Open(size int) *Store", true},
		{"func (s *Store) Get(key, def string)", "the listed signature is that of GetDefault", "func (s *Store) GetDefault(key, def string)", false},
		{"func (s *Store) Get(k, d string)", "the code declares `func (s *Store) Get(key string) (string, error)`.", "func (s *Store) Get(key string) (string, error)", false}, // the heading does not name GetDefault
		{"New(timeout time.Duration) *Store", "lists New as `New(timeout time.Duration) *Store`", "New(timeout time.Duration, names ...string) *Store", false},
		{"redis.IsErr(err)", "", "", false}, // a call, not a listing; redis is unknown
		{"name.last", "", "", false},        // not Go: a query language's paths
		{"s := store.New(time.Second", "does not parse", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			file := "store/README.md"
			if tt.guide {
				file = "docs/guide.md"
			}
			c := mdClaim(t, ws, file, tt.line)
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if !checkContradicted(t, got, tt.want, strings.Contains) {
				return
			}
			if !strings.Contains(got.Suggestion, tt.fix) || (tt.fix == "") != (got.Suggestion == "") {
				t.Errorf("suggestion %q, want one with %q", got.Suggestion, tt.fix)
			}
			if tt.want != "does not parse" && (len(got.Evidence) < 2 || !strings.HasSuffix(got.Evidence[1].Path, ".go")) {
				t.Errorf("evidence %+v, want the declaration's line", got.Evidence)
			}
		})
	}
}

func TestSigListing(t *testing.T) {
	tests := []struct {
		text string
		want []string // the entries' names
	}{
		{"func New(config ...Config) fiber.Handler\nfunc (s *Store) Get(key string) ([]byte, error)", []string{"New", "Get"}},
		{"// listing\nresult.Int() int64 // note\n\nresult.Map() map[string]Result", []string{"Int", "Map"}},
		{"p.Sanitize(string) string", []string{"Sanitize"}},
		{"DialTCP(ctx context.Context, addr string) (*TCPConnection, error)", []string{"DialTCP"}},
		{"Println(x)", nil},                           // a call
		{"redis.IsLoadingError(err)", nil},            // a call
		{"func main() {\n\tfmt.Println(1)\n}", nil},   // a body
		{"func New() *Store\nx := New()", nil},        // mixed with code
		{"import \"fmt\"\nfunc Print(a ...any)", nil}, // imports: a file
		{"func (s *Store) Each(fn func(v interface{}) bool)", []string{"Each"}},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range sigListing(tt.text) {
			got = append(got, e.name)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("sigListing(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestGoSnippetPointerToInterface: a method called through a pointer to
// an interface is reported as that, with the interface as evidence, not
// as a member the type lacks.
func TestGoSnippetPointerToInterface(t *testing.T) {
	ws := loadWorkspace(t, "siglisting")
	ws.Scope = review.ScopeAll
	c := mdClaim(t, ws, "store/README.md", "c *store.Context")
	got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
	if err != nil {
		t.Fatal(err)
	}
	want := "The Go code block calls Key on a *store.Context, a pointer to an interface, which has no methods: store.Context is an interface, so write store.Context, not *store.Context."
	if !checkContradicted(t, got, want, equal) {
		return
	}
	if len(got.Evidence) != 2 || got.Evidence[1].Why != "Context is an interface" || got.Evidence[1].Path != "store/store.go" {
		t.Errorf("evidence %+v, want the interface's declaration", got.Evidence)
	}
}

// TestGoSnippetRenamedAcrossBlocks: a doc comment whose blocks declare
// a function no block uses and call, under another name declared
// nowhere, a function that fits it has a rename half done; inputs the
// doc leaves to the reader are not.
func TestGoSnippetRenamedAcrossBlocks(t *testing.T) {
	ws := loadWorkspace(t, "siglisting")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol string
		want   string // a part of the message, "" for no verdict
	}{
		{"StartHook", "myfunc is declared nowhere; another block of the doc declares myhook, which no block uses and which fits where myfunc is used"},
		{"StopHook", ""}, // handler is passed, never called: a value of the reader's
		{"RunHook", ""},  // two names declared nowhere
		{"OnceHook", ""}, // setup is used
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "store/store.go", tt.symbol)
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.want, strings.Contains)
		})
	}
}

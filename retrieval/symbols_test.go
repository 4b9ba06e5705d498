package retrieval

import (
	"context"
	"fmt"
	"go/build"
	"go/token"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// symFixtureDir is a small module with a nested module, build-constrained
// files, generics, a third-party import, tests and examples.
const symFixtureDir = "testdata/symbols/cachemod"

// symBrokenFile does not parse; it is added in memory because every
// committed .go file must pass gofmt.
const symBrokenFile = "package broken\n\n// Lost would be declared here.\nfunc Lost( {\n"

// symFixtureFS returns the fixture module plus broken/bad.go, and its
// sorted file list.
func symFixtureFS(t testing.TB) (fstest.MapFS, []string) {
	t.Helper()
	fsys := fstest.MapFS{}
	dir := os.DirFS(symFixtureDir)
	err := fs.WalkDir(dir, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(dir, p)
		fsys[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fsys["broken/bad.go"] = &fstest.MapFile{Data: []byte(symBrokenFile)}
	var files []string
	for p := range fsys {
		files = append(files, p)
	}
	slices.Sort(files)
	return fsys, files
}

// symLine returns the 1-based line of the first line of file holding
// marker.
func symLine(t *testing.T, fsys fs.FS, file, marker string) int {
	t.Helper()
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line holds %q", file, marker)
	return 0
}

// TestSymbols loads the fixture once and checks the symbol table through
// subtests.
func TestSymbols(t *testing.T) {
	t.Parallel()
	fsys, files := symFixtureFS(t)
	s, err := LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatalf("LoadSymbols: %v", err)
	}
	t.Run("packages", func(t *testing.T) { testSymPackages(t, s) })
	t.Run("declarations", func(t *testing.T) { testSymDeclarations(t, s, fsys) })
	t.Run("lookup", func(t *testing.T) { testSymLookup(t, s, fsys) })
	t.Run("resolves", func(t *testing.T) { testSymResolves(t, s) })
	t.Run("suggest", func(t *testing.T) { testSymSuggest(t, s) })
	t.Run("defined", func(t *testing.T) { testSymDefined(t, s) })
	t.Run("graph", func(t *testing.T) { testSymGraph(t, s, fsys) })
	t.Run("tests", func(t *testing.T) { testSymTests(t, s, fsys) })
	t.Run("checker access", func(t *testing.T) { testSymCheckerAccess(t, s) })
	t.Run("module paths", func(t *testing.T) {
		for p, want := range map[string]string{
			"README.md": "example.com/cachemod", "cache/cache.go": "example.com/cachemod",
			"tools": "example.com/cachemod/tools", "tools/gen/main.go": "example.com/cachemod/tools",
			"toolsx/a.md": "example.com/cachemod",
		} {
			if got := s.ModulePath(p); got != want {
				t.Errorf("ModulePath(%q) = %q, want %q", p, got, want)
			}
		}
	})
	t.Run("concurrent", func(t *testing.T) { testSymConcurrent(t, s) })
}

// testSymConcurrent runs queries from several goroutines (meaningful under
// -race): the lazily built indexes and the standard library importer are
// shared.
func testSymConcurrent(t *testing.T, s *Symbols) {
	var wg sync.WaitGroup
	results := make([]string, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sym, ok := s.Lookup("cache", "Cache.Flush")
			if !ok {
				results[i] = "lookup failed"
				return
			}
			errs := symTypeErrors(t, s, "package p\n\nimport (\n\t\"bytes\"\n\n\t\"example.com/cachemod/cache\"\n)\n\n"+
				"func f() {\n\tc := cache.New(cache.Options{})\n\tc.Purge()\n\tvar b bytes.Buffer\n\t_ = b\n}\n")
			results[i] = fmt.Sprintf("%d callees, %d refs, %d tests, %d type errors, %v",
				len(s.Callees(sym, 2)), len(s.References(sym)), len(s.Tests(sym)), len(errs), s.Resolves("cache", "bufio.Reader"))
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r != results[0] || strings.Contains(r, "failed") {
			t.Errorf("goroutine %d: %s; goroutine 0: %s", i, r, results[0])
		}
	}
}

func testSymPackages(t *testing.T, s *Symbols) {
	type pkg struct {
		Dir, ImportPath, Name, Module string
		Files, TestFiles              []string
		Incomplete                    bool
	}
	var got []pkg
	for _, p := range s.Packages() {
		got = append(got, pkg{p.Dir, p.ImportPath, p.Name, p.Module, p.Files, p.TestFiles, p.incomplete})
		if p.Fset != s.fset || p.Types == nil || p.Info == nil || len(p.Syntax) != len(p.Files) && !p.incomplete {
			t.Errorf("package %s: Fset, Types, Info or Syntax not set", p.Dir)
		}
	}
	want := []pkg{
		{"broken", "example.com/cachemod/broken", "broken", "example.com/cachemod",
			[]string{"broken/bad.go", "broken/ok.go"}, nil, true},
		{"cache", "example.com/cachemod/cache", "cache", "example.com/cachemod",
			[]string{"cache/cache.go", "cache/doc.go", "cache/linux.go", "cache/list.go", "cache/store.go"},
			[]string{"cache/cache_test.go", "cache/example_test.go"}, false},
		{"internal/sweep", "example.com/cachemod/internal/sweep", "sweep", "example.com/cachemod",
			[]string{"internal/sweep/sweep.go"}, nil, false},
		{"log", "example.com/cachemod/log", "log", "example.com/cachemod",
			[]string{"log/log.go", "log/page.go"}, nil, false},
		{"tools/gen", "example.com/cachemod/tools/gen", "gen", "example.com/cachemod/tools",
			[]string{"tools/gen/gen.go"}, nil, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}

	if p := s.Package("./cache/"); p == nil || p.Dir != "cache" {
		t.Errorf(`Package("./cache/") = %v, want the cache package`, p)
	}
	if p := s.Package("cache/testdata"); p != nil {
		t.Errorf("testdata directory loaded as a package: %v", p.Dir)
	}
	if p := s.PackageByPath("example.com/cachemod/tools/gen"); p == nil || p.Dir != "tools/gen" {
		t.Errorf("PackageByPath(gen) = %v", p)
	}
	if p := s.PackageByPath("example.com/cachemod/nope"); p != nil {
		t.Errorf("PackageByPath(nope) = %v, want nil", p.Dir)
	}

	broken := s.Package("broken")
	if len(broken.Errors) == 0 || !strings.Contains(broken.Errors[0].Error(), "broken/bad.go") {
		t.Errorf("broken package errors = %v, want the parse error of bad.go", broken.Errors)
	}
	// The third-party import yields type errors, recorded, not fatal; the
	// rest of the package is checked.
	cache := s.Package("cache")
	var thirdParty bool
	for _, e := range cache.Errors {
		thirdParty = thirdParty || strings.Contains(e.Error(), "metrics.")
	}
	if !thirdParty {
		t.Errorf("cache errors = %v, want the undefined metrics names", cache.Errors)
	}
	if cache.Types.Scope().Lookup("New") == nil || len(cache.Info.Defs) == 0 || len(cache.Info.Uses) == 0 ||
		len(cache.Info.Selections) == 0 || len(cache.Info.Types) == 0 || len(cache.Info.Implicits) == 0 {
		t.Error("cache package type information is incomplete")
	}
}

func testSymDeclarations(t *testing.T, s *Symbols, fsys fs.FS) {
	type decl struct {
		Kind                SymbolKind
		Path                string
		Line, EndLine       int
		DocLine, DocEndLine int
		Doc, Signature      string
		Exported, HasObject bool
	}
	line := func(file, marker string) int { return symLine(t, fsys, file, marker) }
	const cc = "cache/cache.go"
	tests := []struct {
		name string
		want decl
	}{
		{"MaxSize", decl{SymbolConst, cc, line(cc, "MaxSize = 100"), line(cc, "MaxSize = 100"),
			line(cc, "// MaxSize is"), line(cc, "// MaxSize is"), "MaxSize is the largest number of entries.\n",
			"const MaxSize = 100", true, true}},
		{"MinSize", decl{SymbolConst, cc, line(cc, "MinSize = 1"), line(cc, "MinSize = 1"),
			line(cc, "MinSize = 1"), line(cc, "MinSize = 1"), "MinSize is the smallest number of entries.\n",
			"const MinSize = 1", true, true}},
		{"KindTTL", decl{SymbolConst, cc, line(cc, "\tKindTTL"), line(cc, "\tKindTTL"),
			line(cc, "// The kinds of expiry."), line(cc, "// The kinds of expiry."), "The kinds of expiry.\n",
			"const KindTTL Kind = 1", true, true}},
		{"ErrClosed", decl{SymbolVar, cc, line(cc, "ErrClosed  ="), line(cc, "ErrClosed  ="),
			line(cc, "// ErrClosed is"), line(cc, "// ErrClosed is"), "ErrClosed is returned after Close.\n",
			`var ErrClosed = errors.New("cache closed")`, true, true}},
		{"Options", decl{SymbolType, cc, line(cc, "type Options struct"), line(cc, "type Options struct") + 5,
			line(cc, "// Options configures"), line(cc, "// Options configures"), "Options configures a Cache.\n",
			"type Options struct", true, true}},
		{"Options.Timeout", decl{SymbolField, cc, line(cc, "Timeout time.Duration"), line(cc, "Timeout time.Duration"),
			line(cc, "// Timeout bounds"), line(cc, "// Timeout bounds"), "Timeout bounds each operation; zero means none.\n",
			"Timeout time.Duration", true, true}},
		{"Options.Size", decl{SymbolField, cc, line(cc, "Size    int"), line(cc, "Size    int"),
			line(cc, "Size    int"), line(cc, "Size    int"), "Size is the capacity.\n", "Size int", true, true}},
		{"Cache.base", decl{SymbolField, cc, line(cc, "\tbase"), line(cc, "\tbase"), 0, 0, "", "base", false, true}},
		{"Cache.Flush", decl{SymbolMethod, cc, line(cc, "func (c *Cache) Flush"), line(cc, "func (c *Cache) Flush") + 3,
			line(cc, "// Flush marks"), line(cc, "// Flush marks"), "Flush marks all entries expired; the sweeper removes them later.\n",
			"func (c *Cache) Flush(ctx context.Context) error", true, true}},
		{"base.Hits", decl{SymbolMethod, cc, line(cc, "func (b *base) Hits"), line(cc, "func (b *base) Hits"),
			line(cc, "// Hits returns"), line(cc, "// Hits returns"), "Hits returns the number of hits.\n",
			"func (b *base) Hits() int", false, true}},
		{"Store.Delete", decl{SymbolMethod, "cache/store.go", line("cache/store.go", "Delete(ctx context.Context, pattern string) error"),
			line("cache/store.go", "Delete(ctx context.Context, pattern string) error"),
			line("cache/store.go", "// Delete removes"), line("cache/store.go", "// Delete removes"),
			"Delete removes the entries matching pattern.\n", "Delete(ctx context.Context, pattern string) error", true, true}},
		{"List", decl{SymbolType, "cache/list.go", line("cache/list.go", "type List[T any]"), line("cache/list.go", "type List[T any]") + 2,
			line("cache/list.go", "// List is"), line("cache/list.go", "// List is"), "List is an ordered list of values.\n",
			"type List[T any] struct", true, true}},
		{"Map", decl{SymbolFunc, "cache/list.go", line("cache/list.go", "func Map["), line("cache/list.go", "func Map[") + 6,
			line("cache/list.go", "// Map returns"), line("cache/list.go", "// Map returns"), "Map returns f applied to each of xs.\n",
			"func Map[T, U any](xs []T, f func(T) U) []U", true, true}},
		{"cache", decl{SymbolPackage, "cache/doc.go", 2, 2, 1, 1,
			"Package cache is an in-memory cache whose entries are removed lazily.\n", "package cache", true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sym, ok := s.Lookup("cache", tt.name)
			if !ok {
				t.Fatalf("Lookup(cache, %s) failed", tt.name)
			}
			got := decl{sym.Kind, sym.Path, sym.Line, sym.EndLine, sym.DocLine, sym.DocEndLine, sym.Doc, sym.Signature,
				sym.Exported, sym.Object != nil}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("symbol %s (-want +got):\n%s", tt.name, diff)
			}
			if sym.Name != tt.name || sym.Package != s.Package("cache") {
				t.Errorf("symbol %s: Name %q, Package %v", tt.name, sym.Name, sym.Package)
			}
		})
	}
}

func testSymLookup(t *testing.T, s *Symbols, fsys fs.FS) {
	type found struct {
		Kind                  SymbolKind
		Name, Path, PkgImport string
		Line                  int
	}
	at := func(file, marker string) int { return symLine(t, fsys, file, marker) }
	const cc = "cache/cache.go"
	const mod = "example.com/cachemod/cache"
	tests := []struct {
		from, name string
		want       *found
	}{
		{"cache", "New", &found{SymbolFunc, "New", cc, mod, at(cc, "func New(")}},
		{"cache", "New()", &found{SymbolFunc, "New", cc, mod, at(cc, "func New(")}},
		{"cache", "(*Cache).Flush", &found{SymbolMethod, "Cache.Flush", cc, mod, at(cc, "func (c *Cache) Flush")}},
		{"cache", "Cache.Flush()", &found{SymbolMethod, "Cache.Flush", cc, mod, at(cc, "func (c *Cache) Flush")}},
		{"cache", "Cache.Hits", &found{SymbolMethod, "base.Hits", cc, mod, at(cc, "func (b *base) Hits")}},
		{"cache", "Options.Timeout", &found{SymbolField, "Options.Timeout", cc, mod, at(cc, "Timeout time.Duration")}},
		{"cache", "List.Push", &found{SymbolMethod, "List.Push", "cache/list.go", mod, at("cache/list.go", "func (l *List[T]) Push")}},
		{"cache", "List[T].Len", &found{SymbolMethod, "List.Len", "cache/list.go", mod, at("cache/list.go", "func (l *List[T]) Len")}},
		{"cache", "Counted.Push", &found{SymbolMethod, "List.Push", "cache/list.go", mod, at("cache/list.go", "func (l *List[T]) Push")}},
		{"cache", "Store.Get", &found{SymbolMethod, "Store.Get", "cache/store.go", mod, at("cache/store.go", "Get(key string) (string, bool)")}},
		{"cache", "ErrClosed", &found{SymbolVar, "ErrClosed", cc, mod, at(cc, "ErrClosed  =")}},
		{"cache", "LinuxOnly", &found{SymbolFunc, "LinuxOnly", "cache/linux.go", mod, at("cache/linux.go", "func LinuxOnly")}},
		{"cache", "cache", &found{SymbolPackage, "cache", "cache/doc.go", mod, 2}},
		{"cache", "sweep.Sweeper.Mark", &found{SymbolMethod, "Sweeper.Mark", "internal/sweep/sweep.go", "example.com/cachemod/internal/sweep",
			at("internal/sweep/sweep.go", "func (s *Sweeper) Mark")}},
		{"cache", "example.com/cachemod/internal/sweep.New", &found{SymbolFunc, "New", "internal/sweep/sweep.go",
			"example.com/cachemod/internal/sweep", at("internal/sweep/sweep.go", "func New(")}},
		{"tools/gen", "cache.Options.Size", &found{SymbolField, "Options.Size", cc, mod, at(cc, "Size    int")}},
		{"tools/gen", "Generate", &found{SymbolFunc, "Generate", "tools/gen/gen.go", "example.com/cachemod/tools/gen", at("tools/gen/gen.go", "func Generate")}},
		{".", "cache.Cache.Get", &found{SymbolMethod, "Cache.Get", cc, mod, at(cc, "func (c *Cache) Get")}},
		{"docs", "New", &found{SymbolFunc, "New", cc, mod, at(cc, "func New(")}},
		{"cache", "io.Reader", &found{SymbolType, "Reader", "", "io", 0}},
		{"cache", "context.Context.Done", &found{SymbolMethod, "Context.Done", "", "context", 0}},
		{"cache", "fmt.Errorf", &found{SymbolFunc, "Errorf", "", "fmt", 0}},
		{"cache", "net/http.Client.Do", &found{SymbolMethod, "Client.Do", "", "net/http", 0}},
		{"cache", "time.Duration", &found{SymbolType, "Duration", "", "time", 0}},
		{"cache", "Cache.Purge", nil},
		{"cache", "Purge", nil},
		{"cache", "WindowsOnly", nil},
		{"cache", "IgnoredFunc", nil},
		{"cache", "Skipped", nil},
		{"cache", "metrics.Counter", nil},
		{"cache", "io.Nope", nil},
		{"cache", "not a name", nil},
		{"tools/gen", "New", nil},
	}
	for _, tt := range tests {
		t.Run(tt.from+":"+tt.name, func(t *testing.T) {
			sym, ok := s.Lookup(tt.from, tt.name)
			if tt.want == nil {
				if ok {
					t.Fatalf("Lookup = %s %s at %s:%d, want not found", sym.Kind, sym.Name, sym.Path, sym.Line)
				}
				return
			}
			if !ok {
				t.Fatal("Lookup failed")
			}
			got := &found{sym.Kind, sym.Name, sym.Path, sym.Package.ImportPath, sym.Line}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Lookup (-want +got):\n%s", diff)
			}
			if sym.Kind != SymbolPackage && sym.Object == nil || sym.Package.Types == nil {
				t.Error("symbol without Object or package Types")
			}
			def := s.Definition(sym)
			if def.Path != sym.Path || def.Line != sym.Line || def.EndLine != sym.EndLine || !strings.HasPrefix(def.Why, "defines ") {
				t.Errorf("Definition = %+v", def)
			}
		})
	}
}

func testSymResolves(t *testing.T, s *Symbols) {
	tests := []struct {
		from, name string
		want       bool
	}{
		{"cache", "Cache.Flush", true},
		{"cache", "Cache.Purge", false},
		{"cache", "Cahce.Flush", false},
		{"cache", "cache.NewCache", false},
		{"cache", "example.com/cachemod/nope.Thing", false},
		// Unknown, not missing: a third-party package, a type embedding
		// one, a file that does not parse, a file for another platform,
		// an unknown lower-case qualifier.
		{"cache", "metrics.Counter", true},
		{"cache", "github.com/thirdparty/metrics.Counter.Inc", true},
		{"cache", "Server.Observe", true},
		{"broken", "Lost", true},
		{"broken", "Anything", true},
		{"cache", "WindowsOnly", true},
		{"cache", "yaml.Marshal", true},
		{"cache", "Options.Counter", true},
	}
	for _, tt := range tests {
		if got := s.Resolves(tt.from, tt.name); got != tt.want {
			t.Errorf("Resolves(%q, %q) = %v, want %v", tt.from, tt.name, got, tt.want)
		}
	}
}

func testSymSuggest(t *testing.T, s *Symbols) {
	tests := []struct {
		from, name, want string
	}{
		{"cache", "Cache.Flsh", "Cache.Flush"},
		{"cache", "Cache.flush", "Cache.Flush"},
		{"cache", "Cahce.Flush", "Cache.Flush"},
		{"cache", "cache.NewCache", "cache.New"},
		{"cache", "Cache.FlushAll", "Cache.Flush"},
		{"cache", "MaxSze", "MaxSize"},
		{"cache", "Cache.Sett", "Cache.Set"},
		{"cache", "Cache.Zet", ""},
		{"tools/gen", "cache.Nw", "cache.New"},
		{"cache", "context.Contxt", "context.Context"},
		// A rename to an unrelated word is not guessed; two equally close
		// names give nothing; resolving names need nothing.
		{"cache", "Cache.Purge", ""},
		{"cache", "Store.Gut", ""},
		{"cache", "New", ""},
		{"cache", "Frobnicate", ""},
		// Unexported names of another package are not visible.
		{"tools/gen", "cache.newMemStor", ""},
	}
	for _, tt := range tests {
		got, ok := s.Suggest(tt.from, tt.name)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Suggest(%q, %q) = %q, %v, want %q", tt.from, tt.name, got, ok, tt.want)
		}
	}
}

func testSymDefined(t *testing.T, s *Symbols) {
	for name, want := range map[string]bool{
		"Cache.Flush": true, "New": true, "cache.New": true, "sweep.Sweeper.Mark": true, "Options.Timeout": true,
		"Frobnicate": false, "cache": false, "WindowsOnly": false, "Cache.Purge": false,
	} {
		if got := s.Defined(name); got != want {
			t.Errorf("Defined(%q) = %v, want %v", name, got, want)
		}
	}
	names := s.Names()
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Error("Names is not sorted or has duplicates")
	}
	for _, n := range []string{"Cache.Flush", "cache.Cache.Flush", "New", "cache.New", "sweep.New", "gen.Generate"} {
		if _, ok := slices.BinarySearch(names, n); !ok {
			t.Errorf("Names lacks %q", n)
		}
	}
}

// symRefView is the comparable part of a Ref.
type symRefView struct {
	Name, Path    string
	Line, EndLine int
	Why           string
	Hops          []string
}

func symViews(refs []Ref) []symRefView {
	var out []symRefView
	for _, r := range refs {
		out = append(out, symRefView{r.Symbol.Name, r.Path, r.Line, r.EndLine, r.Why, r.Hops})
	}
	return out
}

func testSymGraph(t *testing.T, s *Symbols, fsys fs.FS) {
	lookup := func(from, name string) Symbol {
		sym, ok := s.Lookup(from, name)
		if !ok {
			t.Fatalf("Lookup(%s, %s) failed", from, name)
		}
		return sym
	}
	span := func(file, marker string, n int) (string, int, int) {
		l := symLine(t, fsys, file, marker)
		return file, l, l + n
	}
	ref := func(name, file, marker string, n int, why string, hops ...string) symRefView {
		p, l, e := span(file, marker, n)
		return symRefView{name, p, l, e, why, hops}
	}
	const st, sw = "cache/store.go", "internal/sweep/sweep.go"
	flush := lookup("cache", "Cache.Flush")

	direct := []symRefView{
		ref("Store.Delete", st, "Delete(ctx context.Context, pattern string) error", 0, "callee of Cache.Flush", "Cache.Flush", "Store.Delete"),
		ref("memStore.Delete", st, "func (s *memStore) Delete", 3, "callee of Cache.Flush", "Cache.Flush", "memStore.Delete"),
		ref("diskStore.Delete", st, "func (d diskStore) Delete", 0, "callee of Cache.Flush", "Cache.Flush", "diskStore.Delete"),
		ref("Sweeper.Mark", sw, "func (s *Sweeper) Mark", 3, "callee of Cache.Flush", "Cache.Flush", "sweep.Sweeper.Mark"),
	}
	if diff := cmp.Diff(direct, symViews(s.Callees(flush, 1))); diff != "" {
		t.Errorf("Callees(Cache.Flush, 1) (-want +got):\n%s", diff)
	}
	two := slices.Clone(direct)
	two = slices.Insert(two, 3, ref("diskStore.removeFiles", st, "func (d diskStore) removeFiles", 0,
		"callee of diskStore.Delete", "Cache.Flush", "diskStore.Delete", "diskStore.removeFiles"))
	two = append(two, ref("Sweeper.schedule", sw, "func (s *Sweeper) schedule", 0,
		"callee of sweep.Sweeper.Mark", "Cache.Flush", "sweep.Sweeper.Mark", "sweep.Sweeper.schedule"))
	for _, depth := range []int{2, 5} {
		if diff := cmp.Diff(two, symViews(s.Callees(flush, depth))); diff != "" {
			t.Errorf("Callees(Cache.Flush, %d) (-want +got):\n%s", depth, diff)
		}
	}

	callers := []symRefView{ref("Cache.Flush", "cache/cache.go", "func (c *Cache) Flush", 3, "caller of Sweeper.Mark", "Sweeper.Mark", "cache.Cache.Flush")}
	if diff := cmp.Diff(callers, symViews(s.Callers(lookup("cache", "sweep.Sweeper.Mark")))); diff != "" {
		t.Errorf("Callers(Sweeper.Mark) (-want +got):\n%s", diff)
	}
	// A method reached through an interface has the interface's callers.
	callers = []symRefView{ref("Cache.Flush", "cache/cache.go", "func (c *Cache) Flush", 3, "caller of diskStore.Delete", "diskStore.Delete", "Cache.Flush")}
	if diff := cmp.Diff(callers, symViews(s.Callers(lookup("cache", "diskStore.Delete")))); diff != "" {
		t.Errorf("Callers(diskStore.Delete) (-want +got):\n%s", diff)
	}
	if got := s.Callees(lookup("cache", "io.Reader"), 1); got != nil {
		t.Errorf("Callees of a standard library symbol = %v, want nil", got)
	}
}

func testSymTests(t *testing.T, s *Symbols, fsys fs.FS) {
	lookup := func(name string) Symbol {
		sym, ok := s.Lookup("cache", name)
		if !ok {
			t.Fatalf("Lookup(cache, %s) failed", name)
		}
		return sym
	}
	const ct, et = "cache/cache_test.go", "cache/example_test.go"
	fn := func(name, file string, why string, hops ...string) symRefView {
		l := symLine(t, fsys, file, "func "+name+"(")
		end := l
		for !strings.HasPrefix(symLineText(t, fsys, file, end), "}") {
			end++
		}
		return symRefView{name, file, l, end, why, hops}
	}
	use := func(name, file, marker, why string, hops ...string) symRefView {
		l := symLine(t, fsys, file, marker)
		return symRefView{name, file, l, l, why, hops}
	}
	tests := []struct {
		name  string
		query func(Symbol) []Ref
		sym   string
		want  []symRefView
	}{
		{"Tests", s.Tests, "Cache.Flush", []symRefView{fn("TestFlush", ct, "test that calls Cache.Flush", "Cache.Flush", "TestFlush")}},
		{"Tests", s.Tests, "New", []symRefView{
			fn("TestFlush", ct, "test that calls New", "New", "TestFlush"),
			fn("TestGet", ct, "test that calls New", "New", "TestGet"),
			fn("BenchmarkSet", ct, "test that calls New", "New", "BenchmarkSet"),
		}},
		{"Tests", s.Tests, "MaxSize", []symRefView{fn("TestGet", ct, "test that uses MaxSize", "MaxSize", "TestGet")}},
		{"Tests", s.Tests, "Map", []symRefView{fn("TestList", ct, "test that calls Map", "Map", "TestList")}},
		{"Tests", s.Tests, "List.Push", []symRefView{fn("TestList", ct, "test that calls List.Push", "List.Push", "TestList")}},
		{"Tests", s.Tests, "List.items", []symRefView{fn("TestList", ct, "test that uses List.items", "List.items", "TestList")}},
		{"Tests", s.Tests, "Counted", nil},
		{"Examples", s.Examples, "Cache.Flush", []symRefView{fn("ExampleCache_Flush", et, "example of Cache.Flush", "Cache.Flush", "ExampleCache_Flush")}},
		{"Examples", s.Examples, "Cache.Set", []symRefView{
			fn("ExampleNew", et, "example of Cache.Set", "Cache.Set", "ExampleNew"),
			fn("Example", et, "example of Cache.Set", "Cache.Set", "Example"),
		}},
		{"Examples", s.Examples, "cache", []symRefView{fn("Example", et, "example of cache", "cache", "Example")}},
		{"References", s.References, "Cache.Set", []symRefView{
			use("BenchmarkSet", ct, `c.Set("k", "v")`, "test uses Cache.Set", "Cache.Set", "BenchmarkSet"),
			use("ExampleNew", et, `c.Set("a", "b")`, "test uses Cache.Set", "Cache.Set", "ExampleNew"),
			use("Example", et, `c.Set("k", "v")`, "test uses Cache.Set", "Cache.Set", "Example"),
		}},
		{"References", s.References, "Options.Size", []symRefView{
			use("TestGet", ct, "Size: MaxSize", "test uses Options.Size", "Options.Size", "TestGet"),
			use("ExampleNew", et, "Size: 10", "test uses Options.Size", "Options.Size", "ExampleNew"),
			use("Generate", "tools/gen/gen.go", "Size: size", "uses Options.Size", "Options.Size", "gen.Generate"),
		}},
		{"References", s.References, "defaultTTL", []symRefView{
			use("New", "cache/cache.go", "sweep.New(defaultTTL)", "uses defaultTTL", "defaultTTL", "New"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.sym, func(t *testing.T) {
			got := symViews(tt.query(lookup(tt.sym)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s(%s) (-want +got):\n%s", tt.name, tt.sym, diff)
			}
		})
	}
}

// symLineText returns line n (1-based) of file.
func symLineText(t *testing.T, fsys fs.FS, file string, n int) string {
	t.Helper()
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", file, n)
	}
	return lines[n-1]
}

func TestLoadSymbolsWithoutGoMod(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"lib/lib.go":       {Data: []byte("// Package lib is small.\npackage lib\n\n// Answer is 42.\nconst Answer = 42\n")},
		"lib/lib_plan9.go": {Data: []byte("package lib\n\nconst Plan9 = true\n")},
		"app/main.go":      {Data: []byte("package main\n\nimport \"lib\"\n\nfunc main() { _ = lib.Answer }\n")},
		"app/other.go":     {Data: []byte("package other\n")},
		".hidden/x.go":     {Data: []byte("package x\n")},
		"vendor/v/v.go":    {Data: []byte("package v\n")},
	}
	files := []string{".hidden/x.go", "app/main.go", "app/other.go", "lib/lib.go", "lib/lib_plan9.go", "vendor/v/v.go"}
	s, err := LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, p := range s.Packages() {
		dirs = append(dirs, p.Dir+"="+p.ImportPath+"/"+p.Name)
	}
	if diff := cmp.Diff([]string{"app=app/main", "lib=lib/lib"}, dirs); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
	app := s.Package("app")
	if diff := cmp.Diff([]string{"app/main.go"}, app.Files); diff != "" {
		t.Errorf("app files (-want +got):\n%s", diff)
	}
	if len(app.Errors) != 1 || !strings.Contains(app.Errors[0].Error(), "package other") {
		t.Errorf("app errors = %v, want one about package other", app.Errors)
	}
	if _, ok := s.Lookup("app", "lib.Answer"); !ok {
		t.Error("Lookup(app, lib.Answer) failed")
	}
	if !s.Resolves("lib", "Plan9") {
		t.Error("a name of a file for another platform does not resolve")
	}
}

func TestLoadSymbolsCancelled(t *testing.T) {
	fsys, files := symFixtureFS(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := LoadSymbols(ctx, fsys, files, nil); err == nil {
		t.Fatal("LoadSymbols with a cancelled context succeeded")
	}
}

func TestSymGoodOSArch(t *testing.T) {
	for name, want := range map[string]bool{
		"cache.go": true, "linux.go": true, "cache_linux.go": true, "cache_windows.go": false,
		"cache_amd64.go": true, "cache_arm64.go": false, "cache_linux_amd64.go": true,
		"cache_linux_arm64.go": false, "cache_darwin_amd64_test.go": false, "cache_windows_test.go": false,
		"cache_test.go": true, "disk_store.go": true, "x_android.go": false,
	} {
		if got := symGoodOSArch(name); got != want {
			t.Errorf("symGoodOSArch(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSymBuildOK(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"package a\n", true},
		{"//go:build linux\n\npackage a\n", true},
		{"//go:build windows\n\npackage a\n", false},
		{"//go:build !cgo\n\npackage a\n", false},
		{"//go:build go1.21 && unix\n\npackage a\n", true},
		{"//go:build go1.99\n\npackage a\n", false},
		{"//go:build ignore\n\npackage main\n", false},
		{"// Copyright notice.\n\n/* block\ncomment */\n//go:build darwin\n\npackage a\n", false},
		{"// +build windows\n\npackage a\n", false},
		{"// +build linux,amd64\n\npackage a\n", true},
		{"package a\n\n//go:build windows\n", true},
	}
	for _, tt := range tests {
		if got := symBuildOK([]byte(tt.src)); got != tt.want {
			t.Errorf("symBuildOK(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestSymModulePath(t *testing.T) {
	for src, want := range map[string]string{
		"module example.com/m\n\ngo 1.22\n":           "example.com/m",
		"// comment\nmodule \"example.com/q\" // x\n": "example.com/q",
		"module (\n\texample.com/block\n)\n":          "example.com/block",
		"go 1.22\n":                                   "",
	} {
		if got := symModulePath(src); got != want {
			t.Errorf("symModulePath(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestSymGuessName(t *testing.T) {
	for ip, want := range map[string]string{
		"github.com/spf13/pflag":              "pflag",
		"github.com/go-viper/mapstructure/v2": "mapstructure",
		"gopkg.in/yaml.v3":                    "yaml",
		"github.com/mattn/go-sqlite3":         "sqlite3",
		"github.com/olivere/elastic-go":       "elastic",
		"example.com/a-b":                     "a_b",
	} {
		if got := symGuessName(ip); got != want {
			t.Errorf("symGuessName(%q) = %q, want %q", ip, got, want)
		}
	}
}

func TestSymDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"purge", "purge", 0}, {"purge", "prge", 1}, {"cahce", "cache", 1},
		{"purge", "flush", 5}, {"", "abc", 3}, {"ab", "ba", 1}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		if got := symDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("symDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSymNormRef(t *testing.T) {
	for in, want := range map[string]string{
		"Cache.Purge()":            "Cache.Purge",
		"(*Cache).Purge":           "Cache.Purge",
		"(*cache.Cache).Purge":     "cache.Cache.Purge",
		"*Cache":                   "Cache",
		"List[T].Push":             "List.Push",
		" New ":                    "New",
		"not a name":               "",
		"Purge(ctx)":               "",
		"example.com/m/cache.Name": "example.com/m/cache.Name",
	} {
		if got := symNormRef(in); got != want {
			t.Errorf("symNormRef(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkLoadSymbols loads the retrieval package's own source, as a
// repository of one module.
func BenchmarkLoadSymbols(b *testing.B) {
	fsys := os.DirFS("..")
	files := []string{"go.mod"}
	entries, err := fs.ReadDir(fsys, "retrieval")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			files = append(files, path.Join("retrieval", e.Name()))
		}
	}
	for b.Loop() {
		s, err := LoadSymbols(b.Context(), fsys, files, nil)
		if err != nil {
			b.Fatal(err)
		}
		if s.Package("retrieval") == nil {
			b.Fatal("retrieval package not loaded")
		}
	}
}

func TestSymStdFromSource(t *testing.T) {
	root := build.Default.GOROOT
	if _, err := os.Stat(filepath.Join(root, "src", "errors")); err != nil {
		t.Skip("no GOROOT sources")
	}
	st := newSymStd(t.Context(), &TypeCache{}, token.NewFileSet(), slog.New(slog.DiscardHandler))
	tp, err := st.importPkg(t.Context(), "errors")
	if err != nil || tp.Scope().Lookup("New") == nil {
		t.Fatalf("import errors from source: %v, %v", tp, err)
	}
	if _, err := st.importPkg(t.Context(), "nosuch/pkg"); err != ErrStdMissing {
		t.Errorf("import nosuch/pkg: %v, want ErrStdMissing", err)
	}
	none := &symStd{env: &stdEnv{}, pkgs: make(map[string]*Package)}
	if _, err := none.importPkg(t.Context(), "errors"); err != errSymStdUnavailable {
		t.Errorf("import without GOROOT sources: %v, want errSymStdUnavailable", err)
	}
}

func TestSymbolsZeroValue(t *testing.T) {
	var s Symbols
	if len(s.Packages()) != 0 || s.Package(".") != nil || s.PackageByPath("x") != nil || len(s.Names()) != 0 {
		t.Error("zero Symbols has packages or names")
	}
	if _, ok := s.Lookup(".", "fmt.Println"); ok {
		t.Error("zero Symbols resolves fmt.Println")
	}
	if got, ok := s.Suggest(".", "Nope"); ok {
		t.Errorf("zero Symbols suggests %q", got)
	}
	if s.Defined("New") {
		t.Error("zero Symbols defines New")
	}
	var sym Symbol
	if s.Callees(sym, 1) != nil || s.Callers(sym) != nil || s.Tests(sym) != nil || s.Examples(sym) != nil || s.References(sym) != nil {
		t.Error("zero Symbols has evidence for a zero Symbol")
	}
	if tp, err := s.Importer(t.Context()).Import("example.com/cache"); err != nil || tp.Scope().Len() != 0 {
		t.Errorf("zero Symbols imports example.com/cache as %v, %v; want an empty package", tp, err)
	}
	if s.InModule("example.com/cache") || s.Excluded("example.com/cache") || len(s.ModulePaths()) != 0 || len(s.PackagesNamed("cache")) != 0 {
		t.Error("zero Symbols has modules or packages")
	}
	if _, ok := s.SymbolAt(token.Pos(1)); ok {
		t.Error("zero Symbols has a symbol at 1")
	}
	if _, err := s.StdPackage(t.Context(), "fmt"); err == nil || s.StdClosestPath("fmtx") != "" || s.StdPathsByPreference("rand") != nil {
		t.Error("zero Symbols has the standard library")
	}
}

// TestSymDistanceWithin: the bounded distance agrees with the full one
// wherever it is within the limit, and says "beyond" otherwise.
func TestSymDistanceWithin(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "Purge", "purge", "Prgue", "PurgeAll", "Reserve", "Hold", "HoldAll",
		"ExecuteContext", "ExecuteC", "ExecuteCtx", "NewRecorder", "NewReader", "Ünïcode", "Unicode", "abcdefgh", "badcfehg"}
	for _, a := range words {
		for _, b := range words {
			full := symDistance(a, b)
			for limit := 0; limit <= 6; limit++ {
				got := symDistanceWithin(a, b, limit)
				if full <= limit && got != full || full > limit && got <= limit {
					t.Errorf("symDistanceWithin(%q, %q, %d) = %d; full distance %d", a, b, limit, got, full)
				}
			}
		}
	}
}

// TestPackageMembers checks the members a package's types have: methods,
// fields, fields promoted through embedding, and fields of fields whose
// type is a struct literal (sarama's Config.Producer.Flush.MaxMessages).
func TestPackageMembers(t *testing.T) {
	t.Parallel()
	src := `package cfg

type Base struct{ ID int }

// Config configures.
type Config struct {
	Base
	Producer struct {
		Flush struct {
			MaxMessages int
		}
		Retry *struct{ Max int }
	}
	Named Named
}

// Named is a named struct: its fields are its own, not Config's.
type Named struct{ Inner int }

func (c *Config) Validate() error { return nil }
`
	fsys := fstest.MapFS{"go.mod": {Data: []byte("module example.com/cfg\n")}, "cfg.go": {Data: []byte(src)}}
	s, err := LoadSymbols(t.Context(), fsys, []string{"cfg.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	members := s.Package(".").Members()
	tests := []struct {
		name   string
		owners []string
	}{
		{"Validate", []string{"Config"}},
		{"ID", []string{"Base", "Config"}},
		{"Producer", []string{"Config"}},
		{"MaxMessages", []string{"Config"}},
		{"Max", []string{"Config"}},
		{"Inner", []string{"Named"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.owners, members[tt.name]); diff != "" {
			t.Errorf("owners of %s (-want +got):\n%s", tt.name, diff)
		}
	}
}

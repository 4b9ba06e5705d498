package retrieval

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// symTypeErrors type-checks one file against s through [Symbols.Importer]
// and returns its type errors.
func symTypeErrors(t *testing.T, s *Symbols, src string) []error {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	conf := &types.Config{Importer: s.Importer(t.Context()), Error: func(err error) { errs = append(errs, err) }}
	_, _ = conf.Check("x", fset, []*ast.File{f}, nil)
	return errs
}

// testSymCheckerAccess runs under TestSymbols: what a checker of code
// blocks learns from the symbol table.
func testSymCheckerAccess(t *testing.T, s *Symbols) {
	const mod = "example.com/cachemod"
	cache := s.PackageByPath(mod + "/cache")
	imp := s.Importer(t.Context())
	if tp, err := imp.Import(mod + "/cache"); err != nil || tp != cache.Types || s.Placeholder(tp) {
		t.Errorf("Import(cache) = %v, %v; want the loaded package", tp, err)
	}
	if tp, err := imp.Import("github.com/thirdparty/metrics"); err != nil || !s.Placeholder(tp) {
		t.Errorf("Import(metrics) = %v, %v; want a placeholder", tp, err)
	}
	if tp, err := imp.Import(mod + "/nope"); err == nil {
		t.Errorf("Import(nope) = %v, want an error", tp)
	}
	if _, err := imp.Import("fmtx"); !errors.Is(err, ErrStdMissing) {
		t.Errorf("Import(fmtx): %v, want ErrStdMissing", err)
	}
	if s.Placeholder(nil) {
		t.Error("Placeholder(nil)")
	}
	if got := errorsText(symTypeErrors(t, s, "package p\n\nimport \"example.com/cachemod/cache\"\n\nvar _ = cache.New(cache.Options{}).Purge\n")); !slices.Equal(got, []string{
		"x.go:5:36: cache.New(cache.Options{}).Purge undefined (type *cache.Cache has no field or method Purge)",
	}) {
		t.Errorf("type errors = %q", got)
	}

	opts := cache.Types.Scope().Lookup("Options").Type()
	counter := opts.Underlying().(*types.Struct).Field(2)
	if s.UnknownMembers(opts) || !s.UnknownMembers(counter.Type()) {
		t.Errorf("UnknownMembers(Options) = %v, UnknownMembers(%s) = %v; want false, true",
			s.UnknownMembers(opts), counter.Type(), s.UnknownMembers(counter.Type()))
	}

	sym, ok := s.Lookup("cache", "New")
	if !ok {
		t.Fatal("no cache.New")
	}
	if got, ok := s.SymbolAt(sym.Object.Pos()); !ok || got.Name != "New" || got.Kind != SymbolFunc || got.Package != cache {
		t.Errorf("SymbolAt(New) = %+v, %v", got, ok)
	}
	if got, ok := s.SymbolAt(token.NoPos); ok {
		t.Errorf("SymbolAt(NoPos) = %+v", got)
	}

	var named []string
	for _, name := range []string{"log", "gen", "cache", "nope"} {
		for _, p := range s.PackagesNamed(name) {
			named = append(named, name+"="+p.Dir)
		}
	}
	if diff := cmp.Diff([]string{"log=log", "gen=tools/gen", "cache=cache"}, named); diff != "" {
		t.Errorf("PackagesNamed (-want +got):\n%s", diff)
	}

	for _, tt := range []struct {
		name       string
		ip, testIP string
	}{
		{"sweep", mod + "/internal/sweep", ""},
		{"testing", "", "testing"},
		{"cache", "", mod + "/cache"},
		{"nope", "", ""},
	} {
		ip, _ := s.ImportedAs("cache", tt.name)
		testIP, ok := s.TestImportedAs("cache", tt.name)
		if ip != tt.ip || testIP != tt.testIP || ok != (tt.testIP != "") {
			t.Errorf("%s: ImportedAs %q, TestImportedAs %q, %v; want %q, %q", tt.name, ip, testIP, ok, tt.ip, tt.testIP)
		}
	}
	if _, ok := s.TestImportedAs("nowhere", "testing"); ok {
		t.Error("TestImportedAs in a directory without a package")
	}

	for ip, want := range map[string]bool{mod + "/nope": true, mod + "/tools/x": true, mod: true, "example.com/other": false, "fmt": false} {
		if got := s.InModule(ip); got != want {
			t.Errorf("InModule(%q) = %v, want %v", ip, got, want)
		}
	}
	if s.Excluded(mod + "/cache") {
		t.Error("Excluded(cache)")
	}
	if diff := cmp.Diff([]string{mod, mod + "/tools"}, s.ModulePaths()); diff != "" {
		t.Errorf("ModulePaths (-want +got):\n%s", diff)
	}

	if p, err := s.StdPackage(t.Context(), "bytes"); err != nil || p.ImportPath != "bytes" || p.Types == nil || p.Types.Name() != "bytes" {
		t.Errorf("StdPackage(bytes) = %+v, %v", p, err)
	}
	if _, err := s.StdPackage(t.Context(), "nosuch/pkg"); !errors.Is(err, ErrStdMissing) {
		t.Errorf("StdPackage(nosuch/pkg): %v, want ErrStdMissing", err)
	}
	if got := s.StdPathsByPreference("rand"); len(got) < 2 || got[0] != "math/rand" || !slices.Contains(got, "crypto/rand") {
		t.Errorf("StdPathsByPreference(rand) = %v, want math/rand first, then crypto/rand among the others", got)
	}
	if got := s.StdPathsByPreference("nosuchname"); got != nil {
		t.Errorf("StdPathsByPreference(nosuchname) = %v", got)
	}
	for ip, want := range map[string]string{"fmtx": "fmt", "your/app/package/tasks": "", "fmt": "fmt"} {
		if got := s.StdClosestPath(ip); got != want {
			t.Errorf("StdClosestPath(%q) = %q, want %q", ip, got, want)
		}
	}

	if !cache.ExcludedName("WindowsOnly") || cache.ExcludedName("New") || (*Package)(nil).ExcludedName("WindowsOnly") {
		t.Error("ExcludedName: want WindowsOnly only, in the cache package")
	}
}

func errorsText(errs []error) []string {
	var out []string
	for _, err := range errs {
		out = append(out, err.Error())
	}
	return out
}

// TestSymExcludedDirectory: a directory whose files build constraints
// exclude for every platform docreview reads has no package, is
// [Symbols.Excluded], and imports as a placeholder; one whose files are
// for Windows is read as Windows sees it, and so is one most of whose
// files are, none written for linux (go-winio), while one split evenly,
// or with a file for linux, stays linux/amd64's.
func TestSymExcludedDirectory(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":             {Data: []byte("module example.com/p\n\ngo 1.22\n")},
		"a.go":               {Data: []byte("package p\n")},
		"ign/i.go":           {Data: []byte("//go:build ignore\n\npackage ign\n\nfunc I() {}\n")},
		"win/w_win.go":       {Data: []byte("//go:build windows\n\npackage win\n\nfunc W() {}\n")},
		"most/doc.go":        {Data: []byte("package most\n\n// Common is on every platform.\nfunc Common() {}\n")},
		"most/pipe.go":       {Data: []byte("//go:build windows\n\npackage most\n\n// Dial dials.\nfunc Dial() {}\n")},
		"most/file.go":       {Data: []byte("// +build windows\n\npackage most\n\nfunc Open() {}\n")},
		"most/x_other.go":    {Data: []byte("//go:build !windows\n\npackage most\n\nfunc NotWindows() {}\n")},
		"posix/p.go":         {Data: []byte("package posix\n")},
		"posix/p_linux.go":   {Data: []byte("package posix\n\nfunc L() {}\n")},
		"posix/a_windows.go": {Data: []byte("package posix\n\nfunc A() {}\n")},
		"posix/b_windows.go": {Data: []byte("package posix\n\nfunc B() {}\n")},
		"posix/c_windows.go": {Data: []byte("package posix\n\nfunc C() {}\n")},
		"even/e.go":          {Data: []byte("package even\n")},
		"even/e_linux.go":    {Data: []byte("package even\n\nfunc L() {}\n")},
		"even/e_windows.go":  {Data: []byte("package even\n\nfunc W() {}\n")},
	}
	var files []string
	for name := range fsys {
		files = append(files, name)
	}
	s, err := LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Excluded("example.com/p/ign") || s.PackageByPath("example.com/p/ign") != nil || s.Excluded("example.com/p") {
		t.Errorf("Excluded(ign) = %v, PackageByPath(ign) = %v, Excluded(p) = %v; want true, nil, false",
			s.Excluded("example.com/p/ign"), s.PackageByPath("example.com/p/ign"), s.Excluded("example.com/p"))
	}
	if tp, err := s.Importer(t.Context()).Import("example.com/p/ign"); err != nil || !s.Placeholder(tp) {
		t.Errorf("Import(ign) = %v, %v; want a placeholder", tp, err)
	}
	for _, tc := range []struct {
		dir, platform string
		has, other    []string
	}{
		{dir: "win", platform: "windows", has: []string{"W"}},
		{dir: "most", platform: "windows", has: []string{"Common", "Dial", "Open"}, other: []string{"NotWindows"}},
		// A file written for linux keeps the directory linux's, however
		// many files other platforms have (gopsutil's process).
		{dir: "posix", platform: "", has: []string{"L"}, other: []string{"A", "B", "C"}},
		{dir: "even", platform: "", has: []string{"L"}, other: []string{"W"}},
	} {
		p := s.Package(tc.dir)
		if p == nil || s.Excluded("example.com/p/"+tc.dir) {
			t.Errorf("%s: no package (excluded %v)", tc.dir, s.Excluded("example.com/p/"+tc.dir))
			continue
		}
		if p.Platform != tc.platform {
			t.Errorf("%s: Platform %q, want %q", tc.dir, p.Platform, tc.platform)
		}
		for _, name := range tc.has {
			if p.Types.Scope().Lookup(name) == nil {
				t.Errorf("%s: %s not declared", tc.dir, name)
			}
		}
		for _, name := range tc.other {
			if p.Types.Scope().Lookup(name) != nil || !p.ExcludedName(name) {
				t.Errorf("%s: %s declared %v, ExcludedName %v; want a name of the files left out", tc.dir, name, p.Types.Scope().Lookup(name) != nil, p.ExcludedName(name))
			}
		}
	}
}

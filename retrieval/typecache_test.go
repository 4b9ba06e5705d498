package retrieval

import (
	"bytes"
	"context"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// typesFixture is a one-package module importing a few small standard
// packages, with a test file importing one more.
func typesFixture() (fstest.MapFS, []string) {
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/tc\n\ngo 1.22\n")},
		"tc.go": {Data: []byte(`package tc

import (
	"errors"
	"strings"
)

// ErrEmpty is returned for an empty name.
var ErrEmpty = errors.New("empty")

// Upper returns name in upper case, or ErrEmpty.
func Upper(name string) (string, error) {
	if name == "" {
		return "", ErrEmpty
	}
	return strings.ToUpper(name), nil
}
`)},
		"tc_test.go": {Data: []byte(`package tc

import (
	"testing"
	str "strings"
)

func TestUpper(t *testing.T) {
	if got, _ := Upper("a"); !str.EqualFold(got, "A") {
		t.Fatal(got)
	}
}
`)},
	}
	return fsys, []string{"go.mod", "tc.go", "tc_test.go"}
}

// needGOROOT skips t when the standard library's sources are missing.
func needGOROOT(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", "errors")); err != nil {
		t.Skip("no GOROOT sources")
	}
}

// loadStats loads the fixture with a new TypeCache on dir and returns how
// many std packages came from the cache and from source, and the log.
func loadStats(t *testing.T, dir string) (fromCache, checked int, log string) {
	t.Helper()
	fsys, files := typesFixture()
	var buf indexTestLog
	s, err := (&TypeCache{Dir: dir}).LoadSymbols(t.Context(), fsys, files, buf.logger())
	if err != nil {
		t.Fatal(err)
	}
	// The std types are complete: the call resolves and the package has
	// no type errors.
	if p := s.Package("."); p == nil || len(p.Errors) != 0 {
		t.Fatalf("package . = %+v", p)
	}
	if _, ok := s.Lookup(".", "strings.ToUpper"); !ok {
		t.Error("strings.ToUpper does not resolve")
	}
	if got := s.Tests(mustLookup(t, s, "Upper")); len(got) != 1 {
		t.Errorf("tests of Upper: %v, want TestUpper", got)
	}
	_, fromCache, checked = s.std.stats()
	return fromCache, checked, buf.String()
}

func mustLookup(t *testing.T, s *Symbols, name string) Symbol {
	t.Helper()
	sym, ok := s.Lookup(".", name)
	if !ok {
		t.Fatalf("%s does not resolve", name)
	}
	return sym
}

// entryFiles returns the package entries of the one installation
// directory under dir.
func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	got, err := filepath.Glob(filepath.Join(dir, "std-*", "*.types"))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestTypeCacheWarm(t *testing.T) {
	needGOROOT(t)
	dir := t.TempDir()
	fromCache, checked, _ := loadStats(t, dir)
	if fromCache != 0 || checked == 0 {
		t.Fatalf("cold load: %d from cache, %d checked; want 0 and some", fromCache, checked)
	}
	if n := len(entryFiles(t, dir)); n != checked {
		t.Errorf("%d entries written for %d packages checked", n, checked)
	}
	fromCache2, checked2, _ := loadStats(t, dir)
	if checked2 != 0 || fromCache2 != checked {
		t.Errorf("warm load: %d from cache, %d checked; want %d and 0", fromCache2, checked2, checked)
	}
	dirs, err := TypeCacheDirs(dir)
	if err != nil || len(dirs) != 1 || dirs[0].Entries != checked+1 || dirs[0].Bytes == 0 {
		t.Errorf("TypeCacheDirs = %+v, %v; want one directory of %d entries and the package list", dirs, err, checked)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "std-*", ".tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

func TestTypeCacheRepairs(t *testing.T) {
	needGOROOT(t)
	tests := []struct {
		name string
		// damage changes the entry file of package "strings".
		damage  func(t *testing.T, file string)
		wantLog string
	}{
		{"truncated", func(t *testing.T, file string) {
			b, _ := os.ReadFile(file)
			write(t, file, b[:len(b)/2])
		}, "checksum mismatch"},
		{"flipped byte", func(t *testing.T, file string) {
			b, _ := os.ReadFile(file)
			b[len(b)-10] ^= 0xff
			write(t, file, b)
		}, "checksum mismatch"},
		{"empty", func(t *testing.T, file string) { write(t, file, nil) }, "no header"},
		{"other format", func(t *testing.T, file string) {
			b, _ := os.ReadFile(file)
			write(t, file, bytes.Replace(b, []byte(fmt.Sprintf("%s %d", typesMagic, typesFormat)), []byte(typesMagic+" 999"), 1))
		}, "not a docreview type cache file"},
		{"edited header", func(t *testing.T, file string) {
			b, _ := os.ReadFile(file)
			write(t, file, bytes.Replace(b, []byte("\nimports "), []byte("\nimports unicode "), 1))
		}, "checksum mismatch"},
		{"stale sources", func(t *testing.T, file string) {
			// A whole entry written for other source files than GOROOT has.
			e, err := readTypesEntry(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := writeTypesFile(file, [][2]string{{"kind", "package"}, {"path", e.path}, {"fingerprint", "000000000000000000000000"}, {"imports", strings.Join(e.imports, " ")}}, e.data); err != nil {
				t.Fatal(err)
			}
		}, "type cache entry stale"},
		{"undecodable data", func(t *testing.T, file string) {
			if err := writeTypesFile(file, [][2]string{{"kind", "package"}, {"path", "strings"}, {"fingerprint", entryFingerprint(t, file)}, {"imports", ""}}, []byte("igarbage")); err != nil {
				t.Fatal(err)
			}
		}, "undecodable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			loadStats(t, dir)
			file := filepath.Join(filepath.Dir(entryFiles(t, dir)[0]), typesEntryName("strings"))
			tt.damage(t, file)
			_, checked, log := loadStats(t, dir)
			if checked != 1 {
				t.Errorf("after damage: %d packages checked, want 1 (strings)", checked)
			}
			if !strings.Contains(log, tt.wantLog) {
				t.Errorf("log does not say %q:\n%s", tt.wantLog, log)
			}
			if _, checked, _ := loadStats(t, dir); checked != 0 {
				t.Errorf("after the repair: %d packages checked, want 0", checked)
			}
		})
	}
}

func write(t *testing.T, file string, b []byte) {
	t.Helper()
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func entryFingerprint(t *testing.T, file string) string {
	t.Helper()
	e, err := readTypesEntry(file)
	if err != nil {
		t.Fatal(err)
	}
	return e.fingerprint
}

// TestTypeCacheConcurrent loads with several caches on one directory at
// once, as several processes would: each load succeeds, and what they
// leave is whole.
func TestTypeCacheConcurrent(t *testing.T) {
	needGOROOT(t)
	dir := t.TempDir()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { loadStats(t, dir) })
	}
	wg.Wait()
	if _, checked, log := loadStats(t, dir); checked != 0 || strings.Contains(log, "level=WARN") {
		t.Errorf("after concurrent loads: %d packages checked, log:\n%s", checked, log)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "std-*", ".tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

func TestTypeCacheNoDir(t *testing.T) {
	needGOROOT(t)
	for range 2 {
		if fromCache, checked, _ := loadStats(t, ""); fromCache != 0 || checked == 0 {
			t.Errorf("without a directory: %d from cache, %d checked; want 0 and some", fromCache, checked)
		}
	}
}

func TestStdEnvKey(t *testing.T) {
	key := func(goroot, version string) string {
		e := &stdEnv{goroot: goroot, version: version}
		e.setKey()
		return e.cacheDir(&TypeCache{Dir: "/cache"})
	}
	a, b, c := key("/usr/local/go", "go1.26.8"), key("/usr/local/go", "go1.26.9"), key("/opt/go", "go1.26.8")
	if a == b || a == c || b == c {
		t.Errorf("keys collide: %s %s %s", a, b, c)
	}
	if !strings.HasPrefix(filepath.Base(a), "std-go1.26.8-linux-amd64-") {
		t.Errorf("key %s does not name the version", a)
	}
	for v, want := range map[string]string{"go1.26.8": "go1.26", "go1.27rc1": "go1.27", "go1.26": "go1.26", "devel go1.27-abc": ""} {
		if got := (&stdEnv{version: v}).langVersion(); got != want {
			t.Errorf("langVersion(%q) = %q, want %q", v, got, want)
		}
	}
}

func TestStdList(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, stdListName)
	want := map[string]string{"fmt": "fmt", "math/rand": "rand", "net/http": "http"}
	if err := writeStdList(file, want); err != nil {
		t.Fatal(err)
	}
	got, err := readStdList(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("package list (-want +got):\n%s", diff)
	}
	b, _ := os.ReadFile(file)
	write(t, file, b[:len(b)-3])
	if _, err := readStdList(file); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("truncated list: %v, want a checksum error", err)
	}
}

// TestStdEnvListCached: the second environment on one directory reads the
// package list the first wrote.
func TestStdEnvListCached(t *testing.T) {
	needGOROOT(t)
	dir := t.TempDir()
	e1 := findStdEnv(t.Context(), dir, nil)
	if e1.names["net/http"] != "http" {
		t.Fatalf("net/http is %q", e1.names["net/http"])
	}
	list := filepath.Join(e1.cacheDir(&TypeCache{Dir: dir}), stdListName)
	if _, err := os.Stat(list); err != nil {
		t.Fatalf("package list not written: %v", err)
	}
	// A list the walk would never produce proves the second read it.
	if err := writeStdList(list, map[string]string{"only/this": "this"}); err != nil {
		t.Fatal(err)
	}
	e2 := findStdEnv(context.Background(), dir, nil)
	if len(e2.names) != 1 || e2.names["only/this"] != "this" {
		t.Errorf("second environment listed %d packages, want the cached list", len(e2.names))
	}
}

// TestAstImportNames: the import names read from the syntax of test
// files are those the type checker gives them.
func TestAstImportNames(t *testing.T) {
	needGOROOT(t)
	fsys, files := symFixtureFS(t)
	s, err := LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.loadTests()
	n := 0
	for _, p := range s.pkgs {
		want := map[string]string{}
		if p.testInfo != nil {
			for k, v := range symImportNames(p.internalTests, p.testInfo) {
				want[k] = v
			}
		}
		if p.xtestInfo != nil {
			for k, v := range symImportNames(p.externalTests, p.xtestInfo) {
				if _, ok := want[k]; !ok {
					want[k] = v
				}
			}
		}
		n += len(want)
		if diff := cmp.Diff(want, p.testImports); diff != "" {
			t.Errorf("%s: test imports (-types +syntax):\n%s", p.Dir, diff)
		}
	}
	if n == 0 {
		t.Fatal("the fixture's tests import nothing")
	}
}

// TestTestsLoadLazily: test files are type-checked when their evidence is
// first asked for, not before.
func TestTestsLoadLazily(t *testing.T) {
	needGOROOT(t)
	fsys, files := typesFixture()
	s, err := LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Package(".")
	if p.testInfo != nil {
		t.Fatal("test files checked at load")
	}
	if got := s.Tests(mustLookup(t, s, "Upper")); len(got) != 1 || got[0].Symbol.Name != "TestUpper" {
		t.Errorf("Tests(Upper) = %v, want TestUpper", got)
	}
	if p.testInfo == nil {
		t.Error("test files not checked after Tests")
	}
}

// TestTypeCacheUnwritable: a cache directory that cannot be written costs
// one warning, and the load still succeeds from source.
func TestTypeCacheUnwritable(t *testing.T) {
	needGOROOT(t)
	dir := filepath.Join(t.TempDir(), "file")
	write(t, dir, []byte("a file where the cache directory should be"))
	fromCache, checked, log := loadStats(t, dir)
	if fromCache != 0 || checked == 0 {
		t.Errorf("unwritable cache: %d from cache, %d checked; want 0 and some", fromCache, checked)
	}
	if n := strings.Count(log, "type cache not written"); n != 1 {
		t.Errorf("%d warnings about writing, want 1:\n%s", n, log)
	}
}

// BenchmarkStdTypes loads a one-file module importing net/http: "source"
// type-checks the standard library each time (no cache directory), "cache"
// reads it from a warm TypeCache.
func BenchmarkStdTypes(b *testing.B) {
	if _, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", "net", "http")); err != nil {
		b.Skip("no GOROOT sources")
	}
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/web\n\ngo 1.22\n")},
		"web.go": {Data: []byte("package web\n\nimport \"net/http\"\n\n// Handle serves nothing.\nfunc Handle(w http.ResponseWriter, r *http.Request) {}\n")},
	}
	files := []string{"go.mod", "web.go"}
	dir := b.TempDir()
	if _, err := (&TypeCache{Dir: dir}).LoadSymbols(b.Context(), fsys, files, nil); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		dir  string
	}{{"source", ""}, {"cache", dir}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				s, err := (&TypeCache{Dir: bc.dir}).LoadSymbols(b.Context(), fsys, files, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, ok := s.Lookup(".", "http.ResponseWriter"); !ok {
					b.Fatal("http.ResponseWriter does not resolve")
				}
			}
		})
	}
}

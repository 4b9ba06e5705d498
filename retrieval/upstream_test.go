package retrieval

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/modfile"
)

// The -update flag rewrites the package's golden files; registered here
// only if no other test file of the package has registered it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata/")
	}
}

// upstreamUpdate reports whether -update was given.
func upstreamUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// upstreamFixtureCache is the fixture module cache, laid out as GOMODCACHE.
func upstreamFixtureCache(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata/upstream/modcache")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// upstreamGoMod is an fs.FS holding only a go.mod with the given text.
func upstreamGoMod(text string) fstest.MapFS {
	return fstest.MapFS{"go.mod": {Data: []byte(text)}}
}

// upstreamRun runs UpstreamChunks over the fixture repository and cache.
func upstreamRun(t *testing.T) ([]Chunk, []UpstreamModule) {
	t.Helper()
	chunks, mods, err := UpstreamChunks(t.Context(), os.DirFS("testdata/upstream/repo"),
		UpstreamOptions{ModCache: upstreamFixtureCache(t), GoCommand: "/nonexistent/go"})
	if err != nil {
		t.Fatal(err)
	}
	return chunks, mods
}

// TestUpstreamChunksGolden compares the chunks of the fixture repository
// with testdata/upstream/chunks.json and checks what holds for every
// upstream chunk.
func TestUpstreamChunksGolden(t *testing.T) {
	t.Parallel()
	chunks, _ := upstreamRun(t)
	upstreamCheckInvariants(t, upstreamFixtureCache(t), chunks)

	got, err := json.MarshalIndent(chunks, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := "testdata/upstream/chunks.json"
	if upstreamUpdate() {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("UpstreamChunks mismatch (-want +got):\n%s", diff)
	}
}

// upstreamCheckInvariants checks every chunk: unique IDs "Path#StartLine",
// source, language, heading, a path under the prefix that names a real
// file of the cache, lines inside it, Text starting with the file's
// StartLine, and no statement of a body in the code lines of Text.
func upstreamCheckInvariants(t *testing.T, modcache string, chunks []Chunk) {
	t.Helper()
	ids := map[string]bool{}
	for _, c := range chunks {
		if ids[c.ID] {
			t.Errorf("duplicate ID %s", c.ID)
		}
		ids[c.ID] = true
		if !strings.HasPrefix(c.ID, fmt.Sprintf("%s#%d", c.Path, c.StartLine)) {
			t.Errorf("%s: ID does not start with Path#StartLine", c.ID)
		}
		if c.Source != SourceUpstream || c.Lang != "go" {
			t.Errorf("%s: Source %q Lang %q, want upstream go", c.ID, c.Source, c.Lang)
		}
		rest, ok := strings.CutPrefix(c.Path, upstreamPathPrefix)
		if !ok {
			t.Errorf("%s: path lacks %s", c.ID, upstreamPathPrefix)
			continue
		}
		if !strings.HasPrefix(rest, c.Heading+"/") {
			t.Errorf("%s: Heading %q is not the module@version of the path", c.ID, c.Heading)
		}
		// The fixture's module paths need no escaping except Upper.
		file := filepath.Join(modcache, filepath.FromSlash(strings.Replace(rest, "Upper", "!upper", 1)))
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
		if c.StartLine < 1 || c.EndLine < c.StartLine || c.EndLine > len(lines) {
			t.Errorf("%s: lines %d-%d outside 1-%d", c.ID, c.StartLine, c.EndLine, len(lines))
			continue
		}
		first, _, _ := strings.Cut(c.Text, "\n")
		if strings.TrimSpace(first) != strings.TrimSpace(lines[c.StartLine-1]) {
			t.Errorf("%s: Text starts %q, line %d is %q", c.ID, first, c.StartLine, lines[c.StartLine-1])
		}
		for l := range strings.SplitSeq(c.Text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "//") {
				continue
			}
			for _, stmt := range []string{"return ", "println(", "clear("} {
				if strings.Contains(l, stmt) {
					t.Errorf("%s: Text has a body statement: %q", c.ID, l)
				}
			}
		}
	}
}

// TestUpstreamChunksSymbols checks the chunks of chosen declarations of the
// fixture, and that nothing unexported, internal, ignored, test, main or
// indirect makes a chunk.
func TestUpstreamChunksSymbols(t *testing.T) {
	t.Parallel()
	chunks, _ := upstreamRun(t)
	bySymbol := map[string][]Chunk{}
	for _, c := range chunks {
		bySymbol[c.Symbol] = append(bySymbol[c.Symbol], c)
	}
	const dep = "@upstream/example.com/dep@v1.2.0/"
	tests := []struct {
		symbol     string
		path       string
		start, end int
		has, lacks []string
	}{
		{"package example.com/dep", dep + "doc.go", 1, 5,
			[]string{"// Package dep is the fixture", "// Its doc comment spans", `package dep // import "example.com/dep"`},
			[]string{"not the package doc"}},
		{"package example.com/dep/sub", dep + "sub/sub.go", 1, 2,
			[]string{`package sub // import "example.com/dep/sub"`}, nil},
		{"dep.Version", dep + "dep.go", 6, 7, []string{`const Version = "v1.2.0"`}, nil},
		{"dep.LRU", dep + "dep.go", 12, 19,
			[]string{"// The modes.", "LRU Mode = iota", "// LFU evicts", "internalMode"}, nil},
		{"dep.ErrMissing", dep + "dep.go", 21, 22, []string{`var ErrMissing = errors.New("dep: missing")`}, nil},
		{"dep.Hook", dep + "dep.go", 24, 29,
			[]string{"// Hook runs on eviction.", "Hook = func(key string)"}, []string{"println", "hidden"}},
		{"dep.Cache", dep + "dep.go", 33, 39,
			[]string{"// Cache holds entries.", "type Cache[K comparable, V any] struct {", "// Size is the capacity.", "Size int", "\tMode\n",
				"// contains unexported fields", "// Methods of Cache:", "func (c *Cache[K, V]) Get(key K) (V, bool)", "func (c *Cache[K, V]) Purge(\n\treason string,\n) int"},
			[]string{"items", "evict"}},
		{"dep.New", dep + "dep.go", 41, 42,
			[]string{"// New returns a Cache of size n.", "func New[K comparable, V any](n int) *Cache[K, V]"}, []string{"{"}},
		{"dep.Cache.Purge", dep + "dep.go", 52, 56,
			[]string{"// Purge empties the cache and\n// reports how many", "func (c *Cache[K, V]) Purge(\n\treason string,\n) int"},
			[]string{"{", "len(c.items)"}},
		{"dep.Store", dep + "iface.go", 3, 9,
			[]string{"type Store interface {", "// Load reads key.", "Load(key string) ([]byte, error)", "\tSizer\n", "// contains unexported methods"},
			[]string{"save"}},
		{"dep.Sizer", dep + "iface.go", 11, 12, []string{"type Sizer interface{ Size() int }"}, []string{"contains unexported"}},
		{"dep.Number", dep + "iface.go", 16, 19, []string{"// Number is a numeric constraint.", "~int | ~float64"}, []string{"Types of values"}},
		{"dep.Pair", dep + "iface.go", 20, 21, []string{"// Pair is two values.", "A int", "// contains unexported fields"}, []string{"b int", "A, b"}},
		{"dep.Failer", dep + "iface.go", 24, 28, []string{"type Failer interface {\n\terror\n\tCode() int\n}"}, []string{"contains unexported"}},
		{"upper.Hello", "@upstream/example.com/Upper@v0.1.0/upper.go", 3, 4, []string{"func Hello() string"}, []string{"return"}},
		{"old.Forked", "@upstream/example.com/fork@v1.1.0/fork.go", 3, 4, []string{"func Forked()"}, nil},
		{"package example.com/pinned", "@upstream/example.com/dep@v1.1.0/dep.go", 1, 2,
			[]string{`package dep // import "example.com/pinned"`}, nil},
		{"dep.Old", "@upstream/example.com/dep@v1.1.0/dep.go", 4, 5, []string{"func Old()"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			cs := bySymbol[tt.symbol]
			if len(cs) != 1 {
				t.Fatalf("%d chunks for %s, want 1", len(cs), tt.symbol)
			}
			c := cs[0]
			got := [3]any{c.Path, c.StartLine, c.EndLine}
			if diff := cmp.Diff([3]any{tt.path, tt.start, tt.end}, got); diff != "" {
				t.Errorf("path and lines (-want +got):\n%s", diff)
			}
			for _, s := range tt.has {
				if !strings.Contains(c.Text, s) {
					t.Errorf("Text lacks %q:\n%s", s, c.Text)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(c.Text, s) {
					t.Errorf("Text has %q:\n%s", s, c.Text)
				}
			}
		})
	}

	for _, sym := range []string{
		"dep.unexported", "dep.helper", "dep.helper.Do", "dep.Cache.evict", "dep.secret", "dep.hidden",
		"dep.Ignored", "dep.TestNew", "impl.Impl", "testdata.Fixture", "demo.Demo", "main.Tool",
		"indirect.Indirect", "dep.Plan9Only",
	} {
		if runtime.GOOS == "plan9" && sym == "dep.Plan9Only" {
			continue
		}
		if _, ok := bySymbol[sym]; ok {
			t.Errorf("unexpected chunk for %s", sym)
		}
	}
	for _, c := range chunks {
		if strings.Contains(c.Path, "/internal/") || strings.Contains(c.Path, "/testdata/") ||
			strings.Contains(c.Path, "/_examples/") || strings.Contains(c.Path, "/cmd/") ||
			strings.Contains(c.Path, "nowhere") || strings.Contains(c.Path, "missing") {
			t.Errorf("unexpected chunk %s", c.ID)
		}
	}
}

// TestUpstreamChunksModules checks what UpstreamChunks reports per direct
// requirement of the fixture repository: the exact version read, the
// replacements applied and the reasons for skipping.
func TestUpstreamChunksModules(t *testing.T) {
	t.Parallel()
	chunks, mods := upstreamRun(t)
	cache := upstreamFixtureCache(t)
	count := func(prefix string) int {
		n := 0
		for _, c := range chunks {
			if strings.HasPrefix(c.Path, upstreamPathPrefix+prefix+"/") {
				n++
			}
		}
		return n
	}
	want := []UpstreamModule{
		{Path: "example.com/Upper", Version: "v0.1.0", Dir: filepath.Join(cache, "example.com/!upper@v0.1.0"), Chunks: count("example.com/Upper@v0.1.0")},
		{Path: "example.com/dep", Version: "v1.2.0", Dir: filepath.Join(cache, "example.com/dep@v1.2.0"), Chunks: count("example.com/dep@v1.2.0")},
		{Path: "example.com/local", Version: "v1.0.0", Replace: "../local", Skipped: "local directory"},
		{Path: "example.com/missing", Version: "v0.3.0", Skipped: "not in module cache"},
		{Path: "example.com/old", Version: "v1.0.0", Replace: "example.com/fork@v1.1.0", Dir: filepath.Join(cache, "example.com/fork@v1.1.0"), Chunks: 1},
		{Path: "example.com/pinned", Version: "v1.0.0", Replace: "example.com/dep@v1.1.0", Dir: filepath.Join(cache, "example.com/dep@v1.1.0"), Chunks: 2},
	}
	// Skipped is compared by a telling part of the reason.
	got := slices.Clone(mods)
	for i := range got {
		if i < len(want) && want[i].Skipped != "" && strings.Contains(got[i].Skipped, want[i].Skipped) {
			got[i].Skipped = want[i].Skipped
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("modules (-want +got):\n%s", diff)
	}
	if n := count("example.com/dep@v1.2.0"); n < 10 {
		t.Errorf("%d chunks of example.com/dep@v1.2.0, want at least 10", n)
	}
}

// TestUpstreamChunksGoMod runs UpstreamChunks over small go.mod files:
// exact versions, replacements, and go.mod files that give nothing or an
// error.
func TestUpstreamChunksGoMod(t *testing.T) {
	t.Parallel()
	cache := upstreamFixtureCache(t)
	tests := []struct {
		name    string
		gomod   string // "" for no go.mod
		symbols []string
		skipped []string // per module, a part of Skipped ("" when read)
		wantErr string
	}{
		{name: "older version", gomod: "module m\nrequire example.com/dep v1.1.0\n",
			symbols: []string{"package example.com/dep", "dep.Old"}, skipped: []string{""}},
		{name: "version not in cache", gomod: "module m\nrequire example.com/dep v1.3.0\n",
			skipped: []string{"dep@v1.3.0) and downloads are disabled"}},
		{name: "replace of all versions", gomod: "module m\nrequire example.com/x v0.0.1\nreplace example.com/x => example.com/Upper v0.1.0\n",
			symbols: []string{"upper.Hello"}, skipped: []string{""}},
		{name: "replace of another version", gomod: "module m\nrequire example.com/Upper v0.1.0\nreplace example.com/Upper v0.0.9 => example.com/dep v1.1.0\n",
			symbols: []string{"upper.Hello"}, skipped: []string{""}},
		{name: "local replace", gomod: "module m\nrequire example.com/dep v1.2.0\nreplace example.com/dep v1.2.0 => ./dep\n",
			skipped: []string{"replaced by local directory ./dep"}},
		{name: "two requirements replaced by one version", gomod: "module m\nrequire (\n\texample.com/x v0.0.1\n\texample.com/y v0.0.2\n)\n" +
			"replace example.com/x => example.com/Upper v0.1.0\nreplace example.com/y => example.com/Upper v0.1.0\n",
			symbols: []string{"upper.Hello"}, skipped: []string{"", "example.com/Upper@v0.1.0 is already read for example.com/x"}},
		{name: "indirect only", gomod: "module m\nrequire example.com/dep v1.2.0 // indirect\n"},
		{name: "no go.mod"},
		{name: "bad go.mod", gomod: "module m\nrequire example.com/dep\n", wantErr: "parse go.mod"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{}
			if tt.gomod != "" {
				fsys = upstreamGoMod(tt.gomod)
			}
			chunks, mods, err := UpstreamChunks(t.Context(), fsys, UpstreamOptions{ModCache: cache, GoCommand: "/nonexistent/go"})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var symbols []string
			for _, c := range chunks {
				symbols = append(symbols, c.Symbol)
			}
			if diff := cmp.Diff(tt.symbols, symbols); diff != "" {
				t.Errorf("symbols (-want +got):\n%s", diff)
			}
			var skipped []string
			for i, m := range mods {
				s := m.Skipped
				if i < len(tt.skipped) && tt.skipped[i] != "" && strings.Contains(s, tt.skipped[i]) {
					s = tt.skipped[i]
				}
				skipped = append(skipped, s)
			}
			if diff := cmp.Diff(tt.skipped, skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUpstreamChunksLimits checks the file size and per-module chunk
// bounds.
func TestUpstreamChunksLimits(t *testing.T) {
	t.Parallel()
	cache := upstreamFixtureCache(t)
	fsys := upstreamGoMod("module m\nrequire example.com/dep v1.2.0\n")
	dir := filepath.Join(cache, "example.com/dep@v1.2.0")
	fi, err := os.Stat(filepath.Join(dir, "iface.go"))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("chunks", func(t *testing.T) {
		chunks, mods, err := UpstreamChunks(t.Context(), fsys, UpstreamOptions{ModCache: cache, MaxChunksPerModule: 3, GoCommand: "/nonexistent/go"})
		if err != nil {
			t.Fatal(err)
		}
		want := []UpstreamModule{{Path: "example.com/dep", Version: "v1.2.0", Dir: dir, Chunks: 3, Truncated: true}}
		if diff := cmp.Diff(want, mods); diff != "" {
			t.Errorf("modules (-want +got):\n%s", diff)
		}
		if len(chunks) != 3 {
			t.Errorf("%d chunks, want 3", len(chunks))
		}
	})
	t.Run("file size", func(t *testing.T) {
		// iface.go is the largest file kept; dep.go is larger.
		chunks, _, err := UpstreamChunks(t.Context(), fsys, UpstreamOptions{ModCache: cache, MaxFileBytes: fi.Size(), GoCommand: "/nonexistent/go"})
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]bool{}
		for _, c := range chunks {
			files[filepath.Base(c.Path)] = true
		}
		if diff := cmp.Diff(map[string]bool{"doc.go": true, "iface.go": true, "sub.go": true}, files); diff != "" {
			t.Errorf("files read (-want +got):\n%s", diff)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, _, err := UpstreamChunks(ctx, fsys, UpstreamOptions{ModCache: cache, GoCommand: "/nonexistent/go"})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
}

// upstreamFakeGo writes a fake go command that logs its arguments and the
// GOFLAGS, GOWORK and GOMODCACHE it sees to a file, prints modcache for
// `go env GOMODCACHE`, and answers `go mod download -json` for
// example.com/missing@v0.3.0 with the directory of the fixture's dep
// v1.1.0 and with an error for anything else. It returns the command and
// the log file.
func upstreamFakeGo(t *testing.T, modcache string) (string, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake go command is a shell script")
	}
	dir := t.TempDir()
	logFile := filepath.Join(dir, "calls")
	script := fmt.Sprintf(`#!/bin/sh
log=%q
case "$1 $2 $3 $4" in
"env GOMODCACHE  ")
	echo "$*" >> "$log"
	echo %q ;;
"mod download -json "*)
	echo "$* GOFLAGS=$GOFLAGS GOWORK=$GOWORK GOMODCACHE=$GOMODCACHE" >> "$log"
	if [ "$4" = example.com/missing@v0.3.0 ]; then
		printf '{"Path": "example.com/missing", "Version": "v0.3.0", "Dir": "%%s"}\n' %q
	else
		printf '{"Path": "x", "Error": "%%s: module lookup disabled"}\n' "$4"
		exit 1
	fi ;;
*)
	echo "unexpected arguments: $*" >&2
	exit 2 ;;
esac
`, logFile, modcache, filepath.Join(modcache, "example.com/dep@v1.1.0"))
	goCmd := filepath.Join(dir, "go")
	if err := os.WriteFile(goCmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return goCmd, logFile
}

// TestUpstreamChunksDownload checks when the go command runs: go env for
// a missing ModCache, and go mod download only with Download set.
func TestUpstreamChunksDownload(t *testing.T) {
	t.Parallel()
	cache := upstreamFixtureCache(t)
	fsys := upstreamGoMod("module m\nrequire (\n\texample.com/dep v1.2.0\n\texample.com/missing v0.3.0\n\texample.com/gone v0.1.0\n)\n")
	tests := []struct {
		name      string
		download  bool
		modcache  string
		calls     []string
		skipped   []string
		wantPaths []string // module@version of the chunks, deduplicated
	}{
		{
			name:      "offline, cache from go env",
			calls:     []string{"env GOMODCACHE"},
			skipped:   []string{"", "downloads are disabled", "downloads are disabled"},
			wantPaths: []string{"example.com/dep@v1.2.0"},
		},
		{
			name:      "offline, cache given",
			modcache:  cache,
			skipped:   []string{"", "downloads are disabled", "downloads are disabled"},
			wantPaths: []string{"example.com/dep@v1.2.0"},
		},
		{
			name:     "download",
			download: true,
			modcache: cache,
			calls: []string{
				"mod download -json example.com/missing@v0.3.0 GOFLAGS=-mod=mod GOWORK=off GOMODCACHE=" + cache,
				"mod download -json example.com/gone@v0.1.0 GOFLAGS=-mod=mod GOWORK=off GOMODCACHE=" + cache,
			},
			skipped:   []string{"", "", "download example.com/gone@v0.1.0: example.com/gone@v0.1.0: module lookup disabled"},
			wantPaths: []string{"example.com/dep@v1.2.0", "example.com/missing@v0.3.0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			goCmd, logFile := upstreamFakeGo(t, cache)
			chunks, mods, err := UpstreamChunks(t.Context(), fsys, UpstreamOptions{
				Download: tt.download, GoCommand: goCmd, ModCache: tt.modcache,
			})
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(logFile)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			var calls []string
			for l := range strings.Lines(string(data)) {
				calls = append(calls, strings.TrimSuffix(l, "\n"))
			}
			if diff := cmp.Diff(tt.calls, calls); diff != "" {
				t.Errorf("go command calls (-want +got):\n%s", diff)
			}
			var skipped []string
			for i, m := range mods {
				s := m.Skipped
				if tt.skipped[i] != "" && strings.Contains(s, tt.skipped[i]) {
					s = tt.skipped[i]
				}
				skipped = append(skipped, s)
			}
			if diff := cmp.Diff(tt.skipped, skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			var paths []string
			for _, c := range chunks {
				if !slices.Contains(paths, c.Heading) {
					paths = append(paths, c.Heading)
				}
			}
			if diff := cmp.Diff(tt.wantPaths, paths); diff != "" {
				t.Errorf("modules read (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("no go command", func(t *testing.T) {
		_, _, err := UpstreamChunks(t.Context(), fsys, UpstreamOptions{GoCommand: filepath.Join(t.TempDir(), "go")})
		if err == nil || !strings.Contains(err.Error(), "locate module cache") {
			t.Errorf("error %v, want one about locating the module cache", err)
		}
	})
}

// TestUpstreamChunksRealCache reads, from this machine's module cache and
// without downloading, the goldmark version docreview's own go.mod
// requires.
func TestUpstreamChunksRealCache(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	if strings.Contains(os.Getenv("GOFLAGS"), "-mod=vendor") {
		t.Skip("GOFLAGS has -mod=vendor: the module cache may not hold the dependencies")
	}
	data, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	const goldmark = "github.com/yuin/goldmark"
	version := ""
	for _, r := range mf.Require {
		if r.Mod.Path == goldmark {
			version = r.Mod.Version
		}
	}
	if version == "" {
		t.Fatalf("docreview's go.mod does not require %s", goldmark)
	}
	fsys := upstreamGoMod(fmt.Sprintf("module m\nrequire %s %s\n", goldmark, version))

	chunks, mods, err := UpstreamChunks(t.Context(), fsys, UpstreamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) != 1 {
		t.Fatalf("%d modules, want 1", len(mods))
	}
	if mods[0].Skipped != "" {
		t.Skipf("%s@%s not usable: %s", goldmark, version, mods[0].Skipped)
	}
	prefix := upstreamPathPrefix + goldmark + "@" + version + "/"
	bySymbol := map[string]Chunk{}
	for _, c := range chunks {
		if !strings.HasPrefix(c.Path, prefix) || c.Heading != goldmark+"@"+version || c.Source != SourceUpstream {
			t.Errorf("chunk %s: Path, Heading or Source not of %s@%s", c.ID, goldmark, version)
		}
		if strings.Contains(c.Path, "/_test/") || strings.Contains(c.Path, "/internal/") || strings.HasSuffix(c.Path, "_test.go") {
			t.Errorf("chunk %s of a test or internal file", c.ID)
		}
		bySymbol[c.Symbol] = c
	}
	for sym, want := range map[string]string{
		"package " + goldmark:          "package goldmark // import",
		"goldmark.New":                 "func New(options ...Option) Markdown",
		"goldmark.Markdown":            "Convert(source []byte, writer io.Writer, opts ...parser.ParseOption) error",
		"goldmark.Convert":             "func Convert(",
		"parser.NewParser":             "func NewParser(",
		"ast.Node":                     "type Node interface",
		"renderer.Renderer":            "type Renderer interface",
		"package " + goldmark + "/ast": "package ast // import",
	} {
		c, ok := bySymbol[sym]
		if !ok {
			t.Errorf("no chunk for %s", sym)
			continue
		}
		if !strings.Contains(c.Text, want) {
			t.Errorf("%s: Text lacks %q:\n%s", sym, want, c.Text)
		}
	}
	if c, ok := bySymbol["goldmark.New"]; ok && strings.Contains(c.Text, "{") {
		t.Errorf("goldmark.New has a body:\n%s", c.Text)
	}
	if mods[0].Chunks != len(chunks) {
		t.Errorf("module reports %d chunks, got %d", mods[0].Chunks, len(chunks))
	}
}

package retrieval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// indexRepoV1 and indexRepoV2 are two commits of a small repository: a.go
// is unchanged, b.go changed, gone.txt removed, new.md added.
func indexRepoV1() fstest.MapFS {
	return fstest.MapFS{
		"a.go":     {Data: []byte("package a\n\n// Evict drops one entry.\nfunc Evict() {}\n")},
		"b.go":     {Data: []byte("package a\n\n// Purge removes all entries.\nfunc Purge() {}\n")},
		"gone.txt": {Data: []byte("the sweeper runs every thirty seconds\n")},
	}
}

func indexRepoV2() fstest.MapFS {
	return fstest.MapFS{
		"a.go":   {Data: []byte("package a\n\n// Evict drops one entry.\nfunc Evict() {}\n")},
		"b.go":   {Data: []byte("package a\n\n// Flush marks all entries expired.\nfunc Flush() {}\n\n// Drain waits.\nfunc Drain() {}\n")},
		"new.md": {Data: []byte("# Cache\n\nFlush marks entries; the janitor removes them.\n")},
	}
}

// indexFiles returns the paths of fsys, sorted.
func indexFiles(fsys fstest.MapFS) []string {
	var files []string
	for p := range fsys {
		files = append(files, p)
	}
	slices.Sort(files)
	return files
}

// indexMustBuild builds fsys at dir for commit.
func indexMustBuild(t *testing.T, fsys fs.FS, files []string, opt IndexOptions) *Index {
	t.Helper()
	ix, err := BuildIndex(t.Context(), fsys, files, opt)
	if err != nil {
		t.Fatalf("BuildIndex %s: %v", opt.Commit, err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	return ix
}

// indexAll returns every chunk of ix.
func indexAll(t *testing.T, ix *Index) []Chunk {
	t.Helper()
	all, err := ix.AllChunks(t.Context())
	if err != nil {
		t.Fatalf("AllChunks: %v", err)
	}
	return all
}

// indexReadMeta reads the internal keys of the closed index at dir.
func indexReadMeta(t *testing.T, dir string) (indexHead, indexManifest) {
	t.Helper()
	bix, err := indexOpenBleve(dir, true, "1s")
	if err != nil {
		t.Fatal(err)
	}
	defer bix.Close()
	head, err := indexReadHead(bix)
	if err != nil {
		t.Fatal(err)
	}
	m, err := indexReadManifest(bix)
	if err != nil {
		t.Fatal(err)
	}
	return head, m
}

func TestBuildIndexUpdate(t *testing.T) {
	var log indexTestLog
	dir := filepath.Join(t.TempDir(), "idx")
	v1, v2 := indexRepoV1(), indexRepoV2()
	ix := indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c1", Logger: log.logger()})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix = indexMustBuild(t, v2, indexFiles(v2), IndexOptions{Dir: dir, Commit: "c2", Logger: log.logger()})
	for _, want := range []string{`msg="index update"`, `reason="index is for commit \"c1\""`, "changed=2", "removed=1"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, log.String())
		}
	}
	if ix.Commit() != "c2" {
		t.Errorf("Commit = %q, want c2", ix.Commit())
	}
	for q, want := range map[string][]string{
		"Evict":   {"a.go#3"},
		"Purge":   nil,
		"Flush":   {"b.go#3", "new.md#1"},
		"Drain":   {"b.go#6"},
		"sweeper": nil,
		"janitor": {"new.md#1"},
	} {
		hits, err := ix.Search(t.Context(), Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		got := indexHitIDs(hits)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Errorf("Search(%s) = %v, want %v", q, got, want)
		}
	}

	// The updated index holds what a fresh build of the commit holds.
	fresh := indexMustBuild(t, v2, indexFiles(v2), IndexOptions{Dir: filepath.Join(t.TempDir(), "fresh"), Commit: "c2"})
	if diff := cmp.Diff(indexAll(t, fresh), indexAll(t, ix)); diff != "" {
		t.Errorf("updated index differs from a fresh build (-fresh +updated):\n%s", diff)
	}
	if diff := cmp.Diff(fresh.Stats().Files, ix.Stats().Files); diff != "" {
		t.Errorf("Stats.Files (-fresh +updated):\n%s", diff)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	head, m := indexReadMeta(t, dir)
	if head.commit != "c2" {
		t.Errorf("recorded commit %q, want c2", head.commit)
	}
	if diff := cmp.Diff([]string{"a.go", "b.go", "new.md"}, slices.Sorted(maps.Keys(m.Files))); diff != "" {
		t.Errorf("manifest files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"b.go#1", "b.go#3", "b.go#6"}, m.Files["b.go"].Chunks); diff != "" {
		t.Errorf("manifest chunks of b.go (-want +got):\n%s", diff)
	}
	indexNoTemp(t, dir)
}

// indexCountFS counts the files opened.
type indexCountFS struct {
	fs.FS
	mu     *sync.Mutex
	opened map[string]int
}

func (c indexCountFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

func TestBuildIndexUpdateUnchangedContent(t *testing.T) {
	var log indexTestLog
	dir := filepath.Join(t.TempDir(), "idx")
	v1 := indexRepoV1()
	indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c1"}).Close()
	before, err := OpenIndex(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := indexAll(t, before)
	_ = before.Close()

	// Same content at another commit: every file is read to hash it,
	// none is re-indexed.
	cfs := indexCountFS{FS: v1, mu: &sync.Mutex{}, opened: map[string]int{}}
	ix := indexMustBuild(t, cfs, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c2", Logger: log.logger()})
	if !strings.Contains(log.String(), "changed=0 removed=0") {
		t.Errorf("log does not say nothing changed:\n%s", log.String())
	}
	if diff := cmp.Diff(want, indexAll(t, ix)); diff != "" {
		t.Errorf("chunks changed (-before +after):\n%s", diff)
	}
	for _, p := range indexFiles(v1) {
		if cfs.opened[p] == 0 {
			t.Errorf("%s was not read to check its hash", p)
		}
	}
}

func TestBuildIndexUpdateGenerated(t *testing.T) {
	// A larger update that spans several batches: a third of the files
	// change, a sixth are removed, some are added.
	fsys, files := indexGenerated(150, 20)
	dir := filepath.Join(t.TempDir(), "idx")
	indexMustBuild(t, fsys, files, IndexOptions{Dir: dir, Commit: "c1"}).Close()

	next := fstest.MapFS{}
	var nextFiles []string
	for i, p := range files {
		switch {
		case i%6 == 0: // removed
			continue
		case i%3 == 0:
			src := strings.ReplaceAll(string(fsys[p].Data), "stale", "fresh")
			next[p] = &fstest.MapFile{Data: []byte(src + "\n// Extra is new.\nfunc Extra() {}\n")}
		default:
			next[p] = fsys[p]
		}
		nextFiles = append(nextFiles, p)
	}
	for i := range 10 {
		p := fmt.Sprintf("added/a%d.go", i)
		next[p] = &fstest.MapFile{Data: fmt.Appendf(nil, "package added\n\n// Added%d is new.\nfunc Added%d() {}\n", i, i)}
		nextFiles = append(nextFiles, p)
	}
	updated := indexMustBuild(t, next, nextFiles, IndexOptions{Dir: dir, Commit: "c2"})
	fresh := indexMustBuild(t, next, nextFiles, IndexOptions{Dir: filepath.Join(t.TempDir(), "fresh"), Commit: "c2"})
	if diff := cmp.Diff(indexAll(t, fresh), indexAll(t, updated)); diff != "" {
		t.Errorf("updated index differs from a fresh build (-fresh +updated):\n%s", diff)
	}
	if diff := cmp.Diff(fresh.Stats().Docs, updated.Stats().Docs); diff != "" {
		t.Errorf("Docs (-fresh +updated):\n%s", diff)
	}
	hits, err := updated.Search(t.Context(), Query{Text: "Extra", TopK: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(hits), 150/3-150/6; got != want {
		t.Errorf("Search(Extra) = %d hits, want %d", got, want)
	}
}

func TestBuildIndexUpdateKeepsSegmentsFew(t *testing.T) {
	if raceEnabled {
		t.Skip("merges run in the background and fall behind under the race detector")
	}
	dir := filepath.Join(t.TempDir(), "idx")
	fsys, files := indexGenerated(20, 5)
	indexMustBuild(t, fsys, files, IndexOptions{Dir: dir, Commit: "c0"}).Close()
	for i := range 25 {
		p := files[i%len(files)]
		fsys[p] = &fstest.MapFile{Data: fmt.Appendf(fsys[p].Data, "\nfunc Rev%d() {}\n", i)}
		ix, err := BuildIndex(t.Context(), fsys, files, IndexOptions{Dir: dir, Commit: fmt.Sprint("c", i+1)})
		if err != nil {
			t.Fatal(err)
		}
		_ = ix.Close()
	}
	zaps, err := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	if err != nil {
		t.Fatal(err)
	}
	// Each update adds segments (its batches); bleve's merges must keep
	// them from piling up, or searches slow down with every commit.
	if len(zaps) > 12 {
		t.Errorf("%d segment files after 25 updates, want merges to keep them few", len(zaps))
	}
}

// indexInterrupted returns the directory of an index of v1 at commit c1
// whose update marker is set, as an update that crashed between its first
// batch and its last would leave it.
func indexInterrupted(t *testing.T, v1 fstest.MapFS) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "idx")
	indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: "c1"}).Close()
	bix, err := indexOpenBleve(dir, false, "1s")
	if err != nil {
		t.Fatal(err)
	}
	b := bix.NewBatch()
	b.Delete("a.go#3")
	b.SetInternal(indexKeyUpdating, []byte("c2"))
	if err := bix.Batch(b); err != nil {
		t.Fatal(err)
	}
	if err := bix.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBuildIndexInterruptedUpdate(t *testing.T) {
	v1 := indexRepoV1()
	dir := indexInterrupted(t, v1)
	if ix, err := OpenIndex(t.Context(), dir); err == nil || !strings.Contains(err.Error(), "interrupted") {
		if ix != nil {
			_ = ix.Close()
		}
		t.Errorf("OpenIndex of an interrupted index: err = %v, want one saying it was interrupted", err)
	}
	for _, commit := range []string{"c1", "c2"} {
		t.Run(commit, func(t *testing.T) {
			var log indexTestLog
			dir := indexInterrupted(t, v1)
			ix := indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: dir, Commit: commit, Logger: log.logger()})
			if !strings.Contains(log.String(), `msg="index rebuild"`) || !strings.Contains(log.String(), "interrupted") {
				t.Errorf("log lacks a rebuild for the interrupted update:\n%s", log.String())
			}
			if hits, err := ix.Search(t.Context(), Query{Text: "Evict"}); err != nil || len(hits) != 1 {
				t.Errorf("Search(Evict) after rebuild: %v, %d hits, want 1", err, len(hits))
			}
		})
	}
}

func TestBuildIndexCancelledUpdate(t *testing.T) {
	fsys, files := indexGenerated(60, 20)
	dir := filepath.Join(t.TempDir(), "idx")
	ix := indexMustBuild(t, fsys, files, IndexOptions{Dir: dir, Commit: "c1"})
	want := indexAll(t, ix)
	_ = ix.Close()

	next := fstest.MapFS{}
	for p, f := range fsys {
		next[p] = &fstest.MapFile{Data: append([]byte("// Changed.\n"), f.Data...)}
	}
	for _, at := range []string{files[0], files[40]} {
		ctx, cancel := context.WithCancel(t.Context())
		cfs := indexCancelFS{FS: next, at: at, cancel: cancel}
		_, err := BuildIndex(ctx, cfs, files, IndexOptions{Dir: dir, Commit: "c2"})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at %s: err = %v, want context.Canceled", at, err)
		}
		old, err := OpenIndex(t.Context(), dir)
		if err != nil {
			t.Fatalf("old index broken by a cancelled update: %v", err)
		}
		if old.Commit() != "c1" {
			t.Errorf("Commit = %q after a cancelled update, want c1", old.Commit())
		}
		if diff := cmp.Diff(want, indexAll(t, old)); diff != "" {
			t.Errorf("chunks changed by a cancelled update (-want +got):\n%s", diff)
		}
		_ = old.Close()
		indexNoTemp(t, dir)
	}
}

func TestBuildIndexOptions(t *testing.T) {
	fsys := fstest.MapFS{
		"main.go":                  {Data: []byte("package main\n\n// Serve listens.\nfunc Serve() {}\n")},
		"vendor/dep/dep.go":        {Data: []byte("package dep\n\n// Vendored helper.\nfunc Vendored() {}\n")},
		"sub/vendor/x.go":          {Data: []byte("package x\n\n// NestedVendored helper.\nfunc NestedVendored() {}\n")},
		"pkg/testdata/fixture.txt": {Data: []byte("fixture text for tests\n")},
		"testdata/top.txt":         {Data: []byte("toplevel fixture\n")},
		"notvendor/y.go":           {Data: []byte("package y\n\n// Kept helper.\nfunc Kept() {}\n")},
		"big.txt":                  {Data: []byte(strings.Repeat("word ", 100))},
	}
	files := indexFiles(fsys)
	tests := []struct {
		name    string
		opt     IndexOptions
		paths   []string // files whose chunks are indexed
		skipped int
	}{
		{
			name:  "defaults",
			paths: []string{"big.txt", "main.go", "notvendor/y.go"},
		},
		{
			name:  "include vendor",
			opt:   IndexOptions{IncludeVendor: true},
			paths: []string{"big.txt", "main.go", "notvendor/y.go", "sub/vendor/x.go", "vendor/dep/dep.go"},
		},
		{
			name:  "include testdata",
			opt:   IndexOptions{IncludeTestdata: true},
			paths: []string{"big.txt", "main.go", "notvendor/y.go", "pkg/testdata/fixture.txt", "testdata/top.txt"},
		},
		{
			name:    "small size limit",
			opt:     IndexOptions{MaxFileSize: 100},
			paths:   []string{"main.go", "notvendor/y.go"},
			skipped: 1,
		},
		{
			name:  "no size limit",
			opt:   IndexOptions{MaxFileSize: -1},
			paths: []string{"big.txt", "main.go", "notvendor/y.go"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opt := tt.opt
			opt.Dir, opt.Commit = filepath.Join(t.TempDir(), "idx"), "c"
			ix := indexMustBuild(t, fsys, files, opt)
			var paths []string
			for _, c := range indexAll(t, ix) {
				if !slices.Contains(paths, c.Path) {
					paths = append(paths, c.Path)
				}
			}
			if diff := cmp.Diff(tt.paths, paths); diff != "" {
				t.Errorf("indexed files (-want +got):\n%s", diff)
			}
			// A new index: every file selected is new, skipped ones too.
			want := IndexStats{Docs: len(indexAll(t, ix)), Files: len(tt.paths), Skipped: tt.skipped, Changed: len(tt.paths) + tt.skipped}
			for _, p := range tt.paths {
				want.Bytes += int64(len(fsys[p].Data))
			}
			st := ix.Stats()
			if st.DiskBytes <= 0 {
				t.Errorf("Stats.DiskBytes = %d, want > 0", st.DiskBytes)
			}
			st.DiskBytes = 0
			if diff := cmp.Diff(want, st); diff != "" {
				t.Errorf("Stats (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildIndexSizeLimitChangeRebuilds(t *testing.T) {
	var log indexTestLog
	dir := filepath.Join(t.TempDir(), "idx")
	fsys := fstest.MapFS{"big.txt": {Data: []byte(strings.Repeat("word ", 100))}}
	indexMustBuild(t, fsys, []string{"big.txt"}, IndexOptions{Dir: dir, Commit: "c1", MaxFileSize: 100}).Close()
	ix := indexMustBuild(t, fsys, []string{"big.txt"}, IndexOptions{Dir: dir, Commit: "c2", Logger: log.logger()})
	if !strings.Contains(log.String(), `msg="index rebuild"`) || !strings.Contains(log.String(), "size limit") {
		t.Errorf("log lacks a rebuild for the new size limit:\n%s", log.String())
	}
	if n := len(indexAll(t, ix)); n != 1 {
		t.Errorf("%d chunks, want big.txt's 1", n)
	}
}

func TestBuildIndexProgress(t *testing.T) {
	fsys, files := indexTinyFiles(3000)
	type call struct{ done, total int }
	var calls []call
	start := time.Now()
	opt := IndexOptions{Dir: filepath.Join(t.TempDir(), "idx"), Commit: "c", Progress: func(done, total int) {
		calls = append(calls, call{done, total})
	}}
	indexMustBuild(t, fsys, files, opt)
	elapsed := time.Since(start)
	if len(calls) == 0 || calls[len(calls)-1] != (call{len(files), len(files)}) {
		t.Fatalf("last Progress call of %v is not (%d, %d)", calls, len(files), len(files))
	}
	for i, c := range calls {
		if c.total != len(files) || i > 0 && c.done < calls[i-1].done {
			t.Errorf("Progress calls %v: wrong total or done going back", calls)
			break
		}
	}
	if limit := int(elapsed/indexProgressEvery) + 2; len(calls) > limit {
		t.Errorf("%d Progress calls in %v, want at most %d", len(calls), elapsed, limit)
	}
}

// indexVanishFS serves a file once, for its Stat, and then reports it
// gone, as if it were deleted between listing and reading.
type indexVanishFS struct {
	fsys   fstest.MapFS // not embedded: its ReadFile and Stat would bypass Open
	name   string
	mu     *sync.Mutex
	opened *bool
}

func (v indexVanishFS) Open(name string) (fs.File, error) {
	if name == v.name {
		v.mu.Lock()
		defer v.mu.Unlock()
		if *v.opened {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		*v.opened = true
	}
	return v.fsys.Open(name)
}

func TestBuildIndexBadInput(t *testing.T) {
	var log indexTestLog
	fsys := fstest.MapFS{
		"vanish.go":  {Data: []byte("package v\n\n// Vanish is deleted while indexing.\nfunc Vanish() {}\n")},
		"latin1.txt": {Data: []byte("caf\xe9 cr\xe8me br\xfbl\xe9e recipe\n")},
		"bad.go":     {Data: []byte("package bad\n\n// Broken\xff\xfe comment.\nfunc Broken() {}\n")},
		"blob.bin":   {Data: []byte("header\x00\x01\x02 binary")},
		"big.txt":    {Data: []byte(strings.Repeat("x", 2000))},
		"ok.md":      {Data: []byte("# Title\n\nFine text.\n")},
	}
	files := append(indexFiles(fsys), "deleted.go")
	vfs := indexVanishFS{fsys: fsys, name: "vanish.go", mu: &sync.Mutex{}, opened: new(bool)}
	ix := indexMustBuild(t, vfs, files, IndexOptions{Dir: filepath.Join(t.TempDir(), "idx"), Commit: "c", MaxFileSize: 1000, Logger: log.logger()})
	var paths []string
	replaced := map[string]bool{}
	for _, c := range indexAll(t, ix) {
		paths = append(paths, c.Path)
		if !utf8.ValidString(c.Text) {
			t.Errorf("chunk %s text %q is not valid UTF-8", c.ID, c.Text)
		}
		if strings.Contains(c.Text, "\uFFFD") {
			replaced[c.Path] = true
		}
	}
	if diff := cmp.Diff(map[string]bool{"bad.go": true, "latin1.txt": true}, replaced); diff != "" {
		t.Errorf("files with replaced bytes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"bad.go", "bad.go", "latin1.txt", "ok.md"}, paths); diff != "" {
		t.Errorf("indexed files (-want +got):\n%s", diff)
	}
	for _, q := range []string{"recipe", "Broken"} {
		if hits, err := ix.Search(t.Context(), Query{Text: q}); err != nil || len(hits) == 0 {
			t.Errorf("Search(%s): %v, %d hits", q, err, len(hits))
		}
	}
	for _, p := range []string{"deleted.go", "vanish.go"} {
		if !strings.Contains(log.String(), "level=WARN msg=\"index skip unreadable file\" path="+p) {
			t.Errorf("log lacks a warning for %s:\n%s", p, log.String())
		}
	}
	if st := ix.Stats(); st.Files != 3 || st.Skipped != 2 {
		t.Errorf("Stats = %+v, want 3 files and 2 skipped", st)
	}
}

func TestBuildIndexManyTinyFiles(t *testing.T) {
	// 20,000 files here; BenchmarkIndexManyFiles times 100,000.
	fsys, files := indexTinyFiles(20000)
	start := time.Now()
	ix := indexMustBuild(t, fsys, files, IndexOptions{Dir: filepath.Join(t.TempDir(), "idx"), Commit: "c"})
	t.Logf("indexed %d files in %v", len(files), time.Since(start))
	if st := ix.Stats(); st.Files != len(files) || st.Docs != len(files) {
		t.Errorf("Stats = %+v, want %d files and chunks", st, len(files))
	}
	hits, err := ix.Search(t.Context(), Query{Text: "number 12345"})
	if err != nil || len(hits) == 0 || hits[0].Chunk.Path != "d012/f12345.txt" {
		t.Errorf("Search(number 12345) = %v, %v; want d012/f12345.txt first", err, hits)
	}
}

func TestIndexAllChunksAndStats(t *testing.T) {
	ix, _ := indexBuild(t, "c1")
	fixture := indexFixtureChunks(t, os.DirFS("testdata/index"))
	var want []Chunk
	for _, c := range fixture {
		want = append(want, c)
	}
	slices.SortFunc(want, func(a, b Chunk) int { return strings.Compare(a.ID, b.ID) })
	if diff := cmp.Diff(want, indexAll(t, ix)); diff != "" {
		t.Errorf("AllChunks (-want +got):\n%s", diff)
	}
	var total int64
	for _, p := range indexTestFiles {
		if info, err := os.Stat(filepath.Join("testdata/index", p)); err == nil && !strings.HasSuffix(p, ".png") {
			total += info.Size()
		}
	}
	st := ix.Stats()
	if st.DiskBytes <= 0 {
		t.Errorf("Stats.DiskBytes = %d, want > 0", st.DiskBytes)
	}
	st.DiskBytes = 0
	if diff := cmp.Diff(IndexStats{Docs: len(want), Files: 5, Skipped: 1, Bytes: total, Changed: 6}, st); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ix.AllChunks(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("AllChunks with cancelled context: err = %v, want context.Canceled", err)
	}
}

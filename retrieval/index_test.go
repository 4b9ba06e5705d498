package retrieval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/blevesearch/bleve/v2"
	"github.com/google/go-cmp/cmp"
)

// indexTestFiles are the files of testdata/index, the fixture repository.
var indexTestFiles = []string{
	"README.md",
	"cache/cache.go",
	"cache/cache_test.go",
	"cache/sweeper.go",
	"docs/guide.md",
	"docs/logo.png", // binary: skipped
}

// indexTestLog is a logger that writes into a buffer tests can read.
type indexTestLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *indexTestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *indexTestLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *indexTestLog) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// indexFixtureChunks returns the chunks BuildIndex should index for the
// fixture repository.
func indexFixtureChunks(t testing.TB, fsys fs.FS) map[string]Chunk {
	t.Helper()
	want := map[string]Chunk{}
	for _, p := range indexTestFiles {
		if strings.HasSuffix(p, ".png") {
			continue
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range ChunkFile(p, src) {
			want[c.ID] = c
		}
	}
	return want
}

// indexBuild builds the fixture index into a new directory.
func indexBuild(t *testing.T, commit string) (*Index, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "idx")
	ix, err := BuildIndex(t.Context(), os.DirFS("testdata/index"), indexTestFiles, IndexOptions{Dir: dir, Commit: commit})
	if err != nil {
		t.Fatalf("BuildIndex: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	return ix, dir
}

// indexChunkID returns the ID of the fixture chunk with the given symbol or
// heading.
func indexChunkID(t *testing.T, chunks map[string]Chunk, path, symbol string) string {
	t.Helper()
	for id, c := range chunks {
		if c.Path == path && c.Symbol == symbol {
			return id
		}
	}
	t.Fatalf("no fixture chunk %s %q", path, symbol)
	return ""
}

func TestIndexSearch(t *testing.T) {
	ix, _ := indexBuild(t, "c1")
	fsys := os.DirFS("testdata/index")
	chunks := indexFixtureChunks(t, fsys)

	n, err := ix.DocCount()
	if err != nil {
		t.Fatal(err)
	}
	if n != uint64(len(chunks)) {
		t.Errorf("DocCount = %d, want %d (binary file skipped)", n, len(chunks))
	}
	if got := ix.Commit(); got != "c1" {
		t.Errorf("Commit = %q, want c1", got)
	}

	purge := indexChunkID(t, chunks, "cache/cache.go", "Cache.Purge")
	purgeAll := indexChunkID(t, chunks, "cache/cache.go", "Cache.PurgeAll")
	retry := indexChunkID(t, chunks, "cache/sweeper.go", "max_retry_count")
	example := indexChunkID(t, chunks, "cache/cache_test.go", "ExampleCache_Purge")
	testPurge := indexChunkID(t, chunks, "cache/cache_test.go", "TestPurgeMarksExpired")
	const guide = "docs/guide.md#1"

	tests := []struct {
		name      string
		q         Query
		first     string   // ID of the first hit
		firstWhy  string   // its Why, if set
		contains  []string // IDs that must be among the hits
		absent    []string // IDs that must not be
		sources   []Source // every hit must have one of these, if set
		pathStart string   // every hit's path must start with it, if set
	}{
		{name: "identifier finds its definition first", q: Query{Text: "Purge"}, first: purge, firstWhy: "BM25: purge"},
		{name: "qualified identifier", q: Query{Text: "Cache.Purge"}, first: purge, firstWhy: "BM25: cache purge"},
		{name: "camelCase part matches longer identifier", q: Query{Text: "Purge", TopK: 50}, contains: []string{purgeAll}},
		{name: "whole camelCase identifier", q: Query{Text: "PurgeAll"}, first: purgeAll},
		{name: "snake_case whole", q: Query{Text: "max_retry_count"}, first: retry},
		{name: "snake_case part", q: Query{Text: "retry"}, first: retry},
		{name: "prose is stemmed", q: Query{Text: "purge", Sources: []Source{SourceDoc}}, first: guide, sources: []Source{SourceDoc}},
		{name: "prose words", q: Query{Text: "thirty seconds sweeper"}, first: guide},
		{name: "sources filter", q: Query{Text: "Purge", Sources: []Source{SourceTest, SourceExample}},
			contains: []string{example, testPurge}, absent: []string{purge}, sources: []Source{SourceTest, SourceExample}},
		{name: "example source only", q: Query{Text: "Purge", Sources: []Source{SourceExample}}, first: example, sources: []Source{SourceExample}},
		{name: "path prefix", q: Query{Text: "cache", PathPrefix: "docs/"}, first: guide, pathStart: "docs/"},
		{name: "exclude", q: Query{Text: "Purge", Exclude: []string{purge}}, absent: []string{purge}},
		{name: "no searchable terms", q: Query{Text: "!!!"}},
		{name: "top k", q: Query{Text: "cache", TopK: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			hits, err := ix.Search(t.Context(), tt.q)
			if err != nil {
				t.Fatalf("Search: %v", err)
			}
			if tt.q.TopK > 0 && len(hits) > tt.q.TopK || len(hits) > indexDefaultTopK && tt.q.TopK == 0 {
				t.Errorf("%d hits, more than TopK %d", len(hits), tt.q.TopK)
			}
			if tt.first != "" {
				if len(hits) == 0 {
					t.Fatalf("no hits, want %s first", tt.first)
				}
				if hits[0].Chunk.ID != tt.first {
					t.Errorf("first hit %s, want %s; hits: %v", hits[0].Chunk.ID, tt.first, indexHitIDs(hits))
				}
				if tt.firstWhy != "" && hits[0].Why != tt.firstWhy {
					t.Errorf("first hit Why = %q, want %q", hits[0].Why, tt.firstWhy)
				}
			}
			ids := indexHitIDs(hits)
			for _, id := range tt.contains {
				if !slices.Contains(ids, id) {
					t.Errorf("hits %v lack %s", ids, id)
				}
			}
			for _, id := range tt.absent {
				if slices.Contains(ids, id) {
					t.Errorf("hits %v contain %s", ids, id)
				}
			}
			for i, h := range hits {
				if tt.sources != nil && !slices.Contains(tt.sources, h.Chunk.Source) {
					t.Errorf("hit %s has source %s, want one of %v", h.Chunk.ID, h.Chunk.Source, tt.sources)
				}
				if !strings.HasPrefix(h.Chunk.Path, tt.pathStart) {
					t.Errorf("hit %s outside %s", h.Chunk.ID, tt.pathStart)
				}
				if diff := cmp.Diff(chunks[h.Chunk.ID], h.Chunk); diff != "" {
					t.Errorf("hit %s chunk mismatch (-want +got):\n%s", h.Chunk.ID, diff)
				}
				if !strings.HasPrefix(h.Why, "BM25") {
					t.Errorf("hit %s Why = %q", h.Chunk.ID, h.Why)
				}
				if i > 0 {
					p := hits[i-1]
					if p.Score < h.Score || p.Score == h.Score && p.Chunk.ID > h.Chunk.ID {
						t.Errorf("hits %d and %d out of order: %v %s, %v %s", i-1, i, p.Score, p.Chunk.ID, h.Score, h.Chunk.ID)
					}
				}
			}
			again, err := ix.Search(t.Context(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(hits, again); diff != "" {
				t.Errorf("second search differs (-first +second):\n%s", diff)
			}
		})
	}
}

func indexHitIDs(hits []Hit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.Chunk.ID
	}
	return ids
}

func TestIndexSearchErrors(t *testing.T) {
	ix, _ := indexBuild(t, "c1")
	for _, q := range []Query{{Text: "  "}, {Text: "purge", TopK: -1}} {
		if _, err := ix.Search(t.Context(), q); err == nil {
			t.Errorf("Search(%+v) succeeded, want error", q)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ix.Search(ctx, Query{Text: "purge"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search with cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestIndexChunk(t *testing.T) {
	ix, _ := indexBuild(t, "c1")
	chunks := indexFixtureChunks(t, os.DirFS("testdata/index"))
	for id, want := range chunks {
		got, ok, err := ix.Chunk(t.Context(), id)
		if err != nil || !ok {
			t.Fatalf("Chunk(%s) = %v, %v", id, ok, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Chunk(%s) mismatch (-want +got):\n%s", id, diff)
		}
	}
	if _, ok, err := ix.Chunk(t.Context(), "cache/cache.go#9999"); ok || err != nil {
		t.Errorf("Chunk(missing) = %v, %v; want false, nil", ok, err)
	}
}

func TestBuildIndexReuseAndRebuild(t *testing.T) {
	var log indexTestLog
	dir := filepath.Join(t.TempDir(), "idx")
	opt := IndexOptions{Dir: dir, Commit: "c1", Logger: log.logger()}
	ix, err := BuildIndex(t.Context(), os.DirFS("testdata/index"), indexTestFiles, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	// Same commit: reused without reading any file (this file system has
	// none of them).
	ix, err = BuildIndex(t.Context(), fstest.MapFS{}, indexTestFiles, opt)
	if err != nil {
		t.Fatalf("BuildIndex same commit: %v", err)
	}
	if !strings.Contains(log.String(), `msg="index reused"`) {
		t.Errorf("log lacks reuse:\n%s", log.String())
	}
	hits, err := ix.Search(t.Context(), Query{Text: "PurgeAll"})
	if err != nil || len(hits) == 0 {
		t.Fatalf("search reused index: %v, %d hits", err, len(hits))
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	// Another commit: rebuilt from the new files.
	fsys := fstest.MapFS{"a.go": {Data: []byte("package a\n\n// Evict drops one entry.\nfunc Evict() {}\n")}}
	opt.Commit = "c2"
	ix, err = BuildIndex(t.Context(), fsys, []string{"a.go"}, opt)
	if err != nil {
		t.Fatalf("BuildIndex new commit: %v", err)
	}
	defer ix.Close()
	if !strings.Contains(log.String(), `reason="index is for commit \"c1\""`) {
		t.Errorf("log lacks rebuild reason:\n%s", log.String())
	}
	if ix.Commit() != "c2" {
		t.Errorf("Commit = %q, want c2", ix.Commit())
	}
	if n, _ := ix.DocCount(); n != 2 {
		t.Errorf("DocCount = %d, want 2", n)
	}
	for q, want := range map[string]int{"Evict": 1, "PurgeAll": 0} {
		hits, err := ix.Search(t.Context(), Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != want {
			t.Errorf("Search(%s) = %v, want %d hits", q, indexHitIDs(hits), want)
		}
	}
	indexNoTemp(t, dir)
}

// indexNoTemp fails if a temporary build directory is left beside dir.
func indexNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary directory %s left behind", e.Name())
		}
	}
}

func TestBuildIndexReplacesBadIndex(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, dir string)
		reason string // expected in the log
	}{
		{
			name: "garbage meta",
			setup: func(t *testing.T, dir string) {
				indexWriteFile(t, filepath.Join(dir, "index_meta.json"), "{not json")
				indexWriteFile(t, filepath.Join(dir, "store", "root.bolt"), "garbage")
			},
			reason: "open index",
		},
		{
			name: "garbage store",
			setup: func(t *testing.T, dir string) {
				indexWriteFile(t, filepath.Join(dir, "index_meta.json"), `{"storage":"scorch","index_type":"scorch"}`)
				indexWriteFile(t, filepath.Join(dir, "store", "root.bolt"), strings.Repeat("garbage!", 2048))
				indexWriteFile(t, filepath.Join(dir, "store", "00000001.zap"), "garbage")
			},
			reason: "open index",
		},
		{
			name: "store missing",
			setup: func(t *testing.T, dir string) {
				indexWriteFile(t, filepath.Join(dir, "index_meta.json"), `{"storage":"scorch","index_type":"scorch"}`)
			},
			reason: "open index",
		},
		{
			name: "index without docreview keys",
			setup: func(t *testing.T, dir string) {
				b, err := bleve.New(dir, bleve.NewIndexMapping())
				if err != nil {
					t.Fatal(err)
				}
				if err := b.Close(); err != nil {
					t.Fatal(err)
				}
			},
			reason: "format",
		},
		{
			name: "older format",
			setup: func(t *testing.T, dir string) {
				b, err := bleve.New(dir, bleve.NewIndexMapping())
				if err != nil {
					t.Fatal(err)
				}
				_ = b.SetInternal(indexKeyFormat, []byte("docreview-index-0"))
				_ = b.SetInternal(indexKeyCommit, []byte("c1"))
				if err := b.Close(); err != nil {
					t.Fatal(err)
				}
			},
			reason: "docreview-index-0",
		},
		{
			name:   "empty directory",
			setup:  func(t *testing.T, dir string) { indexMkdir(t, dir) },
			reason: "empty directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log indexTestLog
			dir := filepath.Join(t.TempDir(), "idx")
			tt.setup(t, dir)
			ix, err := BuildIndex(t.Context(), os.DirFS("testdata/index"), indexTestFiles,
				IndexOptions{Dir: dir, Commit: "c1", Logger: log.logger()})
			if err != nil {
				t.Fatalf("BuildIndex: %v", err)
			}
			defer ix.Close()
			if !strings.Contains(log.String(), `msg="index rebuild"`) || !strings.Contains(log.String(), tt.reason) {
				t.Errorf("log lacks rebuild with reason %q:\n%s", tt.reason, log.String())
			}
			hits, err := ix.Search(t.Context(), Query{Text: "Purge"})
			if err != nil || len(hits) == 0 {
				t.Errorf("search rebuilt index: %v, %d hits", err, len(hits))
			}
			indexNoTemp(t, dir)
		})
	}
}

func indexWriteFile(t *testing.T, path, data string) {
	t.Helper()
	indexMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func indexMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestBuildIndexErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"a.go":       {Data: []byte("package a\n")},
		"sub/b.go":   {Data: []byte("package b\n")},
		"big.txt":    {Data: bytes.Repeat([]byte("x"), indexDefaultMaxFileSize+1)},
		"binary.dat": {Data: []byte("\x00\x01")},
	}
	t.Run("missing dir option", func(t *testing.T) {
		if _, err := BuildIndex(t.Context(), fsys, nil, IndexOptions{}); err == nil {
			t.Error("BuildIndex without Dir succeeded")
		}
	})
	t.Run("missing file is skipped with a warning", func(t *testing.T) {
		var log indexTestLog
		dir := filepath.Join(t.TempDir(), "idx")
		ix, err := BuildIndex(t.Context(), fsys, []string{"a.go", "nope.go"}, IndexOptions{Dir: dir, Commit: "c", Logger: log.logger()})
		if err != nil {
			t.Fatalf("BuildIndex: %v", err)
		}
		defer ix.Close()
		if n, _ := ix.DocCount(); n != 1 {
			t.Errorf("DocCount = %d, want 1 (a.go)", n)
		}
		if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "nope.go") {
			t.Errorf("log lacks a warning naming nope.go:\n%s", log.String())
		}
		indexNoTemp(t, dir)
	})
	t.Run("invalid path", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "idx")
		if _, err := BuildIndex(t.Context(), fsys, []string{"../a.go"}, IndexOptions{Dir: dir, Commit: "c"}); err == nil {
			t.Error("BuildIndex with ../a.go succeeded")
		}
	})
	t.Run("skips directories, large and binary files", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "idx")
		ix, err := BuildIndex(t.Context(), fsys, []string{"a.go", "sub", "big.txt", "binary.dat", "a.go"}, IndexOptions{Dir: dir, Commit: "c"})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if n, _ := ix.DocCount(); n != 1 {
			t.Errorf("DocCount = %d, want 1 (a.go once)", n)
		}
	})
	t.Run("refuses a directory that is not an index", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "idx")
		keep := filepath.Join(dir, "notes.txt")
		indexWriteFile(t, keep, "keep me")
		if _, err := BuildIndex(t.Context(), fsys, []string{"a.go"}, IndexOptions{Dir: dir, Commit: "c"}); err == nil {
			t.Error("BuildIndex replaced a non-index directory")
		}
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("non-index file gone: %v", err)
		}
	})
	t.Run("dir is a file", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "idx")
		indexWriteFile(t, dir, "not a directory")
		if _, err := BuildIndex(t.Context(), fsys, []string{"a.go"}, IndexOptions{Dir: dir, Commit: "c"}); err == nil {
			t.Error("BuildIndex replaced a regular file")
		}
	})
	t.Run("index held by a reader is replaced, the reader keeps its view", func(t *testing.T) {
		ix, dir := indexBuild(t, "c1")
		nix, err := BuildIndex(t.Context(), fsys, []string{"a.go"}, IndexOptions{Dir: dir, Commit: "c2"})
		if err != nil {
			t.Fatalf("BuildIndex while held: %v", err)
		}
		defer nix.Close()
		if hits, err := ix.Search(t.Context(), Query{Text: "Purge"}); err != nil || len(hits) == 0 {
			t.Errorf("open index broken by a second build: %v, %d hits", err, len(hits))
		}
		if hits, err := nix.Search(t.Context(), Query{Text: "Purge"}); err != nil || len(hits) != 0 {
			t.Errorf("new index: %v, %v; want no hits", err, indexHitIDs(hits))
		}
		if nix.Commit() != "c2" {
			t.Errorf("Commit = %q, want c2", nix.Commit())
		}
	})
}

// indexCancelFS cancels a context when a given file is opened.
type indexCancelFS struct {
	fs.FS
	at     string
	cancel context.CancelFunc
}

func (f indexCancelFS) Open(name string) (fs.File, error) {
	if name == f.at {
		f.cancel()
	}
	return f.FS.Open(name)
}

func TestBuildIndexCancelled(t *testing.T) {
	fsys, files := indexGenerated(200, 20)
	t.Run("before start", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		dir := filepath.Join(t.TempDir(), "idx")
		if _, err := BuildIndex(ctx, fsys, files, IndexOptions{Dir: dir, Commit: "c"}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("index dir exists after cancelled build: %v", err)
		}
	})
	t.Run("during build", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		dir := filepath.Join(t.TempDir(), "idx")
		// Past the first batch of indexBatchDocs chunks (21 per file).
		cfs := indexCancelFS{FS: fsys, at: files[150], cancel: cancel}
		if _, err := BuildIndex(ctx, cfs, files, IndexOptions{Dir: dir, Commit: "c"}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("index dir exists after cancelled build: %v", err)
		}
		indexNoTemp(t, dir)
	})
}

func TestOpenIndex(t *testing.T) {
	ix, dir := indexBuild(t, "c1")
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err := OpenIndex(t.Context(), dir)
	if err != nil {
		t.Fatalf("OpenIndex: %v", err)
	}
	defer ix.Close()
	if ix.Commit() != "c1" {
		t.Errorf("Commit = %q, want c1", ix.Commit())
	}
	if hits, err := ix.Search(t.Context(), Query{Text: "Purge"}); err != nil || len(hits) == 0 {
		t.Errorf("search opened index: %v, %d hits", err, len(hits))
	}

	bad := t.TempDir()
	indexWriteFile(t, filepath.Join(bad, "index_meta.json"), "{")
	for _, d := range []string{filepath.Join(t.TempDir(), "missing"), bad} {
		if ix, err := OpenIndex(t.Context(), d); err == nil {
			_ = ix.Close()
			t.Errorf("OpenIndex(%s) succeeded", d)
		}
	}
}

// indexGenerated returns a repository of nfiles Go files with nfuncs
// documented functions each: nfiles*(nfuncs+1) chunks.
func indexGenerated(nfiles, nfuncs int) (fstest.MapFS, []string) {
	words := strings.Fields("cache entry purge sweeper expire lifetime shard lock retry evict " +
		"option config timeout buffer reader writer token parse render report claim evidence")
	fsys := fstest.MapFS{}
	var files []string
	for f := range nfiles {
		var b strings.Builder
		fmt.Fprintf(&b, "// Package p%d does things.\npackage p%d\n\nimport \"fmt\"\n", f, f)
		for i := range nfuncs {
			w1, w2, w3 := words[(f+i)%len(words)], words[(f*7+i*3)%len(words)], words[(i*5+1)%len(words)]
			fmt.Fprintf(&b, "\n// Do%s%d %ss the %s when the %s is stale.\n", strings.ToUpper(w1[:1])+w1[1:], i, w1, w2, w3)
			fmt.Fprintf(&b, "func Do%s%d(%s_count int) error {\n", strings.ToUpper(w1[:1])+w1[1:], i, w2)
			fmt.Fprintf(&b, "\tif %s_count > %d {\n\t\treturn fmt.Errorf(\"%s %s\")\n\t}\n\treturn nil\n}\n", w2, i, w3, w1)
		}
		p := fmt.Sprintf("p%d/p.go", f)
		fsys[p] = &fstest.MapFile{Data: []byte(b.String())}
		files = append(files, p)
	}
	return fsys, files
}

// BenchmarkBuildIndex builds an index of about 2000 chunks (100 files of
// 19 functions plus their package clauses).
func BenchmarkBuildIndex(b *testing.B) {
	fsys, files := indexGenerated(100, 19)
	base := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		ix, err := BuildIndex(b.Context(), fsys, files, IndexOptions{Dir: filepath.Join(base, fmt.Sprint(i)), Commit: "c"})
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2000*b.N)/b.Elapsed().Seconds(), "chunks/s")
}

// BenchmarkSearch runs identifier, prose and filtered queries against the
// 2000-chunk index.
func BenchmarkSearch(b *testing.B) {
	fsys, files := indexGenerated(100, 19)
	ix, err := BuildIndex(b.Context(), fsys, files, IndexOptions{Dir: filepath.Join(b.TempDir(), "idx"), Commit: "c"})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	queries := []struct {
		name string
		q    Query
	}{
		{"identifier", Query{Text: "DoPurge3"}},
		{"prose", Query{Text: "purge the stale entry"}},
		{"snake_case_sources", Query{Text: "retry_count", Sources: []Source{SourceCode}}},
		{"path_prefix", Query{Text: "evict shard lock timeout", PathPrefix: "p1"}},
	}
	for _, q := range queries {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ix.Search(b.Context(), q.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

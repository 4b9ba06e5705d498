package retrieval

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// denseTestFiles are the files of testdata/dense/repo, a small library
// with a cache, an HTTP client and a configuration loader.
var denseTestFiles = []string{"README.md", "cache.go", "client.go", "config.go"}

// denseTestChunks chunks the fixture repository.
func denseTestChunks(t *testing.T) []Chunk {
	t.Helper()
	var chunks []Chunk
	for _, name := range denseTestFiles {
		src, err := os.ReadFile(filepath.Join("testdata", "dense", "repo", name))
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, ChunkFile(name, src)...)
	}
	if len(chunks) < 10 {
		t.Fatalf("fixture gives %d chunks, want at least 10", len(chunks))
	}
	return chunks
}

// denseTestLog collects log output.
type denseTestLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *denseTestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *denseTestLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *denseTestLog) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// denseFakeEmbedder is an Embedder with function fields, counting calls.
type denseFakeEmbedder struct {
	model string
	dims  int // reported by Dimensions when positive
	embed func(ctx context.Context, texts []string) ([][]float32, error)
	calls atomic.Int32
	texts atomic.Int32
}

func (f *denseFakeEmbedder) Model() string { return f.model }

func (f *denseFakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.calls.Add(1)
	f.texts.Add(int32(len(texts)))
	if f.embed != nil {
		return f.embed(ctx, texts)
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = embedTestVector(t, embedTestDim)
	}
	return out, nil
}

// denseDimFake adds the optional Dimensions method.
type denseDimFake struct{ *denseFakeEmbedder }

func (f denseDimFake) Dimensions() int { return f.dims }

// denseFileHeader reads model, dim and count of a vector file.
func denseFileHeader(t *testing.T, path string) (model string, dim, count int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < denseHeaderFixed || string(b[:8]) != denseMagic {
		t.Fatalf("%s is not a vector file", path)
	}
	le := binary.LittleEndian
	n := int(le.Uint32(b[24:]))
	return string(b[denseHeaderFixed : denseHeaderFixed+n]), int(le.Uint32(b[12:])), int(le.Uint64(b[16:]))
}

// denseIDs returns the chunk IDs of hits.
func denseIDs(hits []DenseHit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.Chunk.ID
	}
	return ids
}

func TestOpenDenseReuse(t *testing.T) {
	t.Parallel()
	s := newEmbedServer(t)
	e := s.embedder(t, EmbedderOptions{BatchSize: 4})
	dir := t.TempDir()
	chunks := denseTestChunks(t)
	path := filepath.Join(dir, "vectors-fake-embed.bin")
	query := "retry after rate limit"

	// Cold: every chunk embedded, in batches of 4.
	d, err := OpenDense(t.Context(), dir, e, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	requests, texts := s.stats()
	if wantReq := (len(chunks) + 3) / 4; requests != wantReq || texts != len(chunks) {
		t.Errorf("cold: %d requests with %d texts, want %d with %d", requests, texts, wantReq, len(chunks))
	}
	if d.Len() != len(chunks) || d.Dim() != embedTestDim || d.Model() != "fake-embed" {
		t.Errorf("cold: Len %d Dim %d Model %q, want %d %d fake-embed", d.Len(), d.Dim(), d.Model(), len(chunks), embedTestDim)
	}
	if model, dim, count := denseFileHeader(t, path); model != "fake-embed" || dim != embedTestDim || count != len(chunks) {
		t.Errorf("cold file: model %q dim %d count %d", model, dim, count)
	}
	coldHits, err := d.Search(t.Context(), query, 5, nil)
	if err != nil {
		t.Fatal(err)
	}

	// Warm: nothing embedded, same answers, file untouched.
	s.reset()
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err = OpenDense(t.Context(), dir, e, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	if requests, _ := s.stats(); requests != 0 {
		t.Errorf("warm: %d requests, want 0", requests)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("warm open rewrote the unchanged file")
	}
	warmHits, err := d.Search(t.Context(), query, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(coldHits, warmHits); diff != "" {
		t.Errorf("warm hits differ from cold (-cold +warm):\n%s", diff)
	}

	// One chunk changed, one removed: one text embedded, one vector dropped.
	changed := slices.Clone(chunks)
	changed[1].Text += "\nA new sentence about eviction."
	changed = slices.Delete(changed, 2, 3)
	s.reset()
	d, err = OpenDense(t.Context(), dir, e, changed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if requests, texts := s.stats(); requests != 1 || texts != 1 {
		t.Errorf("changed: %d requests with %d texts, want 1 with 1", requests, texts)
	}
	if diff := cmp.Diff([][]string{{changed[1].Text}}, s.inputs); diff != "" {
		t.Errorf("changed: inputs (-want +got):\n%s", diff)
	}
	if _, _, count := denseFileHeader(t, path); count != len(changed) {
		t.Errorf("changed file holds %d vectors, want %d", count, len(changed))
	}
	if d.Len() != len(changed) {
		t.Errorf("changed: Len %d, want %d", d.Len(), len(changed))
	}

	// And reused again.
	s.reset()
	if _, err := OpenDense(t.Context(), dir, e, changed, nil); err != nil {
		t.Fatal(err)
	}
	if requests, _ := s.stats(); requests != 0 {
		t.Errorf("after change: %d requests, want 0", requests)
	}
}

func TestOpenDenseDuplicatesAndBlanks(t *testing.T) {
	t.Parallel()
	e := &denseFakeEmbedder{model: "fake"}
	chunks := []Chunk{
		{ID: "b.md#1", Text: "same words here"},
		{ID: "a.md#1", Text: "same words here"},
		{ID: "c.md#1", Text: "   \n"},
		{ID: "a.md#1", Text: "a later chunk with a repeated ID"},
		{ID: "d.md#1", Text: "other text entirely"},
	}
	dir := t.TempDir()
	d, err := OpenDense(t.Context(), dir, e, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.texts.Load(); got != 2 {
		t.Errorf("embedded %d texts, want 2 (duplicates once, blanks never)", got)
	}
	if d.Len() != 3 {
		t.Errorf("Len %d, want 3", d.Len())
	}
	if _, _, count := denseFileHeader(t, filepath.Join(dir, DenseFileName("fake"))); count != 2 {
		t.Errorf("file holds %d vectors, want 2", count)
	}
	hits, err := d.Search(t.Context(), "same words here", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Equal vectors, equal scores: ties go by chunk ID.
	if diff := cmp.Diff([]string{"a.md#1", "b.md#1", "d.md#1"}, denseIDs(hits)); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if hits[0].Score != hits[1].Score || math.Abs(hits[0].Score-1) > 1e-6 {
		t.Errorf("scores %v, want two equal scores of 1", hits)
	}
}

func TestOpenDenseCorruptFile(t *testing.T) {
	t.Parallel()
	chunks := denseTestChunks(t)
	// Each case damages a valid file; OpenDense must log, re-embed
	// everything and write a valid file again.
	tests := []struct {
		name       string
		damage     func(b []byte) []byte
		dims       int // the embedder reports this dimension when positive
		wantReason string
	}{
		{name: "flipped bit in a vector", damage: func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b }, wantReason: "checksum mismatch"},
		{name: "flipped bit in a hash", damage: func(b []byte) []byte { b[denseHeaderFixed+len("fake")+3] ^= 1; return b }, wantReason: "checksum mismatch"},
		{name: "truncated", damage: func(b []byte) []byte { return b[:len(b)-100] }, wantReason: "does not match"},
		{name: "trailing bytes", damage: func(b []byte) []byte { return append(b, 0, 0, 0, 0) }, wantReason: "does not match"},
		{name: "empty", damage: func([]byte) []byte { return nil }, wantReason: "truncated header"},
		{name: "bad magic", damage: func(b []byte) []byte { copy(b, "NOTMAGIC"); return b }, wantReason: "bad magic"},
		{name: "future version", damage: func(b []byte) []byte { b[8] = 2; return b }, wantReason: "format version 2, want 1"},
		{name: "zero dimension", damage: func(b []byte) []byte { clear(b[12:16]); return b }, wantReason: "invalid dimension 0"},
		{name: "huge count", damage: func(b []byte) []byte { b[23] = 0x7f; return b }, wantReason: "does not match"},
		{name: "other model", damage: func(b []byte) []byte { copy(b[denseHeaderFixed:], "fakf"); return b }, wantReason: "vectors of model"},
		{name: "other dimension asked", damage: func(b []byte) []byte { return b }, dims: 32, wantReason: fmt.Sprintf("vectors of dimension %d, want 32", embedTestDim)},
		{name: "text file", damage: func([]byte) []byte { return []byte("hello, world\n") }, wantReason: "truncated header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, DenseFileName("fake"))
			if _, err := OpenDense(t.Context(), dir, &denseFakeEmbedder{model: "fake"}, chunks, nil); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tt.damage(b), 0o600); err != nil {
				t.Fatal(err)
			}

			fake := &denseFakeEmbedder{model: "fake", dims: tt.dims}
			var e Embedder = fake
			if tt.dims > 0 {
				fake.embed = func(_ context.Context, texts []string) ([][]float32, error) {
					out := make([][]float32, len(texts))
					for i, t := range texts {
						out[i] = embedTestVector(t, tt.dims)
					}
					return out, nil
				}
				e = denseDimFake{fake}
			}
			var log denseTestLog
			d, err := OpenDense(t.Context(), dir, e, chunks, log.logger())
			if err != nil {
				t.Fatal(err)
			}
			if got := int(fake.texts.Load()); got != len(chunks) {
				t.Errorf("re-embedded %d texts, want %d", got, len(chunks))
			}
			if !strings.Contains(log.String(), "dense vectors rebuilt") || !strings.Contains(log.String(), tt.wantReason) {
				t.Errorf("log does not report the rebuild with reason %q:\n%s", tt.wantReason, log.String())
			}
			if _, err := d.Search(t.Context(), "cache", 3, nil); err != nil {
				t.Errorf("search after rebuild: %v", err)
			}

			// The rewritten file is valid.
			again := &denseFakeEmbedder{model: "fake", dims: tt.dims, embed: fake.embed}
			e = again
			if tt.dims > 0 {
				e = denseDimFake{again}
			}
			if _, err := OpenDense(t.Context(), dir, e, chunks, nil); err != nil {
				t.Fatal(err)
			}
			if n := again.calls.Load(); n != 0 {
				t.Errorf("after rebuild: %d embed calls, want 0", n)
			}
		})
	}
}

func TestOpenDenseErrors(t *testing.T) {
	t.Parallel()
	chunks := denseTestChunks(t)

	t.Run("endpoint down", func(t *testing.T) {
		t.Parallel()
		s := newEmbedServer(t)
		s.respond = func(w http.ResponseWriter, _ *http.Request, _ int, _ embedRequest) bool {
			embedWriteError(w, http.StatusInternalServerError, "server_error", "down")
			return true
		}
		dir := t.TempDir()
		_, err := OpenDense(t.Context(), dir, s.embedder(t, EmbedderOptions{MaxRetries: -1}), chunks, nil)
		if err == nil {
			t.Fatal("OpenDense succeeded, want an error")
		}
		for _, want := range []string{filepath.Join(dir, "vectors-fake-embed.bin"), "fake-embed", s.url(), "500"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "vectors-fake-embed.bin")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a failed cold build left a vector file (stat: %v)", err)
		}
	})

	t.Run("dimension other than stored", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		if _, err := OpenDense(t.Context(), dir, &denseFakeEmbedder{model: "fake"}, chunks[1:], nil); err != nil {
			t.Fatal(err)
		}
		e := &denseFakeEmbedder{model: "fake", embed: func(_ context.Context, texts []string) ([][]float32, error) {
			out := make([][]float32, len(texts))
			for i := range out {
				out[i] = []float32{1, 2, 3}
			}
			return out, nil
		}}
		_, err := OpenDense(t.Context(), dir, e, chunks, nil)
		want := fmt.Sprintf("embeddings endpoint returned vectors of dimension 3 for model fake, want %d", embedTestDim)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one containing %q", err, want)
		}
	})

	t.Run("dimension changes between calls", func(t *testing.T) {
		t.Parallel()
		many := make([]Chunk, denseEmbedGroup+3)
		for i := range many {
			many[i] = Chunk{ID: fmt.Sprintf("f.txt#%d", i+1), Text: fmt.Sprintf("text number %d", i)}
		}
		var n atomic.Int32
		e := &denseFakeEmbedder{model: "fake", embed: func(_ context.Context, texts []string) ([][]float32, error) {
			dim := 8
			if n.Add(1) > 1 {
				dim = 4
			}
			out := make([][]float32, len(texts))
			for i, t := range texts {
				out[i] = embedTestVector(t, dim)
			}
			return out, nil
		}}
		_, err := OpenDense(t.Context(), "", e, many, nil)
		want := "embeddings endpoint returned vectors of dimension 4 for model fake, want 8"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one containing %q", err, want)
		}
	})

	t.Run("wrong number of vectors", func(t *testing.T) {
		t.Parallel()
		e := &denseFakeEmbedder{model: "fake", embed: func(context.Context, []string) ([][]float32, error) {
			return [][]float32{{1}}, nil
		}}
		_, err := OpenDense(t.Context(), "", e, chunks, nil)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("1 vectors for %d texts", len(chunks))) {
			t.Errorf("error %v, want a count mismatch", err)
		}
	})

	t.Run("nil embedder", func(t *testing.T) {
		t.Parallel()
		if _, err := OpenDense(t.Context(), t.TempDir(), nil, chunks, nil); err == nil {
			t.Error("OpenDense(nil embedder) succeeded")
		}
	})

	t.Run("no model name", func(t *testing.T) {
		t.Parallel()
		if _, err := OpenDense(t.Context(), t.TempDir(), &denseFakeEmbedder{}, chunks, nil); err == nil {
			t.Error("OpenDense(embedder without model) succeeded")
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := OpenDense(ctx, t.TempDir(), &denseFakeEmbedder{model: "fake"}, chunks, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
}

func TestOpenDenseResumesAfterFailure(t *testing.T) {
	t.Parallel()
	many := make([]Chunk, denseEmbedGroup*2+10)
	for i := range many {
		many[i] = Chunk{ID: fmt.Sprintf("notes.txt#%d", i+1), Text: fmt.Sprintf("note %d about topic %d", i, i%7)}
	}
	dir := t.TempDir()
	var calls atomic.Int32
	failing := &denseFakeEmbedder{model: "fake"}
	failing.embed = func(_ context.Context, texts []string) ([][]float32, error) {
		if calls.Add(1) == 2 {
			return nil, errors.New("rate limited")
		}
		out := make([][]float32, len(texts))
		for i, t := range texts {
			out[i] = embedTestVector(t, embedTestDim)
		}
		return out, nil
	}
	if _, err := OpenDense(t.Context(), dir, failing, many, nil); err == nil || !strings.Contains(err.Error(), "rate limited") {
		t.Fatalf("error %v, want the embedder's", err)
	}
	if _, _, count := denseFileHeader(t, filepath.Join(dir, DenseFileName("fake"))); count != denseEmbedGroup {
		t.Errorf("file after the failure holds %d vectors, want the first group's %d", count, denseEmbedGroup)
	}
	ok := &denseFakeEmbedder{model: "fake"}
	if _, err := OpenDense(t.Context(), dir, ok, many, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := int(ok.texts.Load()), len(many)-denseEmbedGroup; got != want {
		t.Errorf("resumed run embedded %d texts, want %d", got, want)
	}
}

func TestOpenDenseUnwritableDir(t *testing.T) {
	t.Parallel()
	// A file where the directory should be: the vectors cannot be saved,
	// which is logged, and the channel still works.
	parent := t.TempDir()
	dir := filepath.Join(parent, "cache")
	if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	var log denseTestLog
	d, err := OpenDense(t.Context(), dir, &denseFakeEmbedder{model: "fake"}, denseTestChunks(t), log.logger())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "dense vectors not saved") {
		t.Errorf("log does not report the failed save:\n%s", log.String())
	}
	if hits, err := d.Search(t.Context(), "cache purge", 1, nil); err != nil || len(hits) != 1 {
		t.Errorf("Search = %v, %v; want one hit", hits, err)
	}
}

func TestDenseSearch(t *testing.T) {
	t.Parallel()
	chunks := denseTestChunks(t)
	s := newEmbedServer(t)
	d, err := OpenDense(t.Context(), t.TempDir(), s.embedder(t, EmbedderOptions{}), chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	bySource := func(src Source) func(Chunk) bool { return func(c Chunk) bool { return c.Source == src } }
	tests := []struct {
		name   string
		query  string
		k      int
		filter func(Chunk) bool
		// want names the best hit: "path symbol-or-heading".
		want  string
		wantN int
	}{
		{name: "purge, code", query: "Purge marks every entry as expired", k: 3, filter: bySource(SourceCode), want: "cache.go Cache.Purge", wantN: 3},
		{name: "purge, docs", query: "purge expired entries", k: 3, filter: bySource(SourceDoc), want: "README.md Purging", wantN: 3},
		{name: "sweeper deletes", query: "sweep deletes expired entries and releases memory", k: 1, filter: bySource(SourceCode), want: "cache.go Cache.sweep", wantN: 1},
		{name: "retries, code", query: "retry on 429 Too Many Requests with Retry-After", k: 2, filter: bySource(SourceCode), want: "client.go Client.Do", wantN: 2},
		{name: "retries, docs", query: "backs off exponentially on 429", k: 2, filter: bySource(SourceDoc), want: "README.md Retries", wantN: 2},
		{name: "configuration", query: "load and unmarshal the configuration from a path", k: 2, filter: bySource(SourceCode), want: "config.go Load", wantN: 2},
		{name: "default k", query: "cache", k: 0, wantN: 10},
		{name: "k above size", query: "cache", k: 1000, wantN: len(chunks)},
		{name: "filter keeps none", query: "cache", k: 5, filter: func(Chunk) bool { return false }, wantN: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			hits, err := d.Search(t.Context(), tt.query, tt.k, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != tt.wantN {
				t.Fatalf("%d hits, want %d: %v", len(hits), tt.wantN, denseIDs(hits))
			}
			if tt.want != "" {
				c := hits[0].Chunk
				name := c.Symbol
				if name == "" {
					name = c.Heading
				}
				if got := c.Path + " " + name; got != tt.want {
					t.Errorf("best hit %q (%s), want %q; all: %v", got, c.ID, tt.want, denseIDs(hits))
				}
			}
			for i, h := range hits {
				if tt.filter != nil && !tt.filter(h.Chunk) {
					t.Errorf("hit %s is not allowed by the filter", h.Chunk.ID)
				}
				if h.Score < -1-1e-6 || h.Score > 1+1e-6 {
					t.Errorf("hit %s score %v outside [-1, 1]", h.Chunk.ID, h.Score)
				}
				if i > 0 && (h.Score > hits[i-1].Score || h.Score == hits[i-1].Score && h.Chunk.ID < hits[i-1].Chunk.ID) {
					t.Errorf("hits %d and %d out of order: %v", i-1, i, hits)
				}
			}
		})
	}
}

func TestDenseSearchErrors(t *testing.T) {
	t.Parallel()
	chunks := []Chunk{{ID: "a.md#1", Text: "alpha beta"}, {ID: "b.md#1", Text: "gamma delta"}}
	wrongDim := &denseFakeEmbedder{model: "fake"}
	d, err := OpenDense(t.Context(), "", wrongDim, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	wrongDim.embed = func(context.Context, []string) ([][]float32, error) { return [][]float32{{1, 2, 3}}, nil }
	failing := &denseFakeEmbedder{model: "fake"}
	dFail, err := OpenDense(t.Context(), "", failing, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	failing.embed = func(context.Context, []string) ([][]float32, error) { return nil, errors.New("endpoint down") }
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	ok := &denseFakeEmbedder{model: "fake"}
	dOK, err := OpenDense(t.Context(), "", ok, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		d     *Dense
		ctx   context.Context
		query string
		want  string
	}{
		{name: "blank query", d: dOK, ctx: t.Context(), query: " \n", want: "query text is blank"},
		{name: "query of another dimension", d: d, ctx: t.Context(), query: "alpha",
			want: fmt.Sprintf("embeddings endpoint returned vectors of dimension 3 for model fake, want %d", embedTestDim)},
		{name: "embedder fails", d: dFail, ctx: t.Context(), query: "alpha", want: "endpoint down"},
		{name: "cancelled", d: dOK, ctx: cancelled, query: "alpha", want: context.Canceled.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := tt.d.Search(tt.ctx, tt.query, 5, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Search = %v, %v; want an error containing %q", hits, err, tt.want)
			}
		})
	}

	t.Run("empty dense sends no request", func(t *testing.T) {
		e := &denseFakeEmbedder{model: "fake"}
		empty, err := OpenDense(t.Context(), t.TempDir(), e, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := empty.Search(t.Context(), "alpha", 5, nil)
		if err != nil || len(hits) != 0 || e.calls.Load() != 0 {
			t.Errorf("Search = %v, %v after %d calls; want no hits, no error, no call", hits, err, e.calls.Load())
		}
	})
}

func TestDenseScanMatchesSort(t *testing.T) {
	t.Parallel()
	// Enough rows for the parallel path, with duplicate vectors to force
	// ties; the heap must agree with a full sort.
	const n, dim = 3 * denseWorkerRows, 12
	r := rand.New(rand.NewPCG(1, 2))
	d := &Dense{model: "fake", dim: dim, chunks: make([]Chunk, n), vecs: make([]float32, n*dim)}
	for i := range n {
		d.chunks[i] = Chunk{ID: fmt.Sprintf("f%05d.go#1", r.IntN(n*10))}
		v := d.vecs[i*dim : (i+1)*dim]
		if i%5 == 4 { // a copy of an earlier row: equal scores
			copy(v, d.vecs[(i-4)*dim:(i-3)*dim])
			continue
		}
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		denseNormalize(v)
	}
	q := make([]float32, dim)
	for j := range q {
		q[j] = float32(r.NormFloat64())
	}
	denseNormalize(q)

	var allowed []int32
	for i := range n {
		if i%3 != 0 {
			allowed = append(allowed, int32(i))
		}
	}
	for _, tc := range []struct {
		name    string
		allowed []int32
		k       int
	}{{"all, k=10", nil, 10}, {"all, k=1", nil, 1}, {"filtered, k=50", allowed, 50}, {"all, k=n+1", nil, n + 1}} {
		t.Run(tc.name, func(t *testing.T) {
			rows := tc.allowed
			if rows == nil {
				for i := range n {
					rows = append(rows, int32(i))
				}
			}
			want := make([]denseCand, len(rows))
			for i, row := range rows {
				want[i] = denseCand{score: denseDot(q, d.vecs[int(row)*dim:(int(row)+1)*dim]), row: row}
			}
			slices.SortStableFunc(want, func(a, b denseCand) int {
				if a.score != b.score {
					if a.score > b.score {
						return -1
					}
					return 1
				}
				return strings.Compare(d.chunks[a.row].ID, d.chunks[b.row].ID)
			})
			want = want[:min(tc.k, len(want))]
			got, err := d.scan(t.Context(), q, tc.k, tc.allowed)
			if err != nil {
				t.Fatal(err)
			}
			score := func(c denseCand) string { return fmt.Sprintf("%.6f %s", c.score, d.chunks[c.row].ID) }
			if diff := cmp.Diff(denseMap(want, score), denseMap(got, score)); diff != "" {
				t.Errorf("scan (-sort +scan):\n%s", diff)
			}
		})
	}
}

// denseMap applies f to each element of s.
func denseMap[T, U any](s []T, f func(T) U) []U {
	out := make([]U, len(s))
	for i, x := range s {
		out[i] = f(x)
	}
	return out
}

func TestDenseDot(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 40 {
		a, b := make([]float32, n), make([]float32, n+3) // b may be longer
		var want float64
		for i := range a {
			a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
			want += float64(a[i]) * float64(b[i])
		}
		if got := denseDot(a, b); math.Abs(float64(got)-want) > 1e-4 {
			t.Errorf("n=%d: denseDot = %v, want %v", n, got, want)
		}
	}
}

func TestDenseNormalize(t *testing.T) {
	t.Parallel()
	v := []float32{3, 4}
	denseNormalize(v)
	if diff := cmp.Diff([]float32{0.6, 0.8}, v); diff != "" {
		t.Errorf("normalised (-want +got):\n%s", diff)
	}
	zero := []float32{0, 0}
	denseNormalize(zero)
	if diff := cmp.Diff([]float32{0, 0}, zero); diff != "" {
		t.Errorf("zero vector changed (-want +got):\n%s", diff)
	}
}

func TestDenseFileName(t *testing.T) {
	t.Parallel()
	tests := []struct{ model, want string }{
		{"text-embedding-3-small", "vectors-text-embedding-3-small.bin"},
		{"nomic-embed-text_v1.5", "vectors-nomic-embed-text_v1.5.bin"},
		{"org/model:latest", "vectors-org_model_latest-"},
		{"../../etc/passwd", "vectors-.._.._etc_passwd-"},
		{strings.Repeat("x", 80), "vectors-" + strings.Repeat("x", 64) + "-"},
	}
	names := map[string]string{}
	for _, tt := range tests {
		got := DenseFileName(tt.model)
		if strings.HasSuffix(tt.want, "-") {
			if !strings.HasPrefix(got, tt.want) || len(got) != len(tt.want)+8+len(".bin") {
				t.Errorf("DenseFileName(%q) = %q, want %q + 8 hex digits + .bin", tt.model, got, tt.want)
			}
		} else if got != tt.want {
			t.Errorf("DenseFileName(%q) = %q, want %q", tt.model, got, tt.want)
		}
		if strings.ContainsAny(got, `/\:`) {
			t.Errorf("DenseFileName(%q) = %q has a path separator", tt.model, got)
		}
		names[got] = tt.model
	}
	if a, b := DenseFileName("org/model"), DenseFileName("org_model"); a == b {
		t.Errorf("models org/model and org_model share the file %s", a)
	}
}

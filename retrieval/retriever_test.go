package retrieval

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// retrieverFixtureDir is a small module: a Cache whose Purge hands keys to
// a sweeper in another file, a test and an Example calling Purge, and a
// README section on purging.
const retrieverFixtureDir = "testdata/retriever"

// newTestRetriever builds a real index (in a temporary directory) and
// symbol table over the fixture module.
func newTestRetriever(tb testing.TB) *Retriever {
	tb.Helper()
	fsys := os.DirFS(retrieverFixtureDir)
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	ix, err := BuildIndex(tb.Context(), fsys, files, IndexOptions{Dir: filepath.Join(tb.TempDir(), "index"), Commit: "fixture"})
	if err != nil {
		tb.Fatalf("BuildIndex: %v", err)
	}
	tb.Cleanup(func() { _ = ix.Close() })
	syms, err := LoadSymbols(tb.Context(), fsys, files, nil)
	if err != nil {
		tb.Fatalf("LoadSymbols: %v", err)
	}
	return &Retriever{Index: ix, Symbols: syms, FS: fsys}
}

// chunkKey names a chunk for the tests without line numbers:
// "path:Symbol" for Go, "path:Heading" for Markdown.
func chunkKey(c Chunk) string {
	return c.Path + ":" + c.Symbol + c.Heading
}

func resultKeys(rs []Result) []string {
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = chunkKey(r.Chunk)
	}
	return keys
}

// TestRetriever builds the fixture once and checks the retriever through
// subtests.
func TestRetriever(t *testing.T) {
	r := newTestRetriever(t)
	t.Run("fused beats each channel", func(t *testing.T) { testRetrieverFusedBeatsChannels(t, r) })
	t.Run("structural finds the cross-file callee", func(t *testing.T) { testRetrieverCrossFileCallee(t, r) })
	t.Run("result fields", func(t *testing.T) { testRetrieverResultFields(t, r) })
	t.Run("filters", func(t *testing.T) { testRetrieverFilters(t, r) })
	t.Run("channel failure", func(t *testing.T) { testRetrieverChannelFailure(t, r) })
	t.Run("request errors", func(t *testing.T) { testRetrieverRequestErrors(t, r) })
	t.Run("deterministic", func(t *testing.T) { testRetrieverDeterministic(t, r) })
	t.Run("chunk at", func(t *testing.T) { testRetrieverChunkAt(t, r) })
	t.Run("read", func(t *testing.T) { testRetrieverRead(t, r) })
	t.Run("structural order", func(t *testing.T) { testRetrieverStructuralOrder(t, r) })
	t.Run("symbol info", func(t *testing.T) { testRetrieverSymbolInfo(t, r) })
	t.Run("dense", func(t *testing.T) { testRetrieverDense(t, r) })
}

// retrieverLabelled is the labelled query set: for each request, the
// chunks a reader needs to check a claim about the subject.
var retrieverLabelled = []struct {
	q        Request
	relevant []string
}{
	{Request{Text: "Cache.Purge", Symbol: "Cache.Purge"}, []string{
		"cache.go:Cache.Purge", "sweeper.go:sweeper.mark", "cache_test.go:TestPurge",
		"example_test.go:ExampleCache_Purge", "README.md:kv > Purging",
	}},
	{Request{Text: "when does purge actually delete the entries", Symbol: "Cache.Purge"}, []string{
		"cache.go:Cache.Purge", "sweeper.go:sweeper.mark", "sweeper.go:sweeper.run", "README.md:kv > Purging",
	}},
	{Request{Text: "empty the store immediately", Symbol: "Cache.Reset"}, []string{
		"cache.go:Cache.Reset", "cache.go:Cache.Purge", "sweeper.go:sweeper.run", "README.md:kv > Purging",
	}},
	{Request{Text: "store a value under a key", Symbol: "Cache.Set"}, []string{
		"cache.go:Cache.Set", "cache_test.go:TestSet", "README.md:kv > Usage",
	}},
	{Request{Text: "batched deletion off the hot path", Symbol: "sweeper.run"}, []string{
		"sweeper.go:sweeper.run", "sweeper.go:sweeper", "docs/design.md:Design notes", "README.md:kv > Concurrency",
	}},
	{Request{Text: "lookup counter statistics", Symbol: "Cache.Get"}, []string{
		"cache.go:Cache.Get", "cache.go:Cache.Reset", "README.md:kv > Statistics",
	}},
}

// ndcg is the normalised discounted cumulative gain of keys (binary
// relevance) at len(keys)-or-k.
func ndcg(keys, relevant []string, k int) float64 {
	var dcg, ideal float64
	for i, key := range keys[:min(k, len(keys))] {
		if slices.Contains(relevant, key) {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range min(k, len(relevant)) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	return dcg / ideal
}

func testRetrieverFusedBeatsChannels(t *testing.T, r *Retriever) {
	const k = 5
	modes := []struct {
		name     string
		channels []Channel
	}{
		{"lexical", []Channel{ChannelLexical}},
		{"structural", []Channel{ChannelStructural}},
		{"fused", nil},
	}
	score := map[string]float64{}
	for _, m := range modes {
		for _, l := range retrieverLabelled {
			q := l.q
			q.TopK, q.Channels = k, m.channels
			res, err := r.Search(t.Context(), q)
			if err != nil {
				t.Fatalf("%s %q: %v", m.name, q.Text, err)
			}
			score[m.name] += ndcg(resultKeys(res), l.relevant, k) / float64(len(retrieverLabelled))
		}
	}
	t.Logf("mean nDCG@%d: %v", k, score)
	for _, m := range modes[:2] {
		if score["fused"] <= score[m.name] {
			t.Errorf("fused nDCG@%d %.3f does not beat %s %.3f", k, score["fused"], m.name, score[m.name])
		}
	}
}

func testRetrieverCrossFileCallee(t *testing.T, r *Retriever) {
	const callee = "sweeper.go:sweeper.mark"
	tests := []struct {
		name     string
		channels []Channel
		want     bool
	}{
		{"lexical misses it", []Channel{ChannelLexical}, false},
		{"structural finds it", []Channel{ChannelStructural}, true},
		{"fused keeps it", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// TopK 30 is deeper than the lexical channel's list here: a
			// miss is a miss, not a cut.
			res, err := r.Search(t.Context(), Request{Text: "Cache.Purge", Symbol: "Cache.Purge", TopK: 30, Channels: tt.channels})
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(resultKeys(res), callee); got != tt.want {
				t.Errorf("%s in results = %v, want %v; results: %v", callee, got, tt.want, resultKeys(res))
			}
		})
	}
}

func testRetrieverResultFields(t *testing.T, r *Retriever) {
	res, err := r.Search(t.Context(), Request{Text: "Cache.Purge", Symbol: "Cache.Purge", TopK: 30})
	if err != nil {
		t.Fatal(err)
	}
	lexical, err := r.Search(t.Context(), Request{Text: "Cache.Purge", TopK: 30, Channels: []Channel{ChannelLexical}})
	if err != nil {
		t.Fatal(err)
	}
	structural, err := r.Search(t.Context(), Request{Symbol: "Cache.Purge", TopK: 30, Channels: []Channel{ChannelStructural}})
	if err != nil {
		t.Fatal(err)
	}
	// The fused ranks are the single-channel positions.
	pos := func(rs []Result, key string) int {
		if i := slices.Index(resultKeys(rs), key); i >= 0 {
			return i + 1
		}
		return 0
	}
	type view struct {
		Ranks map[Channel]int
		Why   string
		Hops  []string
	}
	tests := []struct {
		key  string
		want view
	}{
		{"cache.go:Cache.Purge", view{
			map[Channel]int{ChannelLexical: pos(lexical, "cache.go:Cache.Purge"), ChannelStructural: 1},
			"defines Cache.Purge", []string{"Cache.Purge"},
		}},
		{"sweeper.go:sweeper.mark", view{
			map[Channel]int{ChannelStructural: pos(structural, "sweeper.go:sweeper.mark")},
			"callee of Cache.Purge", []string{"Cache.Purge", "sweeper.mark"},
		}},
		{"sweeper.go:sweeper.schedule", view{
			map[Channel]int{ChannelStructural: pos(structural, "sweeper.go:sweeper.schedule")},
			"callee of sweeper.mark", []string{"Cache.Purge", "sweeper.mark", "sweeper.schedule"},
		}},
		{"README.md:kv > Purging", view{
			// Lexical ranks the section first, above structural's docs.
			map[Channel]int{ChannelLexical: 1, ChannelStructural: pos(structural, "README.md:kv > Purging")},
			lexical[0].Why, nil,
		}},
		{"cache.go:Cache", view{
			map[Channel]int{ChannelLexical: pos(lexical, "cache.go:Cache")},
			lexical[max(pos(lexical, "cache.go:Cache")-1, 0)].Why, nil,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			i := pos(res, tt.key) - 1
			if i < 0 {
				t.Fatalf("%s not found in %v", tt.key, resultKeys(res))
			}
			got := res[i]
			if d := cmp.Diff(tt.want, view{got.Ranks, got.Why, got.Hops}); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			var want float64
			for _, rank := range got.Ranks {
				want += 1 / float64(60+rank)
			}
			if math.Abs(got.Score-want) > 1e-12 {
				t.Errorf("Score = %v, want %v", got.Score, want)
			}
			for c, reason := range got.Reasons {
				if _, ok := got.Ranks[c]; !ok || reason.Why == "" {
					t.Errorf("reason %s %+v without rank or why", c, reason)
				}
			}
		})
	}
	for i := 1; i < len(res); i++ {
		a, b := res[i-1], res[i]
		if a.Score < b.Score || a.Score == b.Score && a.Chunk.ID >= b.Chunk.ID {
			t.Errorf("results %d and %d out of order: %s %v, %s %v", i-1, i, a.Chunk.ID, a.Score, b.Chunk.ID, b.Score)
		}
	}
}

func testRetrieverFilters(t *testing.T, r *Retriever) {
	tests := []struct {
		name       string
		sources    []Source
		pathPrefix string
		keep       func(Chunk) bool
		wantAny    string
	}{
		{"tests and examples", []Source{SourceTest, SourceExample}, "",
			func(c Chunk) bool { return c.Source == SourceTest || c.Source == SourceExample },
			"cache_test.go:TestPurge"},
		{"docs", []Source{SourceDoc}, "",
			func(c Chunk) bool { return c.Source == SourceDoc }, "README.md:kv > Purging"},
		{"path prefix", nil, "sweeper",
			func(c Chunk) bool { return strings.HasPrefix(c.Path, "sweeper") }, "sweeper.go:sweeper.mark"},
		{"both", []Source{SourceCode}, "cache.go",
			func(c Chunk) bool { return c.Source == SourceCode && c.Path == "cache.go" }, "cache.go:Cache.Purge"},
	}
	for _, tt := range tests {
		for _, ch := range []Channel{ChannelLexical, ChannelStructural, ""} {
			name := string(ch)
			var chans []Channel
			if ch == "" {
				name = "fused"
			} else {
				chans = []Channel{ch}
			}
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				res, err := r.Search(t.Context(), Request{
					Text: "purge entries sweeper", Symbol: "Cache.Purge", TopK: 30,
					Sources: tt.sources, PathPrefix: tt.pathPrefix, Channels: chans,
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(res) == 0 {
					t.Fatal("no results")
				}
				for _, x := range res {
					if !tt.keep(x.Chunk) {
						t.Errorf("%s (%s) passed the filter", x.Chunk.ID, x.Chunk.Source)
					}
				}
				if ch != ChannelLexical && !slices.Contains(resultKeys(res), tt.wantAny) {
					t.Errorf("%s missing from %v", tt.wantAny, resultKeys(res))
				}
			})
		}
	}
}

func testRetrieverChannelFailure(t *testing.T, r *Retriever) {
	down := errors.New("embeddings endpoint down")
	failing := func(name Channel) channel {
		return channel{name, func(context.Context, Request, int) ([]channelHit, error) { return nil, down }}
	}
	q := Request{Text: "Cache.Purge", Symbol: "Cache.Purge"}
	both, err := r.Search(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("one fails: the others are fused", func(t *testing.T) {
		got, err := r.search(t.Context(), q, []channel{
			{ChannelLexical, r.lexical}, {ChannelStructural, r.structural}, failing(ChannelDense),
		})
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		if d := cmp.Diff(both, got); d != "" {
			t.Errorf("results differ from lexical+structural (-want +got):\n%s", d)
		}
	})
	t.Run("all fail: a ChannelError naming each", func(t *testing.T) {
		_, err := r.search(t.Context(), q, []channel{failing(ChannelDense), failing(ChannelLexical)})
		var ce *ChannelError
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is not a *ChannelError", err)
		}
		want := "every retrieval channel failed: dense: embeddings endpoint down; lexical: embeddings endpoint down"
		if err.Error() != want {
			t.Errorf("error = %q, want %q", err, want)
		}
		if !errors.Is(err, down) {
			t.Error("errors.Is(err, cause) = false")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		// A cancelled context fails every channel, but Search reports the
		// context, not the channels.
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := r.Search(ctx, q)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want context.Canceled", err)
		}
	})
}

func testRetrieverRequestErrors(t *testing.T, r *Retriever) {
	tests := []struct {
		name string
		r    *Retriever
		q    Request
		want string
	}{
		{"no text nor symbol", r, Request{Text: "  "}, "request has neither text nor symbol"},
		{"negative TopK", r, Request{Text: "x", TopK: -1}, "negative TopK -1"},
		{"unknown channel", r, Request{Text: "x", Channels: []Channel{"vector"}}, `unknown channel "vector"`},
		{"dense not configured", r, Request{Text: "x", Channels: []Channel{ChannelDense}}, "dense channel requested but not configured"},
		{"structural without symbol", r, Request{Text: "x", Channels: []Channel{ChannelStructural}}, "structural channel requested without a symbol"},
		{"structural without symbols", &Retriever{Index: r.Index}, Request{Symbol: "New", Channels: []Channel{ChannelStructural}}, "has no symbol table"},
		{"no index", &Retriever{}, Request{Text: "x"}, "retriever has no index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.r.Search(t.Context(), tt.q)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}

	t.Run("unresolved symbol: lexical only", func(t *testing.T) {
		got, err := r.Search(t.Context(), Request{Text: "purge", Symbol: "Cache.Nope"})
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.Search(t.Context(), Request{Text: "purge", Channels: []Channel{ChannelLexical}})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-lexical +got):\n%s", d)
		}
	})
	t.Run("symbol only: lexical searches the symbol", func(t *testing.T) {
		got, err := r.Search(t.Context(), Request{Symbol: "Cache.Purge", TopK: 30})
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(got, func(x Result) bool { return x.Ranks[ChannelLexical] > 0 }); i < 0 {
			t.Errorf("no lexical hit in %v", resultKeys(got))
		}
	})
}

func testRetrieverDeterministic(t *testing.T, r *Retriever) {
	q := Request{Text: "store value key", Symbol: "Cache.Set", TopK: 30}
	first, err := r.Search(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := r.Search(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(first, again); d != "" {
			t.Fatalf("results changed between runs (-first +again):\n%s", d)
		}
	}
}

func testRetrieverStructuralOrder(t *testing.T, r *Retriever) {
	tests := []struct {
		name  string
		q     Request
		depth int
		want  []string
	}{
		{"the whole list, in the channel's order", Request{Symbol: "Cache.Purge"}, 30, []string{
			"cache.go:Cache.Purge", "cache_test.go:TestPurge", "example_test.go:ExampleCache_Purge",
			"sweeper.go:sweeper.mark", "sweeper.go:sweeper.schedule", "cache.go:Cache.Reset", "README.md:kv > Purging",
		}},
		{"cut at depth", Request{Symbol: "Cache.Purge"}, 2, []string{"cache.go:Cache.Purge", "cache_test.go:TestPurge"}},
		// With depth 1 the refs are mapped one batch at a time: the
		// example is in the third.
		{"filtered past the first batches", Request{Symbol: "Cache.Purge", Sources: []Source{SourceExample}}, 1,
			[]string{"example_test.go:ExampleCache_Purge"}},
		{"code only", Request{Symbol: "Cache.Purge", Sources: []Source{SourceCode}}, 3,
			[]string{"cache.go:Cache.Purge", "sweeper.go:sweeper.mark", "sweeper.go:sweeper.schedule"}},
		{"from a directory", Request{Symbol: "Cache.Purge", FromDir: "."}, 1, []string{"cache.go:Cache.Purge"}},
		{"a directory without a package looks everywhere", Request{Symbol: "Cache.Purge", FromDir: "docs"}, 1, []string{"cache.go:Cache.Purge"}},
		{"unresolved", Request{Symbol: "Cache.Nope"}, 30, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := r.structural(t.Context(), tt.q, tt.depth)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, chunkKey(h.chunk))
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func testRetrieverChunkAt(t *testing.T, r *Retriever) {
	fsys := r.FS
	tests := []struct {
		name string
		path string
		line int
		want string // chunk key; "" for none
	}{
		{"inside a method body", "cache.go", symLine(t, fsys, "cache.go", "c.sw.mark(keys)"), "cache.go:Cache.Purge"},
		{"doc comment line", "cache.go", symLine(t, fsys, "cache.go", "// Purge drops every entry."), "cache.go:Cache.Purge"},
		{"other file", "sweeper.go", symLine(t, fsys, "sweeper.go", "s.schedule()"), "sweeper.go:sweeper.mark"},
		{"markdown section", "README.md", symLine(t, fsys, "README.md", "sweeper removes them"), "README.md:kv > Purging"},
		{"line 0", "cache.go", 0, ""},
		{"past the end", "cache.go", 10000, ""},
		{"unknown path", "nope.go", 1, ""},
		{"path prefix is not a path", "cache", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok, err := r.Index.ChunkAt(t.Context(), tt.path, tt.line)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if ok {
				got = chunkKey(c)
				if tt.line < c.StartLine || tt.line > c.EndLine || c.Text == "" {
					t.Errorf("chunk %s (%d-%d) does not hold line %d or has no text", c.ID, c.StartLine, c.EndLine, tt.line)
				}
			}
			if got != tt.want {
				t.Errorf("ChunkAt(%s, %d) = %q, want %q", tt.path, tt.line, got, tt.want)
			}
		})
	}
}

// TestChunkAtManyChunks checks ChunkAt in a file with more chunks than
// its first request loads.
func TestChunkAtManyChunks(t *testing.T) {
	const n = retrieverChunksPerFile + 36
	var b strings.Builder
	b.WriteString("package many\n")
	for i := range n {
		fmt.Fprintf(&b, "\n// F%d is function %d.\nfunc F%d() {}\n", i, i, i)
	}
	fsys := fstest.MapFS{"many.go": {Data: []byte(b.String())}}
	ix, err := BuildIndex(t.Context(), fsys, []string{"many.go"}, IndexOptions{Dir: filepath.Join(t.TempDir(), "index"), Commit: "many"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	for _, i := range []int{0, retrieverChunksPerFile, n - 1} {
		line := symLine(t, fsys, "many.go", fmt.Sprintf("func F%d()", i))
		c, ok, err := ix.ChunkAt(t.Context(), "many.go", line)
		if err != nil || !ok || c.Symbol != fmt.Sprintf("F%d", i) {
			t.Errorf("ChunkAt(many.go, %d) = %s, %v, %v; want the chunk of F%d", line, c.Symbol, ok, err, i)
		}
	}
}

func TestChunkSpanAt(t *testing.T) {
	// Windows of 40 lines overlapping by 10, and a short chunk inside.
	spans := []chunkSpan{
		{"f#1", 1, 40}, {"f#31", 31, 70}, {"f#35", 35, 36}, {"f#61", 61, 90},
	}
	tests := []struct {
		line int
		want string
	}{
		{1, "f#1"},
		{30, "f#1"},
		{31, "f#31"}, // overlap: the later window
		{35, "f#35"}, // the shortest
		{37, "f#31"},
		{65, "f#61"},
		{90, "f#61"},
		{91, ""},
		{0, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.line), func(t *testing.T) {
			got, ok := chunkSpanAt(spans, tt.line)
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("chunkSpanAt(%d) = %q, %v; want %q", tt.line, got, ok, tt.want)
			}
		})
	}
}

func testRetrieverRead(t *testing.T, r *Retriever) {
	tests := []struct {
		name       string
		r          *Retriever
		path       string
		start, end int
		want       string
		wantErr    string
	}{
		{"first lines", r, "go.mod", 1, 1, "module example.com/kv", ""},
		{"a range", r, "sweeper.go", 1, 3, "package kv\n\n// sweeper collects keys marked for deletion and deletes them in batches.", ""},
		{"to the last line", r, "docs/design.md", 11, 11, "Every exported method takes the mutex; the sweeper's callback takes it too.", ""},
		{"unknown path", r, "nope.md", 1, 1, "", "read nope.md: no such file at this commit"},
		{"past EOF", r, "docs/design.md", 10, 12, "", "read docs/design.md: lines 10-12 past the end of the file (11 lines)"},
		{"start below 1", r, "go.mod", 0, 1, "", "start line 0 is below 1"},
		{"end before start", r, "go.mod", 3, 2, "", "end line 2 is before start line 3"},
		{"invalid path", r, "../go.mod", 1, 1, "", "invalid path"},
		{"absolute path", r, "/go.mod", 1, 1, "", "invalid path"},
		{"a directory", r, "docs", 1, 1, "", "read docs"},
		{"no files", &Retriever{}, "go.mod", 1, 1, "", "retriever has no files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.r.Read(t.Context(), tt.path, tt.start, tt.end)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	t.Run("CRLF", func(t *testing.T) {
		rr := &Retriever{FS: fstest.MapFS{"a.txt": {Data: []byte("one\r\ntwo\r\n")}}}
		got, err := rr.Read(t.Context(), "a.txt", 1, 2)
		if err != nil || got != "one\ntwo" {
			t.Errorf("Read = %q, %v; want \"one\\ntwo\"", got, err)
		}
	})
}

func testRetrieverSymbolInfo(t *testing.T, r *Retriever) {
	type refView struct {
		Path string
		Why  string
		Hops []string
	}
	views := func(refs []Ref) []refView {
		var out []refView
		for _, ref := range refs {
			out = append(out, refView{ref.Path, ref.Why, ref.Hops})
		}
		return out
	}
	type infoView struct {
		Name                                    string
		Definition                              refView
		Callees, Callers, Tests, Examples, Docs []refView
	}
	tests := []struct {
		fromDir, name string
		want          infoView
	}{
		{"", "Cache.Purge", infoView{
			Name:       "Cache.Purge",
			Definition: refView{"cache.go", "defines Cache.Purge", []string{"Cache.Purge"}},
			Callees: []refView{
				{"sweeper.go", "callee of Cache.Purge", []string{"Cache.Purge", "sweeper.mark"}},
				{"sweeper.go", "callee of sweeper.mark", []string{"Cache.Purge", "sweeper.mark", "sweeper.schedule"}},
			},
			Callers:  []refView{{"cache.go", "caller of Cache.Purge", []string{"Cache.Purge", "Cache.Reset"}}},
			Tests:    []refView{{"cache_test.go", "test that calls Cache.Purge", []string{"Cache.Purge", "TestPurge"}}},
			Examples: []refView{{"example_test.go", "example of Cache.Purge", []string{"Cache.Purge", "ExampleCache_Purge"}}},
			Docs: []refView{
				{"README.md", "mentions Cache.Purge", []string{"Cache.Purge", "README.md"}},
				{"cache.go", "doc comment of Cache mentions Cache.Purge", []string{"Cache.Purge", "Cache"}},
			},
		}},
		{".", "sweeper.run", infoView{
			Name:       "sweeper.run",
			Definition: refView{"sweeper.go", "defines sweeper.run", []string{"sweeper.run"}},
			Callers:    []refView{{"cache.go", "caller of sweeper.run", []string{"sweeper.run", "Cache.Reset"}}},
			Tests:      []refView{{"cache_test.go", "test that calls sweeper.run", []string{"sweeper.run", "TestPurge"}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := r.SymbolInfo(t.Context(), tt.fromDir, tt.name)
			if err != nil {
				t.Fatal(err)
			}
			got := infoView{
				Name: info.Symbol.Name, Definition: views([]Ref{info.Definition})[0],
				Callees: views(info.Callees), Callers: views(info.Callers), Tests: views(info.Tests),
				Examples: views(info.Examples), Docs: views(info.Docs),
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			for _, d := range info.Docs {
				text, err := r.Read(t.Context(), d.Path, d.Line, d.EndLine)
				if err != nil {
					t.Fatal(err)
				}
				if !mentionsSymbol(text, info.Symbol) {
					t.Errorf("doc %s:%d-%d does not mention %s:\n%s", d.Path, d.Line, d.EndLine, tt.name, text)
				}
			}
		})
	}

	errTests := []struct {
		name string
		r    *Retriever
		sym  string
		want string
	}{
		{"unknown with a suggestion", r, "Cache.Purg", "no such symbol in any package (did you mean Cache.Purge?)"},
		{"unknown", r, "Zebra", "symbol info Zebra: no such symbol in any package"},
		{"no symbols", &Retriever{Index: r.Index}, "New", "retriever has no symbol table"},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.r.SymbolInfo(t.Context(), "", tt.sym)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestMentionsSymbol(t *testing.T) {
	purge := Symbol{Name: "Cache.Purge"}
	tests := []struct {
		text string
		sym  Symbol
		want bool
	}{
		{"Call `Cache.Purge` to drop entries.", purge, true},
		{"c.Purge() returns at once.", purge, true},
		{"Purge drops every entry.", purge, true},
		{"PurgeAll drops every entry.", purge, false},
		{"purge drops every entry.", purge, false},
		{"autoPurge is set", purge, false},
		{"New returns a store.", Symbol{Name: "New"}, true},
		{"Renew the lease.", Symbol{Name: "New"}, false},
		{"naïveNew", Symbol{Name: "New"}, false},
		{"", purge, false},
		{"the sweeper's next run", Symbol{Name: "sweeper.run"}, false},
		{"then s.run() deletes them", Symbol{Name: "sweeper.run"}, true},
		{"call `run` to delete them", Symbol{Name: "sweeper.run"}, true},
		{"call run() to delete them", Symbol{Name: "sweeper.run"}, true},
		{"sweeper.run deletes them", Symbol{Name: "sweeper.run"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := mentionsSymbol(tt.text, tt.sym); got != tt.want {
				t.Errorf("mentionsSymbol(%q, %s) = %v, want %v", tt.text, tt.sym.Name, got, tt.want)
			}
		})
	}
}

// hashEmbedder is a deterministic offline [Embedder]: a bag of lower-cased
// words hashed into 64 dimensions. After fail is set, it fails like an
// unreachable endpoint.
type hashEmbedder struct{ fail atomic.Bool }

func (e *hashEmbedder) Model() string { return "hash-64" }

func (e *hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if e.fail.Load() {
		return nil, errors.New("embeddings endpoint unreachable")
	}
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, 64)
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		v[0] += 0.01 // never the zero vector
		out[i] = v
	}
	return out, nil
}

func testRetrieverDense(t *testing.T, r *Retriever) {
	chunks, err := r.Index.AllChunks(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	emb := &hashEmbedder{}
	d, err := OpenDense(t.Context(), t.TempDir(), emb, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd := &Retriever{Index: r.Index, Symbols: r.Symbols, Dense: d, FS: r.FS}
	q := Request{Text: "sweeper deletes marked keys in batches", Symbol: "Cache.Purge", TopK: 30}

	t.Run("fused with the others", func(t *testing.T) {
		res, err := rd.Search(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		dense, err := rd.Search(t.Context(), Request{Text: q.Text, TopK: 30, Channels: []Channel{ChannelDense}})
		if err != nil {
			t.Fatal(err)
		}
		if len(dense) == 0 {
			t.Fatal("dense channel alone found nothing")
		}
		for i, x := range dense {
			if x.Ranks[ChannelDense] != i+1 || !strings.HasPrefix(x.Why, "embedding similarity ") {
				t.Errorf("dense result %d: ranks %v, why %q", i, x.Ranks, x.Why)
			}
		}
		// The fused results carry the dense channel's ranks.
		for _, x := range res {
			want := slices.Index(resultKeys(dense), chunkKey(x.Chunk)) + 1
			if got := x.Ranks[ChannelDense]; got != want {
				t.Errorf("%s: dense rank %d, want %d", x.Chunk.ID, got, want)
			}
		}
	})
	t.Run("filters", func(t *testing.T) {
		res, err := rd.Search(t.Context(), Request{Text: q.Text, Sources: []Source{SourceDoc}, PathPrefix: "docs/", Channels: []Channel{ChannelDense}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 0 {
			t.Fatal("no results")
		}
		for _, x := range res {
			if x.Chunk.Source != SourceDoc || !strings.HasPrefix(x.Chunk.Path, "docs/") {
				t.Errorf("%s (%s) passed the filter", x.Chunk.ID, x.Chunk.Source)
			}
		}
	})
	t.Run("endpoint down: the other channels answer", func(t *testing.T) {
		emb.fail.Store(true)
		t.Cleanup(func() { emb.fail.Store(false) })
		got, err := rd.Search(t.Context(), q)
		if err != nil {
			t.Fatalf("Search: %v", err)
		}
		want, err := r.Search(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("results differ from the search without dense (-want +got):\n%s", d)
		}
		_, err = rd.Search(t.Context(), Request{Text: q.Text, Channels: []Channel{ChannelDense}})
		var ce *ChannelError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "dense: dense search: embed query: embeddings endpoint unreachable") {
			t.Errorf("dense alone, down: error %v, want a *ChannelError naming dense's failure", err)
		}
	})
}

// BenchmarkRetrieverSearch measures one fused search (lexical and
// structural) over the fixture.
func BenchmarkRetrieverSearch(b *testing.B) {
	r := newTestRetriever(b)
	for _, bc := range []struct {
		name string
		q    Request
	}{
		{"fused", Request{Text: "when does purge delete the entries", Symbol: "Cache.Purge"}},
		{"lexical", Request{Text: "when does purge delete the entries", Channels: []Channel{ChannelLexical}}},
		{"structural", Request{Symbol: "Cache.Purge", Channels: []Channel{ChannelStructural}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := r.Search(b.Context(), bc.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

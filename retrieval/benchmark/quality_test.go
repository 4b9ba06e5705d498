package benchmark

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/retrieval"
)

// testGoroot returns the Go root of the go command, skipping the test
// when there is none with sources.
func testGoroot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	goroot := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(goroot, "src", "sync")); err != nil {
		t.Skipf("no standard library sources under %s: %v", goroot, err)
	}
	return goroot
}

func TestPairs(t *testing.T) {
	items, err := Pairs()
	if err != nil {
		t.Fatal(err)
	}
	cross, example := 0, 0
	var dirs []string
	for _, it := range items {
		if it.CrossFile {
			cross++
		}
		if it.Corpus == CorpusExample {
			example++
		}
		dirs = append(dirs, it.StdlibDirs()...)
	}
	if len(items) < 40 || cross < 15 || example < 10 {
		t.Errorf("labelled set: %d items, %d cross-file, %d on the example; want at least 40, 15 and 10", len(items), cross, example)
	}
	slices.Sort(dirs)
	std, err := StdlibCorpus(testGoroot(t), slices.Compact(dirs))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := ExampleCorpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		t.Run(it.ID, func(t *testing.T) {
			c := std
			if it.Corpus == CorpusExample {
				c = ex
			}
			if _, err := fs.Stat(c.FS, it.ClaimPath); err != nil {
				t.Errorf("claim_path: %v", err)
			}
			for _, d := range it.StdlibDirs() {
				if !slices.ContainsFunc(c.Files, func(p string) bool { return path.Dir(p) == d }) {
					t.Errorf("corpus directory %s has no files", d)
				}
			}
			for _, e := range it.Expected {
				if _, err := Locate(c.FS, e.Path, e.Symbol); err != nil {
					t.Errorf("expected evidence: %v", err)
				}
				if d := path.Dir(e.Path); it.Corpus != CorpusExample && !slices.Contains(it.StdlibDirs(), d) {
					t.Errorf("expected evidence %s lies outside the corpus %s", e.Path, it.Corpus)
				}
			}
			if it.Symbol != "" && !declares(c, it.FromDir, it.Symbol) {
				t.Errorf("subject %s is not declared in %s", it.Symbol, it.FromDir)
			}
		})
	}
}

// declares reports whether the non-test Go files of dir declare sym, or,
// for "pkg.Name", those of the corpus directory named pkg declare Name.
func declares(c Corpus, dir, sym string) bool {
	in := func(dir, sym string) bool {
		for _, p := range c.Files {
			if path.Dir(p) == dir && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				if _, err := Locate(c.FS, p, sym); err == nil {
					return true
				}
			}
		}
		return false
	}
	if in(dir, sym) {
		return true
	}
	q, rest, ok := strings.Cut(sym, ".")
	if !ok {
		return false
	}
	for _, p := range c.Files {
		if d := path.Dir(p); path.Base(d) == q && in(d, rest) {
			return true
		}
	}
	return false
}

func TestParsePairsErrors(t *testing.T) {
	good := `{"id": "a", "query": "q", "corpus": "example", "claim_path": "store.go", "expected": [{"path": "options.go", "symbol": "Options"}], "cross_file": true}`
	tests := []struct {
		name, data, want string
	}{
		{"not json", `[{`, "parse labelled set"},
		{"unknown field", `[{"id": "a", "extra": 1}]`, "unknown field"},
		{"no id", `[{"query": "q"}]`, "no id"},
		{"no query", `[{"id": "a", "query": " "}]`, "no query"},
		{"bad claim path", `[{"id": "a", "query": "q", "claim_path": "/abs"}]`, "bad claim_path"},
		{"no expected", `[{"id": "a", "query": "q", "corpus": "example", "claim_path": "x.go"}]`, "no expected evidence"},
		{"symbol without dir", `[{"id": "a", "query": "q", "symbol": "S", "corpus": "example", "claim_path": "x.go", "expected": [{"path": "x.go", "symbol": "S"}]}]`, "symbol without from_dir"},
		{"unknown corpus", `[{"id": "a", "query": "q", "corpus": "npm", "claim_path": "x.go", "expected": [{"path": "x.go", "symbol": "S"}]}]`, `unknown corpus "npm"`},
		{"bad stdlib dir", `[{"id": "a", "query": "q", "corpus": "stdlib:sync,", "claim_path": "x.go", "expected": [{"path": "x.go", "symbol": "S"}]}]`, `bad directory ""`},
		{"bad evidence", `[{"id": "a", "query": "q", "corpus": "example", "claim_path": "x.go", "expected": [{"path": "x.go"}]}]`, "bad expected evidence"},
		{"wrong cross_file", `[{"id": "a", "query": "q", "corpus": "example", "claim_path": "x.go", "expected": [{"path": "x.go", "symbol": "S"}], "cross_file": true}]`, "cross_file is true"},
		{"repeated id", "[" + good + "," + good + "]", `repeated id "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parsePairs([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
	items, err := parsePairs([]byte("[" + good + "]"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{{ID: "a", Query: "q", Corpus: CorpusExample, ClaimPath: "store.go",
		Expected: []Evidence{{Path: "options.go", Symbol: "Options"}}, CrossFile: true}}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("parsed item (-want +got):\n%s", diff)
	}
}

// TestExampleCorpusMatchesExamples keeps the embedded copy of the example
// repository equal to examples/inventory/03-hold-and-sweep.
func TestExampleCorpusMatchesExamples(t *testing.T) {
	root := filepath.Join("..", "..", "examples", "inventory", "03-hold-and-sweep")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no examples directory: %v", err)
	}
	want := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		want[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := ExampleCorpus()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range c.Files {
		data, err := fs.ReadFile(c.FS, p)
		if err != nil {
			t.Fatal(err)
		}
		got[p] = string(data)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("testdata/quality/inventory.txtar differs from %s (-examples +embedded):\n%s", root, diff)
	}
}

func TestLocate(t *testing.T) {
	fsys := fstest.MapFS{
		"a/a.go": {Data: []byte(`package a

type T struct {
	N, M int
}

func (t *T) Get() int { return t.N }

func (g G[K]) Len() int { return 0 }

type G[K comparable] map[K]int

const (
	X = iota
	Y
)

func New() *T { return nil }
`)},
		"a/broken.go": {Data: []byte("package a\nfunc {\n")},
	}
	tests := []struct {
		file, sym string
		want      int
		wantErr   string
	}{
		{"a/a.go", "T", 3, ""},
		{"a/a.go", "T.Get", 7, ""},
		{"a/a.go", "T.M", 4, ""},
		{"a/a.go", "G.Len", 9, ""},
		{"a/a.go", "G", 11, ""},
		{"a/a.go", "Y", 15, ""},
		{"a/a.go", "New", 18, ""},
		{"a/a.go", "Get", 0, "no such declaration"},
		{"a/a.go", "T.New", 0, "no such declaration"},
		{"a/a.go", "G.X", 0, "no such declaration"},
		{"a/broken.go", "T", 0, "expected"},
		{"a/missing.go", "T", 0, "file does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.file+" "+tt.sym, func(t *testing.T) {
			got, err := Locate(fsys, tt.file, tt.sym)
			switch {
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("got %d, %v; want an error containing %q", got, err, tt.wantErr)
			case tt.wantErr == "" && (err != nil || got != tt.want):
				t.Errorf("got %d, %v; want line %d", got, err, tt.want)
			}
		})
	}
}

func TestParseTxtar(t *testing.T) {
	got, err := parseTxtar([]byte("comment\n-- a.go --\npackage a\n-- d/b.md --\n# B\n\ntext\n-- empty --\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{"a.go": []byte("package a\n"), "d/b.md": []byte("# B\n\ntext\n"), "empty": {}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "just a comment\n", "-- a --\nx\n-- a --\ny\n", "-- ../a --\nx\n"} {
		if _, err := parseTxtar([]byte(bad)); err == nil {
			t.Errorf("parseTxtar(%q): no error", bad)
		}
	}
}

func TestScore(t *testing.T) {
	results := []ItemResult{
		{ID: "a", CrossFile: true, Ranks: map[string]int{"lexical": 1, Fused: 1}},
		{ID: "b", CrossFile: true, Ranks: map[string]int{"lexical": 6, Fused: 2}},
		{ID: "c", CrossFile: false, Ranks: map[string]int{"lexical": 0, Fused: 4}},
		{ID: "d", CrossFile: false, Ranks: map[string]int{"lexical": 5, Fused: 0}},
	}
	got := []ChannelScore{score("lexical", results, 5), score(Fused, results, 5)}
	want := []ChannelScore{
		{Channel: "lexical", Recall: 0.5, MRR: (1 + 1.0/6 + 1.0/5) / 4, CrossFileRecall: 0.5, Hits: 2, CrossFileHits: 1},
		{Channel: Fused, Recall: 0.75, MRR: (1 + 0.5 + 0.25) / 4, CrossFileRecall: 1, Hits: 3, CrossFileHits: 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scores (-want +got):\n%s", diff)
	}
}

func TestFirstMatch(t *testing.T) {
	want := []evidenceAt{{Evidence{Path: "s.go", Symbol: "Store.Hold"}, 118}, {Evidence{Path: "o.go", Symbol: "Z"}, 12}}
	res := func(p, sym string, start, end int) retrieval.Result {
		return retrieval.Result{Chunk: retrieval.Chunk{Path: p, Symbol: sym, StartLine: start, EndLine: end}}
	}
	tests := []struct {
		name string
		got  []retrieval.Result
		rank int
	}{
		{"none", nil, 0},
		{"by symbol", []retrieval.Result{res("s.go", "Store", 1, 20), res("s.go", "Store.Hold", 1, 2)}, 2},
		{"by line range", []retrieval.Result{res("x.go", "Z", 1, 50), res("o.go", "Y", 5, 15)}, 2},
		{"same symbol other path", []retrieval.Result{res("t.go", "Store.Hold", 100, 130)}, 0},
		{"range ends before", []retrieval.Result{res("o.go", "Y", 1, 11)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := firstMatch(tt.got, want); got != tt.rank {
				t.Errorf("rank %d, want %d", got, tt.rank)
			}
		})
	}
}

// guardIDs is the labelled subset the regression guard evaluates: small
// standard library corpora and the example, with cross-file chains that
// the lexical channel misses and the structural one finds.
var guardIDs = []string{
	"sync-map-loadorstore", "sync-oncefunc-panic", "sync-waitgroup-go-test", "sync-waitgroup-wait",
	"sync-pool-get-new", "list-movetofront", "list-pushbacklist-same", "list-insertbefore-unknown",
	"bytes-buffer-grow-toolarge", "bytes-buffer-grow-negative-test", "bytes-buffer-truncate",
}

// TestQualityGuard is the regression guard of retrieval quality: on a
// subset of the labelled set (11 standard library items and the example's
// 16), fused recall@5 and MRR must not fall below what was measured when
// the set was written (less a margin), nor below any single channel's,
// and the structural channel must find cross-file chains that the lexical
// channel misses.
func TestQualityGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes standard library packages")
	}
	all, err := Pairs()
	if err != nil {
		t.Fatal(err)
	}
	var items []Item
	for _, it := range all {
		if it.Corpus == CorpusExample || slices.Contains(guardIDs, it.ID) {
			items = append(items, it)
		}
	}
	if len(items) < len(guardIDs)+10 {
		t.Fatalf("guard subset has %d items", len(items))
	}
	rep, err := EvaluateQuality(t.Context(), QualityOptions{GOROOT: testGoroot(t), Items: items, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	for _, r := range rep.Results {
		fmt.Fprintf(&log, "%-34s cross=%-5v ranks %v\n", r.ID, r.CrossFile, r.Ranks)
	}
	for _, c := range rep.Channels {
		fmt.Fprintf(&log, "%-10s recall@5 %.2f  MRR %.2f  cross-file recall@5 %.2f\n", c.Channel, c.Recall, c.MRR, c.CrossFileRecall)
	}
	fmt.Fprintf(&log, "lexical misses %v; structural finds %v; fused finds %v\n", rep.LexicalMisses, rep.StructuralFinds, rep.FusedFinds)
	t.Log("\n" + log.String())

	if rep.Items != len(items) || len(rep.Skipped) > 0 {
		t.Fatalf("evaluated %d of %d items; skipped %v", rep.Items, len(items), rep.Skipped)
	}
	fused, ok := rep.Channel(Fused)
	if !ok {
		t.Fatal("no fused score")
	}
	for _, c := range rep.Channels {
		if c.Channel != Fused && (fused.Recall < c.Recall || fused.MRR < c.MRR) {
			t.Errorf("fused recall@5 %.2f, MRR %.2f below %s's %.2f, %.2f", fused.Recall, fused.MRR, c.Channel, c.Recall, c.MRR)
		}
	}
	// Measured when the set was written: fused recall@5 0.85, MRR 0.59.
	const minRecall, minMRR = 0.78, 0.52
	if fused.Recall < minRecall || fused.MRR < minMRR {
		t.Errorf("fused recall@5 %.2f, MRR %.2f; want at least %.2f, %.2f", fused.Recall, fused.MRR, minRecall, minMRR)
	}
	// The cross-file chains that the lexical channel missed when the set
	// was written: the structural channel and the fused ranking must find
	// them within 5 (all did; one may slip).
	var structMiss, fusedMiss []string
	for _, r := range rep.Results {
		if !slices.Contains(rescueIDs, r.ID) {
			continue
		}
		if r.Ranks["structural"] < 1 || r.Ranks["structural"] > 5 {
			structMiss = append(structMiss, r.ID)
		}
		if r.Ranks[Fused] < 1 || r.Ranks[Fused] > 5 {
			fusedMiss = append(fusedMiss, r.ID)
		}
	}
	if len(structMiss) > 1 || len(fusedMiss) > 1 {
		t.Errorf("of the cross-file chains lexical search misses, structural misses %v and fused misses %v; want at most one each", structMiss, fusedMiss)
	}
}

// rescueIDs are the guard's cross-file chains that lexical search alone
// does not find within 5.
var rescueIDs = []string{
	"sync-oncefunc-panic", "sync-waitgroup-go-test", "bytes-buffer-grow-negative-test",
	"list-pushbacklist-same", "example-holdttl-literal",
}

// bagOfWords is an [retrieval.Embedder] for tests: each text's vector
// counts its lower-cased words, hashed into 64 dimensions.
type bagOfWords struct{}

func (bagOfWords) Model() string { return "test-bag-of-words" }

func (bagOfWords) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, 64)
		v[0] = 0.01 // never the zero vector
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		out[i] = v
	}
	return out, nil
}

func TestEvaluateQualityDense(t *testing.T) {
	all, err := Pairs()
	if err != nil {
		t.Fatal(err)
	}
	items := slices.DeleteFunc(all, func(it Item) bool { return it.Corpus != CorpusExample })
	rep, err := EvaluateQuality(t.Context(), QualityOptions{Items: items, Dir: t.TempDir(), Embedder: bagOfWords{}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range rep.Channels {
		names = append(names, c.Channel)
	}
	if diff := cmp.Diff([]string{"lexical", "structural", "dense", Fused}, names); diff != "" {
		t.Errorf("channels (-want +got):\n%s", diff)
	}
	dense, _ := rep.Channel("dense")
	if dense.Hits == 0 {
		t.Errorf("the dense channel found nothing: %+v", dense)
	}
	for _, r := range rep.Results {
		if _, ok := r.Ranks["dense"]; !ok {
			t.Errorf("item %s has no dense rank: %v", r.ID, r.Ranks)
		}
	}
}

func TestEvaluateQualityErrors(t *testing.T) {
	std := []Item{{ID: "s", Query: "q", Corpus: "stdlib:sync", ClaimPath: "sync/a.go", Expected: []Evidence{{"sync/b.go", "X"}}, CrossFile: true}}
	tests := []struct {
		name string
		opt  QualityOptions
		want string
	}{
		{"no dir", QualityOptions{}, "Dir is empty"},
		{"stdlib without goroot", QualityOptions{Dir: t.TempDir(), Items: std}, "need a GOROOT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := EvaluateQuality(t.Context(), tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
	// An item whose directory or evidence is missing is skipped, not an
	// error.
	goroot := t.TempDir()
	if err := os.MkdirAll(filepath.Join(goroot, "src", "sync"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(goroot, "src", "sync", "a.go"), []byte("package sync\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	items := append(slices.Clone(std), Item{ID: "m", Query: "q", Corpus: "stdlib:nope", ClaimPath: "nope/a.go", Expected: []Evidence{{"nope/b.go", "X"}}, CrossFile: true})
	rep, err := EvaluateQuality(t.Context(), QualityOptions{GOROOT: goroot, Dir: t.TempDir(), Items: items})
	if err != nil {
		t.Fatal(err)
	}
	want := []SkippedItem{
		{ID: "m", Reason: "GOROOT/src has no nope"},
		{ID: "s", Reason: "locate X in sync/b.go: open sync/b.go: file does not exist"},
	}
	if diff := cmp.Diff(want, rep.Skipped); diff != "" || rep.Items != 0 {
		t.Errorf("%d items; skipped (-want +got):\n%s", rep.Items, diff)
	}
}

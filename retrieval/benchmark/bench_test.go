package benchmark

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/retrieval"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestScanGo(t *testing.T) {
	src := `package p

// Sum returns the sum of the numbers it is given.
func Sum(xs ...int) int { return 0 }

// helper is not exported.
func helper() {}

// Buffer holds bytes for the package's readers and writers.
// A second line.
type Buffer struct{}

// Len is short.
func (b *Buffer) Len() int { return 0 }

func (Buffer) Reset() {}

// Something else entirely, not about the declaration below it at all.
func Other() {}
`
	idents := map[string]bool{}
	phrases := scanGo([]byte(src), idents)
	wantPhrases := []string{"Sum returns the sum of the numbers it is given.", "Buffer holds bytes for the package's readers and writers."}
	if diff := cmp.Diff(wantPhrases, phrases); diff != "" {
		t.Errorf("phrases (-want +got):\n%s", diff)
	}
	wantIdents := map[string]bool{"Sum": true, "Buffer": true, "Len": true, "Reset": true, "Other": true}
	if diff := cmp.Diff(wantIdents, idents); diff != "" {
		t.Errorf("identifiers (-want +got):\n%s", diff)
	}
}

func TestDeclName(t *testing.T) {
	tests := map[string]string{
		"func Sum(xs ...int) int {":       "Sum",
		"func (b *Buffer) Len() int {":    "Len",
		"func (m Map[K, V]) Get(k K) V {": "Get",
		"type Buffer struct {":            "Buffer",
		"type G[T any] []T":               "G",
		"\tfunc inner() {}":               "",
		"var X = 1":                       "",
		"func (broken":                    "",
		"func init() {}":                  "init",
		"type ( // a grouped declaration": "",
		"func Generic[T any](t T) string": "Generic",
	}
	for line, want := range tests {
		if got := declName(line); got != want {
			t.Errorf("declName(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestBenchQueries(t *testing.T) {
	sc := scanResult{
		idents:  []string{"A", "B", "C", "D", "E", "F", "G", "H"},
		phrases: []string{"p1", "p2", "p3", "p4", "p5", "p6"},
	}
	tests := []struct {
		name        string
		labelled    []string
		n           int
		wantIdents  []string
		wantPhrases []string
	}{
		{"even spread", []string{"l1"}, 8, []string{"A", "C", "E", "G"}, []string{"l1", "p1", "p3", "p5"}},
		{"labelled first", []string{"l1", "l2", "l3"}, 4, []string{"A", "E"}, []string{"l1", "l2"}},
		{"odd count", nil, 5, []string{"A", "E"}, []string{"p1", "p3", "p5"}},
		{"more than there are", nil, 40, sc.idents, sc.phrases},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idents, phrases := benchQueries(sc, tt.labelled, tt.n)
			if diff := cmp.Diff(tt.wantIdents, idents); diff != "" {
				t.Errorf("identifiers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPhrases, phrases); diff != "" {
				t.Errorf("phrases (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLatencyOf(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var times []time.Duration
	for i := 100; i >= 1; i-- {
		times = append(times, ms(i))
	}
	tests := []struct {
		name  string
		times []time.Duration
		want  Latency
	}{
		{"none", nil, Latency{}},
		{"one", []time.Duration{ms(3)}, Latency{N: 1, P50: Duration(ms(3)), P99: Duration(ms(3))}},
		{"hundred", times, Latency{N: 100, P50: Duration(ms(50)), P99: Duration(ms(99))}},
		{"three", []time.Duration{ms(9), ms(1), ms(5)}, Latency{N: 3, P50: Duration(ms(5)), P99: Duration(ms(9))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, latencyOf(tt.times)); diff != "" {
				t.Errorf("latency (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOverlayFS(t *testing.T) {
	base := fstest.MapFS{"a.go": {Data: []byte("package a\n")}, "b.go": {Data: []byte("package b\n")}}
	edits, err := editFiles(base, []string{"a.go", "b.go"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 1 || edits["a.go"] == nil {
		t.Fatalf("edits: %v, want a.go", edits)
	}
	o := overlayFS{base: base, over: edits}
	a, err := fs.ReadFile(o, "a.go")
	if err != nil || !strings.HasPrefix(string(a), "package a\n") || !strings.Contains(string(a), "func "+benchEditMarker+"0() {}") {
		t.Errorf("edited a.go: %q, %v", a, err)
	}
	b, err := fs.ReadFile(o, "b.go")
	if err != nil || string(b) != "package b\n" {
		t.Errorf("b.go: %q, %v", b, err)
	}
	info, err := fs.Stat(o, "a.go")
	if err != nil || info.Size() != int64(len(a)) {
		t.Errorf("stat a.go: %v, %v; want size %d", info, err, len(a))
	}
	if _, err := editFiles(base, []string{"missing.go"}, 1); err == nil {
		t.Error("editing a missing file: no error")
	}
	if string(base["a.go"].Data) != "package a\n" {
		t.Errorf("the edit changed the base file: %q", base["a.go"].Data)
	}
}

// goldenReport is a report with fixed numbers, for the table's layout.
func goldenReport() Report {
	ms := func(f float64) Duration { return Duration(f * float64(time.Millisecond)) }
	return Report{
		GoVersion: "go1.26.8", Platform: "linux/amd64", CPUs: 2, Load: "0.50 0.40 0.30",
		Corpus: CorpusStats{Root: "/usr/local/go/src", Files: 11478, Bytes: 127 << 20, Indexed: 10734, Skipped: 744,
			IndexedBytes: 98 << 20, Chunks: 140805},
		Build:       BuildStats{Duration: ms(18400), FilesPerSec: 583.4, MiBPerSec: 5.3, PeakRSS: 410 << 20},
		Incremental: IncrementalStats{Files: 20, Duration: ms(1250), Found: 20},
		IndexBytes:  163 << 20,
		Queries: QueryStats{
			Identifiers: 100, Phrases: 100,
			Cold: Latency{200, ms(4.1), ms(61)}, Warm: Latency{200, ms(3.2), ms(44.5)},
			WarmIdentifiers: Latency{100, ms(1.5), ms(12)}, WarmPhrases: Latency{100, ms(6.25), ms(48)},
		},
		Ripgrep: ToolStats{Ran: true, Queries: 100, Latency: Latency{100, ms(120), ms(310)}},
		Zoekt:   ToolStats{Note: zoektNote},
		PeakRSS: 455 << 20,
		Quality: &QualityReport{
			K: 5, Items: 70, CrossFile: 40, Skipped: []SkippedItem{{ID: "x", Reason: "GOROOT/src has no x"}},
			Channels: []ChannelScore{
				{Channel: "lexical", Recall: 0.5857, MRR: 0.3887, CrossFileRecall: 0.5},
				{Channel: "structural", Recall: 0.5286, MRR: 0.4117, CrossFileRecall: 0.5},
				{Channel: Fused, Recall: 0.6857, MRR: 0.5060, CrossFileRecall: 0.675},
			},
			LexicalMisses: make([]string, 20), StructuralFinds: make([]string, 10), FusedFinds: make([]string, 8),
			FusedLatency: Latency{70, ms(9.15), ms(120.37)},
		},
	}
}

func TestWriteTable(t *testing.T) {
	var got bytes.Buffer
	if err := goldenReport().WriteTable(&got); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "table.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("table (-golden +got):\n%s", diff)
	}
}

func TestTableStatus(t *testing.T) {
	rep := goldenReport()
	rep.Build.Duration = Duration(21 * time.Second)
	rep.Incremental.Found = 19
	rep.Quality.Channels[2].MRR = 0.40 // below structural's
	rows := rep.rows()
	status := map[string]string{}
	for _, r := range rows {
		status[r.measure] = r.status
	}
	want := map[string]string{
		"full build":                                 statusMissed,
		"incremental update (20 files)":              statusMissed,
		"warm p50 / p99 (200 queries)":               statusOK,
		"peak RSS after full build":                  statusOK,
		"fused recall@5 / MRR / cross-file recall@5": statusMissed,
	}
	for m, w := range want {
		if status[m] != w {
			t.Errorf("status of %q: %q, want %q", m, status[m], w)
		}
	}
}

func TestReportJSONRoundTrip(t *testing.T) {
	rep := goldenReport()
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"duration_ms": 18400.000`) {
		t.Errorf("build duration not in milliseconds:\n%s", buf.String())
	}
	var got Report
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rep, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestRunBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"no goroot", Options{Dir: t.TempDir()}, "GOROOT is empty"},
		{"no dir", Options{GOROOT: t.TempDir()}, "Dir is empty"},
		{"negative queries", Options{GOROOT: t.TempDir(), Dir: t.TempDir(), Queries: -1}, "negative query count"},
		{"no src", Options{GOROOT: t.TempDir(), Dir: t.TempDir()}, "src"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(t.Context(), tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// stdlibFiles lists every regular file of GOROOT/src, as Run indexes it.
func stdlibFiles(b *testing.B) (string, scanResult) {
	b.Helper()
	src := filepath.Join(testGoroot(b), "src")
	sc, err := scanTree(b.Context(), src)
	if err != nil {
		b.Fatal(err)
	}
	return src, sc
}

// benchIndexOptions are Run's index options, without progress.
func benchIndexOptions(dir, commit string) retrieval.IndexOptions {
	return retrieval.IndexOptions{Dir: dir, Commit: commit, IncludeTestdata: true, IncludeVendor: true}
}

// BenchmarkBuildStdlib times a full index build of GOROOT/src.
func BenchmarkBuildStdlib(b *testing.B) {
	src, sc := stdlibFiles(b)
	base := b.TempDir()
	var st retrieval.IndexStats
	var took time.Duration
	n := 0
	for b.Loop() {
		n++
		started := time.Now()
		ix, err := retrieval.BuildIndex(b.Context(), os.DirFS(src), sc.files, benchIndexOptions(filepath.Join(base, "ix"+strconv.Itoa(n)), "c"))
		if err != nil {
			b.Fatal(err)
		}
		took += time.Since(started)
		st = ix.Stats()
		_ = ix.Close()
	}
	secs := took.Seconds() / float64(n)
	b.ReportMetric(float64(st.Files)/secs, "files/s")
	b.ReportMetric(float64(st.Bytes)/(1<<20)/secs, "MiB/s")
	b.ReportMetric(float64(st.DiskBytes)/(1<<20), "index-MiB")
	b.ReportMetric(float64(peakRSS())/(1<<20), "peakRSS-MiB")
}

// BenchmarkIncrementalStdlib times the update of a GOROOT/src index after
// 20 files change, alternating between the edited and the original tree.
func BenchmarkIncrementalStdlib(b *testing.B) {
	src, sc := stdlibFiles(b)
	dir := filepath.Join(b.TempDir(), "ix")
	base := os.DirFS(src)
	ix, err := retrieval.BuildIndex(b.Context(), base, sc.files, benchIndexOptions(dir, "base"))
	if err != nil {
		b.Fatal(err)
	}
	_ = ix.Close()
	edits, err := editFiles(base, sc.goFiles, benchEdits)
	if err != nil {
		b.Fatal(err)
	}
	trees := []fs.FS{overlayFS{base: base, over: edits}, base}
	i := 0
	for b.Loop() {
		ix, err := retrieval.BuildIndex(b.Context(), trees[i%2], sc.files, benchIndexOptions(dir, []string{"edited", "base"}[i%2]))
		if err != nil {
			b.Fatal(err)
		}
		_ = ix.Close()
		i++
	}
}

// BenchmarkQueryStdlib times warm lexical queries over a GOROOT/src
// index: identifiers and behaviour phrases.
func BenchmarkQueryStdlib(b *testing.B) {
	src, sc := stdlibFiles(b)
	ix, err := retrieval.BuildIndex(b.Context(), os.DirFS(src), sc.files, benchIndexOptions(filepath.Join(b.TempDir(), "ix"), "c"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ix.Close() })
	var labelled []string
	if items, err := Pairs(); err == nil {
		for _, it := range items {
			labelled = append(labelled, it.Query)
		}
	}
	idents, phrases := benchQueries(sc, labelled, benchDefaultQueries)
	r := &retrieval.Retriever{Index: ix}
	for _, kind := range []struct {
		name    string
		queries []string
	}{{"identifiers", idents}, {"phrases", phrases}} {
		b.Run(kind.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := r.Search(b.Context(), retrieval.Request{Text: kind.queries[i%len(kind.queries)], TopK: benchTopK}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkRipgrepStdlib times rg on the identifier queries over
// GOROOT/src, side by side with BenchmarkQueryStdlib/identifiers.
func BenchmarkRipgrepStdlib(b *testing.B) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		b.Skip("ripgrep is not installed")
	}
	src, sc := stdlibFiles(b)
	idents, _ := benchQueries(sc, nil, benchDefaultQueries)
	i := 0
	for b.Loop() {
		err := exec.CommandContext(b.Context(), rg, "--fixed-strings", "-l", "-w", "--", idents[i%len(idents)], src).Run()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkQualityFused times fused searches (lexical and structural) of
// the labelled example items over the example corpus.
func BenchmarkQualityFused(b *testing.B) {
	c, err := ExampleCorpus()
	if err != nil {
		b.Fatal(err)
	}
	ev, err := newEvaluator(b.Context(), c, b.TempDir(), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ev.close() })
	items, err := Pairs()
	if err != nil {
		b.Fatal(err)
	}
	items = slices.DeleteFunc(items, func(it Item) bool { return it.Corpus != CorpusExample })
	i := 0
	for b.Loop() {
		it := items[i%len(items)]
		if _, err := ev.r.Search(b.Context(), retrieval.Request{Text: it.Query, Symbol: it.Symbol, FromDir: it.FromDir, TopK: qualityDepth}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

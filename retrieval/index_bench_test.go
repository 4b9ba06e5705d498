package retrieval

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// indexStdlib returns the Go standard library's source tree and its files,
// without testdata and vendor directories, or skips b when GOROOT/src is
// missing.
func indexStdlib(b *testing.B) (fs.FS, []string) {
	b.Helper()
	out, err := exec.CommandContext(b.Context(), "go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("no go command to find GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(filepath.Join(root, "fmt", "print.go")); err != nil {
		b.Skipf("no standard library source: %v", err)
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return os.DirFS(root), files
}

// indexResetPeakRSS returns free memory to the system, so that earlier
// benchmarks of the process do not count, and resets the process's peak
// resident set size, where Linux allows it.
func indexResetPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// indexPeakRSS returns the process's peak resident set size in MB, and
// false where /proc does not tell it.
func indexPeakRSS() (float64, bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				return 0, false
			}
			return float64(kb) / 1024, true
		}
	}
	return 0, false
}

// indexBuildStdlib builds the standard library index into dir.
func indexBuildStdlib(b *testing.B, fsys fs.FS, files []string, dir string) *Index {
	b.Helper()
	ix, err := BuildIndex(b.Context(), fsys, files, IndexOptions{Dir: dir, Commit: "stdlib"})
	if err != nil {
		b.Fatal(err)
	}
	return ix
}

// BenchmarkIndexStdlib builds an index of the Go standard library
// (GOROOT/src without testdata and vendor, about 6,400 files and 100,000
// chunks) from scratch.
func BenchmarkIndexStdlib(b *testing.B) {
	fsys, files := indexStdlib(b)
	base := b.TempDir()
	var st IndexStats
	indexResetPeakRSS()
	i := 0
	for b.Loop() {
		i++
		ix := indexBuildStdlib(b, fsys, files, filepath.Join(base, strconv.Itoa(i)))
		st = ix.Stats()
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
	}
	secs := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(st.Files)/secs, "files/s")
	b.ReportMetric(float64(st.Bytes)/(1<<20)/secs, "MB/s")
	b.ReportMetric(float64(st.Docs), "chunks")
	b.ReportMetric(float64(st.DiskBytes)/(1<<20), "disk-MB")
	if rss, ok := indexPeakRSS(); ok {
		b.ReportMetric(rss, "peak-RSS-MB")
	}
}

// indexOverlayFS is fsys with some files' contents replaced.
type indexOverlayFS struct {
	fs.FS
	files fstest.MapFS
}

func (o indexOverlayFS) Open(name string) (fs.File, error) {
	if _, ok := o.files[name]; ok {
		return o.files.Open(name)
	}
	return o.FS.Open(name)
}

// BenchmarkIndexIncremental20 updates a standard library index to a new
// commit in which 20 Go files changed.
func BenchmarkIndexIncremental20(b *testing.B) {
	fsys, files := indexStdlib(b)
	dir := filepath.Join(b.TempDir(), "idx")
	ix := indexBuildStdlib(b, fsys, files, dir)
	if err := ix.Close(); err != nil {
		b.Fatal(err)
	}
	var changed []string
	for _, p := range files {
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && len(changed) < 20 && strings.HasPrefix(p, "net/") {
			changed = append(changed, p)
		}
	}
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		over := indexOverlayFS{FS: fsys, files: fstest.MapFS{}}
		for _, p := range changed {
			src, err := fs.ReadFile(fsys, p)
			if err != nil {
				b.Fatal(err)
			}
			src = fmt.Appendf(src, "\n// Revision%d marks update %d.\nfunc Revision%d() {}\n", i, i, i)
			over.files[p] = &fstest.MapFile{Data: src}
		}
		b.StartTimer()
		ix, err := BuildIndex(b.Context(), over, files, IndexOptions{Dir: dir, Commit: fmt.Sprint("c", i)})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		name := fmt.Sprint("Revision", i)
		hits, err := ix.Search(b.Context(), Query{Text: name, TopK: len(changed)})
		if err != nil {
			b.Fatal(err)
		}
		for _, h := range hits {
			if h.Chunk.Symbol != name {
				b.Fatalf("search for %s: hit %s (%s), want only the changed files' function", name, h.Chunk.ID, h.Chunk.Symbol)
			}
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// indexStdlibQueries are identifier, dotted-name and phrase queries over
// the standard library.
var indexStdlibQueries = []Query{
	{Text: "ReadAll"},
	{Text: "NewReader"},
	{Text: "http.Client.Do"},
	{Text: "utf8.DecodeRuneInString"},
	{Text: "sync.WaitGroup"},
	{Text: "MarshalJSON"},
	{Text: "parseDuration"},
	{Text: "max_retries"},
	{Text: "Reader", TopK: 50},
	{Text: "parse a duration string"},
	{Text: "context deadline exceeded when the timer fires"},
	{Text: "TLS handshake timeout"},
	{Text: "buffer too long for the scanner"},
	{Text: "garbage collector write barrier", Sources: []Source{SourceCode}},
	{Text: "how to format a float", Sources: []Source{SourceDoc, SourceExample}},
	{Text: "error", PathPrefix: "net/"},
}

// BenchmarkSearchStdlib runs identifier and phrase queries against a warm
// standard library index and reports the latency percentiles.
func BenchmarkSearchStdlib(b *testing.B) {
	fsys, files := indexStdlib(b)
	ix := indexBuildStdlib(b, fsys, files, filepath.Join(b.TempDir(), "idx"))
	defer ix.Close()
	for _, q := range indexStdlibQueries { // warm up
		if _, err := ix.Search(b.Context(), q); err != nil {
			b.Fatal(err)
		}
	}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		q := indexStdlibQueries[i%len(indexStdlibQueries)]
		i++
		start := time.Now()
		if _, err := ix.Search(b.Context(), q); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkIndexManyFiles builds an index of a repository of 100,000 tiny
// files.
func BenchmarkIndexManyFiles(b *testing.B) {
	fsys, files := indexTinyFiles(100000)
	base := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		ix, err := BuildIndex(b.Context(), fsys, files, IndexOptions{Dir: filepath.Join(base, strconv.Itoa(i)), Commit: "c"})
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// indexTinyFiles returns a repository of n one-line files in directories
// of 1,000.
func indexTinyFiles(n int) (fstest.MapFS, []string) {
	fsys := make(fstest.MapFS, n)
	files := make([]string, n)
	for i := range n {
		p := fmt.Sprintf("d%03d/f%05d.txt", i/1000, i)
		fsys[p] = &fstest.MapFile{Data: fmt.Appendf(nil, "note %d: tiny file number %d\n", i, i)}
		files[i] = p
	}
	return fsys, files
}

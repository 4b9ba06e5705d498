package benchmark

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
)

// Targets the evidence layer is held to over the standard library tree.
const (
	// TargetBuild bounds the full index build.
	TargetBuild = 20 * time.Second
	// TargetIncremental bounds the update after 20 files change.
	TargetIncremental = time.Second
	// TargetQueryP50 and TargetQueryP99 bound warm query latency.
	TargetQueryP50 = 5 * time.Millisecond
	TargetQueryP99 = 50 * time.Millisecond
	// TargetPeakRSS bounds the process's peak resident memory, in bytes
	// (500 MiB).
	TargetPeakRSS = 500 << 20
)

// Benchmark defaults.
const (
	// benchDefaultQueries is the number of queries when Options.Queries is
	// 0: half identifiers, half behaviour phrases.
	benchDefaultQueries = 200
	// benchEdits is the number of files changed for the incremental
	// update.
	benchEdits = 20
	// benchEditMarker is the function name each edit adds; the update is
	// checked by searching for it.
	benchEditMarker = "zqxbenchedit"
	// benchTopK is the number of results each timed query asks for.
	benchTopK = 10
	// zoektNote says why zoekt has no row of numbers.
	zoektNote = "not available from the module proxy"
)

// Options configures [Run].
type Options struct {
	// GOROOT is the Go root whose src directory is the corpus; required.
	GOROOT string
	// Dir is a work directory for the indexes, created if needed;
	// required. The caller removes it.
	Dir string
	// Queries is the number of timed queries, half identifiers and half
	// behaviour phrases; 0 means 200.
	Queries int
	// Ripgrep is the path of the rg program to time side by side on the
	// identifier queries; empty leaves it out, with RipgrepNote as the
	// reason (default "not installed").
	Ripgrep     string
	RipgrepNote string
	// Quality adds the retrieval quality evaluation ([EvaluateQuality]) of
	// the labelled set, with the same GOROOT.
	Quality bool
	// Embedder, when set, adds the dense channel to the quality
	// evaluation.
	Embedder retrieval.Embedder
	// Progress, if not nil, is told what runs: a stage name and, for
	// stages that count, how far along it is (total 0 when it does not
	// count). Calls come from one goroutine and must return quickly.
	Progress func(stage string, done, total int)
	// Logger receives the index's and the evaluation's logs; nil discards
	// them.
	Logger *slog.Logger
}

// Stages passed to Options.Progress.
const (
	StageScan        = "scan corpus"
	StageBuild       = "full build"
	StageIncremental = "incremental update"
	StageQueriesCold = "queries (cold)"
	StageQueriesWarm = "queries (warm)"
	StageRipgrep     = "ripgrep"
	StageQuality     = "quality"
)

// Report is the outcome of [Run]. Durations are in milliseconds in JSON.
type Report struct {
	// GoVersion, Platform and CPUs describe the machine; Load is its load
	// average when the run started (Linux only), as other processes skew
	// the timings.
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
	CPUs      int    `json:"cpus"`
	Load      string `json:"load,omitempty"`
	// Corpus describes the tree indexed.
	Corpus CorpusStats `json:"corpus"`
	// Build is the full index build.
	Build BuildStats `json:"build"`
	// Incremental is the update after benchEdits files change.
	Incremental IncrementalStats `json:"incremental"`
	// IndexBytes is the index's size on disk after the update.
	IndexBytes int64 `json:"index_bytes"`
	// Queries is the latency of the lexical layer's queries.
	Queries QueryStats `json:"queries"`
	// Ripgrep is rg answering the identifier queries over the same tree.
	Ripgrep ToolStats `json:"ripgrep"`
	// Zoekt says why zoekt is not measured.
	Zoekt ToolStats `json:"zoekt"`
	// PeakRSS is the process's peak resident memory over the whole run,
	// in bytes (0 where it cannot be read).
	PeakRSS int64 `json:"peak_rss_bytes"`
	// Quality is the quality evaluation; nil unless Options.Quality.
	Quality *QualityReport `json:"quality,omitempty"`
}

// CorpusStats describes the tree a benchmark indexes.
type CorpusStats struct {
	// Root is the directory indexed.
	Root string `json:"root"`
	// Files and Bytes count the regular files listed.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Indexed and Skipped count the files the index took and skipped
	// (binary, larger than 1 MiB); IndexedBytes is the size of those
	// taken; Chunks the chunks they gave.
	Indexed      int   `json:"indexed"`
	Skipped      int   `json:"skipped"`
	IndexedBytes int64 `json:"indexed_bytes"`
	Chunks       int   `json:"chunks"`
}

// BuildStats is a full index build.
type BuildStats struct {
	Duration Duration `json:"duration_ms"`
	// FilesPerSec and MiBPerSec are the files and mebibytes indexed per
	// second.
	FilesPerSec float64 `json:"files_per_sec"`
	MiBPerSec   float64 `json:"mib_per_sec"`
	// PeakRSS is the process's peak resident memory when the build ended,
	// in bytes.
	PeakRSS int64 `json:"peak_rss_bytes"`
}

// IncrementalStats is an update of the index after files change.
type IncrementalStats struct {
	// Files is the number of files changed.
	Files    int      `json:"files"`
	Duration Duration `json:"duration_ms"`
	// Found is the number of changed files whose new content a search
	// finds afterwards; it equals Files when the update worked.
	Found int `json:"found"`
}

// QueryStats is the latency of the timed queries.
type QueryStats struct {
	// Identifiers and Phrases count the queries of each kind.
	Identifiers int `json:"identifiers"`
	Phrases     int `json:"phrases"`
	// Cold is the first pass after reopening the index (the operating
	// system's file cache stays warm); Warm the second pass.
	Cold Latency `json:"cold"`
	Warm Latency `json:"warm"`
	// WarmIdentifiers and WarmPhrases split Warm by kind.
	WarmIdentifiers Latency `json:"warm_identifiers"`
	WarmPhrases     Latency `json:"warm_phrases"`
}

// ToolStats is another search tool run side by side.
type ToolStats struct {
	// Ran is true when the tool was measured; Note says why not.
	Ran  bool   `json:"ran"`
	Note string `json:"note,omitempty"`
	// Queries is the number of queries timed.
	Queries int     `json:"queries,omitempty"`
	Latency Latency `json:"latency"`
}

// Latency is a distribution of query times.
type Latency struct {
	N   int      `json:"n"`
	P50 Duration `json:"p50_ms"`
	P99 Duration `json:"p99_ms"`
}

// Duration is a time.Duration that encodes in JSON as milliseconds.
type Duration time.Duration

// MarshalJSON encodes d as a number of milliseconds.
func (d Duration) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "%.3f", float64(d)/float64(time.Millisecond)), nil
}

// UnmarshalJSON decodes a number of milliseconds.
func (d *Duration) UnmarshalJSON(data []byte) error {
	ms, err := strconv.ParseFloat(string(data), 64)
	if err != nil {
		return fmt.Errorf("duration %s: want milliseconds: %w", data, err)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// Run benchmarks the evidence layer over opt.GOROOT's src: a full index
// build, an update after 20 files change (through an overlay, the tree is
// never written), the latency of opt.Queries queries cold and warm, the
// index's size, the peak memory, ripgrep on the identifier queries, and
// (with opt.Quality) the quality evaluation. Every file of the tree is
// listed, testdata and vendor directories included.
//
// It returns an error if opt.GOROOT or opt.Dir is empty, the tree does not
// read, an index operation fails, rg fails on a query, or the quality
// evaluation fails; and ctx's error if ctx ends first.
func Run(ctx context.Context, opt Options) (Report, error) {
	switch {
	case opt.GOROOT == "":
		return Report{}, errors.New("benchmark: Options.GOROOT is empty")
	case opt.Dir == "":
		return Report{}, errors.New("benchmark: Options.Dir is empty")
	case opt.Queries < 0:
		return Report{}, fmt.Errorf("benchmark: negative query count %d", opt.Queries)
	}
	b := &bench{opt: opt, log: opt.Logger}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	if b.opt.Queries == 0 {
		b.opt.Queries = benchDefaultQueries
	}
	rep := Report{
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
		CPUs: runtime.NumCPU(), Load: loadAverage(),
	}
	if err := b.run(ctx, &rep); err != nil {
		return Report{}, fmt.Errorf("benchmark: %w", err)
	}
	rep.PeakRSS = peakRSS()
	return rep, nil
}

// bench is one run of [Run].
type bench struct {
	opt    Options
	log    *slog.Logger
	src    string
	corpus scanResult
}

func (b *bench) progress(stage string, done, total int) {
	if b.opt.Progress != nil {
		b.opt.Progress(stage, done, total)
	}
}

func (b *bench) run(ctx context.Context, rep *Report) error {
	b.src = filepath.Join(b.opt.GOROOT, "src")
	b.progress(StageScan, 0, 0)
	sc, err := scanTree(ctx, b.src)
	if err != nil {
		return err
	}
	b.corpus = sc
	rep.Corpus = CorpusStats{Root: b.src, Files: len(sc.files), Bytes: sc.bytes}
	indexDir := filepath.Join(b.opt.Dir, "index")
	if err := b.build(ctx, indexDir, rep); err != nil {
		return err
	}
	if err := b.incremental(ctx, indexDir, rep); err != nil {
		return err
	}
	if err := b.queries(ctx, indexDir, rep); err != nil {
		return err
	}
	if err := b.ripgrep(ctx, rep); err != nil {
		return err
	}
	rep.Zoekt = ToolStats{Note: zoektNote}
	if b.opt.Quality {
		b.progress(StageQuality, 0, 0)
		q, err := EvaluateQuality(ctx, QualityOptions{
			GOROOT: b.opt.GOROOT, Dir: filepath.Join(b.opt.Dir, "quality"),
			Embedder: b.opt.Embedder, Logger: b.opt.Logger,
		})
		if err != nil {
			return err
		}
		rep.Quality = &q
	}
	return nil
}

// indexOptions are the options of both builds of the corpus.
func (b *bench) indexOptions(dir, commit, stage string) retrieval.IndexOptions {
	return retrieval.IndexOptions{
		Dir: dir, Commit: commit, Logger: b.log,
		IncludeTestdata: true, IncludeVendor: true,
		Progress: func(done, total int) { b.progress(stage, done, total) },
	}
}

// build times the full build.
func (b *bench) build(ctx context.Context, dir string, rep *Report) error {
	b.progress(StageBuild, 0, len(b.corpus.files))
	started := time.Now()
	ix, err := retrieval.BuildIndex(ctx, os.DirFS(b.src), b.corpus.files, b.indexOptions(dir, "bench-base", StageBuild))
	took := time.Since(started)
	if err != nil {
		return err
	}
	st := ix.Stats()
	if err := ix.Close(); err != nil {
		return err
	}
	rep.Corpus.Indexed, rep.Corpus.Skipped, rep.Corpus.IndexedBytes, rep.Corpus.Chunks = st.Files, st.Skipped, st.Bytes, st.Docs
	rep.Build = BuildStats{
		Duration:    Duration(took),
		FilesPerSec: float64(st.Files) / took.Seconds(),
		MiBPerSec:   float64(st.Bytes) / (1 << 20) / took.Seconds(),
		PeakRSS:     peakRSS(),
	}
	return nil
}

// incremental times the update after benchEdits files change, and checks
// that a search finds the new content.
func (b *bench) incremental(ctx context.Context, dir string, rep *Report) error {
	edits, err := editFiles(os.DirFS(b.src), b.corpus.goFiles, benchEdits)
	if err != nil {
		return err
	}
	fsys := overlayFS{base: os.DirFS(b.src), over: edits}
	b.progress(StageIncremental, 0, len(b.corpus.files))
	started := time.Now()
	ix, err := retrieval.BuildIndex(ctx, fsys, b.corpus.files, b.indexOptions(dir, "bench-edited", StageIncremental))
	took := time.Since(started)
	if err != nil {
		return err
	}
	hits, err := ix.Search(ctx, retrieval.Query{Text: benchEditMarker, TopK: 10 * benchEdits})
	if err != nil {
		_ = ix.Close()
		return err
	}
	found := map[string]bool{}
	for _, h := range hits {
		if _, ok := edits[h.Chunk.Path]; ok && strings.Contains(h.Chunk.Text, benchEditMarker) {
			found[h.Chunk.Path] = true
		}
	}
	rep.IndexBytes = ix.Stats().DiskBytes
	if err := ix.Close(); err != nil {
		return err
	}
	rep.Incremental = IncrementalStats{Files: len(edits), Duration: Duration(took), Found: len(found)}
	return nil
}

// queries times the identifier and phrase queries on the reopened index:
// a cold pass, then a warm one.
func (b *bench) queries(ctx context.Context, dir string, rep *Report) error {
	phrases := []string{}
	if items, err := Pairs(); err == nil {
		for _, it := range items {
			phrases = append(phrases, it.Query)
		}
	}
	idents, phr := benchQueries(b.corpus, phrases, b.opt.Queries)
	all := append(append([]string{}, idents...), phr...)
	rep.Queries.Identifiers, rep.Queries.Phrases = len(idents), len(phr)

	ix, err := retrieval.OpenIndex(ctx, dir)
	if err != nil {
		return err
	}
	defer func() { _ = ix.Close() }()
	r := &retrieval.Retriever{Index: ix, Logger: b.log}
	pass := func(stage string) ([]time.Duration, error) {
		times := make([]time.Duration, len(all))
		for i, q := range all {
			b.progress(stage, i, len(all))
			started := time.Now()
			if _, err := r.Search(ctx, retrieval.Request{Text: q, TopK: benchTopK}); err != nil {
				return nil, fmt.Errorf("query %q: %w", q, err)
			}
			times[i] = time.Since(started)
		}
		b.progress(stage, len(all), len(all))
		return times, nil
	}
	cold, err := pass(StageQueriesCold)
	if err != nil {
		return err
	}
	warm, err := pass(StageQueriesWarm)
	if err != nil {
		return err
	}
	rep.Queries.Cold = latencyOf(cold)
	rep.Queries.Warm = latencyOf(warm)
	rep.Queries.WarmIdentifiers = latencyOf(warm[:len(idents)])
	rep.Queries.WarmPhrases = latencyOf(warm[len(idents):])
	return nil
}

// ripgrep times rg on each identifier query: the files of the tree that
// hold the identifier as a whole word.
func (b *bench) ripgrep(ctx context.Context, rep *Report) error {
	if b.opt.Ripgrep == "" {
		note := b.opt.RipgrepNote
		if note == "" {
			note = "not installed"
		}
		rep.Ripgrep = ToolStats{Note: note}
		return nil
	}
	idents, _ := benchQueries(b.corpus, nil, b.opt.Queries)
	times := make([]time.Duration, 0, len(idents))
	for i, id := range idents {
		b.progress(StageRipgrep, i, len(idents))
		cmd := exec.CommandContext(ctx, b.opt.Ripgrep, "--fixed-strings", "-l", "-w", "--", id, b.src)
		started := time.Now()
		err := cmd.Run()
		took := time.Since(started)
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: no match
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("ripgrep %q: %w", id, err)
		}
		times = append(times, took)
	}
	b.progress(StageRipgrep, len(idents), len(idents))
	rep.Ripgrep = ToolStats{Ran: true, Queries: len(times), Latency: latencyOf(times)}
	return nil
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/retrieval/benchmark"
	"github.com/docreview/docreview/review"
)

// benchUsage is the help of 'docreview bench'.
const benchUsage = `Usage: docreview bench retrieval [flags]

Measures the evidence layer over the Go standard library's sources
($(go env GOROOT)/src): full index build, incremental update after 20
changed files, query latency (cold and warm), index size, peak memory,
ripgrep side by side, and retrieval quality (recall@5 and MRR per channel
and fused) over the labelled set. Prints one table.

Flags:
`

// benchFlags are the flags of 'docreview bench retrieval'.
type benchFlags struct {
	goroot      string
	queries     int
	skipRG      bool
	skipQuality bool
	dense       bool
	format      string
	debug       bool
}

func (f *benchFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.goroot, "goroot", "", "Go root `dir` whose src is the corpus (default: go env GOROOT)")
	fs.IntVar(&f.queries, "queries", 200, "number of timed queries, half identifiers and half phrases")
	fs.BoolVar(&f.skipRG, "skip-rg", false, "do not time ripgrep")
	fs.BoolVar(&f.skipQuality, "skip-quality", false, "do not evaluate retrieval quality")
	fs.BoolVar(&f.dense, "dense", false, "add the dense channel to the quality evaluation (needs OPENAI_API_KEY)")
	fs.StringVar(&f.format, "format", "table", "output format: table or json")
	fs.BoolVar(&f.debug, "debug", false, "log the index's progress to stderr")
}

// runBench implements 'docreview bench'.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview bench retrieval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f benchFlags
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, benchUsage)
		fs.PrintDefaults()
	}
	if len(args) > 0 && args[0] == "quality" {
		return runBenchQuality(ctx, args[1:], stdout, stderr, getenv)
	}
	if len(args) > 0 && args[0] == "warm" {
		return runBenchWarm(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "webhook" {
		return runBenchWebhook(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fs.Usage()
			return flag.ErrHelp
		}
		return &review.UsageError{Msg: "bench: name the benchmark: docreview bench retrieval, quality, warm or webhook"}
	}
	if args[0] != "retrieval" {
		return &review.UsageError{Msg: fmt.Sprintf("bench: unknown benchmark %q (want retrieval, quality, warm or webhook)", args[0])}
	}
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return &review.UsageError{Msg: fmt.Sprintf("bench: unexpected argument %q", fs.Arg(0))}
	case f.queries < 2:
		return &review.UsageError{Msg: fmt.Sprintf("--queries: want at least 2, got %d", f.queries)}
	case f.format != "table" && f.format != "json":
		return &review.UsageError{Msg: fmt.Sprintf("--format: unknown format %q (want table or json)", f.format)}
	case f.dense && getenv("OPENAI_API_KEY") == "":
		return &review.UsageError{Msg: "--dense: the dense channel needs OPENAI_API_KEY"}
	case f.dense && f.skipQuality:
		return &review.UsageError{Msg: "--dense: the dense channel is only evaluated for quality; drop --skip-quality"}
	}

	goroot := f.goroot
	if goroot == "" {
		out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
		if err != nil {
			return &review.UsageError{Msg: fmt.Sprintf("bench: find GOROOT with 'go env GOROOT': %v (pass --goroot)", err)}
		}
		goroot = strings.TrimSpace(string(out))
	}
	if info, err := os.Stat(goroot + "/src"); err != nil || !info.IsDir() {
		return &review.UsageError{Msg: fmt.Sprintf("--goroot: %s has no src directory", goroot)}
	}

	work, err := os.MkdirTemp("", "docreview-bench-")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer func() { _ = os.RemoveAll(work) }()

	level := slog.LevelWarn
	if f.debug {
		level = slog.LevelDebug
	}
	prog := newBenchProgress(stderr)
	opt := benchmark.Options{
		GOROOT: goroot, Dir: work, Queries: f.queries, Quality: !f.skipQuality,
		Progress: prog.update,
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	}
	switch rg, err := exec.LookPath("rg"); {
	case f.skipRG:
		opt.RipgrepNote = "skipped (--skip-rg)"
	case err != nil:
		opt.RipgrepNote = "not installed (Debian package ripgrep)"
	default:
		opt.Ripgrep = rg
	}
	if f.dense {
		e, err := retrieval.NewOpenAIEmbedder(retrieval.EmbedderOptions{
			APIKey: getenv("OPENAI_API_KEY"), BaseURL: getenv("OPENAI_BASE_URL"),
			Model: getenv("DOCREVIEW_EMBEDDINGS_MODEL"),
		})
		if err != nil {
			return &review.UsageError{Msg: fmt.Sprintf("--dense: %v", err)}
		}
		opt.Embedder = e
	}

	rep, err := benchmark.Run(ctx, opt)
	prog.done()
	if err != nil {
		return err
	}
	if f.format == "json" {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteTable(stdout)
}

// benchProgress reports the benchmark's stages on stderr: a line per
// stage, and on a terminal a counter redrawn in place.
type benchProgress struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	stage    string
	counting bool
}

func newBenchProgress(w io.Writer) *benchProgress {
	return &benchProgress{w: w, terminal: isTerminal(w)}
}

// update reports stage, done of total (total 0: not counted).
func (p *benchProgress) update(stage string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if stage != p.stage {
		p.endLine()
		p.stage = stage
		if !p.terminal || total == 0 {
			fmt.Fprintf(p.w, "bench: %s\n", stage)
			return
		}
	}
	if p.terminal && total > 0 {
		fmt.Fprintf(p.w, "\rbench: %s %d/%d\x1b[K", stage, done, total)
		p.counting = true
	}
}

// done ends the last counter line.
func (p *benchProgress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLine()
}

func (p *benchProgress) endLine() {
	if p.counting {
		fmt.Fprintln(p.w)
		p.counting = false
	}
}

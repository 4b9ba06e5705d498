package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/docreview/docreview/bench/quality"
	"github.com/docreview/docreview/review"
)

// benchQualityUsage is the help of 'docreview bench quality'.
const benchQualityUsage = `Usage: docreview bench quality [flags]

Measures review quality on real Go modules pinned in bench/quality
(downloaded through the Go module proxy into the module cache): seeded
mutations turn each module into drift pull requests of known category,
clean edits must stay quiet, and real consecutive-version diffs count
findings per 1,000 changed doc lines. Each case is judged twice, with full
evidence and with evidence from the claim's own file only. Prints one row
per category and the overall precision.

Flags:
`

// runBenchQuality implements 'docreview bench quality'.
func runBenchQuality(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview bench quality", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		per      int
		seed     uint64
		modules  string
		format   string
		misses   bool
		noDiffs  bool
		debug    bool
		category string
	)
	fs.IntVar(&per, "per-category", 4, "most cases per module and category")
	fs.Uint64Var(&seed, "seed", 1, "seed of the mutation-site choice")
	fs.StringVar(&modules, "modules", "", "comma-separated module `paths` to run (default: all pinned modules)")
	fs.StringVar(&category, "categories", "", "comma-separated `categories` to generate (default: all)")
	fs.StringVar(&format, "format", "table", "output format: table or json")
	fs.BoolVar(&misses, "misses", false, "table output: list missed cases and false positives after the table")
	fs.BoolVar(&noDiffs, "skip-version-diffs", false, "do not review the real consecutive-version diffs")
	fs.BoolVar(&debug, "debug", false, "log progress to stderr")
	fs.Usage = func() {
		fmt.Fprint(stderr, benchQualityUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return &review.UsageError{Msg: fmt.Sprintf("bench quality: unexpected argument %q", fs.Arg(0))}
	case per < 1:
		return &review.UsageError{Msg: fmt.Sprintf("--per-category: want at least 1, got %d", per)}
	case format != "table" && format != "json":
		return &review.UsageError{Msg: fmt.Sprintf("--format: unknown format %q (want table or json)", format)}
	}
	all, err := quality.DefaultModules()
	if err != nil {
		return err
	}
	mods := all
	if modules != "" {
		mods = nil
		for _, name := range strings.Split(modules, ",") {
			i := indexModule(all, strings.TrimSpace(name))
			if i < 0 {
				return &review.UsageError{Msg: fmt.Sprintf("--modules: %q is not a pinned module", name)}
			}
			mods = append(mods, all[i])
		}
	}
	var cats []quality.Category
	if category != "" {
		for _, name := range strings.Split(category, ",") {
			c := quality.Category(strings.TrimSpace(name))
			if !knownCategory(c) {
				return &review.UsageError{Msg: fmt.Sprintf("--categories: unknown category %q", name)}
			}
			cats = append(cats, c)
		}
	}
	level := slog.LevelError
	if debug {
		level = slog.LevelDebug
	}
	prog := newBenchProgress(stderr)
	rep, err := quality.Run(ctx, quality.Options{
		Modules: mods, PerCategory: per, Seed: seed, Categories: cats, VersionDiffs: !noDiffs,
		Progress: prog.update,
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
		Types:    typeCache(reviewFlags{}, getenv),
	})
	prog.done()
	if err != nil {
		return err
	}
	if format == "json" {
		return rep.WriteJSON(stdout)
	}
	if err := rep.WriteTable(stdout); err != nil {
		return err
	}
	if misses {
		fmt.Fprintln(stdout)
		return rep.WriteMisses(stdout)
	}
	return nil
}

func indexModule(mods []quality.Module, path string) int {
	for i, m := range mods {
		if m.Path == path {
			return i
		}
	}
	return -1
}

func knownCategory(c quality.Category) bool {
	for _, k := range quality.Categories() {
		if k == c {
			return true
		}
	}
	return false
}

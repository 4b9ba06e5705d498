package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/docreview/docreview/bench/quality"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/config"
	"github.com/docreview/docreview/rules"
)

// benchQualityUsage is the help of 'docreview bench quality'.
const benchQualityUsage = `Usage: docreview bench quality [flags]

Measures review quality on documentation other people wrote, stored in
bench/quality/data and reviewed with the real review engine (modules are
downloaded through the Go module proxy into the module cache):

  real      documentation errors that upstream maintainers fixed in the next
            release, each reviewed at the version that has it (scope all); a
            hit is a finding on the case's lines
  mutation  real doc sentences changed in place (a name, a parameter, a
            number), code changes that leave the docs behind, and clean
            edits, each reviewed as a pull request (scope affected)
  audit     scope-all audits whose findings are labelled by hand in a ledger
            keyed by fingerprint: precision per rule, noise per 1,000 doc lines

Modules are split into a dev and a test half, fixed in the data. Prints
recall per set, kind and half; precision per rule; noise; flagged clean
edits; the largest miss and false-positive causes.

Flags:
`

// runBenchQuality implements 'docreview bench quality'.
func runBenchQuality(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview bench quality", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		sets, halves, modules, format string
		list, misses, unlabelled      bool
		debug, deps                   bool
	)
	fs.StringVar(&sets, "set", "", "comma-separated `sets` to run: real, mutation, audit (default: all)")
	fs.StringVar(&halves, "half", "", "comma-separated `halves` to run: dev, test (default: both)")
	fs.StringVar(&modules, "modules", "", "comma-separated module `paths` to run (default: all)")
	fs.StringVar(&format, "format", "text", "output format: text or json")
	fs.BoolVar(&list, "list", false, "print the selected cases without running anything")
	fs.BoolVar(&misses, "misses", false, "text output: list missed cases, flagged clean edits and false audit findings after the tables")
	fs.BoolVar(&unlabelled, "unlabelled", false, "print, as JSON ledger entries, the audit findings the ledger has no label for")
	fs.BoolVar(&debug, "debug", false, "log progress to stderr")
	fs.BoolVar(&deps, "dependencies", true, "download the modules each module's go.mod requires directly before its cases run, as the Action does (needs the module proxy); false reviews with what the module cache holds")
	fs.Usage = func() {
		fmt.Fprint(stderr, benchQualityUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &review.UsageError{Msg: fmt.Sprintf("bench quality: unexpected argument %q", fs.Arg(0))}
	}
	if format != "text" && format != "json" {
		return &review.UsageError{Msg: fmt.Sprintf("--format: unknown format %q (want text or json)", format)}
	}
	data, err := quality.LoadData()
	if err != nil {
		return err
	}
	var sel quality.Selection
	if sel.Sets, err = choiceList("--set", sets, []string{quality.SetReal, quality.SetMutation, quality.SetAudit}); err != nil {
		return err
	}
	if sel.Halves, err = choiceList("--half", halves, []string{quality.HalfDev, quality.HalfTest}); err != nil {
		return err
	}
	var known []string
	for _, m := range data.Modules {
		known = append(known, m.Path)
	}
	if sel.Modules, err = choiceList("--modules", modules, known); err != nil {
		return err
	}
	if list {
		entries := data.List(sel)
		if format == "json" {
			enc := json.NewEncoder(stdout)
			enc.SetEscapeHTML(false)
			for _, e := range entries {
				if err := enc.Encode(e); err != nil {
					return fmt.Errorf("bench quality --list: %w", err)
				}
			}
			return nil
		}
		for _, e := range entries {
			loc := ""
			if e.Path != "" {
				loc = fmt.Sprintf(" %s:%d", e.Path, e.Line)
			}
			fmt.Fprintf(stdout, "%s\t%s\t%s@%s\t%s%s\n", e.Set, e.Half, e.Module, e.Version, e.Kind, loc)
		}
		return nil
	}
	level := slog.LevelError
	if debug {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	// The engine 'docreview review' builds with the default configuration:
	// every rule, no model.
	engine, _, err := newEngine(config.Default(), reviewFlags{}, rules.All(), getenv, logger)
	if err != nil {
		return err
	}
	prog := newBenchProgress(stderr)
	rep, err := quality.Run(ctx, data, quality.Options{
		Engine:       engine,
		Selection:    sel,
		Progress:     prog.update,
		Logger:       logger,
		Dependencies: deps,
	})
	prog.done()
	if err != nil {
		return err
	}
	switch {
	case unlabelled:
		return rep.WriteUnlabelled(stdout)
	case format == "json":
		return rep.WriteJSON(stdout)
	}
	if err := rep.WriteText(stdout); err != nil {
		return err
	}
	if misses {
		fmt.Fprintln(stdout)
		return rep.WriteMisses(stdout)
	}
	return nil
}

// choiceList splits a comma-separated flag value and checks each item
// against known.
func choiceList(name, value string, known []string) ([]string, error) {
	if value == "" {
		return nil, nil
	}
	var out []string
	for _, v := range strings.Split(value, ",") {
		v = strings.TrimSpace(v)
		ok := false
		for _, k := range known {
			ok = ok || k == v
		}
		if !ok {
			if len(known) > 8 {
				return nil, &review.UsageError{Msg: fmt.Sprintf("%s: %q is not a module of the benchmark (see --list)", name, v)}
			}
			return nil, &review.UsageError{Msg: fmt.Sprintf("%s: unknown value %q (want %s)", name, v, strings.Join(known, ", "))}
		}
		out = append(out, v)
	}
	return out, nil
}

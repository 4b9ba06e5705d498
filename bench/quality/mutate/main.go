// Command mutate writes bench/quality/data/mutations.json: for every
// module that data/modules.json puts in the mutation set, it downloads the
// pinned version through the Go module proxy, samples real doc sentences
// that mention code at random (seeded), and mutates them in place, and
// makes the code-only and clean cases (quality.GenerateMutations). It
// also records how the docs of those modules write their mentions of
// code (bare words, backticks, doc links).
//
// Usage:
//
//	go run ./bench/quality/mutate [-seed 1] [-out bench/quality/data/mutations.json]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/docreview/docreview/bench/quality"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the sampling")
	out := flag.String("out", "bench/quality/data/mutations.json", "file to write")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(context.Background(), *seed, *out, log); err != nil {
		log.Error("mutate", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, seed uint64, out string, log *slog.Logger) error {
	d, err := quality.LoadData()
	if err != nil {
		return err
	}
	mf, err := quality.GenerateMutationFile(ctx, d.Modules, seed)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(mf, "", "  ")
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	log.Info("wrote mutations", "file", out, "cases", len(mf.Cases), "styles", fmt.Sprint(mf.Styles))
	return nil
}

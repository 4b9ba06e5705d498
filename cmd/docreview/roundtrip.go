package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/completeness/roundtrip"
)

// wantsRoundtrip reports whether the arguments of 'docreview completeness'
// ask for the roundtrip check (--roundtrip or -roundtrip, with its value
// separate or after "="), which runRoundtrip then parses whole.
func wantsRoundtrip(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "roundtrip" {
			return true
		}
	}
	return false
}

// runRoundtrip implements 'docreview completeness --roundtrip PKG': it
// regenerates one file of PKG from its documentation with the model and
// prints the fraction of the package's tests that still pass.
func runRoundtrip(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview completeness --roundtrip", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `Usage: docreview completeness --roundtrip PKG [flags]

Regenerates one Go file of package PKG (a directory relative to --repo, or
an import path of the module there) from its documentation alone with the
model, runs the package's tests against it in a temporary copy of the
module, and prints the fraction of tests that still pass. It needs a model
(--model or DOCREVIEW_MODEL) and OPENAI_API_KEY, or OPENAI_BASE_URL for a
local server that needs no key. The regenerated code runs with your
permissions, in the copy only, with downloads off.`)
		fs.PrintDefaults()
	}
	var (
		pkg, repo, model, file, format string
		timeout                        time.Duration
	)
	fs.StringVar(&pkg, "roundtrip", "", "`package` whose file is regenerated: a directory relative to --repo or an import path")
	fs.StringVar(&repo, "repo", ".", "`dir`ectory of the module (or a git checkout of it)")
	fs.StringVar(&model, "model", "", "chat `model` (default $DOCREVIEW_MODEL)")
	fs.StringVar(&file, "file", "", "`file` of the package to regenerate (default: its largest non-test file that declares exported API)")
	fs.StringVar(&format, "format", "text", "output format: text (or table) or json")
	fs.DurationVar(&timeout, "timeout", roundtrip.DefaultTestTimeout, "bound of each `go test` run")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return &review.UsageError{Msg: fmt.Sprintf("completeness --roundtrip takes one package, given with the flag; unexpected argument %q", fs.Arg(0))}
	case strings.TrimSpace(pkg) == "":
		return &review.UsageError{Msg: "--roundtrip needs a package: a directory relative to --repo or an import path"}
	case format != "text" && format != "table" && format != "json":
		return &review.UsageError{Msg: fmt.Sprintf("--format: unknown format %q (want text or json)", format)}
	case timeout <= 0:
		return &review.UsageError{Msg: "--timeout must be positive"}
	}
	if model == "" {
		model = strings.TrimSpace(getenv("DOCREVIEW_MODEL"))
	}
	if model == "" {
		return &review.UsageError{Msg: "--roundtrip needs a model: set --model or DOCREVIEW_MODEL"}
	}
	key, base := strings.TrimSpace(getenv("OPENAI_API_KEY")), strings.TrimSpace(getenv("OPENAI_BASE_URL"))
	if key == "" && base == "" {
		return &review.UsageError{Msg: fmt.Sprintf("model %q is configured but OPENAI_API_KEY is not set (set it, or OPENAI_BASE_URL for a local server that needs no key)", model)}
	}
	dir, err := packageDir(repo, pkg)
	if err != nil {
		return err
	}
	res, err := roundtrip.Run(ctx, roundtrip.Options{
		Dir:         dir,
		File:        file,
		Endpoint:    roundtrip.Endpoint{Model: model, BaseURL: base, APIKey: key},
		TestTimeout: timeout,
	})
	if err != nil {
		if res.PromptTokens+res.CompletionTokens > 0 {
			fmt.Fprintf(stderr, "docreview: tokens spent: %d prompt, %d completion\n", res.PromptTokens, res.CompletionTokens)
		}
		return err
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		return nil
	}
	writeRoundtrip(stdout, res)
	return nil
}

// packageDir resolves PKG: a directory (absolute, or relative to repo),
// else an import path of the module whose go.mod is in repo.
func packageDir(repo, pkg string) (string, error) {
	dir := pkg
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(repo, pkg)
	}
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir, nil
	}
	data, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", &review.UsageError{Msg: fmt.Sprintf("--roundtrip %s: no such directory in %s, and %s has no go.mod to resolve an import path", pkg, repo, repo)}
		}
		return "", fmt.Errorf("read go.mod: %w", err)
	}
	mp := modfile.ModulePath(data)
	if rest, ok := strings.CutPrefix(pkg, mp); ok && mp != "" && (rest == "" || rest[0] == '/') {
		dir = filepath.Join(repo, filepath.FromSlash(strings.TrimPrefix(rest, "/")))
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir, nil
		}
	}
	return "", &review.UsageError{Msg: fmt.Sprintf("--roundtrip %s: neither a directory in %s nor a package of module %s", pkg, repo, mp)}
}

// writeRoundtrip prints a roundtrip result as text.
func writeRoundtrip(w io.Writer, r roundtrip.Result) {
	fmt.Fprintf(w, "roundtrip %s: %s regenerated from its documentation by %s\n", r.Package, r.File, r.Model)
	fmt.Fprintf(w, "fidelity %.2f: %d of %d tests pass\n", r.Fidelity, r.Passed, r.Tests)
	if len(r.BuildErrors) > 0 {
		fmt.Fprintln(w, "the regenerated file does not compile, so no test ran:")
		for _, e := range r.BuildErrors {
			fmt.Fprintln(w, "  "+e)
		}
	} else if len(r.Failed) > 0 {
		fmt.Fprintf(w, "tests failed (%d), each a fact the documentation may not state:\n", len(r.Failed))
		for _, name := range r.Failed {
			fmt.Fprintln(w, "  "+name)
			for _, l := range r.FailOutput[name] {
				fmt.Fprintln(w, "      "+l)
			}
		}
	}
	if len(r.BaselineFailed) > 0 {
		fmt.Fprintf(w, "not measured (fail with the original file): %s\n", strings.Join(r.BaselineFailed, ", "))
	}
	fmt.Fprintf(w, "tokens: %d prompt, %d completion\n", r.PromptTokens, r.CompletionTokens)
}

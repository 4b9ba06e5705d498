package roundtrip

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Defaults of [Options].
const (
	// DefaultTestTimeout bounds each `go test` run.
	DefaultTestTimeout = 5 * time.Minute
	// DefaultMaxCopyBytes bounds the module copy.
	DefaultMaxCopyBytes = 512 << 20
)

// Options configures [Run]. Dir and Endpoint.Model are required; every
// other zero value means the default stated on the field.
type Options struct {
	// Dir is the package's directory; go.mod must be in it or above it.
	Dir string
	// File is the file to regenerate: its base name, or a path ending in
	// it. "" picks the largest non-test file of the package (as go/build
	// selects files for this platform) that declares exported API.
	File string
	// Endpoint is the chat model.
	Endpoint Endpoint
	// TestTimeout bounds each of the two `go test` runs (the test
	// binary's -timeout; the go command is killed a minute later); 0
	// means [DefaultTestTimeout] (5 minutes).
	TestTimeout time.Duration
	// MaxCopyBytes bounds the bytes of the module copy; 0 means
	// [DefaultMaxCopyBytes] (512 MiB).
	MaxCopyBytes int64
	// GoCommand is the go command to run; "" means "go" from PATH.
	GoCommand string
	// Env is the environment of the go command before the offline
	// settings are applied over it; nil means os.Environ().
	Env []string
	// TempDir is where the module copy is made; "" means os.TempDir().
	TempDir string
	// Logger receives progress; nil discards it.
	Logger *slog.Logger
}

// Result is the outcome of one roundtrip.
type Result struct {
	// Package is the import path; File the regenerated file, relative
	// to the module root, slash-separated.
	Package string `json:"package"`
	File    string `json:"file"`
	// Model is the endpoint's model.
	Model string `json:"model"`
	// Tests counts the package's top-level tests and examples that pass
	// with the original file; only they are measured. Passed counts those
	// that also pass with the regenerated file; Failed names the others,
	// in order of name, and FailOutput holds their failure messages (and
	// their subtests'), at most 12 lines each.
	Tests      int                 `json:"tests"`
	Passed     int                 `json:"passed"`
	Failed     []string            `json:"failed"`
	FailOutput map[string][]string `json:"fail_output,omitempty"`
	// BaselineFailed names the top-level tests that fail with the
	// original file already; they are not measured.
	BaselineFailed []string `json:"baseline_failed,omitempty"`
	// BuildErrors holds the compiler's messages when the package's tests
	// do not build with the regenerated file (at most 30 lines); Passed
	// is then 0 and Failed names every measured test.
	BuildErrors []string `json:"build_errors,omitempty"`
	// Fidelity is Passed / Tests.
	Fidelity float64 `json:"fidelity"`
	// PromptTokens and CompletionTokens are the model's usage.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// Generated is the regenerated file.
	Generated string `json:"generated,omitempty"`
}

// ErrNoTests is returned (wrapped) when the package has no test that
// passes with the original file, so nothing can be measured.
var ErrNoTests = errors.New("no test passes with the original file")

// Run regenerates one file of the package in opts.Dir from its
// documentation and measures it with the package's tests.
//
// It copies the module (the directory of the nearest go.mod; see
// [Options.MaxCopyBytes]) into a temporary directory, runs the package's
// tests there with the original file (the baseline; a package whose tests
// do not build, or with no passing test, is an error wrapping
// [ErrNoTests] for the latter, before any model call), asks the model
// for the file, given the package's documentation, the signatures of the
// exported API of its other files, and the doc comments and signatures of
// the file's own declarations (exported ones, and unexported ones the
// package's in-package tests name), never a function body, then replaces
// the file in the copy and runs the tests again. The copy is removed
// before Run returns.
//
// An answer that is not exactly one ```go block is an error wrapping
// [ErrNoCode]; a regenerated file that does not compile is a result with
// BuildErrors and fidelity 0. When the model was called, the returned
// Result holds the package, file and tokens even with an error.
func Run(ctx context.Context, opts Options) (Result, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Dir == "" {
		return Result{}, errors.New("roundtrip: no package directory")
	}
	c, err := newClient(opts.Endpoint)
	if err != nil {
		return Result{}, err
	}
	if opts.TestTimeout <= 0 {
		opts.TestTimeout = DefaultTestTimeout
	}
	if opts.MaxCopyBytes <= 0 {
		opts.MaxCopyBytes = DefaultMaxCopyBytes
	}
	if opts.GoCommand == "" {
		opts.GoCommand = "go"
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	p, err := loadPackage(opts.Dir)
	if err != nil {
		return Result{}, err
	}
	file, err := p.chooseFile(opts.File)
	if err != nil {
		return Result{}, err
	}
	res := Result{Package: p.importPath, File: filepath.ToSlash(filepath.Join(p.rel, file)), Model: c.ep.Model, Failed: []string{}}
	if !p.hasTests {
		return res, fmt.Errorf("roundtrip: package %s: %w: it has no test files", p.importPath, ErrNoTests)
	}

	tmp, err := os.MkdirTemp(opts.TempDir, "docreview-roundtrip-")
	if err != nil {
		return res, fmt.Errorf("roundtrip: %w", err)
	}
	defer func() {
		if err := os.RemoveAll(tmp); err != nil {
			log.Warn("roundtrip: remove module copy", "dir", tmp, "err", err)
		}
	}()
	copyRoot := filepath.Join(tmp, "mod")
	log.Debug("roundtrip: copying module", "root", p.root, "to", copyRoot)
	if err := copyModule(p.root, copyRoot, opts.MaxCopyBytes); err != nil {
		return res, err
	}
	env := offlineEnv(opts.Env)
	log.Debug("roundtrip: baseline tests", "package", p.importPath)
	base, err := goTest(ctx, opts.GoCommand, copyRoot, p.rel, env, opts.TestTimeout)
	if err != nil {
		return res, err
	}
	if base.buildFailed {
		return res, fmt.Errorf("roundtrip: the tests of %s do not build with the original file: %s", p.importPath, firstLines(base.buildErrors, 5))
	}
	measured := slices.Sorted(slices.Values(base.passed))
	measured = slices.Compact(measured)
	res.Tests = len(measured)
	res.BaselineFailed = base.failed
	if res.Tests == 0 {
		return res, fmt.Errorf("roundtrip: package %s: %w", p.importPath, ErrNoTests)
	}

	log.Debug("roundtrip: asking the model", "file", res.File, "model", c.ep.Model)
	var u usage
	answer, err := c.complete(ctx, c.prompts.regenerate, p.userPrompt(file), false, &u)
	res.PromptTokens, res.CompletionTokens = u.prompt, u.completion
	if err != nil {
		return res, err
	}
	code, err := extractCode(answer)
	if err != nil {
		return res, err
	}
	res.Generated = code
	if err := os.WriteFile(filepath.Join(copyRoot, filepath.FromSlash(res.File)), []byte(code), 0o644); err != nil {
		return res, fmt.Errorf("roundtrip: %w", err)
	}
	log.Debug("roundtrip: tests of the regenerated file", "package", p.importPath)
	got, err := goTest(ctx, opts.GoCommand, copyRoot, p.rel, env, opts.TestTimeout)
	if err != nil {
		return res, err
	}
	if got.buildFailed {
		res.BuildErrors = got.buildErrors
	}
	for _, name := range measured {
		if !got.buildFailed && slices.Contains(got.passed, name) {
			res.Passed++
			continue
		}
		res.Failed = append(res.Failed, name)
		if out := got.output[name]; len(out) > 0 {
			if res.FailOutput == nil {
				res.FailOutput = map[string][]string{}
			}
			res.FailOutput[name] = out
		}
	}
	res.Fidelity = float64(res.Passed) / float64(res.Tests)
	return res, nil
}

// firstLines joins the first n lines of list with "; ".
func firstLines(list []string, n int) string {
	if len(list) > n {
		list = append(slices.Clone(list[:n]), "…")
	}
	s := ""
	for i, l := range list {
		if i > 0 {
			s += "; "
		}
		s += l
	}
	return s
}

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/completeness"
	"github.com/docreview/docreview/review/config"
	"github.com/docreview/docreview/review/extract"
	"github.com/docreview/docreview/review/report"
	"github.com/docreview/docreview/rules"
)

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// reviewFlags are the flags of 'docreview review'; empty strings mean unset.
type reviewFlags struct {
	repo, base, head       string
	worktree               bool
	scope, failOn, format  string
	configPath             string
	include, exclude, skip listFlag
	maxFileSize            string
	cacheDir               string
	// indexDir, when set, is the index directory itself instead of one
	// derived from the repository's path under the cache root (the App
	// reviews each pull request in a new worktree of one mirror).
	indexDir                string
	noCache, verbose, debug bool
	upstream                bool
	upstreamDownload        bool
	runExamples             bool
	model, judgeMode        string
	confirm                 bool
	reviewTokens            int
}

func (f *reviewFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.repo, "repo", ".", "repository `dir` to review")
	fs.StringVar(&f.base, "base", "", "`ref` the diff starts from (default: merge-base with the upstream default branch, else HEAD~1)")
	fs.StringVar(&f.head, "head", "", "`ref` to review (default HEAD)")
	fs.BoolVar(&f.worktree, "worktree", false, "include uncommitted changes (staged, unstaged, untracked)")
	fs.StringVar(&f.scope, "scope", "", "claims to judge: changed, affected or all (default affected)")
	fs.StringVar(&f.failOn, "fail-on", "", "exit 1 on findings at or above: never, incomplete or contradicted (default contradicted)")
	fs.StringVar(&f.format, "format", "text", "output format: "+formatList())
	fs.StringVar(&f.configPath, "config", "", "configuration `file` (default REPO/"+config.FileName+" when it exists)")
	fs.Var(&f.include, "include", "only review files matching this `glob` (repeatable)")
	fs.Var(&f.exclude, "exclude", "skip files matching this `glob` (repeatable)")
	fs.Var(&f.skip, "disable", "switch off this `rule` (repeatable)")
	fs.StringVar(&f.maxFileSize, "max-file-size", "", "skip files larger than this `size` (default 1MiB)")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "where to keep the index (in <dir>/<repo-id>) and the standard library's type information (in <dir>/types) (default $XDG_CACHE_HOME/docreview)")
	fs.BoolVar(&f.noCache, "no-cache", false, "keep nothing: build the index in a temporary directory, removed afterwards, and type-check the standard library from source")
	fs.BoolVar(&f.upstream, "upstream", false, "index the APIs of the direct dependencies in go.mod too, from the local module cache")
	fs.BoolVar(&f.upstreamDownload, "upstream-download", false, "as --upstream, and download missing modules with 'go mod download'")
	fs.BoolVar(&f.verbose, "v", false, "text output: list consistent claims too")
	fs.BoolVar(&f.debug, "debug", false, "log progress to stderr")
	fs.BoolVar(&f.runExamples, "run-examples", false, "run the Example functions of the diff's packages with go test and report stale // Output: comments (executes the reviewed code)")
	fs.StringVar(&f.model, "model", "", "chat `model` of the LLM judge, used with OPENAI_API_KEY or OPENAI_BASE_URL (default: none, rules only)")
	fs.StringVar(&f.judgeMode, "judge-mode", "", "how the judge calls the model: auto, tools, json-schema, json-object or oneshot (default auto)")
	fs.BoolVar(&f.confirm, "confirm", false, "give the rules' findings to the LLM judge too; a finding it refutes with verified evidence is dropped")
	fs.IntVar(&f.reviewTokens, "review-tokens", 0, "token budget of the LLM judge for the whole review (default 300000)")
}

// runReview implements 'docreview review'.
func runReview(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f reviewFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &review.UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	all := rules.AllWith(rules.Options{RunExamples: f.runExamples})
	known := make([]string, len(all))
	for i, j := range all {
		known[i] = j.Name()
	}
	cfg, err := loadConfig(f, getenv, known)
	if err != nil {
		return &review.UsageError{Msg: err.Error()}
	}
	if isSet(fs, "upstream") {
		cfg.Upstream = f.upstream
	}
	if f.upstreamDownload {
		cfg.Upstream = true
	}
	format, err := report.ParseFormat(f.format)
	if err != nil {
		return &review.UsageError{Msg: err.Error()}
	}

	logger := newLogger(stderr, f.debug)
	engine, req, err := newEngine(cfg, f, all, getenv, logger)
	if err != nil {
		return err
	}
	req.Base, req.Head, req.Worktree = f.base, f.head, f.worktree
	rep, err := engine.Review(ctx, req)
	if err != nil {
		return err
	}
	opt := report.Options{Color: colorful(stdout, getenv), Verbose: f.verbose}
	if err := report.Render(stdout, rep, format, opt); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if review.FailOn(cfg.FailOn).Failed(rep.Verdicts, nil) {
		return errFindings
	}
	return nil
}

// newLogger logs warnings, or everything with debug, to stderr.
func newLogger(stderr io.Writer, debug bool) *slog.Logger {
	level := slog.LevelWarn
	if debug {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// newEngine builds the engine the configuration asks for (the enabled
// rules of all, and the LLM judge when a model is configured) and the
// request template of f's repository: scope, file selection, index
// directory, upstream and, with a judge, the dense channel. The caller
// sets the commits.
func newEngine(cfg config.Config, f reviewFlags, all []review.Judge, getenv func(string) string, logger *slog.Logger) (*review.Engine, review.Request, error) {
	engine := &review.Engine{
		Extractor:       &extract.Extractor{Logger: logger, MaxMarkdownLines: cfg.MaxMarkdownLines},
		Logger:          logger,
		UpstreamOptions: upstreamOptions(getenv, f.upstreamDownload, logger),
		Coverage:        completeness.Scorer{},
		Types:           typeCache(f, getenv),
	}
	for _, j := range all {
		if cfg.Enabled(j.Name()) {
			engine.Rules = append(engine.Rules, j)
		}
	}
	indexDir, err := indexDir(f, getenv)
	if err != nil {
		return nil, review.Request{}, err
	}
	if engine.Model, err = modelJudge(cfg, getenv, indexDir, logger); err != nil {
		return nil, review.Request{}, err
	}
	engine.Confirm = cfg.Judge.Confirm
	req := review.Request{
		Repo: f.repo, Scope: review.Scope(cfg.Scope), Include: cfg.Include, Exclude: cfg.Exclude,
		MaxFileSize: cfg.MaxFileSize, IndexDir: indexDir, Upstream: cfg.Upstream,
	}
	if engine.Model != nil {
		if req.Embedder, req.DenseDir, err = judgeEmbedder(cfg, getenv, indexDir); err != nil {
			return nil, review.Request{}, err
		}
	}
	return engine, req, nil
}

// loadConfig applies the file, then the environment, then the flags.
func loadConfig(f reviewFlags, getenv func(string) string, known []string) (config.Config, error) {
	cfg := config.Default()
	path, optional := f.configPath, false
	if path == "" {
		path, optional = filepath.Join(f.repo, config.FileName), true
	}
	cfg, err := config.Load(cfg, path, optional, known)
	if err != nil {
		return cfg, err
	}
	if cfg, err = config.ApplyEnv(cfg, getenv, known); err != nil {
		return cfg, err
	}
	if f.scope != "" {
		if err := config.CheckScope(f.scope); err != nil {
			return cfg, fmt.Errorf("--scope: %w", err)
		}
		cfg.Scope = f.scope
	}
	if f.failOn != "" {
		if err := config.CheckFailOn(f.failOn); err != nil {
			return cfg, fmt.Errorf("--fail-on: %w", err)
		}
		cfg.FailOn = f.failOn
	}
	if len(f.include) > 0 {
		cfg.Include = f.include
	}
	if len(f.exclude) > 0 {
		cfg.Exclude = f.exclude
	}
	for _, name := range f.skip {
		if !slices.Contains(known, name) {
			return cfg, fmt.Errorf("--disable: unknown rule %q (known: %s)", name, strings.Join(known, ", "))
		}
		cfg.Disabled = append(cfg.Disabled, name)
	}
	if f.maxFileSize != "" {
		n, err := config.ParseSize(f.maxFileSize)
		if err != nil {
			return cfg, fmt.Errorf("--max-file-size: %w", err)
		}
		cfg.MaxFileSize = n
	}
	if f.model != "" {
		cfg.Model = f.model
	}
	if f.judgeMode != "" {
		if err := config.CheckJudgeMode(f.judgeMode); err != nil {
			return cfg, fmt.Errorf("--judge-mode: %w", err)
		}
		cfg.Judge.Mode = f.judgeMode
	}
	if f.confirm {
		cfg.Judge.Confirm = true
	}
	if f.reviewTokens < 0 {
		return cfg, fmt.Errorf("--review-tokens: want a positive token count, got %d", f.reviewTokens)
	}
	if f.reviewTokens > 0 {
		cfg.Judge.ReviewTokens = f.reviewTokens
	}
	return cfg, nil
}

// indexDir decides where the index is kept: --no-cache gives "" (a
// temporary directory), else --cache-dir, DOCREVIEW_CACHE_DIR, or the user
// cache directory, each with a per-repository subdirectory.
func indexDir(f reviewFlags, getenv func(string) string) (string, error) {
	if f.indexDir != "" {
		return f.indexDir, nil
	}
	root := cacheRoot(f, getenv)
	if root == "" {
		return "", nil
	}
	abs, err := filepath.Abs(f.repo)
	if err != nil {
		return "", fmt.Errorf("repository path: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(root, filepath.Base(abs)+"-"+hex.EncodeToString(sum[:])[:12], "index"), nil
}

// cacheRoot is the directory docreview keeps its caches in: "" with
// --no-cache, else --cache-dir, DOCREVIEW_CACHE_DIR, or the user cache
// directory ($XDG_CACHE_HOME/docreview, else ~/.cache/docreview); "" when
// none is known.
func cacheRoot(f reviewFlags, getenv func(string) string) string {
	if f.noCache {
		return ""
	}
	root := f.cacheDir
	if root == "" {
		root = getenv("DOCREVIEW_CACHE_DIR")
	}
	if root == "" {
		base := getenv("XDG_CACHE_HOME")
		if base == "" {
			home := getenv("HOME")
			if home == "" {
				return ""
			}
			base = filepath.Join(home, ".cache")
		}
		root = filepath.Join(base, "docreview")
	}
	return root
}

// typeCache is the cache of the standard library's type information, in
// the types directory of the cache root; with no root it keeps nothing.
func typeCache(f reviewFlags, getenv func(string) string) *retrieval.TypeCache {
	root := cacheRoot(f, getenv)
	if root == "" {
		return &retrieval.TypeCache{}
	}
	return &retrieval.TypeCache{Dir: filepath.Join(root, typesDirName)}
}

// formatList names the formats report.ParseFormat accepts: "text, json,
// markdown, sarif or rdjson".
func formatList() string {
	var names []string
	for _, f := range report.Formats() {
		names = append(names, string(f))
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// typesDirName is the directory of the type cache in the cache root.
const typesDirName = "types"

// colorful reports whether w is a terminal and NO_COLOR is unset.
func colorful(w io.Writer, getenv func(string) string) bool {
	f, ok := w.(*os.File)
	return ok && getenv("NO_COLOR") == "" && term.IsTerminal(int(f.Fd()))
}

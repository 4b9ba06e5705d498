package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/config"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/rules"
	"github.com/docreview/docreview/webhook"
	"github.com/docreview/docreview/webhook/app"
)

// serveSettings is what 'docreview serve' reads from flags and the
// environment.
type serveSettings struct {
	addr, dataDir, database string
	secret                  []byte
	appID                   int64
	privateKey              []byte
	githubURL, gitURL       string
	reviewDrafts            bool
	workers, perInstall     int
	maxRepoBytes            int64
	maxCacheBytes           int64
	cacheMaxAge             time.Duration
	jobTimeout, rescueAfter time.Duration
	dependencies            bool
}

// dependencyTimeout bounds the download of a head's requirements.
const dependencyTimeout = 3 * time.Minute

// cachePruneEvery is how often serve prunes the mirror cache (also once at
// start).
const cachePruneEvery = time.Hour

// serveEnv are the environment variables 'docreview serve' reads for the
// App itself, as 'docreview serve --help' lists them.
var serveEnv = []struct{ name, what string }{
	{"DOCREVIEW_WEBHOOK_SECRET", "required (with --dry-run, default " + dryRunSecret + "): the App's webhook secret; every delivery's signature is checked with it"},
	{"DOCREVIEW_APP_ID", "required, except with --dry-run: the App's numeric id"},
	{"DOCREVIEW_PRIVATE_KEY_PATH", "required unless DOCREVIEW_PRIVATE_KEY is set or with --dry-run: the App's private key (PEM file)"},
	{"DOCREVIEW_PRIVATE_KEY", "the App's private key itself (PEM), instead of a path"},
	{"DOCREVIEW_GITHUB_URL", "the REST API root (default https://api.github.com/; GHES: https://HOST/api/v3/)"},
	{"DOCREVIEW_GIT_URL", "where repositories are cloned from (default: https://github.com/, or https://HOST/ for GHES)"},
	{"OPENAI_API_KEY, OPENAI_BASE_URL", "with DOCREVIEW_MODEL, the OpenAI-compatible model judge (optional)"},
	{"DOCREVIEW_*", "the review settings of 'docreview review' (DOCREVIEW_DISABLE, DOCREVIEW_UPSTREAM, DOCREVIEW_MODEL, ...); fail-on is always contradicted"},
}

// serveUsage prints the flags and the environment variables of serve.
func serveUsage(fs *flag.FlagSet) func() {
	return func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: docreview serve [flags]\n\nRuns the GitHub App: a webhook server (POST /webhook) with a durable review queue.\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(w, "\nEnvironment:\n")
		for _, e := range serveEnv {
			fmt.Fprintf(w, "  %s\n    \t%s\n", e.name, e.what)
		}
	}
}

// loadServeSettings validates the flags and DOCREVIEW_* variables. It
// refuses an empty webhook secret: without one, deliveries could not be
// verified.
func loadServeSettings(s serveSettings, getenv func(string) string) (serveSettings, error) {
	s.secret = []byte(getenv("DOCREVIEW_WEBHOOK_SECRET"))
	if len(s.secret) == 0 {
		return s, &review.UsageError{Msg: "DOCREVIEW_WEBHOOK_SECRET is not set: docreview serve verifies every delivery and will not start without the App's webhook secret"}
	}
	if v := strings.TrimSpace(getenv("DOCREVIEW_APP_ID")); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 1 {
			return s, &review.UsageError{Msg: fmt.Sprintf("DOCREVIEW_APP_ID: %q is not an App id", v)}
		}
		s.appID = id
	}
	switch {
	case getenv("DOCREVIEW_PRIVATE_KEY") != "":
		s.privateKey = []byte(getenv("DOCREVIEW_PRIVATE_KEY"))
	case getenv("DOCREVIEW_PRIVATE_KEY_PATH") != "":
		key, err := os.ReadFile(getenv("DOCREVIEW_PRIVATE_KEY_PATH"))
		if err != nil {
			return s, &review.UsageError{Msg: fmt.Sprintf("DOCREVIEW_PRIVATE_KEY_PATH: %v", err)}
		}
		s.privateKey = key
	}
	if s.appID == 0 || len(s.privateKey) == 0 {
		return s, &review.UsageError{Msg: "DOCREVIEW_APP_ID and DOCREVIEW_PRIVATE_KEY_PATH (or DOCREVIEW_PRIVATE_KEY) are required: reviews are posted as the App"}
	}
	s.githubURL = strings.TrimSpace(getenv("DOCREVIEW_GITHUB_URL"))
	if s.githubURL == "" {
		s.githubURL = "https://api.github.com/"
	}
	u, err := url.Parse(s.githubURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return s, &review.UsageError{Msg: fmt.Sprintf("DOCREVIEW_GITHUB_URL %q is not an absolute URL", s.githubURL)}
	}
	if !strings.HasSuffix(s.githubURL, "/") {
		s.githubURL += "/"
	}
	s.gitURL = strings.TrimSpace(getenv("DOCREVIEW_GIT_URL"))
	if s.gitURL == "" {
		s.gitURL = gitRoot(u)
	}
	if s.dataDir == "" {
		return s, &review.UsageError{Msg: "--data-dir is required: the queue, the mirrors and the index cache live there"}
	}
	if _, _, err := net.SplitHostPort(s.addr); err != nil {
		return s, &review.UsageError{Msg: fmt.Sprintf("--addr %q: %v", s.addr, err)}
	}
	if s.workers < 1 || s.perInstall < 1 {
		return s, &review.UsageError{Msg: "--workers and --per-installation must be at least 1"}
	}
	return s, nil
}

// gitRoot is where repositories are cloned from, for an API root:
// https://github.com/ for api.github.com, https://HOST/ for a GitHub
// Enterprise Server's https://HOST/api/v3/.
func gitRoot(api *url.URL) string {
	host := api.Host
	if host == "api.github.com" {
		host = "github.com"
	}
	return api.Scheme + "://" + host + "/"
}

// runServe implements 'docreview serve'.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var s serveSettings
	fs.StringVar(&s.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on")
	fs.StringVar(&s.dataDir, "data-dir", "", "`dir` for the queue (SQLite), mirrors and index cache (required)")
	fs.StringVar(&s.database, "database", "", "PostgreSQL `URL` of a queue shared by several replicas (default: SQLite in the data dir)")
	fs.BoolVar(&s.reviewDrafts, "review-drafts", false, "review draft pull requests too")
	fs.IntVar(&s.workers, "workers", 4, "reviews at once in this process")
	fs.IntVar(&s.perInstall, "per-installation", 2, "reviews at once per installation in this process")
	fs.Int64Var(&s.maxRepoBytes, "max-repo-bytes", 2<<30, "skip repositories whose mirror is larger than this")
	fs.Int64Var(&s.maxCacheBytes, "max-cache-bytes", 20<<30, "keep the mirrors and indexes under the data dir below this many bytes, removing the least recently used repositories (0: no limit)")
	fs.DurationVar(&s.cacheMaxAge, "cache-max-age", 30*24*time.Hour, "remove a repository's mirror and index when no review has used it this long (0: never)")
	fs.DurationVar(&s.jobTimeout, "job-timeout", webhook.DefaultJobTimeout, "longest one review may run")
	fs.DurationVar(&s.rescueAfter, "rescue-after", 0, "run a job again when its worker has held it this long (a crashed process); default job-timeout + 2m")
	fs.BoolVar(&s.dependencies, "dependencies", true, "before each review, download the modules the head's go.mod requires into the module cache (go mod download, which runs no code of theirs, at most "+dependencyTimeout.String()+"), so code blocks using a dependency are judged; a download that fails leaves them unjudged")
	var dryRun bool
	var dryRepo string
	fs.BoolVar(&dryRun, "dry-run", false, "try the App on this machine without creating one: review each queued pull request from the local clone --repo and print what would be published instead of posting it (no App credentials; the webhook secret defaults to "+dryRunSecret+")")
	fs.StringVar(&dryRepo, "repo", ".", "with --dry-run: the local clone `dir` the pull requests' commits are in")
	fs.Usage = serveUsage(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &review.UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg, err := config.ApplyEnv(config.Default(), getenv, ruleNames())
	if err != nil {
		return &review.UsageError{Msg: err.Error()}
	}
	if dryRun {
		return serveDryRun(ctx, s, dryRepo, cfg, stdout, logger, getenv)
	}
	s, err = loadServeSettings(s, getenv)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dataDir, 0o750); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	tokens, err := app.NewAppTokens(s.appID, s.privateKey, s.githubURL, nil)
	if err != nil {
		return &review.UsageError{Msg: fmt.Sprintf("App credentials: %v", err)}
	}
	mirrors := app.NewMirrors(filepath.Join(s.dataDir, "mirrors"), s.maxRepoBytes)
	runner := &app.Runner{
		Tokens: tokens, GitHubURL: s.githubURL, GitURL: s.gitURL,
		Mirrors: mirrors,
		Review:  appReview(cfg, getenv, logger),
		Publish: ghpub.Publish,
		Logger:  logger,
	}
	if s.dependencies {
		runner.Dependencies = downloadDependencies
	}
	reg := prometheus.NewRegistry()
	if runner.Metrics, err = app.NewMetrics(reg); err != nil {
		return err
	}
	pctx, stopPrune := context.WithCancel(ctx)
	pruned := make(chan struct{})
	go func() {
		defer close(pruned)
		pruneCache(pctx, mirrors, s, logger)
	}()
	err = serveQueue(ctx, s, runner, reg, logger)
	stopPrune()
	<-pruned
	return err
}

// downloadDependencies downloads the direct requirements of a head's
// go.mod into the module cache, within dependencyTimeout.
func downloadDependencies(ctx context.Context, gomod []byte) error {
	ctx, cancel := context.WithTimeout(ctx, dependencyTimeout)
	defer cancel()
	return retrieval.DownloadRequirements(ctx, "", gomod, nil)
}

// pruneCache prunes the mirror cache at once and then every hour until ctx
// ends: left-over worktrees of killed reviews, repositories unused for
// --cache-max-age, then the least recently used above --max-cache-bytes.
func pruneCache(ctx context.Context, m *app.Mirrors, s serveSettings, logger *slog.Logger) {
	t := time.NewTicker(cachePruneEvery)
	defer t.Stop()
	for {
		res, err := m.Prune(ctx, s.cacheMaxAge, s.maxCacheBytes)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("prune the mirror cache", "err", err)
		case err == nil && (res.Worktrees > 0 || len(res.Repos) > 0):
			logger.Info("mirror cache pruned", "worktrees", res.Worktrees, "repositories", res.Repos,
				"freed_bytes", res.Freed, "kept_bytes", res.Kept, "busy", res.Busy)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// appReview is the App's review of a pull request checked out in repoDir
// (a fresh worktree of the repository's mirror): the index is the
// repository's, cacheDir/index, updated in place from one pull request to
// the next, whatever path the worktree has; the type cache is beside it.
func appReview(cfg config.Config, getenv func(string) string, logger *slog.Logger) func(ctx context.Context, repoDir, base, head, cacheDir string) (review.Report, error) {
	return func(ctx context.Context, repoDir, base, head, cacheDir string) (review.Report, error) {
		f := reviewFlags{repo: repoDir, cacheDir: cacheDir, indexDir: filepath.Join(cacheDir, "index")}
		engine, req, err := newEngine(cfg, f, rules.All(), getenv, logger)
		if err != nil {
			return review.Report{}, err
		}
		req.Base, req.Head = base, head
		return engine.Review(ctx, req)
	}
}

// serveQueue runs the webhook server and its queue with runner until ctx
// ends, then shuts both down gracefully.
func serveQueue(ctx context.Context, s serveSettings, runner webhook.Runner, reg *prometheus.Registry, logger *slog.Logger) error {
	srv, err := webhook.NewServer(ctx, webhook.Config{
		DataDir: s.dataDir, DatabaseURL: s.database, Secret: s.secret, ReviewDrafts: s.reviewDrafts,
		Workers: s.workers, PerInstallation: s.perInstall, Runner: runner, Logger: logger, Registry: reg,
		JobTimeout: s.jobTimeout, RescueAfter: s.rescueAfter,
	})
	if err != nil {
		return fmt.Errorf("start the queue: %w", err)
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.addr, err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Start(ctx); err != nil {
		return fmt.Errorf("start the workers: %w", err)
	}
	logger.Info("serving", "addr", ln.Addr().String(), "queue", map[bool]string{true: "postgresql", false: "sqlite"}[s.database != ""])
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("serve: %w", err)
		}
	case <-ctx.Done():
	}
	// Graceful shutdown: stop accepting, then let the queue finish or
	// release its jobs.
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	herr := hs.Shutdown(shut)
	qerr := srv.Shutdown(shut)
	logger.Info("stopped")
	return errors.Join(herr, qerr)
}

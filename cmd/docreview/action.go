package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strings"

	gh "github.com/google/go-github/v62/github"

	"github.com/docreview/docreview/action"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/report"
	"github.com/docreview/docreview/rules"
)

// actionFlags are the flags of 'docreview action' and 'docreview publish';
// action.yml passes its inputs through them.
type actionFlags struct {
	review      reviewFlags
	reporters   string
	maxComments int
	sarif       string
	reportPath  string // publish only
	pr          int    // publish only
}

func (f *actionFlags) register(fs *flag.FlagSet, publish bool) {
	fs.StringVar(&f.reporters, "reporters", "review,check,summary", "comma-separated `outputs`: review, check, summary, sarif")
	fs.IntVar(&f.maxComments, "max-comments", 30, "most new inline comments per run; the rest go to the summary")
	fs.StringVar(&f.review.failOn, "fail-on", "", "exit 1 and fail the check on findings at or above: never, incomplete or contradicted (default contradicted)")
	fs.StringVar(&f.review.configPath, "config", "", "configuration `file` (default WORKSPACE/.docreview.yml when it exists)")
	fs.BoolVar(&f.review.debug, "debug", false, "log progress to stderr")
	if publish {
		fs.StringVar(&f.reportPath, "report", "", "the JSON report `file` the review job uploaded (required)")
		fs.IntVar(&f.pr, "pr", 0, "the pull request `number` the review job recorded (required)")
		return
	}
	fs.StringVar(&f.review.scope, "scope", "", "claims to judge: changed, affected or all (default affected)")
	fs.StringVar(&f.review.model, "model", "", "chat `model` of the LLM judge, used with OPENAI_API_KEY or OPENAI_BASE_URL")
	fs.StringVar(&f.sarif, "sarif", "", "where the sarif reporter writes (default RUNNER_TEMP/docreview.sarif)")
}

// reporterList validates --reporters.
func (f *actionFlags) reporterList() ([]string, error) {
	var out []string
	for _, r := range strings.Split(f.reporters, ",") {
		if r = strings.TrimSpace(r); r == "" {
			continue
		}
		if !slices.Contains(action.Reporters(), r) {
			return nil, fmt.Errorf("--reporters: unknown reporter %q (want %s)", r, strings.Join(action.Reporters(), ", "))
		}
		out = append(out, r)
	}
	return out, nil
}

// runAction implements 'docreview action': review the pull request of the
// workflow's event and publish the findings.
func runAction(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview action", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f actionFlags
	f.register(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &review.UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	env, r, opt, logger, err := setupAction(&f, stdout, stderr, getenv)
	if err != nil {
		return err
	}
	all := rules.All()
	known := make([]string, len(all))
	for i, j := range all {
		known[i] = j.Name()
	}
	cfg, err := loadConfig(f.review, getenv, known)
	if err != nil {
		return &review.UsageError{Msg: err.Error()}
	}
	opt.FailOn = review.FailOn(cfg.FailOn)
	engine, template, err := newEngine(cfg, f.review, all, getenv, logger)
	if err != nil {
		return err
	}
	r.Review = func(ctx context.Context, req review.Request) (review.Report, error) {
		template.Repo, template.Base, template.Head = req.Repo, req.Base, req.Head
		return engine.Review(ctx, template)
	}
	out, err := r.Run(ctx, env, opt)
	if err != nil {
		return err
	}
	if out.Failed(opt.FailOn) {
		return errFindings
	}
	return nil
}

// runPublish implements 'docreview publish': post a report another job
// made (the fork pattern), without reviewing or reading any code.
func runPublish(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f actionFlags
	f.register(fs, true)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return &review.UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	case f.reportPath == "":
		return &review.UsageError{Msg: "--report: the JSON report file is required"}
	case f.pr < 1:
		return &review.UsageError{Msg: "--pr: the pull request number is required"}
	}
	file, err := os.Open(f.reportPath)
	if err != nil {
		return &review.UsageError{Msg: fmt.Sprintf("--report: %v", err)}
	}
	rep, err := report.DecodeJSON(file)
	file.Close()
	if err != nil {
		return &review.UsageError{Msg: fmt.Sprintf("--report %s: %v", f.reportPath, err)}
	}
	env, r, opt, _, err := setupAction(&f, stdout, stderr, getenv)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(f.review, getenv, ruleNames())
	if err != nil {
		return &review.UsageError{Msg: err.Error()}
	}
	opt.FailOn = review.FailOn(cfg.FailOn)
	out, err := r.Publish(ctx, env, rep, f.pr, opt)
	if err != nil {
		return err
	}
	if out.Failed(opt.FailOn) {
		return errFindings
	}
	return nil
}

// setupAction reads the Actions environment and builds the runner, its
// API client and the options shared by 'action' and 'publish'.
func setupAction(f *actionFlags, stdout, stderr io.Writer, getenv func(string) string) (action.Env, *action.Runner, action.Options, *slog.Logger, error) {
	env, err := action.ReadEnv(getenv)
	if err != nil {
		return env, nil, action.Options{}, nil, &review.UsageError{Msg: err.Error()}
	}
	f.review.repo = env.Workspace
	reporters, err := f.reporterList()
	if err != nil {
		return env, nil, action.Options{}, nil, &review.UsageError{Msg: err.Error()}
	}
	if f.maxComments < 0 {
		return env, nil, action.Options{}, nil, &review.UsageError{Msg: fmt.Sprintf("--max-comments: want 0 or more, got %d", f.maxComments)}
	}
	client, err := apiClient(env)
	if err != nil {
		return env, nil, action.Options{}, nil, &review.UsageError{Msg: err.Error()}
	}
	logger := newLogger(stderr, f.review.debug)
	r := &action.Runner{Client: client, Stdout: stdout, Logger: logger}
	// Committed dismissals are read by the runner from the pull request's
	// base commit, never from the working tree: the checkout (or, for
	// publish, the downloaded artifact) is the pull request's own.
	opt := action.Options{Reporters: reporters, MaxComments: f.maxComments, SARIFPath: f.sarif}
	return env, r, opt, logger, nil
}

// apiClient is a REST client for env's API root (GITHUB_API_URL: the
// public API, or https://HOST/api/v3 on GitHub Enterprise Server) with the
// workflow's token.
func apiClient(env action.Env) (*gh.Client, error) {
	base, err := url.Parse(env.APIURL + "/")
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("GITHUB_API_URL %q is not an absolute URL", env.APIURL)
	}
	c := gh.NewClient(nil).WithAuthToken(env.Token)
	c.BaseURL = base
	return c, nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/config"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/review/report"
	"github.com/docreview/docreview/webhook"
	"github.com/docreview/docreview/webhook/app"
)

// dryRunSecret is the webhook secret of 'docreview serve --dry-run' when
// DOCREVIEW_WEBHOOK_SECRET is not set.
const dryRunSecret = "docreview-dry-run"

// dryRunner is the [webhook.Runner] of 'docreview serve --dry-run': it
// takes the jobs the real webhook handler and queue hand out, reviews
// them from a local clone instead of a mirror fetched with an App token,
// and writes what the App would publish (the review as Markdown, and the
// check run's conclusion) to out instead of posting it.
type dryRunner struct {
	repo   *gitrepo.Repo
	review func(ctx context.Context, base, head string) (review.Report, error)
	out    io.Writer
	mu     sync.Mutex // serialises writes to out
	logger *slog.Logger
}

func (d *dryRunner) Run(ctx context.Context, job webhook.Job) error {
	head := job.HeadSHA
	if head == "" {
		head = "HEAD"
	}
	for _, c := range []string{head, job.BaseSHA} {
		if c == "" {
			continue
		}
		if _, err := d.repo.Resolve(ctx, c); err != nil {
			return fmt.Errorf("dry run: commit %s of %s/%s#%d is not in %s: fetch the pull request into the clone (git fetch origin pull/%d/head)",
				c, job.Owner, job.Repo, job.PR, d.repo.Dir, job.PR)
		}
	}
	base := ""
	if job.BaseSHA != "" {
		mb, err := d.repo.MergeBase(ctx, job.BaseSHA, head)
		if err != nil {
			return fmt.Errorf("dry run: %w", err)
		}
		base = mb
	}
	rep, err := d.review(ctx, base, head)
	if err != nil {
		return fmt.Errorf("dry run: review %s/%s#%d: %w", job.Owner, job.Repo, job.PR, err)
	}
	conclusion := ghpub.Conclusion(rep, app.FailOn, nil)
	d.mu.Lock()
	defer d.mu.Unlock()
	fmt.Fprintf(d.out, "<!-- docreview serve --dry-run: %s/%s#%d, delivery %s; would publish a review, a summary comment and a check run concluding %s -->\n",
		job.Owner, job.Repo, job.PR, job.DeliveryID, conclusion)
	if err := report.Markdown(d.out, rep, report.Options{}); err != nil {
		return fmt.Errorf("dry run: render: %w", err)
	}
	fmt.Fprintln(d.out)
	d.logger.Info("dry run: reviewed", "owner", job.Owner, "repo", job.Repo, "pr", job.PR, "head", head,
		"contradicted", rep.Stats.Contradicted, "incomplete", rep.Stats.Incomplete, "conclusion", conclusion)
	return nil
}

// serveDryRun runs 'docreview serve --dry-run': the real webhook handler
// and queue (SQLite in the data dir, or a temporary one), with a
// [dryRunner] reviewing from the local clone repo.
func serveDryRun(ctx context.Context, s serveSettings, repo string, cfg config.Config, stdout io.Writer, logger *slog.Logger, getenv func(string) string) error {
	s.secret = []byte(getenv("DOCREVIEW_WEBHOOK_SECRET"))
	if len(s.secret) == 0 {
		s.secret = []byte(dryRunSecret)
	}
	clone, err := gitrepo.Open(ctx, repo)
	if err != nil {
		return &review.UsageError{Msg: fmt.Sprintf("--repo: %v", err)}
	}
	if s.dataDir == "" {
		tmp, err := os.MkdirTemp("", "docreview-dry-run-")
		if err != nil {
			return fmt.Errorf("data dir: %w", err)
		}
		defer os.RemoveAll(tmp)
		s.dataDir = tmp
	}
	if err := os.MkdirAll(s.dataDir, 0o750); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	if s.workers < 1 || s.perInstall < 1 {
		return &review.UsageError{Msg: "--workers and --per-installation must be at least 1"}
	}
	d := &dryRunner{repo: clone, out: stdout, logger: logger}
	indexDir := filepath.Join(s.dataDir, "index")
	appRun := appReview(cfg, getenv, logger)
	d.review = func(ctx context.Context, base, head string) (review.Report, error) {
		return appRun(ctx, repo, base, head, indexDir)
	}
	logger.Info("dry run: no App; reviews come from the local clone and are printed, not posted", "repo", repo,
		"secret_from_env", getenv("DOCREVIEW_WEBHOOK_SECRET") != "")
	return serveQueue(ctx, s, d, prometheus.NewRegistry(), logger)
}

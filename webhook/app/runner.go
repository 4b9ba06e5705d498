package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v62/github"

	"github.com/docreview/docreview/review"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/webhook"
)

// FailOn is the check run's failure threshold for every review the App
// publishes. It is not read from the pull request's .docreview.yml, which
// the pull request itself can change.
const FailOn = review.FailContradicted

// Rate-limit waiting: a job starts at once while more than rateFloor
// core requests are left, else it waits for the reset, at most
// maxRateWait.
const (
	rateFloor   = 100
	maxRateWait = 10 * time.Minute
)

// Runner runs review jobs: it checks the pull request, fetches its commits
// into the repository's mirror, reviews them and publishes the report. It
// implements webhook.Runner. Tokens, GitHubURL, GitURL, Mirrors and Review
// are required.
type Runner struct {
	// Tokens gives the installation tokens used for the API and git.
	Tokens TokenSource
	// GitHubURL is the REST API root, e.g. https://api.github.com/,
	// https://HOST/api/v3/ or a test server.
	GitHubURL string
	// GitURL is the clone root, e.g. https://github.com/: a repository's
	// URL is GitURL + "owner/repo.git", and the web address of blob links
	// is GitURL without its trailing slash.
	GitURL string
	// Mirrors is the per-repository bare mirror cache.
	Mirrors *Mirrors
	// Review runs the engine on repoDir (a worktree of the mirror with
	// nothing checked out but the docreview configuration) from base (the
	// merge base) to head, keeping the repository's index in indexDir.
	Review func(ctx context.Context, repoDir, base, head, indexDir string) (review.Report, error)
	// Dependencies, when set, downloads the modules the head's go.mod
	// requires (gomod is that file) into the module cache before the
	// review, so that code blocks using a dependency are judged against
	// it; nil downloads nothing. A failure (a private module, no network)
	// is logged and the review goes on without them.
	Dependencies func(ctx context.Context, gomod []byte) error
	// Publish publishes a report; nil means review/github.Publish.
	Publish func(ctx context.Context, opt ghpub.Options, rep review.Report) (ghpub.Result, error)
	// HTTPClient carries the API requests; nil means http.DefaultClient's
	// transport. The installation token is added per request.
	HTTPClient *http.Client
	// Logger receives one record per job outcome; nil discards them.
	Logger *slog.Logger
	// Metrics, when set, counts API requests, records the rate limit and
	// the model's tokens (see NewMetrics).
	Metrics *Metrics

	// now and sleep are replaced by tests.
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

var _ webhook.Runner = (*Runner)(nil)

// Run reviews job's pull request and publishes the report, with the
// installation's token:
//
//   - it gets the pull request from the API and does nothing (returning
//     nil) when it is closed or merged; when its head is no longer
//     job.HeadSHA it returns a *webhook.SupersededError naming the API's
//     head, which the queue then reviews; an empty HeadSHA means the
//     current head;
//   - it waits, before anything else, while the core rate limit is nearly
//     spent: until the reset, at most ten minutes, or until ctx ends;
//   - it fetches the pull request's base tip (the API's, else job.BaseSHA)
//     and head into the mirror and computes their merge base, the commit
//     GitHub diffs the pull request against;
//   - it reviews merge base..head in a no-checkout worktree of the mirror,
//     with the repository's shared index directory, and publishes with
//     every reporter (review, summary, check run), FailOn "contradicted"
//     and the dismissals of .docreview/dismissed.yml at the base;
//   - it asks the API for the head again before publishing and after: a
//     head that moved meanwhile is returned as a *webhook.SupersededError,
//     so that the newest head's review is the last one published.
//
// A repository over the mirror size limit is not reviewed: a summary
// comment and a neutral check run say it was skipped, and Run returns nil.
// Errors name the repository and pull request.
func (r *Runner) Run(ctx context.Context, job webhook.Job) error {
	log := r.logger().With("delivery", job.DeliveryID, "repo", job.Owner+"/"+job.Repo, "pr", job.PR, "installation", job.InstallationID)
	if err := r.run(ctx, job, log); err != nil {
		return fmt.Errorf("%s/%s#%d: %w", job.Owner, job.Repo, job.PR, err)
	}
	return nil
}

func (r *Runner) run(ctx context.Context, job webhook.Job, log *slog.Logger) error {
	switch {
	case r.Tokens == nil || r.Mirrors == nil || r.Review == nil:
		return errors.New("runner: Tokens, Mirrors and Review are required")
	case job.Owner == "" || job.Repo == "" || job.PR <= 0:
		return fmt.Errorf("invalid job: want an owner, a repository and a pull request number")
	case job.HeadSHA != "" && !isSHA(job.HeadSHA):
		return fmt.Errorf("invalid job: head %q is not a commit SHA", job.HeadSHA)
	}
	token, err := r.Tokens.Token(ctx, job.InstallationID)
	if err != nil {
		return fmt.Errorf("installation token: %w", err)
	}
	// The rate check has its own client: go-github remembers an exhausted
	// limit and would refuse requests until its reset, even after a wait
	// cut short at maxRateWait.
	probe, err := r.client(token)
	if err != nil {
		return err
	}
	if err := r.waitRateLimit(ctx, probe, job.InstallationID, log); err != nil {
		return err
	}
	client, err := r.client(token)
	if err != nil {
		return err
	}

	pr, _, err := client.PullRequests.Get(ctx, job.Owner, job.Repo, job.PR)
	if err != nil {
		return fmt.Errorf("get the pull request: %w", err)
	}
	head, base := pr.GetHead().GetSHA(), pr.GetBase().GetSHA()
	switch {
	case pr.GetState() != "open" || pr.GetMerged():
		log.Info("skipped: pull request is not open", "state", pr.GetState(), "merged", pr.GetMerged())
		return nil
	case job.HeadSHA != "" && !strings.EqualFold(head, job.HeadSHA) && isSHA(head):
		log.Info("skipped: superseded by the pull request's head", "job_head", short(job.HeadSHA), "head", short(head))
		return &webhook.SupersededError{Head: head, Base: base}
	case !isSHA(head):
		return fmt.Errorf("the API gave head %q, not a commit SHA", head)
	}
	if !isSHA(base) {
		base = job.BaseSHA
	}
	if !isSHA(base) {
		return fmt.Errorf("no base commit: the API gave %q and the job %q", pr.GetBase().GetSHA(), job.BaseSHA)
	}

	start := time.Now()
	rep, dismissed, err := r.review(ctx, job, token, base, head, log)
	if errors.Is(err, ErrRepoTooLarge) {
		return r.publishTooLarge(ctx, client, job, base, head, err, log)
	}
	if err != nil {
		return err
	}
	r.Metrics.reviewed(rep)
	log.Info("reviewed", "base", short(rep.Base), "head", short(head), "claims", rep.Stats.Claims,
		"contradicted", rep.Stats.Contradicted, "incomplete", rep.Stats.Incomplete, "ms", time.Since(start).Milliseconds())

	// A review takes a while: a push during it makes this head an old
	// one, whose summary must not land after the new head's. The queue
	// reviews the new head instead (see [webhook.SupersededError]).
	if moved, err := r.headMoved(ctx, client, job, head, base); err != nil {
		return fmt.Errorf("get the pull request before publishing: %w", err)
	} else if moved != nil {
		log.Info("not published: the pull request's head moved during the review", "head", short(head), "now", short(moved.Head))
		return moved
	}

	res, err := r.publish(ctx, ghpub.Options{
		Client: client, Owner: job.Owner, Repo: job.Repo, PR: job.PR, HeadSHA: head, ServerURL: r.serverURL(),
		Reporters: ghpub.Reporters{Review: true, Check: true, Summary: true},
		FailOn:    FailOn, Dismissed: dismissed, Logger: log,
	}, rep)
	r.Metrics.published(res.Requests)
	if err != nil {
		return fmt.Errorf("publish the review of %s: %w", short(head), err)
	}
	log.Info("published", "head", short(head), "posted", res.Posted, "kept", res.Kept, "resolved", res.Resolved,
		"conclusion", res.Conclusion, "requests", res.Requests)
	// Publishing takes a while too (retries wait): the new head's review
	// may have published meanwhile, and this summary then landed after
	// its. Asking again after publishing closes the gap: a head pushed
	// after this answer has its review publish after this one.
	if moved, err := r.headMoved(ctx, client, job, head, base); err != nil {
		return fmt.Errorf("get the pull request after publishing: %w", err)
	} else if moved != nil {
		log.Info("published, but the pull request's head moved meanwhile: its review runs again", "head", short(head), "now", short(moved.Head))
		return moved
	}
	return nil
}

// headMoved asks the API for the pull request's head again and returns a
// *webhook.SupersededError naming it when it is no longer head, nil when
// it still is (or the API gave no commit SHA).
func (r *Runner) headMoved(ctx context.Context, client *gh.Client, job webhook.Job, head, base string) (*webhook.SupersededError, error) {
	now, _, err := client.PullRequests.Get(ctx, job.Owner, job.Repo, job.PR)
	if err != nil {
		return nil, err
	}
	h := now.GetHead().GetSHA()
	if !isSHA(h) || strings.EqualFold(h, head) {
		return nil, nil
	}
	nb := now.GetBase().GetSHA()
	if !isSHA(nb) {
		nb = base
	}
	return &webhook.SupersededError{Head: h, Base: nb}, nil
}

// review fetches base and head into the mirror and reviews the merge base
// against head, holding the repository's lock (the mirror and the index
// directory are the repository's, shared with other jobs).
func (r *Runner) review(ctx context.Context, job webhook.Job, token, base, head string, log *slog.Logger) (review.Report, []ghpub.Dismissal, error) {
	repoURL := strings.TrimRight(r.GitURL, "/") + "/" + url.PathEscape(job.Owner) + "/" + url.PathEscape(job.Repo) + ".git"
	start := time.Now()
	mr, err := r.Mirrors.Fetch(ctx, repoURL, token, base, head)
	if err != nil {
		return review.Report{}, nil, err
	}
	defer mr.Release()
	log.Info("fetched", "base", short(base), "head", short(head), "merge_base", short(mr.MergeBase),
		"mirror_bytes", mr.Size, "ms", time.Since(start).Milliseconds())

	// Dismissals are read from the base branch, like the configuration:
	// a pull request (a fork's above all) never vouches for itself.
	var dismissed []ghpub.Dismissal
	if data, ok, err := mr.ReadFile(ctx, base, ghpub.DismissedPath); err != nil {
		return review.Report{}, nil, err
	} else if ok {
		if dismissed, err = ghpub.LoadDismissed(data); err != nil {
			// A broken file must not stop the review: publish without it.
			log.Warn("ignoring "+ghpub.DismissedPath, "err", err)
			dismissed = nil
		}
	}

	if r.Dependencies != nil {
		r.downloadDependencies(ctx, mr, head, log)
	}

	dir, remove, err := mr.Worktree(ctx, head)
	if err != nil {
		return review.Report{}, nil, err
	}
	defer func() {
		if err := remove(); err != nil {
			log.Warn("remove the review worktree", "err", err)
		}
	}()
	rep, err := r.Review(ctx, dir, mr.MergeBase, head, mr.IndexDir)
	if err != nil {
		return review.Report{}, nil, fmt.Errorf("review %s..%s: %w", short(mr.MergeBase), short(head), err)
	}
	return rep, dismissed, nil
}

// downloadDependencies gives the head's go.mod, when it has one, to
// r.Dependencies; a failure is a warning, never the review's end.
func (r *Runner) downloadDependencies(ctx context.Context, mr *Mirror, head string, log *slog.Logger) {
	gomod, ok, err := mr.ReadFile(ctx, head, "go.mod")
	if err != nil {
		log.Warn("dependencies not downloaded: read go.mod", "err", err)
		return
	}
	if !ok {
		return
	}
	start := time.Now()
	if err := r.Dependencies(ctx, gomod); err != nil {
		log.Warn("dependencies not downloaded; code blocks that use them are not judged", "err", err)
		return
	}
	log.Info("dependencies downloaded", "ms", time.Since(start).Milliseconds())
}

// publishTooLarge publishes the summary comment and a neutral check run
// saying the repository was not reviewed.
func (r *Runner) publishTooLarge(ctx context.Context, client *gh.Client, job webhook.Job, base, head string, cause error, log *slog.Logger) error {
	msg := "skipped: repository larger than the size limit"
	var se *SizeError
	if errors.As(cause, &se) {
		msg = "skipped: repository larger than " + formatBytes(se.Limit)
	}
	log.Warn(msg, "err", cause)
	rep := review.Report{Base: base, Head: head, Notes: []review.Note{{Message: msg + "; docreview did not review this pull request"}}}
	if _, err := r.publish(ctx, ghpub.Options{
		Client: client, Owner: job.Owner, Repo: job.Repo, PR: job.PR, HeadSHA: head, ServerURL: r.serverURL(),
		Reporters: ghpub.Reporters{Check: true, Summary: true},
		FailOn:    FailOn, Logger: log,
	}, rep); err != nil {
		return fmt.Errorf("publish that the repository is too large: %w", err)
	}
	return nil
}

// waitRateLimit waits for the core rate limit's reset while fewer than
// rateFloor requests are left, at most maxRateWait. GitHub Enterprise
// Server with rate limiting off answers 404: no wait.
func (r *Runner) waitRateLimit(ctx context.Context, client *gh.Client, installation int64, log *slog.Logger) error {
	lim, resp, err := client.RateLimit.Get(ctx)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return nil
		}
		return fmt.Errorf("read the rate limit: %w", err)
	}
	core := lim.GetCore()
	if core != nil {
		r.Metrics.rateLimit(installation, core.Remaining)
	}
	if core == nil || core.Remaining >= rateFloor {
		return nil
	}
	wait := min(core.Reset.Sub(r.clock()()), maxRateWait)
	if wait <= 0 {
		return nil
	}
	log.Info("waiting for the rate limit", "remaining", core.Remaining, "reset", core.Reset.Time, "wait_s", int(wait.Seconds()))
	if err := r.sleeper()(ctx, wait); err != nil {
		return fmt.Errorf("waiting for the rate limit reset: %w", err)
	}
	return nil
}

// client is a go-github client for GitHubURL with the installation token.
func (r *Runner) client(token string) (*gh.Client, error) {
	base := r.GitHubURL
	if base == "" {
		base = "https://api.github.com/"
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("GitHub API URL: %w", err)
	}
	hc := r.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 2 * time.Minute}
	}
	c := gh.NewClient(hc).WithAuthToken(token)
	c.BaseURL, c.UploadURL = u, u
	return c, nil
}

func (r *Runner) publish(ctx context.Context, opt ghpub.Options, rep review.Report) (ghpub.Result, error) {
	if r.Publish != nil {
		return r.Publish(ctx, opt, rep)
	}
	return ghpub.Publish(ctx, opt, rep)
}

// serverURL is the web root blob links point at.
func (r *Runner) serverURL() string {
	if r.GitURL == "" {
		return "https://github.com"
	}
	return strings.TrimRight(r.GitURL, "/")
}

func (r *Runner) logger() *slog.Logger {
	if r.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Logger
}

func (r *Runner) clock() func() time.Time {
	if r.now != nil {
		return r.now
	}
	return time.Now
}

func (r *Runner) sleeper() func(ctx context.Context, d time.Duration) error {
	if r.sleep != nil {
		return r.sleep
	}
	return func(ctx context.Context, d time.Duration) error {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		}
	}
}

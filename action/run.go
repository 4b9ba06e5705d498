package action

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	gh "github.com/google/go-github/v62/github"

	"github.com/docreview/docreview/review"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/review/report"
)

// Reporter names, the values of action.yml's reporters input.
const (
	ReporterReview  = "review"  // inline review comments on the diff
	ReporterCheck   = "check"   // a check run with annotations
	ReporterSummary = "summary" // one summary comment, edited in place
	ReporterSARIF   = "sarif"   // a SARIF file for code scanning upload
)

// Reporters lists every reporter name.
func Reporters() []string {
	return []string{ReporterReview, ReporterCheck, ReporterSummary, ReporterSARIF}
}

// Options are the run's settings, from action.yml's inputs.
type Options struct {
	// Reporters selects the outputs; nil means review, check and summary.
	Reporters []string
	// MaxComments bounds new inline comments per run; 0 means the
	// publisher's default (30).
	MaxComments int
	// FailOn decides the check run's conclusion (and, in the caller, the
	// step's exit code: see [Outcome.Failed]).
	FailOn review.FailOn
	// SARIFPath is where the sarif reporter writes; "" means
	// docreview.sarif in RUNNER_TEMP, else in the workspace.
	SARIFPath string
	// Dismissed are committed dismissals; nil means those of
	// .docreview/dismissed.yml at the pull request's base commit.
	Dismissed []ghpub.Dismissal
}

// Runner runs the action. Review and Client are required.
type Runner struct {
	// Review runs the engine on a request (the caller's rules and judge).
	Review func(ctx context.Context, req review.Request) (review.Report, error)
	// Client talks to the REST API with the workflow's token.
	Client *gh.Client
	// Stdout receives workflow commands (annotations); nil discards them.
	Stdout io.Writer
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Outcome is what a run did.
type Outcome struct {
	Event     Event
	Base      string // the merge base reviewed against
	Report    review.Report
	Published ghpub.Result
	// ReadOnly is set when the token could not write: the findings went
	// to annotations and the job summary instead.
	ReadOnly  bool
	SARIFPath string
	// Dismissed are the committed dismissals the run applied.
	Dismissed []ghpub.Dismissal
}

// dismissedAt reads the committed dismissals at the pull request's base
// commit: like the configuration of the App, a pull request (a fork's
// above all) never dismisses its own findings by committing the file. No
// file there is no dismissal; a file that does not parse is an error
// naming it.
func dismissedAt(ctx context.Context, g gitRunner, base string) ([]ghpub.Dismissal, error) {
	if base == "" {
		return nil, nil
	}
	if _, err := g.run(ctx, "cat-file", "-e", base+":"+ghpub.DismissedPath); err != nil {
		return nil, nil // not on the base branch
	}
	data, err := g.run(ctx, "show", base+":"+ghpub.DismissedPath)
	if err != nil {
		return nil, fmt.Errorf("read %s at the base %s: %w", ghpub.DismissedPath, short(base), err)
	}
	d, err := ghpub.LoadDismissed([]byte(data + "\n"))
	if err != nil {
		return nil, fmt.Errorf("%s at the base %s: %w", ghpub.DismissedPath, short(base), err)
	}
	return d, nil
}

// Failed reports whether the review fails the step. When the publisher
// classified the findings it is exactly the check run's conclusion, so a
// finding dismissed by a reply fails neither; otherwise (no reporter, or
// publishing stopped before it read the pull request's comments) it is
// failOn with the committed dismissals (Outcome.Dismissed).
func (o Outcome) Failed(failOn review.FailOn) bool {
	if c := o.Published.Conclusion; c != "" {
		return c == "failure"
	}
	return failOn.Failed(o.Report.Verdicts, ghpub.IsDismissed(o.Dismissed))
}

// Run reviews the event's pull request and publishes the report. Findings
// are never lost: when publishing fails for a read-only token (a fork's
// pull request) they are printed as annotations and written to the job
// summary, and for any other publishing error they are too, before the
// error is returned. The outputs contradicted, incomplete, consistent,
// skipped and sarif are written to GITHUB_OUTPUT.
func (r *Runner) Run(ctx context.Context, env Env, opt Options) (Outcome, error) {
	log := r.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	stdout := r.stdout()
	reporters := opt.Reporters
	if reporters == nil {
		reporters = []string{ReporterReview, ReporterCheck, ReporterSummary}
	}
	ev, err := ReadEvent(ctx, env, r.Client.PullRequests)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Event: ev}
	if out.Base, err = mergeBase(ctx, gitRunner{dir: env.Workspace}, ev); err != nil {
		return out, fmt.Errorf("pull request #%d: %w", ev.PR, err)
	}
	if opt.Dismissed == nil {
		if opt.Dismissed, err = dismissedAt(ctx, gitRunner{dir: env.Workspace}, ev.BaseSHA); err != nil {
			return out, err
		}
	}
	out.Dismissed = opt.Dismissed
	log.Info("reviewing", "pr", ev.PR, "base", short(out.Base), "head", short(ev.HeadSHA), "fork", ev.Fork)
	if out.Report, err = r.Review(ctx, review.Request{Repo: env.Workspace, Base: out.Base, Head: ev.HeadSHA}); err != nil {
		return out, fmt.Errorf("review pull request #%d: %w", ev.PR, err)
	}

	repoURL := env.ServerURL + "/" + env.Repository
	var md bytes.Buffer
	if err := report.Markdown(&md, out.Report, report.Options{RepoURL: repoURL}); err != nil {
		return out, fmt.Errorf("render the job summary: %w", err)
	}
	var pubErr error
	if slices.ContainsFunc(reporters, func(s string) bool { return s != ReporterSARIF }) {
		out.Published, pubErr = ghpub.Publish(ctx, ghpub.Options{
			Client: r.Client, Owner: ev.Owner, Repo: ev.Repo, PR: ev.PR, HeadSHA: ev.HeadSHA, ServerURL: env.ServerURL,
			Reporters: ghpub.Reporters{
				Review:  slices.Contains(reporters, ReporterReview),
				Check:   slices.Contains(reporters, ReporterCheck),
				Summary: slices.Contains(reporters, ReporterSummary),
			},
			MaxComments: opt.MaxComments, FailOn: opt.FailOn, Dismissed: opt.Dismissed, Logger: log,
		}, out.Report)
		if pubErr != nil {
			// The findings must reach the user either way.
			out.ReadOnly = errors.Is(pubErr, ghpub.ErrReadOnly)
			if err := annotate(stdout, out.Report); err != nil {
				return out, err
			}
			if out.ReadOnly {
				log.Warn("the token cannot write to the pull request (a fork's pull request?); findings are in the annotations and the job summary", "err", pubErr)
				pubErr = nil
			}
		}
	}
	if err := appendSummary(env.StepSummary, md.String()); err != nil {
		return out, err
	}
	if slices.Contains(reporters, ReporterSARIF) {
		if out.SARIFPath, err = writeSARIF(opt.SARIFPath, env, out.Report, repoURL); err != nil {
			return out, err
		}
	}
	s := out.Report.Stats
	if err := setOutputs(env.Output, [][2]string{
		{"contradicted", strconv.Itoa(s.Contradicted)}, {"incomplete", strconv.Itoa(s.Incomplete)},
		{"consistent", strconv.Itoa(s.Consistent)}, {"skipped", strconv.Itoa(s.Skipped)},
		{"sarif", out.SARIFPath},
	}); err != nil {
		return out, err
	}
	if pubErr != nil {
		return out, fmt.Errorf("publish the review of pull request #%d: %w", ev.PR, pubErr)
	}
	return out, nil
}

// writeSARIF writes the report as SARIF for code scanning.
func writeSARIF(path string, env Env, rep review.Report, repoURL string) (string, error) {
	if path == "" {
		dir := env.RunnerTemp
		if dir == "" {
			dir = env.Workspace
		}
		path = filepath.Join(dir, "docreview.sarif")
	}
	f, err := report.ParseFormat("sarif")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := report.Render(&b, rep, f, report.Options{RepoURL: repoURL}); err != nil {
		return "", fmt.Errorf("render SARIF: %w", err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("write SARIF: %w", err)
	}
	return path, nil
}

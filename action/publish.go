package action

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	gh "github.com/google/go-github/v62/github"

	"github.com/docreview/docreview/review"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/review/report"
)

// Publish posts a report made elsewhere: the second job of the fork
// pattern, where a workflow_run job with a write token publishes what the
// pull_request job (read-only, on the fork's code) computed and uploaded.
// It runs no review and reads no code. pr is the pull request number the
// first job recorded; since that job ran the fork's workflow, nothing it
// uploaded is trusted: the pull request must exist in this repository,
// its head must be the workflow_run's head_sha (from the trusted event
// payload), and the report's Head must be that same commit.
func (r *Runner) Publish(ctx context.Context, env Env, rep review.Report, pr int, opt Options) (Outcome, error) {
	if env.EventName != "workflow_run" {
		return Outcome{}, fmt.Errorf("%w %q: docreview publish runs on workflow_run, after the job that reviewed the pull request", errUnsupportedEvent, env.EventName)
	}
	data, err := os.ReadFile(env.EventPath)
	if err != nil {
		return Outcome{}, fmt.Errorf("read the event payload (GITHUB_EVENT_PATH): %w", err)
	}
	var wr gh.WorkflowRunEvent
	if err := json.Unmarshal(data, &wr); err != nil {
		return Outcome{}, fmt.Errorf("%s: parse workflow_run event payload: %w", env.EventPath, err)
	}
	head := wr.GetWorkflowRun().GetHeadSHA()
	if head == "" {
		return Outcome{}, fmt.Errorf("%s: workflow_run payload has no head_sha", env.EventPath)
	}
	if pr < 1 {
		return Outcome{}, fmt.Errorf("no pull request number (pass --pr with the number the review job recorded)")
	}
	got, _, err := r.Client.PullRequests.Get(ctx, env.Owner(), env.Repo(), pr)
	if err != nil {
		return Outcome{}, fmt.Errorf("get pull request #%d: %w", pr, err)
	}
	ev := Event{Name: env.EventName, Owner: env.Owner(), Repo: env.Repo()}
	fill(&ev, got)
	switch {
	case ev.HeadSHA != head:
		return Outcome{}, fmt.Errorf("pull request #%d has head %s, but the workflow run reviewed %s: refusing to publish onto another pull request or an older head", pr, short(ev.HeadSHA), short(head))
	case rep.Head != head:
		return Outcome{}, fmt.Errorf("the report reviews %s, but the workflow run's head is %s", short(rep.Head), short(head))
	}
	out := Outcome{Event: ev, Base: rep.Base, Report: rep}
	out.Published, err = ghpub.Publish(ctx, ghpub.Options{
		Client: r.Client, Owner: ev.Owner, Repo: ev.Repo, PR: ev.PR, HeadSHA: ev.HeadSHA, ServerURL: env.ServerURL,
		Reporters:   ghpub.Reporters{Review: true, Check: true, Summary: true},
		MaxComments: opt.MaxComments, FailOn: opt.FailOn, Dismissed: opt.Dismissed, Logger: r.Logger,
	}, rep)
	if err != nil {
		if aerr := annotate(r.stdout(), rep); aerr != nil {
			return out, aerr
		}
		out.ReadOnly = errors.Is(err, ghpub.ErrReadOnly)
		return out, fmt.Errorf("publish the review of pull request #%d: %w", pr, err)
	}
	var md bytes.Buffer
	if err := report.Markdown(&md, rep, report.Options{RepoURL: env.ServerURL + "/" + env.Repository}); err != nil {
		return out, fmt.Errorf("render the job summary: %w", err)
	}
	return out, appendSummary(env.StepSummary, md.String())
}

// stdout is where workflow commands go.
func (r *Runner) stdout() io.Writer {
	if r.Stdout == nil {
		return io.Discard
	}
	return r.Stdout
}

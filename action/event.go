package action

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v62/github"
)

// Event is what docreview needs of the triggering event: the pull request
// and the two commits of its diff as GitHub shows it.
type Event struct {
	// Name is the event name (pull_request, pull_request_target,
	// workflow_dispatch).
	Name string
	// Owner and Repo name the base repository.
	Owner, Repo string
	// PR is the pull request's number.
	PR int
	// BaseSHA is the base branch's tip when the event fired; HeadSHA the
	// pull request's head commit (not the merge commit GITHUB_SHA names).
	BaseSHA, HeadSHA string
	// Fork is set when the head lives in another repository: the token is
	// then read-only under pull_request.
	Fork bool
	// Draft is set for draft pull requests.
	Draft bool
}

// PullGetter fetches a pull request; *gh.PullRequestsService implements it.
type PullGetter interface {
	Get(ctx context.Context, owner, repo string, number int) (*gh.PullRequest, *gh.Response, error)
}

// ReadEvent reads the event payload at env.EventPath. pull_request and
// pull_request_target carry the pull request; workflow_dispatch names it
// in an input called "pr" (or "pull-request", "pr-number"), and its commits
// are then fetched with pulls. Any other event, a payload without a pull
// request, or an unreadable file is an error saying what and where.
func ReadEvent(ctx context.Context, env Env, pulls PullGetter) (Event, error) {
	data, err := os.ReadFile(env.EventPath)
	if err != nil {
		return Event{}, fmt.Errorf("read the event payload (GITHUB_EVENT_PATH): %w", err)
	}
	ev := Event{Name: env.EventName, Owner: env.Owner(), Repo: env.Repo()}
	switch env.EventName {
	case "pull_request", "pull_request_target":
		var p gh.PullRequestEvent
		if err := json.Unmarshal(data, &p); err != nil {
			return Event{}, fmt.Errorf("%s: parse %s event payload: %w", env.EventPath, env.EventName, err)
		}
		if p.PullRequest == nil {
			return Event{}, fmt.Errorf("%s: %s event payload has no pull_request", env.EventPath, env.EventName)
		}
		fill(&ev, p.PullRequest)
	case "workflow_dispatch":
		var p struct {
			Inputs map[string]any `json:"inputs"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			return Event{}, fmt.Errorf("%s: parse workflow_dispatch event payload: %w", env.EventPath, err)
		}
		n, err := dispatchPR(p.Inputs)
		if err != nil {
			return Event{}, fmt.Errorf("%s: %w", env.EventPath, err)
		}
		pr, _, err := pulls.Get(ctx, ev.Owner, ev.Repo, n)
		if err != nil {
			return Event{}, fmt.Errorf("get pull request #%d: %w", n, err)
		}
		fill(&ev, pr)
	default:
		return Event{}, fmt.Errorf("%w %q: docreview reviews pull_request, pull_request_target and workflow_dispatch (with a pr input)", errUnsupportedEvent, env.EventName)
	}
	if ev.PR < 1 || ev.HeadSHA == "" || ev.BaseSHA == "" {
		return Event{}, fmt.Errorf("%s: the pull request lacks its number, head or base commit", env.EventPath)
	}
	return ev, nil
}

// fill copies what Event needs from a pull request.
func fill(ev *Event, pr *gh.PullRequest) {
	ev.PR = pr.GetNumber()
	ev.HeadSHA = pr.GetHead().GetSHA()
	ev.BaseSHA = pr.GetBase().GetSHA()
	ev.Draft = pr.GetDraft()
	head, base := pr.GetHead().GetRepo().GetFullName(), pr.GetBase().GetRepo().GetFullName()
	ev.Fork = head != "" && base != "" && !strings.EqualFold(head, base)
}

// dispatchPR reads the pull request number of a workflow_dispatch run.
func dispatchPR(inputs map[string]any) (int, error) {
	for _, k := range []string{"pr", "pull-request", "pr-number", "pull_request"} {
		v, ok := inputs[k]
		if !ok {
			continue
		}
		s := strings.TrimPrefix(strings.TrimSpace(fmt.Sprint(v)), "#")
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("workflow_dispatch input %s: %q is not a pull request number", k, fmt.Sprint(v))
		}
		return n, nil
	}
	return 0, fmt.Errorf("workflow_dispatch needs an input named pr with the pull request's number")
}

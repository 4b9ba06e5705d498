package action

import (
	"errors"
	"fmt"
	"strings"
)

// Env is the part of the Actions environment docreview reads.
type Env struct {
	// EventName and EventPath describe the triggering event
	// (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH).
	EventName, EventPath string
	// Repository is "owner/repo" (GITHUB_REPOSITORY).
	Repository string
	// APIURL is the REST API root: https://api.github.com, or
	// https://HOST/api/v3 on GitHub Enterprise Server (GITHUB_API_URL).
	APIURL string
	// ServerURL is the web root for links (GITHUB_SERVER_URL).
	ServerURL string
	// Workspace is the checkout (GITHUB_WORKSPACE).
	Workspace string
	// Output and StepSummary are the step's output and summary files
	// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY); "" when unset.
	Output, StepSummary string
	// Token authenticates API calls (GITHUB_TOKEN, which action.yml sets
	// from its github-token input).
	Token string
	// RunnerTemp is the runner's temporary directory (RUNNER_TEMP).
	RunnerTemp string
}

// ReadEnv reads the environment once. GITHUB_EVENT_NAME,
// GITHUB_EVENT_PATH, GITHUB_REPOSITORY and GITHUB_TOKEN are required;
// GITHUB_API_URL defaults to https://api.github.com, GITHUB_SERVER_URL to
// https://github.com and GITHUB_WORKSPACE to ".". The error lists every
// missing variable.
func ReadEnv(getenv func(string) string) (Env, error) {
	e := Env{
		EventName:   strings.TrimSpace(getenv("GITHUB_EVENT_NAME")),
		EventPath:   getenv("GITHUB_EVENT_PATH"),
		Repository:  strings.TrimSpace(getenv("GITHUB_REPOSITORY")),
		APIURL:      strings.TrimRight(strings.TrimSpace(getenv("GITHUB_API_URL")), "/"),
		ServerURL:   strings.TrimRight(strings.TrimSpace(getenv("GITHUB_SERVER_URL")), "/"),
		Workspace:   getenv("GITHUB_WORKSPACE"),
		Output:      getenv("GITHUB_OUTPUT"),
		StepSummary: getenv("GITHUB_STEP_SUMMARY"),
		Token:       strings.TrimSpace(getenv("GITHUB_TOKEN")),
		RunnerTemp:  getenv("RUNNER_TEMP"),
	}
	var missing []string
	for _, v := range []struct{ name, val string }{
		{"GITHUB_EVENT_NAME", e.EventName}, {"GITHUB_EVENT_PATH", e.EventPath},
		{"GITHUB_REPOSITORY", e.Repository}, {"GITHUB_TOKEN", e.Token},
	} {
		if v.val == "" {
			missing = append(missing, v.name)
		}
	}
	if len(missing) > 0 {
		return e, fmt.Errorf("not running in GitHub Actions, or the workflow does not pass them: %s not set (action.yml passes the github-token input as GITHUB_TOKEN)", strings.Join(missing, ", "))
	}
	if _, _, ok := strings.Cut(e.Repository, "/"); !ok {
		return e, fmt.Errorf("GITHUB_REPOSITORY %q is not owner/repo", e.Repository)
	}
	if e.APIURL == "" {
		e.APIURL = "https://api.github.com"
	}
	if e.ServerURL == "" {
		e.ServerURL = "https://github.com"
	}
	if e.Workspace == "" {
		e.Workspace = "."
	}
	return e, nil
}

// Owner and Repo split Repository.
func (e Env) Owner() string { o, _, _ := strings.Cut(e.Repository, "/"); return o }

// Repo is the repository's name without its owner.
func (e Env) Repo() string { _, r, _ := strings.Cut(e.Repository, "/"); return r }

// errUnsupportedEvent is returned for events the action does not review.
var errUnsupportedEvent = errors.New("unsupported event")

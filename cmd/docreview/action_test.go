package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/docreview/docreview/review"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/review/github/githubtest"
	"github.com/docreview/docreview/review/report"
)

// actionWorkspace builds the bundled example as the "origin" of a pull
// request (head: its last commit; base: the one before) and a shallow
// clone of it as the Actions checkout, and writes a real pull_request
// payload with those commits. It returns the checkout, the event file and
// the head commit.
func actionWorkspace(t *testing.T, payloadFile string) (workspace, event, head string) {
	t.Helper()
	origin := buildExample(t)
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir, "-c", "protocol.file.allow=always"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	head = git(origin, "rev-parse", "HEAD")
	base := git(origin, "rev-parse", "HEAD~1")
	workspace = filepath.Join(t.TempDir(), "checkout")
	git(filepath.Dir(workspace), "clone", "-q", "--depth=1", "file://"+origin, workspace)

	data, err := os.ReadFile(filepath.Join("..", "..", "action", "testdata", "events", payloadFile))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	pr := p["pull_request"].(map[string]any)
	pr["base"].(map[string]any)["sha"] = base
	pr["head"].(map[string]any)["sha"] = head
	if data, err = json.Marshal(p); err != nil {
		t.Fatal(err)
	}
	event = filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return workspace, event, head
}

// actionEnv is the Actions environment of a run against apiURL.
func actionEnv(t *testing.T, workspace, event, apiURL string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	return map[string]string{
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "Codertocat/Hello-World",
		"GITHUB_API_URL": apiURL, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_WORKSPACE": workspace,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
		"GITHUB_TOKEN": githubtest.TestToken, "RUNNER_TEMP": dir, "HOME": dir,
	}
}

// TestActionEndToEnd drives 'docreview action' with a real pull_request
// payload (from @octokit/webhooks-examples, its commits pointed at the
// bundled example) in a shallow checkout, against Prism serving GitHub's
// OpenAPI description: every request must satisfy the contract, and the
// outputs and the step summary must report the findings.
func TestActionEndToEnd(t *testing.T) {
	p := githubtest.StartPrism(t)
	target, err := url.Parse(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: p.Transport(nil),
	})
	t.Cleanup(proxy.Close)
	workspace, event, head := actionWorkspace(t, "pull_request.opened.json")
	env := actionEnv(t, workspace, event, proxy.URL)
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"action", "--reporters", "review,check,summary,sarif"}, nil, &stdout, &stderr,
		func(k string) string { return env[k] })
	if code != exitFindings {
		t.Fatalf("exit %d, want %d (the example has contradicted findings)\nstderr:\n%s", code, exitFindings, stderr.String())
	}
	p.Check(t)
	var calls []string
	for _, e := range p.Exchanges() {
		path, _, _ := strings.Cut(e.Path, "?")
		calls = append(calls, e.Method+" "+path)
	}
	for _, want := range []string{
		"GET /repos/Codertocat/Hello-World/pulls/2/files",
		"GET /repos/Codertocat/Hello-World/pulls/2/comments",
		"GET /repos/Codertocat/Hello-World/issues/2/comments",
		"POST /repos/Codertocat/Hello-World/issues/2/comments",
		"POST /repos/Codertocat/Hello-World/check-runs",
	} {
		if !slices.Contains(calls, want) {
			t.Errorf("no request %s; requests:\n%s", want, strings.Join(calls, "\n"))
		}
	}
	t.Logf("docreview action made %d API requests: %s", len(calls), strings.Join(calls, ", "))

	out, err := os.ReadFile(env["GITHUB_OUTPUT"])
	if err != nil {
		t.Fatal(err)
	}
	rulesOnly, _, _ := reviewJSON(t, "--repo", workspace, "--base", head+"~1", "--head", head, "--fail-on", "never")
	for _, want := range []string{
		"contradicted=" + strconv.Itoa(rulesOnly.Stats.Contradicted), "incomplete=" + strconv.Itoa(rulesOnly.Stats.Incomplete),
		"consistent=" + strconv.Itoa(rulesOnly.Stats.Consistent), "sarif=" + filepath.Join(env["RUNNER_TEMP"], "docreview.sarif"),
	} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}
	summary, err := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(summary), "## docreview") || !strings.Contains(strings.ToLower(string(summary)), "contradicted") {
		t.Errorf("step summary:\n%s", summary)
	}
	if _, err := os.Stat(filepath.Join(env["RUNNER_TEMP"], "docreview.sarif")); err != nil {
		t.Errorf("sarif file: %v", err)
	}
}

// TestActionReadOnlyToken checks the fork fallback: when every write gets
// 403, the findings come out as workflow-command annotations and in the
// step summary, and the step still fails on them.
func TestActionReadOnlyToken(t *testing.T) {
	var (
		mu     sync.Mutex
		writes int
	)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodGet {
			mu.Lock()
			writes++
			mu.Unlock()
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest"}`))
			return
		}
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(api.Close)
	workspace, event, _ := actionWorkspace(t, "pull_request.opened.json")
	env := actionEnv(t, workspace, event, api.URL)
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"action"}, nil, &stdout, &stderr, func(k string) string { return env[k] })
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\nstderr:\n%s", code, exitFindings, stderr.String())
	}
	if writes == 0 {
		t.Error("no write was attempted")
	}
	if !strings.Contains(stdout.String(), "::error file=") {
		t.Errorf("no error annotations on stdout:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "cannot write") {
		t.Errorf("stderr does not explain the fallback:\n%s", stderr.String())
	}
	summary, _ := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
	if !strings.Contains(string(summary), "## docreview") {
		t.Errorf("no step summary:\n%s", summary)
	}
}

// TestActionDismissedFindingsPassTheStep: the step's exit code and the
// check run's conclusion are one decision. With every finding of the
// example dismissed in .docreview/dismissed.yml on the base branch the
// step passes, as the check run does; with one contradicted finding left
// it fails; the same file in the pull request's working tree counts for
// nothing.
func TestActionDismissedFindingsPassTheStep(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest"}`))
			return
		}
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(api.Close)
	workspace, event, head := actionWorkspace(t, "pull_request.opened.json")
	{
		// The first run fetches the base into the shallow checkout.
		env := actionEnv(t, workspace, event, api.URL)
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), []string{"action"}, nil, &stdout, &stderr, func(k string) string { return env[k] }); code != exitFindings {
			t.Fatalf("no dismissals: exit %d, want %d\nstderr:\n%s", code, exitFindings, stderr.String())
		}
	}
	rep, _, stderr := reviewJSON(t, "--repo", workspace, "--base", head+"~1", "--head", head, "--fail-on", "never")
	var fps []string
	keep := ""
	for _, v := range rep.Verdicts {
		if v.Label != review.Contradicted && v.Label != review.Incomplete {
			continue
		}
		fp := ghpub.Fingerprint(v)
		if keep == "" && v.Label == review.Contradicted {
			keep = fp
		}
		if !slices.Contains(fps, fp) {
			fps = append(fps, fp)
		}
	}
	if keep == "" {
		t.Fatalf("the example has no contradicted finding\n%s", stderr)
	}
	for _, tt := range []struct {
		name    string
		dismiss func(fp string) bool
		want    int
	}{
		{"all dismissed", func(string) bool { return true }, 0},
		{"one contradicted left", func(fp string) bool { return fp != keep }, exitFindings},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var yml strings.Builder
			for _, fp := range fps {
				if tt.dismiss(fp) {
					yml.WriteString("- fingerprint: " + fp + "\n  reason: accepted for the test\n")
				}
			}
			// The dismissals are committed on the base branch: the
			// pull request's base commit is a new commit of origin's
			// main, on top of the fork point.
			origin := strings.TrimPrefix(git(t, workspace, "remote", "get-url", "origin"), "file://")
			branch := "base-" + strings.ReplaceAll(tt.name, " ", "-")
			git(t, origin, "branch", branch, head+"~1")
			wt := filepath.Join(t.TempDir(), "wt")
			git(t, origin, "worktree", "add", "-q", wt, branch)
			if err := os.MkdirAll(filepath.Join(wt, ".docreview"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(wt, ".docreview", "dismissed.yml"), []byte(yml.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, wt, "add", "-A")
			git(t, wt, "-c", "user.name=m", "-c", "user.email=m@example.com", "commit", "-qm", "dismiss")
			base := git(t, wt, "rev-parse", "HEAD")
			ev := withBase(t, event, base)
			env := actionEnv(t, workspace, ev, api.URL)
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), []string{"action"}, nil, &stdout, &stderr, func(k string) string { return env[k] })
			if code != tt.want {
				t.Errorf("exit %d, want %d\nstderr:\n%s", code, tt.want, stderr.String())
			}
		})
	}
	// The same dismissals in the working tree (a pull request adding the
	// file, or a fork's artifact) dismiss nothing.
	var yml strings.Builder
	for _, fp := range fps {
		yml.WriteString("- fingerprint: " + fp + "\n  reason: the pull request vouches for itself\n")
	}
	if err := os.MkdirAll(filepath.Join(workspace, ".docreview"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(workspace, ".docreview", "dismissed.yml"), []byte(yml.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := actionEnv(t, workspace, event, api.URL)
	var stdout, stderr2 bytes.Buffer
	if code := run(t.Context(), []string{"action"}, nil, &stdout, &stderr2, func(k string) string { return env[k] }); code != exitFindings {
		t.Errorf("dismissals in the working tree: exit %d, want %d (they must not count)\nstderr:\n%s", code, exitFindings, stderr2.String())
	}
}

// withBase writes a copy of the event file with the pull request's base
// commit set to base.
func withBase(t *testing.T, event, base string) string {
	t.Helper()
	data, err := os.ReadFile(event)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	p["pull_request"].(map[string]any)["base"].(map[string]any)["sha"] = base
	if data, err = json.Marshal(p); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestActionBadEnvironment(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"action"}, nil, &stdout, &stderr, func(string) string { return "" })
	if code != exitError || !strings.Contains(stderr.String(), "GITHUB_EVENT_NAME") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	code = run(t.Context(), []string{"action", "--reporters", "review,tweet"}, nil, &stdout, &stderr, func(k string) string {
		return map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "x", "GITHUB_REPOSITORY": "o/r", "GITHUB_TOKEN": "t"}[k]
	})
	if code != exitError || !strings.Contains(stderr.String(), `unknown reporter "tweet"`) {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// workflowRunEvent writes the real workflow_run payload with its head_sha
// replaced by head.
func workflowRunEvent(t *testing.T, head string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "action", "testdata", "events", "workflow_run.completed.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	p["workflow_run"].(map[string]any)["head_sha"] = head
	if data, err = json.Marshal(p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPublishForkPattern runs the second job of the fork pattern: a report
// made elsewhere is published on workflow_run, against Prism. Prism's pull
// request example has head 6dcb09b…; a report or run of another head is
// refused before anything is written.
func TestPublishForkPattern(t *testing.T) {
	p := githubtest.StartPrism(t)
	target, err := url.Parse(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: p.Transport(nil),
	})
	t.Cleanup(proxy.Close)
	const prismHead = "6dcb09b5b57875f334f61aebed695e2e4193db5e"

	rep, code, stderr := reviewJSON(t, "--repo", buildExample(t), "--base", "HEAD~1", "--fail-on", "never")
	if code != exitOK || rep.Stats.Contradicted == 0 {
		t.Fatalf("review of the example: exit %d, %+v\n%s", code, rep.Stats, stderr)
	}
	writeReport := func(head string) string {
		rep.Head = head
		var b bytes.Buffer
		if err := report.JSON(&b, rep); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "report.json")
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, runHead, reportHead string
		wantCode                  int
		wantErr                   string
	}{
		{"matching heads", prismHead, prismHead, exitFindings, ""},
		{"run of another head", strings.Repeat("c", 40), prismHead, exitError, "refusing to publish"},
		{"report of another head", prismHead, strings.Repeat("d", 40), exitError, "the report reviews"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := actionEnv(t, t.TempDir(), workflowRunEvent(t, tt.runHead), proxy.URL)
			env["GITHUB_EVENT_NAME"] = "workflow_run"
			before := len(p.Exchanges())
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), []string{"publish", "--report", writeReport(tt.reportHead), "--pr", "1"}, nil, &stdout, &stderr,
				func(k string) string { return env[k] })
			if code != tt.wantCode || !strings.Contains(stderr.String(), tt.wantErr) {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			writes := 0
			for _, e := range p.Exchanges()[before:] {
				if e.Method != http.MethodGet {
					writes++
				}
			}
			if tt.wantErr != "" && writes > 0 {
				t.Errorf("%d writes after refusing", writes)
			}
			if tt.wantErr == "" && writes == 0 {
				t.Error("nothing was published")
			}
		})
	}
	p.Check(t)
}

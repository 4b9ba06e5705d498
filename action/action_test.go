package action

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/review/github/githubtest"
)

func TestReadEnv(t *testing.T) {
	full := map[string]string{
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "/tmp/e.json", "GITHUB_REPOSITORY": "o/r",
		"GITHUB_TOKEN": "t", "GITHUB_API_URL": "https://ghe.example.com/api/v3/", "RUNNER_TEMP": "/tmp/runner",
	}
	env, err := ReadEnv(func(k string) string { return full[k] })
	if err != nil {
		t.Fatal(err)
	}
	if env.APIURL != "https://ghe.example.com/api/v3" || env.ServerURL != "https://github.com" || env.Workspace != "." ||
		env.Owner() != "o" || env.Repo() != "r" || env.RunnerTemp != "/tmp/runner" {
		t.Errorf("env = %+v", env)
	}
	_, err = ReadEnv(func(k string) string {
		if k == "GITHUB_TOKEN" || k == "GITHUB_EVENT_PATH" {
			return ""
		}
		return full[k]
	})
	if err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH, GITHUB_TOKEN") {
		t.Errorf("missing variables: error %v, want both named", err)
	}
	bad := map[string]string{"GITHUB_REPOSITORY": "norepo"}
	if _, err := ReadEnv(func(k string) string {
		if v, ok := bad[k]; ok {
			return v
		}
		return full[k]
	}); err == nil || !strings.Contains(err.Error(), "owner/repo") {
		t.Errorf("bad GITHUB_REPOSITORY: error %v", err)
	}
}

// payload returns a real webhook payload from testdata/events with its
// pull request's commits replaced by base and head (when not empty).
func payload(t *testing.T, name, base, head string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	if base != "" || head != "" {
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
	}
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadEvent(t *testing.T) {
	tests := []struct {
		name, event, file string
		wantPR            int
		wantErr           string
	}{
		{"opened", "pull_request", "pull_request.opened.json", 2, ""},
		{"synchronize", "pull_request", "pull_request.synchronize.json", 0, ""},
		{"target", "pull_request_target", "pull_request.reopened.json", 0, ""},
		{"issue comment is not a pull request event", "issue_comment", "issue_comment.created.json", 0, `unsupported event "issue_comment"`},
		{"installation payload under pull_request", "pull_request", "installation.created.json", 0, "has no pull_request"},
		{"dispatch without input", "workflow_dispatch", "installation.created.json", 0, "needs an input named pr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := Env{EventName: tt.event, EventPath: payload(t, tt.file, "", ""), Repository: "Codertocat/Hello-World"}
			ev, err := ReadEvent(t.Context(), env, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.PR < 1 || len(ev.HeadSHA) != 40 || len(ev.BaseSHA) != 40 || ev.Owner != "Codertocat" || ev.Fork {
				t.Errorf("event = %+v", ev)
			}
			if tt.wantPR != 0 && ev.PR != tt.wantPR {
				t.Errorf("PR = %d, want %d", ev.PR, tt.wantPR)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, err := ReadEvent(t.Context(), Env{EventName: "pull_request", EventPath: filepath.Join(t.TempDir(), "nope.json")}, nil)
		if err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH") {
			t.Errorf("error %v", err)
		}
	})
}

func TestDispatchPR(t *testing.T) {
	tests := []struct {
		in      map[string]any
		want    int
		wantErr bool
	}{
		{map[string]any{"pr": "12"}, 12, false},
		{map[string]any{"pr-number": "#7"}, 7, false},
		{map[string]any{"pull-request": float64(3)}, 3, false},
		{map[string]any{"pr": "twelve"}, 0, true},
		{map[string]any{"pr": "0"}, 0, true},
		{map[string]any{}, 0, true},
	}
	for _, tt := range tests {
		got, err := dispatchPR(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("dispatchPR(%v) = %d, %v", tt.in, got, err)
		}
	}
}

// gitCmd runs git in dir with a fixed identity.
func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// origin makes a repository with a main branch and a topic branch that
// forked from it two commits back, and returns its directory, the fork
// point, main's tip and the topic's tip.
func origin(t *testing.T) (dir, fork, base, head string) {
	t.Helper()
	dir = t.TempDir()
	gitCmd(t, dir, "init", "-q", "-b", "main")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("m.go", "// Package m adds.\npackage m\n\n// Add adds a and b.\nfunc Add(a, b int) int { return a + b }\n")
	gitCmd(t, dir, "add", "-A")
	gitCmd(t, dir, "commit", "-qm", "one")
	fork = gitCmd(t, dir, "rev-parse", "HEAD")
	for i := range 3 {
		write("CHANGELOG.md", strings.Repeat("entry\n", i+1))
		gitCmd(t, dir, "add", "-A")
		gitCmd(t, dir, "commit", "-qm", "main work")
	}
	base = gitCmd(t, dir, "rev-parse", "HEAD")
	gitCmd(t, dir, "checkout", "-q", "-b", "topic", fork)
	write("README.md", "# m\n\nCall `Add` with two numbers.\n")
	gitCmd(t, dir, "add", "-A")
	gitCmd(t, dir, "commit", "-qm", "docs")
	head = gitCmd(t, dir, "rev-parse", "HEAD")
	gitCmd(t, dir, "checkout", "-q", "main")
	return dir, fork, base, head
}

func TestMergeBaseFetchesWhatAShallowCheckoutLacks(t *testing.T) {
	src, fork, base, head := origin(t)
	// A checkout like actions/checkout's: one commit deep, of main.
	work := filepath.Join(t.TempDir(), "work")
	gitCmd(t, filepath.Dir(work), "clone", "-q", "--depth=1", "file://"+src, work)
	g := gitRunner{dir: work}
	if g.has(t.Context(), head) {
		t.Fatal("the shallow clone already has the head")
	}
	got, err := mergeBase(t.Context(), g, Event{PR: 1, BaseSHA: base, HeadSHA: head})
	if err != nil {
		t.Fatal(err)
	}
	if got != fork {
		t.Errorf("merge base %s, want the fork point %s", got, fork)
	}
	_, err = mergeBase(t.Context(), g, Event{PR: 1, BaseSHA: base, HeadSHA: strings.Repeat("ab", 20)})
	if err == nil || !strings.Contains(err.Error(), "fetch head") {
		t.Errorf("unknown head: error %v, want one saying the fetch failed", err)
	}
}

// TestReadEventDispatch reads a workflow_dispatch event naming pull request
// 1 and fetches its commits from Prism serving GitHub's description,
// whose example pull request is number 1347 with head 6dcb09b.
func TestReadEventDispatch(t *testing.T) {
	p := githubtest.StartPrism(t)
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, []byte(`{"inputs":{"pr":"1"},"ref":"refs/heads/main"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := ReadEvent(t.Context(), Env{EventName: "workflow_dispatch", EventPath: path, Repository: "octocat/Hello-World"}, p.Client().PullRequests)
	if err != nil {
		t.Fatal(err)
	}
	if ev.PR != 1347 || ev.HeadSHA != "6dcb09b5b57875f334f61aebed695e2e4193db5e" || len(ev.BaseSHA) != 40 {
		t.Errorf("event = %+v", ev)
	}
	p.Check(t)
}

package gitrepo

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestEnv(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "GIT_SSH_COMMAND=ssh -i key", "GIT_EXEC_PATH=/usr/lib/git-core",
		"GIT_CONFIG_GLOBAL=/etc/ci.gitconfig", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a",
		"GIT_DIR=/tmp/decoy/.git", "GIT_WORK_TREE=/tmp/decoy", "GIT_INDEX_FILE=/tmp/decoy/index", "GIT_COMMON_DIR=/tmp/decoy",
		"GIT_OBJECT_DIRECTORY=/tmp/decoy/objects", "GIT_ALTERNATE_OBJECT_DIRECTORIES=/tmp/x", "GIT_NAMESPACE=n",
		"GIT_QUARANTINE_PATH=/tmp/q", "GIT_PREFIX=sub/", "GIT_REPLACE_REF_BASE=refs/x/", "GIT_GRAFT_FILE=/tmp/g",
		"GIT_SHALLOW_FILE=/tmp/s", "GIT_LITERAL_PATHSPECS=1", "GIT_ICASE_PATHSPECS=1", "GIT_EXTERNAL_DIFF=/bin/evil",
		"GIT_DIFF_OPTS=-u0", "GIT_ATTR_SOURCE=HEAD~9",
		"GIT_CONFIG_PARAMETERS='core.fsmonitor'='evil'", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=evil",
		"GIT_TRACE=1", "GIT_TRACE_CURL=1", "GIT_CURL_VERBOSE=1", "GIT_ASKPASS=/bin/ask", "SSH_ASKPASS=/bin/ask",
		"GIT_TERMINAL_PROMPT=1", "GIT_OPTIONAL_LOCKS=1",
	}
	got := Env(environ, "GIT_INDEX_FILE=/tmp/own-index")
	want := []string{
		"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "GIT_SSH_COMMAND=ssh -i key", "GIT_EXEC_PATH=/usr/lib/git-core",
		"GIT_CONFIG_GLOBAL=/etc/ci.gitconfig", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a",
		"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_INDEX_FILE=/tmp/own-index",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Env:\n got %q\nwant %q", got, want)
	}
}

// TestStrayGitVariablesDoNotRedirect: a review run from a git hook (which
// exports GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE) or under a stray
// GIT_DIR still reads the repository it was given.
func TestStrayGitVariablesDoNotRedirect(t *testing.T) {
	real := newTestRepo(t)
	real.write("a.txt", "real\n")
	want := real.commit("real")
	decoy := newTestRepo(t)
	decoy.write("a.txt", "decoy\n")
	decoy.commit("decoy")
	for k, v := range map[string]string{
		"GIT_DIR": decoy.dir + "/.git", "GIT_WORK_TREE": decoy.dir, "GIT_INDEX_FILE": decoy.dir + "/.git/index",
		"GIT_OBJECT_DIRECTORY": decoy.dir + "/.git/objects", "GIT_COMMON_DIR": decoy.dir + "/.git",
	} {
		t.Setenv(k, v)
	}
	r, err := Open(t.Context(), real.dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Resolve(t.Context(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("HEAD resolved to %s, want %s of %s (GIT_DIR=%s)", got, want, real.dir, os.Getenv("GIT_DIR"))
	}
	real.write("a.txt", "changed\n")
	d, err := r.Diff(t.Context(), "HEAD", "worktree", true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(d), "+changed") || strings.Contains(string(d), "decoy") {
		t.Errorf("worktree diff is not the real repository's:\n%s", d)
	}
}

func TestMergeBase(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.txt", "a\n")
	fork := r.commit("fork point")
	r.write("a.txt", "main\n")
	mainTip := r.commit("main")
	r.git("checkout", "-q", "-b", "topic", fork)
	r.write("b.txt", "topic\n")
	topic := r.commit("topic")
	repo, err := Open(t.Context(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := repo.MergeBase(t.Context(), mainTip, topic); err != nil || got != fork {
		t.Errorf("MergeBase = %q, %v; want the fork point %s", got, err, fork)
	}
	r.git("checkout", "-q", "--orphan", "other")
	r.write("c.txt", "unrelated\n")
	other := r.commit("unrelated")
	if got, err := repo.MergeBase(t.Context(), topic, other); err != nil || got != "" {
		t.Errorf("MergeBase of unrelated histories = %q, %v; want \"\", nil", got, err)
	}
	if _, err := repo.MergeBase(t.Context(), "nope", topic); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("MergeBase of an unknown ref: %v; want ErrUnknownRevision", err)
	}
}

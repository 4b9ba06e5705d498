package action

import (
	"path/filepath"
	"testing"
)

// TestMergeBaseIgnoresStrayGitDir: a GIT_DIR (or GIT_WORK_TREE,
// GIT_OBJECT_DIRECTORY) left in the runner's environment by an earlier
// step must not make the Action fetch into, or diff, another repository.
func TestMergeBaseIgnoresStrayGitDir(t *testing.T) {
	src, fork, base, head := origin(t)
	work := filepath.Join(t.TempDir(), "work")
	gitCmd(t, filepath.Dir(work), "clone", "-q", "--depth=1", "file://"+src, work)
	decoy, _, _, _ := origin(t)
	t.Setenv("GIT_DIR", filepath.Join(decoy, ".git"))
	t.Setenv("GIT_WORK_TREE", decoy)
	t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(decoy, ".git", "objects"))
	g := gitRunner{dir: work}
	top, err := g.run(t.Context(), "rev-parse", "--show-toplevel")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(work); top != want && top != work {
		t.Errorf("git ran in %s, want the checkout %s", top, work)
	}
	got, err := mergeBase(t.Context(), g, Event{PR: 1, BaseSHA: base, HeadSHA: head})
	if err != nil {
		t.Fatal(err)
	}
	if got != fork {
		t.Errorf("merge base %s, want the fork point %s", got, fork)
	}
}

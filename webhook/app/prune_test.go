package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPruneCache: worktrees a killed review left are removed (by the next
// fetch of their repository, or by Prune), repositories unused for the
// age limit go, then the least recently used while over the byte budget,
// and a repository in use is never touched.
func TestPruneCache(t *testing.T) {
	src := buildExample(t)
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "Acme", "Inventory")
	srv.publish(t, src, "Acme", "Other")
	head := gitT(t, src, "rev-parse", "HEAD")
	dir := t.TempDir()
	m := NewMirrors(dir, 0)
	ctx := context.Background()

	// A review of each repository, killed after adding its worktree.
	leftover := func(repo string) string {
		t.Helper()
		mr, err := m.Fetch(ctx, srv.url("Acme", repo), testToken, head)
		if err != nil {
			t.Fatal(err)
		}
		defer mr.Release()
		wt, _, err := mr.Worktree(ctx, head)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(mr.IndexDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mr.IndexDir, "data"), make([]byte, 1<<16), 0o644); err != nil {
			t.Fatal(err)
		}
		return wt
	}
	wtInv, wtOther := leftover("Inventory"), leftover("Other")

	// The next fetch of Inventory removes its left-over worktree.
	mr, err := m.Fetch(ctx, srv.url("Acme", "Inventory"), testToken, head)
	if err != nil {
		t.Fatal(err)
	}
	mr.Release()
	if _, err := os.Stat(wtInv); !os.IsNotExist(err) {
		t.Errorf("left-over worktree %s still there after the next fetch (%v)", wtInv, err)
	}
	if list := gitT(t, "", "--git-dir="+mr.Dir, "worktree", "list"); strings.Count(list, "\n") != 0 {
		t.Errorf("git still lists worktrees:\n%s", list)
	}

	// Prune removes Other's, and nothing else is old or over budget.
	res, err := m.Prune(ctx, 30*24*time.Hour, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Worktrees != 1 || len(res.Repos) != 0 || res.Busy != 0 {
		t.Errorf("first prune %+v, want 1 worktree removed and no repository", res)
	}
	if _, err := os.Stat(wtOther); !os.IsNotExist(err) {
		t.Errorf("left-over worktree %s still there after Prune (%v)", wtOther, err)
	}

	// Other unused for 40 days goes; Inventory, used now, stays.
	old := time.Now().Add(-40 * 24 * time.Hour)
	if err := os.Chtimes(m.usedStamp("acme", "other"), old, old); err != nil {
		t.Fatal(err)
	}
	res, err = m.Prune(ctx, 30*24*time.Hour, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Repos, []string{"acme/other"}) || res.Freed <= 0 {
		t.Errorf("age prune %+v, want acme/other removed", res)
	}
	for _, p := range []string{"git/acme/other.git", "index/acme/other"} {
		if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
			t.Errorf("%s still there (%v)", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "git/acme/inventory.git/HEAD")); err != nil {
		t.Errorf("inventory's mirror removed: %v", err)
	}

	// Over budget: the least recently used goes first, the one in use
	// never.
	leftover("Other")
	hour := time.Now().Add(-time.Hour)
	if err := os.Chtimes(m.usedStamp("acme", "inventory"), hour, hour); err != nil {
		t.Fatal(err)
	}
	one := m.repoSize("acme", "other")
	res, err = m.Prune(ctx, 0, one+1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Repos, []string{"acme/inventory"}) || res.Kept > one+1 {
		t.Errorf("budget prune %+v, want acme/inventory (least recently used) removed, %d bytes kept at most", res, one+1)
	}
	busy, err := m.Fetch(ctx, srv.url("Acme", "Other"), testToken, head)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Release()
	if err := os.Chtimes(m.usedStamp("acme", "other"), old, old); err != nil {
		t.Fatal(err)
	}
	res, err = m.Prune(ctx, time.Hour, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Busy != 1 || len(res.Repos) != 0 {
		t.Errorf("prune while a review holds acme/other: %+v, want it busy and kept", res)
	}
	if _, err := os.Stat(filepath.Join(busy.Dir, "HEAD")); err != nil {
		t.Errorf("the mirror in use was removed: %v", err)
	}
}

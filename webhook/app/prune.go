package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// PruneResult says what [Mirrors.Prune] removed.
type PruneResult struct {
	// Worktrees counts the review worktrees left by stopped processes.
	Worktrees int
	// Repos are the repositories ("owner/repo") whose mirror, index and
	// worktrees were removed; Freed is the bytes they held.
	Repos []string
	Freed int64
	// Kept is the cache's size afterwards.
	Kept int64
	// Busy counts the repositories in use by a review, left alone.
	Busy int
}

// worktreeSuffix is the "-" and 12 hex digits Worktree appends to a
// repository's name for a review's worktree.
const worktreeSuffix = len("-") + 12

// lockWait is how long Prune waits for a repository's lock before taking
// it as busy.
const lockWait = 50 * time.Millisecond

// Prune keeps the cache bounded. For every repository it can lock (a
// review holds the lock while it runs, across processes), it removes the
// review worktrees a killed process left; it removes whole repositories
// (mirror, index, worktrees) not used for maxAge (0: no age limit), then
// the least recently used ones while the cache is over maxBytes (0: no
// budget). A repository is used when a review fetches it. Repositories in
// use are skipped and counted in Busy.
func (m *Mirrors) Prune(ctx context.Context, maxAge time.Duration, maxBytes int64) (PruneResult, error) {
	var res PruneResult
	keys, err := m.cachedRepos()
	if err != nil {
		return res, fmt.Errorf("prune the mirrors: %w", err)
	}
	type entry struct {
		key  string
		used time.Time
		size int64
	}
	var entries []entry
	now := time.Now()
	for _, key := range keys {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		owner, repo := filepath.Dir(key), filepath.Base(key)
		lctx, cancel := context.WithTimeout(ctx, lockWait)
		release, err := m.lock(lctx, owner, repo)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Busy++
			continue
		}
		n, err := m.removeWorktrees(ctx, owner, repo)
		res.Worktrees += n
		if err != nil {
			release()
			return res, err
		}
		used := m.lastUsed(owner, repo)
		if maxAge > 0 && now.Sub(used) > maxAge {
			size := m.repoSize(owner, repo)
			err := m.removeRepo(owner, repo)
			release()
			if err != nil {
				return res, err
			}
			res.Repos = append(res.Repos, key)
			res.Freed += size
			continue
		}
		release()
		entries = append(entries, entry{key: key, used: used, size: m.repoSize(owner, repo)})
	}
	var total int64
	for _, e := range entries {
		total += e.size
	}
	if maxBytes > 0 && total > maxBytes {
		slices.SortFunc(entries, func(a, b entry) int { return a.used.Compare(b.used) })
		for _, e := range entries {
			if total <= maxBytes {
				break
			}
			owner, repo := filepath.Dir(e.key), filepath.Base(e.key)
			lctx, cancel := context.WithTimeout(ctx, lockWait)
			release, err := m.lock(lctx, owner, repo)
			cancel()
			if err != nil {
				res.Busy++ // taken by a review since
				continue
			}
			err = m.removeRepo(owner, repo)
			release()
			if err != nil {
				return res, err
			}
			res.Repos = append(res.Repos, e.key)
			res.Freed += e.size
			total -= e.size
		}
	}
	res.Kept = total
	return res, nil
}

// cachedRepos lists the "owner/repo" keys that have a mirror, an index or
// a worktree in the cache, sorted.
func (m *Mirrors) cachedRepos() ([]string, error) {
	seen := map[string]bool{}
	add := func(sub string, name func(string) (string, bool)) error {
		owners, err := os.ReadDir(filepath.Join(m.dir, sub))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, o := range owners {
			if !o.IsDir() {
				continue
			}
			repos, err := os.ReadDir(filepath.Join(m.dir, sub, o.Name()))
			if err != nil {
				return err
			}
			for _, r := range repos {
				if n, ok := name(r.Name()); ok && r.IsDir() {
					seen[o.Name()+"/"+n] = true
				}
			}
		}
		return nil
	}
	if err := add("git", func(s string) (string, bool) { return strings.TrimSuffix(s, ".git"), strings.HasSuffix(s, ".git") }); err != nil {
		return nil, err
	}
	if err := add("index", func(s string) (string, bool) { return s, true }); err != nil {
		return nil, err
	}
	if err := add("work", func(s string) (string, bool) {
		if len(s) <= worktreeSuffix || !isHex(s[len(s)-12:]) || s[len(s)-worktreeSuffix] != '-' {
			return "", false
		}
		return s[:len(s)-worktreeSuffix], true
	}); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// removeWorktrees deletes the review worktrees of owner/repo and has git
// forget them. The caller holds the repository's lock, so none is in use.
func (m *Mirrors) removeWorktrees(ctx context.Context, owner, repo string) (int, error) {
	dir := filepath.Join(m.dir, "work", owner)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("list the worktrees of %s/%s: %w", owner, repo, err)
	}
	n := 0
	for _, e := range ents {
		name := e.Name()
		if len(name) != len(repo)+worktreeSuffix || !strings.HasPrefix(name, repo+"-") || !isHex(name[len(repo)+1:]) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return n, fmt.Errorf("remove a left-over worktree of %s/%s: %w", owner, repo, err)
		}
		n++
	}
	mirror := filepath.Join(m.dir, "git", owner, repo+".git")
	if _, err := os.Stat(filepath.Join(mirror, "HEAD")); err == nil {
		if _, err := (gitCmd{dir: mirror}).run(ctx, "worktree", "prune"); err != nil {
			return n, fmt.Errorf("%s/%s: %w", owner, repo, err)
		}
	}
	return n, nil
}

// lastUsed is when a review last fetched owner/repo: the time Fetch
// stamps on its lock file, else the mirror's or the index's modification
// time.
func (m *Mirrors) lastUsed(owner, repo string) time.Time {
	for _, p := range []string{m.usedStamp(owner, repo), filepath.Join(m.dir, "git", owner, repo+".git"), filepath.Join(m.dir, "index", owner, repo)} {
		if fi, err := os.Stat(p); err == nil {
			return fi.ModTime()
		}
	}
	return time.Time{}
}

// usedStamp is the file whose modification time says when owner/repo was
// last used: its lock file.
func (m *Mirrors) usedStamp(owner, repo string) string {
	return filepath.Join(m.dir, "locks", owner, repo+".lock")
}

// repoSize is the bytes owner/repo's mirror and index hold.
func (m *Mirrors) repoSize(owner, repo string) int64 {
	var total int64
	for _, p := range []string{filepath.Join(m.dir, "git", owner, repo+".git"), filepath.Join(m.dir, "index", owner, repo)} {
		if n, err := dirSize(p); err == nil {
			total += n
		}
	}
	return total
}

// removeRepo deletes owner/repo's mirror (and its too-large marker) and
// index. The caller holds its lock and has removed its worktrees.
func (m *Mirrors) removeRepo(owner, repo string) error {
	mirror := filepath.Join(m.dir, "git", owner, repo+".git")
	for _, p := range []string{mirror, mirror + ".toolarge", filepath.Join(m.dir, "index", owner, repo)} {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("remove %s/%s from the cache: %w", owner, repo, err)
		}
	}
	return nil
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

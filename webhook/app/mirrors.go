package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docreview/docreview/review"
)

// ErrRepoTooLarge is matched (errors.Is) by the error Mirrors.Fetch returns
// when a repository's mirror grows past the size limit; errors.As with a
// *SizeError gives the sizes.
var ErrRepoTooLarge = errors.New("repository larger than the size limit")

// SizeError says a repository's mirror exceeded the size limit. It
// matches [ErrRepoTooLarge].
type SizeError struct {
	// Repo is "owner/repo".
	Repo string
	// Size is the mirror's size in bytes when the limit was found
	// exceeded (at least Limit+1); Limit is the limit.
	Size, Limit int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%s: repository larger than %s (its mirror reached %s)", e.Repo, formatBytes(e.Limit), formatBytes(e.Size))
}

// Is reports whether target is ErrRepoTooLarge.
func (e *SizeError) Is(target error) bool { return target == ErrRepoTooLarge }

// Fetching depths, as action/git.go deepens a shallow checkout: the commits
// are fetched with 50 commits of history, then 500 more, then all of it,
// until base and head have a merge base.
const (
	initialDepth  = 50
	deepenBy      = 500
	tooLargeRetry = 24 * time.Hour // a repository found too large is not fetched again for this long
	sizePoll      = 250 * time.Millisecond
)

// Mirrors is a cache of bare repository mirrors under one directory, one
// per GitHub repository, each filled only with the commits reviews asked
// for. Layout under the directory:
//
//	git/OWNER/REPO.git    the bare mirror
//	index/OWNER/REPO      the retrieval index, reused across pull requests
//	locks/OWNER/REPO.lock the lock file (flock)
//	work/OWNER/REPO-*     per-review linked worktrees (no checkout)
//
// Names are lower-cased (GitHub's are case-insensitive) and escaped so that
// no name can leave its directory.
//
// One repository is used by one caller at a time: a Fetch holds an
// in-process lock and an flock(2) on the repository's lock file (so that
// several processes sharing the directory do not corrupt a mirror) until
// the returned Mirror is released. A Mirrors is safe for concurrent use.
type Mirrors struct {
	dir      string
	maxBytes int64

	mu    sync.Mutex
	locks map[string]chan struct{} // per repository key, capacity 1
}

// NewMirrors returns the mirror cache kept in dir (created when needed).
// maxBytes is the size limit of one repository's mirror; 0 or less means
// no limit.
func NewMirrors(dir string, maxBytes int64) *Mirrors {
	return &Mirrors{dir: dir, maxBytes: maxBytes, locks: map[string]chan struct{}{}}
}

// Mirror is a repository's mirror, locked for its user until Release.
type Mirror struct {
	// Repo is "owner/repo" as the URL named it.
	Repo string
	// Dir is the bare repository.
	Dir string
	// IndexDir is the repository's retrieval index directory, shared by
	// all its reviews.
	IndexDir string
	// MergeBase is the merge base of the first two commits Fetch was
	// given; "" when it was given fewer.
	MergeBase string
	// Size is the mirror's size in bytes after the fetch.
	Size int64

	m       *Mirrors
	key     string
	release func()
	once    sync.Once
}

// Release unlocks the repository. It is safe to call more than once.
func (mr *Mirror) Release() {
	mr.once.Do(mr.release)
}

// Fetch locks the repository at repoURL (an http or https URL ending in
// /OWNER/REPO or /OWNER/REPO.git, without credentials), creates its bare
// mirror when missing, and fetches the commits shas (full hexadecimal
// object names) that it lacks, with 50 commits of history and no tags.
// With two or more shas, it then deepens the history (by 500 commits, then
// all of it) until the first two have a merge base, and sets
// Mirror.MergeBase. The caller must Release the returned Mirror.
//
// token, when not "", authenticates each git command as the installation
// ("Authorization: Basic" of x-access-token:TOKEN, through the command's
// environment only) and is redacted from the errors.
//
// When the mirror grows past the size limit, during a fetch or after it,
// the fetch is stopped, the mirror removed, and the error is a *SizeError
// (errors.Is ErrRepoTooLarge); for a day afterwards, Fetch returns that
// error at once without fetching, unless the limit was raised.
func (m *Mirrors) Fetch(ctx context.Context, repoURL, token string, shas ...string) (*Mirror, error) {
	owner, repo, err := repoKey(repoURL)
	if err != nil {
		return nil, err
	}
	name := owner + "/" + repo
	for _, s := range shas {
		if !isSHA(s) {
			return nil, fmt.Errorf("fetch %s: %q is not a full commit SHA", name, s)
		}
	}
	release, err := m.lock(ctx, owner, repo)
	if err != nil {
		return nil, fmt.Errorf("lock the mirror of %s: %w", name, err)
	}
	mr := &Mirror{
		Repo:     name,
		Dir:      filepath.Join(m.dir, "git", owner, repo+".git"),
		IndexDir: filepath.Join(m.dir, "index", owner, repo),
		m:        m,
		key:      owner + "/" + repo,
		release:  release,
	}
	if err := m.fetch(ctx, mr, repoURL, token, shas); err != nil {
		mr.Release()
		return nil, err
	}
	return mr, nil
}

func (m *Mirrors) fetch(ctx context.Context, mr *Mirror, repoURL, token string, shas []string) error {
	if err := m.checkTooLarge(mr); err != nil {
		return err
	}
	if err := m.ensure(ctx, mr.Dir); err != nil {
		return fmt.Errorf("create the mirror of %s: %w", mr.Repo, err)
	}
	g := gitCmd{dir: mr.Dir, token: token, url: repoURL}
	// Worktrees of a process killed mid-review: the lock is ours, so no
	// review uses them. git worktree prune alone keeps directories that
	// still exist.
	owner, repo := filepath.Dir(mr.key), filepath.Base(mr.key)
	if _, err := m.removeWorktrees(ctx, owner, repo); err != nil {
		return err
	}
	// The repository is in use: Prune keeps the recently used.
	now := time.Now()
	if err := os.Chtimes(m.usedStamp(owner, repo), now, now); err != nil {
		return fmt.Errorf("%s: mark the mirror used: %w", mr.Repo, err)
	}
	var missing []string
	for _, s := range shas {
		if !g.has(ctx, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		if err := m.fetchLimited(ctx, mr, g, append([]string{"--depth=" + strconv.Itoa(initialDepth)}, missing...)); err != nil {
			return err
		}
		for _, s := range missing {
			if !g.has(ctx, s) {
				return fmt.Errorf("fetch %s: commit %s not found after fetching it", mr.Repo, short(s))
			}
		}
	}
	if len(shas) >= 2 {
		base, head := shas[0], shas[1]
		for _, deepen := range []string{"", "--deepen=" + strconv.Itoa(deepenBy), "--unshallow"} {
			if deepen != "" {
				shallow, err := g.run(ctx, "rev-parse", "--is-shallow-repository")
				if err != nil {
					return fmt.Errorf("%s: %w", mr.Repo, err)
				}
				if shallow != "true" {
					break
				}
				if err := m.fetchLimited(ctx, mr, g, []string{deepen, base, head}); err != nil {
					return err
				}
			}
			if mb, err := g.run(ctx, "merge-base", base, head); err == nil && mb != "" {
				mr.MergeBase = mb
				break
			}
		}
		if mr.MergeBase == "" {
			return fmt.Errorf("%s: no merge base of base %s and head %s in the history", mr.Repo, short(base), short(head))
		}
	}
	size, err := dirSize(mr.Dir)
	if err != nil {
		return fmt.Errorf("size of the mirror of %s: %w", mr.Repo, err)
	}
	mr.Size = size
	if m.maxBytes > 0 && size > m.maxBytes {
		return m.tooLarge(mr, size)
	}
	return nil
}

// fetchLimited runs git fetch --no-tags ARGS from the repository's URL,
// stopping it when the mirror grows past the size limit.
func (m *Mirrors) fetchLimited(ctx context.Context, mr *Mirror, g gitCmd, args []string) error {
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		over     int64
		watching sync.WaitGroup
	)
	if m.maxBytes > 0 {
		watching.Go(func() {
			t := time.NewTicker(sizePoll)
			defer t.Stop()
			for {
				select {
				case <-fctx.Done():
					return
				case <-t.C:
				}
				if n, err := dirSize(mr.Dir); err == nil && n > m.maxBytes {
					over = n
					cancel()
					return
				}
			}
		})
	}
	// The URL carries no credentials (repoKey refuses them); "--" keeps
	// the SHAs from being read as options (they are checked hexadecimal).
	full := append([]string{"fetch", "--no-tags", "--no-write-fetch-head", "--no-auto-gc", "--quiet"}, args[:len(args)-countSHAs(args)]...)
	full = append(full, "--", g.url)
	full = append(full, args[len(args)-countSHAs(args):]...)
	_, err := g.run(fctx, full...)
	cancel()
	watching.Wait()
	if over > 0 {
		return m.tooLarge(mr, over)
	}
	if err != nil {
		return fmt.Errorf("fetch %s: %w", mr.Repo, err)
	}
	return nil
}

// countSHAs counts the trailing object names of args.
func countSHAs(args []string) int {
	n := 0
	for i := len(args) - 1; i >= 0 && isSHA(args[i]); i-- {
		n++
	}
	return n
}

// tooLarge removes the mirror, remembers that it was too large and returns
// the *SizeError.
func (m *Mirrors) tooLarge(mr *Mirror, size int64) error {
	err := &SizeError{Repo: mr.Repo, Size: size, Limit: m.maxBytes}
	if rerr := os.RemoveAll(mr.Dir); rerr != nil {
		return errors.Join(err, fmt.Errorf("remove the oversized mirror: %w", rerr))
	}
	_ = os.WriteFile(mr.Dir+".toolarge", []byte(strconv.FormatInt(size, 10)+"\n"), 0o644)
	return err
}

// checkTooLarge returns the *SizeError remembered from an earlier fetch of
// the last day, unless the limit has since been raised to the size seen.
func (m *Mirrors) checkTooLarge(mr *Mirror) error {
	marker := mr.Dir + ".toolarge"
	fi, err := os.Stat(marker)
	if err != nil {
		return nil
	}
	data, err := os.ReadFile(marker)
	if err != nil {
		return nil
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || time.Since(fi.ModTime()) > tooLargeRetry || m.maxBytes <= 0 || size <= m.maxBytes {
		_ = os.Remove(marker)
		return nil
	}
	return &SizeError{Repo: mr.Repo, Size: size, Limit: m.maxBytes}
}

// ensure creates the bare mirror at dir unless it exists. It is built in a
// temporary directory and renamed into place, so that a crash never
// leaves half a repository.
func (m *Mirrors) ensure(ctx context.Context, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err == nil {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".init-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	g := gitCmd{dir: tmp}
	if _, err := g.run(ctx, "init", "--bare", "--quiet"); err != nil {
		return err
	}
	// Fetches by SHA leave the objects unreferenced: never let gc prune
	// them (the size limit bounds the mirror instead).
	for _, kv := range [][2]string{{"gc.auto", "0"}, {"gc.pruneExpire", "never"}, {"core.logAllRefUpdates", "false"}} {
		if _, err := g.run(ctx, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return os.Rename(tmp, dir)
}

// lock takes the repository's in-process lock, then its file lock, waiting
// for both until ctx ends.
func (m *Mirrors) lock(ctx context.Context, owner, repo string) (func(), error) {
	key := owner + "/" + repo
	m.mu.Lock()
	ch, ok := m.locks[key]
	if !ok {
		ch = make(chan struct{}, 1)
		m.locks[key] = ch
	}
	m.mu.Unlock()
	select {
	case ch <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	path := filepath.Join(m.dir, "locks", owner, repo+".lock")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		<-ch
		return nil, err
	}
	unlock, err := lockFile(ctx, path)
	if err != nil {
		<-ch
		return nil, err
	}
	return func() {
		unlock()
		<-ch
	}, nil
}

// Worktree adds a linked worktree of the mirror at rev without checking
// out its files, except the repository's docreview configuration
// (.docreview.yml and the .docreview directory) when rev has them. It is
// what review.Engine needs: it refuses a bare repository, but reads every
// file it reviews from the commits. remove deletes the worktree.
func (mr *Mirror) Worktree(ctx context.Context, rev string) (dir string, remove func() error, err error) {
	if !isSHA(rev) {
		return "", nil, fmt.Errorf("worktree of %s: %q is not a full commit SHA", mr.Repo, rev)
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	dir = filepath.Join(mr.m.dir, "work", filepath.Dir(mr.key), filepath.Base(mr.key)+"-"+hex.EncodeToString(rnd[:]))
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", nil, fmt.Errorf("worktree of %s: %w", mr.Repo, err)
	}
	g := gitCmd{dir: mr.Dir}
	if _, err := g.run(ctx, "worktree", "add", "--quiet", "--detach", "--no-checkout", "--", dir, rev); err != nil {
		return "", nil, fmt.Errorf("worktree of %s: %w", mr.Repo, err)
	}
	remove = func() error {
		// A fresh context: the worktree goes even when the review's ended.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if _, err := g.run(rctx, "worktree", "remove", "--force", "--", dir); err != nil {
			_ = os.RemoveAll(dir)
			_, _ = g.run(rctx, "worktree", "prune")
			return fmt.Errorf("remove the worktree of %s: %w", mr.Repo, err)
		}
		return nil
	}
	out, err := g.run(ctx, "ls-tree", "--name-only", rev, "--", ".docreview.yml", ".docreview")
	if err != nil {
		_ = remove()
		return "", nil, fmt.Errorf("worktree of %s: %w", mr.Repo, err)
	}
	if paths := strings.Fields(out); len(paths) > 0 {
		wt := gitCmd{dir: filepath.Join(dir, ".git"), work: dir} // the worktree's gitfile
		if _, err := wt.run(ctx, append([]string{"checkout", rev, "--"}, paths...)...); err != nil {
			_ = remove()
			return "", nil, fmt.Errorf("worktree of %s: check out the configuration: %w", mr.Repo, err)
		}
	}
	return dir, remove, nil
}

// ReadFile returns the content of name at rev, and false when rev has no
// such file.
func (mr *Mirror) ReadFile(ctx context.Context, rev, name string) ([]byte, bool, error) {
	g := gitCmd{dir: mr.Dir}
	if _, err := g.run(ctx, "cat-file", "-e", rev+":"+name); err != nil {
		return nil, false, nil
	}
	out, err := g.output(ctx, "cat-file", "blob", rev+":"+name)
	if err != nil {
		return nil, false, fmt.Errorf("read %s at %s in %s: %w", name, short(rev), mr.Repo, err)
	}
	return out, true, nil
}

// gitCmd runs git on the bare repository dir (or, with work, on a linked
// worktree whose git directory dir is), authenticated with token for url.
type gitCmd struct {
	dir, work  string
	token, url string
}

func (g gitCmd) has(ctx context.Context, sha string) bool {
	_, err := g.run(ctx, "cat-file", "-e", sha+"^{commit}")
	return err == nil
}

// run runs git and returns its trimmed standard output.
func (g gitCmd) run(ctx context.Context, args ...string) (string, error) {
	out, err := g.output(ctx, args...)
	return strings.TrimSpace(string(out)), err
}

// output runs git and returns its standard output. The token is passed in
// the environment only, as an http.extraHeader scoped to the URL's origin,
// and is redacted from the error.
func (g gitCmd) output(ctx context.Context, args ...string) ([]byte, error) {
	pre := []string{"--git-dir=" + g.dir}
	if g.work != "" {
		pre = append(pre, "--work-tree="+g.work)
	}
	cmd := exec.CommandContext(ctx, "git", append(pre, args...)...)
	cmd.Env = g.env()
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if ctx.Err() != nil {
			msg = ctx.Err().Error()
		} else if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", g.redact(strings.Join(args, " ")), g.redact(msg))
	}
	return out.Bytes(), nil
}

// env is the environment of a git command: the process's, as
// [gitrepo.Env] cleans it, plus the token's header.
func (g gitCmd) env() []string {
	env := review.GitEnv(os.Environ())
	if g.token == "" || g.url == "" {
		return append(env, "GIT_CONFIG_COUNT=0")
	}
	return append(env,
		"GIT_CONFIG_COUNT=2",
		// No credential helper: nothing can store or ask for credentials.
		"GIT_CONFIG_KEY_0=credential.helper", "GIT_CONFIG_VALUE_0=",
		"GIT_CONFIG_KEY_1=http."+origin(g.url)+"/.extraHeader",
		"GIT_CONFIG_VALUE_1=Authorization: Basic "+basicAuth(g.token),
	)
}

// redact replaces the token, and the header value carrying it, with ***.
func (g gitCmd) redact(s string) string {
	if g.token == "" {
		return s
	}
	return strings.NewReplacer(basicAuth(g.token), "***", g.token, "***").Replace(s)
}

// basicAuth is the Basic credential git sends for an installation token.
func basicAuth(token string) string {
	return base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
}

// origin is scheme://host[:port] of u, which repoKey has validated.
func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Scheme + "://" + p.Host
}

// repoKey returns the path-safe owner and repository names of repoURL.
func repoKey(repoURL string) (owner, repo string, err error) {
	u, err := url.Parse(repoURL)
	if err != nil {
		return "", "", fmt.Errorf("repository URL: %w", err)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return "", "", fmt.Errorf("repository URL %s: want an http or https URL", u.Redacted())
	}
	if u.User != nil {
		return "", "", fmt.Errorf("repository URL %s: credentials do not belong in the URL", u.Redacted())
	}
	if u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("repository URL %s: want https://HOST/OWNER/REPO.git", u.Redacted())
	}
	p := strings.TrimSuffix(strings.Trim(path.Clean("/"+u.Path), "/"), ".git")
	parts := strings.Split(p, "/")
	if len(parts) < 2 || parts[len(parts)-2] == "" || parts[len(parts)-1] == "" {
		return "", "", fmt.Errorf("repository URL %s: want https://HOST/OWNER/REPO.git", u.Redacted())
	}
	return safeName(parts[len(parts)-2]), safeName(parts[len(parts)-1]), nil
}

// safeName lower-cases s and escapes every byte outside [a-z0-9._-], and a
// leading dot, as %XX: the result is one path segment, never "." or "..".
func safeName(s string) string {
	var b strings.Builder
	for i, c := range []byte(strings.ToLower(s)) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_', c == '.' && i > 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// isSHA reports whether s is a full SHA-1 or SHA-256 object name.
func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// dirSize is the total size of the regular files under dir.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) { // git removed a temporary file
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n, err
}

// formatBytes writes n in binary units, e.g. "1.5 GiB".
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for v := n / unit; v >= unit; v /= unit {
		div *= unit
		exp++
	}
	s := strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + " " + string("KMGTPE"[exp]) + "iB"
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

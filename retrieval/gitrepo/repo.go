package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotRepository is wrapped by the error [Open] returns for a directory
// that is not inside a git working tree.
var ErrNotRepository = errors.New("not a git repository")

// ErrUnknownRevision is wrapped by the errors returned for a revision that
// does not name a commit of the repository.
var ErrUnknownRevision = errors.New("unknown revision")

// Repo is a git working tree read through the git command-line tool. Its
// methods are safe for concurrent use; none of them writes to the user's
// index or working tree.
type Repo struct {
	// Dir is the absolute path of the repository's top-level directory.
	Dir string
	// Logger receives a debug record for every git command run; nil
	// discards them.
	Logger *slog.Logger
}

// Open returns the repository that contains dir, with Dir set to its
// top-level directory (git rev-parse --show-toplevel). The error wraps
// [ErrNotRepository] and git's message when dir is not inside a working
// tree (a bare repository included), and is the os error when dir does not
// exist.
func Open(ctx context.Context, dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is %w: not a directory", dir, ErrNotRepository)
	}
	r := &Repo{Dir: abs}
	out, err := r.git(ctx, nil, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && ge.code != 0 {
			return nil, fmt.Errorf("%s is %w: %s", dir, ErrNotRepository, ge.stderr)
		}
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	top := strings.TrimSpace(string(out))
	if top == "" {
		return nil, fmt.Errorf("%s is %w: git printed no top-level directory", dir, ErrNotRepository)
	}
	r.Dir = filepath.Clean(top)
	return r, nil
}

// Resolve returns the full SHA of the commit ref names (ref^{commit}): a
// branch, tag, remote-tracking branch, SHA or expression such as HEAD~2.
// The error wraps [ErrUnknownRevision] and names the ref and the repository
// when ref names no commit (an empty ref included).
func (r *Repo) Resolve(ctx context.Context, ref string) (string, error) {
	sha, ok, err := r.resolve(ctx, ref)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%w %q in %s", ErrUnknownRevision, ref, r.Dir)
	}
	return sha, nil
}

// MergeBase returns the best common ancestor of the commits a and b name,
// as git merge-base does; "" and a nil error when they have none
// (unrelated histories). An unknown ref is an error wrapping
// [ErrUnknownRevision].
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	ha, err := r.Resolve(ctx, a)
	if err != nil {
		return "", err
	}
	hb, err := r.Resolve(ctx, b)
	if err != nil {
		return "", err
	}
	out, err := r.git(ctx, nil, nil, "merge-base", ha, hb)
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && ge.code == 1 {
			return "", nil
		}
		return "", fmt.Errorf("merge-base of %s and %s: %w", a, b, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// resolve is Resolve that reports an unknown ref as ok == false.
func (r *Repo) resolve(ctx context.Context, ref string) (sha string, ok bool, err error) {
	if ref == "" {
		return "", false, nil
	}
	out, err := r.git(ctx, nil, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && ge.code == 1 {
			return "", false, nil
		}
		return "", false, fmt.Errorf("resolve %q in %s: %w", ref, r.Dir, err)
	}
	return strings.TrimSpace(string(out)), true, nil
}

// DefaultBase returns the commit a review of head compares against when the
// user names none:
//
//   - the merge-base of head and the upstream default branch, the first of
//     refs/remotes/origin/HEAD, origin/main and origin/master that exists,
//     unless that merge-base is head itself (head is on the upstream branch)
//     or there is none (unrelated histories);
//   - otherwise head's first parent (head~1);
//   - "" and a nil error when head is a root commit, meaning "diff against
//     the empty tree".
//
// The error wraps [ErrUnknownRevision] when head names no commit, and
// explains how to fetch more history when head has a parent that the
// repository lacks (the boundary of a shallow clone).
func (r *Repo) DefaultBase(ctx context.Context, head string) (string, error) {
	h, err := r.Resolve(ctx, head)
	if err != nil {
		return "", err
	}
	for _, up := range [...]string{"refs/remotes/origin/HEAD", "refs/remotes/origin/main", "refs/remotes/origin/master"} {
		u, ok, err := r.resolve(ctx, up)
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		out, err := r.git(ctx, nil, nil, "merge-base", u, h)
		if err != nil {
			var ge *gitError
			if errors.As(err, &ge) && ge.code == 1 {
				break // no common ancestor
			}
			return "", fmt.Errorf("merge-base of %s and %s: %w", up, head, err)
		}
		if mb := strings.TrimSpace(string(out)); mb != h {
			return mb, nil
		}
		break
	}
	parent, ok, err := r.resolve(ctx, h+"~1")
	if err != nil {
		return "", err
	}
	if ok {
		return parent, nil
	}
	// No reachable parent: a root commit, or the boundary of a shallow
	// clone, whose commit object still names a parent.
	obj, err := r.git(ctx, nil, nil, "cat-file", "commit", h)
	if err != nil {
		return "", fmt.Errorf("read commit %s: %w", h, err)
	}
	hdr, _, _ := bytes.Cut(obj, []byte("\n\n"))
	for line := range strings.SplitSeq(string(hdr), "\n") {
		if strings.HasPrefix(line, "parent ") {
			return "", fmt.Errorf("parent of %s (%s) is not in %s, probably a shallow clone: fetch more history (git fetch --deepen=1) or name the base", head, strings.TrimPrefix(line, "parent "), r.Dir)
		}
	}
	return "", nil
}

// Diff returns git's unified diff from base to head (or to the working tree)
// as raw bytes, in the form review/diff parses:
//
//	git diff --no-color --no-ext-diff --no-textconv --no-relative -M
//	         --full-index --unified=3 --submodule=short
//	         --src-prefix=a/ --dst-prefix=b/ BASE HEAD
//
// The flags override user configuration that would change the format
// (diff.noprefix, diff.external, textconv drivers, diff.submodule=log).
// Binary files appear as "Binary files ... differ" lines without content
// (no --binary: the review never needs the bytes). Renames are detected.
//
// base "" diffs against the empty tree (every file added). With worktree
// true, head is ignored and base is compared with the working tree:
// tracked files as they are on disk plus untracked files that are not
// ignored (untracked nested repositories excepted). That stages the working tree into a temporary copy of the index
// (GIT_INDEX_FILE); the user's index is never touched, though git writes
// the blobs of changed files into the object database as `git add` does.
//
// The error wraps [ErrUnknownRevision] when base or head names no commit.
func (r *Repo) Diff(ctx context.Context, base, head string, worktree bool) ([]byte, error) {
	from, err := r.baseTree(ctx, base)
	if err != nil {
		return nil, err
	}
	args := []string{
		"-c", "diff.suppressBlankEmpty=false",
		"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"-M", "--full-index", "--unified=3", "--submodule=short",
		"--src-prefix=a/", "--dst-prefix=b/",
	}
	if !worktree {
		to, err := r.Resolve(ctx, head)
		if err != nil {
			return nil, err
		}
		out, err := r.git(ctx, nil, nil, append(args, from, to, "--")...)
		if err != nil {
			return nil, fmt.Errorf("diff %s %s: %w", base, head, err)
		}
		return out, nil
	}

	tmp, err := os.MkdirTemp("", "docreview-index-")
	if err != nil {
		return nil, fmt.Errorf("diff working tree: %w", err)
	}
	defer os.RemoveAll(tmp)
	index := filepath.Join(tmp, "index")
	if err := r.copyIndex(ctx, index); err != nil {
		return nil, err
	}
	// Untracked nested repositories are left out: git add would record
	// them as submodules, or fail on one without a commit.
	others, err := r.git(ctx, nil, nil, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("list untracked files: %w", err)
	}
	pathspecs := ":/\x00"
	for name := range strings.SplitSeq(string(others), "\x00") {
		if dir, ok := strings.CutSuffix(name, "/"); ok {
			pathspecs += ":(exclude,literal)" + dir + "\x00"
		}
	}
	env := []string{"GIT_INDEX_FILE=" + index}
	if _, err := r.git(ctx, env, strings.NewReader(pathspecs), "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		return nil, fmt.Errorf("stage working tree into a temporary index: %w", err)
	}
	out, err := r.git(ctx, env, nil, append(args, "--cached", from, "--")...)
	if err != nil {
		return nil, fmt.Errorf("diff %s against the working tree: %w", base, err)
	}
	return out, nil
}

// baseTree resolves the left side of a diff: the commit base names, or the
// empty tree of the repository's object format when base is "".
func (r *Repo) baseTree(ctx context.Context, base string) (string, error) {
	if base != "" {
		return r.Resolve(ctx, base)
	}
	out, err := r.git(ctx, nil, strings.NewReader(""), "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return "", fmt.Errorf("hash the empty tree: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// copyIndex copies the repository's index to dst, so that staging the
// working tree into dst only hashes files whose stat data changed. A
// repository without an index (no commit staged yet) leaves dst absent,
// which git treats as an empty index.
func (r *Repo) copyIndex(ctx context.Context, dst string) error {
	out, err := r.git(ctx, nil, nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return fmt.Errorf("locate the index: %w", err)
	}
	src := strings.TrimSpace(string(out))
	if !filepath.IsAbs(src) {
		src = filepath.Join(r.Dir, src)
	}
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("copy the index: %w", err)
	}
	defer in.Close()
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("copy the index: %w", err)
	}
	if _, err := io.Copy(f, in); err != nil {
		f.Close()
		return fmt.Errorf("copy the index %s: %w", src, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("copy the index: %w", err)
	}
	return nil
}

// gitError is a git command that exited with a non-zero status.
type gitError struct {
	args   []string
	code   int
	stderr string
}

func (e *gitError) Error() string {
	msg := e.stderr
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.code)
	}
	return "git " + strings.Join(e.args, " ") + ": " + msg
}

// command builds `git -C r.Dir args...` in the environment [Env] makes of
// the process's, plus extra.
func (r *Repo) command(ctx context.Context, extra []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.Dir}, args...)...)
	cmd.Env = Env(os.Environ(), extra...)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// git runs a git command and returns its standard output. A non-zero exit
// is a *gitError carrying git's standard error.
func (r *Repo) git(ctx context.Context, env []string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := r.command(ctx, env, args...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.logger().Debug("git", "dir", r.Dir, "args", args, "ms", time.Since(start).Milliseconds(), "err", err)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), ctx.Err())
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() > 0 {
			return nil, &gitError{args: args, code: ee.ExitCode(), stderr: strings.TrimSpace(stderr.String())}
		}
		return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return stdout.Bytes(), nil
}

func (r *Repo) logger() *slog.Logger {
	if r.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Logger
}

package quality

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// repo is a throwaway git repository a module's cases are committed to.
type repo struct {
	dir string
}

func (r *repo) git(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_NOSYSTEM=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// newRepo initialises a repository in dir.
func newRepo(ctx context.Context, dir string) (*repo, error) {
	r := &repo{dir: dir}
	if _, err := r.git(ctx, "init", "-q", "-b", "main"); err != nil {
		return nil, err
	}
	return r, nil
}

// write writes files (path to content) into the working tree.
func (r *repo) write(files map[string]string) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	return nil
}

// commit commits everything in the working tree and returns the SHA.
func (r *repo) commit(ctx context.Context, msg string) (string, error) {
	if _, err := r.git(ctx, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := r.git(ctx, "commit", "-q", "--allow-empty", "--no-verify", "-m", msg); err != nil {
		return "", err
	}
	return r.git(ctx, "rev-parse", "HEAD")
}

// resetTo moves the branch and the working tree back to sha.
func (r *repo) resetTo(ctx context.Context, sha string) error {
	if _, err := r.git(ctx, "reset", "-q", "--hard", sha); err != nil {
		return err
	}
	_, err := r.git(ctx, "clean", "-qfdx")
	return err
}

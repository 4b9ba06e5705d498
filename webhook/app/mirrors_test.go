package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	ghpub "github.com/docreview/docreview/review/github"
)

const testToken = "ghs_TestInstallationToken0123456789abcdef"

// assertTokenNotOnDisk fails if the token, or the Basic credential made
// from it, is in any file under dir: config, packs, logs, FETCH_HEAD.
func assertTokenNotOnDisk(t *testing.T, dir, token string) {
	t.Helper()
	needles := [][]byte{[]byte(token), []byte(base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token)))}
	files := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		files++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, n := range needles {
			if bytes.Contains(data, n) {
				t.Errorf("%s holds the token (%q)", p, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatalf("no files under %s", dir)
	}
}

func TestFetch(t *testing.T) {
	src := buildExample(t)
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "Acme", "Inventory")
	base, head := gitT(t, src, "rev-parse", "HEAD~1"), gitT(t, src, "rev-parse", "HEAD")
	root := gitT(t, src, "rev-list", "--max-parents=0", "HEAD")

	dir := t.TempDir()
	m := NewMirrors(dir, 0)
	ctx := context.Background()
	mr, err := m.Fetch(ctx, srv.url("Acme", "Inventory"), testToken, base, head)
	if err != nil {
		t.Fatal(err)
	}
	defer mr.Release()

	if want := filepath.Join(dir, "git", "acme", "inventory.git"); mr.Dir != want {
		t.Errorf("Dir = %s, want %s", mr.Dir, want)
	}
	if want := filepath.Join(dir, "index", "acme", "inventory"); mr.IndexDir != want {
		t.Errorf("IndexDir = %s, want %s", mr.IndexDir, want)
	}
	if mr.MergeBase != base {
		t.Errorf("MergeBase = %s, want %s", mr.MergeBase, base)
	}
	if mr.Size <= 0 {
		t.Errorf("Size = %d", mr.Size)
	}
	if bare := gitT(t, "", "--git-dir="+mr.Dir, "rev-parse", "--is-bare-repository"); bare != "true" {
		t.Errorf("mirror is not bare: %s", bare)
	}
	for _, c := range []string{base, head, root} {
		gitT(t, "", "--git-dir="+mr.Dir, "cat-file", "-e", c+"^{commit}")
	}
	// The blobs are there: the review reads them.
	if got := gitT(t, "", "--git-dir="+mr.Dir, "show", head+":README.md"); !strings.HasPrefix(got, "#") {
		t.Errorf("README.md at head: %.40q", got)
	}
	if _, err := os.Stat(filepath.Join(mr.Dir, "FETCH_HEAD")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("FETCH_HEAD written: %v", err)
	}
	if tags := gitT(t, "", "--git-dir="+mr.Dir, "tag"); tags != "" {
		t.Errorf("tags fetched: %s", tags)
	}
	reqs, denied := srv.stats()
	if len(reqs) == 0 || denied != 0 {
		t.Errorf("requests %v, %d without the token's Basic credential", reqs, denied)
	}
	mr.Release()
	assertTokenNotOnDisk(t, dir, testToken)

	// A second fetch of commits the mirror has makes no request.
	mr2, err := m.Fetch(ctx, srv.url("Acme", "Inventory"), testToken, base, head)
	if err != nil {
		t.Fatal(err)
	}
	mr2.Release()
	if again, _ := srv.stats(); len(again) != len(reqs) {
		t.Errorf("refetch made %d requests: %v", len(again)-len(reqs), again[len(reqs):])
	}
}

func TestFetchDeepensToTheMergeBase(t *testing.T) {
	src, base, head, fork := buildForked(t, 80)
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "o", "r")
	m := NewMirrors(t.TempDir(), 0)
	mr, err := m.Fetch(context.Background(), srv.url("o", "r"), testToken, base, head)
	if err != nil {
		t.Fatal(err)
	}
	defer mr.Release()
	if mr.MergeBase != fork {
		t.Errorf("MergeBase = %s, want the fork point %s", mr.MergeBase, fork)
	}
}

func TestFetchErrors(t *testing.T) {
	src := buildExample(t)
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "o", "r")
	head := gitT(t, src, "rev-parse", "HEAD")
	missing := strings.Repeat("ab", 20)
	tests := []struct {
		name, url, token string
		shas             []string
		want             string
	}{
		{"wrong token", srv.url("o", "r"), "ghs_wrong", []string{head}, "fetch o/r"},
		{"no such repository", srv.url("o", "nope"), testToken, []string{head}, "fetch o/nope"},
		{"no such commit", srv.url("o", "r"), testToken, []string{missing}, "fetch o/r"},
		{"not a SHA", srv.url("o", "r"), testToken, []string{"--upload-pack=touch /tmp/x"}, "not a full commit SHA"},
		{"abbreviated SHA", srv.url("o", "r"), testToken, []string{head[:12]}, "not a full commit SHA"},
		{"credentials in URL", strings.Replace(srv.url("o", "r"), "://", "://x-access-token:"+testToken+"@", 1), testToken, []string{head}, "credentials do not belong"},
		{"ssh URL", "ssh://git@github.com/o/r.git", testToken, []string{head}, "want an http or https URL"},
		{"no repository", srv.URL + "/o", testToken, []string{head}, "want https://HOST/OWNER/REPO.git"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			mr, err := NewMirrors(t.TempDir(), 0).Fetch(ctx, tc.url, tc.token, tc.shas...)
			if err == nil {
				mr.Release()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			for _, secret := range []string{testToken, "ghs_wrong", basicAuth(testToken), basicAuth("ghs_wrong")} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q holds the secret %q", err, secret)
				}
			}
		})
	}
}

// TestGitRedactsToken runs git with the token where git echoes it back:
// the error names the argument, and it comes out redacted.
func TestGitRedactsToken(t *testing.T) {
	dir := t.TempDir()
	gitT(t, "", "init", "--quiet", "--bare", dir)
	g := gitCmd{dir: dir, token: testToken, url: "https://github.com/o/r.git"}
	_, err := g.run(context.Background(), "rev-parse", "--verify", testToken+"^{commit}", basicAuth(testToken))
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), basicAuth(testToken)) {
		t.Errorf("token in error: %v", err)
	}
	if !strings.Contains(err.Error(), "***") {
		t.Errorf("error %q has no redaction mark", err)
	}
	// The credential goes to the environment, scoped to the origin.
	env := strings.Join(g.env(), "\n")
	for _, want := range []string{"GIT_CONFIG_KEY_1=http.https://github.com/.extraHeader", "GIT_CONFIG_VALUE_1=Authorization: Basic " + basicAuth(testToken), "GIT_TERMINAL_PROMPT=0"} {
		if !strings.Contains(env, want) {
			t.Errorf("environment lacks %q", want)
		}
	}
}

func TestFetchSerializesPerRepository(t *testing.T) {
	src := buildExample(t)
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "o", "r")
	srv.publish(t, src, "o", "other")
	head := gitT(t, src, "rev-parse", "HEAD")
	dir := t.TempDir()
	ctx := context.Background()

	tests := []struct {
		name   string
		second *Mirrors // the second fetcher: same process, or another "process" (its own Mirrors: only the flock is shared)
	}{
		{"same Mirrors", nil},
		{"two Mirrors on one directory", NewMirrors(dir, 0)},
	}
	first := NewMirrors(dir, 0)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			second := tc.second
			if second == nil {
				second = first
			}
			held, err := first.Fetch(ctx, srv.url("o", "r"), testToken, head)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				mr, err := second.Fetch(ctx, srv.url("O", "R"), testToken, head)
				if err == nil {
					mr.Release()
				}
				done <- err
			}()
			// Another repository is not blocked.
			other, err := second.Fetch(ctx, srv.url("o", "other"), testToken, head)
			if err != nil {
				t.Fatal(err)
			}
			other.Release()
			select {
			case err := <-done:
				t.Fatalf("second fetch of o/r returned while the first held it: %v", err)
			case <-time.After(300 * time.Millisecond):
			}
			held.Release()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("second fetch still blocked after release")
			}

			// A waiting fetch gives up with its context.
			held, err = first.Fetch(ctx, srv.url("o", "r"), testToken, head)
			if err != nil {
				t.Fatal(err)
			}
			defer held.Release()
			cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			defer cancel()
			if mr, err := second.Fetch(cctx, srv.url("o", "r"), testToken, head); !errors.Is(err, context.DeadlineExceeded) {
				if mr != nil {
					mr.Release()
				}
				t.Errorf("fetch while locked with an expiring context: %v, want DeadlineExceeded", err)
			}
		})
	}
}

func TestFetchSizeLimit(t *testing.T) {
	src := buildExample(t)
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "o", "r")
	head := gitT(t, src, "rev-parse", "HEAD")
	dir := t.TempDir()
	ctx := context.Background()

	_, err := NewMirrors(dir, 2048).Fetch(ctx, srv.url("o", "r"), testToken, head)
	var se *SizeError
	if !errors.Is(err, ErrRepoTooLarge) || !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *SizeError", err)
	}
	if se.Limit != 2048 || se.Size <= 2048 || se.Repo != "o/r" {
		t.Errorf("SizeError = %+v", se)
	}
	if !strings.Contains(err.Error(), "larger than 2 KiB") {
		t.Errorf("error %q does not give the limit", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "git", "o", "r.git")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("oversized mirror kept: %v", err)
	}

	// Remembered: the next fetch fails at once, without a request.
	before, _ := srv.stats()
	if _, err := NewMirrors(dir, 2048).Fetch(ctx, srv.url("o", "r"), testToken, head); !errors.Is(err, ErrRepoTooLarge) {
		t.Errorf("second fetch: %v, want ErrRepoTooLarge", err)
	}
	if after, _ := srv.stats(); len(after) != len(before) {
		t.Errorf("second fetch of a too-large repository made %d requests", len(after)-len(before))
	}

	// A raised limit fetches again.
	mr, err := NewMirrors(dir, 100<<20).Fetch(ctx, srv.url("o", "r"), testToken, head)
	if err != nil {
		t.Fatalf("fetch with a raised limit: %v", err)
	}
	mr.Release()
}

func TestRepoKey(t *testing.T) {
	tests := []struct {
		url, owner, repo string
		err              bool
	}{
		{"https://github.com/acme/inventory.git", "acme", "inventory", false},
		{"https://github.com/Acme/Inventory", "acme", "inventory", false},
		{"https://ghe.example.com/acme/repo.js.git", "acme", "repo.js", false},
		{"http://127.0.0.1:8080/o/r.git", "o", "r", false},
		{"https://github.com/o/..git", "o", "%2E", false},
		{"https://github.com/o/.hidden.git", "o", "%2Ehidden", false},
		{"https://github.com/o/a%2Fb.git", "a", "b", false}, // decoded: the last two segments name it
		{"https://github.com/o/r%00x.git", "o", "r%00x", false},
		{"https://github.com/o/../r.git", "", "", true},
		{"https://github.com/r.git", "", "", true},
		{"file:///srv/o/r.git", "", "", true},
		{"https://user:pw@github.com/o/r.git", "", "", true},
		{"https://github.com/o/r.git?x=1", "", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			owner, repo, err := repoKey(tc.url)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if owner != tc.owner || repo != tc.repo {
				t.Errorf("= %q, %q; want %q, %q", owner, repo, tc.owner, tc.repo)
			}
			for _, s := range []string{owner, repo} {
				if s == "." || s == ".." || strings.ContainsAny(s, "/\\\x00") {
					t.Errorf("unsafe name %q", s)
				}
			}
		})
	}
}

// TestEngineNeedsAWorktree records why the Runner reviews a worktree of the
// mirror: review.Engine refuses the bare mirror itself, and accepts a
// no-checkout linked worktree of it.
func TestEngineNeedsAWorktree(t *testing.T) {
	src := buildExample(t)
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "o", "r")
	base, head := gitT(t, src, "rev-parse", "HEAD~1"), gitT(t, src, "rev-parse", "HEAD")
	ctx := context.Background()
	mr, err := NewMirrors(t.TempDir(), 0).Fetch(ctx, srv.url("o", "r"), testToken, base, head)
	if err != nil {
		t.Fatal(err)
	}
	defer mr.Release()
	e := &review.Engine{Extractor: &extract.Extractor{}}

	_, _, err = e.Load(ctx, review.Request{Repo: mr.Dir, Base: base, Head: head})
	var ue *review.UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("Load on the bare mirror: %v, want a *review.UsageError (not a working tree)", err)
	}

	wt, remove, err := mr.Worktree(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(wt)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			t.Errorf("worktree has %s checked out", e.Name())
		}
	}
	ws, _, err := e.Load(ctx, review.Request{Repo: wt, Base: base, Head: head})
	if err != nil {
		t.Fatalf("Load on the worktree: %v", err)
	}
	if len(ws.HeadFiles) == 0 || len(ws.Diff) == 0 {
		t.Errorf("worktree review sees %d files and %d changed files", len(ws.HeadFiles), len(ws.Diff))
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wt); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("worktree left behind: %v", err)
	}
	if list := gitT(t, "", "--git-dir="+mr.Dir, "worktree", "list", "--porcelain"); strings.Count(list, "worktree ") != 1 {
		t.Errorf("worktrees still registered:\n%s", list)
	}
}

func TestWorktreeChecksOutTheConfiguration(t *testing.T) {
	src := t.TempDir()
	gitT(t, "", "init", "--quiet", src)
	for name, data := range map[string]string{
		".docreview.yml":           "fail_on: never\n",
		".docreview/dismissed.yml": "[]\n",
		"README.md":                "# r\n",
		"docs/a.md":                "a\n",
	} {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, src, "add", "-A")
	gitT(t, src, "commit", "--quiet", "-m", "c")
	head := gitT(t, src, "rev-parse", "HEAD")
	srv := newGitServer(t, testToken)
	srv.publish(t, src, "o", "r")
	ctx := context.Background()
	mr, err := NewMirrors(t.TempDir(), 0).Fetch(ctx, srv.url("o", "r"), testToken, head)
	if err != nil {
		t.Fatal(err)
	}
	defer mr.Release()
	wt, remove, err := mr.Worktree(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	for name, want := range map[string]bool{".docreview.yml": true, ".docreview/dismissed.yml": true, "README.md": false, "docs": false} {
		_, err := os.Stat(filepath.Join(wt, name))
		if got := err == nil; got != want {
			t.Errorf("%s checked out: %v, want %v", name, got, want)
		}
	}
	data, ok, err := mr.ReadFile(ctx, head, ghpub.DismissedPath)
	if err != nil || !ok || string(data) != "[]\n" {
		t.Errorf("ReadFile(%s) = %q, %v, %v", ghpub.DismissedPath, data, ok, err)
	}
	if _, ok, err := mr.ReadFile(ctx, head, "nope.yml"); ok || err != nil {
		t.Errorf("ReadFile of a missing file: %v, %v", ok, err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 2 << 30: "2 GiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

package app

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// gitServer is a real smart-HTTP git server: git http-backend, run through
// net/http/cgi, over the bare repositories under root (root/OWNER/REPO.git).
// Every request must carry "Authorization: Basic" of x-access-token:token,
// as GitHub wants an installation token; others get 401.
type gitServer struct {
	*httptest.Server
	root  string
	token string

	mu       sync.Mutex
	requests []string // "METHOD PATH?QUERY", authorised or not
	denied   int
}

func newGitServer(t *testing.T, token string) *gitServer {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not on PATH")
	}
	s := &gitServer{root: t.TempDir(), token: token}
	backend := &cgi.Handler{
		Path: gitBin,
		Args: []string{"http-backend"},
		Env:  []string{"GIT_PROJECT_ROOT=" + s.root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + s.root},
		// "not our ref" and the like are the tests' expected failures.
		Stderr: io.Discard,
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.RequestURI())
		ok := r.Header.Get("Authorization") == "Basic "+base64.StdEncoding.EncodeToString([]byte("x-access-token:"+s.token))
		if !ok {
			s.denied++
		}
		s.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Basic realm="GitHub"`)
			http.Error(w, "bad credentials", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// publish puts a bare clone of the repository src at OWNER/REPO.git.
func (s *gitServer) publish(t *testing.T, src, owner, repo string) {
	t.Helper()
	dst := filepath.Join(s.root, owner, repo+".git")
	gitT(t, "", "clone", "--quiet", "--bare", src, dst)
	// As GitHub does, serve any commit of the repository by its SHA.
	gitT(t, dst, "config", "uploadpack.allowAnySHA1InWant", "true")
}

// setToken changes the token the server accepts.
func (s *gitServer) setToken(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = token
}

// url is the clone URL of OWNER/REPO.
func (s *gitServer) url(owner, repo string) string {
	return s.URL + "/" + owner + "/" + repo + ".git"
}

// stats returns the requests so far and how many were refused.
func (s *gitServer) stats() (requests []string, denied int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...), s.denied
}

// gitT runs git in dir ("" for none) with a clean configuration and
// returns its trimmed output, failing the test on error.
func gitT(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := gitOut(dir, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gitOut(dir string, stdin []byte, args ...string) (string, error) {
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.Command("git", args...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// buildExample builds the bundled example repository (examples/build.sh:
// three commits on main; the last is the pull request under review) and
// returns its directory.
func buildExample(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "examples", "build.sh")
	dir := filepath.Join(t.TempDir(), "example")
	cmd := exec.Command("bash", script, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("examples/build.sh: %v\n%s", err, out)
	}
	return dir
}

// buildForked builds a repository whose branches base and head each have
// n commits after their fork point, and returns its directory, the two
// tips and the fork point. With n over 50, a fetch of depth 50 does not
// reach the merge base.
func buildForked(t *testing.T, n int) (dir, base, head, fork string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "forked")
	gitT(t, "", "init", "--quiet", "--initial-branch=main", dir)
	var st strings.Builder
	mark := 0
	commit := func(branch, file, content string, from int) int {
		mark++
		fmt.Fprintf(&st, "blob\nmark :%d\ndata %d\n%s\n", mark, len(content), content)
		blob := mark
		mark++
		fmt.Fprintf(&st, "commit refs/heads/%s\nmark :%d\ncommitter t <t@example.com> %d +0000\ndata 2\nc\n", branch, mark, 1700000000+mark)
		if from > 0 {
			fmt.Fprintf(&st, "from :%d\n", from)
		}
		fmt.Fprintf(&st, "M 100644 :%d %s\n\n", blob, file)
		return mark
	}
	root := commit("main", "README.md", "# root\n", 0)
	b, h := root, root
	for i := range n {
		b = commit("main", "base.txt", fmt.Sprintf("base %d\n", i), b)
		h = commit("head", "head.txt", fmt.Sprintf("head %d\n", i), h)
	}
	if _, err := gitOut(dir, []byte(st.String()), "fast-import", "--quiet"); err != nil {
		t.Fatal(err)
	}
	return dir, gitT(t, dir, "rev-parse", "main"), gitT(t, dir, "rev-parse", "head"), gitT(t, dir, "rev-list", "--max-parents=0", "main")
}

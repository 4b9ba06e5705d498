package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// fakeGitHub stands in for the API the App uses: installation tokens, rate
// limit, the pull request, and the publisher's endpoints (no files in the
// diff, so findings go to the summary comment and the check run). It
// counts what was created. hold, when set, makes the first files listing
// (the start of publishing) wait until the client goes away, and closes
// held once it does.
type fakeGitHub struct {
	head, base string
	mu         sync.Mutex
	comments   []map[string]any
	checkRuns  int
	// runs are the check runs created, as the API lists them.
	runs   []map[string]any
	prGets int
	hold   bool
	held   chan struct{}
	// byPR counts summary comments and check runs per pull request, for
	// the pull requests other than 1.
	summaries, checks map[string]int
}

// prPath matches the pull request part of the API paths.
var prPath = regexp.MustCompile(`^/repos/acme/inventory/(pulls|issues)/(\d+)(/.*)?$`)

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	path := r.URL.Path
	f.mu.Lock()
	defer f.mu.Unlock()
	if m := prPath.FindStringSubmatch(path); m != nil && m[2] != "1" {
		f.otherPR(w, r, m[1], m[2], m[3])
		return
	}
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/app/installations/"):
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"token":"ghs_test","expires_at":%q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	case path == "/rate_limit":
		fmt.Fprintf(w, `{"resources":{"core":{"limit":5000,"remaining":4999,"reset":%d,"used":1}},"rate":{"limit":5000,"remaining":4999,"reset":%d,"used":1}}`,
			time.Now().Add(time.Hour).Unix(), time.Now().Add(time.Hour).Unix())
	case r.Method == http.MethodGet && path == "/repos/acme/inventory/pulls/1":
		f.prGets++
		fmt.Fprintf(w, `{"number":1,"state":"open","draft":false,"merged":false,"head":{"sha":%q,"ref":"topic","repo":{"full_name":"acme/inventory"}},"base":{"sha":%q,"ref":"main","repo":{"full_name":"acme/inventory"}}}`, f.head, f.base)
	case path == "/repos/acme/inventory/pulls/1/files":
		if f.hold {
			f.hold = false
			f.mu.Unlock()
			<-r.Context().Done() // the process is killed while it waits
			close(f.held)
			f.mu.Lock()
			return
		}
		fmt.Fprint(w, `[]`)
	case path == "/repos/acme/inventory/pulls/1/comments":
		fmt.Fprint(w, `[]`)
	case r.Method == http.MethodGet && path == "/repos/acme/inventory/issues/1/comments":
		_ = json.NewEncoder(w).Encode(f.comments)
	case r.Method == http.MethodPost && path == "/repos/acme/inventory/issues/1/comments":
		var c map[string]any
		_ = json.NewDecoder(r.Body).Decode(&c)
		c["id"] = len(f.comments) + 1
		c["user"] = map[string]any{"login": "docreview[bot]", "type": "Bot"}
		f.comments = append(f.comments, c)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPatch && strings.HasPrefix(path, "/repos/acme/inventory/issues/comments/"):
		var c map[string]any
		_ = json.NewDecoder(r.Body).Decode(&c)
		_ = json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPost && path == "/repos/acme/inventory/check-runs":
		var c struct {
			Name       string `json:"name"`
			HeadSHA    string `json:"head_sha"`
			ExternalID string `json:"external_id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&c)
		f.checkRuns++
		run := map[string]any{"id": f.checkRuns, "name": c.Name, "head_sha": c.HeadSHA, "external_id": c.ExternalID,
			"output": map[string]any{"annotations_count": 0}}
		f.runs = append(f.runs, run)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(run)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/repos/acme/inventory/commits/") && strings.HasSuffix(path, "/check-runs"):
		sha := strings.TrimSuffix(strings.TrimPrefix(path, "/repos/acme/inventory/commits/"), "/check-runs")
		runs := []map[string]any{}
		for _, run := range f.runs {
			if run["head_sha"] == sha {
				runs = append(runs, run)
			}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"total_count": len(runs), "check_runs": runs})
	case r.Method == http.MethodPatch && strings.HasPrefix(path, "/repos/acme/inventory/check-runs/"):
		fmt.Fprint(w, `{"id":1,"name":"docreview"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"message":"Not Found: %s %s"}`, r.Method, path)
	}
}

// otherPR answers for pull requests other than 1: open, with the same
// commits, nothing in the diff, and counts of what was created.
func (f *fakeGitHub) otherPR(w http.ResponseWriter, r *http.Request, kind, n, rest string) {
	switch {
	case kind == "pulls" && rest == "" && r.Method == http.MethodGet:
		fmt.Fprintf(w, `{"number":%s,"state":"open","draft":false,"merged":false,"head":{"sha":%q,"repo":{"full_name":"acme/inventory"}},"base":{"sha":%q,"repo":{"full_name":"acme/inventory"}}}`, n, f.head, f.base)
	case kind == "pulls" && (rest == "/files" || rest == "/comments"):
		fmt.Fprint(w, `[]`)
	case kind == "issues" && rest == "/comments" && r.Method == http.MethodGet:
		fmt.Fprint(w, `[]`)
	case kind == "issues" && rest == "/comments" && r.Method == http.MethodPost:
		f.summaries[n]++
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":%d,"body":"x","user":{"login":"docreview[bot]","type":"Bot"}}`, 1000+f.summaries[n])
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"message":"Not Found: %s %s"}`, r.Method, r.URL.Path)
	}
}

// gitServer serves the bare repositories under root over git's smart HTTP
// protocol (git http-backend), at URL + "/OWNER/REPO.git".
func gitServer(t *testing.T, root string) *httptest.Server {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	srv := httptest.NewServer(&cgi.Handler{Path: git, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}})
	t.Cleanup(srv.Close)
	return srv
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// serveTestTimeouts are the job limits of the crash test. A review here
// loads the standard library's types from a cold cache (its data dir is
// new): about 2 s on an idle 2-core machine, three times that with a build
// beside it, and once the job-timeout of 4 s this test had cut that off.
// Recovery after the crash does not wait for --rescue-after (the restarted
// server owns the queue and frees its predecessor's jobs at start), so
// both limits can be generous without slowing the test.
var serveTestTimeouts = []string{"--job-timeout", "2m", "--rescue-after", "3m"}

// TestServeCrashRecovery starts 'docreview serve' as a process, delivers a
// signed pull_request event, kills the process with SIGKILL while the job
// is publishing, restarts it on the same data dir, and checks that the job
// is picked up again and exactly one summary comment and one check run
// reach GitHub.
func TestServeCrashRecovery(t *testing.T) {
	f := newAppFixture(t, true)
	bin, gh, env, secret := f.bin, f.gh, f.env, f.secret
	data, addr := t.TempDir(), freeAddr(t)
	first, logs := startServe(t, bin, env, addr, data, serveTestTimeouts...)
	if code := deliverSigned(t, addr, secret, "crash-1", prEvent(1, gh.head, gh.base)); code != http.StatusAccepted {
		t.Fatalf("delivery: %d, want 202\n%s", code, logs.String())
	}

	// Kill the process while it publishes.
	waitFor(t, 60*time.Second, func() bool {
		gh.mu.Lock()
		defer gh.mu.Unlock()
		return !gh.hold
	}, "the review to reach publishing", logs)
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	<-gh.held

	killedAt := time.Now()
	_, logs2 := startServe(t, bin, env, addr, data, serveTestTimeouts...)
	waitFor(t, 90*time.Second, func() bool {
		gh.mu.Lock()
		defer gh.mu.Unlock()
		return len(gh.comments) > 0 && gh.checkRuns > 0
	}, "the restarted server to publish", logs2)
	recovered := time.Since(killedAt)
	time.Sleep(2 * time.Second) // a second run would show itself now
	gh.mu.Lock()
	defer gh.mu.Unlock()
	if len(gh.comments) != 1 || gh.checkRuns != 1 {
		t.Errorf("after the crash: %d summary comments and %d check runs, want 1 and 1", len(gh.comments), gh.checkRuns)
	}
	if s, _ := gh.comments[0]["body"].(string); !strings.Contains(s, "docreview") {
		t.Errorf("summary comment: %q", s)
	}
	t.Logf("killed mid-publish; the restarted server published after %s; summary comments %d, check runs %d, pull request fetched %d times",
		recovered.Round(time.Millisecond), len(gh.comments), gh.checkRuns, gh.prGets)
}

func waitFor(t *testing.T, d time.Duration, cond func() bool, what string, logs *syncBuffer) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; server log:\n%s", what, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startServe starts 'docreview serve' on addr and waits until /readyz
// answers 200. The process is killed at the end of the test.
func startServe(t *testing.T, bin string, env []string, addr, data string, extra ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--data-dir", data}, extra...)...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return cmd, logs
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not become ready:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// prEvent is a pull_request opened delivery for acme/inventory.
func prEvent(pr int, head, base string) string {
	return fmt.Sprintf(`{"action":"opened","number":%d,"pull_request":{"number":%d,"state":"open","draft":false,"updated_at":"2026-11-30T10:00:00Z","head":{"sha":%q,"repo":{"full_name":"acme/inventory"}},"base":{"sha":%q,"repo":{"full_name":"acme/inventory"}}},"repository":{"name":"inventory","full_name":"acme/inventory","owner":{"login":"acme"}},"installation":{"id":1},"sender":{"login":"mara","type":"User"}}`, pr, pr, head, base)
}

// deliverSigned posts a signed pull_request delivery and returns the status.
func deliverSigned(t *testing.T, addr, secret, id, body string) int {
	t.Helper()
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(body))
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/webhook", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", "pull_request")
	req.Header.Set("X-GitHub-Delivery", id)
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// appFixture is what the serve tests share: the binary, the example
// served over git's smart HTTP, a fake GitHub and the App's environment.
type appFixture struct {
	bin    string
	gh     *fakeGitHub
	env    []string
	secret string
}

func newAppFixture(t *testing.T, hold bool) *appFixture {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := filepath.Join(t.TempDir(), "docreview")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	origin := buildExample(t)
	root := t.TempDir()
	if out, err := exec.CommandContext(t.Context(), "git", "clone", "-q", "--bare", origin, filepath.Join(root, "acme", "inventory.git")).CombinedOutput(); err != nil {
		t.Fatalf("git clone --bare: %v\n%s", err, out)
	}
	rev := func(r string) string {
		out, err := exec.CommandContext(t.Context(), "git", "-C", origin, "rev-parse", r).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	gh := &fakeGitHub{head: rev("HEAD"), base: rev("HEAD~1"), hold: hold, held: make(chan struct{}),
		summaries: map[string]int{}, checks: map[string]int{}}
	api := httptest.NewServer(gh)
	t.Cleanup(api.Close)
	git := gitServer(t, root)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	secret := "s3cret"
	env := append(os.Environ(), "DOCREVIEW_WEBHOOK_SECRET="+secret, "DOCREVIEW_APP_ID=1", "DOCREVIEW_PRIVATE_KEY="+string(pemKey),
		"DOCREVIEW_GITHUB_URL="+api.URL+"/", "DOCREVIEW_GIT_URL="+git.URL+"/", "HOME="+t.TempDir())
	return &appFixture{bin: bin, gh: gh, env: env, secret: secret}
}

// TestServeTwoProcessesSharePostgres runs two 'docreview serve' processes
// on one PostgreSQL queue (a fresh database), sends every pull request's
// delivery twice, to both processes, with different delivery ids, and one
// id replayed, and checks that each pull request gets exactly one summary
// comment and their shared head one check run. Skips without DOCREVIEW_TEST_DATABASE_URL
// unless DOCREVIEW_REQUIRE_POSTGRES=1.
func TestServeTwoProcessesSharePostgres(t *testing.T) {
	base := os.Getenv("DOCREVIEW_TEST_DATABASE_URL")
	if base == "" {
		if os.Getenv("DOCREVIEW_REQUIRE_POSTGRES") == "1" {
			t.Fatal("DOCREVIEW_TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL cluster and sets it)")
		}
		t.Skip("DOCREVIEW_TEST_DATABASE_URL not set")
	}
	dbURL := freshDatabase(t, base)
	f := newAppFixture(t, false)
	addrs := []string{freeAddr(t), freeAddr(t)}
	for _, a := range addrs {
		startServe(t, f.bin, f.env, a, t.TempDir(), "--database", dbURL)
	}
	const first, last = 2, 9
	for pr := first; pr <= last; pr++ {
		body := prEvent(pr, f.gh.head, f.gh.base)
		for k, a := range addrs {
			code := deliverSigned(t, a, f.secret, fmt.Sprintf("pr%d-%d", pr, k), body)
			if code != http.StatusAccepted && code != http.StatusOK {
				t.Fatalf("delivery %d to %s: %d", pr, a, code)
			}
		}
		if code := deliverSigned(t, addrs[pr%2], f.secret, fmt.Sprintf("pr%d-0", pr), body); code != http.StatusOK {
			t.Errorf("replayed delivery: %d, want 200", code)
		}
	}
	prs := last - first + 1
	waitFor(t, 120*time.Second, func() bool {
		f.gh.mu.Lock()
		defer f.gh.mu.Unlock()
		return len(f.gh.summaries) == prs && f.gh.checkRuns >= 1
	}, "every pull request to be published", &syncBuffer{})
	time.Sleep(2 * time.Second) // a second review would show itself now
	f.gh.mu.Lock()
	defer f.gh.mu.Unlock()
	for pr := first; pr <= last; pr++ {
		if n := f.gh.summaries[fmt.Sprint(pr)]; n != 1 {
			t.Errorf("pull request %d: %d summary comments, want 1", pr, n)
		}
	}
	// Check runs belong to the commit, not to the pull request: the pull
	// requests share one head, whose check run says the same for each.
	if f.gh.checkRuns != 1 {
		t.Errorf("%d check runs on the head all %d pull requests share, want 1", f.gh.checkRuns, prs)
	}
}

// freshDatabase creates a database of its own on the server of base and
// returns its URL; it is dropped after the test.
func freshDatabase(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), base)
	if err != nil {
		t.Fatalf("connect to %s: %v", u.Redacted(), err)
	}
	defer conn.Close(context.WithoutCancel(t.Context()))
	name := fmt.Sprintf("docreview_serve_%d", time.Now().UnixNano())
	if _, err := conn.Exec(t.Context(), "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(context.Background())
		}
	})
	u.Path = "/" + name
	return u.String()
}

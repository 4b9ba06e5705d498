package main

import (
	"bytes"
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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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
	prGets     int
	hold       bool
	held       chan struct{}
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	path := r.URL.Path
	f.mu.Lock()
	defer f.mu.Unlock()
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
		f.checkRuns++
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":%d,"name":"docreview"}`, f.checkRuns)
	case r.Method == http.MethodPatch && strings.HasPrefix(path, "/repos/acme/inventory/check-runs/"):
		fmt.Fprint(w, `{"id":1,"name":"docreview"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"message":"Not Found: %s %s"}`, r.Method, path)
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

// TestServeCrashRecovery starts 'docreview serve' as a process, delivers a
// signed pull_request event, kills the process with SIGKILL while the job
// is publishing, restarts it on the same data dir, and checks that the job
// is picked up again and exactly one summary comment and one check run
// reach GitHub.
func TestServeCrashRecovery(t *testing.T) {
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
	gh := &fakeGitHub{head: rev("HEAD"), base: rev("HEAD~1"), hold: true, held: make(chan struct{})}
	api := httptest.NewServer(gh)
	t.Cleanup(api.Close)
	git := gitServer(t, root)

	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	data, addr := t.TempDir(), freeAddr(t)
	secret := "s3cret"
	env := append(os.Environ(), "DOCREVIEW_WEBHOOK_SECRET="+secret, "DOCREVIEW_APP_ID=1", "DOCREVIEW_PRIVATE_KEY="+string(pemKey),
		"DOCREVIEW_GITHUB_URL="+api.URL+"/", "DOCREVIEW_GIT_URL="+git.URL+"/", "HOME="+t.TempDir())
	start := func() (*exec.Cmd, *bytes.Buffer) {
		var logs bytes.Buffer
		cmd := exec.Command(bin, "serve", "--addr", addr, "--data-dir", data, "--job-timeout", "4s", "--rescue-after", "5s")
		cmd.Env, cmd.Stdout, cmd.Stderr = env, &logs, &logs
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
					return cmd, &logs
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("serve did not become ready:\n%s", logs.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	first, logs := start()
	body := fmt.Sprintf(`{"action":"opened","number":1,"pull_request":{"number":1,"state":"open","draft":false,"updated_at":"2026-11-30T10:00:00Z","head":{"sha":%q,"repo":{"full_name":"acme/inventory"}},"base":{"sha":%q,"repo":{"full_name":"acme/inventory"}}},"repository":{"name":"inventory","full_name":"acme/inventory","owner":{"login":"acme"}},"installation":{"id":1},"sender":{"login":"mara","type":"User"}}`, gh.head, gh.base)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(body))
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/webhook", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", "pull_request")
	req.Header.Set("X-GitHub-Delivery", "crash-1")
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("delivery: %d, want 202\n%s", res.StatusCode, logs.String())
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
	_, logs2 := start()
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

func waitFor(t *testing.T, d time.Duration, cond func() bool, what string, logs *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; server log:\n%s", what, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

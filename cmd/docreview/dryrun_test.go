package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/docreview/docreview/review/config"
)

// TestServeDryRun drives 'docreview serve --dry-run' as a maintainer
// would: a real pull_request delivery (from @octokit/webhooks-examples,
// its commits pointed at the bundled example), signed with the dry run's
// secret, goes through the real handler and queue; the review comes from
// the local clone and what the App would publish is printed. An unsigned
// delivery is refused.
func TestServeDryRun(t *testing.T) {
	repo := buildExample(t)
	head, base := git(t, repo, "rev-parse", "HEAD"), git(t, repo, "rev-parse", "HEAD~1")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--dry-run", "--repo", repo, "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()},
			nil, &stdout, &stderr, func(string) string { return "" })
	}()
	addrRE := regexp.MustCompile(`"msg":"serving","addr":"([^"]+)"`)
	var addr string
	for deadline := time.Now().Add(30 * time.Second); addr == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addrRE.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("serve --dry-run exited %d before serving:\n%s", code, stderr.String())
		default:
		}
	}
	if addr == "" {
		t.Fatalf("serve --dry-run did not start:\n%s", stderr.String())
	}

	raw, err := os.ReadFile(filepath.Join("..", "..", "action", "testdata", "events", "pull_request.opened.installation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	pr := p["pull_request"].(map[string]any)
	pr["head"].(map[string]any)["sha"] = head
	pr["base"].(map[string]any)["sha"] = base
	body, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	post := func(sig string) int {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/webhook", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", "dry-run-1")
		if sig != "" {
			req.Header.Set("X-Hub-Signature-256", sig)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(""); code != http.StatusUnauthorized {
		t.Errorf("unsigned delivery: %d, want 401", code)
	}
	mac := hmac.New(sha256.New, []byte(dryRunSecret))
	mac.Write(body)
	if code := post("sha256=" + hex.EncodeToString(mac.Sum(nil))); code != http.StatusAccepted {
		t.Fatalf("signed delivery: %d, want 202\n%s", code, stderr.String())
	}
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(stdout.String(), "## docreview") && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
	}
	out := stdout.String()
	t.Logf("dry run printed %d lines; first: %s", strings.Count(out, "\n"), strings.SplitN(out, "\n", 2)[0])
	for _, want := range []string{"docreview serve --dry-run: Codertocat/Hello-World#", "check run concluding failure", "## docreview", "Contradicted"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run output lacks %q:\n%s\nstderr:\n%s", want, out, stderr.String())
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("serve --dry-run exited %d after shutdown:\n%s", code, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Error("serve --dry-run did not shut down")
	}
}

// TestAppReviewReusesTheIndex: the App reviews each pull request in a new
// worktree; the index is the repository's, one directory updated in place,
// not one per worktree path (which made every review a full rebuild and
// was never deleted).
func TestAppReviewReusesTheIndex(t *testing.T) {
	repo := buildExample(t)
	head, base := git(t, repo, "rev-parse", "HEAD"), git(t, repo, "rev-parse", "HEAD~1")
	cache := t.TempDir()
	review := appReview(config.Default(), func(string) string { return "" }, slog.New(slog.DiscardHandler))
	for i := range 2 {
		wt := filepath.Join(t.TempDir(), "work", "pr-"+string(rune('a'+i)))
		git(t, repo, "worktree", "add", "-q", "--detach", wt, head)
		if _, err := review(t.Context(), wt, base, head, cache); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != "index.lock" && e.Name() != "types" {
			names = append(names, e.Name())
		}
	}
	if strings.Join(names, ",") != "index" {
		t.Errorf("cache holds %v; want one index (and the type cache), not one per worktree", names)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// cliResult is what one in-process run of docreview gave.
type cliResult struct {
	code           int
	stdout, stderr string
}

// runCLI runs docreview in-process with env as its whole environment.
func runCLI(t *testing.T, env map[string]string, args ...string) cliResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr, func(k string) string { return env[k] })
	return cliResult{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// commitFiles writes files (path -> content; "" deletes the file) into the
// repository at dir and commits them.
func commitFiles(t *testing.T, dir string, files map[string]string, msg string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if content == "" {
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", msg)
}

// git runs a git command in dir, ignoring the user's configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir,
		"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// summaryRE matches the summary line of 'docreview index'.
var summaryRE = regexp.MustCompile(`^indexed (\d+) files \((\d+) changed\) in \d+\.\ds: (\d+) chunks, [0-9.]+ [kMG]?B on disk, commit ([0-9a-f]{12}|worktree)\n`)

// indexSummary runs 'docreview index' and parses its summary line.
func indexSummary(t *testing.T, args ...string) (files, changed, chunks int, commit string) {
	t.Helper()
	res := runCLI(t, nil, append([]string{"index"}, args...)...)
	if res.code != exitOK {
		t.Fatalf("index: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	m := summaryRE.FindStringSubmatch(res.stdout)
	if m == nil {
		t.Fatalf("index: summary %q does not match %s", res.stdout, summaryRE)
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	return atoi(m[1]), atoi(m[2]), atoi(m[3]), m[4]
}

// TestIndexIncremental indexes the example repository, again unchanged,
// then after a commit that changes one file and adds a vendor directory
// (which is left out).
func TestIndexIncremental(t *testing.T) {
	repo := buildExample(t)
	cache := t.TempDir()
	args := []string{"--repo", repo, "--cache-dir", cache}

	files, changed, chunks, commit := indexSummary(t, args...)
	head := git(t, repo, "rev-parse", "HEAD")
	if commit != head[:12] || files < 10 || changed != files || chunks <= files {
		t.Errorf("first index: %d files (%d changed), %d chunks, commit %s; want every file changed, more chunks than files, commit %s",
			files, changed, chunks, commit, head[:12])
	}

	files2, changed2, chunks2, _ := indexSummary(t, args...)
	if files2 != files || changed2 != 0 || chunks2 != chunks {
		t.Errorf("second index: %d files (%d changed), %d chunks; want %d files (0 changed), %d chunks", files2, changed2, chunks2, files, chunks)
	}

	store, err := os.ReadFile(filepath.Join(repo, "store.go"))
	if err != nil {
		t.Fatal(err)
	}
	commitFiles(t, repo, map[string]string{
		"store.go":               string(store) + "\n// Compact drops expired holds.\nfunc (s *Store) Compact() {}\n",
		"vendor/dep/dep.go":      "package dep\n\n// VendoredOnly exists only in vendor.\nfunc VendoredOnly() {}\n",
		"vendor/modules.txt":     "# example.com/dep v1.0.0\n",
		"internal/x/vendor.txt":  "not a vendor directory\n",
		"docs/vendor/notes.md":   "# Vendored notes\n",
		"third/vendor/README.md": "# nested vendor\n",
	}, "change store.go, add vendor")
	files3, changed3, _, commit3 := indexSummary(t, args...)
	if commit3 != git(t, repo, "rev-parse", "HEAD")[:12] {
		t.Errorf("third index: commit %s, want the new HEAD", commit3)
	}
	// store.go changed and internal/x/vendor.txt is new; every vendor
	// directory is left out.
	if files3 != files+1 || changed3 != 2 {
		t.Errorf("third index: %d files (%d changed), want %d files (2 changed)", files3, changed3, files+1)
	}

	res := runCLI(t, nil, "query", "--repo", repo, "--cache-dir", cache, "--format", "json", "VendoredOnly")
	if res.code != exitOK || strings.Contains(res.stdout, "vendor/dep") {
		t.Errorf("query VendoredOnly after a default index: exit %d, stdout %s; want no vendor hit", res.code, res.stdout)
	}
	files4, changed4, _, _ := indexSummary(t, append(args, "--include-vendor")...)
	if files4 != files3+4 || changed4 != 4 {
		t.Errorf("index --include-vendor: %d files (%d changed), want %d (4 changed)", files4, changed4, files3+4)
	}
	res = runCLI(t, nil, "query", "--repo", repo, "--cache-dir", cache, "--format", "json", "VendoredOnly")
	if res.code != exitOK || !strings.Contains(res.stdout, `"path": "vendor/dep/dep.go"`) {
		t.Errorf("query VendoredOnly after --include-vendor: exit %d, stdout %s; want the vendor hit", res.code, res.stdout)
	}

	// The configuration file's include-vendor gives the same index as the
	// flag (reused), and the flag wins over it.
	cfg := filepath.Join(t.TempDir(), "docreview.yml")
	if err := os.WriteFile(cfg, []byte("include-vendor: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files5, changed5, _, _ := indexSummary(t, append(args, "--config", cfg)...)
	files6, changed6, _, _ := indexSummary(t, append(args, "--config", cfg, "--include-vendor=false")...)
	if files5 != files4 || changed5 != 0 || files6 != files3 || changed6 != 0 {
		t.Errorf("index with include-vendor in the configuration: %d files (%d changed), then with --include-vendor=false %d (%d changed); want %d (0), then %d (0)",
			files5, changed5, files6, changed6, files4, files3)
	}
}

// TestIndexWorktree indexes uncommitted changes.
func TestIndexWorktree(t *testing.T) {
	repo := buildExample(t)
	cache := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "scratch.md"), []byte("# Scratch\n\nUncommittedWord lives here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, commit := indexSummary(t, "--repo", repo, "--cache-dir", cache, "--worktree")
	if commit != "worktree" {
		t.Errorf("index --worktree: commit %q, want worktree", commit)
	}
	res := runCLI(t, nil, "query", "--repo", repo, "--cache-dir", cache, "UncommittedWord")
	if res.code != exitOK || !strings.Contains(res.stdout, "scratch.md:1-3") {
		t.Errorf("query after index --worktree: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
}

func TestIndexUsage(t *testing.T) {
	repo := buildExample(t)
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown flag", []string{"--nope"}, "flag provided but not defined: -nope"},
		{"positional argument", []string{"extra"}, `unexpected argument "extra"`},
		{"head and worktree", []string{"--head", "HEAD", "--worktree"}, "--head and --worktree exclude each other"},
		{"unknown ref", []string{"--head", "no-such-ref"}, "no-such-ref"},
		{"not a repository", []string{"--repo", t.TempDir()}, "git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"index", "--repo", repo, "--cache-dir", t.TempDir()}, tt.args...)
			res := runCLI(t, nil, args...)
			if res.code != exitError || !strings.Contains(res.stderr, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, tt.wantErr)
			}
		})
	}
}

// fakeEmbeddings is an OpenAI-compatible embeddings endpoint: each text's
// vector counts its words, hashed into 64 dimensions. status, when not 200,
// is returned instead.
type fakeEmbeddings struct {
	t      *testing.T
	status int
	mu     sync.Mutex
	texts  int
	models []string
}

func (f *fakeEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer test-key" {
		f.t.Errorf("unexpected request %s %s (authorization %q)", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		http.Error(w, "unexpected request", http.StatusNotFound)
		return
	}
	f.mu.Lock()
	status := f.status
	f.mu.Unlock()
	if status != http.StatusOK {
		http.Error(w, `{"error":{"message":"invalid api key","type":"invalid_request_error"}}`, status)
		return
	}
	var req struct {
		Input []string `json:"input"`
		Model string   `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("decode embeddings request: %v", err)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.texts += len(req.Input)
	if !slices.Contains(f.models, req.Model) {
		f.models = append(f.models, req.Model)
	}
	f.mu.Unlock()
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	resp := struct {
		Object string         `json:"object"`
		Data   []datum        `json:"data"`
		Model  string         `json:"model"`
		Usage  map[string]int `json:"usage"`
	}{Object: "list", Model: req.Model, Usage: map[string]int{"prompt_tokens": 1, "total_tokens": 1}}
	for i, text := range req.Input {
		v := make([]float64, 64)
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		v[0] += 0.01 // never the zero vector
		resp.Data = append(resp.Data, datum{Object: "embedding", Index: i, Embedding: v})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// seen returns the number of texts embedded and the models asked for.
func (f *fakeEmbeddings) seen() (int, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.texts, slices.Clone(f.models)
}

// fail makes the endpoint answer with status from now on.
func (f *fakeEmbeddings) fail(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status = status
}

// TestIndexEmbeddings indexes with an embeddings endpoint: the chunks are
// embedded once, the dense channel answers queries, and a failing
// endpoint is a warning that leaves the lexical index usable.
func TestIndexEmbeddings(t *testing.T) {
	repo := buildExample(t)
	fake := &fakeEmbeddings{t: t, status: http.StatusOK}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": srv.URL + "/v1/", "DOCREVIEW_EMBEDDINGS_MODEL": "test-embed"}
	cache := t.TempDir()
	args := []string{"index", "--repo", repo, "--cache-dir", cache}

	res := runCLI(t, env, args...)
	if res.code != exitOK || !summaryRE.MatchString(res.stdout) || !regexp.MustCompile(`\nembedded \d+ chunks with test-embed in `).MatchString(res.stdout) {
		t.Fatalf("index: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	first, models := fake.seen()
	if first == 0 || !slices.Equal(models, []string{"test-embed"}) {
		t.Errorf("endpoint embedded %d texts with models %v; want some, with test-embed", first, models)
	}
	res = runCLI(t, env, args...)
	if again, _ := fake.seen(); res.code != exitOK || again != first {
		t.Errorf("second index: exit %d, %d more texts embedded; want none\nstderr: %s", res.code, again-first, res.stderr)
	}

	res = runCLI(t, env, "query", "--repo", repo, "--cache-dir", cache, "--channels", "dense", "--format", "json", "reservation expiry")
	var out queryJSON
	err := json.Unmarshal([]byte(res.stdout), &out)
	hits := out.Hits
	if res.code != exitOK || err != nil || len(hits) == 0 {
		t.Fatalf("dense query: exit %d, %d hits, %v\nstderr: %s", res.code, len(hits), err, res.stderr)
	}
	for _, h := range hits {
		if h.Ranks["dense"] == 0 || len(h.Ranks) != 1 || !strings.HasPrefix(h.Why, "embedding similarity") {
			t.Errorf("hit %s: ranks %v, why %q; want only a dense rank", h.ID, h.Ranks, h.Why)
		}
	}

	fake.fail(http.StatusUnauthorized)
	cache2 := t.TempDir()
	res = runCLI(t, env, "index", "--repo", repo, "--cache-dir", cache2)
	if res.code != exitOK || !summaryRE.MatchString(res.stdout) || !strings.Contains(res.stderr, "warning: embeddings:") ||
		!strings.Contains(res.stderr, "the lexical index is built") {
		t.Errorf("index with a failing endpoint: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, env, "query", "--repo", repo, "--cache-dir", cache2, "--format", "json", "Hold")
	t.Logf("query with a failing endpoint, stderr:\n%s", res.stderr)
	if res.code != exitOK || !strings.Contains(res.stdout, `"lexical"`) || !strings.Contains(res.stderr, "dense channel off") {
		t.Errorf("query with a failing endpoint: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
}

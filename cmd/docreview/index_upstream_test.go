package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// upstreamModCache is the fixture module cache, laid out as GOMODCACHE:
// example.com/knob at v1.0.0 and v1.1.0.
func upstreamModCache(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata/upstream/modcache")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// upstreamGoMod requires knob at version and a module the fixture cache
// lacks.
func upstreamGoMod(version string) []byte {
	return []byte("module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/absent v0.1.0\n\texample.com/knob " + version + "\n)\n")
}

// newUpstreamRepo makes a repository whose go.mod requires knob v1.0.0.
func newUpstreamRepo(t *testing.T) *gitRepo {
	t.Helper()
	g := newGitRepo(t)
	g.commit("app", map[string][]byte{
		"go.mod":    upstreamGoMod("v1.0.0"),
		"app.go":    []byte("package app\n\n// Turn turns the knob once.\nfunc Turn() int { return 1 }\n"),
		"README.md": []byte("# app\n\nTurns a knob.\n"),
	})
	return g
}

// upstreamSummaryRE matches the summary line of 'docreview index' with
// the upstream modules.
var upstreamSummaryRE = regexp.MustCompile(`^indexed (\d+) files \((\d+) changed\) in \d+\.\ds: (\d+) chunks, [0-9.]+ [kMG]?B on disk, commit (?:[0-9a-f]{12}|worktree), upstream: (\d+) modules? read \((\d+) chunks\), (\d+) skipped\n$`)

// upstreamIndex is what one 'docreview index' run printed.
type upstreamIndex struct {
	files, changed, chunks int
	// read, extra and skipped are -1 when the summary does not mention
	// upstream modules.
	read, extra, skipped int
	stderr               string
}

// runUpstreamIndex runs 'docreview index' with env and parses its summary.
func runUpstreamIndex(t *testing.T, env map[string]string, args ...string) upstreamIndex {
	t.Helper()
	res := runCLI(t, env, append([]string{"index"}, args...)...)
	if res.code != exitOK {
		t.Fatalf("index %v: exit %d\nstdout: %s\nstderr: %s", args, res.code, res.stdout, res.stderr)
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	if m := upstreamSummaryRE.FindStringSubmatch(res.stdout); m != nil {
		return upstreamIndex{atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6]), res.stderr}
	}
	m := summaryRE.FindStringSubmatch(res.stdout)
	if m == nil || strings.Contains(res.stdout, "upstream") {
		t.Fatalf("index %v: summary %q matches neither %s nor %s", args, res.stdout, upstreamSummaryRE, summaryRE)
	}
	return upstreamIndex{atoi(m[1]), atoi(m[2]), atoi(m[3]), -1, -1, -1, res.stderr}
}

// upstreamHits runs 'docreview query --source upstream' for text and
// returns the paths of the hits.
func upstreamHits(t *testing.T, env map[string]string, args ...string) []string {
	t.Helper()
	res := runCLI(t, env, append([]string{"query", "--source", "upstream", "--format", "json"}, args...)...)
	if res.code != exitOK {
		t.Fatalf("query %v: exit %d\nstderr: %s", args, res.code, res.stderr)
	}
	var paths []string
	for _, m := range regexp.MustCompile(`"path": "([^"]+)"`).FindAllStringSubmatch(res.stdout, -1) {
		paths = append(paths, m[1])
	}
	return paths
}

// TestIndexUpstream indexes a repository with the APIs of its
// dependencies from the fixture module cache, through the flag, the
// configuration file and the environment, and follows a version bump.
func TestIndexUpstream(t *testing.T) {
	t.Parallel()
	g := newUpstreamRepo(t)
	cache := t.TempDir()
	env := map[string]string{"DOCREVIEW_MODCACHE": upstreamModCache(t)}
	args := []string{"--repo", g.dir, "--cache-dir", cache}
	knob10 := "@upstream/example.com/knob@v1.0.0/knob.go"
	knob11 := "@upstream/example.com/knob@v1.1.0/knob.go"

	first := runUpstreamIndex(t, env, append(args, "--upstream")...)
	if first.read != 1 || first.skipped != 1 || first.extra != 2 || first.files != 3 || first.changed != 3 {
		t.Errorf("index --upstream: %+v; want 3 files (3 changed), 1 module read (2 chunks: package doc and Twiddle), 1 skipped", first)
	}
	if !strings.Contains(first.stderr, "docreview: upstream module example.com/absent@v0.1.0 skipped: not in module cache") {
		t.Errorf("index --upstream: stderr does not list the skipped module:\n%s", first.stderr)
	}
	if got := upstreamHits(t, env, "--repo", g.dir, "--cache-dir", cache, "Twiddle"); len(got) != 1 || got[0] != knob10 {
		t.Errorf("query --source upstream Twiddle = %v, want [%s]", got, knob10)
	}
	res := runCLI(t, env, "query", "--repo", g.dir, "--cache-dir", cache, "--format", "json", "--symbol", "knob.Twiddle", "Twiddle")
	if res.code != exitOK || !strings.Contains(res.stdout, `"source": "upstream"`) {
		t.Errorf("query Twiddle without a source filter: exit %d, stdout %s; want the upstream hit among the others", res.code, res.stdout)
	}

	again := runUpstreamIndex(t, env, append(args, "--upstream")...)
	if again.changed != 0 || again.chunks != first.chunks || again.extra != first.extra {
		t.Errorf("second index --upstream: %+v; want it reused (0 changed, %d chunks)", again, first.chunks)
	}

	// Without upstream, the same commit's index is updated: the upstream
	// chunks go, no file changes.
	plain := runUpstreamIndex(t, env, args...)
	if plain.read != -1 || plain.changed != 0 || plain.chunks != first.chunks-first.extra {
		t.Errorf("index without --upstream: %+v; want no upstream, 0 changed, %d chunks", plain, first.chunks-first.extra)
	}
	if got := upstreamHits(t, env, "--repo", g.dir, "--cache-dir", cache, "Twiddle"); len(got) != 0 {
		t.Errorf("query --source upstream Twiddle after an index without upstream = %v, want none", got)
	}

	// The configuration file and the environment switch it on; the flag
	// and the environment win over the file.
	cfg := filepath.Join(t.TempDir(), "docreview.yml")
	if err := os.WriteFile(cfg, []byte("upstream: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withEnv := func(k, v string) map[string]string {
		e := map[string]string{k: v}
		for k, v := range env {
			e[k] = v
		}
		return e
	}
	for _, tt := range []struct {
		name     string
		env      map[string]string
		args     []string
		upstream bool
	}{
		{"config file", env, []string{"--config", cfg}, true},
		{"flag over config file", env, []string{"--config", cfg, "--upstream=false"}, false},
		{"environment", withEnv("DOCREVIEW_UPSTREAM", "1"), nil, true},
		{"environment over config file", withEnv("DOCREVIEW_UPSTREAM", "0"), []string{"--config", cfg}, false},
	} {
		got := runUpstreamIndex(t, tt.env, append(slices.Clone(args), tt.args...)...)
		if (got.read >= 0) != tt.upstream || got.changed != 0 {
			t.Errorf("%s: %+v; want upstream %v, 0 files changed", tt.name, got, tt.upstream)
		}
	}

	// A new version in go.mod: go.mod changes, the old version's chunks
	// go, the new one's come.
	g.commit("bump knob", map[string][]byte{"go.mod": upstreamGoMod("v1.1.0")})
	bumped := runUpstreamIndex(t, env, append(args, "--upstream")...)
	if bumped.changed != 1 || bumped.read != 1 || bumped.extra != 3 {
		t.Errorf("index --upstream after the bump: %+v; want 1 file changed, 1 module read (3 chunks)", bumped)
	}
	if got := upstreamHits(t, env, "--repo", g.dir, "--cache-dir", cache, "Twiddle"); len(got) != 1 || got[0] != knob11 {
		t.Errorf("query --source upstream Twiddle after the bump = %v, want [%s]", got, knob11)
	}
}

// TestQueryBuildsUpstream checks that query, building a missing index,
// adds the upstream modules when the environment asks, and that review
// reads them with --upstream.
func TestQueryBuildsUpstream(t *testing.T) {
	t.Parallel()
	g := newUpstreamRepo(t)
	env := map[string]string{"DOCREVIEW_MODCACHE": upstreamModCache(t), "DOCREVIEW_UPSTREAM": "1"}
	cache := t.TempDir()
	res := runCLI(t, env, "query", "--repo", g.dir, "--cache-dir", cache, "--source", "upstream", "Twiddle")
	if res.code != exitOK || !strings.Contains(res.stdout, "@upstream/example.com/knob@v1.0.0/knob.go:4-5  upstream") ||
		!strings.Contains(res.stderr, "no index in") || !strings.Contains(res.stderr, "upstream module example.com/absent@v0.1.0 skipped") {
		t.Errorf("query with DOCREVIEW_UPSTREAM=1 and no index: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}

	// An index without them, asked for them: a note says how to add them.
	plain := t.TempDir()
	runUpstreamIndex(t, nil, "--repo", g.dir, "--cache-dir", plain)
	res = runCLI(t, env, "query", "--repo", g.dir, "--cache-dir", plain, "Twiddle")
	if res.code != exitOK || !strings.Contains(res.stderr, "the index has no upstream modules; run 'docreview index --upstream'") {
		t.Errorf("query with DOCREVIEW_UPSTREAM=1 over an index without them: exit %d\nstderr: %s", res.code, res.stderr)
	}

	// An index of the working tree that query updates keeps its upstream
	// modules, though the configuration does not ask for them.
	wt := t.TempDir()
	runUpstreamIndex(t, env, "--repo", g.dir, "--cache-dir", wt, "--worktree", "--upstream")
	if err := os.WriteFile(filepath.Join(g.dir, "README.md"), []byte("# app\n\nTurns a knob twice.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = runCLI(t, map[string]string{"DOCREVIEW_MODCACHE": upstreamModCache(t)}, "query", "--repo", g.dir, "--cache-dir", wt, "--source", "upstream", "Twiddle")
	if res.code != exitOK || !strings.Contains(res.stderr, "earlier state of the working tree; updating it") ||
		!strings.Contains(res.stdout, "@upstream/example.com/knob@v1.0.0/knob.go:4-5") {
		t.Errorf("query after a working tree change: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	g.git("checkout", "--", "README.md")

	res = runCLI(t, map[string]string{"DOCREVIEW_MODCACHE": upstreamModCache(t)}, "review", "--repo", g.dir, "--no-cache", "--scope", "all", "--upstream")
	if res.code == exitError || !strings.Contains(res.stdout, "dependency example.com/absent@v0.1.0 not indexed: not in module cache") {
		t.Errorf("review --upstream: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, map[string]string{"DOCREVIEW_MODCACHE": upstreamModCache(t)}, "review", "--repo", g.dir, "--no-cache", "--scope", "all")
	if res.code == exitError || strings.Contains(res.stdout, "not indexed") {
		t.Errorf("review without --upstream: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMCPUpstream runs 'docreview mcp' in-process with the configuration
// asking for upstream modules: the index it builds holds them, and the
// search tool finds a dependency's symbol.
func TestMCPUpstream(t *testing.T) {
	t.Parallel()
	g := newUpstreamRepo(t)
	cfg := filepath.Join(t.TempDir(), "docreview.yml")
	if err := os.WriteFile(cfg, []byte("upstream: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DOCREVIEW_MODCACHE": upstreamModCache(t)}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		code := run(t.Context(), []string{"mcp", "--repo", g.dir, "--cache-dir", t.TempDir(), "--config", cfg}, inR,
			outW, &stderr, func(k string) string { return env[k] })
		_ = outW.Close()
		done <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "docreview-test", Version: "v0"}, nil)
	session, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "search",
		Arguments: map[string]any{"query": "Twiddle", "source": []string{"upstream"}}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out searchOutput
	if err := json.Unmarshal(data, &out); err != nil || res.IsError {
		t.Fatalf("search: %v, tool error %v: %s", err, res.IsError, data)
	}
	var paths []string
	for _, h := range out.Hits {
		paths = append(paths, h.Path)
	}
	if d := cmp.Diff([]string{"@upstream/example.com/knob@v1.0.0/knob.go"}, paths); d != "" {
		t.Errorf("search Twiddle in upstream (-want +got):\n%s", d)
	}
	if err := session.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if code := <-done; code != exitOK {
		t.Errorf("mcp exit %d\nstderr: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "upstream module example.com/absent@v0.1.0 skipped") {
		t.Errorf("stderr does not list the skipped module:\n%s", stderr.String())
	}
}

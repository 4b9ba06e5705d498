package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// buildBinary builds the docreview command into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "docreview")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestMCPServer runs 'docreview mcp' as a subprocess and talks to it with
// the SDK's client over stdio.
func TestMCPServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	repo := buildExample(t)
	cache := t.TempDir()

	cmd := exec.Command(bin, "mcp", "--repo", repo, "--cache-dir", cache)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "docreview-test", Version: "v0"}, nil)
	session, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nserver stderr: %s", err, stderr.String())
	}
	defer func() {
		if err := session.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	}()

	call := func(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("call %s: %v", name, err)
		}
		return res
	}
	text := func(res *mcp.CallToolResult) string {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	decode := func(t *testing.T, res *mcp.CallToolResult, v any) {
		t.Helper()
		if res.IsError {
			t.Fatalf("tool error: %s", text(res))
		}
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("decode %s: %v", data, err)
		}
	}

	t.Run("list tools", func(t *testing.T) {
		res, err := session.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.Description == "" || tool.InputSchema == nil {
				t.Errorf("tool %s lacks a description or an input schema", tool.Name)
			}
		}
		slices.Sort(names)
		if d := cmp.Diff([]string{"read", "search", "symbol"}, names); d != "" {
			t.Errorf("tools (-want +got):\n%s", d)
		}
	})

	t.Run("search", func(t *testing.T) {
		var out searchOutput
		decode(t, call(t, "search", map[string]any{"query": "Hold", "top_k": 5}), &out)
		if len(out.Hits) == 0 || len(out.Hits) > 5 {
			t.Fatalf("got %d hits, want 1 to 5", len(out.Hits))
		}
		found := false
		for _, h := range out.Hits {
			found = found || h.Path == "store.go" && strings.Contains(h.Snippet, "func (s *Store) Hold(")
		}
		if !found {
			t.Errorf("no hit is store.go's Hold: %+v", out.Hits)
		}
	})

	t.Run("search by symbol and source", func(t *testing.T) {
		var out searchOutput
		decode(t, call(t, "search", map[string]any{"symbol": "Store.Hold", "source": []string{"test"}}), &out)
		if len(out.Hits) == 0 {
			t.Fatal("no hits")
		}
		for _, h := range out.Hits {
			if h.Source != "test" {
				t.Errorf("hit %s has source %s, want test", h.ID, h.Source)
			}
		}
	})

	t.Run("symbol", func(t *testing.T) {
		var out symbolOutput
		decode(t, call(t, "symbol", map[string]any{"name": "Store.Hold"}), &out)
		if out.Name != "Store.Hold" || out.Kind != "method" || out.Definition.Path != "store.go" {
			t.Errorf("symbol %s (%s) defined at %s, want method Store.Hold in store.go", out.Name, out.Kind, out.Definition.Path)
		}
		var tests []string
		for _, r := range out.Tests {
			tests = append(tests, r.Symbol)
			if r.Why == "" || len(r.Hops) == 0 || r.StartLine < 1 {
				t.Errorf("test ref %+v lacks why, hops or lines", r)
			}
		}
		if !slices.Contains(tests, "TestHold") {
			t.Errorf("tests %v lack TestHold", tests)
		}
		if len(out.Examples) == 0 {
			t.Errorf("no examples; want ExampleStore_Hold")
		}
	})

	t.Run("read", func(t *testing.T) {
		res := call(t, "read", map[string]any{"path": "store.go", "start_line": 1, "end_line": 3})
		if res.IsError {
			t.Fatalf("tool error: %s", text(res))
		}
		src, err := os.ReadFile(filepath.Join(repo, "store.go"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		want := "1\t" + lines[0] + "\n2\t" + lines[1] + "\n3\t" + lines[2] + "\n"
		if d := cmp.Diff(want, text(res)); d != "" {
			t.Errorf("read store.go 1-3 (-want +got):\n%s", d)
		}
	})

	t.Run("read clips to the end of the file", func(t *testing.T) {
		res := call(t, "read", map[string]any{"path": "go.mod"})
		if res.IsError || !strings.HasPrefix(text(res), "1\tmodule ") {
			t.Errorf("read go.mod: error %v, text %q", res.IsError, text(res))
		}
	})

	errorsTests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"read missing path", "read", map[string]any{"path": "missing.go"}, "read missing.go: no such file at the indexed commit"},
		{"read past the end", "read", map[string]any{"path": "go.mod", "start_line": 9999}, "past the end of the file"},
		{"read bad range", "read", map[string]any{"path": "store.go", "start_line": 5, "end_line": 2}, "end_line 2 is before start_line 5"},
		{"read escaping path", "read", map[string]any{"path": "../etc/passwd"}, "invalid path"},
		{"search nothing", "search", map[string]any{}, "give query or symbol"},
		{"search bad source", "search", map[string]any{"query": "x", "source": []string{"tests"}}, `unknown source "tests"`},
		{"symbol unknown", "symbol", map[string]any{"name": "Store.Nope"}, "Store.Nope"},
		{"missing required argument", "read", map[string]any{}, "path"},
	}
	for _, tt := range errorsTests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tt.tool, tt.args)
			if !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("IsError %v, text %q; want a tool error containing %q", res.IsError, text(res), tt.want)
			}
		})
	}
}

// TestMCPUsage checks that bad flags fail before serving.
func TestMCPUsage(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"positional argument", []string{"extra"}, `unexpected argument "extra"`},
		{"unknown flag", []string{"--head", "HEAD"}, "flag provided but not defined: -head"},
		{"not a repository", []string{"--repo", t.TempDir()}, "git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runCLI(t, nil, append([]string{"mcp", "--cache-dir", t.TempDir()}, tt.args...)...)
			if res.code != exitError || !strings.Contains(res.stderr, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, tt.wantErr)
			}
		})
	}
}

// TestMCPIndexUnavailable serves in-process from a cache directory whose
// index cannot be opened: the server still answers, and every tool call is
// a tool error that says why.
func TestMCPIndexUnavailable(t *testing.T) {
	repo := buildExample(t)
	cache := t.TempDir()
	dir, err := indexDir(reviewFlags{repo: repo, cacheDir: cache}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}

	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- run(t.Context(), []string{"mcp", "--repo", repo, "--cache-dir", cache}, serverR, serverW, &stderr, func(string) string { return "" })
		serverW.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "docreview-test", Version: "v0"}, nil)
	session, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "Hold"}})
	if err != nil {
		t.Fatal(err)
	}
	var msg string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			msg += tc.Text
		}
	}
	if !res.IsError || !strings.Contains(msg, "the evidence index is not available") || !strings.Contains(msg, dir) {
		t.Errorf("search: IsError %v, %q; want a tool error naming the index", res.IsError, msg)
	}
	if err := session.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if code := <-done; code != exitOK {
		t.Errorf("server exit %d, want 0 when the client hangs up\nstderr: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "load the evidence index") {
		t.Errorf("stderr %q does not log the failure", stderr.String())
	}
}

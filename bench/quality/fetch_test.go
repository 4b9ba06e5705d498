package quality

import (
	"log/slog"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/docreview/docreview/retrieval/proxytest"
)

// TestAddNested: a README that imports a package of a nested module of
// the same repository gets that module's files at the same version, as
// a checkout of the repository has them; a path no module serves is left
// out.
func TestAddNested(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	proxy, cache := t.TempDir(), t.TempDir()
	proxytest.WriteModule(t, proxy, "example.com/m/sdk", "v1.0.0", map[string]string{
		"trace/trace.go": "package trace\n\n// WithResource sets the resource.\nfunc WithResource(r string) {}\n",
	})
	useProxy(t, proxy, cache)
	files := map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.22\n",
		"m.go":      "package m\n",
		"README.md": "```go\nimport (\n\t\"example.com/m\"\n\tsdktrace \"example.com/m/sdk/trace\"\n\t\"example.com/m/internal/gone\"\n)\n```\n",
	}
	addNested(t.Context(), slog.New(slog.DiscardHandler), "example.com/m", "v1.0.0", files)
	for _, want := range []string{"sdk/go.mod", "sdk/trace/trace.go"} {
		if _, ok := files[want]; !ok {
			t.Errorf("%s missing after addNested; files: %v", want, keys(files))
		}
	}
	for p := range files {
		if filepath.Dir(p) == "internal/gone" || filepath.Dir(p) == "internal" {
			t.Errorf("%s added for a path no module serves", p)
		}
	}
	if len(files) != 5 {
		t.Errorf("got %d files, want the 3 of the module and the 2 of sdk: %v", len(files), keys(files))
	}
}

// TestModuleFilesBeforeModules: a version whose zip has no go.mod is
// read with the go.mod the proxy serves for it, so that its packages get
// their import paths.
func TestModuleFilesBeforeModules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	proxy, cache := t.TempDir(), t.TempDir()
	proxytest.WriteModule(t, proxy, "example.com/old", "v0.4.0", map[string]string{
		"go.mod":       "",
		"level/doc.go": "// Package level filters.\npackage level\n",
		"with/with.go": "package with\n",
	})
	proxytest.WriteModule(t, proxy, "example.com/new", "v1.0.0", map[string]string{"n.go": "package n\n"})
	useProxy(t, proxy, cache)
	tests := []struct{ path, version, want string }{
		{"example.com/old", "v0.4.0", "module example.com/old\n"},
		{"example.com/new", "v1.0.0", "module example.com/new\n\ngo 1.22\n"},
	}
	for _, tt := range tests {
		files, err := moduleFiles(t.Context(), tt.path, tt.version)
		if err != nil {
			t.Fatalf("moduleFiles(%s@%s): %v", tt.path, tt.version, err)
		}
		if got := files["go.mod"]; got != tt.want {
			t.Errorf("%s@%s: go.mod = %q, want %q", tt.path, tt.version, got, tt.want)
		}
	}
	if _, err := moduleFiles(t.Context(), "example.com/absent", "v1.0.0"); err == nil {
		t.Error("moduleFiles of a module the proxy does not serve: no error")
	}
}

// useProxy points the go command at the module proxy directory proxy and
// an empty module cache, removed after the test.
func useProxy(t *testing.T, proxy, cache string) {
	t.Helper()
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOTOOLCHAIN", "local")
	t.Cleanup(func() {
		clean := exec.Command("go", "clean", "-modcache")
		if out, err := clean.CombinedOutput(); err != nil {
			t.Errorf("go clean -modcache: %v: %s", err, out)
		}
	})
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

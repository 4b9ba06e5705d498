package retrieval

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/module"

	"github.com/docreview/docreview/retrieval/proxytest"
)

// TestRequirements: the requirements of a go.mod after its replace
// directives; local replacements are left out.
func TestRequirements(t *testing.T) {
	gomod := `module example.com/app

go 1.22

require (
	example.com/dep v1.2.0
	example.com/orig v0.1.0
	example.com/local v1.0.0
	example.com/pinned v1.1.0
	example.com/deep v0.9.0 // indirect
)

replace example.com/orig => example.com/fork v0.3.0

replace example.com/local => ../local

replace example.com/pinned v1.1.0 => example.com/pinned v1.1.1
`
	got, err := Requirements("go.mod", []byte(gomod))
	if err != nil {
		t.Fatal(err)
	}
	want := []Requirement{
		{Path: "example.com/dep", Fetch: module.Version{Path: "example.com/dep", Version: "v1.2.0"}},
		{Path: "example.com/orig", Fetch: module.Version{Path: "example.com/fork", Version: "v0.3.0"}},
		{Path: "example.com/pinned", Fetch: module.Version{Path: "example.com/pinned", Version: "v1.1.1"}},
		{Path: "example.com/deep", Fetch: module.Version{Path: "example.com/deep", Version: "v0.9.0"}, Indirect: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Requirements (-want +got):\n%s", d)
	}
	if _, err := Requirements("sub/go.mod", []byte("module\n")); err == nil || !strings.Contains(err.Error(), "sub/go.mod") {
		t.Errorf("a go.mod that does not parse: %v, want an error naming it", err)
	}
}

// TestDownloadRequirements downloads from a module proxy in a directory
// (GOPROXY=file://…) into a module cache of the test's own: the direct
// requirement arrives, the indirect one is not asked for (the proxy does
// not have it), and a requirement the proxy lacks fails with the go
// command's words.
func TestDownloadRequirements(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	proxy := t.TempDir()
	proxytest.WriteModule(t, proxy, "example.com/dep", "v1.2.0", map[string]string{
		"dep.go": "package dep\n\n// Answer is 42.\nconst Answer = 42\n",
	})
	cache := t.TempDir()
	env := []string{"GOPROXY=file://" + filepath.ToSlash(proxy), "GOSUMDB=off", "GOMODCACHE=" + cache, "GOTOOLCHAIN=local"}
	t.Cleanup(func() {
		// The module cache is read-only: the go command removes it, before
		// the test's directories go.
		clean := exec.Command("go", "clean", "-modcache")
		clean.Env = append(os.Environ(), "GOMODCACHE="+cache)
		if out, err := clean.CombinedOutput(); err != nil {
			t.Errorf("go clean -modcache: %v: %s", err, out)
		}
	})
	gomod := "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/dep v1.2.0\n\texample.com/gone v0.1.0 // indirect\n)\n"
	if err := DownloadRequirements(t.Context(), "", []byte(gomod), env); err != nil {
		t.Fatalf("DownloadRequirements: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "example.com", "dep@v1.2.0", "dep.go")); err != nil {
		t.Errorf("the requirement is not in the module cache: %v", err)
	}
	err := DownloadRequirements(t.Context(), "", []byte("module example.com/app\n\nrequire example.com/gone v0.1.0\n"), env)
	if err == nil || !strings.Contains(err.Error(), "example.com/gone") {
		t.Errorf("a module the proxy lacks: %v, want the go command's error naming it", err)
	}
}

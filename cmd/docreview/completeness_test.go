package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/review/completeness"
)

// completenessFixture is the module the completeness package's golden
// files describe.
var completenessFixture = filepath.Join("..", "..", "review", "completeness", "testdata", "fixture")

// readFixture returns the fixture's files, path to content.
func readFixture(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{"go.mod", "cache.go", "store/store.go"} {
		data, err := os.ReadFile(filepath.Join(completenessFixture, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = data
	}
	return files
}

func TestCompletenessTable(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "review", "completeness", "testdata", "fixture.txt"))
	if err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	for name, data := range readFixture(t) {
		p := filepath.Join(plain, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := newGitRepo(t)
	files := map[string][]byte{"README.md": []byte("# repo\n")}
	for name, data := range readFixture(t) {
		files["mod/"+name] = data
	}
	g.commit("fixture", files)
	for name, repo := range map[string]string{
		"a directory that is no git repository": plain,
		"a subdirectory of a git repository":    filepath.Join(g.dir, "mod"),
	} {
		t.Run(name, func(t *testing.T) {
			res := runCLI(t, nil, "completeness", "--repo", repo, "-v")
			if res.code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", res.code, res.stderr)
			}
			if res.stdout != string(want) {
				t.Errorf("table differs from the package's golden file:\n%s", res.stdout)
			}
		})
	}
}

func TestCompletenessJSON(t *testing.T) {
	res := runCLI(t, nil, "completeness", "store", "--repo", completenessFixture, "--format", "json")
	if res.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", res.code, res.stderr)
	}
	var r completeness.Report
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatalf("decode: %v\n%s", err, res.stdout)
	}
	if len(r.Packages) != 1 || r.Packages[0].Package != "example.com/fix/store" {
		t.Fatalf("packages %+v, want only example.com/fix/store", r.Packages)
	}
	p := r.Packages[0]
	if p.Symbols != len(r.Symbols) || p.Facts == 0 || p.Stated > p.Facts || p.CodeTokens == 0 {
		t.Errorf("implausible summary %+v for %d symbols", p, len(r.Symbols))
	}
	for _, s := range r.Symbols {
		if len(s.Stated) != len(s.Facts) {
			t.Errorf("%s: %d facts, %d stated flags", s.Name, len(s.Facts), len(s.Stated))
		}
	}
}

func TestCompletenessStdTree(t *testing.T) {
	// A tree declaring "module std" is read as the go command reads GOROOT/src:
	// its import paths are its directories, so internal packages resolve.
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":          "module std\n\ngo 1.26\n",
		"a/a.go":          "package a\n\nimport \"internal/b\"\n\n// F does b's work.\nfunc F() error { return b.G() }\n",
		"internal/b/b.go": "package b\n\nimport \"errors\"\n\n// ErrB is b's error.\nvar ErrB = errors.New(\"b\")\n\n// G fails.\nfunc G() error { return ErrB }\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := runCLI(t, nil, "completeness", "--repo", dir, "--format", "json", "a")
	if res.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", res.code, res.stderr)
	}
	var r completeness.Report
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Symbols) != 1 || r.Symbols[0].Package != "a" || len(r.Symbols[0].Facts) != 1 || r.Symbols[0].Facts[0].Name != "b.ErrB" {
		t.Errorf("symbols %+v, want a.F returning b.ErrB through b.G", r.Symbols)
	}
}

func TestCompletenessBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown format", []string{"--format", "xml"}, `unknown --format "xml"`},
		{"unknown package", []string{"nowhere"}, `no Go package matches "nowhere"`},
		{"pattern matching nothing", []string{"nowhere/..."}, "no Go package matches nowhere/..."},
		{"missing directory", []string{"--repo", filepath.Join(t.TempDir(), "gone")}, "gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"completeness", "--repo", completenessFixture}, tt.args...)
			res := runCLI(t, nil, args...)
			if res.code != exitError || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", res.code, res.stderr, exitError, tt.want)
			}
		})
	}
}

package retrieval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// depCache writes a module cache holding example.com/dep@v1.2.0 (a root
// package, a Windows-only file and a sub package that imports a module
// the cache lacks) and example.com/fork@v0.3.0, and points the go
// command at it.
func depCache(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("example.com/dep@v1.2.0/go.mod", "module example.com/dep\n\ngo 1.21\n")
	write("example.com/dep@v1.2.0/dep.go", "package dep\n\n// Hello greets.\nfunc Hello(name string) string { return name }\n\n// Client calls.\ntype Client struct{ Addr string }\n\n// Do calls.\nfunc (c *Client) Do() error { return nil }\n")
	write("example.com/dep@v1.2.0/dep_windows.go", "package dep\n\nfunc WinOnly() {}\n")
	write("example.com/dep@v1.2.0/sub/sub.go", "package sub\n\nimport \"example.com/absent/x\"\n\n// T is x's.\ntype T = x.Y\n\n// F does.\nfunc F(n int) {}\n")
	write("example.com/fork@v0.3.0/go.mod", "module example.com/fork\n")
	write("example.com/fork@v0.3.0/orig.go", "package orig\n\nfunc Forked() {}\n")
	t.Setenv("GOMODCACHE", dir)
	t.Setenv("GOFLAGS", "-mod=mod")
}

// TestDependencies: the packages of required modules the module cache
// holds are loaded, at the required version (or its replacement), and
// known in full; others stay placeholders.
func TestDependencies(t *testing.T) {
	depCache(t)
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/dep v1.2.0\n\texample.com/orig v0.1.0\n\texample.com/gone v1.0.0\n)\n\nreplace example.com/orig => example.com/fork v0.3.0\n")},
		"app.go": {Data: []byte("package app\n\nimport (\n\t\"example.com/dep\"\n\t\"example.com/dep/sub\"\n\t\"example.com/gone\"\n\t\"example.com/orig\"\n)\n\nvar (\n\tC = &dep.Client{}\n\tG = dep.Hello(\"x\")\n\t_ = sub.F\n\t_ = gone.X\n\t_ = orig.Forked\n)\n")},
	}
	syms, err := LoadSymbols(t.Context(), fsys, []string{"go.mod", "app.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Only the package the cache lacks leaves names unresolved.
	p := syms.Package(".")
	if p == nil || len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Error(), "gone.X") {
		t.Fatalf("package app: errors %v, want only gone.X undefined", p.Errors)
	}
	for _, tc := range []struct {
		path, name, module, version string
		known, excluded             bool
	}{
		{path: "example.com/dep", name: "Hello", module: "example.com/dep", version: "v1.2.0", known: true},
		{path: "example.com/dep", name: "Client", module: "example.com/dep", version: "v1.2.0", known: true},
		// A sub package whose import is missing still declares all its
		// names.
		{path: "example.com/dep/sub", name: "F", module: "example.com/dep", version: "v1.2.0", known: true},
		{path: "example.com/orig", name: "Forked", module: "example.com/orig", version: "example.com/fork@v0.3.0", known: true},
		// Not in the module cache: a placeholder.
		{path: "example.com/gone", module: "example.com/gone", version: "v1.0.0"},
	} {
		dp, ok := syms.DepPackage(tc.path)
		if ok != tc.known {
			t.Errorf("DepPackage(%s) = %v, want %v", tc.path, ok, tc.known)
			continue
		}
		mod, version, _ := syms.DepModule(tc.path)
		if mod != tc.module || version != tc.version {
			t.Errorf("DepModule(%s) = %s %s, want %s %s", tc.path, mod, version, tc.module, tc.version)
		}
		if !ok {
			continue
		}
		if syms.Placeholder(dp.Types) {
			t.Errorf("%s is a placeholder", tc.path)
		}
		if dp.Types.Scope().Lookup(tc.name) == nil {
			t.Errorf("%s declares no %s", tc.path, tc.name)
		}
	}
	dp, _ := syms.DepPackage("example.com/dep")
	if dp == nil || !dp.ExcludedName("WinOnly") || dp.Types.Scope().Lookup("WinOnly") != nil {
		t.Errorf("WinOnly of dep_windows.go should be an excluded name, not a declared one")
	}
	if _, ok := syms.DepPackage("example.com/app"); ok {
		t.Errorf("the repository's own package is no dependency")
	}
}

// BenchmarkLoadSymbolsDependencies loads a repository that imports 40
// dependency packages of 30 declarations each, with the dependencies read
// from a module cache and without (placeholders).
func BenchmarkLoadSymbolsDependencies(b *testing.B) {
	dir := b.TempDir()
	var req, imports, uses strings.Builder
	req.WriteString("module example.com/app\n\ngo 1.22\n\nrequire (\n")
	for i := range 40 {
		mod := fmt.Sprintf("example.com/dep%d", i)
		fmt.Fprintf(&req, "\t%s v1.0.0\n", mod)
		var src strings.Builder
		fmt.Fprintf(&src, "package dep%d\n\nimport \"strings\"\n\n", i)
		for j := range 30 {
			fmt.Fprintf(&src, "// F%d does.\nfunc F%d(s string, n int) (string, error) { return strings.Repeat(s, n), nil }\n\n", j, j)
		}
		p := filepath.Join(dir, mod+"@v1.0.0", "dep.go")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&imports, "\t%q\n", mod)
		fmt.Fprintf(&uses, "\t_ = dep%d.F0\n", i)
	}
	req.WriteString(")\n")
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte(req.String())},
		"app.go": {Data: []byte("package app\n\nimport (\n" + imports.String() + ")\n\nfunc use() {\n" + uses.String() + "}\n")},
	}
	b.Setenv("GOMODCACHE", dir)
	for _, mode := range []struct {
		name   string
		noDeps bool
	}{{"dependencies", false}, {"placeholders", true}} {
		b.Run(mode.name, func(b *testing.B) {
			cache := &TypeCache{Dir: b.TempDir(), NoDependencies: mode.noDeps}
			for b.Loop() {
				if _, err := cache.LoadSymbols(b.Context(), fsys, []string{"app.go", "go.mod"}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNestedModuleFromCache: a package of a module nested in the
// repository's, which go.mod requires but the files at hand lack (a
// module's zip leaves nested modules out), loads from the module cache,
// with the packages of that module it imports; one the cache lacks stays
// an error.
func TestNestedModuleFromCache(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"example.com/app/msg@v1.1.0/go.mod":                "module example.com/app/msg\n\ngo 1.21\n",
		"example.com/app/msg@v1.1.0/msg.go":                "package msg\n\nimport \"example.com/app/msg/internal/wire\"\n\n// LeaveRequest leaves.\ntype LeaveRequest struct{ W wire.Frame }\n",
		"example.com/app/msg@v1.1.0/internal/wire/wire.go": "package wire\n\n// Frame is one frame.\ntype Frame struct{ N int }\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOMODCACHE", dir)
	t.Setenv("GOFLAGS", "-mod=mod")
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/app\n\ngo 1.22\n\nrequire example.com/app/msg v1.1.0\n")},
		"app.go": {Data: []byte("package app\n\nimport (\n\t\"example.com/app/msg\"\n\t\"example.com/app/gone\"\n)\n\n// N is a frame's number.\nvar N = msg.LeaveRequest{}.W.N\n\nvar _ = gone.X\n")},
	}
	syms, err := LoadSymbols(t.Context(), fsys, []string{"go.mod", "app.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := syms.Package(".")
	if p == nil {
		t.Fatal("no package app")
	}
	if len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Error(), "example.com/app/gone") {
		t.Errorf("package app: errors %v, want only example.com/app/gone missing", p.Errors)
	}
	var msgPkg bool
	for _, imp := range p.Types.Imports() {
		if imp.Path() == "example.com/app/msg" {
			msgPkg = imp.Complete() && imp.Scope().Lookup("LeaveRequest") != nil
		}
	}
	if !msgPkg {
		t.Errorf("example.com/app/msg: not loaded from the module cache with LeaveRequest")
	}
	if n := p.Types.Scope().Lookup("N"); n == nil || n.Type().String() != "int" {
		t.Errorf("N = %v, want an int through msg's internal package", n)
	}
}

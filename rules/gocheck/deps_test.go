package gocheck

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/docreview/docreview/retrieval"
)

// TestCheckDependency: a snippet's use of a dependency that the module
// cache holds, at the version go.mod requires, is checked like the
// module's own API; a dependency the cache lacks stays unknown.
func TestCheckDependency(t *testing.T) {
	cache := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(cache, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("example.com/azcore@v1.0.0/go.mod", "module example.com/azcore\n")
	write("example.com/azcore@v1.0.0/log/log.go", "package log\n\nimport \"example.com/internal/log\"\n\n// Event is a kind of log message.\ntype Event = log.Event\n\n// SetEvents selects the events logged.\nfunc SetEvents(cls ...Event) {}\n\n// SetListener sets the function logs go to.\nfunc SetListener(lst func(Event, string)) {}\n")
	t.Setenv("GOMODCACHE", cache)
	fsys := fstest.MapFS{
		"go.mod":  {Data: []byte("module example.com/blob\n\ngo 1.22\n\nrequire (\n\texample.com/azcore v1.0.0\n\texample.com/other v1.0.0\n)\n")},
		"blob.go": {Data: []byte("// Package blob stores blobs.\npackage blob\n\nimport \"example.com/azcore/log\"\n\nvar _ = log.SetEvents\n")},
	}
	syms, err := retrieval.LoadSymbols(t.Context(), fsys, []string{"blob.go", "go.mod"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		want      []Issue
	}{
		{name: "a name the dependency lacks", src: "import azlog \"example.com/azcore/log\"\n\nazlog.SetClassifications(azlog.Request)\n", want: []Issue{
			{Kind: UnknownName, Line: 3, Name: "log.Request", Package: "example.com/azcore/log", Message: "package example.com/azcore/log has no Request"},
			{Kind: UnknownName, Line: 3, Name: "log.SetClassifications", Package: "example.com/azcore/log", Message: "package example.com/azcore/log has no SetClassifications"},
		}},
		{name: "a call with too many arguments", src: "import azlog \"example.com/azcore/log\"\n\nazlog.SetListener(nil, \"x\")\n", want: []Issue{
			{Kind: WrongArgs, Line: 3, Name: "log.SetListener", Package: "example.com/azcore/log", Message: "too many arguments in call to azlog.SetListener\n\thave (nil, string)\n\twant (func(log.Event, string))"},
		}},
		// Event is an alias of a type of a module the cache lacks: what
		// is passed for it is unknown, not wrong.
		{name: "a value of a type the cache lacks", src: "import azlog \"example.com/azcore/log\"\n\nazlog.SetEvents(\"request\")\n"},
		{name: "right use", src: "import azlog \"example.com/azcore/log\"\n\nazlog.SetListener(func(e azlog.Event, msg string) {})\n"},
		{name: "a dependency the cache lacks", src: "import \"example.com/other/pkg\"\n\npkg.Anything(1, 2)\n"},
		// log is what the package's code imports as log, but the block
		// never imports it: a guess, never judged against its API.
		{name: "a qualifier guessed as a dependency", src: "log.SetClassifications(1)\n"},
		{name: "a complete file that does not import the dependency", src: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tlog.SetEvents()\n\tfmt.Println()\n}\n", want: []Issue{
			{Kind: MissingImport, Line: 6, Name: "log", Package: "example.com/azcore/log"},
		}},
		// A file that imports nothing left its imports to the reader.
		{name: "a complete file that imports nothing", src: "package main\n\nfunc main() {\n\tlog.SetEvents()\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(t.Context(), syms, ".", tt.src, nil)
			if len(got) != len(tt.want) {
				t.Fatalf("issues:\n%+v\nwant:\n%+v", got, tt.want)
			}
			for i := range got {
				if got[i].Kind != tt.want[i].Kind || got[i].Line != tt.want[i].Line || got[i].Name != tt.want[i].Name || got[i].Package != tt.want[i].Package {
					t.Errorf("issue %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestCheckDependencyNamedLikeInternal: a block's spec.Swagger, with spec
// unimported, means the dependency the repository imports under another
// name (oaispec "github.com/go-openapi/spec"), not the module's internal
// package of that name, which a reader cannot import and which lacks it.
func TestCheckDependencyNamedLikeInternal(t *testing.T) {
	cache := t.TempDir()
	p := filepath.Join(cache, "example.com", "openapi@v1.0.0")
	if err := os.MkdirAll(filepath.Join(p, "spec"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"go.mod":       "module example.com/openapi\n",
		"spec/spec.go": "package spec\n\n// Swagger is an API description.\ntype Swagger struct{ Host string }\n",
	} {
		if err := os.WriteFile(filepath.Join(p, filepath.FromSlash(name)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOMODCACHE", cache)
	fsys := fstest.MapFS{
		"go.mod":                {Data: []byte("module example.com/scan\n\ngo 1.22\n\nrequire example.com/openapi v1.0.0\n")},
		"scan.go":               {Data: []byte("// Package scan scans code.\npackage scan\n\nimport oaispec \"example.com/openapi/spec\"\n\n// Run scans.\nfunc Run() *oaispec.Swagger { return nil }\n")},
		"internal/spec/walk.go": {Data: []byte("// Package spec walks specs.\npackage spec\n\n// Walk walks.\nfunc Walk() {}\n")},
	}
	syms, err := retrieval.LoadSymbols(t.Context(), fsys, []string{"go.mod", "internal/spec/walk.go", "scan.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := Check(t.Context(), syms, ".", "var base spec.Swagger\nbase.Host = \"example.com\"\n", nil); len(got) != 0 {
		t.Errorf("issues %+v, want none", got)
	}
}

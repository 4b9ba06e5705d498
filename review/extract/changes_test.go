package extract

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/docreview/docreview/review"
	"github.com/google/go-cmp/cmp"
)

// summary renders changes as one line per symbol: what happened, the
// package directory, the name, kind and location.
func summary(c review.Changes) []string {
	var out []string
	ref := func(r review.SymbolRef) string {
		return fmt.Sprintf("%s %s (%s) %s:%d-%d", r.Dir, r.Name, r.Kind, r.Path, r.Line, r.EndLine)
	}
	for _, r := range c.Changed {
		out = append(out, "changed "+ref(r))
	}
	for _, r := range c.Removed {
		out = append(out, "removed "+ref(r))
	}
	for _, r := range c.Renamed {
		out = append(out, "renamed "+ref(r.Old)+" -> "+r.New.Name)
	}
	return out
}

func TestChangedSymbols(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		files   map[string]string
		changes []change
		want    []string
	}{{
		name:    "changed, removed and renamed",
		changes: []change{{oldPath: "cache/cache.go", newPath: "cache/cache.go", base: baseCache, head: headCache}},
		want: []string{
			"changed cache Cache.Purge (method) cache/cache.go:14-16",
			"removed cache Old (func) cache/cache.go:22-22",
			"renamed cache Cache.Flush (method) cache/cache.go:19-19 -> Cache.Drain",
		},
	}, {
		name: "doc and layout changes are not code changes",
		changes: []change{{oldPath: "a/a.go", newPath: "a/a.go",
			base: "package a\n\n// F does x.\nfunc F() int { return 1 }\n",
			head: "package a\n\n// F does y.\nfunc F() int {\n\treturn 1 // one\n}\n"}},
	}, {
		name:  "moving code between files of a package changes nothing",
		files: map[string]string{"a/keep.go": "package a\n"},
		changes: []change{
			{oldPath: "a/a.go", newPath: "a/a.go", base: "package a\n\nfunc F() {}\n\nfunc G() {}\n", head: "package a\n\nfunc G() {}\n"},
			{oldPath: "a/b.go", newPath: "a/b.go", base: "package a\n", head: "package a\n\nfunc F() {}\n"},
		},
	}, {
		name: "added lines only change a function",
		changes: []change{{oldPath: "a/a.go", newPath: "a/a.go",
			base: "package a\n\nfunc F() {\n\tx()\n}\n\nfunc x() {}\n",
			head: "package a\n\nfunc F() {\n\tx()\n\tx()\n}\n\nfunc x() {}\n"}},
		want: []string{"changed a F (func) a/a.go:3-6"},
	}, {
		name: "field change changes the field and its type",
		changes: []change{{oldPath: "a/a.go", newPath: "a/a.go",
			base: "package a\n\ntype Options struct {\n\tName string\n\tTTL  int\n}\n",
			head: "package a\n\ntype Options struct {\n\tName string\n\tTTL  int64\n}\n"}},
		want: []string{
			"changed a Options (type) a/a.go:3-6",
			"changed a Options.TTL (field) a/a.go:5-5",
		},
	}, {
		name: "type rename carries its methods and fields",
		changes: []change{{oldPath: "a/a.go", newPath: "a/a.go",
			base: "package a\n\ntype Cache struct{ N int }\n\nfunc (c *Cache) Get(k string) int { return 0 }\n\nfunc (c *Cache) Put(k string) {}\n",
			head: "package a\n\ntype Store struct{ N int }\n\nfunc (c *Store) Get(k string) int { return 0 }\n\nfunc (c *Store) Put(k string) {}\n"}},
		want: []string{
			"renamed a Cache (type) a/a.go:3-3 -> Store",
			"renamed a Cache.Get (method) a/a.go:5-5 -> Store.Get",
			"renamed a Cache.N (field) a/a.go:3-3 -> Store.N",
			"renamed a Cache.Put (method) a/a.go:7-7 -> Store.Put",
		},
	}, {
		name: "ambiguous renames stay removals",
		changes: []change{{oldPath: "a/a.go", newPath: "a/a.go",
			base: "package a\n\nfunc A(x int) {}\n\nfunc B(x int) {}\n",
			head: "package a\n\nfunc C(x int) {}\n\nfunc D(x int) {}\n"}},
		want: []string{
			"removed a A (func) a/a.go:3-3",
			"removed a B (func) a/a.go:5-5",
		},
	}, {
		name: "several renames pair by their unchanged code",
		changes: []change{{oldPath: "a/a.go", newPath: "a/a.go",
			base: "package a\n\nfunc A(x int) {}\n\nfunc B(y int) {}\n",
			head: "package a\n\nfunc C(x int) {}\n\nfunc D(y int) {}\n"}},
		want: []string{
			"renamed a A (func) a/a.go:3-3 -> C",
			"renamed a B (func) a/a.go:5-5 -> D",
		},
	}, {
		name: "different parameter counts are no rename",
		changes: []change{{oldPath: "a/a.go", newPath: "a/a.go",
			base: "package a\n\nfunc A(x int) {}\n",
			head: "package a\n\nfunc B(x, y int) {}\n"}},
		want: []string{"removed a A (func) a/a.go:3-3"},
	}, {
		name: "deleted file",
		changes: []change{{oldPath: "a/a.go",
			base: "package a\n\nconst (\n\tX = 1\n\tY = 2\n)\n\nvar V int\n"}},
		want: []string{
			"removed a V (var) a/a.go:8-8",
			"removed a X (const) a/a.go:4-4",
			"removed a Y (const) a/a.go:5-5",
		},
	}, {
		name: "unparsable and non-Go files are ignored",
		changes: []change{
			{oldPath: "a/a.go", newPath: "a/a.go", base: "package a\n\nfunc F() {}\n", head: "package a\n\nfunc F( {\n"},
			{oldPath: "a/a.md", newPath: "a/a.md", base: "x\n", head: "y\n"},
		},
		want: []string{"removed a F (func) a/a.go:3-3"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := newWorkspace(tt.files, tt.changes)
			got, err := ws.Changes(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, summary(got)); diff != "" {
				t.Errorf("changes mismatch (-want +got):\n%s", diff)
			}
			if got.Empty() != (len(tt.want) == 0) {
				t.Errorf("Empty() = %v with %d changes", got.Empty(), len(tt.want))
			}
		})
	}
}

func TestChangedSymbolsWithoutBase(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(nil, []change{{newPath: "a/a.go", head: "package a\n\nfunc F() {}\n"}})
	ws.BaseFS = nil
	got, err := ws.Changes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !got.Empty() {
		t.Errorf("changes without a base: %v", summary(got))
	}
	if _, err := (&review.Workspace{}).Changes(t.Context()); err == nil {
		t.Error("workspace without HeadFS: no error")
	}
}

func TestChangedSymbolsReadError(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(nil, []change{{oldPath: "a/a.go", newPath: "a/a.go", base: "package a\n\nfunc F() {}\n", head: "package a\n\nfunc F() { F() }\n"}})
	ws.HeadFS.(fstest.MapFS)["a/bad.go"] = &fstest.MapFile{Data: []byte("package a\n")}
	ws.HeadFS = failingFS{FS: ws.HeadFS, bad: "a/bad.go"}
	got, err := ws.Changes(t.Context())
	if err == nil {
		t.Error("unreadable file: no error")
	}
	if diff := cmp.Diff([]string{"changed a F (func) a/a.go:3-3"}, summary(got)); diff != "" {
		t.Errorf("changes beside the error mismatch (-want +got):\n%s", diff)
	}
}

// failingFS fails to open one file.
type failingFS struct {
	fs.FS
	bad string
}

func (f failingFS) Open(name string) (fs.File, error) {
	if name == f.bad {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("permission denied")}
	}
	return f.FS.Open(name)
}

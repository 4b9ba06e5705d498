package retrieval

import (
	"testing"
	"testing/fstest"
)

// TestLookupNameAlsoInExcludedFile: a declaration that also exists in a
// build-excluded file (json's v2_*.go pattern) still resolves to the loaded
// one, and a name only in the excluded file counts as existing.
func TestLookupNameAlsoInExcludedFile(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":       {Data: []byte("module example.com/p\n\ngo 1.22\n")},
		"a.go":         {Data: []byte("package p\n\n// T is a thing.\ntype T struct{}\n\n// M does.\nfunc (T) M() {}\n\n// F does.\nfunc F() {}\n")},
		"a_windows.go": {Data: []byte("package p\n\nfunc (T) M() {}\n\nfunc F() {}\n\nfunc OnlyWindows() {}\n")},
	}
	files := []string{"a.go", "a_windows.go", "go.mod"}
	syms, err := LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"F", "T.M"} {
		sym, ok := syms.Lookup(".", name)
		if !ok || sym.Path != "a.go" {
			t.Errorf("Lookup(%q) = %+v, %v; want the declaration in a.go", name, sym.Path, ok)
		}
	}
	if !syms.Resolves(".", "OnlyWindows") {
		t.Errorf("OnlyWindows, declared in a build-excluded file, does not resolve")
	}
	if syms.Resolves(".", "Nowhere") {
		t.Errorf("Nowhere resolves")
	}
}

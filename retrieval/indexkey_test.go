package retrieval

import (
	"testing"
	"testing/fstest"
)

func TestIndexKey(t *testing.T) {
	fsys := fstest.MapFS{"a.go": {Data: []byte("package a\n")}, "README.md": {Data: []byte("# a\n")}}
	files := []string{"README.md", "a.go"}
	h, err := TreeHash(fsys, files)
	if err != nil {
		t.Fatal(err)
	}
	sha := "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		rev  string
		sel  IndexSelection
		want string
	}{
		{sha, IndexSelection{}, sha},
		{sha, IndexSelection{Upstream: true}, sha + "+upstream"},
		{sha, IndexSelection{Vendor: true, Upstream: true}, sha + "+vendor+upstream"},
		// The engine names the working tree "worktree", the index
		// command "": one key.
		{"worktree", IndexSelection{}, "worktree-" + h},
		{"", IndexSelection{}, "worktree-" + h},
		{"", IndexSelection{Vendor: true}, "worktree-" + h + "+vendor"},
	}
	for _, tt := range tests {
		got, err := IndexKey(fsys, files, tt.rev, tt.sel)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("IndexKey(%q, %+v) = %q, want %q", tt.rev, tt.sel, got, tt.want)
		}
		if back := KeySelection(got); back != tt.sel {
			t.Errorf("KeySelection(%q) = %+v, want %+v", got, back, tt.sel)
		}
	}
}

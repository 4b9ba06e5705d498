package retrieval

import (
	"path/filepath"
	"strings"
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

// TestOpenEvidenceIndexKeepsTheSnapshotsSizeLimit: the index skips exactly
// what the snapshot skipped. The engine used to build its index with the
// default 1 MiB limit whatever max-file-size said, so a larger file it
// reviewed was missing from the evidence.
func TestOpenEvidenceIndexKeepsTheSnapshotsSizeLimit(t *testing.T) {
	big := "package big\n\n// Zyxwvut is in a large file.\nfunc Zyxwvut() {}\n" + strings.Repeat("// filler line of a generated table\n", 45000)
	fsys := fstest.MapFS{"big.go": {Data: []byte(big)}, "a.go": {Data: []byte("package a\n")}}
	files := []string{"a.go", "big.go"}
	for _, tt := range []struct {
		limit int64
		want  bool
	}{{0, false}, {4 << 20, true}} {
		ev, err := OpenEvidenceIndex(t.Context(), EvidenceIndexOptions{FS: fsys, Files: files, Rev: "worktree", Dir: filepath.Join(t.TempDir(), "index"), MaxFileSize: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		chunks, err := ev.Index.AllChunks(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, c := range chunks {
			got = got || c.Path == "big.go"
		}
		ev.Index.Close()
		if got != tt.want {
			t.Errorf("MaxFileSize %d: big.go (%d bytes) indexed %v, want %v", tt.limit, len(big), got, tt.want)
		}
	}
}

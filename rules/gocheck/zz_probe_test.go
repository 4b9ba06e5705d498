package gocheck

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/docreview/docreview/retrieval"
)

// TestProbe: PROBE_DIR module dir, PROBE_FROM package dir, PROBE_SNIP snippet file.
func TestProbe(t *testing.T) {
	dir := os.Getenv("PROBE_DIR")
	if dir == "" {
		t.Skip()
	}
	fsys := os.DirFS(dir)
	var files []string
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") || p == "go.mod" {
			files = append(files, p)
		}
		return nil
	})
	s, err := retrieval.LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(os.Getenv("PROBE_SNIP"))
	for _, is := range Check(t.Context(), s, os.Getenv("PROBE_FROM"), string(src), nil) {
		t.Logf("%d %s %s name=%s", is.Line, is.Kind, is.Message, is.Name)
	}
}

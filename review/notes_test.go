package review

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review/diff"
)

// TestFileNotes: the notes list what the review left out of what it would
// have read, not every image of the repository on every review.
func TestFileNotes(t *testing.T) {
	skipped := []gitrepo.Skip{
		{Path: "assets/CobraMain.png", Reason: gitrepo.ReasonBinary},
		{Path: "assets/changed.png", Reason: gitrepo.ReasonBinary},
		{Path: "docs/guide.md", Reason: gitrepo.ReasonBinary},
		{Path: "docs/link.md", Reason: gitrepo.ReasonSymlink},
		{Path: "vendor.tar", Reason: gitrepo.ReasonSymlink},
		{Path: "data/big.json", Reason: "larger than 1048576 bytes (5242880)"},
		{Path: "third_party", Reason: gitrepo.ReasonSubmodule},
	}
	kept := []gitrepo.Skip{{Path: "legacy.go", Reason: gitrepo.ReasonInvalidUTF8}}
	files := []diff.File{
		{OldPath: "assets/changed.png", NewPath: "assets/changed.png", Binary: true, Status: diff.Modified},
		{OldPath: "logo.svgz", NewPath: "logo.svgz", Binary: true, Status: diff.Added},
		{OldPath: "gone.bin", Binary: true, Status: diff.Deleted},
	}
	docs, err := gitrepo.NewSelector([]string{"docs/**"}, []string{"docs/link.md"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		reviewed func(string) bool
		want     []Note
	}{
		{name: "every file reviewed", reviewed: func(string) bool { return true }, want: []Note{
			{Path: "assets/changed.png", Message: "skipped: binary file"},
			{Path: "data/big.json", Message: "skipped: larger than 1048576 bytes (5242880)"},
			{Path: "docs/guide.md", Message: "skipped: binary file"},
			{Path: "docs/link.md", Message: "skipped: symlink"},
			{Path: "legacy.go", Message: gitrepo.ReasonInvalidUTF8},
			{Path: "logo.svgz", Message: "skipped: binary file"},
		}},
		{name: "globs select docs", reviewed: docs.Selects, want: []Note{
			{Path: "docs/guide.md", Message: "skipped: binary file"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fileNotes(files, skipped, kept, tc.reviewed)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
		})
	}
}

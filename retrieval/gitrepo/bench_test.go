package gitrepo

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkSnapshot reads a repository of 2,000 text files of 2 KiB at a
// commit and in the working tree.
func BenchmarkSnapshot(b *testing.B) {
	r := newTestRepo(b)
	body := strings.Repeat("documentation line\n", 2048/19)
	for i := range 2000 {
		r.write(fmt.Sprintf("pkg%02d/file%04d.md", i%40, i), body)
	}
	r.commit("files")
	repo := &Repo{Dir: r.dir}
	for _, rev := range []string{"HEAD", ""} {
		name := rev
		if name == "" {
			name = "worktree"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				s, err := repo.Snapshot(b.Context(), rev, SnapshotOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if len(s.Files()) != 2000 {
					b.Fatalf("%d files", len(s.Files()))
				}
			}
		})
	}
	b.Run("diff worktree", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.Diff(b.Context(), "HEAD", "", true); err != nil {
				b.Fatal(err)
			}
		}
	})
}

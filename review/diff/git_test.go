package diff

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestParseGitOutput parses what git itself prints for a commit that
// modifies, adds, deletes, renames (with an edit) and changes a binary file.
func TestParseGitOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com"}, args...)...)
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GIT_") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(env, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	write := func(name, content string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	numbered := func(n int, edit func(i int) string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s := edit(i); s != "-" {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	same := func(prefix string) func(int) string {
		return func(i int) string { return fmt.Sprintf("%s line %d\n", prefix, i) }
	}

	git("init", "-q", "-b", "main")
	write("guide.md", numbered(30, same("guide")))
	write("gone.md", numbered(4, same("gone")))
	write("old.md", numbered(20, same("moved")))
	write("img.bin", "\x00\x01\x02")
	write("tail.txt", "a\nb")
	git("add", "-A")
	git("commit", "-q", "-m", "base")

	write("guide.md", numbered(30, func(i int) string {
		switch i {
		case 5:
			return "guide line five\n"
		case 12:
			return "-"
		case 20:
			return "guide line 20\ninserted 1\ninserted 2\n"
		}
		return same("guide")(i)
	}))
	write("new.md", "one\ntwo\nthree\n")
	if err := os.Remove(filepath.Join(dir, "gone.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "old.md")); err != nil {
		t.Fatal(err)
	}
	write("docs/moved.md", numbered(20, func(i int) string {
		if i == 10 {
			return "moved line ten\n"
		}
		return same("moved")(i)
	}))
	write("img.bin", "\x00\x01\x03")
	write("tail.txt", "a\nb\nc")
	git("add", "-A")
	git("commit", "-q", "-m", "head")

	// The flags retrieval/gitrepo passes to git diff.
	raw := git("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative", "-M",
		"--full-index", "--unified=3", "--submodule=short", "--src-prefix=a/", "--dst-prefix=b/", "HEAD~1", "HEAD")
	files, err := Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, files)
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path(), b.Path()) })

	want := []File{
		{OldPath: "old.md", NewPath: "docs/moved.md", Status: Renamed, Added: []Range{{10, 10}}, Deleted: []Range{{10, 10}}, RemovedBefore: []int{10}},
		{OldPath: "gone.md", Status: Deleted, Deleted: []Range{{1, 4}}},
		{OldPath: "guide.md", NewPath: "guide.md", Status: Modified, Added: []Range{{5, 5}, {20, 21}}, Deleted: []Range{{5, 5}, {12, 12}}, RemovedBefore: []int{5, 12}},
		{OldPath: "img.bin", NewPath: "img.bin", Status: Modified, Binary: true},
		{NewPath: "new.md", Status: Added, Added: []Range{{1, 3}}},
		{OldPath: "tail.txt", NewPath: "tail.txt", Status: Modified, Added: []Range{{2, 3}}, Deleted: []Range{{2, 2}}, RemovedBefore: []int{2}},
	}
	if diff := cmp.Diff(want, files, cmpopts.IgnoreFields(File{}, "Hunks")); diff != "" {
		t.Errorf("Parse(git diff) mismatch (-want +got):\n%s", diff)
	}
	for _, f := range files {
		if len(f.Hunks) == 0 != (f.Binary) {
			t.Errorf("%s: %d hunks, binary %v", f.Path(), len(f.Hunks), f.Binary)
		}
		for _, h := range f.Hunks {
			if !bytes.Contains(raw, []byte(h.Text)) {
				t.Errorf("%s: hunk text not in git's output:\n%s", f.Path(), h.Text)
			}
		}
	}
}

package gitrepo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// snapshotRepo builds a repository with one file of each kind a snapshot
// treats specially, committed, and returns it with the commit.
func snapshotRepo(t *testing.T) (*testRepo, string) {
	t.Helper()
	r := newTestRepo(t)
	r.write(".gitignore", "*.log\n")
	r.write("README.md", "# Title\n\nIntro.\n")
	r.write("docs/guide.md", "Guide.\n")
	r.write("docs/deep/ref.md", "Reference.\n")
	r.write("vendor/lib/x.go", "package lib\n")
	r.write("copy.md", "Guide.\n") // the same blob as docs/guide.md
	r.write("empty.txt", "")
	r.write("latin1.txt", "caf\xe9\nna\xefve\n")
	r.write("mixed.txt", "déjà \xff vu\n")
	r.write("bin.dat", "head\x00tail")
	r.write("late-nul.txt", strings.Repeat("a", sniffLen)+"\x00") // NUL after the sniffed prefix
	r.write("big.txt", strings.Repeat(strings.Repeat("b", 63)+"\n", 2<<20/64))
	if err := os.Symlink("README.md", filepath.Join(r.dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	sha := r.commit("files")
	// A submodule as git records it: a gitlink entry in the tree.
	r.git("update-index", "--add", "--cacheinfo", "160000,"+sha+",sub")
	r.git("commit", "-q", "-m", "submodule") // not r.commit: add -A would drop it
	return r, r.git("rev-parse", "HEAD")
}

func TestSnapshotCommit(t *testing.T) {
	t.Parallel()
	r, sha := snapshotRepo(t)
	repo := &Repo{Dir: r.dir}
	big := fmt.Sprintf("larger than %d bytes (%d)", DefaultMaxFileSize, 2<<20)
	allSkips := []Skip{
		{"big.txt", big}, {"bin.dat", ReasonBinary}, {"link.md", ReasonSymlink}, {"sub", ReasonSubmodule},
	}
	allNotes := []Skip{{"latin1.txt", ReasonInvalidUTF8}, {"mixed.txt", ReasonInvalidUTF8}}

	tests := []struct {
		name      string
		rev       string
		opt       SnapshotOptions
		wantFiles []string
		wantSkips []Skip
		wantNotes []Skip
	}{
		{
			name: "defaults", rev: sha,
			wantFiles: []string{
				".gitignore", "README.md", "copy.md", "docs/deep/ref.md", "docs/guide.md",
				"empty.txt", "late-nul.txt", "latin1.txt", "mixed.txt", "vendor/lib/x.go",
			},
			wantSkips: allSkips, wantNotes: allNotes,
		},
		{
			name: "by ref with a larger limit", rev: "HEAD", opt: SnapshotOptions{MaxFileSize: 3 << 20},
			wantFiles: []string{
				".gitignore", "README.md", "big.txt", "copy.md", "docs/deep/ref.md", "docs/guide.md",
				"empty.txt", "late-nul.txt", "latin1.txt", "mixed.txt", "vendor/lib/x.go",
			},
			wantSkips: []Skip{{"bin.dat", ReasonBinary}, {"link.md", ReasonSymlink}, {"sub", ReasonSubmodule}},
			wantNotes: allNotes,
		},
		{
			name: "include and exclude", rev: sha,
			opt:       SnapshotOptions{Include: []string{"**/*.md", "vendor", "*.txt"}, Exclude: []string{"docs/deep", "**/x.go", "big*"}},
			wantFiles: []string{"README.md", "copy.md", "docs/guide.md", "empty.txt", "late-nul.txt", "latin1.txt", "mixed.txt"},
			wantSkips: []Skip{{"link.md", ReasonSymlink}},
			wantNotes: allNotes,
		},
		{
			name: "include matches nothing", rev: sha, opt: SnapshotOptions{Include: []string{"nothing/**"}},
		},
		{
			name: "tiny limit", rev: sha, opt: SnapshotOptions{MaxFileSize: 8, Include: []string{"docs", "empty.txt"}},
			wantFiles: []string{"docs/guide.md", "empty.txt"},
			wantSkips: []Skip{{"docs/deep/ref.md", "larger than 8 bytes (11)"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := repo.Snapshot(t.Context(), tt.rev, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if s.Rev() != sha {
				t.Errorf("Rev() = %s, want %s", s.Rev(), sha)
			}
			checkSnapshot(t, s, tt.wantFiles, tt.wantSkips, tt.wantNotes)
			// Contents come from the commit, not from the working tree.
			for _, name := range tt.wantFiles {
				checkContent(t, s, name, r.git("show", sha+":"+name))
			}
		})
	}
}

func TestSnapshotWorktree(t *testing.T) {
	t.Parallel()
	r, _ := snapshotRepo(t)
	r.write("README.md", "# Title\n\nChanged in the working tree.\n")
	r.write("untracked.md", "New.\n")
	r.write("notes/todo.md", "Todo.\n")
	r.write("debug.log", "ignored\n")
	r.remove("docs/guide.md")
	r.remove("big.txt")
	r.write("big.txt", strings.Repeat("c", 3<<20)) // grown past the limit
	if err := os.Mkdir(filepath.Join(r.dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	nested := filepath.Join(r.dir, "nested")
	if err := os.Mkdir(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, nested, "init", "-q")
	if err := os.WriteFile(filepath.Join(nested, "n.md"), []byte("n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := &Repo{Dir: r.dir}

	tests := []struct {
		name      string
		opt       SnapshotOptions
		wantFiles []string
		wantSkips []Skip
		wantNotes []Skip
	}{
		{
			name: "defaults",
			wantFiles: []string{
				".gitignore", "README.md", "copy.md", "docs/deep/ref.md", "empty.txt",
				"late-nul.txt", "latin1.txt", "mixed.txt", "notes/todo.md", "untracked.md", "vendor/lib/x.go",
			},
			wantSkips: []Skip{
				{"big.txt", fmt.Sprintf("larger than %d bytes (%d)", DefaultMaxFileSize, 3<<20)},
				{"bin.dat", ReasonBinary}, {"link.md", ReasonSymlink}, {"nested", ReasonNested}, {"sub", ReasonSubmodule},
			},
			wantNotes: []Skip{{"latin1.txt", ReasonInvalidUTF8}, {"mixed.txt", ReasonInvalidUTF8}},
		},
		{
			name:      "globs",
			opt:       SnapshotOptions{Include: []string{"**/*.md"}, Exclude: []string{"vendor", "notes/", "link.md", "nested"}},
			wantFiles: []string{"README.md", "copy.md", "docs/deep/ref.md", "untracked.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := repo.Snapshot(t.Context(), "", tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if s.Rev() != "worktree" {
				t.Errorf("Rev() = %s, want worktree", s.Rev())
			}
			checkSnapshot(t, s, tt.wantFiles, tt.wantSkips, tt.wantNotes)
			for _, name := range tt.wantFiles {
				data, err := os.ReadFile(filepath.Join(r.dir, name))
				if err != nil {
					t.Fatal(err)
				}
				checkContent(t, s, name, strings.TrimSpace(string(latin1Fallback(data))))
			}
		})
	}
}

// checkSnapshot compares a snapshot's listings and checks it is a valid
// file system holding exactly those files.
func checkSnapshot(t *testing.T, s *Snapshot, files []string, skips, notes []Skip) {
	t.Helper()
	if diff := cmp.Diff(files, s.Files()); diff != "" {
		t.Errorf("Files() (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(skips, s.Skipped()); diff != "" {
		t.Errorf("Skipped() (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(notes, s.Notes()); diff != "" {
		t.Errorf("Notes() (-want +got):\n%s", diff)
	}
	if err := fstest.TestFS(s, files...); err != nil {
		t.Error(err)
	}
	var walked []string
	err := fs.WalkDir(s, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			walked = append(walked, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, walked); diff != "" {
		t.Errorf("files walked (-want +got):\n%s", diff)
	}
	for _, sk := range skips {
		_, err := s.Open(sk.Path)
		if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrSkipped) || !strings.Contains(err.Error(), sk.Reason) {
			t.Errorf("Open(%s) error = %v, want not exist, skipped, with the reason %q", sk.Path, err, sk.Reason)
		}
		if _, err := fs.Stat(s, sk.Path); !errors.Is(err, ErrSkipped) {
			t.Errorf("Stat(%s) error = %v, want skipped", sk.Path, err)
		}
	}
	if _, err := fs.Stat(s, "no/such/file.md"); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrSkipped) {
		t.Errorf("Stat of a missing file: error = %v, want not exist and not skipped", err)
	}
}

// checkContent compares a file's content, trimmed of surrounding space, with
// want, and checks that it is valid UTF-8.
func checkContent(t *testing.T, s *Snapshot, name, want string) {
	t.Helper()
	data, err := s.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if name == "latin1.txt" {
		if got, want := string(data), "café\nnaïve\n"; got != want {
			t.Errorf("latin1.txt = %q, want %q", got, want)
		}
		return
	}
	if name == "mixed.txt" {
		if got, want := string(data), "déjà ÿ vu\n"; got != want {
			t.Errorf("mixed.txt = %q, want %q", got, want)
		}
		return
	}
	if got := strings.TrimSpace(string(data)); got != want {
		t.Errorf("%s = %q, want %q", name, got, want)
	}
}

func TestSnapshotErrors(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.md", "a\n")
	r.commit("first")
	repo := &Repo{Dir: r.dir}
	canceled, cancel := context.WithCancel(t.Context())
	cancel()

	tests := []struct {
		name    string
		ctx     context.Context
		rev     string
		opt     SnapshotOptions
		wantErr error
	}{
		{name: "unknown rev", rev: "nope", wantErr: ErrUnknownRevision},
		{name: "bad include", rev: "HEAD", opt: SnapshotOptions{Include: []string{"docs/[a"}}, wantErr: path.ErrBadPattern},
		{name: "bad exclude", rev: "", opt: SnapshotOptions{Exclude: []string{"/"}}, wantErr: path.ErrBadPattern},
		{name: "canceled", ctx: canceled, rev: "HEAD", wantErr: context.Canceled},
		{name: "canceled worktree", ctx: canceled, rev: "", wantErr: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := tt.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			s, err := repo.Snapshot(ctx, tt.rev, tt.opt)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Snapshot = %v, %v; want error %v", s, err, tt.wantErr)
			}
		})
	}
	if _, err := repo.Snapshot(t.Context(), "HEAD", SnapshotOptions{MaxFileSize: -1}); err == nil {
		t.Error("Snapshot with a negative MaxFileSize: no error")
	}
}

// TestSnapshotMissingObject: a blob the tree lists but the object store
// lacks (a partial clone, a trimmed mirror) is skipped with a reason, and
// the rest of the commit is read.
func TestSnapshotMissingObject(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("README.md", "# Title\n")
	r.write("assets/big.bin", "not kept\n")
	sha := r.commit("files")
	obj := r.git("rev-parse", sha+":assets/big.bin")
	if err := os.Remove(filepath.Join(r.dir, ".git", "objects", obj[:2], obj[2:])); err != nil {
		t.Fatal(err)
	}
	s, err := (&Repo{Dir: r.dir}).Snapshot(t.Context(), sha, SnapshotOptions{})
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	checkSnapshot(t, s, []string{"README.md"}, []Skip{{"assets/big.bin", ReasonMissing}}, nil)
}

// TestReadBatchMissing: cat-file's "missing" answer skips the object and
// reads on.
func TestReadBatchMissing(t *testing.T) {
	const a, b = "aaaa", "bbbb"
	var got, missed []string
	err := readBatch(bufio.NewReader(strings.NewReader(a+" missing\n"+b+" blob 2\nhi\n")), []string{a, b},
		func(obj string, data []byte) { got = append(got, obj+"="+string(data)) },
		func(obj string) { missed = append(missed, obj) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"bbbb=hi"}, got); diff != "" {
		t.Errorf("blobs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{a}, missed); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
}

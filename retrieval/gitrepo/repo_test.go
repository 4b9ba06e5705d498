package gitrepo

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOpen(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("docs/a.md", "a\n")
	r.commit("first")
	plain := t.TempDir()
	file := filepath.Join(plain, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "bare.git")
	runGit(t, r.dir, "clone", "-q", "--bare", r.dir, bare)

	tests := []struct {
		name    string
		dir     string
		want    string
		wantErr error
	}{
		{name: "root", dir: r.dir, want: r.dir},
		{name: "subdirectory", dir: filepath.Join(r.dir, "docs"), want: r.dir},
		{name: "plain directory", dir: plain, wantErr: ErrNotRepository},
		{name: "bare repository", dir: bare, wantErr: ErrNotRepository},
		{name: "file", dir: file, wantErr: ErrNotRepository},
		{name: "missing", dir: filepath.Join(plain, "missing"), wantErr: fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			repo, err := Open(t.Context(), tt.dir)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Open(%s) error = %v, want %v", tt.dir, err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.dir) {
					t.Errorf("error %q does not name %s", err, tt.dir)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if repo.Dir != tt.want {
				t.Errorf("Dir = %s, want %s", repo.Dir, tt.want)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.md", "one\n")
	first := r.commit("first")
	r.write("a.md", "two\n")
	second := r.commit("second")
	r.git("tag", "-a", "-m", "release", "v1", first)
	r.git("branch", "old", first)
	repo := &Repo{Dir: r.dir}

	tests := []struct {
		ref  string
		want string // empty: want ErrUnknownRevision
	}{
		{ref: "HEAD", want: second},
		{ref: "main", want: second},
		{ref: "HEAD~1", want: first},
		{ref: "old", want: first},
		{ref: "v1", want: first}, // annotated tag peeled to its commit
		{ref: first[:10], want: first},
		{ref: second, want: second},
		{ref: "nope"},
		{ref: ""},
		{ref: "HEAD~5"},
		{ref: "HEAD:a.md"}, // a blob, not a commit
		{ref: "--output=" + filepath.Join(t.TempDir(), "x")},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			t.Parallel()
			got, err := repo.Resolve(t.Context(), tt.ref)
			if tt.want == "" {
				if !errors.Is(err, ErrUnknownRevision) {
					t.Fatalf("Resolve(%q) = %q, %v; want ErrUnknownRevision", tt.ref, got, err)
				}
				if !strings.Contains(err.Error(), `"`+tt.ref+`"`) || !strings.Contains(err.Error(), r.dir) {
					t.Errorf("error %q does not name the ref and the repository", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Resolve(%q) = %s, want %s", tt.ref, got, tt.want)
			}
		})
	}
}

func TestDefaultBase(t *testing.T) {
	t.Parallel()
	// main: A - B (pushed to origin); feature: B - C - D.
	r := newTestRepo(t)
	r.write("a.md", "a\n")
	a := r.commit("A")
	r.write("a.md", "b\n")
	b := r.commit("B")
	origin := filepath.Join(t.TempDir(), "origin.git")
	r.git("clone", "-q", "--bare", r.dir, origin)
	r.git("remote", "add", "origin", origin)
	r.git("fetch", "-q", "origin")
	r.git("remote", "set-head", "origin", "main")
	r.git("checkout", "-q", "-b", "feature")
	r.write("c.md", "c\n")
	c := r.commit("C")
	r.write("d.md", "d\n")
	d := r.commit("D")
	// An unrelated history: E - F.
	r.git("checkout", "-q", "--orphan", "other")
	r.write("e.md", "e\n")
	e := r.commit("E")
	r.write("f.md", "f\n")
	f := r.commit("F")
	r.git("checkout", "-q", "feature")

	// The same history without a remote, and with only origin/master.
	local := newTestRepo(t)
	local.write("a.md", "a\n")
	root := local.commit("root")
	local.write("a.md", "b\n")
	child := local.commit("child")
	local.git("branch", "feature")
	local.git("update-ref", "refs/remotes/origin/master", root)
	local.git("checkout", "-q", "feature")
	local.write("c.md", "c\n")
	feature := local.commit("feature")
	plain := newTestRepo(t)
	plain.write("a.md", "a\n")
	plainRoot := plain.commit("root")
	plain.write("a.md", "b\n")
	plainChild := plain.commit("child")

	// A shallow clone of r's feature branch, one commit deep.
	shallow := filepath.Join(t.TempDir(), "shallow")
	runGit(t, r.dir, "clone", "-q", "--depth", "1", "--branch", "feature", "file://"+r.dir, shallow)

	tests := []struct {
		name    string
		dir     string
		head    string
		want    string
		wantErr string
	}{
		{name: "merge-base with origin/HEAD", dir: r.dir, head: d, want: b},
		{name: "merge-base by branch name", dir: r.dir, head: "feature", want: b},
		{name: "head on upstream branch", dir: r.dir, head: b, want: a},
		{name: "head behind upstream", dir: r.dir, head: a, want: ""},
		{name: "feature first commit", dir: r.dir, head: c, want: b},
		{name: "unrelated history", dir: r.dir, head: f, want: e},
		{name: "unrelated root", dir: r.dir, head: e, want: ""},
		{name: "origin/master without origin/HEAD", dir: local.dir, head: feature, want: root},
		{name: "origin/master on head's parent", dir: local.dir, head: child, want: root},
		{name: "no remote", dir: plain.dir, head: plainChild, want: plainRoot},
		{name: "root commit", dir: plain.dir, head: plainRoot, want: ""},
		{name: "shallow boundary", dir: shallow, head: "HEAD", wantErr: "shallow clone"},
		{name: "unknown head", dir: r.dir, head: "nope", wantErr: `unknown revision "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			repo := &Repo{Dir: tt.dir}
			got, err := repo.DefaultBase(t.Context(), tt.head)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("DefaultBase(%s) = %q, %v; want error containing %q", tt.head, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("DefaultBase(%s) = %q, want %q", tt.head, got, tt.want)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	// Configuration that would change git diff's format if Diff did not
	// override it.
	for _, kv := range [][2]string{
		{"diff.noprefix", "true"}, {"color.ui", "always"}, {"diff.submodule", "log"},
		{"diff.external", "false"}, {"diff.relative", "true"}, {"diff.context", "0"},
		{"diff.suppressBlankEmpty", "true"}, {"diff.renames", "false"},
		{"diff.shout.textconv", "sed s/^/TEXTCONV/"},
	} {
		r.git("config", kv[0], kv[1])
	}
	r.write("mod.md", lines("mod", 10)+"\n"+lines("tail", 2))
	r.write("del.txt", "gone\n")
	r.write("old.md", lines("moved", 20))
	r.write("img.bin", "\x00\x01\x02binary")
	r.write(".gitignore", "*.log\n")
	r.write(".gitattributes", "*.md diff=shout\n") // a textconv driver Diff must not run
	r.write("forced.log", "tracked though ignored\n")
	r.git("add", "-f", "forced.log")
	// A submodule (a gitlink entry, not checked out) that head moves.
	if err := os.Mkdir(filepath.Join(r.dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub1 := r.commit("sub one")
	r.git("update-index", "--add", "--cacheinfo", "160000,"+sub1+",sub")
	base := r.commit("base")
	sub2 := r.commit("sub two")
	r.git("update-index", "--cacheinfo", "160000,"+sub2+",sub")
	r.write("mod.md", strings.Replace(lines("mod", 10), "mod line 9\n", "mod line nine\n", 1)+"\n"+lines("tail", 2))
	r.write("new.go", "package x\n")
	r.remove("del.txt")
	r.remove("old.md")
	r.write("docs/new.md", strings.Replace(lines("moved", 20), "moved line 3\n", "moved line three\n", 1))
	r.write("img.bin", "\x00\x01\x03binary")
	head := r.commit("head")
	baseFull := r.git("rev-parse", "HEAD~1:mod.md")

	// Working-tree changes on top of head.
	r.write("mod.md", lines("mod", 10)+"\n"+lines("tail", 2)+"worktree line\n")
	r.write("untracked.md", "fresh\n")
	r.write("ignored.log", "noise\n")
	r.git("add", "mod.md")                                         // staged in the user's index, must stay so
	runGit(t, r.dir, "init", "-q", filepath.Join(r.dir, "nested")) // no commit: git add -A fails on it
	r.write("nested/n.md", "nested\n")
	indexPath := filepath.Join(r.dir, ".git", "index")
	indexBefore := fileSum(t, indexPath)
	stagedBefore := r.git("diff", "--cached", "--name-only")

	repo := &Repo{Dir: r.dir}
	tests := []struct {
		name       string
		base, head string
		worktree   bool
		want       []string // lines the diff must contain
		notWant    []string // substrings it must not contain
		wantErr    error
	}{
		{
			name: "commits", base: base, head: head,
			want: []string{
				"diff --git a/mod.md b/mod.md",
				"index " + baseFull + "..",
				"@@ -6,7 +6,7 @@ mod line 5",
				"-mod line 9",
				"+mod line nine",
				" ", // blank context line keeps its space
				"diff --git a/new.go b/new.go",
				"new file mode 100644",
				"+package x",
				"diff --git a/del.txt b/del.txt",
				"deleted file mode 100644",
				"rename from old.md",
				"rename to docs/new.md",
				"+moved line three",
				"Binary files a/img.bin and b/img.bin differ",
				"-Subproject commit " + sub1,
				"+Subproject commit " + sub2,
			},
			notWant: []string{"\x1b[", "GIT binary patch", "untracked.md", "+worktree line", "TEXTCONV"},
		},
		{
			name: "refs", base: "HEAD~1", head: "main",
			want: []string{"rename to docs/new.md", "+mod line nine"},
		},
		{
			name: "empty tree", base: "", head: base,
			want: []string{
				"diff --git a/mod.md b/mod.md", "new file mode 100644", "@@ -0,0 +1,13 @@",
				"diff --git a/old.md b/old.md", "Binary files /dev/null and b/img.bin differ",
			},
			notWant: []string{"deleted file mode"},
		},
		{
			name: "worktree", base: head, head: "ignored", worktree: true,
			want: []string{
				"diff --git a/mod.md b/mod.md", "+worktree line", "+mod line 9", "-mod line nine",
				"diff --git a/untracked.md b/untracked.md", "new file mode 100644", "+fresh",
			},
			notWant: []string{"ignored.log", "new.go", "old.md", "forced.log", "Subproject", "nested"},
		},
		{
			name: "worktree from base", base: base, worktree: true,
			want:    []string{"+worktree line", "+fresh", "rename to docs/new.md", "+package x"},
			notWant: []string{"ignored.log", "-mod line 9"},
		},
		{
			name: "worktree from empty tree", base: "", worktree: true,
			want: []string{
				"diff --git a/untracked.md b/untracked.md", "diff --git a/docs/new.md b/docs/new.md", "+worktree line",
				"diff --git a/forced.log b/forced.log", "+Subproject commit " + sub2,
			},
			notWant: []string{"ignored.log", "deleted file mode", "old.md", "nested"},
		},
		{name: "same commit", base: head, head: head},
		{name: "unknown base", base: "nope", head: head, wantErr: ErrUnknownRevision},
		{name: "unknown head", base: base, head: "nope", wantErr: ErrUnknownRevision},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := repo.Diff(t.Context(), tt.base, tt.head, tt.worktree)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Diff error = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil && len(raw) != 0 {
				t.Errorf("Diff = %q, want empty", raw)
			}
			got := strings.Split(string(raw), "\n")
			for _, w := range tt.want {
				if !contains(got, w) {
					t.Errorf("diff has no line %q:\n%s", w, raw)
				}
			}
			for _, nw := range tt.notWant {
				if bytes.Contains(raw, []byte(nw)) {
					t.Errorf("diff contains %q:\n%s", nw, raw)
				}
			}
		})
	}
	if diff := cmp.Diff(indexBefore, fileSum(t, indexPath)); diff != "" {
		t.Errorf("the user's index changed (-before +after):\n%s", diff)
	}
	if got := r.git("diff", "--cached", "--name-only"); got != stagedBefore {
		t.Errorf("staged files = %q, want %q", got, stagedBefore)
	}
}

func contains(lines []string, want string) bool {
	for _, l := range lines {
		if l == want || (strings.HasPrefix(want, "index ") && strings.HasPrefix(l, want)) {
			return true
		}
	}
	return false
}

func fileSum(t *testing.T, name string) [sha256.Size]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

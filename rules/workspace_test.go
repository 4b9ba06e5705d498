package rules

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/docreview/docreview/review/extract"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "regenerate testdata/*/change.diff from the base and head trees with git")

// loadWorkspace builds the workspace of fixture testdata/name, as
// [review.Engine.Load] does (symbols, index and retriever at head): head/ is
// the repository at head, base/ (optional) at base, and change.diff the git
// diff between them.
func loadWorkspace(t *testing.T, name string) *review.Workspace {
	t.Helper()
	// The fixtures' dependencies are placeholders whatever the machine's
	// module cache holds, so that a test passes or fails everywhere alike.
	return loadWorkspaceWith(t, name, &retrieval.TypeCache{NoDependencies: true})
}

// loadWorkspaceWith is loadWorkspace with the symbols loaded through cache.
func loadWorkspaceWith(t *testing.T, name string, cache *retrieval.TypeCache) *review.Workspace {
	t.Helper()
	root := filepath.Join("testdata", name)
	head := os.DirFS(filepath.Join(root, "head"))
	var files []string
	err := fs.WalkDir(head, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	syms, err := cache.LoadSymbols(t.Context(), head, files, nil)
	if err != nil {
		t.Fatalf("load symbols of %s: %v", name, err)
	}
	ix, err := retrieval.BuildIndex(t.Context(), head, files, retrieval.IndexOptions{Dir: filepath.Join(t.TempDir(), "index"), Commit: "head"})
	if err != nil {
		t.Fatalf("index %s: %v", name, err)
	}
	t.Cleanup(func() { ix.Close() })
	ws := &review.Workspace{
		Dir: root, Head: "head", HeadFS: head, HeadFiles: files, Symbols: syms, Index: ix,
		Retriever: &retrieval.Retriever{Index: ix, Symbols: syms, FS: head},
		Docs:      &extract.Extractor{},
	}
	baseDir := filepath.Join(root, "base")
	if _, err := os.Stat(baseDir); err != nil {
		return ws
	}
	patch := filepath.Join(root, "change.diff")
	if *update {
		writeDiff(t, baseDir, filepath.Join(root, "head"), patch)
	}
	data, err := os.ReadFile(patch)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if ws.Diff, err = diff.Parse(bytes.NewReader(data)); err != nil {
		t.Fatalf("parse %s: %v", patch, err)
	}
	ws.Base, ws.BaseFS = "base", os.DirFS(baseDir)
	return ws
}

// writeDiff commits base and then head in a throwaway repository and
// writes git's diff between the two commits to out.
func writeDiff(t *testing.T, base, head, out string) {
	t.Helper()
	repo := t.TempDir()
	git := func(args ...string) []byte {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return b
	}
	git("init", "-q")
	snapshot := func(src string) {
		t.Helper()
		entries, err := os.ReadDir(repo)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != ".git" {
				os.RemoveAll(filepath.Join(repo, e.Name()))
			}
		}
		if err := os.CopyFS(repo, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "-m", src)
	}
	snapshot(base)
	snapshot(head)
	if err := os.WriteFile(out, git("diff", "HEAD~1", "HEAD"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goClaim returns the doc-comment claim of symbol in the Go file at path.
func goClaim(t *testing.T, ws *review.Workspace, path, symbol string) review.Claim {
	t.Helper()
	src, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		t.Fatal(err)
	}
	claims, err := extract.GoClaims(path, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range claims {
		if c.Symbol == symbol {
			c.Changed = changedInDiff(ws, c)
			return c
		}
	}
	t.Fatalf("%s: no doc comment of %s", path, symbol)
	return review.Claim{}
}

// mdClaim returns the first claim of the Markdown file at path whose text
// contains s.
func mdClaim(t *testing.T, ws *review.Workspace, path, s string) review.Claim {
	t.Helper()
	src, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range extract.MarkdownClaims(path, src) {
		if strings.Contains(c.Text, s) {
			c.Changed = changedInDiff(ws, c)
			return c
		}
	}
	t.Fatalf("%s: no claim containing %q", path, s)
	return review.Claim{}
}

// changedInDiff reports whether the workspace's diff adds a line of the
// claim (every line of an added file), as the extractor marks claims.
func changedInDiff(ws *review.Workspace, c review.Claim) bool {
	for _, f := range ws.Diff {
		if f.NewPath == c.Path && f.Status != diff.Deleted {
			return f.Status == diff.Added || f.Touches(c.Line, c.EndLine)
		}
	}
	return false
}

// lineOf returns the 1-based line of the first line of a head file that
// contains s, or fails the test.
func lineOf(t *testing.T, ws *review.Workspace, path, s string) int {
	t.Helper()
	src, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line contains %q", path, s)
	return 0
}

// declEnd returns the line of the first "}" at the start of a line at or
// after line start: the end of a top-level declaration.
func declEnd(t *testing.T, ws *review.Workspace, path string, start int) int {
	t.Helper()
	src, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for i := start - 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "}") || i == start-1 && strings.HasSuffix(lines[i], "}") {
			return i + 1
		}
	}
	t.Fatalf("%s: no declaration end after line %d", path, start)
	return 0
}

// ev is the part of an evidence item the tests compare.
type ev struct {
	Path       string
	Start, End int
	Source     review.Source
	Why        string
}

// want is what a test expects of a rule's verdict; a nil *want expects no
// verdict.
type want struct {
	label      review.Label
	message    string // a substring of the message
	suggestion string
	evidence   []ev
}

// checkVerdict compares a verdict with what a test expects.
func checkVerdict(t *testing.T, j review.Judge, got *review.Verdict, w *want) {
	t.Helper()
	if w == nil {
		if got != nil {
			t.Fatalf("got verdict %s %q, want none", got.Label, got.Message)
		}
		return
	}
	if got == nil {
		t.Fatalf("got no verdict, want %s", w.label)
	}
	if got.Label != w.label || got.Rule != j.Name() {
		t.Errorf("label, rule = %s, %s; want %s, %s", got.Label, got.Rule, w.label, j.Name())
	}
	if !strings.Contains(got.Message, w.message) {
		t.Errorf("message %q does not contain %q", got.Message, w.message)
	}
	if strings.Count(strings.TrimSuffix(got.Message, "."), ". ") > 0 || !strings.HasSuffix(got.Message, ".") {
		t.Errorf("message %q is not one sentence", got.Message)
	}
	if got.Suggestion != w.suggestion {
		t.Errorf("suggestion:\n%s", cmp.Diff(w.suggestion, got.Suggestion))
	}
	if got.Confidence <= 0 || got.Confidence > 1 {
		t.Errorf("confidence %v not in (0, 1]", got.Confidence)
	}
	var evs []ev
	for _, e := range got.Evidence {
		evs = append(evs, ev{e.Path, e.StartLine, e.EndLine, e.Source, e.Why})
		if len(e.Hops) == 0 {
			t.Errorf("evidence %s:%d has no hops", e.Path, e.StartLine)
		}
	}
	if d := cmp.Diff(w.evidence, evs); d != "" {
		t.Errorf("evidence (-want +got):\n%s", d)
	}
}

// checkContradicted checks got against a wanted message: no verdict when
// want is "", else a contradicted verdict whose message match accepts
// (equality or containment). It reports whether got is a verdict to check
// further.
func checkContradicted(t *testing.T, got *review.Verdict, want string, match func(got, want string) bool) bool {
	t.Helper()
	if want == "" {
		if got != nil {
			t.Errorf("got %s %q, want no verdict", got.Label, got.Message)
		}
		return false
	}
	if got == nil {
		t.Errorf("got no verdict, want contradicted %q", want)
		return false
	}
	if got.Label != review.Contradicted || !match(got.Message, want) {
		t.Errorf("got %s %q, want contradicted %q", got.Label, got.Message, want)
	}
	return true
}

// equal is string equality, for [checkContradicted].
func equal(a, b string) bool { return a == b }

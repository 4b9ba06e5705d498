package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

// gitRepo is a throwaway repository for command tests.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	g := &gitRepo{t: t, dir: t.TempDir()}
	g.git("init", "-q", "-b", "main")
	return g
}

func (g *gitRepo) git(args ...string) string {
	g.t.Helper()
	cmd := exec.CommandContext(g.t.Context(), "git", append([]string{"-C", g.dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (a nil value deletes) and commits them.
func (g *gitRepo) commit(msg string, files map[string][]byte) {
	g.t.Helper()
	for name, data := range files {
		p := filepath.Join(g.dir, name)
		if data == nil {
			if err := os.Remove(p); err != nil {
				g.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			g.t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			g.t.Fatal(err)
		}
	}
	g.git("add", "-A")
	g.git("commit", "-q", "--allow-empty", "-m", msg)
}

const goMod = "module example.com/m\n\ngo 1.22\n"

func TestReviewBadInput(t *testing.T) {
	notRepo := t.TempDir()

	empty := newGitRepo(t)
	empty.commit("one", map[string][]byte{"go.mod": []byte(goMod), "a.go": []byte("// Package m does things.\npackage m\n")})
	empty.commit("two (empty)", nil)

	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{name: "not a git repository", args: []string{"--repo", notRepo}, wantCode: exitError, wantErr: "not a git repository"},
		{name: "unknown ref", args: []string{"--repo", empty.dir, "--base", "no-such-branch"}, wantCode: exitError, wantErr: "no-such-branch"},
		{name: "bad scope", args: []string{"--repo", empty.dir, "--scope", "everything"}, wantCode: exitError, wantErr: `unknown scope "everything"`},
		{name: "bad fail-on", args: []string{"--repo", empty.dir, "--fail-on", "sometimes"}, wantCode: exitError, wantErr: "--fail-on"},
		{name: "bad format", args: []string{"--repo", empty.dir, "--format", "yaml"}, wantCode: exitError, wantErr: "yaml"},
		{name: "unknown flag", args: []string{"--repo", empty.dir, "--frobnicate"}, wantCode: exitError, wantErr: "frobnicate"},
		{name: "unknown rule", args: []string{"--repo", empty.dir, "--disable", "spelling"}, wantCode: exitError, wantErr: `unknown rule "spelling"`},
		{name: "empty diff", args: []string{"--repo", empty.dir}, wantCode: exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), append([]string{"review", "--no-cache"}, tt.args...), nil, &stdout, &stderr, func(string) string { return "" })
			if code != tt.wantCode {
				t.Fatalf("exit code = %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, stdout.String(), stderr.String())
			}
			if tt.wantErr != "" && !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stderr = %q, want it to mention %q", stderr.String(), tt.wantErr)
			}
		})
	}
}

func TestReviewEmptyDiffSaysSo(t *testing.T) {
	g := newGitRepo(t)
	g.commit("one", map[string][]byte{"go.mod": []byte(goMod), "a.go": []byte("// Package m does things.\npackage m\n")})
	g.commit("two (empty)", nil)
	r, code, _ := reviewJSON(t, "--repo", g.dir)
	if code != exitOK || len(r.Verdicts) != 0 {
		t.Fatalf("empty diff: code %d, %d claims; want 0 and none", code, len(r.Verdicts))
	}
	var out bytes.Buffer
	run(t.Context(), []string{"review", "--no-cache", "--repo", g.dir}, nil, &out, &out, func(string) string { return "" })
	if !strings.Contains(out.String(), "empty diff") {
		t.Errorf("text output does not say the diff is empty:\n%s", out.String())
	}
}

// TestReviewAwkwardFiles commits a binary file, a 20 MB file, a Go file that
// does not parse and a 100k-line Markdown file: the review goes on, notes
// each, and never crashes.
func TestReviewAwkwardFiles(t *testing.T) {
	g := newGitRepo(t)
	g.commit("base", map[string][]byte{"go.mod": []byte(goMod), "m.go": []byte("// Package m does things.\npackage m\n")})
	var long strings.Builder
	for i := range 100_000 {
		if i%50 == 0 {
			long.WriteString("## Section\n\n")
		}
		long.WriteString("Line of prose that mentions nothing in particular.\n")
	}
	big := bytes.Repeat([]byte("twenty megabytes of text\n"), 20<<20/25)
	g.commit("head", map[string][]byte{
		"logo.png":    {0x89, 'P', 'N', 'G', 0, 0, 0, 0, 1, 2, 3},
		"big.txt":     big,
		"broken.go":   []byte("package m\n\n// Broken does things [Missing].\nfunc Broken( {\n"),
		"docs/big.md": []byte(long.String()),
		"latin1.md":   []byte("Caf\xe9 menu: see [Menu].\n"),
	})
	r, code, stderr := reviewJSON(t, "--repo", g.dir, "--scope", "changed", "--max-file-size", "8MiB")
	if code == exitError {
		t.Fatalf("review failed: %s", stderr)
	}
	text := renderText(t, "--repo", g.dir, "--scope", "changed", "--max-file-size", "8MiB")
	for _, want := range []string{"logo.png", "binary", "big.txt", "larger than"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report does not mention %q:\n%.2000s", want, text)
		}
	}
	var brokenSkipped bool
	for _, v := range r.Verdicts {
		if v.Claim.Path == "broken.go" && v.Skipped != "" {
			brokenSkipped = true
		}
	}
	if !brokenSkipped {
		t.Errorf("claims of broken.go are not reported as skipped")
	}
	if r.Stats.Claims < 1000 {
		t.Errorf("100k-line Markdown gave %d claims, want it reviewed", r.Stats.Claims)
	}
}

func renderText(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	run(t.Context(), append([]string{"review", "--no-cache"}, args...), nil, &out, &out, func(string) string { return "" })
	return out.String()
}

// TestReviewIncludeKeepsEvidence: --include and --exclude choose the files
// claims come from; the files they leave out are still evidence, so a
// reviewed guide's link to an excluded file resolves and the func it names
// is known.
func TestReviewIncludeKeepsEvidence(t *testing.T) {
	g := newGitRepo(t)
	g.commit("one", map[string][]byte{
		"go.mod":           []byte(goMod),
		"store.go":         []byte("// Package m keeps stock.\npackage m\n\n// Hold sets aside qty units of sku.\nfunc Hold(sku string, qty int) error { return nil }\n"),
		"examples/hold.md": []byte("# Holding\n\nSee [the guide](../docs/guide.md).\n"),
		"docs/guide.md":    []byte("# Guide\n\nCall `Hold` to set stock aside; the [source](../store.go) and the [example](../examples/hold.md) show how.\n"),
	})
	for _, tc := range []struct {
		name  string
		globs []string
	}{
		{name: "include", globs: []string{"--include", "docs/**"}},
		{name: "exclude", globs: []string{"--exclude", "examples/**", "--exclude", "*.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, code, stderr := reviewJSON(t, append([]string{"--repo", g.dir, "--scope", "all"}, tc.globs...)...)
			if code == exitError {
				t.Fatalf("review failed: %s", stderr)
			}
			if len(r.Verdicts) == 0 {
				t.Fatal("no claims from docs/guide.md")
			}
			for _, v := range r.Verdicts {
				if v.Claim.Path != "docs/guide.md" {
					t.Errorf("claim of %s:%d, a file the globs leave out", v.Claim.Path, v.Claim.Line)
				}
				if v.Label != review.Consistent {
					t.Errorf("%s:%d %s (%s): %s", v.Claim.Path, v.Claim.Line, v.Label, v.Rule, v.Message)
				}
			}
		})
	}
}

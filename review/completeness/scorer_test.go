package completeness_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/completeness"
)

// scoreRepo commits base then head (maps of path to content) in a new
// repository and scores the diff between them.
func scoreRepo(t *testing.T, base, head map[string]string) *review.CoverageChange {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(files map[string]string) {
		for p, text := range files {
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	git("init", "-q")
	write(base)
	git("add", "-A")
	git("commit", "-qm", "base")
	write(head)
	git("add", "-A")
	git("commit", "-qm", "head")
	e := &review.Engine{}
	ws, _, err := e.Load(t.Context(), review.Request{Repo: dir, Base: "HEAD~1", Head: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	c, err := completeness.Scorer{}.Score(t.Context(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const scorerMod = "module example.com/shop\n\ngo 1.22\n"

func TestScorer(t *testing.T) {
	baseSrc := `package shop

import "errors"

// ErrNoStock is returned when the stock is too low.
var ErrNoStock = errors.New("no stock")

// Take takes units out of stock.
func Take(sku string, n int) error {
	if n > 10 {
		return ErrNoStock
	}
	return nil
}

// Untouched stays as it is.
func Untouched(sku string) error { return ErrNoStock }
`
	tests := []struct {
		name string
		head string
		want *review.CoverageChange
	}{{
		name: "the diff states the error and the parameters",
		head: `package shop

import "errors"

// ErrNoStock is returned when the stock is too low.
var ErrNoStock = errors.New("no stock")

// Take takes n units of sku out of stock; it returns ErrNoStock when n > 10.
func Take(sku string, n int) error {
	if n > 10 {
		return ErrNoStock
	}
	return nil
}

// Untouched stays as it is.
func Untouched(sku string) error { return ErrNoStock }
`,
		want: &review.CoverageChange{Symbols: 1, FactsBefore: 3, FactsAfter: 3, StatedBefore: 0, StatedAfter: 3, Gained: 3},
	}, {
		name: "only a comment elsewhere changes",
		head: baseSrc + "\n// trailing note\n",
		want: nil,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scoreRepo(t, map[string]string{"go.mod": scorerMod, "shop.go": baseSrc}, map[string]string{"shop.go": tt.head})
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("coverage (-want +got):\n%s", d)
			}
		})
	}
}

package extract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docreview/docreview/review"
)

// everything is a Resolver that defines every name.
type everything struct{}

func (everything) Defined(string) bool                   { return true }
func (everything) Suggest(_, name string) (string, bool) { return name, true }

// seedFuzz adds the fixtures of testdata/claims whose path ends in ext.
func seedFuzz(f *testing.F, ext string) {
	entries, err := os.ReadDir(filepath.Join("testdata", "claims"))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(fixturePath(e.Name()), ext) {
			continue
		}
		src, err := os.ReadFile(filepath.Join("testdata", "claims", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
}

func FuzzGoClaims(f *testing.F) {
	seedFuzz(f, ".go")
	f.Add([]byte("package p\n\n// F.\nfunc (*[]T[) F() {}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		gcs, _ := goClaims("p/f.go", src, newMemo(everything{}))
		var claims []review.Claim
		for _, g := range gcs {
			claims = append(claims, g.Claim)
		}
		checkInvariants(t, src, claims)
		for _, p := range []string{"p/f.go", "p/f_test.go"} {
			claims, err := GoClaims(p, src)
			checkInvariants(t, src, claims)
			for _, c := range claims {
				if (err != nil) != (c.Note != "") {
					t.Errorf("claim at line %d: note %q with parse error %v", c.Line, c.Note, err)
				}
			}
		}
	})
}

func FuzzMarkdownClaims(f *testing.F) {
	seedFuzz(f, ".md")
	f.Add([]byte("---\na: b\n---\n# H\n\n- a\n  - b\n\n| x |\n| - |\n| `y` |\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkInvariants(t, src, MarkdownClaims("docs/f.md", src))
		// A resolver that knows every name drives the identifier paths.
		claims, _ := markdownClaims("docs/f.md", src, newMemo(everything{}))
		checkInvariants(t, src, claims)
	})
}

// TestMarkdownClaimsLargeFile checks that a 100,000-line file is handled:
// each section gives a paragraph, three list items and a code block.
func TestMarkdownClaimsLargeFile(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	const sections = 8400 // 12 lines each, plus the title line
	sb.WriteString("# Big\n")
	for i := range sections {
		fmt.Fprintf(&sb, "## Section %d\n\nParagraph %d waits 30s, see `Cache.Purge` and [x](docs/%d.md).\n\n", i, i, i)
		fmt.Fprintf(&sb, "- item %d with --flag\n- item two\n  - nested, 10 MB\n\n```sh\nrun --n=%d\n```\n\n", i, i)
	}
	src := []byte(sb.String())
	lines := newLineIndex(src).count()
	if lines < 100000 {
		t.Fatalf("generated %d lines, want at least 100000", lines)
	}
	start := time.Now()
	claims := MarkdownClaims("big.md", src)
	t.Logf("%d lines, %d claims in %v", lines, len(claims), time.Since(start))
	if want := sections * 5; len(claims) != want {
		t.Fatalf("got %d claims, want %d", len(claims), want)
	}
	last := claims[len(claims)-1]
	// The last claim is the closing code block, fences included; a blank
	// line ends the file.
	if want := fmt.Sprintf("Big > Section %d", sections-1); last.Context != want || last.Line != lines-3 || last.EndLine != lines-1 {
		t.Errorf("last claim: context %q lines %d-%d, want %q lines %d-%d", last.Context, last.Line, last.EndLine, want, lines-3, lines-1)
	}
	checkInvariants(t, src, claims)
}

// TestMarkdownClaimsAdversarial feeds inputs on which Markdown parsers
// are slow (inline links and reference definitions by the thousand, deep
// nesting) and checks what comes out.
func TestMarkdownClaimsAdversarial(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		src        string
		wantClaims int
	}{
		{"unclosed links in one line", strings.Repeat("[a](", 20000) + "\n", 1},
		{"unclosed links, one per line", strings.Repeat("[a](x \"\n", 20000), 1},
		{"reference definitions", strings.Repeat("[a]: b\n", 20000) + "\nText.\n", 1},
		{"open brackets", strings.Repeat("](", 20000) + "\n", 1},
		{"nested quotes", strings.Repeat("> ", 20000) + "a\n", 0},
		{"nested lists", strings.Repeat("1. ", 20000) + "a\n", 0},
		{"staircase lists within the limit", func() string {
			var sb strings.Builder
			for i := range 100 {
				sb.WriteString(strings.Repeat("  ", i) + "- a\n")
			}
			return sb.String()
		}(), 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			claims := MarkdownClaims("a.md", []byte(tt.src))
			if len(claims) != tt.wantClaims {
				t.Errorf("got %d claims, want %d", len(claims), tt.wantClaims)
			}
			checkInvariants(t, []byte(tt.src), claims)
		})
	}
}

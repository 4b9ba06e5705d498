package extract

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenClaims is what a golden file records for one fixture.
type goldenClaims struct {
	Error  string         `json:",omitempty"`
	Claims []review.Claim `json:",omitempty"`
}

// fixturePath maps a fixture file name to the repository path it stands
// for: a ".txt" suffix keeps files that must not be read as Go by the
// toolchain ("broken.go.txt" is "broken.go").
func fixturePath(name string) string { return "pkg/" + strings.TrimSuffix(name, ".txt") }

func TestClaimsGolden(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir(filepath.Join("testdata", "claims"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasSuffix(name, ".json") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(filepath.Join("testdata", "claims", name))
			if err != nil {
				t.Fatal(err)
			}
			p := fixturePath(name)
			var got goldenClaims
			switch docKind(p) {
			case "go":
				claims, err := GoClaims(p, src)
				got.Claims = claims
				if err != nil {
					got.Error = err.Error()
				}
			case "markdown":
				got.Claims = MarkdownClaims(p, src)
			default:
				t.Fatalf("fixture %s is neither Go nor Markdown", name)
			}
			checkInvariants(t, src, got.Claims)
			goldenJSON(t, filepath.Join("testdata", "claims", name+".json"), got)
		})
	}
	if n == 0 {
		t.Fatal("no fixtures in testdata/claims")
	}
}

// goldenJSON compares v, as indented JSON, with the golden file, or
// rewrites the file under -update.
func goldenJSON(t *testing.T, golden string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *update {
		if err := os.WriteFile(golden, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(b)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", golden, diff)
	}
}

// checkInvariants asserts what every extraction guarantees: lines inside
// the file, ordered spans, mentions inside their file, stable unique IDs.
func checkInvariants(t *testing.T, src []byte, claims []review.Claim) {
	t.Helper()
	lines := newLineIndex(src).count()
	ids := map[string]bool{}
	for _, c := range claims {
		if c.Line < 1 || c.EndLine < c.Line || c.EndLine > lines {
			t.Errorf("claim %s %q spans lines %d-%d of a %d-line file", c.ID, c.Symbol, c.Line, c.EndLine, lines)
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Errorf("claim at line %d has no text", c.Line)
		}
		if ids[c.ID] {
			t.Errorf("duplicate claim ID %s at line %d", c.ID, c.Line)
		}
		ids[c.ID] = true
		for _, m := range c.Mentions {
			if m.Line < c.Line || m.EndLine < m.Line || m.EndLine > c.EndLine {
				t.Errorf("mention %s %q spans lines %d-%d outside its claim's lines %d-%d", m.Kind, m.Text, m.Line, m.EndLine, c.Line, c.EndLine)
			}
			if m.Text == "" || (m.Kind == review.MentionLiteral) != (m.Unit != "") {
				t.Errorf("mention %s at line %d: text %q, unit %q", m.Kind, m.Line, m.Text, m.Unit)
			}
		}
	}
}

package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	"github.com/google/go-cmp/cmp"
)

func TestAll(t *testing.T) {
	var names []string
	for _, j := range All() {
		names = append(names, j.Name())
	}
	if d := cmp.Diff([]string{"stale-reference", "go-snippet", "cli-flag", "link", "example-output", "restates-name", "literal-mismatch", "wrong-parameter", "missing-contract", "deprecated-use"}, names); d != "" {
		t.Errorf("rule names (-want +got):\n%s", d)
	}
	if All()[0] == All()[0] {
		t.Error("All returned the same rule value twice; callers would share caches")
	}
}

func TestRulesIgnoreWorkspaceWithoutSymbols(t *testing.T) {
	c := review.Claim{Path: "a.go", Kind: review.KindDocComment, Symbol: "Close", Package: ".", Text: "Close closes.",
		Mentions: []review.Mention{{Kind: review.MentionCode, Text: "Clse", Line: 1, EndLine: 1}}}
	for _, j := range All() {
		got, err := j.Judge(t.Context(), &review.Workspace{}, c)
		if err != nil || got != nil {
			t.Errorf("%s: Judge = %v, %v; want nil, nil", j.Name(), got, err)
		}
	}
}

func TestMemo(t *testing.T) {
	var m memo[int]
	var calls atomic.Int32
	ws := &review.Workspace{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			v, err := m.get(ws, "k", func() (int, error) { calls.Add(1); return 42, nil })
			if v != 42 || err != nil {
				t.Errorf("get = %d, %v; want 42, nil", v, err)
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("computed %d times, want once", n)
	}
	boom := errors.New("boom")
	if _, err := m.get(ws, "e", func() (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("get error = %v, want %v", err, boom)
	}
	if _, err := m.get(&review.Workspace{}, "k", func() (int, error) { return 0, nil }); err != nil {
		t.Errorf("another workspace: %v", err)
	}
	runtime.KeepAlive(ws)
	ws = nil
	// Entries go once their workspaces are collected.
	deadline := time.Now().Add(5 * time.Second)
	for m.len() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := m.len(); n != 0 {
		t.Errorf("%d entries left after their workspaces were collected", n)
	}
}

func TestReplaceName(t *testing.T) {
	tests := []struct {
		text, old, repl, want string
		n                     int
	}{
		{"it undoes [Store.Reserve].", "Store.Reserve", "Store.Hold", "it undoes [Store.Hold].", 1},
		{"`Store.Reserve(ctx)` and Store.Reserved", "Store.Reserve", "Store.Hold", "`Store.Hold(ctx)` and Store.Reserved", 1},
		{"x.Store.Reserve", "Store.Reserve", "Store.Hold", "x.Store.Reserve", 0},
		{"MaxSKU, MaxSKUs", "MaxSKU", "MaxSKUs", "MaxSKUs, MaxSKUs", 1},
	}
	for _, tt := range tests {
		got, n := replaceName(tt.text, tt.old, tt.repl)
		if got != tt.want || n != tt.n {
			t.Errorf("replaceName(%q, %q, %q) = %q, %d; want %q, %d", tt.text, tt.old, tt.repl, got, n, tt.want, tt.n)
		}
	}
}

func TestRefName(t *testing.T) {
	tests := []struct {
		m    review.Mention
		want string
	}{
		{review.Mention{Kind: review.MentionDocLink, Text: "*Store.Hold"}, "Store.Hold"},
		{review.Mention{Kind: review.MentionCode, Text: "(*Store).Hold"}, "Store.Hold"},
		{review.Mention{Kind: review.MentionCode, Text: "Store.Hold(ctx, n)"}, "Store.Hold"},
		{review.Mention{Kind: review.MentionCode, Text: "go test ./..."}, ""},
		{review.Mention{Kind: review.MentionIdent, Text: "maxSize"}, "maxSize"},
		{review.Mention{Kind: review.MentionIdent, Text: "Hold()"}, "Hold"},
		{review.Mention{Kind: review.MentionIdent, Text: "Stock"}, ""},
		{review.Mention{Kind: review.MentionFlag, Text: "--fail-on"}, ""},
	}
	for _, tt := range tests {
		got, _ := refName(tt.m)
		if got != tt.want {
			t.Errorf("refName(%s %q) = %q, want %q", tt.m.Kind, tt.m.Text, got, tt.want)
		}
	}
}

// TestRulesConcurrentAndDeterministic runs every rule on every claim of the
// fixture at once, as the engine's workers do, and checks the verdicts are
// those of a sequential run with fresh rules.
func TestRulesConcurrentAndDeterministic(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	var claims []review.Claim
	for _, p := range ws.HeadFiles {
		src, err := fs.ReadFile(ws.HeadFS, p)
		if err != nil {
			t.Fatal(err)
		}
		switch path.Ext(p) {
		case ".go":
			cs, err := extract.GoClaims(p, src)
			if err != nil {
				t.Fatal(err)
			}
			claims = append(claims, cs...)
		case ".md":
			claims = append(claims, extract.MarkdownClaims(p, src)...)
		}
	}
	run := func(rules []review.Judge, parallel bool) []string {
		out := make([]string, len(claims)*len(rules))
		var wg sync.WaitGroup
		for i, c := range claims {
			for k, j := range rules {
				do := func() {
					v, err := j.Judge(t.Context(), ws, c)
					switch {
					case err != nil:
						out[i*len(rules)+k] = "error: " + err.Error()
					case v != nil:
						out[i*len(rules)+k] = fmt.Sprintf("%s %s %s %q %d", v.Rule, v.Label, v.Message, v.Suggestion, len(v.Evidence))
					}
				}
				if parallel {
					wg.Go(do)
				} else {
					do()
				}
			}
		}
		wg.Wait()
		return out
	}
	seq := run(All(), false)
	if d := cmp.Diff(seq, run(All(), true)); d != "" {
		t.Errorf("concurrent verdicts differ from sequential ones (-seq +concurrent):\n%s", d)
	}
	found := 0
	for _, s := range seq {
		if s != "" {
			found++
		}
	}
	if found == 0 {
		t.Error("no rule found anything in the fixture")
	}
}

func TestIsUpgradeGuide(t *testing.T) {
	for p, want := range map[string]bool{
		"UPGRADE.md": true, "docs/MIGRATION.md": true, "docs/upgrade-notes.md": true, "docs/version_migration.md": true,
		"UPGRADING.md": true, "docs/migrate.md": false, "docs/migrate-v1-to-v2.md": true, "docs/migrate_to_v3.md": true, "README.md": false, "upgrade.go": false,
		"migration/v0.10.0.md": true, "docs/upgrading/v2.md": true, "internal/migrations/README.md": false,
	} {
		if got := isUpgradeGuide(p); got != want {
			t.Errorf("isUpgradeGuide(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestIsHistory(t *testing.T) {
	for p, want := range map[string]bool{
		"CHANGELOG.md": true, "docs/Changes.markdown": true, "HISTORY": true, "NEWS.txt": true,
		"RELEASE-NOTES.md": true, "CHANGELOG-3.0.md": true, "news-feed.md": false, "UPGRADE.md": false, "README.md": false, "review/extract/changes.go": false, "docs/news-feed.md": false,
		"docs/RFCS/20220311_flushable.md": true, "design/proposals/retries.md": true, "geps/gep-1867/index.md": true, "keps/sig-node/123-swap/README.md": true, "docs/adr/0001-queue.md": true, "docs/design/overview.md": false, "rfc.go": false,
		".changes/1.1.1.md": true, ".changelog/4521.txt": true, "release-notes/v0.10.0.md": true, "docs/changelogs/v2.md": true, "docs/changes-in-detail.md": false,
	} {
		if got := isHistory(p); got != want {
			t.Errorf("isHistory(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestIsOtherMajorDoc(t *testing.T) {
	tests := []struct {
		path, mod string
		want      bool
	}{
		{"docs/v1/getting-started.md", "github.com/urfave/cli/v2", true},
		{"docs/v2/getting-started.md", "github.com/urfave/cli/v2", false},
		{"docs/v2/index.md", "github.com/x/y", true},
		{"docs/v1.x/index.md", "github.com/x/y/v3", true},
		{"docs/v1/index.md", "github.com/x/y", false},
		{"v1/README.md", "github.com/x/y/v2", true},
		{"docs/README.md", "github.com/x/y/v2", false},
		{"docs/v1.md", "github.com/x/y/v2", false},
		{"v1/api.go", "github.com/x/y/v2", false},
		{"docs/v1/index.md", "", false},
	}
	for _, tt := range tests {
		if got := isOtherMajorDoc(tt.path, tt.mod); got != tt.want {
			t.Errorf("isOtherMajorDoc(%q, %q) = %v, want %v", tt.path, tt.mod, got, tt.want)
		}
	}
}

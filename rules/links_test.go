package rules

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	"github.com/google/go-cmp/cmp"
)

func TestSnippetLinks(t *testing.T) {
	ws := loadWorkspace(t, "links")
	rule := &Link{}
	at := func(path, s string, why string) ev {
		l := lineOf(t, ws, path, s)
		return ev{path, l, l, review.SourceDoc, why}
	}
	installHeads := ev{"docs/install.md", lineOf(t, ws, "docs/install.md", "# Install"), lineOf(t, ws, "docs/install.md", `<a name="legacy">`), review.SourceDoc,
		"headings of docs/install.md: install, options, options-1, legacy"}
	tests := []struct {
		name string
		path string
		text string   // a substring of the claim
		fix  []string // replacements giving the suggestion from the text
		want *want
	}{{
		name: "missing file",
		path: "README.md", text: "docs/usage.md",
		want: &want{
			label:    review.Contradicted,
			message:  "The link docs/usage.md points to docs/usage.md, which does not exist at head.",
			evidence: []ev{at("README.md", "docs/usage.md", "links to docs/usage.md, which does not exist at head")},
		},
	}, {
		name: "anchor no heading has",
		path: "README.md", text: "#flagz",
		want: &want{
			label:    review.Contradicted,
			message:  "The link docs/install.md#flagz names the anchor #flagz, which no heading of docs/install.md has.",
			evidence: []ev{at("README.md", "#flagz", "links to #flagz, which no heading of docs/install.md has"), installHeads},
		},
	}, {
		name: "anchor in the same file",
		path: "README.md", text: "#faq",
		want: &want{
			label:   review.Contradicted,
			message: "names the anchor #faq, which no heading of README.md has",
			evidence: []ev{
				at("README.md", "#faq", "links to #faq, which no heading of README.md has"),
				{"README.md", 1, lineOf(t, ws, "README.md", "## Getting started"), review.SourceDoc, "headings of README.md: links, getting-started"},
			},
		},
	}, {
		name: "line anchor past the end",
		path: "README.md", text: "store.go#L99",
		want: &want{
			label:    review.Contradicted,
			message:  "The link store.go#L99 points past the end of store.go, which has 4 lines.",
			evidence: []ev{at("README.md", "store.go#L99", "links to line 99 of store.go, which has 4 lines")},
		},
	}, {
		name: "misspelt file with a unique close one",
		path: "README.md", text: "docs/instal.md",
		fix: []string{"docs/instal.md", "docs/install.md"},
		want: &want{
			label:    review.Contradicted,
			message:  "The link docs/instal.md points to docs/instal.md, which does not exist at head (closest: docs/install.md).",
			evidence: []ev{at("README.md", "docs/instal.md", "links to docs/instal.md, which does not exist at head")},
		},
	}, {
		name: "misspelt anchor with a unique close slug",
		path: "README.md", text: "#option)",
		fix: []string{"#option)", "#options)"},
		want: &want{
			label:    review.Contradicted,
			message:  "names the anchor #option, which no heading of docs/install.md has (closest: docs/install.md#options).",
			evidence: []ev{at("README.md", "#option)", "links to #option, which no heading of docs/install.md has"), installHeads},
		},
	},
		{name: "existing file and heading", path: "README.md", text: "docs/install.md#options)"},
		{name: "directory, URL and absolute path", path: "README.md", text: "docs/)"},
		{name: "duplicate heading, HTML anchor, parent file", path: "docs/install.md", text: "#legacy"},
		{name: "markup convention, not a path", path: "README.md", text: "[character](@)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mdClaim(t, ws, tt.path, tt.text)
			if tt.want != nil && len(tt.fix) > 0 {
				tt.want.suggestion = strings.NewReplacer(tt.fix...).Replace(c.Text)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestSlugsLongFences: a fence closes only with a run at least as long as
// its opening one, so a heading after an example block that contains a
// shorter fence (as in the CommonMark spec) is still found.
func TestSlugsLongFences(t *testing.T) {
	lines := strings.Split("`````` example\n```\n# inside\n```\n``````\n\n# After the example\n", "\n")
	var slugs []string
	for _, h := range headings(lines) {
		slugs = append(slugs, h.slug)
	}
	if !slices.Contains(slugs, "after-the-example") || slices.Contains(slugs, "inside") {
		t.Errorf("slugs = %v, want after-the-example and not inside", slugs)
	}
}

func TestSlugs(t *testing.T) {
	lines := strings.Split("# Hello, World!\n\n## `Store.Hold` and [links](x.md)\n\n```\n# not a heading\n```\n\nSetext\n---\n\n# Hello, World!\n<div id=\"Top\"></div>\n", "\n")
	var got []string
	for _, h := range headings(lines) {
		got = append(got, h.slug)
	}
	want := []string{"hello-world", "storehold-and-links", "setext", "hello-world-1", "top"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("headings (-want +got):\n%s", d)
	}
}

// TestLinkToSkippedFile checks links against the snapshot of a real git
// repository, which holds no content of binary files: a link to an image
// the repository has is no broken link, one to an image it lacks is.
func TestLinkToSkippedFile(t *testing.T) {
	dir := t.TempDir()
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)
	files := map[string][]byte{
		"README.md":     []byte("# Demo\n\nThe logo is ![logo](docs/logo.png), the banner [banner](docs/banner.png).\n"),
		"docs/logo.png": png,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"},
	} {
		cmd := exec.CommandContext(t.Context(), "git", args...)
		cmd.Dir, cmd.Env = dir, gitrepo.Env(os.Environ())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	snap, err := (&gitrepo.Repo{Dir: dir}).Snapshot(t.Context(), "HEAD", gitrepo.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ws := &review.Workspace{Dir: dir, Head: "HEAD", HeadFS: snap, HeadFiles: snap.Files(), Docs: &extract.Extractor{}}
	got, err := (&Link{}).Judge(t.Context(), ws, mdClaim(t, ws, "README.md", "The logo"))
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Message != "The link docs/banner.png points to docs/banner.png, which does not exist at head." {
		t.Fatalf("got %+v, want the banner reported and the logo, a binary file the snapshot skipped, not", got)
	}
}

package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/docreview/docreview/review"
)

// hostile is a report whose repository text tries to break out of every
// place the Markdown renderer puts it.
func hostile() review.Report {
	return review.Report{
		Base: "b", Head: "0123456789abcdef0123456789abcdef01234567",
		Verdicts: []review.Verdict{{
			Claim: review.Claim{
				ID: "h1", Path: "docs/my (old) notes.md", Line: 3, EndLine: 9, Kind: review.KindMarkdown,
				Symbol: "A`B",
				Text: "# not a heading\n- not a list\n1. not a list\n```\n<script>alert(1)</script>\n" +
					"| a | b |\n@octocat says *hi* [link](x.md) ![img](y.png)",
			},
			Label:      review.Contradicted,
			Rule:       "rule|x",
			Message:    "```\n</details>\n# Heading <img src=x>",
			Suggestion: "Use ````this```` | <that>.",
			Skipped:    "partly </details> judged",
			Evidence: []review.Evidence{
				{Path: "a.go", StartLine: 1, EndLine: 4, Source: review.SourceCode, Why: "why <b>bold</b> | pipe",
					Hops:    []string{"A`B", "c|d"},
					Snippet: "</details>\n```\n# x\n<script>y</script>"},
				{Path: "b.md", StartLine: 2, EndLine: 2, Source: review.SourceDoc, Why: "no snippet"},
			},
		}},
		Stats: review.Stats{Claims: 1, Contradicted: 1, Skipped: 1},
		Notes: []review.Note{{Path: "c|d.bin", Message: "binary <file>"}},
	}
}

var (
	reCode  = regexp.MustCompile(`(?s)<pre><code[^>]*>(.*?)</code></pre>`)
	reQuote = regexp.MustCompile(`(?s)<blockquote>(.*?)</blockquote>`)
	reTag   = regexp.MustCompile(`<[^>]+>`)
	reHref  = regexp.MustCompile(`<a href="([^"]*)"`)
)

// TestMarkdownStructure renders hostile text and parses the Markdown the way
// GitHub does (CommonMark with GFM tables, raw HTML kept), to check that
// none of it escapes the structure the renderer builds.
func TestMarkdownStructure(t *testing.T) {
	r := hostile()
	var md bytes.Buffer
	if err := Markdown(&md, r, Options{RepoURL: "https://github.com/o/r"}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.Table), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert(md.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	t.Logf("markdown:\n%s\nhtml:\n%s", md.String(), got)

	counts := map[string]int{
		"<h1": 0, "<h2>": 1, "<h3>": 3, "<h4": 0, "<table>": 1, "<details>": 1, "</details>": 1,
		"<summary>": 1, "<script": 0, "<img": 0, "<b>": 0, "<ul>": 3, "<ol": 0, "<blockquote>": 1,
	}
	for s, want := range counts {
		if n := strings.Count(got, s); n != want {
			t.Errorf("%q occurs %d times in the HTML, want %d", s, n, want)
		}
	}

	var blocks []string
	for _, m := range reCode.FindAllStringSubmatch(got, -1) {
		blocks = append(blocks, html.UnescapeString(m[1]))
	}
	wantBlocks := []string{
		"Use ````this```` | <that>.\n",
		"</details>\n```\n# x\n<script>y</script>\n",
	}
	if diff := cmp.Diff(wantBlocks, blocks); diff != "" {
		t.Errorf("code blocks (-want +got):\n%s", diff)
	}

	quote := reQuote.FindStringSubmatch(got)
	if quote == nil {
		t.Fatal("no blockquote")
	}
	text := html.UnescapeString(reTag.ReplaceAllString(quote[1], ""))
	text = strings.ReplaceAll(text, "\u200b", "")
	if diff := cmp.Diff(oneLine(r.Verdicts[0].Claim.Text), oneLine(text)); diff != "" {
		t.Errorf("claim text as rendered (-want +got):\n%s", diff)
	}

	var hrefs []string
	for _, m := range reHref.FindAllStringSubmatch(got, -1) {
		hrefs = append(hrefs, html.UnescapeString(m[1]))
	}
	blob := "https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/"
	wantHrefs := []string{
		blob + "docs/my%20%28old%29%20notes.md#L3-L9",
		blob + "a.go#L1-L4",
		blob + "b.md#L2-L2",
		blob + "docs/my%20%28old%29%20notes.md#L3-L9",
	}
	if diff := cmp.Diff(wantHrefs, hrefs); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}

	for _, want := range []string{
		"``` &lt;/details&gt; # Heading &lt;img src=x&gt;",
		"why &lt;b&gt;bold&lt;/b&gt; | pipe",
		"<code>A`B</code> → <code>c|d</code>",
		"<code>c|d.bin</code>: binary &lt;file&gt;",
		"Skipped: partly &lt;/details&gt; judged",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

func TestMarkdownRepoURL(t *testing.T) {
	tests := []struct {
		name, repo, head string
		wantErr          string
		wantLink         string
	}{
		{"linked", "https://github.com/o/r", "abc", "", "](https://github.com/o/r/blob/abc/a.md#L2-L3)"},
		{"trailing slash", "https://github.com/o/r/", "abc", "", "](https://github.com/o/r/blob/abc/a.md#L2-L3)"},
		{"worktree", "https://github.com/o/r", "worktree", "", ""},
		{"no head", "https://github.com/o/r", "", "", ""},
		{"relative", "github.com/o/r", "abc", `render markdown report: invalid RepoURL "github.com/o/r": want an absolute http or https URL without query or fragment`, ""},
		{"javascript", "javascript:alert(1)", "abc", `render markdown report: invalid RepoURL "javascript:alert(1)": want an absolute http or https URL without query or fragment`, ""},
		{"query", "https://github.com/o/r?x=1", "worktree", `render markdown report: invalid RepoURL "https://github.com/o/r?x=1": want an absolute http or https URL without query or fragment`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := review.Report{Head: tt.head, Verdicts: []review.Verdict{{
				Claim: review.Claim{ID: "x", Path: "a.md", Line: 2, EndLine: 3, Kind: review.KindMarkdown},
				Label: review.Incomplete,
				Evidence: []review.Evidence{{Path: "a.md", StartLine: 2, EndLine: 3,
					Source: review.SourceDoc, Why: "w"}},
			}}}
			var buf bytes.Buffer
			err := Markdown(&buf, r, Options{RepoURL: tt.repo})
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Fatalf("Markdown error = %q, want %q", gotErr, tt.wantErr)
			}
			if err != nil {
				if buf.Len() != 0 {
					t.Errorf("Markdown wrote output with an error:\n%s", buf.String())
				}
				return
			}
			n := strings.Count(buf.String(), "](")
			switch {
			case tt.wantLink == "" && n != 0:
				t.Errorf("want no links, got:\n%s", buf.String())
			case tt.wantLink != "" && strings.Count(buf.String(), tt.wantLink) != 2:
				t.Errorf("want 2 links %q, got:\n%s", tt.wantLink, buf.String())
			}
		})
	}
}

func TestMarkdownNoFindings(t *testing.T) {
	r := review.Report{Base: "a", Head: "b", Verdicts: []review.Verdict{{
		Claim: review.Claim{ID: "x", Path: "a.md", Line: 1, EndLine: 1, Kind: review.KindMarkdown},
		Label: review.Consistent, Rule: "r",
	}}, Stats: review.Stats{Claims: 1, Consistent: 1}}
	var buf bytes.Buffer
	if err := Markdown(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "## docreview\n\nReviewed `a`..`b`.\n\n" +
		"| Claims | Contradicted | Incomplete | Consistent | Skipped |\n| ---: | ---: | ---: | ---: | ---: |\n| 1 | 0 | 0 | 1 | 0 |\n\n" +
		"No contradicted or incomplete claims.\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

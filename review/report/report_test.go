package report

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const (
	fixtureBase = "0123456789abcdef0123456789abcdef01234567"
	fixtureHead = "89abcdef0123456789abcdef0123456789abcdef"
)

// fixture is a report covering every shape the renderers handle: a
// contradicted finding with two evidence items and hops, an incomplete one,
// consistent claims, a skipped claim, notes, and a snippet with backticks
// and '|'. Its verdicts are deliberately out of order.
func fixture() review.Report {
	return review.Report{
		Base: fixtureBase,
		Head: fixtureHead,
		Verdicts: []review.Verdict{
			{
				Claim: review.Claim{
					ID: "c0debl0c00000005", Path: "docs/tutorial.md", Line: 20, EndLine: 25,
					Kind: review.KindMarkdown, Context: "Start",
					Text: "package main\n\nfunc main() {\n\tif n := cache.Len(); n > 0 {\n\t\tfmt.Println(n)\n\t}\n}",
					Mentions: []review.Mention{{Kind: review.MentionBlock, Lang: "go", Line: 21, EndLine: 24,
						Text: "package main\n\nfunc main() {\n\tif n := cache.Len(); n > 0 {\n\t\tfmt.Println(n)\n\t}\n}"}},
				},
				Label:   review.Incomplete,
				Rule:    "go-snippet",
				Message: "The Go code block uses package fmt without importing \"fmt\".",
				Evidence: []review.Evidence{{
					ID: "e1", Path: "docs/tutorial.md", StartLine: 23, EndLine: 23, Source: review.SourceDoc,
					Why: "code block uses package fmt without importing it", Snippet: "\t\tfmt.Println(n)",
				}},
			},
			{
				Claim: review.Claim{
					ID: "b7e1c0de00000002", Path: "README.md", Line: 12, EndLine: 14,
					Kind: review.KindMarkdown, Context: "Usage > Flags",
					Text:     "Pass `--fail-on error` to fail the job.\nSee <b>docs</b> & ask @maintainer | anyone.",
					Mentions: []review.Mention{{Kind: review.MentionFlag, Text: "--fail-on", Line: 12, EndLine: 12}},
				},
				Label:   review.Incomplete,
				Rule:    "missing-flag",
				Message: "`--fail-on` also accepts `warning`, which the text omits; see <flags.go> | cmd.",
				Evidence: []review.Evidence{{
					ID: "e1", Path: "cmd/docreview/flags.go", StartLine: 30, EndLine: 32, Source: review.SourceCode,
					Why:     "defines flag --fail-on",
					Snippet: "\tfs.StringVar(&c.FailOn, \"fail-on\", \"error\",\n\t\t\"fail on: error|warning\")\n",
				}},
			},
			{
				Claim: review.Claim{
					ID: "a1c0ffee00000001", Path: "cache/cache.go", Line: 41, EndLine: 43,
					Kind: review.KindDocComment, Symbol: "Cache.Purge", Package: "cache", Changed: true,
					Text: "Purge removes all entries immediately.",
				},
				Label:      review.Contradicted,
				Rule:       "llm",
				Confidence: 0.9,
				Message:    "Purge only marks entries; removal happens in the next sweep (sweeper.go:88).",
				Suggestion: "Purge marks all entries expired; the sweeper removes them on its next run.",
				Evidence: []review.Evidence{
					{
						ID: "e1", Path: "cache/sweeper.go", StartLine: 80, EndLine: 87, Source: review.SourceCode,
						Why: "callee of Cache.Purge", Hops: []string{"Cache.Purge", "sweeper.mark"},
						Snippet: "func (s *sweeper) mark(now time.Time) {\n\tfor k, e := range s.c.entries {\n\t\te.expired = true\n\t\ts.pending = append(s.pending, k)\n\t}\n\ts.next = now.Add(s.every)\n}\n",
					},
					{
						ID: "e2", Path: "cache/cache_test.go", StartLine: 10, EndLine: 13, Source: review.SourceTest,
						Why: "test that calls Cache.Purge", Hops: []string{"Cache.Purge", "TestPurge"}, Score: 3.25,
						Snippet: "func TestPurge(t *testing.T) {\n\twant := \"```go\\nx | y\\n```\"\n\tif got := render(`a|b`); got != want {\n\t\tt.Fatal(got)\n",
					},
				},
			},
			{
				Claim: review.Claim{
					ID: "c0ffee0000000003", Path: "README.md", Line: 3, EndLine: 4,
					Kind: review.KindMarkdown, Text: "docreview reviews documentation drift.",
				},
				Label:      review.Consistent,
				Rule:       "missing-flag,stale-reference",
				Unverified: []string{"yaml.Marshal"},
			},
			{
				Claim: review.Claim{
					ID: "d00d000000000004", Path: "cache/cache.go", Line: 1, EndLine: 2,
					Kind: review.KindDocComment, Symbol: "package cache", Package: "cache",
					Text: "Package cache keeps entries in memory.",
				},
				Label: review.Consistent,
				Rule:  "stale-reference",
				Evidence: []review.Evidence{{
					ID: "e1", Path: "cache/cache.go", StartLine: 3, EndLine: 3, Source: review.SourceCode,
					Why: "declares package cache", Snippet: "package cache",
				}},
			},
			{
				Claim: review.Claim{
					ID: "e0e0e0e000000005", Path: "docs/guide.md", Line: 20, EndLine: 22,
					Kind: review.KindMarkdown, Changed: true, Text: "The cache is safe for concurrent use.",
				},
				Label:   review.Consistent,
				Rule:    "stale-reference",
				Skipped: "llm budget exhausted",
			},
			{
				Claim: review.Claim{
					ID: "f00f000000000006", Path: "cache/example_test.go", Line: 8, EndLine: 8,
					Kind: review.KindExample, Symbol: "ExampleCache_Purge", Text: "// Output: 0",
				},
				Label: review.Consistent,
				Rule:  "example-output",
			},
		},
		Stats: review.Stats{
			Claims: 6, Consistent: 4, Contradicted: 1, Incomplete: 1, Skipped: 1,
			Timings: map[string]int64{"judge": 12},
		},
		Notes: []review.Note{
			{Path: "internal/broken.go", Message: "does not parse: expected ';', found 'EOF'"},
			{Path: "assets/logo.png", Message: "binary file, not reviewed"},
		},
	}
}

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		file string
		f    Format
		opt  Options
	}{
		{"text.golden", FormatText, Options{}},
		{"text_color.golden", FormatText, Options{Color: true}},
		{"text_verbose.golden", FormatText, Options{Verbose: true}},
		{"text_verbose_color.golden", FormatText, Options{Verbose: true, Color: true}},
		{"report.json", FormatJSON, Options{}},
		{"report.md", FormatMarkdown, Options{}},
		{"report_links.md", FormatMarkdown, Options{RepoURL: "https://github.com/docreview/example/"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Render(&buf, fixture(), tt.f, tt.opt); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.file, buf.Bytes())
		})
	}
}

// TestDeterministic renders the fixture with its verdicts and notes in
// several orders and expects the same bytes every time.
func TestDeterministic(t *testing.T) {
	for _, f := range Formats() {
		t.Run(string(f), func(t *testing.T) {
			opt := Options{Verbose: true}
			var want bytes.Buffer
			if err := Render(&want, fixture(), f, opt); err != nil {
				t.Fatal(err)
			}
			for _, perm := range []func(review.Report){
				func(r review.Report) { slices.Reverse(r.Verdicts); slices.Reverse(r.Notes) },
				func(r review.Report) {
					r.Verdicts[0], r.Verdicts[3] = r.Verdicts[3], r.Verdicts[0]
					r.Verdicts[1], r.Verdicts[5] = r.Verdicts[5], r.Verdicts[1]
				},
			} {
				r := fixture()
				perm(r)
				before := fixture()
				perm(before)
				var got bytes.Buffer
				if err := Render(&got, r, f, opt); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.String(), got.String()); diff != "" {
					t.Errorf("output depends on verdict order (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(before, r); diff != "" {
					t.Errorf("renderer modified its input (-before +after):\n%s", diff)
				}
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in      string
		want    Format
		wantErr string
	}{
		{"text", FormatText, ""},
		{"json", FormatJSON, ""},
		{"Text", FormatText, ""},
		{"markdown", FormatMarkdown, ""},
		{" Markdown ", FormatMarkdown, ""},
		{"JSON", FormatJSON, ""},
		{"sarif", FormatSARIF, ""},
		{" SARIF", FormatSARIF, ""},
		{"rdjson", FormatRDJSON, ""},
		{"RDJson ", FormatRDJSON, ""},
		{"", "", `unknown format "" (valid: text, json, markdown, sarif, rdjson)`},
		{"md", "", `unknown format "md" (valid: text, json, markdown, sarif, rdjson)`},
		{"rdf", "", `unknown format "rdf" (valid: text, json, markdown, sarif, rdjson)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseFormat(tt.in)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Fatalf("ParseFormat(%q) error = %q, want %q", tt.in, gotErr, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("ParseFormat(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRenderDispatch(t *testing.T) {
	opt := Options{Verbose: true, RepoURL: "https://github.com/o/r"}
	direct := map[Format]func(*bytes.Buffer) error{
		FormatText:     func(b *bytes.Buffer) error { return Text(b, fixture(), opt) },
		FormatJSON:     func(b *bytes.Buffer) error { return JSON(b, fixture()) },
		FormatMarkdown: func(b *bytes.Buffer) error { return Markdown(b, fixture(), opt) },
		FormatSARIF:    func(b *bytes.Buffer) error { return SARIF(b, fixture(), opt) },
		FormatRDJSON:   func(b *bytes.Buffer) error { return RDJSON(b, fixture(), opt) },
	}
	for _, f := range Formats() {
		t.Run(string(f), func(t *testing.T) {
			var want, got bytes.Buffer
			if err := direct[f](&want); err != nil {
				t.Fatal(err)
			}
			if err := Render(&got, fixture(), f, opt); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("Render differs from the format's function (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("case-insensitive", func(t *testing.T) {
		var want, got bytes.Buffer
		if err := JSON(&want, fixture()); err != nil {
			t.Fatal(err)
		}
		if err := Render(&got, fixture(), "JSON", opt); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("Render(JSON) (-want +got):\n%s", diff)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		var buf bytes.Buffer
		err := Render(&buf, fixture(), "xml", opt)
		if err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
			t.Errorf("Render(xml) error = %v, want unknown format", err)
		}
		if buf.Len() != 0 {
			t.Errorf("Render(xml) wrote %q", buf.String())
		}
	})
}

type failWriter struct{}

var errDiskFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestWriteError(t *testing.T) {
	for _, f := range Formats() {
		t.Run(string(f), func(t *testing.T) {
			err := Render(failWriter{}, fixture(), f, Options{})
			if !errors.Is(err, errDiskFull) {
				t.Errorf("Render to a failing writer = %v, want %v", err, errDiskFull)
			}
		})
	}
}

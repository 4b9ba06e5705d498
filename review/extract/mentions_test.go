package extract

import (
	"maps"
	"slices"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/google/go-cmp/cmp"
)

// fakeResolver defines the names in defined and suggests close[name] for
// names it does not define; it counts its calls.
type fakeResolver struct {
	defined map[string]bool
	close   map[string]string
	calls   int
}

func (f *fakeResolver) Defined(name string) bool {
	f.calls++
	return f.defined[name]
}

func (f *fakeResolver) Suggest(fromDir, name string) (string, bool) {
	f.calls++
	s, ok := f.close[name]
	return s, ok
}

func newFake() *fakeResolver {
	return &fakeResolver{
		defined: map[string]bool{
			"Purge": true, "Cache.Purge": true, "NewCache": true, "Options.TTL": true,
			"max_size": true, "New": true, "Get": true, "HOME": false, "helper": true,
		},
		close: map[string]string{"PurgeAll": "Purge", "Cache.Flush": "Cache.Purge"},
	}
}

func TestMentions(t *testing.T) {
	t.Parallel()
	type m = review.Mention
	tests := []struct {
		name string
		text string
		want []m
	}{{
		name: "doc links",
		text: "See [Cache.Purge], [*Options], [cache.New] and [encoding/json.Decoder].",
		want: []m{
			{Kind: review.MentionDocLink, Text: "Cache.Purge", Line: 10, EndLine: 10},
			{Kind: review.MentionDocLink, Text: "Options", Line: 10, EndLine: 10},
			{Kind: review.MentionDocLink, Text: "cache.New", Line: 10, EndLine: 10},
			{Kind: review.MentionDocLink, Text: "encoding/json.Decoder", Line: 10, EndLine: 10},
		},
	}, {
		name: "not doc links",
		text: "A [link](https://example.com), a [ref][r], a note [1], a box [x] and a[i].",
		want: nil,
	}, {
		name: "a bracketed word in quotes is text",
		text: `The prefix defaults to "[INFO]" or '[WARN]' [RFC2960]; see [Cache.Purge].`,
		want: []m{{Kind: review.MentionDocLink, Text: "Cache.Purge", Line: 10, EndLine: 10}},
	}, {
		name: "code spans",
		text: "Call `Cache.Purge` or `New(ctx, opts)`; `*Options` too, not `git` or `nil`.",
		want: []m{
			{Kind: review.MentionCode, Text: "Cache.Purge", Line: 10, EndLine: 10},
			{Kind: review.MentionCode, Text: "New", Line: 10, EndLine: 10},
			{Kind: review.MentionCode, Text: "Options", Line: 10, EndLine: 10},
		},
	}, {
		// cpuid's README: "combined using `f := CombineFeatures(CMOV,
		// SSE)`"; a builtin the module does not define is no mention.
		name: "code span that is a statement: the funcs it calls",
		text: "Combine with `f := NewCache(a, b)` or `x := len(b)`; `v, ok := c.Get(k)` reads.",
		want: []m{
			{Kind: review.MentionCode, Text: "NewCache", Line: 10, EndLine: 10},
			{Kind: review.MentionCode, Text: "c.Get", Line: 10, EndLine: 10},
		},
	}, {
		name: "code span that is an arithmetic expression: the names defined",
		text: "Up to `max_size * helper` bytes, or `undefinedThing * 2`, or `len(b) * 2`.",
		want: []m{
			{Kind: review.MentionCode, Text: "max_size", Line: 10, EndLine: 10},
			{Kind: review.MentionCode, Text: "helper", Line: 10, EndLine: 10},
		},
	}, {
		name: "code spans that are flags, paths and literals",
		text: "Pass `--fail-on=error`, `-v` or `-count`; edit `./scripts/x.sh`, `docs/a.md` or `go.mod`; wait `30s`.",
		want: []m{
			{Kind: review.MentionFlag, Text: "--fail-on", Line: 10, EndLine: 10},
			{Kind: review.MentionFlag, Text: "-v", Line: 10, EndLine: 10},
			{Kind: review.MentionFlag, Text: "-count", Line: 10, EndLine: 10},
			{Kind: review.MentionPath, Text: "./scripts/x.sh", Line: 10, EndLine: 10},
			{Kind: review.MentionPath, Text: "docs/a.md", Line: 10, EndLine: 10},
			{Kind: review.MentionPath, Text: "go.mod", Line: 10, EndLine: 10},
			{Kind: review.MentionLiteral, Text: "30s", Line: 10, EndLine: 10, Value: 30, Unit: "s"},
		},
	}, {
		name: "command in backticks",
		text: "Run `docreview review --scope all -v ./repo`.",
		want: []m{
			{Kind: review.MentionFlag, Text: "--scope", Line: 10, EndLine: 10},
			{Kind: review.MentionFlag, Text: "-v", Line: 10, EndLine: 10},
			{Kind: review.MentionPath, Text: "./repo", Line: 10, EndLine: 10},
		},
	}, {
		name: "prose flags; single dash only in code",
		text: "Use --timeout=5m or --verbose, not -v.",
		want: []m{
			{Kind: review.MentionFlag, Text: "--timeout", Line: 10, EndLine: 10},
			{Kind: review.MentionFlag, Text: "--verbose", Line: 10, EndLine: 10},
		},
	}, {
		name: "literals",
		text: "Waits 30s, then 5 minutes,\n2 hours or 100ms; 1h30m total. Holds 10 MB, 1MiB, 512 bytes, 4KB,\n100 entries, 3 retries, at most 10 items, three attempts and 50%.",
		want: []m{
			{Kind: review.MentionLiteral, Text: "30s", Line: 10, EndLine: 10, Value: 30, Unit: "s"},
			{Kind: review.MentionLiteral, Text: "5 minutes", Line: 10, EndLine: 10, Value: 5, Unit: "m"},
			{Kind: review.MentionLiteral, Text: "2 hours", Line: 11, EndLine: 11, Value: 2, Unit: "h"},
			{Kind: review.MentionLiteral, Text: "100ms", Line: 11, EndLine: 11, Value: 100, Unit: "ms"},
			{Kind: review.MentionLiteral, Text: "1h30m", Line: 11, EndLine: 11, Value: 90, Unit: "m"},
			{Kind: review.MentionLiteral, Text: "10 MB", Line: 11, EndLine: 11, Value: 10, Unit: "mb"},
			{Kind: review.MentionLiteral, Text: "1MiB", Line: 11, EndLine: 11, Value: 1, Unit: "mib"},
			{Kind: review.MentionLiteral, Text: "512 bytes", Line: 11, EndLine: 11, Value: 512, Unit: "b"},
			{Kind: review.MentionLiteral, Text: "4KB", Line: 11, EndLine: 11, Value: 4, Unit: "kb"},
			{Kind: review.MentionLiteral, Text: "100 entries", Line: 12, EndLine: 12, Value: 100, Unit: "entries"},
			{Kind: review.MentionLiteral, Text: "3 retries", Line: 12, EndLine: 12, Value: 3, Unit: "retries"},
			{Kind: review.MentionLiteral, Text: "10 items", Line: 12, EndLine: 12, Value: 10, Unit: "items"},
			{Kind: review.MentionLiteral, Text: "three attempts", Line: 12, EndLine: 12, Value: 3, Unit: "attempts"},
			{Kind: review.MentionLiteral, Text: "50%", Line: 12, EndLine: 12, Value: 50, Unit: "%"},
		},
	}, {
		name: "not literals",
		text: "Go 1.26, v1.2.3s, x30s, the 1990s, 10,000 users, one entry, a 30-second wait.",
		want: []m{
			{Kind: review.MentionLiteral, Text: "10,000 users", Line: 10, EndLine: 10, Value: 10000, Unit: "users"},
			{Kind: review.MentionLiteral, Text: "one entry", Line: 10, EndLine: 10, Value: 1, Unit: "entries"},
			{Kind: review.MentionLiteral, Text: "30-second", Line: 10, EndLine: 10, Value: 30, Unit: "s"},
		},
	}, {
		name: "paths",
		text: "See [setup](docs/setup.md), [code](../b/c.go#L10), [top](#anchor), [mail](mailto:a@b.c),\n" +
			"[site](https://x.org/a.md), docs/other.md, ./scripts/x.sh and https://x.org/y/z.md, not and/or or net/http.",
		want: []m{
			{Kind: review.MentionPath, Text: "docs/setup.md", Line: 10, EndLine: 10},
			{Kind: review.MentionPath, Text: "../b/c.go#L10", Line: 10, EndLine: 10},
			{Kind: review.MentionPath, Text: "#anchor", Line: 10, EndLine: 10},
			{Kind: review.MentionPath, Text: "docs/other.md", Line: 11, EndLine: 11},
			{Kind: review.MentionPath, Text: "./scripts/x.sh", Line: 11, EndLine: 11},
		},
	}, {
		name: "identifiers",
		text: "Purge empties it. Then NewCache and Cache.Purge() run; cache.New too;\nmax_size caps it, PurgeAll is gone, Cache.Flush too, and helper() helps.\nThe Purge call and the purge and Get words; GitHub and e.g. not.",
		want: []m{
			{Kind: review.MentionIdent, Text: "NewCache", Line: 10, EndLine: 10},
			{Kind: review.MentionIdent, Text: "Cache.Purge", Line: 10, EndLine: 10},
			{Kind: review.MentionIdent, Text: "cache.New", Line: 10, EndLine: 10},
			{Kind: review.MentionIdent, Text: "max_size", Line: 11, EndLine: 11},
			{Kind: review.MentionIdent, Text: "PurgeAll", Line: 11, EndLine: 11},
			{Kind: review.MentionIdent, Text: "Cache.Flush", Line: 11, EndLine: 11},
			{Kind: review.MentionIdent, Text: "helper", Line: 11, EndLine: 11},
			{Kind: review.MentionIdent, Text: "Purge", Line: 12, EndLine: 12},
			{Kind: review.MentionIdent, Text: "Get", Line: 12, EndLine: 12},
		},
	}, {
		name: "mention spanning lines",
		text: "Retries\nafter 30\nseconds.",
		want: []m{
			{Kind: review.MentionLiteral, Text: "30\nseconds", Line: 11, EndLine: 12, Value: 30, Unit: "s"},
		},
	}, {
		name: "empty",
		text: " \n ",
		want: nil,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Mentions(tt.text, 10, newFake(), "cache")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Mentions(%q) mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestMentionsNilResolver(t *testing.T) {
	t.Parallel()
	got := Mentions("NewCache and Cache.Purge() and `Cache.Purge`.", 1, nil, ".")
	want := []review.Mention{{Kind: review.MentionCode, Text: "Cache.Purge", Line: 1, EndLine: 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestMentionsCachesResolver(t *testing.T) {
	t.Parallel()
	f := newFake()
	r := newMemo(f)
	text := "NewCache NewCache NewCache Cache.Flush Cache.Flush"
	mentions(text, 1, r, ".", scanOpts{})
	mentions(text, 1, r, ".", scanOpts{})
	// NewCache: one Defined; Cache.Flush: Defined, Defined of "Flush"? no,
	// "Cache" is not a package-like word, then one Suggest.
	if f.calls != 3 {
		t.Errorf("resolver called %d times, want 3", f.calls)
	}
}

func TestMarkdownDocLinksNeedQualificationOrResolution(t *testing.T) {
	t.Parallel()
	r := newMemo(newFake())
	got := mentions("A [Note] on [Purge] and [cache.Open].", 1, r, ".", scanOpts{markdown: true})
	want := []review.Mention{
		{Kind: review.MentionDocLink, Text: "Purge", Line: 1, EndLine: 1},
		{Kind: review.MentionDocLink, Text: "cache.Open", Line: 1, EndLine: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestMarkdownEmphasisIsNoPartOfAName checks that Markdown emphasis around
// a name ("_Cache.Flush_" in a table of minio's API.md) is markup: the
// mention is the name without the underscores, while a Go comment keeps
// them.
func TestMarkdownEmphasisIsNoPartOfAName(t *testing.T) {
	t.Parallel()
	text := "| `list` | _[]Cache.Flush_ | the caches |"
	got := mentions(text, 1, newMemo(newFake()), ".", scanOpts{markdown: true})
	var names []string
	for _, m := range got {
		names = append(names, m.Text)
	}
	if !slices.Contains(names, "Cache.Flush") || slices.Contains(names, "Cache.Flush_") {
		t.Errorf("markdown mentions %q, want Cache.Flush without underscores", names)
	}
	// go-edlib's README: "through **StringsSimilarity** function"; a
	// pattern ("NewCache*") stays no name.
	for _, text := range []string{"through **NewCache** or *Cache.Purge*", "through __NewCache__ or _Cache.Purge_"} {
		names = nil
		for _, m := range mentions(text+", not NewCache*", 1, newMemo(newFake()), ".", scanOpts{markdown: true}) {
			names = append(names, m.Text)
		}
		if !slices.Equal(names, []string{"NewCache", "Cache.Purge"}) {
			t.Errorf("markdown mentions of %q: %q, want NewCache and Cache.Purge once each", text, names)
		}
	}
	for _, m := range mentions(text, 1, newMemo(newFake()), ".", scanOpts{}) {
		if m.Text == "Cache.Flush" {
			t.Errorf("a Go comment's %q lost its underscores", text)
		}
	}
}

// TestMarkdownHeadingSignature checks that a heading that is one Go
// signature in a code span is a claim with a block of language
// [review.LangGoSignature], written as a declaration, and that other
// headings (a name, a call, words) make none.
func TestMarkdownHeadingSignature(t *testing.T) {
	t.Parallel()
	src := "# API\n\n" +
		"### `(*Compiler) Compile(schema []byte) (*Schema, error)`\n\n" +
		"### `func New(cfg Config) *Store`\n\n" +
		"### `NewCompiler() *Compiler`\n\n" +
		"### `Compile`\n\n" +
		"### `store.Get(key)`\n\n" +
		"### `Close()`\n\n" +
		"### Using `Compile(schema []byte) error`\n"
	want := map[int]string{
		3: "func (*Compiler) Compile(schema []byte) (*Schema, error)",
		5: "func New(cfg Config) *Store",
		7: "func NewCompiler() *Compiler",
	}
	got := map[int]string{}
	for _, c := range MarkdownClaims("docs/api.md", []byte(src)) {
		for _, m := range c.Mentions {
			if m.Kind == review.MentionBlock && m.Lang == review.LangGoSignature {
				got[m.Line] = m.Text
				if c.Line != m.Line || c.Text != m.Text {
					t.Errorf("claim at %d is %q, want its signature %q on its line", c.Line, c.Text, m.Text)
				}
			}
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("heading signatures = %v, want %v", got, want)
	}
}

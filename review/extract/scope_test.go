package extract

import (
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/google/go-cmp/cmp"
)

const baseCache = `// Package cache keeps entries.
package cache

// New returns a cache.
func New() *Cache { return &Cache{} }

// Cache holds entries.
type Cache struct {
	// TTL is the lifetime.
	TTL int
}

// Purge removes all entries immediately.
func (c *Cache) Purge() {
	c.TTL = 0
}

// Flush writes entries.
func (c *Cache) Flush(w int) {}

// Old is deprecated.
func Old() {}

// Size returns the number of entries.
func (c *Cache) Size() int { return 0 }
`

const headCache = `// Package cache keeps entries.
package cache

// New returns a cache.
func New() *Cache { return &Cache{} }

// Cache holds entries.
type Cache struct {
	// TTL is the lifetime.
	TTL int
}

// Purge removes all entries immediately.
func (c *Cache) Purge() {
	c.TTL = -1
}

// Drain writes entries.
func (c *Cache) Drain(w int) {}

// Size returns the number of live entries.
func (c *Cache) Size() int { return 0 }
`

const guide = `# Guide

Call ` + "`Cache.Flush`" + ` before exit.

Use [cache.Old] for old data.

[Cache.Purge] frees memory at once.

` + "`New`" + ` makes one.

Nothing to see here.

` + "```go" + `
c := cache.New()
c.Flush(1)
` + "```" + `
`

const otherGo = `package other

// Wrap calls [cache.Old].
func Wrap() {}

// Local calls [Old], which is this package's own.
func Local() {}

// Old is other's own.
func Old() {}
`

const notesBase = `# Notes

First note.
`

const notesHead = `# Notes

First note.

A new note about ` + "`Cache.Drain`" + `.
`

// lineDiff returns the lines head adds and base loses, from a longest
// common subsequence of their lines.
func lineDiff(base, head string) (added, deleted []diff.Range) {
	a, b := strings.SplitAfter(base, "\n"), strings.SplitAfter(head, "\n")
	if base == "" {
		a = nil
	}
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	addLine := func(rs []diff.Range, n int) []diff.Range {
		if k := len(rs); k > 0 && rs[k-1].End == n-1 {
			rs[k-1].End = n
			return rs
		}
		return append(rs, diff.Range{Start: n, End: n})
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			added = addLine(added, j+1)
			j++
		default:
			deleted = addLine(deleted, i+1)
			i++
		}
	}
	return added, deleted
}

// change is one file of a test diff.
type change struct {
	oldPath, newPath string
	base, head       string
}

// newWorkspace builds a workspace whose head holds files and whose diff
// is the changes; files the changes touch are added to both sides.
func newWorkspace(files map[string]string, changes []change) *review.Workspace {
	baseFS, headFS := fstest.MapFS{}, fstest.MapFS{}
	for p, s := range files {
		baseFS[p] = &fstest.MapFile{Data: []byte(s)}
		headFS[p] = &fstest.MapFile{Data: []byte(s)}
	}
	var ds []diff.File
	for _, c := range changes {
		f := diff.File{OldPath: c.oldPath, NewPath: c.newPath, Status: diff.Modified}
		switch {
		case c.oldPath == "":
			f.Status = diff.Added
		case c.newPath == "":
			f.Status = diff.Deleted
		case c.oldPath != c.newPath:
			f.Status = diff.Renamed
		}
		if c.oldPath != "" {
			baseFS[c.oldPath] = &fstest.MapFile{Data: []byte(c.base)}
			if c.oldPath != c.newPath {
				delete(headFS, c.oldPath)
			}
		}
		if c.newPath != "" {
			headFS[c.newPath] = &fstest.MapFile{Data: []byte(c.head)}
			if c.oldPath != c.newPath {
				delete(baseFS, c.newPath)
			}
		}
		f.Added, f.Deleted = lineDiff(c.base, c.head)
		ds = append(ds, f)
	}
	var heads []string
	for p := range headFS {
		heads = append(heads, p)
	}
	sort.Strings(heads)
	return &review.Workspace{Base: "base", Head: "head", BaseFS: baseFS, HeadFS: headFS, HeadFiles: heads, Diff: ds}
}

// claimKey is what the scope tests compare of a claim.
type claimKey struct {
	Path    string
	Line    int
	Symbol  string
	Changed bool
}

func keys(cs []review.Claim) []claimKey {
	var out []claimKey
	for _, c := range cs {
		out = append(out, claimKey{c.Path, c.Line, c.Symbol, c.Changed})
	}
	return out
}

func driftWorkspace() *review.Workspace {
	return newWorkspace(
		map[string]string{"docs/guide.md": guide, "other/other.go": otherGo, "README.txt": "Cache.Flush\n"},
		[]change{
			{oldPath: "cache/cache.go", newPath: "cache/cache.go", base: baseCache, head: headCache},
			{oldPath: "docs/notes.md", newPath: "docs/notes.md", base: notesBase, head: notesHead},
		})
}

func TestExtractScopes(t *testing.T) {
	t.Parallel()
	changed := []claimKey{
		{"cache/cache.go", 18, "Cache.Drain", true},
		{"cache/cache.go", 21, "Cache.Size", true},
		{"docs/notes.md", 5, "", true},
	}
	tests := []struct {
		scope review.Scope
		want  []claimKey
	}{{
		scope: review.ScopeChanged,
		want:  changed,
	}, {
		scope: review.ScopeAffected,
		want: []claimKey{
			{"cache/cache.go", 13, "Cache.Purge", false}, // code changed under it
			{"cache/cache.go", 18, "Cache.Drain", true},
			{"cache/cache.go", 21, "Cache.Size", true},
			{"docs/guide.md", 3, "", false},  // `Cache.Flush`, renamed
			{"docs/guide.md", 5, "", false},  // [cache.Old], removed
			{"docs/guide.md", 7, "", false},  // [Cache.Purge], changed
			{"docs/guide.md", 13, "", false}, // c.Flush in a block
			{"docs/notes.md", 5, "", true},
			{"other/other.go", 3, "Wrap", false}, // [cache.Old]
		},
	}, {
		scope: review.ScopeAll,
		want: []claimKey{
			{"cache/cache.go", 1, "package cache", false},
			{"cache/cache.go", 4, "New", false},
			{"cache/cache.go", 7, "Cache", false},
			{"cache/cache.go", 9, "Cache.TTL", false},
			{"cache/cache.go", 13, "Cache.Purge", false},
			{"cache/cache.go", 18, "Cache.Drain", true},
			{"cache/cache.go", 21, "Cache.Size", true},
			{"docs/guide.md", 3, "", false},
			{"docs/guide.md", 5, "", false},
			{"docs/guide.md", 7, "", false},
			{"docs/guide.md", 9, "", false},
			{"docs/guide.md", 11, "", false},
			{"docs/guide.md", 13, "", false},
			{"docs/notes.md", 3, "", false},
			{"docs/notes.md", 5, "", true},
			{"other/other.go", 3, "Wrap", false},
			{"other/other.go", 6, "Local", false},
			{"other/other.go", 9, "Old", false},
		},
	}}
	for _, tt := range tests {
		t.Run(string(tt.scope), func(t *testing.T) {
			t.Parallel()
			x := &Extractor{}
			claims, notes, err := x.Extract(t.Context(), driftWorkspace(), tt.scope)
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) != 0 {
				t.Errorf("notes: %v", notes)
			}
			if diff := cmp.Diff(tt.want, keys(claims)); diff != "" {
				t.Errorf("claims mismatch (-want +got):\n%s", diff)
			}
			for _, c := range claims {
				if c.ID == "" {
					t.Errorf("claim %s:%d has no ID", c.Path, c.Line)
				}
			}
		})
	}
}

func TestExtractDefaultScopeIsAffected(t *testing.T) {
	t.Parallel()
	x := &Extractor{}
	def, _, err := x.Extract(t.Context(), driftWorkspace(), "")
	if err != nil {
		t.Fatal(err)
	}
	aff, _, err := x.Extract(t.Context(), driftWorkspace(), review.ScopeAffected)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(aff, def); diff != "" {
		t.Errorf("empty scope differs from affected (-affected +empty):\n%s", diff)
	}
}

func TestExtractFiles(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Line.\n\n", 6)
	tests := []struct {
		name      string
		ws        *review.Workspace
		scope     review.Scope
		max       int
		want      []claimKey
		wantNotes []review.Note
		wantClaim func(t *testing.T, c review.Claim)
	}{{
		name: "added file: every claim changed",
		ws:   newWorkspace(nil, []change{{newPath: "a/a.go", head: "// Package a is new.\npackage a\n\n// F is new.\nfunc F() {}\n"}}),
		want: []claimKey{{"a/a.go", 1, "package a", true}, {"a/a.go", 4, "F", true}},
	}, {
		name: "renamed file: claims at the new path",
		ws:   newWorkspace(nil, []change{{oldPath: "old.md", newPath: "new.md", base: "# T\n\nSame.\n", head: "# T\n\nSame.\n\nAdded.\n"}}),
		want: []claimKey{{"new.md", 5, "", true}},
	}, {
		name:      "unparsable Go file: claims with a note",
		ws:        newWorkspace(nil, []change{{oldPath: "b.go", newPath: "b.go", base: "package b\n", head: "package b\n\n// G is broken.\nfunc G( {\n"}}),
		want:      []claimKey{{"b.go", 3, "G", true}},
		wantNotes: []review.Note{{Path: "b.go", Message: "file does not parse: b.go:4:9: expected ')', found '{'"}},
		wantClaim: func(t *testing.T, c review.Claim) {
			if !strings.HasPrefix(c.Note, "file does not parse: ") {
				t.Errorf("claim note = %q, want the parse error", c.Note)
			}
		},
	}, {
		name:      "long Markdown file skipped",
		ws:        newWorkspace(nil, []change{{newPath: "long.md", head: long}}),
		max:       5,
		wantNotes: []review.Note{{Path: "long.md", Message: "skipped: 12 lines, more than the limit of 5"}},
	}, {
		name:      "deeply nested Markdown skipped",
		ws:        newWorkspace(nil, []change{{newPath: "deep.md", head: "Fine.\n\n" + strings.Repeat("> ", 200) + "deep\n"}}),
		wantNotes: []review.Note{{Path: "deep.md", Message: "skipped: line 3 opens blocks 400 bytes deep, more than the limit of 256"}},
	}, {
		name:  "unreadable file noted",
		scope: review.ScopeAll,
		ws: func() *review.Workspace {
			ws := newWorkspace(nil, []change{{newPath: "c.md", head: "C.\n"}})
			ws.HeadFiles = append(ws.HeadFiles, "missing.md")
			return ws
		}(),
		want:      []claimKey{{"c.md", 1, "", true}},
		wantNotes: []review.Note{{Path: "missing.md", Message: "unreadable: open missing.md: file does not exist"}},
	}, {
		name: "a tool's hidden directory ignored, .github read",
		ws: newWorkspace(nil, []change{
			{newPath: ".claude/skills/go/SKILL.md", head: "Wrap errors.\n"},
			{newPath: "docs/.vscode/notes.md", head: "Notes.\n"},
			{newPath: ".github/CONTRIBUTING.md", head: "Run the tests.\n"},
			{newPath: ".hidden.md", head: "A hidden file, not a directory.\n"},
		}),
		want: []claimKey{{".github/CONTRIBUTING.md", 1, "", true}, {".hidden.md", 1, "", true}},
	}, {
		name: "files outside HeadFiles and other types ignored",
		ws: func() *review.Workspace {
			ws := newWorkspace(nil, []change{{newPath: "d.md", head: "D.\n"}, {newPath: "e.txt", head: "E.\n"}})
			ws.HeadFiles = []string{"e.txt"}
			return ws
		}(),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := &Extractor{MaxMarkdownLines: tt.max}
			scope := tt.scope
			if scope == "" {
				scope = review.ScopeChanged
			}
			claims, notes, err := x.Extract(t.Context(), tt.ws, scope)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, keys(claims)); diff != "" {
				t.Errorf("claims mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNotes, notes); diff != "" {
				t.Errorf("notes mismatch (-want +got):\n%s", diff)
			}
			if tt.wantClaim != nil {
				for _, c := range claims {
					tt.wantClaim(t, c)
				}
			}
		})
	}
}

func TestExtractErrors(t *testing.T) {
	t.Parallel()
	x := &Extractor{}
	if _, _, err := x.Extract(t.Context(), nil, review.ScopeAll); err == nil {
		t.Error("nil workspace: no error")
	}
	if _, _, err := x.Extract(t.Context(), &review.Workspace{}, review.ScopeAll); err == nil {
		t.Error("workspace without HeadFS: no error")
	}
	if _, _, err := x.Extract(t.Context(), driftWorkspace(), "some"); err == nil || !strings.Contains(err.Error(), `"some"`) {
		t.Errorf("unknown scope: err = %v, want one naming the scope", err)
	}
}

func TestExtractResolvesIdentifiers(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(nil, []change{{newPath: "doc.md", head: "Call NewCache before the Purge step.\n"}})
	r := newFake()
	claims, _, err := (&Extractor{}).extract(t.Context(), ws, review.ScopeChanged, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []review.Mention{
		{Kind: review.MentionIdent, Text: "NewCache", Line: 1, EndLine: 1},
		{Kind: review.MentionIdent, Text: "Purge", Line: 1, EndLine: 1},
	}
	if len(claims) != 1 {
		t.Fatalf("got %d claims, want 1", len(claims))
	}
	if diff := cmp.Diff(want, claims[0].Mentions); diff != "" {
		t.Errorf("mentions mismatch (-want +got):\n%s", diff)
	}
}

func TestExtractAffectedDeclarations(t *testing.T) {
	t.Parallel()
	const base = `package a

// Limits are the limits.
const (
	A = 1
	B = 2
	C = 3
	D = 4
	E = 5
	F = 6
)

// Options configures.
type Options struct {
	// TTL is the lifetime.
	TTL int
}

// Run runs.
func Run() {}
`
	head := strings.Replace(base, "F = 6", "F = 7", 1)
	head = strings.Replace(head, "TTL is the lifetime.", "TTL is how long entries live.", 1)
	head = strings.Replace(head, "func Run() {}", "func Run() {\n\t// A comment.\n}", 1)
	ws := newWorkspace(nil, []change{{oldPath: "a/a.go", newPath: "a/a.go", base: base, head: head}})
	claims, _, err := (&Extractor{}).Extract(t.Context(), ws, review.ScopeAffected)
	if err != nil {
		t.Fatal(err)
	}
	// The group's sixth constant changed its value: the group doc is
	// affected. Options only changed a field comment and Run only gained a
	// comment: their docs are not.
	want := []claimKey{
		{"a/a.go", 3, "A, B, C, D, E, ...", false},
		{"a/a.go", 15, "Options.TTL", true},
	}
	if diff := cmp.Diff(want, keys(claims)); diff != "" {
		t.Errorf("claims mismatch (-want +got):\n%s", diff)
	}
}

func TestExtractHandWrittenRanges(t *testing.T) {
	t.Parallel()
	src := "# T\n\nOne.\n\nTwo\ncontinued.\n\nThree.\n"
	fsys := fstest.MapFS{"a.md": &fstest.MapFile{Data: []byte(src)}}
	ws := &review.Workspace{
		BaseFS: fsys, HeadFS: fsys, HeadFiles: []string{"a.md"},
		// Line 6 is edited: the paragraph on lines 5-6 changed.
		Diff: []diff.File{{OldPath: "a.md", NewPath: "a.md", Status: diff.Modified,
			Added: []diff.Range{{Start: 6, End: 6}}, Deleted: []diff.Range{{Start: 6, End: 6}}}},
	}
	tests := []struct {
		scope review.Scope
		want  []claimKey
	}{
		{review.ScopeChanged, []claimKey{{"a.md", 5, "", true}}},
		{review.ScopeAll, []claimKey{{"a.md", 3, "", false}, {"a.md", 5, "", true}, {"a.md", 8, "", false}}},
	}
	for _, tt := range tests {
		claims, _, err := (&Extractor{}).Extract(t.Context(), ws, tt.scope)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, keys(claims)); diff != "" {
			t.Errorf("%s: claims mismatch (-want +got):\n%s", tt.scope, diff)
		}
	}
}

func TestExtractAffectedGoLine(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"README.md":    "# m\n\nInstall Go 1.20 or later.\n\nGo 1.13 added error wrapping.\n",
		"docs/use.md":  "# use\n\nCall `m.Run`.\n",
		"m.go":         "// Package m needs Go 1.20+.\npackage m\n",
		"tool/tool.go": "// Package tool runs m.\npackage tool\n",
	}
	tests := []struct {
		name       string
		base, head string
		want       []claimKey
	}{{
		name: "go line raised",
		base: "module m\n\ngo 1.20\n",
		head: "module m\n\ngo 1.22\n",
		want: []claimKey{
			{"README.md", 3, "", false},
			{"m.go", 1, "package m", false},
		},
	}, {
		name: "require added, go line kept",
		base: "module m\n\ngo 1.20\n",
		head: "module m\n\ngo 1.20\n\nrequire example.com/x v1.0.0\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := newWorkspace(files, []change{{oldPath: "go.mod", newPath: "go.mod", base: tt.base, head: tt.head}})
			claims, _, err := (&Extractor{}).Extract(t.Context(), ws, review.ScopeAffected)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, keys(claims)); diff != "" {
				t.Errorf("claims mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractAffectedFlagDefault: a diff that registers a flag anew
// affects the help output in the docs that prints the flag's default.
func TestExtractAffectedFlagDefault(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"go.mod": "module example.com/up\n\ngo 1.22\n",
		"README.md": "# up\n\n```\n  -timeout int\n    \tRead timeout (default 30000)\n  -dir string\n    \tWhere (default \".\")\n```\n\n" +
			"Set -timeout to wait longer.\n\n```\n  -t, --tries int   Attempts (default 3)\n```\n",
	}
	const base = "package main\n\nimport \"flag\"\n\nfunc main() {\n\tt := flag.Int(\"timeout\", 30000, \"Read timeout\")\n\td := flag.String(\"dir\", \".\", \"Where\")\n\t_, _ = t, d\n}\n"
	tests := []struct {
		name string
		head string
		want []claimKey
	}{{
		name: "default changed",
		head: strings.Replace(base, "30000", "6000", 1),
		want: []claimKey{{"README.md", 3, "", false}},
	}, {
		name: "default written on a line of its own",
		head: strings.Replace(base, `flag.Int("timeout", 30000,`, "flag.Int(\n\t\t\"timeout\",\n\t\t6000,\n\t\t", 1),
		want: []claimKey{{"README.md", 3, "", false}},
	}, {
		name: "another line of the func",
		head: strings.Replace(base, "_, _ = t, d", "_, _ = d, t", 1),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := newWorkspace(files, []change{{oldPath: "main.go", newPath: "main.go", base: base, head: tt.head}})
			claims, _, err := (&Extractor{}).Extract(t.Context(), ws, review.ScopeAffected)
			if err != nil {
				t.Fatal(err)
			}
			var md []claimKey
			for _, k := range keys(claims) {
				if k.Path == "README.md" {
					md = append(md, k)
				}
			}
			if diff := cmp.Diff(tt.want, md); diff != "" {
				t.Errorf("claims mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtractAffectedValueFlow(t *testing.T) {
	t.Parallel()
	const base = `package c

const defaultRetries = 3

// Options configures a client.
type Options struct {
	// Retries defaults to 3.
	Retries int
	// Limit defaults to 10.
	Limit int
}

// New returns options with the defaults.
func New() Options {
	return Options{
		Retries: defaultRetries,
		Limit:   10,
	}
}

// Other does not use the constant.
func Other() {}
`
	files := map[string]string{
		"go.mod":    "module example.com/c\n\ngo 1.22\n",
		"README.md": "# c\n\n`Options.Retries` defaults to 3.\n\n`Options.Limit` defaults to 10.\n",
	}
	tests := []struct {
		name, from, to string
		want           []claimKey
	}{{
		// The constant changed: the docs of the field New sets from it,
		// of New, and the README line naming the field are affected;
		// Limit and Other are not.
		name: "a constant", from: "defaultRetries = 3", to: "defaultRetries = 5",
		want: []claimKey{
			{"README.md", 3, "", false},
			{"c.go", 7, "Options.Retries", false},
			{"c.go", 13, "New", false},
		},
	}, {
		// The constructor's literal changed: New's doc (its code changed),
		// the doc of the field it sets on the changed line and the README
		// line naming that field.
		name: "a constructor's literal", from: "Limit:   10,", to: "Limit:   20,",
		want: []claimKey{
			{"README.md", 5, "", false},
			{"c.go", 9, "Options.Limit", false},
			{"c.go", 13, "New", false},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head := strings.Replace(base, tt.from, tt.to, 1)
			ws := newWorkspace(files, []change{{oldPath: "c.go", newPath: "c.go", base: base, head: head}})
			syms, err := retrieval.LoadSymbols(t.Context(), ws.HeadFS, ws.HeadFiles, nil)
			if err != nil {
				t.Fatal(err)
			}
			ws.Symbols = syms
			claims, _, err := (&Extractor{}).Extract(t.Context(), ws, review.ScopeAffected)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, keys(claims)); diff != "" {
				t.Errorf("claims mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractAffectedDefaultVar: a diff that changes a default var's
// composite literal affects the doc of the field it sets and the Markdown
// copies of the var and of the struct, in the package's directory or in a
// file named after it; a usage example and another package's copy are
// not.
func TestExtractAffectedDefaultVar(t *testing.T) {
	t.Parallel()
	const base = `package cache

import "time"

// Config configures the cache.
type Config struct {
	// Expiration is how long an entry lives.
	//
	// Optional. Default: 1 * time.Minute
	Expiration time.Duration
	// Size bounds the entries.
	Size int
}

// ConfigDefault is the default config.
var ConfigDefault = Config{
	Expiration: 1 * time.Minute,
	Size:       10,
}
`
	copyVar := "```go\nvar ConfigDefault = Config{\n\tExpiration: 1 * time.Minute,\n}\n```\n"
	copyType := "```go\ntype Config struct {\n\t// Optional. Default: 1 * time.Minute\n\tExpiration time.Duration\n}\n```\n"
	usage := "```go\napp.Use(New(Config{Expiration: time.Hour}))\n```\n"
	files := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"cache/README.md": "# cache\n\n" + copyVar + "\n" + copyType + "\n" + usage,
		"docs/cache.md":   "# cache\n\n" + copyVar,
		"docs/other.md":   "# other\n\n" + copyVar,
		"other/other.go":  "package other\n",
	}
	head := strings.Replace(base, "Expiration: 1 * time.Minute,", "Expiration: 2 * time.Minute,", 1)
	ws := newWorkspace(files, []change{{oldPath: "cache/cache.go", newPath: "cache/cache.go", base: base, head: head}})
	syms, err := retrieval.LoadSymbols(t.Context(), ws.HeadFS, ws.HeadFiles, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.Symbols = syms
	claims, _, err := (&Extractor{}).Extract(t.Context(), ws, review.ScopeAffected)
	if err != nil {
		t.Fatal(err)
	}
	want := []claimKey{
		{"cache/README.md", 3, "", false},
		{"cache/README.md", 9, "", false},
		{"cache/cache.go", 7, "Config.Expiration", false},
		{"cache/cache.go", 15, "ConfigDefault", false},
		{"docs/cache.md", 3, "", false},
	}
	if diff := cmp.Diff(want, keys(claims)); diff != "" {
		t.Errorf("claims mismatch (-want +got):\n%s", diff)
	}
}

// TestExtractAffectedSignatureListing: a diff that changes a method's
// signature affects a Markdown block that lists the method's signature,
// in the package's directory; another package's listing of a method of
// that name is not.
func TestExtractAffectedSignatureListing(t *testing.T) {
	t.Parallel()
	const base = `package store

// Store keeps values.
type Store struct{}

// Get returns the value of key.
func (s *Store) Get(key string) string { return "" }
`
	listing := "```go\nfunc (s *Store) Get(key string) string\n```\n"
	files := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"store/README.md": "# store\n\n" + listing,
		"other/README.md": "# other\n\n" + listing,
		"other/other.go":  "package other\n",
	}
	head := strings.Replace(base, "Get(key string) string", "Get(key, def string) string", 1)
	ws := newWorkspace(files, []change{{oldPath: "store/store.go", newPath: "store/store.go", base: base, head: head}})
	syms, err := retrieval.LoadSymbols(t.Context(), ws.HeadFS, ws.HeadFiles, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.Symbols = syms
	claims, _, err := (&Extractor{}).Extract(t.Context(), ws, review.ScopeAffected)
	if err != nil {
		t.Fatal(err)
	}
	want := []claimKey{
		{"store/README.md", 3, "", false},
		{"store/store.go", 6, "Store.Get", false},
	}
	if diff := cmp.Diff(want, keys(claims)); diff != "" {
		t.Errorf("claims mismatch (-want +got):\n%s", diff)
	}
}

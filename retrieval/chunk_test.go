package retrieval

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The -update flag rewrites the package's golden files. It is registered
// here only if no other test file of the package has registered it, so the
// package's golden tests share one flag. init runs after every package-level
// variable of the package is initialized, whichever file declares it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata/")
	}
}

// chunkUpdate reports whether -update was given.
func chunkUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestChunkFileGolden chunks every fixture in testdata/chunk and compares
// the chunks with the fixture's golden JSON file (name + ".json"). A
// fixture named "x.src" is chunked as path "x", so that a deliberately
// broken Go file does not upset gofmt.
func TestChunkFileGolden(t *testing.T) {
	entries, err := os.ReadDir("testdata/chunk")
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
			src, err := os.ReadFile(filepath.Join("testdata/chunk", name))
			if err != nil {
				t.Fatal(err)
			}
			chunks := ChunkFile(strings.TrimSuffix(name, ".src"), src)
			chunkCheckInvariants(t, src, chunks)
			got, err := json.MarshalIndent(chunks, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata/chunk", name+".json")
			if chunkUpdate() {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("ChunkFile(%s) mismatch (-want +got):\n%s", name, diff)
			}
		})
	}
	if n == 0 {
		t.Fatal("no fixtures in testdata/chunk")
	}
}

// chunkCheckInvariants checks what holds for any chunking: unique IDs
// "path#start", line ranges inside the file, and Text equal to the lines
// it covers (plus, for Go types, a method summary).
func chunkCheckInvariants(t *testing.T, src []byte, chunks []Chunk) {
	t.Helper()
	lines := chunkSplitLines(bytes.ToValidUTF8(src, []byte("\uFFFD")))
	ids := map[string]bool{}
	for _, c := range chunks {
		if !utf8.ValidString(c.Text) {
			t.Errorf("%s: Text is not valid UTF-8", c.ID)
		}
		if ids[c.ID] {
			t.Errorf("duplicate ID %s", c.ID)
		}
		ids[c.ID] = true
		if !strings.HasPrefix(c.ID, c.Path+"#") {
			t.Errorf("%s: ID does not start with path %s#", c.ID, c.Path)
		}
		if c.StartLine < 1 || c.EndLine < c.StartLine || c.EndLine > len(lines) {
			t.Errorf("%s: lines %d-%d outside 1-%d", c.ID, c.StartLine, c.EndLine, len(lines))
			continue
		}
		want := strings.Join(lines[c.StartLine-1:c.EndLine], "\n")
		if c.Text != want && !strings.HasPrefix(c.Text, want+"\n\n// Methods of ") {
			t.Errorf("%s: Text is not lines %d-%d:\n%s", c.ID, c.StartLine, c.EndLine, c.Text)
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Errorf("%s: blank chunk", c.ID)
		}
	}
}

// TestChunkFile checks chosen properties of chunks directly, so that a
// golden file rewritten with a regression would still be caught.
func TestChunkFile(t *testing.T) {
	type want struct {
		Start, End int
		Source     Source
		Symbol     string
		Heading    string
		Lang       string
	}
	tests := []struct {
		name string
		path string
		src  string
		want []want
	}{
		{
			name: "go declarations",
			path: "cache/cache.go",
			src: `// Package cache caches.
package cache

import "sync"

// C is a cache.
type C struct{ mu sync.Mutex }

// Purge purges.
func (c *C) Purge() {}

const (
	A = 1
	B = 2
)

func (p *Pair[K, V]) Key() {}
`,
			want: []want{
				{1, 4, SourceCode, "package cache", "", "go"},
				{6, 7, SourceCode, "C", "", "go"},
				{9, 10, SourceCode, "C.Purge", "", "go"},
				{12, 15, SourceCode, "A", "", "go"},
				{17, 17, SourceCode, "Pair.Key", "", "go"},
			},
		},
		{
			name: "test file with examples",
			path: "x_test.go",
			src: `package x

func TestA(t *testing.T) {}

func ExampleA() {}

func Example_second() {}

func Examplefoo() {}
`,
			want: []want{
				{1, 1, SourceTest, "package x", "", "go"},
				{3, 3, SourceTest, "TestA", "", "go"},
				{5, 5, SourceExample, "ExampleA", "", "go"},
				{7, 7, SourceExample, "Example_second", "", "go"},
				{9, 9, SourceTest, "Examplefoo", "", "go"},
			},
		},
		{
			name: "line directives are ignored",
			path: "gen.go",
			src:  "package gen\n\n//line grammar.y:900\nfunc A() {}\n",
			want: []want{
				{1, 1, SourceCode, "package gen", "", "go"},
				{3, 4, SourceCode, "A", "", "go"}, // the directive is A's doc comment
			},
		},
		{
			name: "go parse error falls back to windows",
			path: "bad.go",
			src:  "package bad\nfunc (\n",
			want: []want{{1, 2, SourceCode, "", "", "go"}},
		},
		{
			name: "markdown sections",
			path: "docs/README.MD",
			src:  "Intro\n\n# Title\n\nText.\n\n## Install\n\n```\n# comment\n```\n\nSub\n---\n\nMore.\n",
			want: []want{
				{1, 1, SourceDoc, "", "", "markdown"},
				{3, 16, SourceDoc, "", "Title", "markdown"},
			},
		},
		{
			name: "text windows",
			path: "notes.rst",
			src:  strings.Repeat("line\n", 75),
			want: []want{
				{1, 40, SourceDoc, "", "", "rst"},
				{31, 70, SourceDoc, "", "", "rst"},
				{61, 75, SourceDoc, "", "", "rst"},
			},
		},
		{
			name: "other file is code",
			path: "Makefile",
			src:  "all:\n\tgo build\n",
			want: []want{{1, 2, SourceCode, "", "", ""}},
		},
		{
			name: "blank file",
			path: "a.txt",
			src:  "\n\n  \n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			chunks := ChunkFile(tt.path, []byte(tt.src))
			chunkCheckInvariants(t, []byte(tt.src), chunks)
			var got []want
			for _, c := range chunks {
				got = append(got, want{c.StartLine, c.EndLine, c.Source, c.Symbol, c.Heading, c.Lang})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ChunkFile(%s) mismatch (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

// TestChunkFileMarkdownSplit checks that a long section with subsections
// is split at its subsections, and a long section without any by windows,
// each keeping its heading path.
func TestChunkFileMarkdownSplit(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Top\n\nTop text.\n\n## Small\n\nsmall\n\n## Big\n\n")
	for range 90 {
		b.WriteString("big line\n")
	}
	chunks := ChunkFile("a.md", []byte(b.String()))
	type got struct {
		Start, End int
		Heading    string
	}
	var gots []got
	for _, c := range chunks {
		gots = append(gots, got{c.StartLine, c.EndLine, c.Heading})
	}
	want := []got{
		{1, 3, "Top"},
		{5, 7, "Top > Small"},
		{9, 48, "Top > Big"},
		{39, 78, "Top > Big"},
		{69, 100, "Top > Big"},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestChunkFileTypeSummary checks that a type's chunk lists its methods.
func TestChunkFileTypeSummary(t *testing.T) {
	src := "package p\n\ntype T struct{}\n\nfunc (t *T) A(x int) error { return nil }\n\nfunc (T) B() {}\n"
	chunks := ChunkFile("p.go", []byte(src))
	for _, c := range chunks {
		if c.Symbol != "T" {
			continue
		}
		want := "type T struct{}\n\n// Methods of T in this file:\nfunc (t *T) A(x int) error\nfunc (T) B()"
		if diff := cmp.Diff(want, c.Text); diff != "" {
			t.Errorf("type chunk text mismatch (-want +got):\n%s", diff)
		}
		return
	}
	t.Fatalf("no chunk for type T in %+v", chunks)
}

// TestChunkFileDuplicateStart checks that chunks starting on the same line
// get distinct IDs.
func TestChunkFileDuplicateStart(t *testing.T) {
	chunks := ChunkFile("p.go", []byte("package p; type A int; type B int\n"))
	var ids []string
	for _, c := range chunks {
		ids = append(ids, c.ID)
	}
	want := []string{"p.go#1", "p.go#1~2", "p.go#1~3"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("IDs mismatch (-want +got):\n%s", diff)
	}
}

func TestChunkFileInvalidUTF8(t *testing.T) {
	src := []byte("package p\n\n// Caf\xe9 \xff\xfe opens.\nfunc Cafe() {}\n")
	chunks := ChunkFile("p.go", src)
	chunkCheckInvariants(t, src, chunks)
	var got []string
	for _, c := range chunks {
		got = append(got, c.ID+" "+c.Symbol+" "+c.Text)
	}
	want := []string{
		"p.go#1 package p package p",
		"p.go#3 Cafe // Caf\uFFFD \uFFFD opens.\nfunc Cafe() {}",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ChunkFile of invalid UTF-8 (-want +got):\n%s", diff)
	}
}

// FuzzChunkFile checks that any input chunks without panicking and keeps
// the invariants. Seeds are the golden fixtures; run longer with
// go test -fuzz FuzzChunkFile -fuzztime 30s ./retrieval.
func FuzzChunkFile(f *testing.F) {
	entries, err := os.ReadDir("testdata/chunk")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		src, err := os.ReadFile(filepath.Join("testdata/chunk", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, ext := range []string{".go", ".md", ".txt"} {
			chunkCheckInvariants(t, src, ChunkFile("f"+ext, src))
		}
	})
}

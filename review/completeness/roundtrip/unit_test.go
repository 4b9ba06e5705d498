package roundtrip

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPromptVersion pins PromptVersion to the prompts' content hash.
func TestPromptVersion(t *testing.T) {
	const (
		// The content hash of prompts/*.md at PromptVersion. Editing a
		// prompt changes it: bump PromptVersion and update both here.
		version = "1"
		hash    = "d6f9d739d2791bab175b86c3dc765f58697cf0804122fc65f2bdf6119205ed74"
	)
	p, err := loadPrompts()
	if err != nil {
		t.Fatal(err)
	}
	if PromptVersion != version || p.hash != hash {
		t.Errorf("prompts changed: PromptVersion %q, hash %s; bump PromptVersion and pin the new hash here", PromptVersion, p.hash)
	}
	for _, lesson := range []string{"List every import", "exactly the given signature", "exact literal values", "condition of every error and return path"} {
		if !strings.Contains(p.regenerate, lesson) {
			t.Errorf("regenerate.md does not state %q", lesson)
		}
	}
}

func TestExtractCode(t *testing.T) {
	for _, tc := range []struct {
		name, answer, want, err string
	}{
		{"fence only", "```go\npackage p\n```", "package p\n", ""},
		{"prose around", "Here:\n\n```go\npackage p\n\nfunc F() {}\n```\nDone.", "package p\n\nfunc F() {}\n", ""},
		{"CRLF and indented fence", "  ```go \r\npackage p\r\n  ```\r\n", "package p\n", ""},
		{"no block", "package p\n\nfunc F() {}", "", "it has none"},
		{"other language", "```python\nprint()\n```", "", "it has none"},
		{"untagged", "```\npackage p\n```", "", "it has none"},
		{"unclosed", "```go\npackage p\n", "", "the block opened on line 1 is not closed"},
		{"two blocks", "```go\npackage p\n```\n```go\npackage q\n```", "", "it has 2"},
		{"empty block", "```go\n\n```", "", "the block is empty"},
		{"empty answer", "", "", "it has none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := extractCode(tc.answer)
			if tc.err != "" {
				if !errors.Is(err, ErrNoCode) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("extractCode error = %v, want ErrNoCode with %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("extractCode = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestParseCoverage(t *testing.T) {
	for _, tc := range []struct {
		answer string
		want   []int
		err    string
	}{
		{`{"stated": [3, 1, 1]}`, []int{1, 3}, ""},
		{` {"stated": []} `, []int{}, ""},
		{`{"stated": [4]}`, nil, "index 4 is not one of the 4 facts"},
		{`{"stated": [-1]}`, nil, "index -1"},
		{`{"stated": [1.5]}`, nil, "cannot unmarshal"},
		{`{}`, nil, `no "stated" field`},
		{`{"stated": [1], "why": "x"}`, nil, `unknown field "why"`},
		{`{"stated": [1]} {"stated": [2]}`, nil, "data after the object"},
		{"Facts 1 and 2.", nil, "invalid character"},
	} {
		got, err := parseCoverage(tc.answer, 4)
		if tc.err != "" {
			if !errors.Is(err, ErrBadCoverage) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseCoverage(%q) error = %v, want ErrBadCoverage with %q", tc.answer, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) || got == nil {
			t.Errorf("parseCoverage(%q) = %v, %v; want %v", tc.answer, got, err, tc.want)
		}
	}
}

func TestParseTestJSON(t *testing.T) {
	const out = `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"run","Package":"p","Test":"TestA/sub"}
{"Action":"output","Package":"p","Test":"TestA/sub","Output":"    a_test.go:9: got 1, want 2\n"}
{"Action":"output","Package":"p","Test":"TestA/sub","Output":"    --- FAIL: TestA/sub (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestA/sub"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"run","Package":"p","Test":"TestC"}
{"Action":"output","Package":"p","Test":"TestC","Output":"    c_test.go:3: skipped\n"}
{"Action":"skip","Package":"p","Test":"TestC"}
{"Action":"pass","Package":"p","Test":"ExampleD"}
{"Action":"run","Package":"p","Test":"TestE"}
{"Action":"output","Package":"p","Test":"TestE","Output":"panic: test timed out after 3s\n"}
not json
{"Action":"fail","Package":"p"}
`
	r := parseTestJSON([]byte(out))
	if !slices.Equal(r.passed, []string{"TestB", "ExampleD"}) || !slices.Equal(r.failed, []string{"TestA", "TestE"}) || r.buildFailed || !r.ran {
		t.Errorf("passed %q, failed %q, build failed %v", r.passed, r.failed, r.buildFailed)
	}
	if got := r.output["TestA"]; !slices.Equal(got, []string{"a_test.go:9: got 1, want 2"}) {
		t.Errorf("output[TestA] = %q", got)
	}
	if got := r.output["TestE"]; !slices.Equal(got, []string{"panic: test timed out after 3s"}) {
		t.Errorf("output[TestE] = %q", got)
	}
	if _, ok := r.output["TestC"]; ok {
		t.Error("output kept for a test that did not fail")
	}
}

// TestDecls checks what of a richer package the model is shown: struct
// fields, methods, unexported names the tests use, function literals.
func TestDecls(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/s\n\ngo 1.22\n")
	write("store.go", `package s

import "sync"

// Store holds values.
type Store struct {
	// Name labels the store.
	Name string
	mu   sync.Mutex // guards m
	m    map[string]int
	size int
}

// Get returns the value of k.
func (s *Store) Get(k string) int { return s.m[k] }

func (s *Store) lock() { s.mu.Lock() }

type entry struct{ k string }

// Len reports the number of entries.
func (e entry) Len() int { return len(e.k) }

func helper(n int) int { return n * 2 }

// Hook is called on every write.
var Hook = func(k string) { println("hook body") }

const (
	KindA = iota
	kindB
	KindC
)
`)
	write("other.go", "package s\n\n// Other is documented.\nfunc Other() {}\n\nfunc internal(s *Store) int { return len(s.m) }\n")
	write("store_test.go", "package s\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { _ = helper(1); var s Store; _ = s.size }\n")
	p, err := loadPackage(dir)
	if err != nil {
		t.Fatal(err)
	}
	file, err := p.chooseFile("")
	if err != nil || file != "store.go" {
		t.Fatalf("chooseFile = %q, %v; want store.go", file, err)
	}
	got := p.userPrompt(file)
	for _, want := range []string{
		// Other files: every declaration, without docs.
		"### other.go\n\n```go\nfunc Other()\n\nfunc internal(s *Store) int\n\n```",
		// m is used by other.go, size by the test; mu by neither.
		"// Store holds values.\ntype Store struct {\n\t// Name labels the store.\n\tName string\n\n\tm    map[string]int\n\tsize int\n} // (the struct has unexported fields, not shown)",
		"// Get returns the value of k.\nfunc (s *Store) Get(k string) int\n",
		"func helper(n int) int\n",
		"// Hook is called on every write.\nvar Hook func(k string) // (initializers holding function literals are left out)",
		"const (\n\tKindA = iota\n\tkindB\n\tKindC\n)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	for _, not := range []string{"return s.m[k]", "hook body", "n * 2", "func (s *Store) lock()", "entry", "guards m", "len(s.m)", "Other is documented"} {
		if strings.Contains(got, not) {
			t.Errorf("prompt holds %q", not)
		}
	}
	if t.Failed() {
		t.Logf("prompt:\n%s", got)
	}
}

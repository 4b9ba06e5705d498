package retrieval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testCheckSnippet runs under TestSymbols, on the fixture module.
func testCheckSnippet(t *testing.T, s *Symbols) {
	const mod = "example.com/cachemod/cache"
	tests := []struct {
		name    string
		from    string
		src     string
		prelude []string
		want    []SnippetIssue
	}{
		{
			name: "correct calls",
			from: "cache",
			src:  "c := cache.New(cache.Options{Size: 10, Timeout: time.Second})\nc.Set(\"a\", \"b\")\nv, ok := c.Get(\"a\")\nfmt.Println(v, ok, c.Hits())",
		},
		{
			name: "correct file",
			from: ".",
			src: "package main\n\nimport (\n\t\"context\"\n\n\t\"example.com/cachemod/cache\"\n)\n\n" +
				"func main() {\n\tc := cache.New(cache.Options{})\n\t_ = c.Flush(context.Background())\n}\n",
		},
		{
			name: "unknown method",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc.Purge(context.Background())",
			want: []SnippetIssue{{Kind: SnippetUnknownMember, Line: 2, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "unknown package name",
			from: "tools/gen",
			src:  "func main() {\n\tc := cache.NewCache()\n\tc.Flush()\n}",
			want: []SnippetIssue{{Kind: SnippetUnknownName, Line: 2, Name: "cache.NewCache", Package: mod,
				Message: "package example.com/cachemod/cache has no NewCache"}},
		},
		{
			name: "wrong argument count",
			from: "cache",
			src:  "c := cache.New()\n_ = c",
			want: []SnippetIssue{{Kind: SnippetWrongArgs, Line: 1, Name: "cache.New", Package: mod,
				Message: "not enough arguments in call to cache.New: have (), want (cache.Options)"}},
		},
		{
			name: "wrong argument type to a generic method",
			from: "cache",
			src:  "var l cache.List[int]\nl.Push(\"x\")",
			want: []SnippetIssue{{Kind: SnippetWrongArgs, Line: 2, Name: "List.Push", Package: mod,
				Message: `cannot use "x" (untyped string constant) as int value in argument to l.Push`}},
		},
		{
			name: "unknown field",
			from: "cache",
			src:  "opts := cache.Options{\n\tTimeout:  time.Second,\n\tMaxItems: 3,\n}\n_ = cache.New(opts)",
			want: []SnippetIssue{{Kind: SnippetUnknownMember, Line: 3, Name: "MaxItems", Package: mod,
				Message: "unknown field MaxItems in struct literal of type cache.Options"}},
		},
		{
			name: "results assigned to too many variables",
			from: "cache",
			src:  "c, err := cache.New(cache.Options{})",
			want: []SnippetIssue{{Kind: SnippetOther, Line: 1, Name: "cache.New", Package: mod,
				Message: "assignment mismatch: 2 variables but cache.New returns 1 value"}},
		},
		{
			name: "type no longer implements an interface",
			from: "cache",
			src:  "var s cache.Store = cache.New(cache.Options{})\n_ = s",
			want: []SnippetIssue{{Kind: SnippetUnknownMember, Line: 1, Name: "Delete", Package: mod,
				Message: "cannot use cache.New(cache.Options{}) (value of type *cache.Cache) as cache.Store value in variable declaration: " +
					"*cache.Cache does not implement cache.Store (missing method Delete)"}},
		},
		{
			name: "third-party calls are never reported",
			from: "cache",
			src: "r := chi.NewRouter()\nr.Get(\"/\", nil)\nm := metrics.NewCounter()\nm.Inc()\n" +
				"c := cache.New(cache.Options{Counter: m})\nc.Set(r.Name(), m.Label)\ns := cache.Server{}\ns.ServeHTTP(nil, nil)",
		},
		{
			name: "third-party imports in a file are never reported",
			from: ".",
			src: "package main\n\nimport (\n\t\"github.com/go-chi/chi/v5\"\n\t\"gopkg.in/yaml.v3\"\n)\n\n" +
				"func main() {\n\tr := chi.NewRouter()\n\tr.Mount(\"/\", nil)\n\t_, _ = yaml.Marshal(r)\n}\n",
		},
		{
			name: "missing import in a file",
			from: ".",
			src:  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tc := cache.New(cache.Options{})\n\tfmt.Println(c)\n\tfmt.Println(strings.ToUpper(\"x\"), cache.MaxSize)\n}\n",
			want: []SnippetIssue{
				{Kind: SnippetMissingImport, Line: 6, Name: "cache", Package: mod,
					Message: `cache is used without importing "example.com/cachemod/cache"`},
				{Kind: SnippetMissingImport, Line: 8, Name: "strings", Package: "strings",
					Message: `strings is used without importing "strings"`},
			},
		},
		{
			name: "fragment with its own imports: a package it does not import is missing",
			from: ".",
			src:  "import \"fmt\"\n\nc := cache.New(cache.Options{})\nfmt.Println(c)\n",
			want: []SnippetIssue{
				{Kind: SnippetMissingImport, Line: 3, Name: "cache", Package: mod,
					Message: `cache is used without importing "example.com/cachemod/cache"`},
			},
		},
		{
			name: "fragment without imports: packages are implied",
			from: ".",
			src:  "c := cache.New(cache.Options{})\nfmt.Println(c)\n",
		},
		{
			name: "imports that do not resolve",
			from: ".",
			src:  "package main\n\nimport (\n\t\"example.com/cachemod/nope\"\n\t\"fmtx\"\n)\n\nfunc main() { nope.X(); fmtx.Y() }\n",
			want: []SnippetIssue{
				{Kind: SnippetUnknownName, Line: 4, Name: "example.com/cachemod/nope", Package: "example.com/cachemod/nope",
					Message: "the repository has no package example.com/cachemod/nope"},
				{Kind: SnippetUnknownName, Line: 5, Name: "fmtx", Package: "fmtx",
					Message: "the standard library has no package fmtx"},
			},
		},
		{
			name:    "fragment with prelude",
			from:    "cache",
			src:     "c.Set(\"a\", \"b\")\nc.Flush(ctx)\nc.Flush(ctx, 1)",
			prelude: []string{"import \"example.com/cachemod/cache\"\n\nc := cache.New(cache.Options{})", "ctx := context.Background()"},
			want: []SnippetIssue{{Kind: SnippetWrongArgs, Line: 3, Name: "Cache.Flush", Package: mod,
				Message: "too many arguments in call to c.Flush: have (context.Context, number), want (context.Context)"}},
		},
		{
			name:    "prelude issues are not reported",
			from:    "cache",
			src:     "c.Set(\"a\", \"b\")",
			prelude: []string{"c := cache.New()\nc.Purge()"},
		},
		{
			name:    "declarations in the prelude",
			from:    "cache",
			src:     "s := newStore()\nfmt.Println(s.Len())",
			prelude: []string{"package main\n\nimport \"example.com/cachemod/cache\"\n\nfunc newStore() *cache.List[int] { return nil }\n"},
		},
		{
			name: "undeclared prerequisite",
			from: "cache",
			src:  "c := cache.New(opts)\nc.Flush(ctx)\nc.Flush(ctx)",
			want: []SnippetIssue{
				{Kind: SnippetUndeclared, Line: 1, Name: "opts", Message: "opts is not declared in the snippet or the code blocks before it"},
				{Kind: SnippetUndeclared, Line: 2, Name: "ctx", Message: "ctx is not declared in the snippet or the code blocks before it"},
			},
		},
		{
			name: "placeholders",
			from: "cache",
			src:  "c := cache.New(...)\nc.Set(...)\n...\nc.Flush(ctx, …)\nc.Flush(context.TODO(), 2)\nl := cache.List[int]{...}\n_ = l",
			want: []SnippetIssue{{Kind: SnippetWrongArgs, Line: 5, Name: "Cache.Flush", Package: mod,
				Message: "too many arguments in call to c.Flush: have (context.Context, number), want (context.Context)"}},
		},
		{
			name: "in-package example body",
			from: "cache",
			src:  "c := New(Options{})\nc.Flush(context.Background())\n_ = newMemStore()\nc.Zap()",
			want: []SnippetIssue{{Kind: SnippetUnknownMember, Line: 4, Name: "Zap", Package: mod,
				Message: "type *cache.Cache has no field or method Zap"}},
		},
		{
			name: "declarations fragment",
			from: "cache",
			src:  "type wrapper struct{ c *cache.Cache }\n\nfunc (w wrapper) Clear() error { return w.c.Purge(nil) }",
			want: []SnippetIssue{{Kind: SnippetUnknownMember, Line: 3, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "functions mixed with statements",
			from: "cache",
			src: "func handler(w http.ResponseWriter, r *http.Request) {\n\tc := cache.New(cache.Options{})\n\tc.Purge(r.Context())\n}\n\n" +
				"http.HandleFunc(\"/\", handler)\nhttp.ListenAndServe(\":8080\", nil, 1)",
			want: []SnippetIssue{{Kind: SnippetUnknownMember, Line: 3, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "unexported name of another package",
			from: "tools/gen",
			src:  "_ = cache.newMemStore()",
			want: []SnippetIssue{{Kind: SnippetUnknownName, Line: 1, Name: "cache.newMemStore", Package: mod,
				Message: "cache.newMemStore is not exported by package example.com/cachemod/cache"}},
		},
		{
			name: "syntax error",
			from: "cache",
			src:  "c := cache.New(cache.Options{)\n",
			want: []SnippetIssue{{Kind: SnippetSyntax, Line: 1, Message: "syntax error: expected operand, found ')'"}},
		},
		{
			name: "syntax error in declarations",
			from: "cache",
			src:  "func main() {\n\tc := cache.New(\n}\n",
			want: []SnippetIssue{{Kind: SnippetSyntax, Line: 3, Message: "syntax error: expected operand, found '}'"}},
		},
		{
			name: "standard library misuse is not reported",
			from: "cache",
			src:  "fmt.Printlnx(1)\nstrings.ToUpper(1)\nvar r io.Reader = 3\n_ = r",
		},
		{
			name: "repository package named like a standard one",
			from: "cache",
			src:  "log.Event(\"started\")\nlog.Evnt(\"started\")",
			want: []SnippetIssue{{Kind: SnippetUnknownName, Line: 2, Name: "log.Evnt", Package: "example.com/cachemod/log",
				Message: "package example.com/cachemod/log has no Evnt"}},
		},
		{
			name: "standard package chosen by its members",
			from: "cache",
			src:  "log.Println(\"started\")\nlog.Printf(\"%d\", 1)",
		},
		{
			name: "names of files for other platforms are not reported",
			from: "cache",
			src:  "cache.WindowsOnly()",
		},
		{
			name: "empty",
			from: "cache",
			src:  "  \n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.CheckSnippet(t.Context(), tt.from, tt.src, tt.prelude)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CheckSnippet (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSnipElide(t *testing.T) {
	for in, want := range map[string]string{
		"f(...)":                     "f(_elided)",
		"f(a, ...)":                  "f(a, _elided)",
		"f(args...)":                 "f(args...)",
		"x := [...]int{1}":           "x := [...]int{1}",
		"Options{...}":               "Options{_elided}",
		"\t...\n":                    "\t_elided\n",
		"f(a, …)":                    "f(a, _elided)",
		"func f(xs ...int)":          "func f(xs ...int)",
		"x := 1 // and so on ...":    "x := 1 // and so on ...",
		"v := ...":                   "v := _elided",
		"m := map[string]int{...}\n": "m := map[string]int{_elided}\n",
	} {
		if got := snipElide(in); got != want {
			t.Errorf("snipElide(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSnipSplitImports(t *testing.T) {
	tests := []struct {
		in    string
		specs []string
		body  string
	}{
		{"x := 1", nil, "x := 1"},
		{"import \"fmt\"\nfmt.Println()", []string{`"fmt"`}, "            \nfmt.Println()"},
		{"import (\n\t\"fmt\"\n\tc \"example.com/cache\"\n)\nc.New()", []string{`"fmt"`, `c "example.com/cache"`}, "        \n      \n                      \n \nc.New()"},
		{"import . \"fmt\"\nPrintln()", []string{`. "fmt"`}, "              \nPrintln()"},
		{"import (\n\tbroken\n)\n", nil, "import (\n\tbroken\n)\n"},
	}
	for _, tt := range tests {
		specs, body := snipSplitImports(tt.in)
		if diff := cmp.Diff(tt.specs, specs); diff != "" {
			t.Errorf("snipSplitImports(%q) specs (-want +got):\n%s", tt.in, diff)
		}
		if body != tt.body {
			t.Errorf("snipSplitImports(%q) body = %q, want %q", tt.in, body, tt.body)
		}
	}
}

package rules

import (
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

// storeMembers is the member list of testdata's Store.
const storeMembers = "; it has methods Add, Close, Count, Hold, IsEmpty, Name, Release, Snapshot, String"

func TestSnippet(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	rule := &GoSnippet{}
	// A missing member cites the type's declaration line with its
	// members, not the body of the type.
	storeDecl := func(why string) ev {
		start := lineOf(t, ws, "store.go", "type Store struct")
		return ev{"store.go", start, start, review.SourceCode, why + storeMembers}
	}
	at := func(path, s string, source review.Source, why string) ev {
		l := lineOf(t, ws, path, s)
		return ev{path, l, l, source, why}
	}
	example := func(name string) func() review.Claim {
		return func() review.Claim { return goClaim(t, ws, "example_test.go", name) }
	}
	block := func(path, s string) func() review.Claim {
		return func() review.Claim { return mdClaim(t, ws, path, s) }
	}
	tests := []struct {
		name  string
		claim func() review.Claim
		// audit judges in --scope all, where problems that pre-date the
		// diff count too.
		audit bool
		fix   []string // replacements giving the suggestion from the text
		want  *want
	}{{
		name:  "method renamed in the diff, with an earlier block as prelude",
		claim: block("README.md", "s.Reserve(ctx"),
		fix:   []string{"s.Reserve(", "s.Hold("},
		want: &want{
			label:   review.Contradicted,
			message: "The Go code block uses Store.Reserve, but Store has no field or method Reserve (Store.Reserve was renamed to Store.Hold in this diff)",
			evidence: []ev{
				at("README.md", "s.Reserve(ctx", review.SourceDoc, "code block uses Store.Reserve, which does not exist"),
				storeDecl("Store has no field or method Reserve; closest: Hold"),
				{"store.go", lineOf(t, ws, "store.go", "// Hold takes"), lineOf(t, ws, "store.go", "func (s *Store) Hold("), review.SourceDiff, "Store.Reserve renamed to Store.Hold in this diff"},
			},
		},
	}, {
		name:  "misspelt method with a unique close name",
		claim: block("docs/guide.md", "s.Relase("),
		fix:   []string{"s.Relase(", "s.Release("},
		want: &want{
			label:   review.Contradicted,
			message: "Store has no field or method Relase (closest: Store.Release)",
			evidence: []ev{
				at("docs/guide.md", "s.Relase(", review.SourceDoc, "code block uses Store.Relase, which does not exist"),
				storeDecl("Store has no field or method Relase; closest: Release"),
			},
		},
	}, {
		name:  "missing method with nothing close",
		claim: block("docs/guide.md", "s.Purge()"),
		want: &want{
			label:   review.Contradicted,
			message: "Store has no field or method Purge.",
			evidence: []ev{
				at("docs/guide.md", "s.Purge()", review.SourceDoc, "code block uses Store.Purge, which does not exist"),
				storeDecl("Store has no field or method Purge"),
			},
		},
	}, {
		name:  "member of another type: the receiver is wrong, no rename suggested",
		claim: block("docs/guide.md", "s.Drain()"),
		want: &want{
			label:   review.Contradicted,
			message: "The Go code block uses Store.Drain, but Store has no field or method Drain; Drain is declared on Pool.",
			evidence: []ev{
				at("docs/guide.md", "s.Drain()", review.SourceDoc, "code block uses Store.Drain, which does not exist"),
				storeDecl("Store has no field or method Drain"),
				{"pool.go", lineOf(t, ws, "pool.go", "func (p *Pool) Drain("), declEnd(t, ws, "pool.go", lineOf(t, ws, "pool.go", "func (p *Pool) Drain(")), review.SourceCode, "Drain is declared on Pool, not Store"},
			},
		},
	}, {
		name:  "wrong arguments the diff did not cause",
		claim: block("README.md", "inventory.New().Count"),
	}, {
		name:  "wrong arguments, audited",
		claim: block("README.md", "inventory.New().Count"),
		audit: true,
		want: &want{
			label:   review.Contradicted,
			message: "calls inventory.New with arguments its signature does not accept",
			evidence: []ev{
				at("README.md", "inventory.New().Count", review.SourceDoc, "code block calls inventory.New with arguments its signature does not accept"),
				{"store.go", lineOf(t, ws, "store.go", "func New("), lineOf(t, ws, "store.go", "func New("), review.SourceCode, "signature: func New(name string) *Store"},
			},
		},
	}, {
		name:  "a fence without a language that is plainly Go",
		claim: block("docs/guide.md", `s.Add("pear")`),
		audit: true,
		want: &want{
			label:   review.Contradicted,
			message: "calls Store.Add with arguments its signature does not accept",
			evidence: []ev{
				at("docs/guide.md", `s.Add("pear")`, review.SourceDoc, "code block calls Store.Add with arguments its signature does not accept"),
				{"store.go", lineOf(t, ws, "store.go", "func (s *Store) Add("), lineOf(t, ws, "store.go", "func (s *Store) Add("), review.SourceCode, "signature: func (s *Store) Add(sku string, n int)"},
			},
		},
	}, {
		name:  "a fence without a language that is a shell line",
		claim: block("docs/guide.md", "go get example.com/inventory"),
		audit: true,
	}, {
		name:  "complete file without the import",
		claim: block("docs/guide.md", "package main"),
		want: &want{
			label:    review.Incomplete,
			message:  `uses package inventory without importing "example.com/inventory"`,
			evidence: []ev{at("docs/guide.md", `s := inventory.New("main")`, review.SourceDoc, "code block uses package inventory without importing it")},
		},
	}, {
		name:  "example body calling a renamed method",
		claim: example("ExampleStore_Release"),
		want: &want{
			label:   review.Contradicted,
			message: "Store.Reserve was renamed to Store.Hold in this diff",
			evidence: []ev{
				at("example_test.go", "s.Reserve(", review.SourceExample, "code block uses Store.Reserve, which does not exist"),
				storeDecl("Store has no field or method Reserve; closest: Hold"),
				{"store.go", lineOf(t, ws, "store.go", "// Hold takes"), lineOf(t, ws, "store.go", "func (s *Store) Hold("), review.SourceDiff, "Store.Reserve renamed to Store.Hold in this diff"},
			},
		},
	},
		{name: "undeclared inputs are not reported", claim: block("README.md", "fmt.Println(total)")},
		{name: "variable declared by an earlier block", claim: block("README.md", `fmt.Println(s.Count("apple"))`)},
		{name: "first block", claim: block("README.md", `s := inventory.New("shop")`)},
		{name: "syntax error in a block the diff left alone is left to --scope all", claim: block("README.md", "log.Fatal(err\n")},
		{name: "not Go", claim: block("README.md", "go get example.com/inventory")},
		{name: "prose", claim: block("README.md", "Store.Frobnicate")},
		{name: "example that compiles", claim: example("ExampleStore_Hold")},
		{name: "doc comment", claim: func() review.Claim { return goClaim(t, ws, "store.go", "Store.Hold") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.claim()
			if tt.want != nil && len(tt.fix) > 0 {
				tt.want.suggestion = strings.NewReplacer(tt.fix...).Replace(c.Text)
			}
			ws.Scope = ""
			if tt.audit {
				ws.Scope = review.ScopeAll
			}
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestSnippetUndeclaredInputs checks that a block using ctx without
// declaring it, and otherwise right, gets no finding.
func TestSnippetUndeclaredInputs(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	c := mdClaim(t, ws, "README.md", "s.Reserve(ctx")
	c.Text = strings.ReplaceAll(c.Text, "Reserve", "Hold")
	for i, m := range c.Mentions {
		c.Mentions[i].Text = strings.ReplaceAll(m.Text, "Reserve", "Hold")
	}
	got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
	if err != nil || got != nil {
		t.Fatalf("Judge = %+v, %v; want nil, nil", got, err)
	}
}

func TestCodeStart(t *testing.T) {
	lines := strings.Split("# T\n\n```go\n\nx := 1\n```\n", "\n")
	tests := []struct {
		name  string
		block review.Mention
		want  int
	}{
		{"mention at the fence", review.Mention{Kind: review.MentionBlock, Text: "x := 1\n", Line: 3, EndLine: 6}, 5},
		{"mention at the code", review.Mention{Kind: review.MentionBlock, Text: "x := 1\n", Line: 5, EndLine: 5}, 5},
		{"leading blank line kept", review.Mention{Kind: review.MentionBlock, Text: "\nx := 1\n", Line: 4, EndLine: 5}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeStart(lines, tt.block); got != tt.want {
				t.Errorf("codeStart = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestSnippetUntypedReceivers(t *testing.T) {
	ws := loadWorkspace(t, "untyped")
	rule := &GoSnippet{}
	tests := []struct {
		block      string
		message    string
		suggestion string
	}{
		{"flags.BoolP(", "", ""},
		{"flags.MarkDepercated(", "The Go code block calls flags.MarkDepercated, but no type has a method MarkDepercated; FlagSet has MarkDeprecated.", "```go\nflags.MarkDeprecated(\"verbose\", \"use --debug\")\n```"},
		{"flags.Hide(", "The Go code block calls flags.Hide, but FlagSet.Hide was renamed to FlagSet.MarkHidden in this diff.", "```go\nflags.MarkHidden(\"verbose\")\n```"},
		{"cmd.Execute()", "", ""},        // no module method is close
		{"log.MarkDepercated(", "", ""},  // a standard package's name: the reader's logger
		{"zapx.MarkDepercated(", "", ""}, // zapx qualifies a type: a package of another module
		{"flags.MarkDeprecatd(", "", ""}, // a typo the diff did not make: old debt
		{"b.WriteStrin(", "The Go code block uses strings.Builder.WriteStrin, but strings.Builder has no field or method WriteStrin (closest: strings.Builder.WriteString).", "b.WriteString(\"x\")"},
		// The wrong call behind the missing import outranks the omission.
		{"b.WriteStrng(", "The Go code block uses strings.Builder.WriteStrng, but strings.Builder has no field or method WriteStrng (closest: strings.Builder.WriteString).", "b.WriteString(\"x\")"},
	}
	for _, tt := range tests {
		t.Run(tt.block, func(t *testing.T) {
			c := mdClaim(t, ws, "README.md", tt.block)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if tt.message == "" {
				if got != nil {
					t.Fatalf("got %s %q, want no verdict", got.Label, got.Message)
				}
				return
			}
			if got == nil {
				t.Fatal("got no verdict, want contradicted")
			}
			if got.Label != review.Contradicted || got.Message != tt.message {
				t.Errorf("got %s %q, want contradicted %q", got.Label, got.Message, tt.message)
			}
			if !strings.Contains(got.Suggestion, strings.TrimPrefix(strings.TrimSuffix(tt.suggestion, "\n```"), "```go\n")) {
				t.Errorf("suggestion %q does not contain the corrected call %q", got.Suggestion, tt.suggestion)
			}
			switch {
			case strings.Contains(tt.message, "strings.Builder"):
				// Nothing in the repository to cite for a std type.
				if len(got.Evidence) != 1 || got.Evidence[0].Path != "README.md" {
					t.Errorf("evidence %+v: want the block line only", got.Evidence)
				}
			case len(got.Evidence) != 2 || got.Evidence[1].Source != review.SourceCode || got.Evidence[1].Path != "flags.go":
				t.Errorf("evidence %+v: want the block line and the method's definition in flags.go", got.Evidence)
			}
		})
	}
}

// TestSnippetDocCommentTypos checks that a doc comment's code block that is
// Go but for one missing comma is reported, and that pseudo-code, output
// and correct blocks are not.
func TestSnippetDocCommentTypos(t *testing.T) {
	ws := loadWorkspace(t, "doctypo")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol  string
		message string // "" for no verdict
	}{
		{"Event.Str", "missing ',' in argument list"},
		{"Event.Group", "missing ',' before newline in argument list"},
		{"Event.Int", ""},  // correct
		{"Event.Send", ""}, // output with parentheses, not Go
		// The documented method called on a name the doc does not
		// declare: a value of the receiver's type.
		{"Store.Get", "not enough arguments in call to store.Get"},
		{"Store.Put", ""},
		{"Sink.Write", "too many arguments in call to sink.Write"},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			file := "event.go"
			if strings.HasPrefix(tt.symbol, "Store.") || strings.HasPrefix(tt.symbol, "Sink.") {
				file = "store.go"
			}
			c := goClaim(t, ws, file, tt.symbol)
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.message, strings.Contains)
		})
	}
}

// TestDocCommentBlockIsGo covers which of a doc comment's indented blocks
// go-snippet reads as Go.
func TestDocCommentBlockIsGo(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"statements with a call", "x := f(1)\nuse(x)", true},
		// temporal's SideEffect doc: lines of dots are code left out.
		{"lines of dots", "var random int\nworkflow.SideEffect(func(ctx workflow.Context) interface{} {\n\treturn nil\n})\nif random < 50 {\n\t....\n} else {\n\t....\n}", true},
		// gomock's Controller doc: TestBar does not parse, TestFoo does.
		{"declarations side by side, one Go", "func TestFoo(t *testing.T) {\n\tctrl := gomock.NewController(t)\n\tdefer ctrl.Finish()\n}\n\nfunc TestBar(t *testing.T) {\n\tt.Run(\"a\", st) {\n\t})\n\tt.Run(\"b\", st) {\n\t})\n\tt.Run(\"c\", st) {\n\t})\n}", true},
		{"output", "level=info msg=started\nlevel=warn msg=slow", false},
		{"a grammar", "Expr = Term { (\"+\" | \"-\") Term } .", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := docBlockIsGo(tt.text); got != tt.want {
				t.Errorf("read as Go = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRenameFix(t *testing.T) {
	block := "func TestFoo(t *testing.T) {\n\tctrl := gomock.NewController(st)\n}"
	tests := []struct {
		name, text, want string
	}{
		{"every use in the block", "Each test creates a Controller:\n\n\t" + strings.ReplaceAll(block, "\n", "\n\t"),
			"Each test creates a Controller:\n\n\t" + strings.ReplaceAll(strings.Replace(block, "(st)", "(t)", 1), "\n", "\n\t")},
		{"the name in prose too", "Pass st, the test state:\n\n\t" + strings.ReplaceAll(block, "\n", "\n\t"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renameFix(tt.text, block, "st", "t"); got != tt.want {
				t.Errorf("renameFix = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSnippetReadersPackage checks names of packages a code generator
// writes for the reader: an unimported qualifier that the module's own
// package of that name lacks is no finding when an example generates a
// package of that name or the package taken is one of integration tests;
// elsewhere it is.
func TestSnippetReadersPackage(t *testing.T) {
	ws := loadWorkspace(t, "readerpkg")
	ws.Scope = review.ScopeAll
	tests := []struct{ block, message string }{
		{"orm.Todo", ""},
		{"role.Unknown", ""},
		{"util.Joinn", "util.Joinn"},
	}
	for _, tt := range tests {
		t.Run(tt.block, func(t *testing.T) {
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, mdClaim(t, ws, "README.md", tt.block))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.message == "" && got != nil:
				t.Errorf("got %s %q, want no verdict", got.Label, got.Message)
			case tt.message != "" && (got == nil || !strings.Contains(got.Message, tt.message)):
				t.Errorf("got %+v, want a verdict naming %s", got, tt.message)
			}
		})
	}
}

// TestSnippetInPackage: a README block that uses several names of one
// package bare (NewGraph, START, END) is read from inside that package,
// so its variables have types and a receiver left over from a rename is
// found.
func TestSnippetInPackage(t *testing.T) {
	claims := []struct {
		name  string
		claim func(*testing.T, *review.Workspace) review.Claim
		want  string // a part of the message, "" for no verdict; no other problem may follow it
	}{
		{
			// "g := graph.Wrap(s)" under "func (s *Graph) Source()": the
			// example's s is Wrap's string, not the receiver.
			"doc comment whose example has its own receiver",
			func(t *testing.T, ws *review.Workspace) review.Claim {
				return goClaim(t, ws, "graph/graph.go", "Graph.Source")
			},
			"",
		},
		{
			// wechat's kf doc: "r.GET(…)" of the reader's router under
			// "func (r *Client) VerifyURL", which the example calls on
			// kfClient: r is not the receiver.
			"doc comment whose example calls the method on another name",
			func(t *testing.T, ws *review.Workspace) review.Claim {
				return goClaim(t, ws, "graph/graph.go", "Runnable.Verify")
			},
			"",
		},
		{
			// NewGraph and START bare, graph.END qualified, in graph's own
			// doc: the qualifier is the slip.
			"doc comment mostly bare",
			func(t *testing.T, ws *review.Workspace) review.Claim {
				return goClaim(t, ws, "graph/graph.go", "Chain")
			},
			"writes the names of package example.com/flow/graph bare, as the package's own code does (NewGraph, START), but graph.END with its qualifier",
		},
		{
			// next/graph imports the first graph as graph: its README's
			// graph.NewGraph() is next's, whose Graph has Describe.
			"package that imports another of its name",
			func(t *testing.T, ws *review.Workspace) review.Claim {
				return mdClaim(t, ws, "next/graph/README.md", "Describe")
			},
			"",
		},
	}
	for _, tt := range claims {
		t.Run(tt.name, func(t *testing.T) {
			ws := loadWorkspace(t, "inpackage")
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, tt.claim(t, ws))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == "" && got != nil:
				t.Errorf("got %s %q, want no verdict", got.Label, got.Message)
			case tt.want != "" && (got == nil || !strings.Contains(got.Message, tt.want) || strings.Contains(got.Message, "also line")):
				t.Errorf("got %+v, want a verdict saying %s and no more", got, tt.want)
			}
		})
	}
	ws := loadWorkspace(t, "inpackage")
	ws.Scope = review.ScopeAll
	tests := []struct{ block, message string }{
		{"r.Invoke", "r is declared nowhere; compiled, declared on line 5 and never used, is the one variable of the block with the Invoke it is used for"},
		{"compiled.Invoke", ""},
		// A chain cut off after a selector's dot is an excerpt.
		{"graph.NewGraph().", ""},
		// A made-up type shows a shape, not the package's API.
		{"graph.ExampleParams", ""},
		// XXX is a field the reader fills in (fuego's "r.XXX = \"YYY\"").
		{"g.XXX", ""},
		// Dial's TokenSource is a type of a package not loaded: nil
		// may well be what it takes.
		{"graph.Dial(nil)", ""},
		// Introduced as a supposition ("could look like").
		{"g.Versioned", ""},
		// gqlgen's field-collection page: the block before, in the same
		// section, declares the helper with another case.
		{"n := edgeCount(", "edgeCount is declared nowhere; an earlier block of the section declares EdgeCount, which differs from it only in case"},
		{"m := edgeCounter(", ""},
		// istio's design doc: a case clause lifted out of its switch.
		{"case targetsAnnotation:", ""},
		// A supposition may invent the module's API, never the standard
		// library's.
		{"os.GetEnv(\"GRAPH\")", "os.GetEnv, which the standard library's package os does not declare"},
		// A listing of the package's own type is written from inside.
		{"start graph.Graph", ""},
		// handle is the reader's function that process calls.
		{"handle(elem)", ""},
		// An element of a table, shown without the table.
		{"\"one edge\"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.block, func(t *testing.T) {
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, mdClaim(t, ws, "README.md", tt.block))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.message == "" && got != nil:
				t.Errorf("got %s %q, want no verdict", got.Label, got.Message)
			case tt.message != "" && (got == nil || !strings.Contains(got.Message, tt.message)):
				t.Errorf("got %+v, want a verdict saying %s", got, tt.message)
			}
		})
	}
}

// TestQualifyBare checks which bare uses of a package's name the
// Unqualified suggestion qualifies.
func TestQualifyBare(t *testing.T) {
	tests := []struct {
		name, code, want string
		n                int
	}{
		{"a composite literal's type", "c := cache.New(Options{Size: 1})", "c := cache.New(cache.Options{Size: 1})", 1},
		{"a key of the same name is a field", "cfg := cache.Config{Options: Options{}}", "cfg := cache.Config{Options: cache.Options{}}", 1},
		{"a selector is not bare", "x := y.Options", "x := y.Options", 0},
		{"a longer name is not the name", "o := MyOptions{}", "o := MyOptions{}", 0},
		{"a key before a tab is a field", "Options:\tOptions{},", "Options:\tcache.Options{},", 1},
		{"every use", "var a, b Options = Options{}, Options{}", "var a, b cache.Options = cache.Options{}, cache.Options{}", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := qualifyBare(tt.code, "Options", "cache.Options")
			if got != tt.want || n != tt.n {
				t.Errorf("qualifyBare(%q) = %q, %d; want %q, %d", tt.code, got, n, tt.want, tt.n)
			}
		})
	}
}

package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/rules/gocheck"
)

// TestSnippetCompile checks the compile errors a reader pasting a block
// meets, and the blocks that are not code gone wrong, on a fixture without
// a base (every block counts, as in --scope all).
func TestSnippetCompile(t *testing.T) {
	ws := loadWorkspace(t, "gosnippet")
	rule := &GoSnippet{}
	at := func(path, s string) int { return lineOf(t, ws, path, s) }
	decl := func(s string) (int, int) {
		start := at("limits/limits.go", s)
		return start, declEnd(t, ws, "limits/limits.go", start)
	}
	newStart, _ := decl("func New(")
	winStart, winEnd := decl("type Window struct")
	limStart, _ := decl("type Limiter struct")
	cntStart, _ := decl("func (l *Limiter) Count(")
	cfgStart, cfgEnd := decl("type Config struct")
	ctrStart, ctrEnd := decl("type Counter interface")
	block := func(s string) func() review.Claim {
		return func() review.Claim { return mdClaim(t, ws, "README.md", s) }
	}
	tests := []struct {
		name  string
		claim func() review.Claim
		want  *want
	}{{
		name:  "results of a repository function assigned to too few variables",
		claim: block("l := limits.New(limits.Config{Max: 10})"),
		want: &want{
			label:   review.Contradicted,
			message: "The Go code block does not compile (assignment mismatch: 1 variable but limits.New returns 2 values)",
			evidence: []ev{
				{"README.md", at("README.md", "l := limits.New(limits.Config{Max: 10})"), at("README.md", "l := limits.New(limits.Config{Max: 10})"), review.SourceDoc, "code block does not compile"},
				{"limits/limits.go", newStart, newStart, review.SourceCode, "signature: func New(cfg Config) (*Limiter, error)"},
			},
		},
	}, {
		name:  "a pointer where the field holds a value",
		claim: block("Window: &limits.Window{Size: 5}"),
		want: &want{
			label:   review.Contradicted,
			message: "cannot use &limits.Window{…} (value of type *limits.Window) as limits.Window value in struct literal",
			evidence: []ev{
				{"README.md", at("README.md", "Window: &limits.Window{Size: 5}"), at("README.md", "Window: &limits.Window{Size: 5}"), review.SourceDoc, "code block uses a value of the wrong type"},
				{"limits/limits.go", winStart, winEnd, review.SourceCode, "declares Window"},
			},
		},
	}, {
		name:  "a func of another signature assigned to a package's variable",
		claim: block("limits.OnDeny = func(key string) string {"),
		want: &want{
			label:   review.Contradicted,
			message: "cannot use (func(key string) string literal) (value of type func(key string) string) as func(key string, n int) string value in assignment",
			evidence: []ev{
				{"README.md", at("README.md", "limits.OnDeny = func(key string) string {"), at("README.md", "limits.OnDeny = func(key string) string {"), review.SourceDoc, "code block uses a value of the wrong type"},
				{"limits/limits.go", at("limits/limits.go", "var OnDeny"), at("limits/limits.go", "var OnDeny"), review.SourceCode, "declares OnDeny"},
			},
		},
	}, {
		name:  "a receiver declared again at the top of its method",
		claim: block("c := limits.Stats(nil)"),
		want: &want{
			label:   review.Contradicted,
			message: "no new variables on left side of := (c is a parameter of the enclosing func)",
			evidence: []ev{
				{"README.md", at("README.md", "c := limits.Stats(nil)"), at("README.md", "c := limits.Stats(nil)"), review.SourceDoc, "code block does not compile"},
			},
		},
	}, {
		name:  "a one-letter name left off a variable the block never uses",
		claim: block("wn := limits.Window{Size: 2}"),
		want: &want{
			label:      review.Contradicted,
			message:    "w is declared nowhere; wn, declared on line 1 and never used",
			suggestion: "wn := limits.Window{Size: 2}\nl, _ := limits.New(limits.Config{Max: 1, Window: wn})\nfmt.Println(l)",
			evidence: []ev{
				{"README.md", at("README.md", "Window: w})"), at("README.md", "Window: w})"), review.SourceDoc, "code block uses w, which it declares nowhere"},
			},
		},
	}, {
		name:  "a complete file that imports a package and writes its name bare",
		claim: block("fmt.Println(Stats(nil))"),
		want: &want{
			label:      review.Contradicted,
			message:    "The Go code block imports package example.com/limits/limits and uses Stats bare, which is undefined outside the package: write limits.Stats.",
			suggestion: "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/limits/limits\"\n)\n\nfunc main() {\n\tfmt.Println(limits.Stats(nil))\n}",
			evidence: []ev{
				{"README.md", at("README.md", "fmt.Println(Stats(nil))"), at("README.md", "fmt.Println(Stats(nil))"), review.SourceDoc, "code block imports package example.com/limits/limits and uses its Stats bare"},
				{"limits/limits.go", at("limits/limits.go", "func Stats("), at("limits/limits.go", "func Stats("), review.SourceCode, "declares Stats, which outside its package is limits.Stats"},
			},
		},
	}, {
		name:  "a parameter the block declares int passed where a standard func wants int64",
		claim: block("func(n int) { fmt.Println(strconv.FormatInt(n, 10)) }(n)"),
		want: &want{
			label:   review.Contradicted,
			message: "cannot use n (variable of type int) as int64 value in argument to strconv.FormatInt",
			evidence: []ev{
				{"README.md", at("README.md", "func(n int) { fmt.Println"), at("README.md", "func(n int) { fmt.Println"), review.SourceDoc, "code block calls strconv.FormatInt with arguments its signature does not accept"},
			},
		},
	}, {
		name:  "_ := declares nothing",
		claim: block("_ := ok"),
		want: &want{
			label:    review.Contradicted,
			message:  "no new variables on left side of := (only _)",
			evidence: []ev{{"README.md", at("README.md", "_ := ok"), at("README.md", "_ := ok"), review.SourceDoc, "code block does not compile"}},
		},
	}, {
		name:  "an unclosed call",
		claim: block("http.Handle(\"/\", limits.Handler("),
		want: &want{
			label:    review.Contradicted,
			message:  "The Go code block does not parse (missing ',' before newline in argument list)",
			evidence: []ev{{"README.md", at("README.md", "\tMax: 5,") + 1, at("README.md", "\tMax: 5,") + 1, review.SourceDoc, "code block is not valid Go"}},
		},
	}, {
		name:  "a closing fence glued to the code",
		claim: block("lim, err := limits.New"),
		want: &want{
			label:    review.Contradicted,
			message:  "the closing ``` is glued to the code on this line",
			evidence: []ev{{"README.md", at("README.md", "fmt.Println(lim, err)```"), at("README.md", "fmt.Println(lim, err)```"), review.SourceDoc, "code block is not valid Go"}},
		},
	}, {
		name:  "another major version's import path",
		claim: block(`import "example.com/limits/v2/limits"`),
		want: &want{
			label:    review.Contradicted,
			message:  "imports example.com/limits/v2/limits, which the repository does not provide; it provides example.com/limits/limits",
			evidence: []ev{{"README.md", at("README.md", `import "example.com/limits/v2/limits"`), at("README.md", `import "example.com/limits/v2/limits"`), review.SourceDoc, "code block imports example.com/limits/v2/limits, which the repository does not provide"}},
		},
	}, {
		name: "a name of the package written bare beside its qualifier",
		claim: func() review.Claim {
			return mdClaim(t, ws, "limits/README.md", "lim, err := limits.New(Config{Max: 3})")
		},
		want: &want{
			label:      review.Contradicted,
			message:    "The Go code block uses Config bare, but it writes the other names of package example.com/limits/limits with their qualifier, so it is read from outside the package, where Config is undefined: write limits.Config.",
			suggestion: "lim, err := limits.New(limits.Config{Max: 3})\nfmt.Println(lim, err)",
			evidence: []ev{
				{"limits/README.md", at("limits/README.md", "lim, err := limits.New(Config{Max: 3})"), at("limits/README.md", "lim, err := limits.New(Config{Max: 3})"), review.SourceDoc, "code block uses Config bare but qualifies the other names of its package"},
				{"limits/limits.go", cfgStart, cfgEnd, review.SourceCode, "declares Config, which outside its package is limits.Config"},
			},
		},
	}, {
		name:  "names of the package written bare throughout",
		claim: func() review.Claim { return mdClaim(t, ws, "limits/README.md", "lim, err := New(Config{Max: 3})") },
	}, {
		name:  "a standard package's name in other letter case",
		claim: block(`if os.GetEnv("LIMIT") != "" {`),
		want: &want{
			label:      review.Contradicted,
			message:    "The Go code block uses os.GetEnv, which the standard library's package os does not declare (closest: os.Getenv).",
			suggestion: "if os.Getenv(\"LIMIT\") != \"\" {\n\tfmt.Println(\"set\")\n}",
			evidence:   []ev{{"README.md", at("README.md", `if os.GetEnv("LIMIT") != "" {`), at("README.md", `if os.GetEnv("LIMIT") != "" {`), review.SourceDoc, "code block uses os.GetEnv, which the standard library does not declare"}},
		},
	}, {
		name:  "a block that continues the one before carries its variables",
		claim: block("v.Sise = 3"),
		want: &want{
			label:      review.Contradicted,
			suggestion: "v.Size = 3",
			message:    "Window has no field or method Sise",
			evidence: []ev{
				{"README.md", at("README.md", "v.Sise = 3"), at("README.md", "v.Sise = 3"), review.SourceDoc, "code block uses Window.Sise, which does not exist"},
				{"limits/limits.go", winStart, winStart, review.SourceCode, "Window has no field or method Sise; closest: Size; it has field Size"},
			},
		},
	}, {
		name:  "a step of a walk-through sees what its first block declared, past the steps between",
		claim: block("wt.Sise = 4"),
		want: &want{
			label:      review.Contradicted,
			suggestion: "wt.Size = 4",
			message:    "Window has no field or method Sise",
			evidence: []ev{
				{"README.md", at("README.md", "wt.Sise = 4"), at("README.md", "wt.Sise = 4"), review.SourceDoc, "code block uses Window.Sise, which does not exist"},
				{"limits/limits.go", winStart, winStart, review.SourceCode, "Window has no field or method Sise; closest: Size; it has field Size"},
			},
		},
	}, {
		name:  "a reference's method sees the first block's variable past a step that declares the same names",
		claim: block(`seen := ref.Cuont("key")`),
		want: &want{
			label:      review.Contradicted,
			suggestion: `seen := ref.Count("key")`,
			message:    "Limiter has no field or method Cuont",
			evidence: []ev{
				{"README.md", at("README.md", `seen := ref.Cuont("key")`), at("README.md", `seen := ref.Cuont("key")`), review.SourceDoc, "code block uses Limiter.Cuont, which does not exist"},
				{"limits/limits.go", limStart, limStart, review.SourceCode, "Limiter has no field or method Cuont; closest: Count; it has methods Allow, Count, Reset, Resize"},
			},
		},
	}, {
		name:  "a reference's method sees the variable of a block that declares the same names",
		claim: block(`total := other.Cuont("b")`),
		want: &want{
			label:      review.Contradicted,
			suggestion: `total := other.Count("b")`,
			message:    "Limiter has no field or method Cuont",
			evidence: []ev{
				{"README.md", at("README.md", `total := other.Cuont("b")`), at("README.md", `total := other.Cuont("b")`), review.SourceDoc, "code block uses Limiter.Cuont, which does not exist"},
				{"limits/limits.go", limStart, limStart, review.SourceCode, "Limiter has no field or method Cuont; closest: Count; it has methods Allow, Count, Reset, Resize"},
			},
		},
	}, {
		name:  "a listing of the package's struct with a field the code lacks",
		claim: block("\tWindw Window"),
		want: &want{
			label:      review.Contradicted,
			suggestion: "type Config struct {\n\tMax   int\n\tWindow Window\n}",
			message:    "The Go code block lists Config with field Windw, but Config has no field Windw (closest: Config.Window).",
			evidence: []ev{
				{"README.md", at("README.md", "\tWindw Window"), at("README.md", "\tWindw Window"), review.SourceDoc, "code block lists Config.Windw"},
				{"limits/limits.go", cfgStart, cfgEnd, review.SourceCode, "Config has no field Windw; closest: Window"},
			},
		},
	}, {
		name:  "a listing of the package's struct with a field of another type",
		claim: block("\tSize string"),
		want: &want{
			label:   review.Contradicted,
			message: "The Go code block lists Window.Size as `string`, but the code declares `int`.",
			evidence: []ev{
				{"README.md", at("README.md", "\tSize string"), at("README.md", "\tSize string"), review.SourceDoc, "code block lists Window.Size"},
				{"limits/limits.go", at("limits/limits.go", "\tSize int"), at("limits/limits.go", "\tSize int"), review.SourceCode, "Window.Size: int"},
			},
		},
	}, {
		name:  "a listing of the package's interface with a method of another signature",
		claim: block("\tCount(key string) string"),
		want: &want{
			label:   review.Contradicted,
			message: "The Go code block lists Counter.Count as `Count(key string) string`, but the code declares `Count(key string) int`.",
			evidence: []ev{
				{"README.md", at("README.md", "\tCount(key string) string"), at("README.md", "\tCount(key string) string"), review.SourceDoc, "code block lists Counter.Count"},
				{"limits/limits.go", at("limits/limits.go", "\tCount(key string) int"), at("limits/limits.go", "\tCount(key string) int"), review.SourceCode, "Counter.Count: Count(key string) int"},
			},
		},
	}, {
		name:  "a listing of the package's interface with a method the code lacks",
		claim: block("\tRest()"),
		want: &want{
			label:   review.Contradicted,
			message: "The Go code block lists Counter with method Rest, but Counter has no method Rest.",
			evidence: []ev{
				{"README.md", at("README.md", "\tRest()"), at("README.md", "\tRest()"), review.SourceDoc, "code block lists Counter.Rest"},
				{"limits/limits.go", ctrStart, ctrEnd, review.SourceCode, "Counter has no method Rest"},
			},
		},
	},
		{name: "a listing of part of the package's struct", claim: block("type Config struct {\n\tMax int\n}")},
		{name: "the reader's own type of the package's type's name", claim: block("\tDSN  string")},
		{name: "a listing of the package's unexported fields", claim: block("\tconfig Config")},
		{
			name: "a heading that lists a method's signature",
			claim: func() review.Claim {
				return mdClaim(t, ws, "limits/API.md", "func (l *Limiter) Count(key string) string")
			},
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block lists Limiter.Count as `func (l *Limiter) Count(key string) string`, but the code declares `func (l *Limiter) Count(key string) int`.",
				evidence: []ev{
					{"limits/API.md", at("limits/API.md", "### `func (l *Limiter) Count(key string) string`"), at("limits/API.md", "### `func (l *Limiter) Count(key string) string`"), review.SourceDoc, "code block lists the signature of Limiter.Count"},
					{"limits/limits.go", cntStart, cntStart, review.SourceCode, "signature: func (l *Limiter) Count(key string) int"},
				},
			},
		},
		{name: "a heading that lists a method's signature right", claim: func() review.Claim { return mdClaim(t, ws, "limits/API.md", "func (*Limiter) Allow(key string) bool") }},
		{
			name:  "a heading that lists a func's signature without the func keyword",
			claim: func() review.Claim { return mdClaim(t, ws, "limits/API.md", "func New(cfg Config) *Limiter") },
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block lists New as `func New(cfg Config) *Limiter`, but the code declares `func New(cfg Config) (*Limiter, error)`.",
				evidence: []ev{
					{"limits/API.md", at("limits/API.md", "### `New(cfg Config) *Limiter`"), at("limits/API.md", "### `New(cfg Config) *Limiter`"), review.SourceDoc, "code block lists the signature of New"},
					{"limits/limits.go", newStart, newStart, review.SourceCode, "signature: func New(cfg Config) (*Limiter, error)"},
				},
			},
		},
		{name: "a heading without a receiver that a method of the package may own", claim: func() review.Claim { return mdClaim(t, ws, "limits/API.md", "func Reset() error") }},
		{
			name:  "a misspelt method in a doc comment's example",
			claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "Limiter.Allow") },
			want: &want{
				label:   review.Contradicted,
				message: "Limiter has no field or method Alow (closest: Limiter.Allow)",
				evidence: []ev{
					{"limits/limits.go", at("limits/limits.go", `//	if l.Alow("user") {`), at("limits/limits.go", `//	if l.Alow("user") {`), review.SourceDoc, "code block uses Limiter.Alow, which does not exist"},
					{"limits/limits.go", limStart, limStart, review.SourceCode, "Limiter has no field or method Alow; closest: Allow; it has methods Allow, Count, Reset, Resize"},
				},
			},
		},
		{
			name:  "a doc comment's example calls its receiver",
			claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "Limiter.Count") },
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block calls Limiter.Count with arguments its signature does not accept (not enough arguments in call to l.Count",
				evidence: []ev{
					{"limits/limits.go", at("limits/limits.go", `//	if l.Count() > 3 {`), at("limits/limits.go", `//	if l.Count() > 3 {`), review.SourceDoc, "code block calls Limiter.Count with arguments its signature does not accept"},
					{"limits/limits.go", cntStart, cntStart, review.SourceCode, "signature: func (l *Limiter) Count(key string) int"},
				},
			},
		},
		{
			name:  "a doc comment's example past a line that is not Go, calling a method no type has",
			claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "Drain") },
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block uses Limiter.drop, but Limiter has no field or method drop",
				evidence: []ev{
					{"limits/limits.go", at("limits/limits.go", `//		l.drop("user")`), at("limits/limits.go", `//		l.drop("user")`), review.SourceDoc, "code block uses Limiter.drop, which does not exist"},
					{"limits/limits.go", limStart, limStart, review.SourceCode, "Limiter has no field or method drop; it has methods Allow, Count, Reset, Resize"},
				},
			},
		},
		{
			name:  "a member an alias's type lacks",
			claim: block("fmt.Println(e.Hits)"),
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block uses Entry.Hits, but Entry has no field or method Hits",
				evidence: []ev{
					{"README.md", at("README.md", "fmt.Println(e.Hits)"), at("README.md", "fmt.Println(e.Hits)"), review.SourceDoc, "code block uses Entry.Hits, which does not exist"},
					{"limits/internal/store/store.go", 5, 5, review.SourceCode, "Entry has no field or method Hits; it has fields Key, Count"},
				},
			},
		},
		{
			name:  "a doc comment's example that miscounts a module function's results",
			claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "MustNew") },
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block does not compile (assignment mismatch: 1 variable but limits.New returns 2 values)",
				evidence: []ev{
					{"limits/limits.go", at("limits/limits.go", "//	l := limits.New(limits.Config{Max: 1})"), at("limits/limits.go", "//	l := limits.New(limits.Config{Max: 1})"), review.SourceDoc, "code block does not compile"},
					{"limits/limits.go", newStart, newStart, review.SourceCode, "signature: func New(cfg Config) (*Limiter, error)"},
				},
			},
		},
		{
			name:  "a doc comment's example that ends its sentence with a full stop",
			claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "Total") },
			want: &want{
				label:   review.Contradicted,
				message: "too many arguments in call to limits.Total",
				evidence: []ev{
					{"limits/limits.go", at("limits/limits.go", "//	n := limits.Total(l, \"user\")."), at("limits/limits.go", "//	n := limits.Total(l, \"user\")."), review.SourceDoc, "code block calls limits.Total with arguments its signature does not accept"},
					{"limits/limits.go", at("limits/limits.go", "func Total("), at("limits/limits.go", "func Total("), review.SourceCode, "signature: func Total(l *Limiter) int"},
				},
			},
		},
		{name: "a doc comment's parameter that its first block declares again", claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "Limiter.Resize") }},
		{name: "a listing of methods is not code", claim: block("l.Allow(key string) bool")},
		{name: "benchmark output under a go fence is not code", claim: block("BenchmarkAllow-8")},
		{name: "an angle-bracket placeholder", claim: block("Max: <max>")},
		{name: "an unrelated earlier block does not carry over", claim: block("w.Sise = 2")},
		{
			// A setup block most later blocks build on carries into
			// them, even past blocks that do not use it.
			name:  "a setup block the later blocks use",
			claim: func() review.Claim { return mdClaim(t, ws, "GUIDE.md", "both := lim.Allow(\"user\", \"admin\")") },
			want: &want{
				label:   review.Contradicted,
				message: "too many arguments in call to lim.Allow",
				evidence: []ev{
					{"GUIDE.md", at("GUIDE.md", "both := lim.Allow("), at("GUIDE.md", "both := lim.Allow("), review.SourceDoc, "code block calls Limiter.Allow with arguments its signature does not accept"},
					{"limits/limits.go", at("limits/limits.go", "func (l *Limiter) Allow("), at("limits/limits.go", "func (l *Limiter) Allow("), review.SourceCode, "signature: func (l *Limiter) Allow(key string) bool"},
				},
			},
		},
		// cfg is used once after the block that declares it, far on.
		{name: "a block used once much later is no setup", claim: func() review.Claim { return mdClaim(t, ws, "GUIDE.md", "cfg.Maxx = 3") }},
		{
			// genqlient's docs list the User a reader's query generates;
			// only its integration test server declares one.
			name:  "a listing of a type only a test package declares",
			claim: func() review.Claim { return mdClaim(t, ws, "TUTORIAL.md", "type Account struct {") },
		},
		{
			// netpoll's OnRequest doc: "OnRequest(ctx, connection)" for
			// the handler of that type a reader registers.
			name:  "a func type's name called for a function of that type",
			claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "DenyHook") },
		},
		{
			// A gallery declares its names again for each alternative.
			name: "names declared again in a block of alternatives",
			claim: func() review.Claim {
				return mdClaim(t, ws, "TUTORIAL.md", "l, err := limits.New(limits.Config{Max: 20})")
			},
		},
		{
			// opensearch-go's bulk guide: the setup block opens "func
			// example() error {", the next creates two indexes with
			// "createResp, err :=" each time.
			name: "names declared again in a block that goes on inside an earlier block's function",
			claim: func() review.Claim {
				return mdClaim(t, ws, "TUTORIAL.md", "small, err := limits.New(limits.Config{Max: 2})")
			},
			want: &want{
				label:   review.Contradicted,
				message: "no new variables on left side of := (small and err declared on line 1 and used since; = assigns them)",
				evidence: []ev{
					{"TUTORIAL.md", at("TUTORIAL.md", "small, err := limits.New(limits.Config{Max: 2})"), at("TUTORIAL.md", "small, err := limits.New(limits.Config{Max: 2})"), review.SourceDoc, "code block does not compile"},
				},
			},
		},
		{name: "a doc comment example of an unexported method, which the package sees", claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "Limiter.bump") }},
		{name: "a doc comment example with undeclared inputs and right calls", claim: func() review.Claim { return goClaim(t, ws, "limits/limits.go", "Limiter.Reset") }},
		{
			name:  "a name the block declares in another case and never uses",
			claim: block("opts := Options{Max: 10}"),
			want: &want{
				label:      review.Contradicted,
				message:    "The Go code block does not compile (Options is declared nowhere; the block declares options, which differs from it only in case and which it never uses)",
				suggestion: "type options struct {\n\tMax int\n}\n\nopts := options{Max: 10}\nl, err := limits.New(limits.Config{Max: opts.Max})\nfmt.Println(l, err)",
				evidence: []ev{
					{"README.md", at("README.md", "opts := Options{Max: 10}"), at("README.md", "opts := Options{Max: 10}"), review.SourceDoc, "code block uses Options, which it declares nowhere"},
				},
			},
		},
		{
			name:  "a type where a value goes, through an alias an earlier block imports",
			claim: block("l.Allow(lim.Window)"),
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block does not compile (lim.Window (type) is not an expression: lim.Window is a type, used where a value goes)",
				evidence: []ev{
					{"README.md", at("README.md", "l.Allow(lim.Window)"), at("README.md", "l.Allow(lim.Window)"), review.SourceDoc, "code block uses a value of the wrong type"},
					{"limits/limits.go", winStart, winEnd, review.SourceCode, "declares Window"},
				},
			},
		},
		{
			// flag is the repository's package, as the earlier block
			// imports it, not the standard library's (which has no New).
			name:  "an earlier block's import under a standard package's name",
			claim: block("l, err := flag.New(flag.Config{Max: 3})"),
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block calls Limiter.Count with arguments its signature does not accept (not enough arguments in call to l.Count: have (), want (string)).",
				evidence: []ev{
					{"README.md", at("README.md", "fmt.Println(l.Count(), err)"), at("README.md", "fmt.Println(l.Count(), err)"), review.SourceDoc, "code block calls Limiter.Count with arguments its signature does not accept"},
					{"limits/limits.go", cntStart, cntStart, review.SourceCode, "signature: func (l *Limiter) Count(key string) int"},
				},
			},
		},
		// The earlier block's strings is the repository's package, which
		// has no ToUpper; the standard one, which the block means, does.
		{name: "an earlier block's import under a package's name that the block does not mean", claim: block(`fmt.Println(strings.ToUpper("user"))`)},
		{
			// No block imports lm; the repository's own tests import
			// the package under that name.
			name:  "a qualifier no block imports, as the repository's code imports it",
			claim: block("l, err := lm.New(lm.Config{Max: 4})"),
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block calls Limiter.Count with arguments its signature does not accept (not enough arguments in call to l.Count: have (), want (string)).",
				evidence: []ev{
					{"README.md", at("README.md", "l, err := lm.New(lm.Config{Max: 4})") + 1, at("README.md", "l, err := lm.New(lm.Config{Max: 4})") + 1, review.SourceDoc, "code block calls Limiter.Count with arguments its signature does not accept"},
					{"limits/limits.go", cntStart, cntStart, review.SourceCode, "signature: func (l *Limiter) Count(key string) int"},
				},
			},
		},
		{
			name:  ":= of a name a var statement of the block declared",
			claim: block("var lim *limits.Limiter"),
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block does not compile (no new variables on left side of := (lim is declared by the var statement on line 1))",
				evidence: []ev{
					{"README.md", at("README.md", "lim := limits.MustNew(limits.Config{Max: 1})"), at("README.md", "lim := limits.MustNew(limits.Config{Max: 1})"), review.SourceDoc, "code block does not compile"},
				},
			},
		},
		{
			name:  "a local path that names the module's package",
			claim: block("fmt.Println(l, err, limits.Nope())"),
			want: &want{
				label:   review.Contradicted,
				message: "The Go code block uses limits.Nope, which the module does not declare",
				evidence: []ev{
					{"README.md", at("README.md", "fmt.Println(l, err, limits.Nope())"), at("README.md", "fmt.Println(l, err, limits.Nope())"), review.SourceDoc, "code block uses limits.Nope, which does not exist"},
				},
			},
		},
		// Load and Nope are no names of package limits: the reader's own.
		{name: "a local path of the reader's own package", claim: block("fmt.Println(limits.Load(), limits.Nope())")},
		{
			name:  "a field of func type called with too few arguments",
			claim: block("err := r.Run(\"user\")"),
			want: &want{
				label:   review.Contradicted,
				message: "not enough arguments in call to r.Run",
				evidence: []ev{
					{"README.md", at("README.md", "err := r.Run(\"user\")"), at("README.md", "err := r.Run(\"user\")"), review.SourceDoc, "code block calls Runner.Run with arguments its signature does not accept"},
					{"limits/limits.go", at("limits/limits.go", "	Run func(key string, n int) error"), at("limits/limits.go", "	Run func(key string, n int) error"), review.SourceCode, "signature: Run func(key string, n int) error"},
				},
			},
		},
		// An inner block's := declares a new variable of that name.
		{name: "a receiver shadowed in an inner block", claim: block("func (c *counter) Denied(key string) bool {")},
		// Each := an alternative of a gallery, right on its own.
		{name: ":= of names an earlier := declared", claim: block("l, err := limits.New(limits.Config{Max: 2})")},
		// Named and unnamed results mixed: a listing written loosely.
		{name: "a listing of signatures that does not parse", claim: block("func Drain(*limits.Limiter)")},
		// options is used: Options is the reader's.
		{name: "a name in another case beside a declaration the block uses", claim: block("o := options{Max: 3}")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, tt.claim())
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

func TestMoreIssues(t *testing.T) {
	is := func(line int, msg string) snippetIssue {
		return snippetIssue{Issue: gocheck.Issue{Message: msg}, line: line}
	}
	tests := []struct {
		name string
		rest []snippetIssue
		want string
	}{
		{"none", nil, ""},
		{"one", []snippetIssue{is(98, "unknown field HashLen in struct literal of type dict.Options")},
			"; also line 98: unknown field HashLen in struct literal of type dict.Options"},
		{"three, a syntax one", []snippetIssue{is(3, "a"), is(4, "syntax error: b"), is(9, "c")},
			"; also line 3: a; line 4: b; line 9: c"},
		{"more than three by line", []snippetIssue{is(3, "a"), is(4, "b"), is(9, "c"), is(12, "d")},
			"; 4 more problems follow, on lines 3, 4, 9, 12"},
		// asynq's README misspells its type once and uses the right
		// name twice: one slip.
		{"the first problem again", []snippetIssue{is(127, "first")}, "; the same on line 127"},
		{"a problem twice", []snippetIssue{is(5, "a"), is(8, "first"), is(9, "a")}, "; the same on line 8; also lines 5, 9: a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := moreIssues("first", tt.rest); got != tt.want {
				t.Errorf("moreIssues = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDeclaredInText(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"db: A sql.Db\n     db := goqu.New(\"postgres\", sqlDb)", []string{"db"}},
		{"sqlDb, err := sql.Open(\"postgres\", dsn)", []string{"sqlDb", "err"}},
		{"\tvar ids []uint32", []string{"ids"}},
		{"x.y := 2 is not a declaration", nil},
		{"a field named db is set by New", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range declaredInTextRE.FindAllStringSubmatch(tt.text, -1) {
			for _, name := range strings.Split(m[1]+m[2], ",") {
				got = append(got, strings.TrimSpace(name))
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: declared %q, want %q", tt.text, got, tt.want)
		}
	}
}

package gocheck

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/retrieval"
)

// fixtureDir is the symbol table's own fixture, a small module with a
// nested module, build-constrained files, generics, a third-party import,
// tests and examples. retrieval's TestSymbols loads it too, so it stays
// there and is read from here by relative path.
const fixtureDir = "../../retrieval/testdata/symbols/cachemod"

// brokenFile does not parse; it is added in memory because every committed
// .go file must pass gofmt. retrieval's tests add it too (symBrokenFile).
const brokenFile = "package broken\n\n// Lost would be declared here.\nfunc Lost( {\n"

// fixtureFS returns the fixture module plus broken/bad.go, and its sorted
// file list, as retrieval's symFixtureFS does.
func fixtureFS(t testing.TB) (fstest.MapFS, []string) {
	t.Helper()
	fsys := fstest.MapFS{}
	dir := os.DirFS(fixtureDir)
	err := fs.WalkDir(dir, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(dir, p)
		fsys[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fsys["broken/bad.go"] = &fstest.MapFile{Data: []byte(brokenFile)}
	var files []string
	for p := range fsys {
		files = append(files, p)
	}
	slices.Sort(files)
	return fsys, files
}

// TestCheck loads the fixture once and checks snippets against it through
// subtests.
func TestCheck(t *testing.T) {
	t.Parallel()
	fsys, files := fixtureFS(t)
	s, err := retrieval.LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatalf("LoadSymbols: %v", err)
	}
	t.Run("snippets", func(t *testing.T) { testCheck(t, s) })
	t.Run("concurrent", func(t *testing.T) { testCheckConcurrent(t, s) })
}

// testCheckConcurrent checks snippets and queries the symbol table from
// several goroutines (meaningful under -race): the lazily built indexes
// and the standard library importer are shared.
func testCheckConcurrent(t *testing.T, s *retrieval.Symbols) {
	var wg sync.WaitGroup
	results := make([]string, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sym, ok := s.Lookup("cache", "Cache.Flush")
			if !ok {
				results[i] = "lookup failed"
				return
			}
			iss := Check(t.Context(), s, "cache", "c := cache.New(cache.Options{})\nc.Purge()\nvar b bytes.Buffer\n_ = b", nil)
			results[i] = fmt.Sprintf("%d callees, %d refs, %d tests, %d issues, %v",
				len(s.Callees(sym, 2)), len(s.References(sym)), len(s.Tests(sym)), len(iss), s.Resolves("cache", "bufio.Reader"))
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r != results[0] || strings.Contains(r, "failed") {
			t.Errorf("goroutine %d: %s; goroutine 0: %s", i, r, results[0])
		}
	}
}

func TestCheckZeroSymbols(t *testing.T) {
	var s retrieval.Symbols
	if got := Check(t.Context(), &s, ".", "x := cache.New()\n_ = x", nil); len(got) != 0 {
		t.Errorf("zero Symbols reports %v", got)
	}
}

// testCheck runs under TestCheck, on the fixture module.
func testCheck(t *testing.T, s *retrieval.Symbols) {
	const mod = "example.com/cachemod/cache"
	tests := []struct {
		name    string
		from    string
		src     string
		prelude []string
		want    []Issue
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
			// folio's tmpl doc: the package imports htmltpl
			// "html/template", so its doc's template.Must is that one,
			// not text/template, the first standard package so called.
			name: "an ambiguous standard name is the one the package imports",
			from: "log",
			src:  "layout := template.Must(template.ParseGlob(\"*.html\"))\npage := &log.Page{Layout: layout}\nfmt.Println(page)",
		},
		{
			// go-sqlmock's README: "tx, err = db.Begin()" in a function
			// whose named result is err; := was meant.
			name: "a plain assignment of an undeclared name beside a declared one",
			from: ".",
			src: "package main\n\nimport \"example.com/cachemod/cache\"\n\n" +
				"func fill() (err error) {\n\tc, err = open()\n\tc.Set(\"a\", \"b\")\n\treturn\n}\n\nfunc open() (*cache.Cache, error) { return cache.New(cache.Options{}), nil }\n",
			want: []Issue{{Kind: Compile, Line: 6, Name: "c",
				Message: "c is assigned with = beside err but declared nowhere; := declares it (c, err := …)"}},
		},
		{
			// A name used before the assignment is the reader's input,
			// and so is one assigned alone, and err.
			name: "an undeclared name used before its plain assignment, or assigned alone, or err",
			from: "cache",
			src:  "func fill() {\n\tc.Set(\"a\", \"b\")\n\tvar err error\n\tc, err = cache.New(cache.Options{}), nil\n\td = cache.New(cache.Options{})\n\tfmt.Println(err, d)\n}\n\nfunc g() {\n\tbuf := []byte{}\n\tbuf, err = buf[:0], nil\n\tfmt.Println(buf)\n}",
			want: []Issue{
				{Kind: Undeclared, Line: 4, Name: "c", Message: "c is not declared in the snippet or the code blocks before it"},
				{Kind: Undeclared, Line: 5, Name: "d", Message: "d is not declared in the snippet or the code blocks before it"},
				{Kind: Undeclared, Line: 11, Name: "err", Message: "err is not declared in the snippet or the code blocks before it"},
			},
		},
		{
			// opensearch-go's retry guide and termenv's README: a
			// standard function's results miscounted, with the package
			// the checker imported for the block certain.
			name: "a standard call's results miscounted",
			from: "cache",
			src:  "ctx := context.WithTimeout(context.Background(), time.Second)\nc := cache.New(cache.Options{})\n_ = c.Flush(ctx)\ntpl := template.New(\"x\")\ntpl = tpl.Parse(\"{{.}}\")\n_ = tpl",
			want: []Issue{
				{Kind: Compile, Line: 1, Name: "context.WithTimeout", Package: "context", Std: true,
					Message: "assignment mismatch: 1 variable but context.WithTimeout returns 2 values"},
				{Kind: Compile, Line: 5, Name: "template.Template.Parse", Package: "text/template", Std: true,
					Message: "assignment mismatch: 1 variable but tpl.Parse returns 2 values"},
			},
		},
		{
			// The caller decides between a gallery and a program that
			// runs on: the checker names the case.
			name: "names declared again after they were used",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc.Set(\"a\", \"b\")\nc := cache.New(cache.Options{Size: 1})\n_ = c",
			want: []Issue{{Kind: Redefined, Line: 3, Name: "c",
				Message: "no new variables on left side of := (c declared on line 1 and used since; = assigns it)"}},
		},
		{
			name: "names declared again with no use between",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc := cache.New(cache.Options{Size: 1})\n_ = c",
		},
		{
			name: "an undeclared name that differs from a variable only in case",
			from: "cache",
			src:  "grpcS := grpc.NewServer()\nc := cache.New(cache.Options{})\nfmt.Println(grpcs, c)\ngrpcS.Serve()",
			want: []Issue{{Kind: Renamed, Line: 3, Name: "grpcs", Closest: "grpcS", Absent: true,
				Message: "grpcs is declared nowhere; grpcS, declared on line 1, differs from it only in case"}},
		},
		{
			// afero's README: "minioFs := miniofs.NewMinioFs(…)", a
			// package of a module not loaded.
			name: "a name that differs only in case from the variable its statement declares",
			from: "cache",
			src:  "import \"example.com/other/afero-minio\"\n\nminioFs := miniofs.NewMinioFs(\"minio://endpoint/bucket\")\n_ = minioFs",
		},
		{
			// The reader's type beside its variable.
			name: "an undeclared exported name that differs from a variable only in case",
			from: "cache",
			src:  "fooBar := cache.New(cache.Options{})\nvar x FooBar\nfmt.Println(fooBar, x)",
			want: []Issue{{Kind: Undeclared, Line: 2, Name: "FooBar", Message: "FooBar is not declared in the snippet or the code blocks before it"}},
		},
		{
			// Two of them: no telling which.
			name: "an undeclared name that differs from two variables only in case",
			from: "cache",
			src:  "myCache := cache.New(cache.Options{})\nmyCAche := cache.New(cache.Options{})\nfmt.Println(mycache, myCache, myCAche)",
			want: []Issue{{Kind: Undeclared, Line: 3, Name: "mycache", Message: "mycache is not declared in the snippet or the code blocks before it"}},
		},
		{
			// opentracing's Tracer doc: opentracing.Tag("user_agent", ua)
			// for the struct Tag.
			name: "a module type converted from several values",
			from: "cache",
			src:  "o := cache.Options(10, time.Second)\n_ = o",
			want: []Issue{{Kind: Compile, Line: 1, Name: "Options", Package: mod,
				Message: "cache.Options is a type, not a function: a conversion takes one value, not 2; a Options value is written cache.Options{…}"}},
		},
		{
			// The same doc: "sp := tracer.StartSpan(…,
			// opentracing.ChildOf(parentSpan.Context()))"; sp is not in
			// scope where parentSpan is used.
			name: "an undeclared receiver used in the statement that declares a variable of its type",
			from: "cache",
			src:  "c := cache.New(cache.Options{\n\tSize: parentCache.Hits(),\n})\n_ = c",
		},
		{
			// json is often jsoniter, log logrus: the package is the
			// reader's choice.
			name: "a miscounted call of a package readers replace",
			from: "cache",
			src:  "b := json.Marshal(cache.Options{})\nlog.Println(b)",
		},
		{
			name: "unknown method",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc.Purge(context.Background())",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 2, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			// hits is the embedded base's unexported field: the package
			// itself can use it (a doc comment's example can).
			name: "unexported field beside a method of the name in other case",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nfmt.Println(c.hits)",
			want: []Issue{{Kind: UnknownMember, Line: 2, Name: "hits", Package: mod,
				Message: "type *cache.Cache has no field or method hits, but does have method Hits"}},
		},
		{
			// msgp's doc: "msgp.Encode(io.Writer, msgp.Encodable)".
			name: "a call written with its parameters' types is a signature",
			from: "cache",
			src:  "cache.New(cache.Options)\nc := cache.New(cache.Options{})\nc.Set(cache.Kind, cache.Options)",
			want: []Issue{{Kind: WrongType, Line: 1, Name: "Options", Package: mod,
				Message: "cache.Options (type) is not an expression: cache.Options is a type, used where a value goes"}},
		},
		{
			// goproxy's "ioutil.ReadAll(rb.Read)": the method value is
			// passed, not rb, which has Read.
			name: "a method value where an interface goes",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nvar s fmt.Stringer = c.Hits\nfmt.Println(s)",
			want: []Issue{{Kind: Compile, Line: 2, Name: "Hits", Package: mod,
				Message: "cannot use c.Hits (value of type func() int) as fmt.Stringer value in variable declaration: func() int does not implement fmt.Stringer (missing method String)"}},
		},
		{
			// go-smtp's README: the reader's own Session, written for
			// an older smtp.Session, in a file that imports the package
			// (so declaring a Store of its own is not the package's
			// source).
			name: "the block's type implements a module interface of another version",
			from: "cache",
			src: "package main\n\nimport (\n\t\"context\"\n\n\t\"example.com/cachemod/cache\"\n)\n\ntype Store struct{}\n\n" +
				"func (s *Store) Get(key string) (string, bool) { return \"\", false }\n\n" +
				"func (s *Store) Put(key string) error { return nil }\n\n" +
				"func (s *Store) Delete(ctx context.Context, pattern string) error { return nil }\n\nvar _ cache.Store = &Store{}\n",
			want: []Issue{{Kind: Compile, Line: 17, Name: "Store.Put", Package: mod,
				Message: "cannot use &Store{} (value of type *Store) as cache.Store value in variable declaration: *Store does not implement cache.Store (wrong type for method Put): have Put(string) error, want Put(string, string) error"}},
		},
		{
			name: "the block's type lacks a method of a module interface",
			from: "cache",
			src: "package main\n\nimport (\n\t\"context\"\n\n\t\"example.com/cachemod/cache\"\n)\n\ntype mem struct{}\n\n" +
				"func (m mem) Get(key string) (string, bool) { return \"\", false }\n\n" +
				"func (m mem) Delete(ctx context.Context, pattern string) error { return nil }\n\nvar _ cache.Store = mem{}\n",
			want: []Issue{{Kind: Compile, Line: 15, Name: "Store.Put", Package: mod,
				Message: "cannot use mem{} (value of struct type mem) as cache.Store value in variable declaration: mem does not implement cache.Store (missing method Put)"}},
		},
		{
			// goproxy's README: r passed inside func(req *http.Request, …).
			name: "a one-letter name for the func literal's parameter that starts with it",
			from: "cache",
			src:  "use := func(cc *cache.Cache) {\n\tfmt.Println(c.Hits(), cc)\n}\nuse(nil)",
			want: []Issue{{Kind: Renamed, Absent: true, Line: 2, Name: "c", Closest: "cc",
				Message: "c is declared nowhere; cc, the parameter of the func literal around it (line 1), starts with that letter and has the type this use takes (*cache.Cache)"}},
		},
		{
			// Inside a func of the block's, c may be the reader's.
			name: "a one-letter name in a func literal inside a func of the block",
			from: "cache",
			src:  "func run(x *cache.Cache) {\n\tgo func(cc *cache.Cache) {\n\t\tfmt.Println(c.Hits(), cc)\n\t}(x)\n}",
		},
		{
			// sipgo's README: sip.NewRequest(method, &recipment) of a
			// NewRequest that takes a Uri value.
			name: "the address of an undeclared name where a struct value goes",
			from: "cache",
			src:  "c := cache.New(&opts)\nc.Set(\"a\", \"b\")",
			want: []Issue{
				{Kind: Undeclared, Line: 1, Name: "opts", Message: "opts is not declared in the snippet or the code blocks before it"},
				{Kind: WrongArgs, Line: 1, Name: "cache.New", Package: mod,
					Message: "cannot use &opts (a pointer) as cache.Options value in argument to cache.New: the parameter takes a cache.Options, not a pointer to one"},
			},
		},
		{
			name: "the address of an undeclared name where an interface goes",
			from: "cache",
			src:  "fmt.Println(&opts)",
			want: []Issue{{Kind: Undeclared, Line: 1, Name: "opts", Message: "opts is not declared in the snippet or the code blocks before it"}},
		},
		{
			// go-flags' README: a second Name field added to the options.
			name: "a struct type of the block's with a field twice",
			from: "cache",
			src:  "var opts struct {\n\tName string `long:\"name\"`\n\n\tName string `long:\"animal\"`\n}\nc := cache.New(cache.Options{})\nc.Set(opts.Name, \"b\")",
			want: []Issue{{Kind: Compile, Line: 4, Name: "Name", Message: "duplicate field Name in the struct type (declared first on line 2)"}},
		},
		{
			// participle v2's README: stateful.MustSimple after package
			// lexer/stateful was merged into lexer.
			name: "a package no one has, whose names one module package declares",
			from: ".",
			src:  "opts := []kv.Options{{Size: 1}}\nc := kv.New(opts[0])\nfmt.Println(c)",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 1, Name: "kv", Package: mod,
				Message: "no package kv exists in the module, its dependencies or the standard library; Options, New are declared in package cache (example.com/cachemod/cache)"}},
		},
		{
			// kv.New alone: kv may be the reader's variable.
			name: "a qualifier never used in a type stays the reader's",
			from: ".",
			src:  "c := kv.New(kv.Options)\nfmt.Println(c)",
		},
		{
			// huma's cli.md: "// cli := humacli.New(...)" tells the
			// reader what cli is; the code then calls its methods.
			name: "a declaration given in a comment",
			from: "cache",
			src:  "// c := cache.New(...)\n\nc.Set(\"a\")",
			want: []Issue{{Kind: WrongArgs, Line: 3, Name: "Cache.Set", Package: mod,
				Message: "not enough arguments in call to c.Set: have (string), want (string, string)"}},
		},
		{
			// The comment's own mistake (New returns one value) is
			// not reported: it is a hint, not code.
			name: "a declaration given in a comment, wrong itself",
			from: "cache",
			src:  "// c, err := cache.New(...)\nc.Set(\"a\", \"b\")",
		},
		{
			// An alternative written in a comment under the real
			// declaration is not code.
			name: "a commented alternative of a declared name",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\n// c := cache.New(cache.Options{Size: 1}, 2)\nc.Flush(context.Background())",
		},
		{
			name: "unknown package name",
			from: "tools/gen",
			src:  "func main() {\n\tc := cache.NewCache()\n\tc.Flush()\n}",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 2, Name: "cache.NewCache", Package: mod,
				Message: "package example.com/cachemod/cache has no NewCache"}},
		},
		{
			name: "parameter renamed, a use kept the old name",
			from: "cache",
			src:  "func TestFoo(t *testing.T) {\n\tc := cache.New(cache.Options{})\n\tfmt.Println(c.Hits(), tt)\n\tuse(tt)\n}\n\nfunc use(tb testing.TB) {}",
			want: []Issue{{Kind: Renamed, Absent: true, Line: 4, Name: "tt", Closest: "t",
				Message: "tt is declared nowhere; t, declared on line 1 and never used, is one letter away and of a type this use takes (*testing.T)"}},
		},
		{
			// oops's "err := oops.Join(err1, err2, err3)": numbered
			// values of the reader's, not err misspelt.
			name: "a numbered name beside an unused variable is no rename",
			from: "cache",
			src:  "func use(tb testing.TB) {}\n\nfunc TestFoo(tb testing.TB) {\n\tuse(tb1)\n}",
			want: []Issue{{Kind: Undeclared, Line: 4, Name: "tb1",
				Message: "tb1 is not declared in the snippet or the code blocks before it"}},
		},
		{
			// asynq's README: "func NewEmailDeliveryTask(userID int,
			// tmplID string)", then "TemplateID: templID".
			name: "parameter misspelt as a field's value",
			from: "cache",
			src:  "type payload struct{ ID string }\n\nfunc newTask(tmplID string) payload {\n\treturn payload{ID: templID}\n}",
			want: []Issue{{Kind: Renamed, Absent: true, Line: 4, Name: "templID", Closest: "tmplID",
				Message: "templID is declared nowhere; tmplID, declared on line 3 and never used, is one letter away and of a type this use takes (string)"}},
		},
		{
			// asynq's README: "type ImageProcesser struct", then
			// methods and a constructor of *ImageProcessor.
			name: "type misspelt where it is declared",
			from: "cache",
			src:  "type ImageProcesser struct{}\n\nfunc (p *ImageProcessor) Process() {}\n\nfunc NewImageProcessor() *ImageProcessor { return nil }",
			want: []Issue{
				{Kind: Renamed, Absent: true, Line: 3, Name: "ImageProcessor", Closest: "ImageProcesser",
					Message: "ImageProcessor is declared nowhere; ImageProcesser, declared on line 1 and never used, is one letter away"},
				{Kind: Renamed, Absent: true, Line: 5, Name: "ImageProcessor", Closest: "ImageProcesser",
					Message: "ImageProcessor is declared nowhere; ImageProcesser, declared on line 1 and never used, is one letter away"},
			},
		},
		{
			name: "a type one letter away that the block uses is another type",
			from: "cache",
			src:  "type Processor struct{}\n\nvar _ = Processor{}\n\nfunc (p *Processer) Run() {}",
			want: []Issue{{Kind: Undeclared, Line: 5, Name: "Processer",
				Message: "Processer is not declared in the snippet or the code blocks before it"}},
		},
		{
			name: "local renamed: the namesake has the member used",
			from: "cache",
			src:  "store := cache.New(cache.Options{})\nfmt.Println(stroe.Hits())",
			want: []Issue{{Kind: Renamed, Absent: true, Line: 2, Name: "stroe", Closest: "store",
				Message: "stroe is declared nowhere; store, declared on line 1 and never used, is one letter away and of a type this use takes (*cache.Cache)"}},
		},
		{
			// eino's README: "compiledGraph, err := graph.Compile(ctx)",
			// then "r.Invoke(ctx, …)".
			name: "an undeclared receiver, and the one unused variable with its member",
			from: "cache",
			src:  "store := cache.New(cache.Options{})\nfmt.Println(c.Hits())",
			want: []Issue{{Kind: Renamed, Absent: true, Line: 2, Name: "c", Closest: "store",
				Message: "c is declared nowhere; store, declared on line 1 and never used, is the one variable of the block with the Hits it is used for (*cache.Cache)"}},
		},
		{
			// testdeep's S doc: "t.Run(…, func(t *td.T) {})" twice; the
			// first literal's t is not in scope on the next line.
			name: "an undeclared receiver, and an unused parameter of an earlier func literal",
			from: "cache",
			src:  "run(func(store *cache.Cache) {})\nfmt.Println(c.Hits())",
			want: []Issue{{Kind: Undeclared, Line: 1, Name: "run", Message: "run is not declared in the snippet or the code blocks before it"}},
		},
		{
			name: "an undeclared receiver, and two unused variables with its member",
			from: "cache",
			src:  "a := cache.New(cache.Options{})\nb := cache.New(cache.Options{})\nfmt.Println(c.Hits())",
		},
		{
			// The namesake is used, or lacks what the use needs, or the
			// name is one letter: the undeclared name is the reader's.
			name: "undeclared names that are inputs",
			from: "cache",
			src: "func a(t *testing.T) {\n\tt.Log(tt)\n\tuse(tt)\n}\n\nfunc b(ct *cache.Cache) {\n\tcache.New(cx)\n}\n\nfunc c(x int) {\n\tuse(y)\n}\n\n" +
				"func use(tb testing.TB) {}",
			want: []Issue{
				{Kind: Undeclared, Line: 2, Name: "tt", Message: "tt is not declared in the snippet or the code blocks before it"},
				{Kind: Undeclared, Line: 7, Name: "cx", Message: "cx is not declared in the snippet or the code blocks before it"},
				{Kind: Undeclared, Line: 11, Name: "y", Message: "y is not declared in the snippet or the code blocks before it"},
			},
		},
		{
			// gomock's Controller doc: TestBar does not parse; TestFoo
			// is checked on its own.
			name: "declarations side by side, one does not parse",
			from: "cache",
			src:  "func TestFoo(t *testing.T) {\n\tc := cache.New()\n\t_ = c\n}\n\nfunc TestBar(t *testing.T) {\n\tt.Run(\"a\", st) {\n\t})\n\tt.Run(\"b\", st) {\n\t})\n\tt.Run(\"c\", st) {\n\t})\n}",
			want: []Issue{
				{Kind: WrongArgs, Line: 2, Name: "cache.New", Package: mod,
					Message: "not enough arguments in call to cache.New: have (), want (cache.Options)"},
				{Kind: Syntax, Line: 7, Message: "syntax error: expected ';', found '{'"},
			},
		},
		{
			name: "wrong argument count",
			from: "cache",
			src:  "c := cache.New()\n_ = c",
			want: []Issue{{Kind: WrongArgs, Line: 1, Name: "cache.New", Package: mod,
				Message: "not enough arguments in call to cache.New: have (), want (cache.Options)"}},
		},
		{
			name: "wrong argument type to a generic method",
			from: "cache",
			src:  "var l cache.List[int]\nl.Push(\"x\")",
			want: []Issue{{Kind: WrongArgs, Line: 2, Name: "List.Push", Package: mod,
				Message: `cannot use "x" (untyped string constant) as int value in argument to l.Push`}},
		},
		{
			name: "unknown field",
			from: "cache",
			src:  "opts := cache.Options{\n\tTimeout:  time.Second,\n\tMaxItems: 3,\n}\n_ = cache.New(opts)",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 3, Name: "MaxItems", Package: mod,
				Message: "unknown field MaxItems in struct literal of type cache.Options"}},
		},
		{
			name: "results assigned to too many variables",
			from: "cache",
			src:  "c, err := cache.New(cache.Options{})",
			want: []Issue{{Kind: Compile, Line: 1, Name: "cache.New", Package: mod,
				Message: "assignment mismatch: 2 variables but cache.New returns 1 value"}},
		},
		{
			name: "two results where one value goes",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nfmt.Println(c.Get(\"a\") + \"!\")",
			want: []Issue{{Kind: Compile, Line: 2, Name: "Cache.Get", Package: mod,
				Message: "multiple-value c.Get(\"a\") (value of type (string, bool)) in single-value context"}},
		},
		{
			name: "_ := declares nothing",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\n_ := c.Hits()",
			want: []Issue{
				{Kind: Compile, Line: 2, Message: "no new variables on left side of := (only _)"},
			},
		},
		{
			name: "a gallery of alternatives declaring the same variables is not reported",
			from: "cache",
			src:  "// One way.\nc := cache.New(cache.Options{})\n// Another.\nc := cache.New(cache.Options{Size: 2})\n_ = c",
		},
		{
			name: "a statement that goes on from the one that declared its names",
			from: "cache",
			src:  "c, n := cache.New(cache.Options{}), 0\nn := c.Hits()\n_ = n",
			want: []Issue{
				{Kind: Compile, Line: 2, Name: "n", Message: "no new variables on left side of := (n is declared on line 1 by the statement whose c this one uses)"},
			},
		},
		{
			name: "alternatives that use an earlier name but declare their own are not reported",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nn := c.Hits()\n// Or:\nn := c.Hits() + 1\n_ = n",
		},
		{
			name: "a syntax error in declarations is reported from the declarations",
			from: "cache",
			src:  "var c *cache.Cache\n\nfunc init() {\n\tc = cache.New(cache.Options{}))\n}\n",
			want: []Issue{{Kind: Syntax, Line: 4, Message: "syntax error: expected statement, found ')'"}},
		},
		{
			name: "a wrong call past a line that does not parse is found once the line is set aside",
			from: "cache",
			src: "c := cache.New(cache.Options{})\nfor v, ok := c.Get(\"a\") {\n\tfmt.Println(v, ok)\n}\n" +
				"go func() {\n\tc.Purge()\n}\n",
			want: []Issue{
				{Kind: Syntax, Line: 2, Message: "syntax error: expected boolean or range expression, found assignment (missing parentheses around composite literal?)"},
				{Kind: UnknownMember, Absent: true, Line: 6, Name: "Purge", Package: mod,
					Message: "type *cache.Cache has no field or method Purge"},
			},
		},
		{
			name: "a qualifier several packages have, most of whose names they lack, is another package of that name",
			from: "tools/gen",
			src:  "r := log.NewRotator(log.Config{MaxFiles: 3})\nlog.Register(r)\nlog.Printf(\"%v\", r)",
		},
		{
			name: "a qualifier one package has is that package, however many of its names are gone",
			from: "log",
			src:  "c := cache.NewLRU(cache.Config{MaxEntries: 3})\ncache.Register(c, cache.Options{})",
			want: []Issue{
				{Kind: UnknownName, Absent: true, Line: 1, Name: "cache.Config", Package: mod, Message: "package example.com/cachemod/cache has no Config"},
				{Kind: UnknownName, Absent: true, Line: 1, Name: "cache.NewLRU", Package: mod, Message: "package example.com/cachemod/cache has no NewLRU"},
				{Kind: UnknownName, Absent: true, Line: 2, Name: "cache.Register", Package: mod, Message: "package example.com/cachemod/cache has no Register"},
			},
		},
		{
			name: "a qualifier with one name the package lacks is that package",
			from: "tools/gen",
			src:  "c := cache.NewLRU(cache.Options{})\nc.Set(\"a\", \"b\")",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 1, Name: "cache.NewLRU", Package: mod,
				Message: "package example.com/cachemod/cache has no NewLRU"}},
		},
		{
			name: "a block of one line that does not parse has nothing left to check",
			from: "cache",
			src:  "type ReplaceFunc (context.Context, cache.Options) bool",
			want: []Issue{{Kind: Syntax, Line: 1, Message: "syntax error: expected ')', found ','"}},
		},
		{
			name: "a name only the line set aside declares is never judged",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nlog := c.Get(\"a\"))\nlog.Purge()\n",
			want: []Issue{{Kind: Syntax, Line: 2, Message: "syntax error: expected statement, found ')'"}},
		},
		{
			name: "program output under a go fence is not code",
			from: "cache",
			src:  "go version go1.23.3 darwin/arm64\nBenchmarkGet-16   42461943   27.88 ns/op",
		},
		{
			name:    ":= of a name an earlier block declared is the carry-over's doing",
			from:    "cache",
			src:     "c := cache.New(cache.Options{Size: 2})\n_ = c",
			prelude: []string{"c := cache.New(cache.Options{})"},
		},
		{
			name:    "a block declaring again what the prelude declared is a scope of its own",
			from:    "cache",
			src:     "v := cache.New(cache.Options{})\nv.Flsh(ctx)",
			prelude: []string{"c := cache.New(cache.Options{})\nv, found := c.Get(\"a\")", "ctx := context.Background()"},
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 2, Name: "Flsh", Package: mod,
				Message: "type *cache.Cache has no field or method Flsh"}},
		},
		{
			name: "duplicate map key",
			from: "cache",
			src:  "m := map[string]int{\"a\": 1, \"a\": 2}\n_ = m",
			want: []Issue{{Kind: Compile, Line: 1, Message: `duplicate key "a" in map literal`}},
		},
		{
			name: "wrong type in a repository struct literal",
			from: "cache",
			src:  "opts := cache.Options{Size: \"10\", Timeout: time.Second}\n_ = opts",
			want: []Issue{{Kind: WrongType, Line: 1, Name: "Options", Package: mod,
				Message: `cannot use "10" (untyped string constant) as int value in struct literal`}},
		},
		{
			name: "pointer where the field holds a value",
			from: "cache",
			src:  "type wrap struct{ c cache.Cache }\nc := cache.Cache{}\nw := wrap{c: &c}\n_ = w",
			want: []Issue{{Kind: WrongType, Line: 3, Name: "Cache", Package: mod,
				Message: `cannot use &c (value of type *cache.Cache) as cache.Cache value in struct literal`}},
		},
		{
			name: "wrong type for a repository variable",
			from: "cache",
			src:  "var k cache.Kind = \"ttl\"\n_ = k",
			want: []Issue{{Kind: WrongType, Line: 1, Name: "Kind", Package: mod,
				Message: `cannot use "ttl" (untyped string constant) as cache.Kind value in variable declaration`}},
		},
		{
			name: "a field of a package docreview did not load is never a wrong type",
			from: "cache",
			src:  "opts := cache.Options{Counter: 3}\n_ = opts",
		},
		{
			name: "a bare name beside the package's qualifier",
			from: "cache",
			src:  "c := cache.New(Options{Size: 1})\nc.Set(\"a\", \"b\")\nvar o Options\n_ = o",
			want: []Issue{{Kind: Unqualified, Line: 1, Name: "Options", Package: mod, Closest: "cache.Options",
				Message: "Options is written bare while the block qualifies package example.com/cachemod/cache's other names as cache.…, so it is undefined where the block is pasted: cache.Options"}},
		},
		{
			// kratos's log README: "log := log.NewHelper(…)" declares a
			// variable whose members it selects later; only the package's
			// qualifier must select the package's names.
			name: "a bare name beside the qualifier, and a variable named like the package",
			from: "cache",
			src:  "cache := cache.New(Options{Size: 1})\ncache.Set(\"a\", \"b\")\nfmt.Println(cache.Hits())",
			want: []Issue{{Kind: Unqualified, Line: 1, Name: "Options", Package: mod, Closest: "cache.Options",
				Message: "Options is written bare while the block qualifies package example.com/cachemod/cache's other names as cache.…, so it is undefined where the block is pasted: cache.Options"}},
		},
		{
			// bubbles's README, at the module root: key.WithKeys, then
			// WithKeys bare.
			name: "a bare name of another package the block qualifies",
			from: "tools/gen",
			src:  "c := cache.New(cache.Options{})\nd := New(Options{Size: 1})\n_, _ = c, d",
			want: []Issue{
				{Kind: Unqualified, Line: 2, Name: "New", Package: mod, Closest: "cache.New",
					Message: "New is written bare while the block qualifies package example.com/cachemod/cache's other names as cache.…, so it is undefined where the block is pasted: cache.New"},
				{Kind: Unqualified, Line: 2, Name: "Options", Package: mod, Closest: "cache.Options",
					Message: "Options is written bare while the block qualifies package example.com/cachemod/cache's other names as cache.…, so it is undefined where the block is pasted: cache.Options"},
			},
		},
		{
			name: "a bare name of another package, beside a method of the reader's type of that name",
			from: "tools/gen",
			src:  "type Options struct{}\n\nfunc (Options) Size() int { return 1 }\n\nvar c = cache.New(cache.Options{})",
		},
		{
			name: "a line of several ellipses is one elision",
			from: "cache",
			src:  "……\nx := cache.New(cache.Options{}, 1)\n_ = x",
			want: []Issue{{Kind: WrongArgs, Line: 2, Name: "cache.New", Package: mod,
				Message: "too many arguments in call to cache.New: have (cache.Options, number), want (cache.Options)"}},
		},
		{
			// go-envconfig's README: "var config Config", then
			// "envconfig.ProcessWith(ctx, &envconfig.Config{Target: &config})".
			name: "a bare type used only to declare a variable is the reader's own",
			from: "cache",
			src:  "var opts Options\nc := cache.New(cache.Options{})\nfmt.Println(c, &opts)",
		},
		{
			name: "bare names alone are written from inside the package",
			from: "cache",
			src:  "c := New(Options{Size: 1})\n_ = c",
		},
		{
			name: "a bare name beside an import of the package under another name",
			from: "cache",
			src:  "import store \"example.com/cachemod/cache\"\n\nc := store.New(Options{})\n_ = c",
			want: []Issue{{Kind: Unqualified, Line: 3, Name: "Options", Package: mod, Closest: "store.Options",
				Message: "Options is written bare while the block qualifies package example.com/cachemod/cache's other names as store.…, so it is undefined where the block is pasted: store.Options"}},
		},
		{
			name: "a qualifier that selects names the package lacks is another package's",
			from: "log",
			src:  "Event(\"start\")\nlog.Fatalf(\"x %d\", 1)",
		},
		{
			name:    "a qualifier only a block before uses does not make the block's bare names wrong",
			from:    "cache",
			prelude: []string{"c := cache.New(cache.Options{})"},
			src:     "d := New(Options{})\n_ = d",
		},
		{
			name: "a standard package's name in other letter case",
			from: ".",
			src:  "if os.GetEnv(\"HOME\") == \"\" {\n}",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 1, Name: "os.GetEnv", Package: "os", Std: true, Closest: "Getenv",
				Message: "package os has no GetEnv"}},
		},
		{
			name: "a name an unimported standard package lacks may be another package's",
			from: ".",
			src:  "var err error\n_ = errors.Wrap(err, \"read\")",
		},
		{
			name: "a name an imported standard package lacks",
			from: ".",
			src:  "package main\n\nimport \"strings\"\n\nfunc main() {\n\t_ = strings.Reverse(\"ab\")\n}\n",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 6, Name: "strings.Reverse", Package: "strings", Std: true,
				Message: "package strings has no Reverse"}},
		},
		{
			name: "a function the block declares, called with too few arguments",
			from: "cache",
			src:  "func load(c *cache.Cache, key string) string {\n\tv, _ := c.Get(key)\n\treturn v\n}\n\nv := load(\"a\")\n_ = v",
			want: []Issue{{Kind: Compile, Line: 6,
				Message: "not enough arguments in call to load: the block declares it with 2 parameters and calls it with 1 argument"}},
		},
		{
			name: "a method of a type the block declares, called with too few arguments",
			from: ".",
			src: "package main\n\nimport \"context\"\n\ntype App struct{}\n\nfunc (a *App) Poll(ctx context.Context) (uint, error) { return 0, nil }\n\n" +
				"func (a *App) Run(ctx context.Context) error {\n\tn, err := a.Poll()\n\t_ = n\n\treturn err\n}\n",
			want: []Issue{{Kind: Compile, Line: 10,
				Message: "not enough arguments in call to a.Poll: the block declares it with 1 parameter and calls it with 0 arguments"}},
		},
		{
			name: "a function literal returning more values than it declares",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nget := func() error {\n\treturn c.Get(\"a\")\n}\n_ = get",
			want: []Issue{{Kind: Compile, Line: 3, Message: "too many return values: have (string, bool), want (error)"}},
		},
		{
			name: "a return of statements returns what the body they come from declares",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nreturn c.Flush(ctx), nil",
			want: []Issue{{Kind: Undeclared, Line: 2, Name: "ctx", Message: "ctx is not declared in the snippet or the code blocks before it"}},
		},
		{
			name: "an undeclared receiver named after the one type with its methods",
			from: ".",
			src:  "_ = cache.MaxSize\nmyCache.Set(\"a\")",
			want: []Issue{{Kind: WrongArgs, Line: 2, Name: "Cache.Set", Package: mod,
				Message: "not enough arguments in call to myCache.Set: have (string), want (string, string)"}},
		},
		{
			name: "an undeclared receiver with one method and no name to go by stays unknown",
			from: ".",
			src:  "_ = cache.MaxSize\nstore.Set(\"a\")",
		},
		{
			name: "an undeclared receiver of the type of the one variable the block declared before",
			from: ".",
			src:  "c := cache.New(cache.Options{})\n_ = c.Hits()\nmyCache.Set(\"a\", \"b\")",
			want: []Issue{{Kind: Compile, Line: 3, Name: "myCache", Package: mod,
				Message: "myCache is declared nowhere; the block declares c, a *cache.Cache, which has every member myCache is used with"}},
		},
		{
			name: "an undeclared receiver beside two variables of its type",
			from: ".",
			src:  "a := cache.New(cache.Options{})\nb := cache.New(cache.Options{})\n_, _ = a, b\nmyCache.Set(\"a\", \"b\")",
		},
		{
			name: "a line of dots stands for code left out, and the rest is checked",
			from: ".",
			src:  "c := cache.New(cache.Options{})\nif c.Hits() > 0 {\n\t....\n}\nc.Purge()",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 5, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "a module type called as a function",
			from: ".",
			src:  "o := cache.Options()\n_ = o",
			want: []Issue{{Kind: Compile, Line: 1, Name: "Options", Package: mod,
				Message: "cache.Options is a type, not a function (a conversion with nothing to convert)"}},
		},
		{
			name: "a literal of the wrong kind passed to a standard function",
			from: ".",
			src:  "r := bytes.NewReader(\"abc\")\n_ = r",
			want: []Issue{{Kind: WrongArgs, Line: 1, Name: "bytes.NewReader", Package: "bytes", Std: true,
				Message: "cannot use \"abc\" (untyped string constant) as []byte value in argument to bytes.NewReader"}},
		},
		{
			name: "a standard function called with an argument too few, its package imported by the block",
			from: ".",
			src:  "package main\n\nimport \"net/http\"\n\nfunc main() {\n\thttp.ListenAndServe(\":8080\")\n}",
			want: []Issue{{Kind: WrongArgs, Line: 6, Name: "http.ListenAndServe", Package: "net/http", Std: true,
				Message: "not enough arguments in call to http.ListenAndServe: have (string), want (string, http.Handler)"}},
		},
		{
			// The checker adds the import of a package named rand: it may
			// be another rand than the one the block means.
			name: "a standard function whose package the block does not import is not judged on its count",
			from: ".",
			src:  "b := make([]byte, 8)\nrand.Read(b, 8)",
		},
		{
			name: "a name that writes the pattern of a family of names",
			from: "cache",
			src:  "ok := cache.HasFoo && cache.FooBar()\n_ = ok",
		},
		{
			name: "a value of the wrong type sent on a channel of a module type",
			from: ".",
			src:  "ch := make(chan cache.Options, 1)\nch <- cache.MaxSize",
			want: []Issue{{Kind: WrongType, Line: 2, Name: "Options", Package: mod,
				Message: "cannot use cache.MaxSize (untyped int constant 100) as cache.Options value in send"}},
		},
		{
			name: "misspelt name of the package, unqualified",
			from: "cache",
			src:  "c := Neww(Options{})\n_ = c",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 1, Name: "cache.Neww", Package: mod, Closest: "New",
				Message: "package example.com/cachemod/cache has no Neww"}},
		},
		{
			name: "an undeclared name close to nothing stays undeclared",
			from: "cache",
			src:  "c := New(Options{})\nc.Set(Key, \"v\")",
			want: []Issue{{Kind: Undeclared, Line: 2, Name: "Key", Message: "Key is not declared in the snippet or the code blocks before it"}},
		},
		{
			name: "import of another major version",
			from: ".",
			src:  "package main\n\nimport \"example.com/cachemod/v2/cache\"\n\nfunc main() { cache.New(cache.Options{}) }\n",
			want: []Issue{{Kind: WrongImport, Line: 3, Name: "example.com/cachemod/v2/cache", Package: mod,
				Message: "the repository has no package example.com/cachemod/v2/cache; it provides example.com/cachemod/cache"}},
		},
		{
			name: "misspelt import path, checked as the package it means",
			from: ".",
			src:  "package main\n\nimport \"example.com/cachmod/cache\"\n\nfunc main() {\n\t_ = cache.New(cache.Options{Sise: 2})\n}\n",
			want: []Issue{
				{Kind: WrongImport, Line: 3, Name: "example.com/cachmod/cache", Package: mod, Closest: mod,
					Message: "the repository has no package example.com/cachmod/cache; it provides example.com/cachemod/cache (the path is misspelt)"},
				{Kind: UnknownMember, Absent: true, Line: 6, Name: "Sise", Package: mod,
					Message: "unknown field Sise in struct literal of type cache.Options"},
			},
		},
		{
			name: "a path far from every package is no misspelling",
			from: ".",
			src:  "package main\n\nimport \"example.com/other/cache\"\n\nfunc main() { cache.New() }\n",
		},
		{
			name: "var with name and type swapped",
			from: "cache",
			src:  "var int size = 2\nc := cache.New(cache.Options{Size: size})\n_ = c",
			want: []Issue{
				{Kind: Compile, Line: 1, Name: "int",
					Message: "var int size declares a variable named int of type size: Go writes the name first, var size int"},
				{Kind: Undeclared, Line: 2, Name: "size", Message: "size is not declared in the snippet or the code blocks before it"},
			},
		},
		{
			name: "a var of a type is no var with name and type swapped",
			from: "cache",
			src:  "var opts Options\nc := New(opts)\n_ = c",
		},
		{
			name: "glued closing fence",
			from: "cache",
			src:  "c := cache.New(cache.Options{\n\tSize: 2,\n})```\n\n## Next section\n",
			want: []Issue{{Kind: Syntax, Line: 3,
				Message: "the closing ``` is glued to the code on this line, so Markdown does not end the block here: it runs on into the text that follows"}},
		},
		{
			name: "placeholders that are not Go are not syntax errors",
			from: "cache",
			src:  "c := cache.New(cache.Options{Size: <size>})\nc.Set(<key>, \"<value>\")\nc.Flush(context.TODO(), 1)",
			want: []Issue{{Kind: WrongArgs, Line: 3, Name: "Cache.Flush", Package: mod,
				Message: "too many arguments in call to c.Flush: have (context.Context, number), want (context.Context)"}},
		},
		{
			name: "a value written as a comment is a placeholder",
			from: "cache",
			src:  "db := // open your store\nc := cache.New(cache.Options{})\nc.Purge()",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 3, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "two files in one block are not a syntax error",
			from: "cache",
			src:  "// a_test.go\n\nimport \"example.com/cachemod/cache\"\n\nvar c = cache.New(cache.Options{})\n\n// b_test.go\n\nimport \"fmt\"\n\nfunc f() { fmt.Println(c) }\n",
		},
		{
			name: "an unqualified name another repository package declares is not a misspelling",
			from: "cache",
			src:  "Event(\"started\")",
			want: []Issue{{Kind: Undeclared, Line: 1, Name: "Event", Message: "Event is not declared in the snippet or the code blocks before it"}},
		},
		{
			name: "a listing of methods is not code",
			from: "cache",
			src:  "c.Get(key string) (string, bool)\nc.Set(key, value string)\nc.Hits() int",
		},
		{
			name: "a listing of literal fields is not code",
			from: "cache",
			src:  "Size:    10,\nTimeout: time.Second,",
		},
		{
			name: "a shell session is not code",
			from: "cache",
			src:  "$ go get example.com/cachemod\n$ cache --help",
		},
		{
			// goproxy's README: "proxy.OnRequest(some ReqConditions).Do(…)".
			name: "an argument written as a phrase is a placeholder",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc.Set(some Key, \"v\")",
		},
		{
			// folio's font tables: "offsets[count] (2 each, relative to
			// subtable)" is a layout, not a call missing its commas.
			name: "a number followed by a word is prose",
			from: "cache",
			src:  "format(2) = 1\ncoverageOff(2)\noffsets[count] (2 each, relative to subtable)",
		},
		{
			// ahocorasick's AGENTS.md lists its API as calls with their
			// results: "b.AddStrings([]string{...}) *Builder".
			name: "a call followed by its result type is a listing",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc.Set(key string, v string) *Cache // sets\nc.Hits() int",
		},
		{
			// The same words inside a string or a comment are code's.
			name: "a number and a word in a string stay code",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc.Set(\"2 each\" \"v\") // 2 each",
			want: []Issue{{Kind: Syntax, Line: 2, Message: "syntax error: missing ',' in argument list"}},
		},
		{
			// benthos's cuegen notes end with "&ast.Field{…},".
			name: "an element lifted out of a list keeps its comma",
			from: "cache",
			src:  "o := cache.Options{Size: 1}\n&cache.Options{\n\tSize: o.Size,\n\tTTL:  2,\n},",
			want: []Issue{{Kind: UnknownMember, Line: 4, Name: "TTL", Package: mod, Absent: true,
				Message: "unknown field TTL in struct literal of type cache.Options"}},
		},
		{
			// bloom's README: "if filter.Test([]byte("Love"))".
			name: "a condition without its body is no syntax error",
			from: "cache",
			src:  "if c.Hits() > 0",
		},
		{
			// ff's README opens main and the next block goes on inside.
			name: "a body left open is closed and checked",
			from: "cache",
			src:  "func main() {\n\tc := cache.New(cache.Options{})\n\tc.Purge()",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 3, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "a syntax error on a line with an ellipsis is a placeholder",
			from: "cache",
			src:  "c := cache.New(cache.Options{Size: 2 ... })",
		},
		{
			// A doc comment's parameter declared by the prelude: a
			// copied example may mean another type of that name.
			name:    "a prelude variable that does not implement an interface",
			from:    "cache",
			prelude: []string{"var c *cache.Cache\nfunc _() {}"},
			src:     "var s cache.Store = c\n_ = s",
		},
		{
			name: "type no longer implements an interface",
			from: "cache",
			src:  "var s cache.Store = cache.New(cache.Options{})\n_ = s",
			want: []Issue{{Kind: UnknownMember, Line: 1, Name: "Delete", Package: mod,
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
			want: []Issue{
				{Kind: MissingImport, Line: 6, Name: "cache", Package: mod,
					Message: `cache is used without importing "example.com/cachemod/cache"`},
				{Kind: MissingImport, Line: 8, Name: "strings", Package: "strings",
					Message: `strings is used without importing "strings"`},
			},
		},
		{
			// The module's log and the standard library's both declare
			// Printf: the module's is named, the other mentioned.
			name: "missing import that the standard library could fill too",
			from: ".",
			src:  "package main\n\nimport \"os\"\n\nfunc main() {\n\tlog.Printf(\"started\")\n\tos.Exit(0)\n}\n",
			want: []Issue{{Kind: MissingImport, Line: 6, Name: "log", Package: "example.com/cachemod/log", Also: "log",
				Message: `log is used without importing "example.com/cachemod/log" (or "log")`}},
		},
		{
			name: "fragment with some imports: the others are implied",
			from: ".",
			src:  "import \"fmt\"\n\nc := cache.New(cache.Options{})\nfmt.Println(c)\n",
		},
		{
			name: "file with an elision among its declarations: the imports it omits are implied",
			from: ".",
			src:  "package main\n\nimport (\n\t\"fmt\"\n\t// ...\n)\n\nfunc main() {\n\tc := cache.New(cache.Options{})\n\tfmt.Println(c)\n}\n",
		},
		{
			name: "file with an elision inside a body still declares its imports",
			from: ".",
			src:  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tc := cache.New(cache.Options{})\n\t// ... use c ...\n\tfmt.Println(c)\n}\n",
			want: []Issue{{Kind: MissingImport, Line: 6, Name: "cache", Package: mod,
				Message: `cache is used without importing "example.com/cachemod/cache"`}},
		},
		{
			// go-libvirt's vendored go-xdr README imports
			// "github.com/davecgh/go-xdr/xdr2", package xdr: a package
			// not loaded may be the one a name stands for.
			name: "file importing a package not loaded: its name is unknown",
			from: ".",
			src:  "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.org/notloaded/cache2\"\n)\n\nfunc main() {\n\tc := cache.New(cache.Options{})\n\tfmt.Println(c, strings.ToUpper(\"a\"))\n}\n",
			want: []Issue{{Kind: MissingImport, Line: 11, Name: "strings", Package: "strings",
				Message: `strings is used without importing "strings"`}},
		},
		{
			// gock's README imports "gopkg.in/h2non/gock.v1", uses it as
			// gock, and calls st.Expect without importing st.
			name: "file importing a package not loaded that it uses: other names still need imports",
			from: ".",
			src:  "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.org/notloaded/cache2\"\n)\n\nfunc main() {\n\tfmt.Println(cache2.Value, cache.New(cache.Options{}))\n}\n",
			want: []Issue{{Kind: MissingImport, Line: 10, Name: "cache", Package: mod,
				Message: `cache is used without importing "example.com/cachemod/cache"`}},
		},
		{
			name: "file with an elision among a struct's fields still declares its imports",
			from: ".",
			src:  "package main\n\nimport \"fmt\"\n\ntype handler struct {\n\t// ... fields\n}\n\nfunc main() {\n\tc := cache.New(cache.Options{})\n\tfmt.Println(c, handler{})\n}\n",
			want: []Issue{{Kind: MissingImport, Line: 10, Name: "cache", Package: mod,
				Message: `cache is used without importing "example.com/cachemod/cache"`}},
		},
		{
			name: "file with an elision between its declarations: the imports it omits are implied",
			from: ".",
			src:  "package main\n\nimport \"fmt\"\n\n// ...\n\nfunc main() {\n\tc := cache.New(cache.Options{})\n\tfmt.Println(c)\n}\n",
		},
		{
			name: "fragment without imports: packages are implied",
			from: ".",
			src:  "c := cache.New(cache.Options{})\nfmt.Println(c)\n",
		},
		{
			// The go tool ignores _examples and testdata; the repository
			// may hold such a package, which is not loaded.
			name: "imports of directories the go tool ignores",
			from: ".",
			src:  "package main\n\nimport (\n\t\"example.com/cachemod/_examples/todo\"\n\t\"example.com/cachemod/cache/testdata/gen\"\n)\n\nfunc main() { todo.X(); gen.Y() }\n",
		},
		{
			name: "imports that do not resolve",
			from: ".",
			src:  "package main\n\nimport (\n\t\"example.com/cachemod/nope\"\n\t\"fmtx\"\n)\n\nfunc main() { nope.X(); fmtx.Y() }\n",
			want: []Issue{
				{Kind: UnknownName, Line: 4, Name: "example.com/cachemod/nope", Package: "example.com/cachemod/nope", Absent: true,
					Message: "the repository has no package example.com/cachemod/nope"},
				{Kind: UnknownName, Line: 5, Name: "fmtx", Package: "fmtx", Closest: "fmt",
					Message: "the standard library has no package fmtx (closest: fmt)"},
			},
		},
		{
			// goqu's doc imports ".../adapters/postgres" in a fragment;
			// its one package named postgres is ".../dialect/postgres".
			name: "a fragment's import of a package the repository lacks, one package of that name",
			from: ".",
			src:  "import (\n\t\"fmt\"\n\t_ \"example.com/cachemod/adapters/cache\"\n)\n\nfunc main() { fmt.Println(1) }",
			want: []Issue{{Kind: UnknownName, Line: 3, Name: "example.com/cachemod/adapters/cache", Package: "example.com/cachemod/adapters/cache",
				Absent: true, Closest: mod,
				Message: "the repository has no package example.com/cachemod/adapters/cache; its one package named cache is example.com/cachemod/cache"}},
		},
		{
			// Without a dot the path looks like the standard library's,
			// but nothing there is close: it is the reader's package.
			name: "a placeholder import path",
			from: ".",
			src:  "package main\n\nimport (\n\t\"your/app/package/tasks\"\n)\n\nfunc main() { tasks.Run() }\n",
		},
		{
			name:    "fragment with prelude",
			from:    "cache",
			src:     "c.Set(\"a\", \"b\")\nc.Flush(ctx)\nc.Flush(ctx, 1)",
			prelude: []string{"import \"example.com/cachemod/cache\"\n\nc := cache.New(cache.Options{})", "ctx := context.Background()"},
			want: []Issue{{Kind: WrongArgs, Line: 3, Name: "Cache.Flush", Package: mod,
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
			want: []Issue{
				{Kind: Undeclared, Line: 1, Name: "opts", Message: "opts is not declared in the snippet or the code blocks before it"},
				{Kind: Undeclared, Line: 2, Name: "ctx", Message: "ctx is not declared in the snippet or the code blocks before it"},
			},
		},
		{
			name: "placeholders",
			from: "cache",
			src:  "c := cache.New(...)\nc.Set(...)\n...\nc.Flush(ctx, …)\nc.Flush(context.TODO(), 2)\nl := cache.List[int]{...}\n_ = l",
			want: []Issue{{Kind: WrongArgs, Line: 5, Name: "Cache.Flush", Package: mod,
				Message: "too many arguments in call to c.Flush: have (context.Context, number), want (context.Context)"}},
		},
		{
			name: "a method a type lacks, called with elided arguments",
			from: "cache",
			src:  "c := cache.New(...)\nc.Purgee(...)\ncache.Neww(...).Flush(...)\nc.Flush(...).Zap()",
			want: []Issue{
				{Kind: UnknownMember, Absent: true, Line: 2, Name: "Purgee", Package: mod, Message: "type *cache.Cache has no field or method Purgee"},
				{Kind: UnknownName, Absent: true, Line: 3, Name: "cache.Neww", Package: mod, Message: "package example.com/cachemod/cache has no Neww"},
			},
		},
		{
			name: "in-package example body",
			from: "cache",
			src:  "c := New(Options{})\nc.Flush(context.Background())\n_ = newMemStore()\nc.Zap()",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 4, Name: "Zap", Package: mod,
				Message: "type *cache.Cache has no field or method Zap"}},
		},
		{
			name: "declarations fragment",
			from: "cache",
			src:  "type wrapper struct{ c *cache.Cache }\n\nfunc (w wrapper) Clear() error { return w.c.Purge(nil) }",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 3, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "functions mixed with statements",
			from: "cache",
			src: "func handler(w http.ResponseWriter, r *http.Request) {\n\tc := cache.New(cache.Options{})\n\tc.Purge(r.Context())\n}\n\n" +
				"http.HandleFunc(\"/\", handler)\nhttp.ListenAndServe(\":8080\", nil, 1)",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 3, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "a type, its method and statements in one block",
			from: "cache",
			src: "type keyStore struct{}\n\nfunc (keyStore) Get(key string) (string, bool) { return \"\", false }\n" +
				"func (keyStore) Put(key, value string) error { return nil }\n" +
				"func (keyStore) Delete(ctx context.Context, pattern string) error { return nil }\n\n" +
				"var s cache.Store = keyStore{}\n_ = s\nc := cache.New(cache.Options{})\nc.Purge()",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 10, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "unexported name of another package",
			from: "tools/gen",
			src:  "_ = cache.newMemStore()",
			want: []Issue{{Kind: UnknownName, Line: 1, Name: "cache.newMemStore", Package: mod,
				Message: "cache.newMemStore is not exported by package example.com/cachemod/cache"}},
		},
		{
			name: "syntax error",
			from: "cache",
			src:  "c := cache.New(cache.Options{)\n",
			want: []Issue{{Kind: Syntax, Line: 1, Message: "syntax error: expected operand, found ')'"}},
		},
		{
			name: "syntax error in declarations",
			from: "cache",
			src:  "func main() {\n\tc := cache.New(\n}\n",
			want: []Issue{{Kind: Syntax, Line: 3, Message: "syntax error: expected operand, found '}'"}},
		},
		{
			name: "syntax error in the statements beside a func",
			from: "cache",
			src:  "func newCache() *cache.Cache {\n\treturn cache.New(cache.Options{})\n}\n\nfmt.Println(newCache()))\n",
			want: []Issue{{Kind: Syntax, Line: 5, Message: "syntax error: expected statement, found ')'"}},
		},
		{
			name: "declaration with another language's keyword",
			from: "cache",
			src:  "// A named type for all marks.\ntype fromConfigType int\nval fromConfig fromConfigType\n\n_ = cache.New(cache.Options{})\n",
			want: []Issue{{Kind: Syntax, Line: 3, Message: "syntax error: expected ';', found fromConfig"}},
		},
		{
			// A line of words is output or prose under a go fence.
			name: "line of words beside code",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nhello world\n",
		},
		{
			name: "standard library misuse in a block that imports nothing: a name fmt lacks, a literal of the wrong kind, not a conversion",
			from: "cache",
			src:  "fmt.Printlnx(1)\nstrings.ToUpper(1)\nvar r io.Reader = 3\n_ = r",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 1, Name: "fmt.Printlnx", Package: "fmt", Std: true,
				Message: "package fmt has no Printlnx"}, {Kind: WrongArgs, Line: 2, Name: "strings.ToUpper", Package: "strings", Std: true,
				Message: "cannot use 1 (untyped int constant) as string value in argument to strings.ToUpper"}},
		},
		{
			name: "a standard function of a package only the standard library names, called with too few arguments, in a block that imports nothing",
			from: "cache",
			src:  "parts := strings.Split(\"a,b\")\n_ = parts\n_, _ = json.Marshall(parts)\nrand.Shuffle(3)",
			want: []Issue{{Kind: WrongArgs, Line: 1, Name: "strings.Split", Package: "strings", Std: true,
				Message: "not enough arguments in call to strings.Split: have (string), want (string, string)"}},
		},
		{
			name: "a literal of the wrong kind passed to a function of a qualifier the module's packages share",
			from: "cache",
			src:  "log.Fatalf(1)",
		},
		{
			name: "repository package named like a standard one",
			from: "cache",
			src:  "log.Event(\"started\")\nlog.Evnt(\"started\")",
			want: []Issue{{Kind: UnknownName, Absent: true, Line: 2, Name: "log.Evnt", Package: "example.com/cachemod/log",
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
			// A contributor's pattern written inside the package: methods
			// of its types, its unexported fields.
			name: "the package's own source is not judged from outside",
			from: "cache",
			src:  "func (c *Cache) Reset() {\n\tc.items = nil\n\tc.Purge()\n}",
		},
		{
			// go-kit's log/level doc: "var logger log.Logger" beside
			// level.NewFilter, in a package with a type logger.
			name: "a variable named like the package's, in statements that qualify the package",
			from: "cache",
			src:  "var defaultTTL time.Duration\nc := cache.New(cache.Options{Timeout: defaultTTL})\nc.Purge()",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 3, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			// Without the qualifier, the same variable is the package's.
			name: "a variable of the package's, in statements that do not qualify it",
			from: "cache",
			src:  "var defaultTTL time.Duration\nc := New(Options{Timeout: defaultTTL})\nc.Purge()",
		},
		{
			// Wrong on purpose, to show that the block is checked at all.
			name: "a method of the reader's own type beside the package's",
			from: "cache",
			src:  "type mine struct{}\nfunc (mine) Reset() {\n\tc := New(Options{})\n\tc.Purge()\n}",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 4, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			// A listing of the package's Options is no declaration of a
			// new type for the blocks after it.
			name:    "a listing of the package's type is no prelude",
			from:    "cache",
			prelude: []string{"type Options struct {\n\tSize int\n}"},
			src:     "c := New(Options{Size: 1})\nc.Set(\"a\", \"b\")",
		},
		{
			name: "a type the block writes methods for is the reader's",
			from: "cache",
			src:  "func (Cache1) Get(key string) string {\n\treturn key\n}",
			want: []Issue{{Kind: Undeclared, Line: 1, Name: "Cache1",
				Message: "Cache1 is not declared in the snippet or the code blocks before it"}},
		},
		{
			// Two alternatives that both name their result v: the second
			// reuses the first's variable, of another type.
			name: "a gallery that reuses a variable",
			from: "cache",
			src:  "n := cache.Kind(1)\nfmt.Println(n)\nn, err := strconv.Atoi(\"2\")\nfmt.Println(err, []int{n})",
		},
		{
			name: "a wrong argument in a gallery",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nres, ok := c.Get(\"a\")\nres, ok := c.Get(1)\nfmt.Println(res, ok)",
			want: []Issue{{Kind: WrongArgs, Line: 3, Name: "Cache.Get", Package: mod,
				Message: "cannot use 1 (untyped int constant) as string value in argument to c.Get"}},
		},
		{
			name: "signatures without bodies beside statements",
			from: "cache",
			src:  "func load() (string, error)\n\nc := cache.New(cache.Options{})\nv, err := load()\nc.Set(\"k\", v)\nc.Purge(err)",
			want: []Issue{{Kind: UnknownMember, Absent: true, Line: 6, Name: "Purge", Package: mod,
				Message: "type *cache.Cache has no field or method Purge"}},
		},
		{
			name: "the result of a function without results",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nok := c.Set(\"a\", \"b\")\nfmt.Println(ok)",
			want: []Issue{{Kind: Compile, Line: 2, Name: "Cache.Set", Package: mod,
				Message: `c.Set("a", "b") (no value) used as value`}},
		},
		{
			name: "type arguments the call does not give",
			from: "cache",
			src:  "ys := cache.Map([]int{1}, nil)\nfmt.Println(ys)",
			want: []Issue{{Kind: WrongArgs, Line: 1, Name: "cache.Map", Package: mod,
				Message: "in call to cache.Map, cannot infer U"}},
		},
		{
			name: "an argument that does not fit the inferred types",
			from: "cache",
			src:  "ys := cache.Map([]string{\"a\"}, strconv.Itoa)\nfmt.Println(ys)",
			want: []Issue{{Kind: WrongArgs, Line: 1, Name: "cache.Map", Package: mod,
				Message: "in call to cache.Map, type func(i int) string of strconv.Itoa does not match inferred type func(string) U for func(T) U"}},
		},
		{
			name: "inference left to an undeclared input",
			from: "cache",
			src:  "ys := cache.Map(items, nil)\nfmt.Println(ys)",
			want: []Issue{{Kind: Undeclared, Line: 1, Name: "items",
				Message: "items is not declared in the snippet or the code blocks before it"}},
		},
		{
			// An elided argument declares nothing: a name used beside it
			// is as undeclared as anywhere.
			name: "a name declared nowhere inside a call with elided arguments",
			from: "cache",
			src:  "type result struct{ C *cache.Cache }\n\nfmt.Println(func(...) (Result, error) {\n\treturn Result{C: cache.New(...)}, nil\n})",
			want: []Issue{{Kind: Undeclared, Line: 3, Name: "Result",
				Message: "Result is not declared in the snippet or the code blocks before it"}},
		},
		{
			// Elided statements before it may declare it.
			name: "a name after elided statements",
			from: "cache",
			src:  "...\nfmt.Println(c.Get(...))",
		},
		{
			// Go scopes imports by file: an earlier block of imports only
			// imports for a block of declarations too, and a bare name of
			// the package it imports under another name is undefined.
			name:    "a declarations block under an earlier block of imports",
			from:    "cache",
			prelude: []string{"import store \"example.com/cachemod/cache\""},
			src:     "func main() {\n\tc := store.New(Options{})\n\tc.Flush(context.Background())\n}",
			want: []Issue{{Kind: Unqualified, Line: 2, Name: "Options", Package: mod, Closest: "store.Options",
				Message: "Options is written bare while the block qualifies package example.com/cachemod/cache's other names as store.…, so it is undefined where the block is pasted: store.Options"}},
		},
		{
			// The package's Map is a func: a literal of type Map is of
			// the reader's own type, not the package's written bare.
			name: "a literal of a type named like a func of the package",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nfmt.Println(c, Map{})",
		},
		{
			// oops's doc: "func getUser(id string) (User, error)" beside
			// oops.Wrap2, oops's User being a func.
			name: "a result of a type named like a func of the package",
			from: "cache",
			src:  "func load(id string) (Map, error) {\n\tc := cache.New(cache.Options{})\n\tfmt.Println(c)\n\treturn nil, nil\n}",
		},
		{
			// pair() may return the two values Set takes.
			name: "a lone call of unknown type as the arguments",
			from: "cache",
			src:  "c := cache.New(cache.Options{})\nc.Set(pair())",
			want: []Issue{{Kind: Undeclared, Line: 2, Name: "pair",
				Message: "pair is not declared in the snippet or the code blocks before it"}},
		},
		{
			// A literal's type is close to a type only, not to the func New.
			name: "a literal of a type one edit from a func",
			from: "cache",
			src:  "x := &Neu{A: 1}\nfmt.Println(x)",
			want: []Issue{{Kind: Undeclared, Line: 1, Name: "Neu",
				Message: "Neu is not declared in the snippet or the code blocks before it"}},
		},
		{
			// Statements left out and a value they would declare: the
			// file shows the imports it is about.
			name: "a complete file that leaves statements out",
			from: ".",
			src:  "package main\n\nimport \"example.com/cachemod/cache\"\n\nfunc main() {\n\t// ...\n\tc := cache.New(opts)\n\tfmt.Println(c)\n}\n",
			want: []Issue{{Kind: Undeclared, Line: 7, Name: "opts",
				Message: "opts is not declared in the snippet"}},
		},
		{
			name: "empty",
			from: "cache",
			src:  "  \n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(t.Context(), s, tt.from, tt.src, tt.prelude)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check (-want +got):\n%s", diff)
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
		"func (s *Svc) Get(ctx context.Context, ...) error {": "func (s *Svc) Get(ctx context.Context, _elided ...any) error {",
		"h := func(w http.ResponseWriter, ...) {":             "h := func(w http.ResponseWriter, _elided ...any) {",
		"func Get[T any](c *C, ...) T {":                      "func Get[T any](c *C, _elided ...any) T {",
		"x := f(func() {}, ...)":                              "x := f(func() {}, _elided)",
		"run(ctx, ...)":                                       "run(ctx, _elided)",
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

func TestSnipFirstWordOf(t *testing.T) {
	for _, tc := range []struct {
		name, tname string
		want        bool
	}{
		{"proxy", "ProxyHttpServer", true},
		{"Proxy", "ProxyHttpServer", true},
		{"pro", "ProxyHttpServer", false},  // too short to say
		{"http", "ProxyHttpServer", false}, // not the first word
		{"proxy", "Proxy", false},          // the whole name: a suffix, matched elsewhere
		{"proxy", "Proxying", false},       // not a word of it
		{"client", "Client2Options", true}, // a digit starts the next word
	} {
		if got := snipFirstWordOf(tc.name, tc.tname); got != tc.want {
			t.Errorf("snipFirstWordOf(%q, %q) = %v, want %v", tc.name, tc.tname, got, tc.want)
		}
	}
}

func TestSnipDropped(t *testing.T) {
	tests := []struct {
		msg  string
		want bool
	}{
		{"declared and not used: x", true},
		{"cannot use jsonpath.Language() (value with invalid type) as gval.Language value in argument to gval.Evaluate", true},
		{"cannot use x (variable of invalid type) as int value in assignment", true},
		{"cannot use c.NewStatsdCollector (value of type func(name string) invalid type) as func(string) metricCollector.MetricCollector value in argument to metricCollector.Registry.Register", true},
		{"invalid composite literal type T", false},
		{"too many arguments in call to q.Where(\"sex = ?\", \"f\").Count\n\thave (*invalid type, string)\n\twant (interface{})", false},
		{"cannot use 21 (untyped int constant) as bob.Expression value in argument to x.GTE", false},
		{"assignment mismatch: 1 variable but tpl.Parse returns 2 values", false},
	}
	for _, tt := range tests {
		if got := snipDropped(tt.msg); got != tt.want {
			t.Errorf("snipDropped(%q) = %v, want %v", tt.msg, got, tt.want)
		}
	}
}

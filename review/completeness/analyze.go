package completeness

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/printer"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
)

// Analyze extracts the facts of the exported funcs, methods (of exported
// types) and types of the packages in pkgDirs (directories relative to the
// repository root, as [retrieval.Package.Dir]; nil means every package of
// syms) and decides which of them each doc comment states. Packages named
// main, declarations in test files and Test, Benchmark, Fuzz and Example
// funcs are left out; a directory that holds no package is an error.
// Errors are traced through the callees of every package of syms, so
// callees in packages outside pkgDirs count too. Symbols come sorted by
// package directory, then path and line. It fails only on an unknown
// directory or when ctx ends.
func Analyze(ctx context.Context, syms *retrieval.Symbols, pkgDirs []string) ([]Symbol, error) {
	var pkgs []*retrieval.Package
	if pkgDirs == nil {
		pkgs = syms.Packages()
	} else {
		for _, d := range pkgDirs {
			p := syms.Package(d)
			if p == nil {
				return nil, fmt.Errorf("completeness: no Go package in %s", d)
			}
			pkgs = append(pkgs, p)
		}
		slices.SortFunc(pkgs, func(a, b *retrieval.Package) int { return strings.Compare(a.Dir, b.Dir) })
		pkgs = slices.Compact(pkgs)
	}
	a := newAnalyzer(syms)
	var out []Symbol
	for _, p := range pkgs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("completeness: %w", err)
		}
		if p.Name == "main" || p.Info == nil || p.Types == nil {
			continue
		}
		out = append(out, a.packageSymbols(p)...)
	}
	return out, nil
}

// funcSrc is a function declaration with the package holding it.
type funcSrc struct {
	decl *ast.FuncDecl
	pkg  *retrieval.Package
}

// analyzer holds what the analysis of one [Symbols] shares: the
// declarations of every func and method, and the errors each returns.
type analyzer struct {
	decls map[*types.Func]funcSrc
	// errs memoizes errorsOf by function and remaining depth.
	errs map[errKey][]Fact
	// busy guards against recursion through cycles of calls.
	busy map[*types.Func]bool
}

type errKey struct {
	fn    *types.Func
	depth int
}

func newAnalyzer(syms *retrieval.Symbols) *analyzer {
	a := &analyzer{
		decls: make(map[*types.Func]funcSrc),
		errs:  make(map[errKey][]Fact),
		busy:  make(map[*types.Func]bool),
	}
	for _, p := range syms.Packages() {
		if p.Info == nil {
			continue
		}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if fn, ok := p.Info.Defs[fd.Name].(*types.Func); ok {
					a.decls[fn] = funcSrc{decl: fd, pkg: p}
				}
			}
		}
	}
	return a
}

// packageSymbols returns the exported symbols of p with their facts.
func (a *analyzer) packageSymbols(p *retrieval.Package) []Symbol {
	var out []Symbol
	for _, f := range p.Syntax {
		file := p.Fset.Position(f.Package).Filename
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if s, ok := a.funcSymbol(p, d); ok {
					out = append(out, s)
				}
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, spec := range d.Specs {
					ts := spec.(*ast.TypeSpec)
					if !ts.Name.IsExported() {
						continue
					}
					out = append(out, a.typeSymbol(p, d, ts))
				}
			}
		}
	}
	slices.SortStableFunc(out, func(x, y Symbol) int {
		if c := strings.Compare(x.Path, y.Path); c != 0 {
			return c
		}
		return x.Line - y.Line
	})
	return out
}

// funcSymbol returns the symbol of an exported func or of a method of an
// exported type.
func (a *analyzer) funcSymbol(p *retrieval.Package, d *ast.FuncDecl) (Symbol, bool) {
	if !d.Name.IsExported() {
		return Symbol{}, false
	}
	name, kind := d.Name.Name, "func"
	if d.Recv != nil && len(d.Recv.List) > 0 {
		recv := retrieval.ReceiverTypeName(d.Recv.List[0].Type)
		if !ast.IsExported(recv) {
			return Symbol{}, false
		}
		name, kind = recv+"."+name, "method"
	} else {
		for _, pre := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if strings.HasPrefix(name, pre) {
				return Symbol{}, false
			}
		}
	}
	fn, ok := p.Info.Defs[d.Name].(*types.Func)
	if !ok {
		return Symbol{}, false
	}
	pos := p.Fset.Position(d.Pos())
	s := Symbol{
		Package: p.ImportPath, Name: name, Kind: kind,
		Path: pos.Filename, Line: pos.Line,
		Doc: d.Doc.Text(),
	}
	s.Facts = a.funcFacts(p, d, fn)
	if deprecated(s.Doc) {
		s.Facts = append(s.Facts, Fact{Kind: KindDeprecated, Name: name, Path: s.Path, Line: docLine(p, d.Doc, pos.Line), EndLine: docEndLine(p, d.Doc, pos.Line)})
	}
	bare := *d
	bare.Doc = nil
	s.finish(p.Fset, &bare)
	return s, true
}

// typeSymbol returns the symbol of an exported type.
func (a *analyzer) typeSymbol(p *retrieval.Package, g *ast.GenDecl, ts *ast.TypeSpec) Symbol {
	doc := ts.Doc
	if doc == nil && len(g.Specs) == 1 {
		doc = g.Doc
	}
	pos := p.Fset.Position(ts.Pos())
	s := Symbol{
		Package: p.ImportPath, Name: ts.Name.Name, Kind: "type",
		Path: pos.Filename, Line: pos.Line, Doc: doc.Text(),
	}
	if f, ok := mutexField(p, ts); ok {
		s.Facts = append(s.Facts, f)
	}
	if deprecated(s.Doc) {
		s.Facts = append(s.Facts, Fact{Kind: KindDeprecated, Name: s.Name, Path: s.Path, Line: docLine(p, doc, pos.Line), EndLine: docEndLine(p, doc, pos.Line)})
	}
	bare := *ts
	bare.Doc, bare.Comment = nil, nil
	s.finish(p.Fset, &bare)
	return s
}

// finish decides which facts the doc states and counts the tokens.
func (s *Symbol) finish(fset *token.FileSet, node ast.Node) {
	if s.Facts == nil {
		s.Facts = []Fact{} // [] in JSON
	}
	s.Stated = make([]bool, len(s.Facts))
	for i, f := range s.Facts {
		s.Stated[i] = Stated(s.Doc, f)
	}
	s.DocTokens = len(strings.Fields(s.Doc))
	s.CodeTokens = codeTokens(fset, node)
}

// codeTokens counts the Go tokens of node printed without comments,
// leaving out the semicolons the scanner inserts.
func codeTokens(fset *token.FileSet, node ast.Node) int {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, node); err != nil {
		return 0
	}
	src := buf.Bytes()
	var sc scanner.Scanner
	fs := token.NewFileSet()
	sc.Init(fs.AddFile("", -1, len(src)), src, nil, 0)
	n := 0
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return n
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		n++
	}
}

// deprecated reports whether a doc comment has a paragraph starting with
// "Deprecated: ", as the go tool recognises it.
func deprecated(doc string) bool {
	for _, para := range strings.Split(doc, "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "Deprecated: ") {
			return true
		}
	}
	return false
}

func docLine(p *retrieval.Package, doc *ast.CommentGroup, fallback int) int {
	if doc == nil {
		return fallback
	}
	return p.Fset.Position(doc.Pos()).Line
}

func docEndLine(p *retrieval.Package, doc *ast.CommentGroup, fallback int) int {
	if doc == nil {
		return fallback
	}
	return p.Fset.Position(doc.End()).Line
}

// mutexField returns the lock fact of a struct type holding a sync.Mutex or
// sync.RWMutex field (not a pointer), named or embedded.
func mutexField(p *retrieval.Package, ts *ast.TypeSpec) (Fact, bool) {
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return Fact{}, false
	}
	for _, field := range st.Fields.List {
		if !isMutex(p.Info.TypeOf(field.Type)) {
			continue
		}
		name := types.ExprString(field.Type)
		if len(field.Names) > 0 {
			name = field.Names[0].Name
		}
		pos := p.Fset.Position(field.Pos())
		return Fact{Kind: KindLock, Name: name, Path: pos.Filename, Line: pos.Line, EndLine: pos.Line}, true
	}
	return Fact{}, false
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex.
func isMutex(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

// funcName names fn for Hops: "parse", "Cache.get", or with its package
// name when it is not from pkg ("strconv.ParseInt").
func funcName(fn *types.Func, from *types.Package) string {
	name := fn.Name()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil && fn.Pkg() != from || from == nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

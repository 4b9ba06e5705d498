package retrieval

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// symMaxDepth bounds [Symbols.Callees].
const symMaxDepth = 2

// symGraph is the static call graph of the repository's non-test code.
type symGraph struct {
	callees map[*Symbol][]*Symbol
	callers map[*Symbol][]*Symbol
}

// symUse is one use of a symbol.
type symUse struct {
	path string
	line int
	encl *Symbol
	test bool
}

// Definition returns where sym is declared, with Why "defines <name>"
// ("defines package cache" for a package). Standard library symbols have
// no Path.
func (s *Symbols) Definition(sym Symbol) Ref {
	what := sym.Name
	if sym.Kind == SymbolPackage {
		what = "package " + sym.Name
	}
	return Ref{
		Symbol: sym, Path: sym.Path, Line: sym.Line, EndLine: sym.EndLine,
		Why: "defines " + what, Hops: []string{sym.Name},
	}
}

// Callees returns the functions and methods of the repository that sym's
// body calls or takes as a value, directly (depth 1) or through one more
// function (depth 2; depth is clamped to 1..2). A call of a method of an
// interface declared in the repository reaches the interface method and
// the methods of every repository type implementing the interface. Each
// callee appears once, at its shortest distance, with Why "callee of
// <caller>" and Hops from sym to it. Sorted by path and line; nil when sym
// has no body or is not a repository symbol.
func (s *Symbols) Callees(sym Symbol, depth int) []Ref {
	start := s.canonical(sym)
	if start == nil {
		return nil
	}
	depth = min(max(depth, 1), symMaxDepth)
	g := s.callGraph()
	type item struct {
		sym  *Symbol
		hops []string
	}
	seen := map[*Symbol]bool{start: true}
	frontier := []item{{start, []string{start.Name}}}
	var refs []Ref
	for range depth {
		var next []item
		for _, it := range frontier {
			for _, c := range g.callees[it.sym] {
				if seen[c] {
					continue
				}
				seen[c] = true
				hops := append(slices.Clip(it.hops), s.hopName(c, start))
				refs = append(refs, Ref{
					Symbol: *c, Path: c.Path, Line: c.Line, EndLine: c.EndLine,
					Why: "callee of " + it.hops[len(it.hops)-1], Hops: hops,
				})
				next = append(next, item{c, hops})
			}
		}
		frontier = next
	}
	symSortRefs(refs)
	return refs
}

// Callers returns the functions and methods of the repository's non-test
// code that call sym or take it as a value (for a method implementing a
// repository interface, also the callers of the interface method), with
// Why "caller of <name>". Sorted by path and line.
func (s *Symbols) Callers(sym Symbol) []Ref {
	target := s.canonical(sym)
	if target == nil {
		return nil
	}
	var refs []Ref
	for _, c := range s.callGraph().callers[target] {
		refs = append(refs, Ref{
			Symbol: *c, Path: c.Path, Line: c.Line, EndLine: c.EndLine,
			Why: "caller of " + target.Name, Hops: []string{target.Name, s.hopName(c, target)},
		})
	}
	symSortRefs(refs)
	return refs
}

// Tests returns the Test, Benchmark and Fuzz functions of the repository's
// _test.go files (in-package and external test packages) whose bodies
// refer to sym, with Why "test that calls <name>" for functions and
// methods and "test that uses <name>" for other symbols; for a package
// symbol, every test of the package ("test of package <name>"). Sorted by
// path and line.
func (s *Symbols) Tests(sym Symbol) []Ref {
	target := s.canonical(sym)
	if target == nil {
		return nil
	}
	s.loadTests()
	why := "test that uses " + target.Name
	switch target.Kind {
	case SymbolFunc, SymbolMethod:
		why = "test that calls " + target.Name
	case SymbolPackage:
		why = "test of package " + target.Name
	}
	pos := s.posOf(target)
	var refs []Ref
	for _, p := range s.pkgs {
		for _, tf := range p.testFuncs {
			if symTestKind(tf.sym.Name) == "Example" {
				continue
			}
			if target.Kind == SymbolPackage && p != target.Package || target.Kind != SymbolPackage && !tf.refs[pos] {
				continue
			}
			refs = append(refs, s.testRef(tf, target, why))
		}
	}
	symSortRefs(refs)
	return refs
}

// Examples returns the Example functions that refer to sym or are named
// for it (ExampleCache_Purge, ExampleNew_options; Example and
// Example_suffix for a package), with Why "example of <name>". Sorted by
// path and line.
func (s *Symbols) Examples(sym Symbol) []Ref {
	target := s.canonical(sym)
	if target == nil {
		return nil
	}
	s.loadTests()
	pos := s.posOf(target)
	var refs []Ref
	for _, p := range s.pkgs {
		for _, tf := range p.testFuncs {
			if symTestKind(tf.sym.Name) != "Example" {
				continue
			}
			named := p == target.Package && symExampleTarget(tf.sym.Name) == symIfPkg(target)
			if !named && (target.Kind == SymbolPackage || !tf.refs[pos]) {
				continue
			}
			refs = append(refs, s.testRef(tf, target, "example of "+target.Name))
		}
	}
	symSortRefs(refs)
	return refs
}

// References returns every use of sym in the repository's code, test files
// included, one per line, with Why "uses <name>" (or "test uses <name>")
// and Symbol the enclosing declaration. Sorted by path and line.
func (s *Symbols) References(sym Symbol) []Ref {
	target := s.canonical(sym)
	if target == nil || target.Kind == SymbolPackage {
		return nil
	}
	var refs []Ref
	type at struct {
		path string
		line int
	}
	seen := make(map[at]bool)
	for _, u := range s.useIndex()[s.posOf(target)] {
		key := at{u.path, u.line}
		if seen[key] {
			continue
		}
		seen[key] = true
		r := Ref{Path: u.path, Line: u.line, EndLine: u.line, Why: "uses " + target.Name, Hops: []string{target.Name}}
		if u.test {
			r.Why = "test uses " + target.Name
		}
		if u.encl != nil {
			r.Symbol = *u.encl
			r.Hops = append(r.Hops, s.hopName(u.encl, target))
		}
		refs = append(refs, r)
	}
	symSortRefs(refs)
	return refs
}

// testRef returns the evidence for a test function.
func (s *Symbols) testRef(tf *symTestFunc, target *Symbol, why string) Ref {
	return Ref{
		Symbol: tf.sym, Path: tf.sym.Path, Line: tf.sym.Line, EndLine: tf.sym.EndLine,
		Why: why, Hops: []string{target.Name, tf.sym.Name},
	}
}

// canonical returns the repository's own record of sym, or nil for
// symbols outside the repository.
func (s *Symbols) canonical(sym Symbol) *Symbol {
	if sym.Package == nil || sym.Package.std {
		return nil
	}
	p := s.byDir[sym.Package.Dir]
	if p == nil || p.ImportPath != sym.Package.ImportPath {
		return nil
	}
	if sym.Kind == SymbolPackage {
		return p.pkgSym
	}
	if sym.Object != nil {
		if c := s.symAt[sym.Object.Pos()]; c != nil {
			return c
		}
	}
	return p.symByName[sym.Name]
}

// posOf returns the position of sym's declared name, the key of symAt.
func (s *Symbols) posOf(sym *Symbol) token.Pos {
	if sym.Object != nil && s.symAt[sym.Object.Pos()] == sym {
		return sym.Object.Pos()
	}
	return token.NoPos
}

// hopName names sym in a hop chain starting at from: qualified by package
// name when in another package.
func (s *Symbols) hopName(sym, from *Symbol) string {
	if sym.Package != nil && from.Package != nil && sym.Package != from.Package {
		return sym.Package.Name + "." + sym.Name
	}
	return sym.Name
}

// callGraph builds the call graph on first use.
func (s *Symbols) callGraph() *symGraph {
	s.graphOnce.Do(func() {
		g := &symGraph{callees: make(map[*Symbol][]*Symbol), callers: make(map[*Symbol][]*Symbol)}
		impls := make(map[*types.Func][]*Symbol)
		named := s.namedTypes()
		for _, p := range s.pkgs {
			for _, f := range p.Syntax {
				for _, d := range f.Decls {
					fd, ok := d.(*ast.FuncDecl)
					if !ok || fd.Body == nil {
						continue
					}
					caller := s.symAt[fd.Name.Pos()]
					if caller == nil {
						continue
					}
					set := make(map[*Symbol]bool)
					ast.Inspect(fd.Body, func(n ast.Node) bool {
						id, ok := n.(*ast.Ident)
						if !ok {
							return true
						}
						fn, ok := p.Info.Uses[id].(*types.Func)
						if !ok {
							return true
						}
						fn = fn.Origin()
						callee := s.symAt[fn.Pos()]
						if callee == nil {
							return true
						}
						set[callee] = true
						if recv := fn.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
							if _, done := impls[fn]; !done {
								impls[fn] = s.implementations(fn, named)
							}
							for _, m := range impls[fn] {
								set[m] = true
							}
						}
						return true
					})
					delete(set, caller)
					list := symSortedSyms(set)
					g.callees[caller] = list
					for _, c := range list {
						g.callers[c] = append(g.callers[c], caller)
					}
				}
			}
		}
		for c, list := range g.callers {
			g.callers[c] = symSortedSyms(symSet(list))
		}
		s.graph = g
	})
	return s.graph
}

// namedTypes returns the repository's non-generic, non-interface named
// types.
func (s *Symbols) namedTypes() []*types.Named {
	var out []*types.Named
	for _, p := range s.pkgs {
		if p.Types == nil {
			continue
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			n, ok := tn.Type().(*types.Named)
			if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
				continue
			}
			out = append(out, n)
		}
	}
	return out
}

// implementations returns the methods of repository types that implement
// the interface of method fn, when that interface is declared in the
// repository.
func (s *Symbols) implementations(fn *types.Func, named []*types.Named) []*Symbol {
	recv := fn.Type().(*types.Signature).Recv().Type()
	n, ok := recv.(*types.Named)
	if !ok || n.TypeParams().Len() > 0 || s.symAt[n.Obj().Pos()] == nil {
		return nil
	}
	iface, ok := n.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []*Symbol
	for _, t := range named {
		if !types.Implements(t, iface) && !types.Implements(types.NewPointer(t), iface) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
		if m, ok := obj.(*types.Func); ok {
			if sym := s.symAt[m.Origin().Pos()]; sym != nil {
				out = append(out, sym)
			}
		}
	}
	return out
}

// useIndex maps declaration positions to their uses, built on first use.
func (s *Symbols) useIndex() map[token.Pos][]symUse {
	s.usesOnce.Do(func() {
		s.loadTests()
		uses := make(map[token.Pos][]symUse)
		for _, p := range s.pkgs {
			tests := make(map[*ast.FuncDecl]*symTestFunc)
			for _, tf := range p.testFuncs {
				tests[tf.decl] = tf
			}
			for _, set := range []struct {
				files []*ast.File
				info  *types.Info
				test  bool
			}{{p.Syntax, p.Info, false}, {p.internalTests, p.testInfo, true}, {p.externalTests, p.xtestInfo, true}} {
				if set.info == nil {
					continue
				}
				for _, f := range set.files {
					path := s.fset.Position(f.Package).Filename
					for _, d := range f.Decls {
						s.collectUses(d, set.info, path, set.test, p, tests, uses)
					}
				}
			}
		}
		s.uses = uses
	})
	return s.uses
}

// collectUses records the uses of repository symbols in one declaration.
func (s *Symbols) collectUses(d ast.Decl, info *types.Info, path string, test bool, p *Package, tests map[*ast.FuncDecl]*symTestFunc, uses map[token.Pos][]symUse) {
	visit := func(n ast.Node, encl *Symbol) {
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			obj := info.Uses[id]
			if obj == nil || s.symAt[obj.Pos()] == nil {
				return true
			}
			uses[obj.Pos()] = append(uses[obj.Pos()], symUse{
				path: path, line: s.fset.Position(id.Pos()).Line, encl: encl, test: test,
			})
			return true
		})
	}
	switch d := d.(type) {
	case *ast.FuncDecl:
		encl := s.symAt[d.Name.Pos()]
		if tf := tests[d]; tf != nil {
			encl = &tf.sym
		}
		if test && encl == nil {
			encl = &Symbol{Name: d.Name.Name, Kind: SymbolFunc, Package: p, Path: path}
			encl.Line, encl.EndLine = s.lines(d.Pos(), d.End())
		}
		visit(d, encl)
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			var encl *Symbol
			switch spec := spec.(type) {
			case *ast.TypeSpec:
				encl = s.symAt[spec.Name.Pos()]
			case *ast.ValueSpec:
				if len(spec.Names) > 0 {
					encl = s.symAt[spec.Names[0].Pos()]
				}
			}
			visit(spec, encl)
		}
	}
}

// symExampleTarget returns the name an Example function is named for:
// "Cache.Purge" for ExampleCache_Purge, "New" for ExampleNew_options, ""
// for Example and Example_suffix (the package).
func symExampleTarget(name string) string {
	rest := strings.TrimPrefix(name, "Example")
	if rest == "" || strings.HasPrefix(rest, "_") {
		return ""
	}
	parts := strings.Split(rest, "_")
	if n := len(parts); n > 1 {
		if r, _ := utf8.DecodeRuneInString(parts[n-1]); unicode.IsLower(r) {
			parts = parts[:n-1]
		}
	}
	return strings.Join(parts, ".")
}

// symIfPkg returns the name examples use for sym: "" for a package.
func symIfPkg(sym *Symbol) string {
	if sym.Kind == SymbolPackage {
		return ""
	}
	return sym.Name
}

func symSet(list []*Symbol) map[*Symbol]bool {
	set := make(map[*Symbol]bool, len(list))
	for _, s := range list {
		set[s] = true
	}
	return set
}

// symSortedSyms returns the symbols of set sorted by path, line and name.
func symSortedSyms(set map[*Symbol]bool) []*Symbol {
	out := make([]*Symbol, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *Symbol) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), strings.Compare(a.Name, b.Name))
	})
	return out
}

// symSortRefs sorts refs by path, line, end line, symbol name and why.
func symSortRefs(refs []Ref) {
	slices.SortFunc(refs, func(a, b Ref) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.EndLine, b.EndLine),
			strings.Compare(a.Symbol.Name, b.Symbol.Name), strings.Compare(a.Why, b.Why))
	})
}

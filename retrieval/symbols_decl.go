package retrieval

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// symMaxValueLen bounds the source text of a var's value shown in its
// signature; longer values are replaced by the var's type.
const symMaxValueLen = 60

// symTestFunc is a Test, Benchmark, Fuzz or Example function of a test
// file.
type symTestFunc struct {
	sym  Symbol
	decl *ast.FuncDecl
	info *types.Info
	// refs holds the declaration positions of the symbols its body uses.
	refs map[token.Pos]bool
}

// indexPackage records p's declarations as symbols.
func (s *Symbols) indexPackage(p *Package) {
	p.symByName = make(map[string]*Symbol)
	add := func(sym *Symbol, at token.Pos) {
		if _, dup := p.symByName[sym.Name]; dup {
			return
		}
		p.syms = append(p.syms, sym)
		p.symByName[sym.Name] = sym
		if at.IsValid() {
			s.symAt[at] = sym
		}
	}
	for _, f := range p.Syntax {
		path := s.fset.Position(f.Package).Filename
		if f.Doc != nil && (p.pkgSym == nil || p.pkgSym.Doc == "" || path == symJoin(p.Dir, "doc.go")) {
			if p.pkgSym == nil || p.pkgSym.Path != symJoin(p.Dir, "doc.go") {
				p.pkgSym = s.packageSymbol(p, f, path)
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if sym := s.funcSymbol(p, d, path); sym != nil {
					add(sym, d.Name.Pos())
				}
			case *ast.GenDecl:
				s.genSymbols(p, d, path, add)
			}
		}
	}
	if p.pkgSym == nil && len(p.Syntax) > 0 {
		f := p.Syntax[0]
		p.pkgSym = s.packageSymbol(p, f, s.fset.Position(f.Package).Filename)
	}
	slices.SortFunc(p.syms, func(a, b *Symbol) int { return strings.Compare(a.Name, b.Name) })
}

// packageSymbol returns the package symbol declared by f's package clause.
func (s *Symbols) packageSymbol(p *Package, f *ast.File, path string) *Symbol {
	line := s.fset.Position(f.Package).Line
	sym := &Symbol{
		Name: p.Name, Kind: SymbolPackage, Package: p, Path: path, Line: line, EndLine: line,
		Signature: "package " + p.Name, Exported: true,
	}
	s.setDoc(sym, f.Doc)
	return sym
}

// funcSymbol returns the symbol of a func or method declaration; nil for
// init and blank functions.
func (s *Symbols) funcSymbol(p *Package, d *ast.FuncDecl, path string) *Symbol {
	name := d.Name.Name
	if name == "_" || (d.Recv == nil && name == "init") {
		return nil
	}
	sym := &Symbol{Name: name, Kind: SymbolFunc, Package: p, Path: path, Exported: ast.IsExported(name)}
	if d.Recv != nil && len(d.Recv.List) > 0 {
		recv := ReceiverTypeName(d.Recv.List[0].Type)
		if recv == "" {
			return nil
		}
		sym.Name = recv + "." + name
		sym.Kind = SymbolMethod
		sym.Exported = sym.Exported && ast.IsExported(recv)
	}
	sym.Line, sym.EndLine = s.lines(d.Pos(), d.End())
	s.setDoc(sym, d.Doc)
	sym.Signature = symPrint(&ast.FuncDecl{Recv: d.Recv, Name: d.Name, Type: d.Type})
	if obj := p.Info.Defs[d.Name]; obj != nil {
		sym.Object = obj
	}
	return sym
}

// genSymbols adds the symbols of a type, const or var declaration.
func (s *Symbols) genSymbols(p *Package, d *ast.GenDecl, path string, add func(*Symbol, token.Pos)) {
	grouped := d.Lparen.IsValid()
	span := func(n ast.Node) (int, int) {
		if grouped {
			return s.lines(n.Pos(), n.End())
		}
		return s.lines(d.Pos(), d.End())
	}
	for _, spec := range d.Specs {
		switch spec := spec.(type) {
		case *ast.TypeSpec:
			name := spec.Name.Name
			if name == "_" {
				continue
			}
			sym := &Symbol{Name: name, Kind: SymbolType, Package: p, Path: path, Exported: ast.IsExported(name)}
			sym.Line, sym.EndLine = span(spec)
			s.setDoc(sym, symFirstDoc(spec.Doc, symIf(!grouped, d.Doc), spec.Comment, d.Doc))
			sym.Signature = symTypeSignature(spec)
			sym.Object = p.Info.Defs[spec.Name]
			add(sym, spec.Name.Pos())
			s.memberSymbols(p, spec, path, add)
		case *ast.ValueSpec:
			kind := SymbolVar
			if d.Tok == token.CONST {
				kind = SymbolConst
			}
			for i, id := range spec.Names {
				if id.Name == "_" {
					continue
				}
				sym := &Symbol{Name: id.Name, Kind: kind, Package: p, Path: path, Exported: ast.IsExported(id.Name)}
				sym.Line, sym.EndLine = span(spec)
				s.setDoc(sym, symFirstDoc(spec.Doc, symIf(!grouped, d.Doc), spec.Comment, d.Doc))
				sym.Object = p.Info.Defs[id]
				sym.Signature = symValueSignature(p, kind, spec, i, sym.Object)
				add(sym, id.Pos())
			}
		}
	}
}

// memberSymbols adds the fields of a struct type and the methods of an
// interface type.
func (s *Symbols) memberSymbols(p *Package, spec *ast.TypeSpec, path string, add func(*Symbol, token.Pos)) {
	tname := spec.Name.Name
	exported := ast.IsExported(tname)
	switch t := spec.Type.(type) {
	case *ast.StructType:
		for _, field := range t.Fields.List {
			ids := field.Names
			if len(ids) == 0 {
				if id := symEmbeddedIdent(field.Type); id != nil {
					ids = []*ast.Ident{id}
				}
			}
			for _, id := range ids {
				if id.Name == "_" {
					continue
				}
				sym := &Symbol{
					Name: tname + "." + id.Name, Kind: SymbolField, Package: p, Path: path,
					Exported: exported && ast.IsExported(id.Name),
				}
				sym.Line, sym.EndLine = s.lines(field.Pos(), field.End())
				s.setDoc(sym, symFirstDoc(field.Doc, field.Comment))
				if len(field.Names) == 0 {
					sym.Signature = symPrint(field.Type)
				} else {
					sym.Signature = id.Name + " " + symPrint(field.Type)
				}
				sym.Object = p.Info.Defs[id]
				add(sym, id.Pos())
			}
		}
	case *ast.InterfaceType:
		for _, m := range t.Methods.List {
			ft, ok := m.Type.(*ast.FuncType)
			if !ok || len(m.Names) == 0 {
				continue
			}
			id := m.Names[0]
			sym := &Symbol{
				Name: tname + "." + id.Name, Kind: SymbolMethod, Package: p, Path: path,
				Exported: exported && ast.IsExported(id.Name),
			}
			sym.Line, sym.EndLine = s.lines(m.Pos(), m.End())
			s.setDoc(sym, symFirstDoc(m.Doc, m.Comment))
			sym.Signature = strings.TrimPrefix(symPrint(&ast.FuncDecl{Name: id, Type: ft}), "func ")
			sym.Object = p.Info.Defs[id]
			add(sym, id.Pos())
		}
	}
}

// setDoc sets a symbol's doc comment fields from cg.
func (s *Symbols) setDoc(sym *Symbol, cg *ast.CommentGroup) {
	if cg == nil {
		return
	}
	sym.Doc = cg.Text()
	sym.DocLine, sym.DocEndLine = s.lines(cg.Pos(), cg.End())
}

// lines returns the 1-based lines of two positions.
func (s *Symbols) lines(from, to token.Pos) (int, int) {
	l := s.fset.Position(from).Line
	return l, max(l, s.fset.Position(to).Line)
}

// indexNames fills the sets of names every package declares.
func (s *Symbols) indexNames() {
	set := make(map[string]bool)
	for _, p := range s.pkgs {
		if p.Name != "" {
			s.byName[p.Name] = append(s.byName[p.Name], p)
		}
		if last := symLastElem(p.ImportPath); last != p.Name && last != "" {
			s.byName[last] = append(s.byName[last], p)
		}
		for _, sym := range p.syms {
			s.defined[sym.Name] = true
			set[sym.Name] = true
			if p.Name != "" {
				set[p.Name+"."+sym.Name] = true
			}
		}
	}
	s.names = symSortedKeys(set)
}

// indexTests records p's Test, Benchmark, Fuzz and Example functions and
// the symbols their bodies use.
func (s *Symbols) indexTests(p *Package) {
	for _, set := range []struct {
		files []*ast.File
		info  *types.Info
	}{{p.internalTests, p.testInfo}, {p.externalTests, p.xtestInfo}} {
		if set.info == nil {
			continue
		}
		for _, f := range set.files {
			path := s.fset.Position(f.Package).Filename
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || fd.Body == nil || symTestKind(fd.Name.Name) == "" {
					continue
				}
				tf := &symTestFunc{decl: fd, info: set.info, refs: make(map[token.Pos]bool)}
				tf.sym = Symbol{
					Name: fd.Name.Name, Kind: SymbolFunc, Package: p, Path: path, Exported: true,
					Signature: symPrint(&ast.FuncDecl{Name: fd.Name, Type: fd.Type}),
					Object:    set.info.Defs[fd.Name],
				}
				tf.sym.Line, tf.sym.EndLine = s.lines(fd.Pos(), fd.End())
				s.setDoc(&tf.sym, fd.Doc)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if obj := set.info.Uses[id]; obj != nil && s.symAt[obj.Pos()] != nil {
							tf.refs[obj.Pos()] = true
						}
					}
					return true
				})
				p.testFuncs = append(p.testFuncs, tf)
			}
		}
	}
}

// symTestKind returns "Test", "Benchmark", "Fuzz" or "Example" when name is
// a test function's name as go test sees it, else "".
func symTestKind(name string) string {
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if rest == "" {
			return prefix
		}
		r, _ := utf8.DecodeRuneInString(rest)
		if !unicode.IsLower(r) {
			return prefix
		}
	}
	return ""
}

// symEmbeddedIdent returns the identifier naming an embedded field.
func symEmbeddedIdent(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.Ident:
			return t
		default:
			return nil
		}
	}
}

// symTypeSignature renders a type declaration's first line: "type Options
// struct", "type Set[T comparable] map[T]struct{}".
func symTypeSignature(spec *ast.TypeSpec) string {
	head := "type " + spec.Name.Name
	if spec.TypeParams != nil {
		tp := symPrint(&ast.FuncType{Params: spec.TypeParams})
		head += "[" + strings.TrimSuffix(strings.TrimPrefix(tp, "func("), ")") + "]"
	}
	if spec.Assign.IsValid() {
		head += " ="
	}
	switch spec.Type.(type) {
	case *ast.StructType:
		return head + " struct"
	case *ast.InterfaceType:
		return head + " interface"
	}
	return head + " " + symPrint(spec.Type)
}

// symValueSignature renders the i-th name of a const or var spec:
// "const MaxSize = 100", "var ErrClosed = errors.New(\"closed\")".
func symValueSignature(p *Package, kind SymbolKind, spec *ast.ValueSpec, i int, obj types.Object) string {
	name := spec.Names[i].Name
	qual := func(other *types.Package) string {
		if other == p.Types {
			return ""
		}
		return other.Name()
	}
	typ := ""
	if spec.Type != nil {
		typ = symPrint(spec.Type)
	} else if obj != nil {
		if b, ok := obj.Type().(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
			typ = types.TypeString(obj.Type(), qual)
		}
	}
	var val string
	if i < len(spec.Values) {
		val = symPrint(spec.Values[i])
		if kind == SymbolConst && symUsesIota(spec.Values[i]) {
			val = ""
		}
	}
	if kind == SymbolConst {
		if val == "" {
			if c, ok := obj.(*types.Const); ok {
				val = c.Val().ExactString()
			}
		}
		sig := "const " + name
		if typ != "" {
			sig += " " + typ
		}
		if val != "" {
			sig += " = " + val
		}
		return sig
	}
	if spec.Type != nil || val == "" || len(val) > symMaxValueLen || strings.Contains(val, "\n") {
		if typ == "" {
			return "var " + name
		}
		return "var " + name + " " + typ
	}
	return "var " + name + " = " + val
}

// symUsesIota reports whether e mentions iota.
func symUsesIota(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

// symPrint renders a node on one line: printed against an empty file set,
// the printer sees no line breaks.
func symPrint(n ast.Node) string {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, token.NewFileSet(), n); err != nil {
		return ""
	}
	return strings.Join(strings.Fields(buf.String()), " ")
}

// symFirstDoc returns the first non-nil comment group.
func symFirstDoc(groups ...*ast.CommentGroup) *ast.CommentGroup {
	for _, g := range groups {
		if g != nil {
			return g
		}
	}
	return nil
}

func symIf(cond bool, cg *ast.CommentGroup) *ast.CommentGroup {
	if cond {
		return cg
	}
	return nil
}

// symJoin joins a slash directory and a name; "." is the root.
func symJoin(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// symLastElem returns the last element of an import path, skipping a
// major version suffix.
func symLastElem(ip string) string {
	elems := strings.Split(ip, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && symIsMajorVersion(last) {
		last = elems[len(elems)-2]
	}
	return last
}

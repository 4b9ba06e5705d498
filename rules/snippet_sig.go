package rules

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// This file holds the signature listings of the go-snippet rule. A
// Markdown Go block may list a package's API instead of using it:
//
//	func New(config ...Config) fiber.Handler
//	func (s *Store) Get(key string) (string, error)
//
// or, in the style of gjson's README, a method per line on a variable:
//
//	result.Int() int64
//	result.Uint() uint64
//
// Such a block is no code to compile. Each line is a copy of a
// declaration, and it is compared with the declaration it copies: the
// number of parameters and results, variadic or not, and each type as far
// as the listing's words resolve in the declaring package. Parameter
// names are not compared. A type the listing writes that does not resolve
// (a name the package does not know, a type parameter, an instantiated
// generic) decides nothing; a listing is contradicted only by a count or a
// type that certainly differs.

// sigLine is one entry of a signature listing.
type sigLine struct {
	line int    // 1-based line within the block
	text string // the entry's first line, as written
	// recv is the receiver's type name of a method declaration ("Store"),
	// or the variable of the call style ("result"); empty for a func.
	recv    string
	recvVar bool   // recv is a variable (call style), not a type
	call    bool   // the call style: no func keyword
	name    string // the func or method
	typ     *ast.FuncType
	generic bool // the listing declares type parameters
	multi   bool // the entry spans several lines: no line-for-line fix
}

// sigCallRE matches the call style of a listing: a selector or a func's
// name ("DialConnection(network, address string, timeout time.Duration)
// (Connection, error)"), a parameter list and a result, with an optional
// trailing comment.
var sigCallRE = regexp.MustCompile(`^\s*(?:([A-Za-z_]\w*)\.)?([A-Z]\w*)\((.*)$`)

// sigListing returns the entries of a block that only lists signatures
// (two forms, never mixed: bodyless func declarations, or one
// "recv.Method(params) results" per line), or nil for any other block.
func sigListing(text string) []sigLine {
	if strings.Contains(text, "{") && !strings.Contains(text, "interface{}") && !strings.Contains(text, "struct{}") {
		return nil
	}
	if ls := sigDecls(text); ls != nil {
		return ls
	}
	return sigCalls(text)
}

// sigDecls reads a block of bodyless func declarations.
func sigDecls(text string) []sigLine {
	if !strings.Contains(text, "func ") {
		return nil
	}
	src := "package p\n" + text
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 || len(f.Imports) > 0 {
		return nil
	}
	lines := strings.Split(text, "\n")
	var out []sigLine
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body != nil {
			return nil
		}
		l := fset.Position(fd.Pos()).Line - 1
		if l < 1 || l > len(lines) {
			return nil
		}
		s := sigLine{line: l, text: lines[l-1], name: fd.Name.Name, typ: fd.Type, generic: fd.Type.TypeParams != nil,
			multi: fset.Position(fd.End()).Line != fset.Position(fd.Pos()).Line}
		if fd.Recv != nil {
			if len(fd.Recv.List) != 1 {
				return nil
			}
			name, generic := recvTypeName(fd.Recv.List[0].Type)
			if name == "" {
				return nil
			}
			s.recv, s.generic = name, s.generic || generic
		}
		out = append(out, s)
	}
	return out
}

// recvTypeName returns the type name of a receiver expression ("Store"
// for "*Store", "List" for "*List[T]") and whether it is generic.
func recvTypeName(e ast.Expr) (string, bool) {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name, false
	case *ast.IndexExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name, true
		}
	case *ast.IndexListExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name, true
		}
	}
	return "", false
}

// sigCalls reads a block whose every code line is "recv.Method(params)
// results", a trailing comment allowed. A line without results is a
// call ("redis.IsLoadingError(err)"), and the block is no listing.
func sigCalls(text string) []sigLine {
	var out []sigLine
	for i, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		m := sigCallRE.FindStringSubmatch(l)
		if m == nil {
			return nil
		}
		rest := m[3]
		if j := strings.Index(rest, "//"); j >= 0 {
			rest = rest[:j]
		}
		depth, end := 1, -1
		for j, r := range rest {
			switch r {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				end = j
				break
			}
		}
		if end < 0 {
			return nil
		}
		params, results := rest[:end], strings.TrimSpace(rest[end+1:])
		if results == "" {
			return nil
		}
		e, err := parser.ParseExpr("func(" + params + ") " + results)
		if err != nil {
			return nil
		}
		ft, ok := e.(*ast.FuncType)
		if !ok || ft.Results == nil {
			return nil
		}
		out = append(out, sigLine{line: i + 1, text: l, recv: m[1], recvVar: m[1] != "", call: true, name: m[2], typ: ft})
	}
	return out
}

// sigDecl is the declaration a listing entry copies.
type sigDecl struct {
	pkg *retrieval.Package
	fn  *types.Func
	sym retrieval.Symbol
}

// sigResolve finds the declaration an entry copies: a method of the named
// receiver type, a method of the one type whose name is the call style's
// variable (result for Result) or, when no type is so named, of the only
// type that declares it, a func of a package the call style names, or a
// func of the nearest package that declares it. Nothing is returned when
// the entry could copy several declarations.
func sigResolve(ws *review.Workspace, pkgs []*retrieval.Package, e sigLine) (sigDecl, bool) {
	lookup := func(p *retrieval.Package, name string) (sigDecl, bool) {
		sym, ok := ws.Symbols.Lookup(p.Dir, name)
		if !ok || sym.Object == nil {
			return sigDecl{}, false
		}
		fn, ok := sym.Object.(*types.Func)
		return sigDecl{pkg: p, fn: fn, sym: sym}, ok
	}
	switch {
	case e.recv == "":
		for _, p := range pkgs {
			if d, ok := lookup(p, e.name); ok {
				return d, true
			}
		}
		return sigDecl{}, false
	case !e.recvVar:
		for _, p := range pkgs {
			if d, ok := lookup(p, e.recv+"."+e.name); ok {
				return d, true
			}
		}
		return sigDecl{}, false
	}
	// Call style: the selector's left side is a package the module has
	// under that name, or a variable of a type that declares the method.
	if named := ws.Symbols.PackagesNamed(e.recv); len(named) == 1 {
		if d, ok := lookup(named[0], e.name); ok {
			return d, true
		}
	}
	for _, p := range pkgs {
		if p.Types == nil {
			continue
		}
		var byName, all []sigDecl
		sc := p.Types.Scope()
		for _, n := range sc.Names() {
			tn, ok := sc.Lookup(n).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			d, ok := lookup(p, n+"."+e.name)
			if !ok {
				continue
			}
			all = append(all, d)
			if strings.EqualFold(n, e.recv) {
				byName = append(byName, d)
			}
		}
		switch {
		case len(byName) == 1:
			return byName[0], true
		case len(byName) == 0 && len(all) == 1:
			return all[0], true
		case len(all) > 0:
			return sigDecl{}, false
		}
	}
	return sigDecl{}, false
}

// typeMatch is how a type a listing writes compares with the code's.
type typeMatch int

const (
	typeUnknown typeMatch = iota // the listing's words do not resolve
	typeSame
	typeDiffer
)

// worse combines two outcomes: a certain difference wins, then doubt.
func worse(a, b typeMatch) typeMatch {
	if a == typeDiffer || b == typeDiffer {
		return typeDiffer
	}
	if a == typeUnknown || b == typeUnknown {
		return typeUnknown
	}
	return typeSame
}

// sigCompare compares an entry's func type with the code's signature:
// typeDiffer when a count, the variadic mark or a type certainly differs.
func sigCompare(ft *ast.FuncType, sig *types.Signature, pkg *types.Package) typeMatch {
	params, variadic := fieldTypes(ft.Params)
	results, _ := fieldTypes(ft.Results)
	if len(params) != sig.Params().Len() || len(results) != sig.Results().Len() || variadic != sig.Variadic() {
		return typeDiffer
	}
	m := typeSame
	for i, e := range params {
		t := sig.Params().At(i).Type()
		if el, ok := e.(*ast.Ellipsis); ok {
			s, ok := t.(*types.Slice)
			if !ok {
				return typeUnknown
			}
			e, t = el.Elt, s.Elem()
		}
		m = worse(m, listedType(e, t, pkg))
	}
	for i, e := range results {
		m = worse(m, listedType(e, sig.Results().At(i).Type(), pkg))
	}
	return m
}

// fieldTypes returns a field list's type per parameter (a type once per
// name) and whether its last one is variadic.
func fieldTypes(fl *ast.FieldList) ([]ast.Expr, bool) {
	if fl == nil {
		return nil, false
	}
	var out []ast.Expr
	for _, f := range fl.List {
		for range max(len(f.Names), 1) {
			out = append(out, f.Type)
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	_, v := out[len(out)-1].(*ast.Ellipsis)
	return out, v
}

// listedType compares a type expression of a listing with the code's
// type t, resolving its names in pkg: the package's own names (with or
// without its own qualifier), the packages it imports, and the universe.
func listedType(e ast.Expr, t types.Type, pkg *types.Package) typeMatch {
	t = types.Unalias(t)
	if hasTypeParam(t) || t == types.Typ[types.Invalid] {
		// A type parameter, or a type of a package not loaded (a
		// dependency's): nothing to compare with.
		return typeUnknown
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return listedType(x.X, t, pkg)
	case *ast.Ident, *ast.SelectorExpr:
		r := resolveListed(x, pkg)
		if r == nil {
			return typeUnknown
		}
		if types.Identical(r, t) || sameNamed(r, t) {
			return typeSame
		}
		// A named type against its own underlying type, in either
		// direction, is a loose way of writing the same thing.
		if types.Identical(r.Underlying(), t.Underlying()) {
			_, rn := r.(*types.Named)
			_, tn := t.(*types.Named)
			if !rn || !tn {
				return typeUnknown
			}
		}
		return typeDiffer
	case *ast.StarExpr:
		p, ok := t.(*types.Pointer)
		if !ok {
			if _, ok := t.Underlying().(*types.Pointer); ok {
				return typeUnknown
			}
			return typeDiffer // a pointer where the code has none
		}
		return listedType(x.X, p.Elem(), pkg)
	case *ast.ArrayType:
		if x.Len != nil {
			return typeUnknown
		}
		s, ok := t.(*types.Slice)
		if !ok {
			return literalAgainst(t)
		}
		return listedType(x.Elt, s.Elem(), pkg)
	case *ast.MapType:
		m, ok := t.(*types.Map)
		if !ok {
			return literalAgainst(t)
		}
		return worse(listedType(x.Key, m.Key(), pkg), listedType(x.Value, m.Elem(), pkg))
	case *ast.ChanType:
		c, ok := t.(*types.Chan)
		if !ok {
			return literalAgainst(t)
		}
		return listedType(x.Value, c.Elem(), pkg)
	case *ast.FuncType:
		s, ok := t.(*types.Signature)
		if !ok {
			return literalAgainst(t)
		}
		return sigCompare(x, s, pkg)
	case *ast.InterfaceType:
		if x.Methods != nil && len(x.Methods.List) > 0 {
			return typeUnknown
		}
		if i, ok := t.Underlying().(*types.Interface); ok && i.Empty() {
			return typeSame
		}
		if _, ok := t.(*types.Named); ok {
			return typeUnknown
		}
		return typeDiffer
	}
	return typeUnknown
}

// sameNamed reports whether a and b are the same named type by package
// path and name: a dependency's package may be loaded twice, once for the
// module and once for its imports, and its types are then not identical.
func sameNamed(a, b types.Type) bool {
	na, ok1 := a.(*types.Named)
	nb, ok2 := b.(*types.Named)
	if !ok1 || !ok2 || na.Obj().Pkg() == nil || nb.Obj().Pkg() == nil {
		return false
	}
	return na.Obj().Name() == nb.Obj().Name() && na.Obj().Pkg().Path() == nb.Obj().Pkg().Path() &&
		na.TypeArgs().Len() == 0 && nb.TypeArgs().Len() == 0
}

// literalAgainst is the outcome of a type literal (pointer, slice, map,
// chan, func) against a code type of another form: a named type may have
// that literal as its underlying type, so only an unnamed one differs.
func literalAgainst(t types.Type) typeMatch {
	if _, ok := t.(*types.Named); ok {
		return typeUnknown
	}
	return typeDiffer
}

// resolveListed resolves a type name of a listing in pkg, or nil.
func resolveListed(e ast.Expr, pkg *types.Package) types.Type {
	var obj types.Object
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "any" {
			return types.Universe.Lookup("any").Type()
		}
		obj = pkg.Scope().Lookup(x.Name)
		if obj == nil {
			obj = types.Universe.Lookup(x.Name)
		}
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok {
			return nil
		}
		if id.Name == pkg.Name() {
			return resolveListed(x.Sel, pkg)
		}
		var from *types.Package
		for _, imp := range pkg.Imports() {
			if imp.Name() == id.Name {
				if from != nil {
					return nil // two imports by that name
				}
				from = imp
			}
		}
		if from == nil {
			return nil
		}
		obj = from.Scope().Lookup(x.Sel.Name)
	}
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return nil
	}
	return types.Unalias(tn.Type())
}

// hasTypeParam reports whether t is or holds a type parameter.
func hasTypeParam(t types.Type) bool {
	switch x := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return hasTypeParam(x.Elem())
	case *types.Slice:
		return hasTypeParam(x.Elem())
	case *types.Array:
		return hasTypeParam(x.Elem())
	case *types.Map:
		return hasTypeParam(x.Key()) || hasTypeParam(x.Elem())
	case *types.Chan:
		return hasTypeParam(x.Elem())
	case *types.Named:
		return x.TypeArgs().Len() > 0 || x.TypeParams().Len() > 0
	case *types.Signature:
		return tupleHasTypeParam(x.Params()) || tupleHasTypeParam(x.Results())
	}
	return false
}

// tupleHasTypeParam reports whether a type of the tuple holds a type
// parameter.
func tupleHasTypeParam(t *types.Tuple) bool {
	for v := range t.Variables() {
		if hasTypeParam(v.Type()) {
			return true
		}
	}
	return false
}

// sigMismatch is a listing entry the declaration it copies contradicts.
type sigMismatch struct {
	entry    sigLine
	decl     sigDecl
	line     int    // the entry's line in the claim's file
	declText string // the declaration as the code writes it, without body
	fixed    string // the entry's line rewritten to the code's signature
	// sibling is the one other func (or method of the same type) whose
	// signature the entry's fits and that the section's heading names:
	// the listing copied its signature under the wrong name
	// ("ListenTLS(addr string, cert tls.Certificate)" under the heading
	// ListenTLSWithCertificate).
	sibling string
}

// docOwnPackages returns the packages a Markdown file documents for
// certain: the one of its directory below the module root, and the one it
// is named after.
func docOwnPackages(ws *review.Workspace, c review.Claim) map[*retrieval.Package]bool {
	own := map[*retrieval.Package]bool{}
	if dir := path.Dir(c.Path); dir != "." {
		if p := ws.Symbols.Package(dir); p != nil {
			own[p] = true
		}
	}
	if p := namedDocPackage(ws, c); p != nil {
		own[p] = true
	}
	return own
}

// sigListingMismatch returns the first entry of a listing block that its
// declaration contradicts. keep filters the declarations (the diff's
// names, for a block the diff left alone).
func sigListingMismatch(ws *review.Workspace, c review.Claim, pkgs []*retrieval.Package, entries []sigLine, keep func(sigDecl) bool) (sigMismatch, bool) {
	// Another package's func that fits is no excuse in the package the
	// file documents for certain.
	own := docOwnPackages(ws, c)
	for _, e := range entries {
		if e.generic {
			continue // its type parameters are the listing's own names
		}
		d, ok := sigResolve(ws, pkgs, e)
		if !ok || d.pkg.Types == nil || !keep(d) {
			continue
		}
		sig, ok := d.fn.Type().(*types.Signature)
		if !ok || sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
			continue
		}
		if sigCompare(e.typ, sig, d.pkg.Types) != typeDiffer || !own[d.pkg] && fitsElsewhere(ws, d, e) {
			continue
		}
		fd := funcDeclOf(d.pkg, d.fn)
		if fd == nil {
			continue
		}
		declText := printNode(d.pkg.Fset, &ast.FuncDecl{Recv: fd.Recv, Name: fd.Name, Type: fd.Type})
		fixed := declText
		if e.call {
			fixed = e.name + strings.TrimPrefix(printNode(d.pkg.Fset, fd.Type), "func")
			if e.recv != "" {
				fixed = e.recv + "." + fixed
			}
		}
		indent := e.text[:len(e.text)-len(strings.TrimLeft(e.text, " \t"))]
		comment := ""
		if i := strings.Index(e.text, "//"); i >= 0 && strings.Count(e.text, "//") == 1 {
			pad := e.text[:i]
			comment = pad[len(strings.TrimRight(pad, " \t")):] + e.text[i:]
		}
		sibling := ""
		if e.typ.Params.NumFields() > 0 {
			// A signature with parameters that fits a sibling which the
			// listing does not list already, under a heading that names
			// the sibling, is the sibling's; a fit alone says little
			// ("ParamsInt(key string) (int, error)" fits WriteString).
			sibling = sigSibling(d, e)
			for _, o := range entries {
				if o.name == sibling {
					sibling = ""
				}
			}
			if sibling != "" && !headingNames(c.Context, sibling) {
				sibling = ""
			}
		}
		return sigMismatch{entry: e, decl: d, declText: declText, fixed: indent + fixed + comment, sibling: sibling}, true
	}
	return sigMismatch{}, false
}

// fitsElsewhere reports whether another module package declares a func
// (or a method of a type of that name) named like the entry whose
// signature the entry may copy: docs/client/rest.md lists the client
// package's New, not the root package's. It is asked only when the
// Markdown file's package is not certain.
func fitsElsewhere(ws *review.Workspace, d sigDecl, e sigLine) bool {
	name := e.name
	if d.fn.Signature().Recv() != nil {
		name = d.sym.Name // Type.Method
	}
	for _, p := range ws.Symbols.Packages() {
		if p == d.pkg || p.Types == nil {
			continue
		}
		sym, ok := ws.Symbols.Lookup(p.Dir, name)
		if !ok || sym.Object == nil {
			continue
		}
		fn, ok := sym.Object.(*types.Func)
		if !ok {
			continue
		}
		if sigCompare(e.typ, fn.Signature(), p.Types) != typeDiffer {
			return true
		}
	}
	return false
}

// sigSibling returns the name of the one other func of d's package, or
// method of d's receiver type, whose signature the entry's fits, or "".
func sigSibling(d sigDecl, e sigLine) string {
	var cands []*types.Func
	if recv := d.fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		ms := types.NewMethodSet(types.NewPointer(t))
		for i := range ms.Len() {
			if fn, ok := ms.At(i).Obj().(*types.Func); ok {
				cands = append(cands, fn)
			}
		}
	} else {
		sc := d.pkg.Types.Scope()
		for _, n := range sc.Names() {
			if fn, ok := sc.Lookup(n).(*types.Func); ok {
				cands = append(cands, fn)
			}
		}
	}
	found := ""
	for _, fn := range cands {
		if fn == d.fn || !fn.Exported() || sigCompare(e.typ, fn.Signature(), d.pkg.Types) != typeSame {
			continue
		}
		if found != "" {
			return ""
		}
		found = fn.Name()
	}
	return found
}

// headingNames reports whether the last heading of a heading path names
// name as a word.
func headingNames(context, name string) bool {
	last := context
	if i := strings.LastIndex(context, " > "); i >= 0 {
		last = context[i+3:]
	}
	for _, w := range strings.FieldsFunc(last, func(r rune) bool { return !isIdentByte(byte(r)) || r > 127 }) {
		if w == name {
			return true
		}
	}
	return false
}

// funcDeclOf returns the declaration of fn among p's files, or nil.
func funcDeclOf(p *retrieval.Package, fn *types.Func) *ast.FuncDecl {
	for _, f := range p.Syntax {
		if fn.Pos() < f.Pos() || fn.Pos() > f.End() {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == fn.Pos() {
				return fd
			}
		}
	}
	return nil
}

// printNode prints n on one line.
func printNode(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		return ""
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// sigVerdict reports a listing entry its declaration contradicts.
func (r *GoSnippet) sigVerdict(ws *review.Workspace, c review.Claim, m sigMismatch) *review.Verdict {
	listed := strings.TrimSpace(m.entry.text)
	if i := strings.Index(listed, "//"); i >= 0 {
		listed = strings.TrimSpace(listed[:i])
	}
	name := m.decl.sym.Name
	v := &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.9,
		Message: fmt.Sprintf("The Go code block lists %s as `%s`, but the code declares `%s`.", name, listed, m.declText),
	}
	hop := fmt.Sprintf("%s:%d (code block)", c.Path, m.line)
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: c.Path, StartLine: m.line, EndLine: m.line, Source: review.SourceDoc,
		Why: "code block lists the signature of " + name, Hops: []string{hop},
	})
	ref := ws.Symbols.Definition(m.decl.sym)
	start, end := lineRange(ref.Line, ref.EndLine)
	if n := declLines(ws, ref.Path, start, end); n > 0 {
		end = start + n - 1
	}
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
		Why: "signature: " + m.declText, Hops: []string{hop, name},
	})
	switch {
	case m.sibling != "":
		// The signature is right, the name is wrong: the section is
		// about the sibling.
		v.Message = strings.TrimSuffix(v.Message, ".") + fmt.Sprintf("; the listed signature is that of %s, which the section is about.", m.sibling)
		if !m.entry.multi && strings.Count(c.Text, m.entry.text) == 1 {
			line := strings.Replace(m.entry.text, m.entry.name+"(", m.sibling+"(", 1)
			v.Suggestion = strings.Replace(c.Text, m.entry.text, line, 1)
		}
	case !m.entry.multi && strings.Count(c.Text, m.entry.text) == 1:
		v.Suggestion = strings.Replace(c.Text, m.entry.text, m.fixed, 1)
	}
	return v
}

// methodNamed reports whether a type of one of pkgs has a method called
// name.
func methodNamed(pkgs []*retrieval.Package, name string) bool {
	for _, p := range pkgs {
		if p.Types == nil {
			continue
		}
		sc := p.Types.Scope()
		for _, n := range sc.Names() {
			tn, ok := sc.Lookup(n).(*types.TypeName)
			if !ok {
				continue
			}
			if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, p.Types, name); obj != nil {
				if _, ok := obj.(*types.Func); ok {
					return true
				}
			}
		}
	}
	return false
}

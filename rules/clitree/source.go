package clitree

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/docreview/docreview/retrieval"
)

// importNames maps the import paths of a file to their local names.
func importNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		ip, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := ImportName(ip)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[ip] = name
	}
	return out
}

// isSel reports whether e is pkg.name with pkg the local name of an
// import ("" never matches).
func isSel(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || pkg == "" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && (name == "" || sel.Sel.Name == name)
}

// constStr returns the value of a constant string expression.
func constStr(info *types.Info, e ast.Expr) (string, bool) {
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil
	}
	if info == nil {
		return "", false
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if c, ok := info.Uses[id].(*types.Const); ok && c.Val().Kind() == constant.String {
			return constant.StringVal(c.Val()), true
		}
	}
	return "", false
}

// constStrs returns the values of a []string{...} literal of constants.
func constStrs(info *types.Info, e ast.Expr) ([]string, bool) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var out []string
	for _, el := range lit.Elts {
		s, ok := constStr(info, el)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// fileCtx is one file being read, with its package.
type fileCtx struct {
	p     *retrieval.Package
	f     *ast.File
	names map[string]string
}

// filesOf lists the files of pkgs with their import names.
func filesOf(pkgs []*retrieval.Package) []fileCtx {
	var out []fileCtx
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			out = append(out, fileCtx{p: p, f: f, names: importNames(f)})
		}
	}
	return out
}

// pos returns where n is.
func (fc fileCtx) pos(n ast.Node) Pos {
	pos := fc.p.Fset.Position(n.Pos())
	return Pos{Path: pos.Filename, Line: pos.Line}
}

// posOf turns a position of one of pkgs into a Pos.
func posOf(pkgs []*retrieval.Package, pos token.Pos) Pos {
	p := pkgs[0].Fset.Position(pos)
	return Pos{Path: p.Filename, Line: p.Line}
}

// binder follows framework command values through variables, fields and
// functions returning them: each composite literal of a command type is a
// node, and objects bound to exactly one node resolve to it.
type binder struct {
	lits  map[*ast.CompositeLit]*Node
	objs  map[types.Object]*Node // nil: bound to several
	funcs map[types.Object]*Node // nil: returns several
}

// objOf returns the object an identifier or selector's name refers to.
func objOf(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if o := info.Uses[e]; o != nil {
			return o
		}
		return info.Defs[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}

// resolve returns the node an expression evaluates to, or nil.
func (b *binder) resolve(info *types.Info, e ast.Expr) *Node {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return b.lits[e]
	case *ast.CallExpr:
		if o := objOf(info, e.Fun); o != nil {
			return b.funcs[o]
		}
	case *ast.Ident, *ast.SelectorExpr:
		if o := objOf(info, e); o != nil {
			return b.objs[o]
		}
	}
	return nil
}

// bind records that o holds n; a second, different node makes o
// ambiguous.
func bind(m map[types.Object]*Node, o types.Object, n *Node) bool {
	if o == nil || n == nil {
		return false
	}
	old, seen := m[o]
	if !seen {
		m[o] = n
		return true
	}
	if old != n && old != nil {
		m[o] = nil
		return true
	}
	return false
}

// bindAll binds the variables, fields and functions of the files to the
// nodes they hold or return, until nothing changes.
func (b *binder) bindAll(files []fileCtx) {
	for range 6 {
		changed := false
		for _, fc := range files {
			info := fc.p.Info
			ast.Inspect(fc.f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec:
					if len(n.Names) == len(n.Values) {
						for i, v := range n.Values {
							changed = bind(b.objs, info.Defs[n.Names[i]], b.resolve(info, v)) || changed
						}
					}
				case *ast.AssignStmt:
					if len(n.Lhs) == len(n.Rhs) {
						for i, v := range n.Rhs {
							changed = bind(b.objs, objOf(info, n.Lhs[i]), b.resolve(info, v)) || changed
						}
					}
				case *ast.FuncDecl:
					if n.Body == nil || n.Type.Results == nil {
						return true
					}
					fn := info.Defs[n.Name]
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if _, ok := m.(*ast.FuncLit); ok {
							return false
						}
						if r, ok := m.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
							changed = bind(b.funcs, fn, b.resolve(info, r.Results[0])) || changed
						}
						return true
					})
				}
				return true
			})
		}
		if !changed {
			return
		}
	}
}

// pickRoot chooses the executed root of main package p: the one p
// executes itself, else the only one the module packages it imports
// execute.
func pickRoot(p *retrieval.Package, pkgs []*retrieval.Package, executed map[*retrieval.Package][]*Node) *Node {
	cands := uniqNodes(executed[p])
	if len(cands) == 0 {
		for _, q := range pkgs[1:] {
			cands = append(cands, executed[q]...)
		}
		cands = uniqNodes(cands)
	}
	if len(cands) != 1 || cands[0].hasParent {
		return nil
	}
	return cands[0]
}

// uniqNodes returns the distinct nodes of ns in first-seen order.
func uniqNodes(ns []*Node) []*Node {
	var out []*Node
	for _, n := range ns {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

package completeness

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// errorType is the predeclared error type.
var errorType = types.Universe.Lookup("error").Type()

// errorsOf returns the error facts of fn: the exported sentinels and error
// types its body returns in a result declared as error, and, while depth
// is above zero, those of the module functions whose error it returns
// (with depth-1), unwrapped or wrapped with fmt.Errorf's %w. An error the
// function compares with == or != or tests with errors.Is is taken as
// handled: it is not passed on from callees. Facts of one name are merged:
// the one with the fewest hops is kept, its condition only when every
// return of it has the same one. Functions without a declaration in the
// repository (the standard library's, interface methods) have no facts.
func (a *analyzer) errorsOf(fn *types.Func, depth int) []Fact {
	key := errKey{fn, depth}
	if facts, ok := a.errs[key]; ok {
		return facts
	}
	src, ok := a.decls[fn]
	if !ok || a.busy[fn] {
		return nil
	}
	a.busy[fn] = true
	defer delete(a.busy, fn)
	facts := (&errWalk{a: a, src: src, fn: fn, depth: depth}).run()
	a.errs[key] = facts
	return facts
}

// errWalk traces the errors of one function.
type errWalk struct {
	a     *analyzer
	src   funcSrc
	fn    *types.Func
	depth int

	sig     *types.Signature
	handled map[string]bool
	// assigns lists, per local variable, the assignments to it with the
	// condition guarding each.
	assigns map[types.Object][]assign
	tracing map[types.Object]bool
	facts   []Fact
}

// assign is one assignment of a value to a variable.
type assign struct {
	rhs   ast.Expr
	index int // the variable's index among the results when rhs is a multi-value call; -1 otherwise
	cond  string
	node  ast.Node
}

func (w *errWalk) run() []Fact {
	info := w.src.pkg.Info
	w.sig, _ = w.fn.Type().(*types.Signature)
	if w.sig == nil || w.src.decl.Body == nil {
		return nil
	}
	var errIdx []int
	for i := range w.sig.Results().Len() {
		if types.Identical(w.sig.Results().At(i).Type(), errorType) {
			errIdx = append(errIdx, i)
		}
	}
	if len(errIdx) == 0 {
		return nil
	}
	w.handled = map[string]bool{}
	w.assigns = map[types.Object][]assign{}
	w.tracing = map[types.Object]bool{}
	var stack []ast.Node
	var returns []returnAt
	ast.Inspect(w.src.decl.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.ReturnStmt:
			returns = append(returns, returnAt{n, guard(stack)})
		case *ast.AssignStmt:
			w.recordAssign(n.Lhs, n.Rhs, guard(stack), n)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			w.recordAssign(lhs, n.Values, "", n)
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				for _, side := range []ast.Expr{n.X, n.Y} {
					if name, ok := sentinelName(info, w.src.pkg.Types, side); ok {
						w.handled[name] = true
					}
				}
			}
		case *ast.CallExpr:
			if fn := calledFunc(info, n); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(n.Args) == 2 {
				if name, ok := sentinelName(info, w.src.pkg.Types, n.Args[1]); ok {
					w.handled[name] = true
				}
			}
		}
		return true
	})
	for _, r := range returns {
		switch {
		case len(r.ret.Results) == w.sig.Results().Len():
			for _, i := range errIdx {
				w.classify(r.ret.Results[i], r.cond, r.ret)
			}
		case len(r.ret.Results) == 1:
			// return f(...) with f's results as the function's.
			if call, ok := ast.Unparen(r.ret.Results[0]).(*ast.CallExpr); ok {
				w.callee(call)
			}
		case len(r.ret.Results) == 0:
			// A naked return of named results.
			for _, i := range errIdx {
				if v := w.sig.Results().At(i); v.Name() != "" {
					w.trace(v)
				}
			}
		}
	}
	return mergeErrors(w.facts)
}

// returnAt is a return statement with the condition guarding it.
type returnAt struct {
	ret  *ast.ReturnStmt
	cond string
}

// recordAssign records the assignments of rhs to the local variables of
// lhs.
func (w *errWalk) recordAssign(lhs, rhs []ast.Expr, cond string, node ast.Node) {
	info := w.src.pkg.Info
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		obj := info.ObjectOf(id)
		if v, ok := obj.(*types.Var); !ok || v.Parent() == v.Pkg().Scope() {
			continue
		}
		switch {
		case len(rhs) == len(lhs):
			w.assigns[obj] = append(w.assigns[obj], assign{rhs: rhs[i], index: -1, cond: cond, node: node})
		case len(rhs) == 1:
			w.assigns[obj] = append(w.assigns[obj], assign{rhs: rhs[0], index: i, cond: cond, node: node})
		}
	}
}

// classify adds the facts of an error expression returned at node under
// cond.
func (w *errWalk) classify(e ast.Expr, cond string, node ast.Node) {
	info := w.src.pkg.Info
	e = ast.Unparen(e)
	if name, ok := sentinelName(info, w.src.pkg.Types, e); ok {
		w.add(name, cond, node)
		return
	}
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if _, ok := x.X.(*ast.CompositeLit); ok && x.Op == token.AND {
			if t := info.TypeOf(x); isErrorType(t) && exportedType(t) {
				w.add("*"+typeName(t, w.src.pkg.Types), cond, node)
			}
		}
	case *ast.CompositeLit:
		if t := info.TypeOf(x); isErrorType(t) && exportedType(t) {
			w.add(typeName(t, w.src.pkg.Types), cond, node)
		}
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok && v.Parent() != v.Pkg().Scope() {
			w.trace(v)
		}
	case *ast.CallExpr:
		fn := calledFunc(info, x)
		if fn == nil || fn.Pkg() == nil {
			return
		}
		if fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf" {
			if len(x.Args) < 2 || !wraps(info, x.Args[0]) {
				return
			}
			for _, arg := range x.Args[1:] {
				if isErrorType(info.TypeOf(arg)) {
					w.classify(arg, cond, node)
				}
			}
			return
		}
		w.callee(x)
	}
}

// wraps reports whether a format argument is a constant holding %w.
func wraps(info *types.Info, format ast.Expr) bool {
	tv, ok := info.Types[format]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String && strings.Contains(constant.StringVal(tv.Value), "%w")
}

// trace adds the facts of the values assigned to the local variable v.
func (w *errWalk) trace(v types.Object) {
	if w.tracing[v] {
		return
	}
	w.tracing[v] = true
	for _, as := range w.assigns[v] {
		if as.index < 0 {
			w.classify(as.rhs, as.cond, as.node)
			continue
		}
		if call, ok := ast.Unparen(as.rhs).(*ast.CallExpr); ok {
			w.callee(call)
		}
	}
}

// callee adds the error facts of the module function call calls, while
// the depth allows, leaving out those the function handles.
func (w *errWalk) callee(call *ast.CallExpr) {
	if w.depth <= 0 {
		return
	}
	fn := calledFunc(w.src.pkg.Info, call)
	if fn == nil {
		return
	}
	// Hops are qualified by import path until funcFacts makes them
	// relative to the analysed symbol's package.
	hop := fn.Pkg().Path() + "\x00" + funcName(fn, nil)
	for _, f := range w.a.errorsOf(fn, w.depth-1) {
		if w.handled[f.Name] || w.handled[strings.TrimPrefix(f.Name, "*")] {
			continue
		}
		f.Cond = ""
		// Names are relative to the callee's package; requalify them for
		// the caller's.
		f.Name = requalify(f.Name, fn.Pkg(), w.src.pkg.Types)
		f.Hops = append([]string{hop}, f.Hops...)
		w.facts = append(w.facts, f)
	}
}

// requalify turns a name relative to package from ("ErrX", "*PathError",
// "io.EOF") into one relative to package to ("fs.ErrX", "*fs.PathError",
// "EOF" when to is io).
func requalify(name string, from, to *types.Package) string {
	if from == nil || to == nil || from == to {
		return name
	}
	star, bare := "", name
	if strings.HasPrefix(bare, "*") {
		star, bare = "*", bare[1:]
	}
	if pkg, rest, ok := strings.Cut(bare, "."); ok {
		if pkg == to.Name() {
			return star + rest
		}
		return name
	}
	return star + from.Name() + "." + bare
}

func (w *errWalk) add(name, cond string, node ast.Node) {
	fset := w.src.pkg.Fset
	pos, end := fset.Position(node.Pos()), fset.Position(node.End())
	w.facts = append(w.facts, Fact{Kind: KindError, Name: name, Cond: cond, Path: pos.Filename, Line: pos.Line, EndLine: end.Line})
}

// mergeErrors keeps one fact per name, in order of first appearance: the
// one with the fewest hops, with a condition only when all direct returns
// of it share it.
func mergeErrors(facts []Fact) []Fact {
	var out []Fact
	at := map[string]int{}
	for _, f := range facts {
		i, ok := at[f.Name]
		if !ok {
			at[f.Name] = len(out)
			out = append(out, f)
			continue
		}
		switch {
		case len(f.Hops) < len(out[i].Hops):
			out[i] = f
		case len(f.Hops) == 0 && len(out[i].Hops) == 0 && f.Cond != out[i].Cond:
			out[i].Cond = ""
		}
	}
	return out
}

// sentinelName names e when it is an exported package-level variable of an
// error type: "ErrNotFound" in its own package, "io.EOF" from another.
func sentinelName(info *types.Info, from *types.Package, e ast.Expr) (string, bool) {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return "", false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !v.Exported() || !isErrorType(v.Type()) {
		return "", false
	}
	if v.Pkg() != from {
		return v.Pkg().Name() + "." + v.Name(), true
	}
	return v.Name(), true
}

// typeName names the (pointed-to) named type t from package from:
// "SyntaxError", "fs.PathError".
func typeName(t types.Type, from *types.Package) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return types.TypeString(t, types.RelativeTo(from))
	}
	if n.Obj().Pkg() != nil && n.Obj().Pkg() != from {
		return n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return n.Obj().Name()
}

// isErrorType reports whether t implements error (the interface itself
// included).
func isErrorType(t types.Type) bool {
	if t == nil {
		return false
	}
	iface := errorType.Underlying().(*types.Interface)
	return types.Implements(t, iface)
}

// exportedType reports whether t (or what it points to) is a named type
// callers can name with errors.As.
func exportedType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Exported()
}

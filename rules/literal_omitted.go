package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// This file holds the omitted-default half of the literal-mismatch rule: a
// struct field whose constructor leaves it out of the composite literal it
// builds, and which no code of the repository gives a value of its own,
// defaults to zero whatever its doc says. go-task's NewExecutor builds an
// Executor with a dozen fields set and CacheExpiryDuration left out; the
// option that sets it says "By default, the cache is considered expired
// after 24 hours", and the value flows, unchanged and never compared, into
// the taskfile reader's cacheExpiryDuration and from there into
// time.Time.Add.
//
// The zero is a default only when the flow proves it: every use of the
// field, and of each variable, parameter and field its value is copied
// into, is followed through the repository's packages, and any use that
// could turn a zero into something else (a comparison, a switch, a
// return, an address taken, a call into a dependency or into most of the
// standard library, min or max) makes the field's default unknown.

// omittedDepth bounds how many copies of a field's value are followed.
const omittedDepth = 8

// fieldFlows describes, for the repository's own packages, what the code
// does with values of basic type held in struct fields, parameters and
// variables.
type fieldFlows struct {
	// opaque holds the objects some use of which is not followed.
	opaque map[types.Object]bool
	// into holds the objects each object's value is copied into as is or
	// scaled: assigned, keyed in a composite literal, passed as an
	// argument.
	into map[types.Object][]types.Object
	// written holds the fields given a value other than a zero constant,
	// a parameter, a variable or another field.
	written map[types.Object]bool
	// ctors holds, for each struct type a constructor builds, the
	// composite literals that build it with keys.
	ctors map[*types.TypeName][]ctorLit
}

// ctorLit is a keyed composite literal a constructor builds.
type ctorLit struct {
	fn   string
	keys map[types.Object]bool
	path string
	line int
}

// flowsOf returns the field flows of the workspace, computed once.
func (r *LiteralMismatch) flowsOf(ws *review.Workspace) *fieldFlows {
	f, _ := r.flows.get(ws, "", func() (*fieldFlows, error) { return collectFlows(ws.Symbols), nil })
	return f
}

// collectFlows walks every non-test file of the repository's packages.
func collectFlows(syms *retrieval.Symbols) *fieldFlows {
	ff := &fieldFlows{opaque: map[types.Object]bool{}, into: map[types.Object][]types.Object{},
		written: map[types.Object]bool{}, ctors: map[*types.TypeName][]ctorLit{}}
	if syms == nil {
		return nil
	}
	pkgs := syms.Packages()
	decls := map[*types.Func]*ast.FuncDecl{}
	repo := map[*types.Package]bool{}
	for _, p := range pkgs {
		if p.Info == nil || p.Types == nil {
			return nil // a package the flow cannot see
		}
		repo[p.Types] = true
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if fn, ok := p.Info.Defs[fd.Name].(*types.Func); ok {
						decls[fn] = fd
					}
				}
			}
		}
	}
	for _, p := range pkgs {
		w := flowWalker{p: p, ff: ff, decls: decls, repo: repo}
		for _, f := range p.Syntax {
			w.file(f)
		}
	}
	return ff
}

type flowWalker struct {
	p     *retrieval.Package
	ff    *fieldFlows
	decls map[*types.Func]*ast.FuncDecl
	repo  map[*types.Package]bool
}

// tracked returns the object x names when it is a field, parameter or
// variable of basic type, or nil.
func (w *flowWalker) tracked(x ast.Expr) types.Object {
	var obj types.Object
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		if v, ok := w.p.Info.Uses[x].(*types.Var); ok {
			obj = v
		} else if v, ok := w.p.Info.Defs[x].(*types.Var); ok {
			obj = v
		}
	case *ast.SelectorExpr:
		if s := w.p.Info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
			obj = s.Obj()
		} else if v, ok := w.p.Info.Uses[x.Sel].(*types.Var); ok {
			obj = v // a package-level var of another package
		}
	}
	if obj == nil {
		return nil
	}
	if _, ok := obj.Type().Underlying().(*types.Basic); !ok {
		return nil
	}
	return obj
}

func (w *flowWalker) file(f *ast.File) {
	var stack []ast.Node
	var fns []*ast.FuncDecl
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			if fd, ok := stack[len(stack)-1].(*ast.FuncDecl); ok && len(fns) > 0 && fns[len(fns)-1] == fd {
				fns = fns[:len(fns)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncDecl:
			fns = append(fns, n)
		case *ast.CompositeLit:
			if len(fns) > 0 {
				w.ctorLiteral(fns[len(fns)-1], n)
			}
			w.positional(n)
		case *ast.StructType:
			w.tags(n)
		case *ast.Ident, *ast.SelectorExpr:
			if obj := w.tracked(n.(ast.Expr)); obj != nil {
				w.use(obj, n.(ast.Expr), stack[:len(stack)-1])
			}
		}
		return true
	})
}

// tags makes a field with a struct tag opaque, a tag can hand it to a
// decoder, and every field of a struct one of whose tags says default
// (a defaults library's "default:\"24h\"").
func (w *flowWalker) tags(st *ast.StructType) {
	all := false
	for _, f := range st.Fields.List {
		all = all || f.Tag != nil && strings.Contains(f.Tag.Value, "default")
	}
	for _, f := range st.Fields.List {
		if f.Tag == nil && !all {
			continue
		}
		for _, n := range f.Names {
			if obj := w.p.Info.Defs[n]; obj != nil {
				w.ff.opaque[obj] = true
			}
		}
	}
}

// positional makes every field of a struct built by an unkeyed composite
// literal written: which element sets which field is not followed.
func (w *flowWalker) positional(lit *ast.CompositeLit) {
	if len(lit.Elts) == 0 {
		return
	}
	if _, ok := lit.Elts[0].(*ast.KeyValueExpr); ok {
		return
	}
	st, ok := w.p.Info.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		w.ff.written[st.Field(i)] = true
	}
}

// ctorLiteral records a keyed composite literal of a struct of the
// package built by a constructor: New…, new…, a func taking the package's
// options, or a func whose name says default.
func (w *flowWalker) ctorLiteral(fd *ast.FuncDecl, lit *ast.CompositeLit) {
	if len(lit.Elts) < 2 {
		return
	}
	name := fd.Name.Name
	if fd.Recv != nil || !(strings.HasPrefix(name, "New") || strings.HasPrefix(name, "new") || takesOptions(w.p, fd)) &&
		!strings.Contains(strings.ToLower(name), "default") {
		return
	}
	named, ok := types.Unalias(w.p.Info.TypeOf(lit)).(*types.Named)
	if !ok || named.Obj().Pkg() != w.p.Types {
		return
	}
	keys := map[types.Object]bool{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return
		}
		if k, ok := kv.Key.(*ast.Ident); ok {
			if obj := w.p.Info.Uses[k]; obj != nil {
				keys[obj] = true
			}
		}
	}
	pos := w.p.Fset.Position(lit.Pos())
	w.ff.ctors[named.Obj()] = append(w.ff.ctors[named.Obj()], ctorLit{fn: funcLabel(fd), keys: keys, path: pos.Filename, line: pos.Line})
}

// use classifies one use of obj, x being the expression that names it and
// stack its ancestors.
func (w *flowWalker) use(obj types.Object, x ast.Expr, stack []ast.Node) {
	// A selector's X (s.F.G) is a use of the selector, not of s.F's
	// value; a key of a composite literal is the literal's business.
	if len(stack) > 0 {
		if sel, ok := stack[len(stack)-1].(*ast.SelectorExpr); ok && sel.Sel == x {
			return // the Sel of a selector the walker sees whole
		}
		if kv, ok := stack[len(stack)-1].(*ast.KeyValueExpr); ok && kv.Key == x {
			return
		}
		if _, ok := stack[len(stack)-1].(*ast.Field); ok {
			return // a declaration
		}
		if _, ok := stack[len(stack)-1].(*ast.ValueSpec); ok {
			if id, ok := x.(*ast.Ident); ok && w.p.Info.Defs[id] != nil {
				return // var v = …: the value's use records the copy
			}
		}
		if as, ok := stack[len(stack)-1].(*ast.AssignStmt); ok {
			for i, l := range as.Lhs {
				if l == x {
					w.write(obj, as, i)
					return
				}
			}
		}
	}
	// Climb through parentheses, conversions and arithmetic, which keep
	// a zero a zero.
	cur := ast.Node(x)
	i := len(stack) - 1
climb:
	for ; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			cur = p
			continue
		case *ast.BinaryExpr:
			switch p.Op {
			case token.ADD, token.SUB, token.MUL, token.QUO, token.SHL, token.SHR:
				cur = p
				continue
			}
		case *ast.CallExpr:
			if tv, ok := w.p.Info.Types[p.Fun]; ok && tv.IsType() && len(p.Args) == 1 {
				cur = p
				continue
			}
		}
		break climb
	}
	if i < 0 {
		w.ff.opaque[obj] = true
		return
	}
	switch p := stack[i].(type) {
	case *ast.AssignStmt:
		if p.Tok != token.ASSIGN && p.Tok != token.DEFINE || len(p.Lhs) != len(p.Rhs) {
			w.ff.opaque[obj] = true
			return
		}
		for k, r := range p.Rhs {
			if r == cur {
				if to := w.tracked(p.Lhs[k]); to != nil {
					w.ff.into[obj] = append(w.ff.into[obj], to)
					return
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == len(p.Values) {
			for k, v := range p.Values {
				if v == cur {
					if to := w.p.Info.Defs[p.Names[k]]; to != nil {
						w.ff.into[obj] = append(w.ff.into[obj], to)
						return
					}
				}
			}
		}
	case *ast.KeyValueExpr:
		if p.Value != cur || i == 0 {
			break
		}
		lit, ok := stack[i-1].(*ast.CompositeLit)
		if !ok {
			break
		}
		named, _ := types.Unalias(w.p.Info.TypeOf(lit)).(*types.Named)
		key, _ := p.Key.(*ast.Ident)
		if named == nil || key == nil {
			break
		}
		// A field of a struct of the standard library is not followed:
		// many read a zero as their own default (net.Dialer's
		// KeepAlive, tls.Config's MinVersion, http.Transport's
		// MaxIdleConnsPerHost).
		if pkg := named.Obj().Pkg(); pkg != nil && w.repo[pkg] {
			if to := w.p.Info.Uses[key]; to != nil {
				w.ff.into[obj] = append(w.ff.into[obj], to)
				return
			}
		}
	case *ast.CallExpr:
		if w.call(obj, p, cur) {
			return
		}
	}
	w.ff.opaque[obj] = true
}

// call follows a value passed as an argument: into the parameter of a
// func of the repository, or as is into the standard library.
func (w *flowWalker) call(obj types.Object, call *ast.CallExpr, arg ast.Node) bool {
	k := -1
	for i, a := range call.Args {
		if a == arg {
			k = i
		}
	}
	if k < 0 || call.Ellipsis != token.NoPos {
		return false
	}
	fn := calledFunc(w.p.Info, call)
	if fn == nil || fn.Pkg() == nil {
		return false // a builtin (min, max, make) or a func value
	}
	if isStdPath(fn.Pkg().Path()) {
		return zeroKeepingStd(fn.Pkg().Path())
	}
	fd := w.decls[fn]
	if fd == nil {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Variadic() && k >= sig.Params().Len()-1 || k >= sig.Params().Len() {
		return false
	}
	param := sig.Params().At(k)
	if param.Name() == "" || param.Name() == "_" {
		return true // never read
	}
	w.ff.into[obj] = append(w.ff.into[obj], param)
	return true
}

// write classifies an assignment to obj, the i-th target of as.
func (w *flowWalker) write(obj types.Object, as *ast.AssignStmt, i int) {
	if as.Tok != token.ASSIGN && as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
		w.ff.written[obj] = true
		return
	}
	if !w.plainValue(as.Rhs[i]) {
		w.ff.written[obj] = true
	}
}

// plainValue reports whether a value written into a field is a zero
// constant or another tracked value, whose own flow decides.
func (w *flowWalker) plainValue(x ast.Expr) bool {
	x = retrieval.Unconvert(w.p.Info, x)
	if tv, ok := w.p.Info.Types[x]; ok && tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.Int, constant.Float:
			return constant.Sign(tv.Value) == 0
		case constant.String:
			return constant.StringVal(tv.Value) == ""
		case constant.Bool:
			return !constant.BoolVal(tv.Value)
		}
		return false
	}
	return w.tracked(x) != nil
}

// reaches reports whether obj's value, followed through its copies, only
// meets uses that keep a zero a zero.
func (ff *fieldFlows) reaches(obj types.Object) bool {
	seen := map[types.Object]bool{obj: true}
	frontier := []types.Object{obj}
	for depth := 0; len(frontier) > 0; depth++ {
		if depth > omittedDepth {
			return false
		}
		var next []types.Object
		for _, o := range frontier {
			if ff.opaque[o] {
				return false
			}
			for _, to := range ff.into[o] {
				if !seen[to] {
					seen[to] = true
					next = append(next, to)
				}
			}
		}
		frontier = next
	}
	return true
}

// omittedDefault returns the zero a struct field defaults to when its
// package's constructors build the struct without it and nothing gives it
// another value.
func (r *LiteralMismatch) omittedDefault(ws *review.Workspace, sym retrieval.Symbol) (valueSite, bool) {
	field, ok := sym.Object.(*types.Var)
	if !ok || !field.IsField() {
		return valueSite{}, false
	}
	b, ok := field.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsNumeric == 0 {
		return valueSite{}, false
	}
	typ, _, ok := strings.Cut(sym.Name, ".")
	if !ok || sym.Package == nil || sym.Package.Types == nil {
		return valueSite{}, false
	}
	tn, ok := sym.Package.Types.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return valueSite{}, false
	}
	ff := r.flowsOf(ws)
	if ff == nil || ff.written[field] || !ff.reaches(field) {
		return valueSite{}, false
	}
	lits := ff.ctors[tn]
	if len(lits) == 0 {
		return valueSite{}, false
	}
	for _, l := range lits {
		if l.keys[field] {
			return valueSite{}, false
		}
	}
	l := lits[0]
	zero := constant.MakeInt64(0)
	if b.Info()&types.IsFloat != 0 {
		zero = constant.MakeFloat64(0)
	}
	return valueSite{
		val: zero, typ: field.Type(), name: typ + "." + field.Name(), expr: "0",
		why:  fmt.Sprintf("%s builds %s without %s, and no code gives it a value when it is zero", l.fn, typ, field.Name()),
		path: l.path, line: l.line, end: l.line, fn: l.fn, omitted: true,
	}, true
}

// zeroKeepingStd reports the standard packages whose funcs and methods take
// a zero as a zero: time's durations and instants, a context's timeout,
// and formatting. Others may read it as their own default (cmp.Or,
// bufio.NewReaderSize, sql's SetMaxIdleConns).
func zeroKeepingStd(ip string) bool {
	switch ip {
	case "time", "context", "fmt", "strconv", "log":
		return true
	}
	return false
}

// isStdPath reports whether an import path is the standard library's: its
// first element has no dot.
func isStdPath(ip string) bool {
	first, _, _ := strings.Cut(ip, "/")
	return !strings.Contains(first, ".")
}

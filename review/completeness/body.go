package completeness

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review/prose"
)

// maxCond is the longest condition a fact quotes; longer ones are left
// out.
const maxCond = 40

// maxHops is how many calls deep errors are traced through callees.
const maxHops = 2

// funcFacts returns the facts of a func or method declaration: parameters,
// results and units, then errors, then what its own body shows.
func (a *analyzer) funcFacts(p *retrieval.Package, d *ast.FuncDecl, fn *types.Func) []Fact {
	var facts []Fact
	at := func(n ast.Node) (string, int) {
		pos := p.Fset.Position(n.Pos())
		return pos.Filename, pos.Line
	}
	params := map[types.Object]bool{}
	if d.Type.Params != nil {
		for _, field := range d.Type.Params.List {
			for _, n := range field.Names {
				obj := p.Info.Defs[n]
				if obj == nil {
					continue
				}
				params[obj] = true
				if n.Name == "_" || isContext(obj.Type()) {
					continue
				}
				file, line := at(n)
				facts = append(facts, Fact{Kind: KindParam, Name: n.Name, Path: file, Line: line, EndLine: line})
			}
		}
	}
	if d.Type.Results != nil {
		for _, field := range d.Type.Results.List {
			for _, n := range field.Names {
				if n.Name == "_" {
					continue
				}
				file, line := at(n)
				facts = append(facts, Fact{Kind: KindResult, Name: n.Name, Path: file, Line: line, EndLine: line})
			}
		}
	}
	if d.Type.Params != nil {
		for _, field := range d.Type.Params.List {
			for _, n := range field.Names {
				obj := p.Info.Defs[n]
				if obj == nil || !isPlainNumber(obj.Type()) {
					continue
				}
				if unit := unitOf(n.Name); unit != "" {
					file, line := at(n)
					facts = append(facts, Fact{Kind: KindUnit, Name: n.Name, Value: unit, Path: file, Line: line, EndLine: line})
				}
			}
		}
	}
	if d.Body == nil {
		return facts
	}
	for _, f := range a.errorsOf(fn, maxHops) {
		hops := make([]string, len(f.Hops))
		for i, h := range f.Hops {
			hops[i] = relativeHop(h, p.Types)
		}
		f.Hops = hops
		facts = append(facts, f)
	}
	var recv types.Object
	if d.Recv != nil && len(d.Recv.List) > 0 && len(d.Recv.List[0].Names) > 0 {
		recv = p.Info.Defs[d.Recv.List[0].Names[0]]
	}
	b := &bodyWalk{p: p, params: params, recv: recv, recovers: hasRecover(p.Info, d.Body)}
	b.walk(d.Body)
	facts = append(facts, b.panics...)
	facts = append(facts, b.defaults...)
	facts = append(facts, b.consts...)
	for _, f := range []*Fact{b.blocks, b.goroutine, b.lock} {
		if f != nil {
			facts = append(facts, *f)
		}
	}
	return facts
}

// relativeHop turns a hop recorded as "import/path\x00pkg.Name" into the
// name relative to package from: "Name" in from itself, else "pkg.Name".
func relativeHop(hop string, from *types.Package) string {
	path, name, ok := strings.Cut(hop, "\x00")
	if !ok {
		return hop
	}
	if path == from.Path() {
		if _, rest, ok := strings.Cut(name, "."); ok {
			return rest
		}
	}
	return name
}

// bodyWalk collects the facts a function's own body shows.
type bodyWalk struct {
	p        *retrieval.Package
	params   map[types.Object]bool
	recv     types.Object
	recovers bool

	panics, defaults, consts []Fact
	blocks, goroutine, lock  *Fact
	seenPanic, seenConst     map[string]bool
	defaultConsts            map[types.Object]bool
	nonBlocking              map[ast.Node]bool
}

func (b *bodyWalk) fact(kind FactKind, name string, n ast.Node) Fact {
	pos, end := b.p.Fset.Position(n.Pos()), b.p.Fset.Position(n.End())
	return Fact{Kind: kind, Name: name, Path: pos.Filename, Line: pos.Line, EndLine: end.Line}
}

func (b *bodyWalk) walk(body *ast.BlockStmt) {
	b.seenPanic, b.seenConst = map[string]bool{}, map[string]bool{}
	b.defaultConsts, b.nonBlocking = map[types.Object]bool{}, map[ast.Node]bool{}
	info := b.p.Info
	var stack []ast.Node
	// The defaults first, so that their constants are not bounds too.
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if s, ok := n.(*ast.IfStmt); ok {
			if f, obj, ok := b.defaultFact(s); ok {
				b.defaults = append(b.defaults, f)
				if obj != nil {
					b.defaultConsts[obj] = true
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			if b.goroutine == nil {
				f := b.fact(KindGoroutine, "go "+types.ExprString(n.Call.Fun), n)
				b.goroutine = &f
			}
			// The call runs in the new goroutine.
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.SelectStmt:
			hasDefault := false
			for _, c := range n.Body.List {
				if cc, ok := c.(*ast.CommClause); ok {
					if cc.Comm == nil {
						hasDefault = true
					} else {
						b.nonBlocking[cc.Comm] = true
					}
				}
			}
			if !hasDefault {
				b.blocked("select", n)
			}
		case *ast.SendStmt:
			if !b.nonBlocking[n] {
				b.blocked("channel send", n)
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && !b.inComm(stack) {
				b.blocked("channel receive", n)
			}
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					b.blocked("range over a channel", n)
				}
			}
		case *ast.BinaryExpr:
			b.bound(n)
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok && isBuiltin(info, call, "panic") && !b.recovers && !unreachable(call) {
				cond := guard(stack)
				if !b.seenPanic[cond] {
					b.seenPanic[cond] = true
					f := b.fact(KindPanic, "panic", n)
					f.Cond = cond
					b.panics = append(b.panics, f)
				}
			}
		case *ast.CallExpr:
			b.call(n)
		}
		return true
	})
}

// inComm reports whether the top of stack lies in a communication of a
// select statement.
func (b *bodyWalk) inComm(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if b.nonBlocking[stack[i]] {
			return true
		}
	}
	return false
}

func (b *bodyWalk) blocked(what string, n ast.Node) {
	if b.blocks == nil {
		f := b.fact(KindBlocks, what, n)
		b.blocks = &f
	}
}

// call records blocking calls (sync.WaitGroup.Wait, sync.Cond.Wait,
// time.Sleep) and locks (Lock and RLock of a mutex in a receiver field or
// a package-level variable).
func (b *bodyWalk) call(call *ast.CallExpr) {
	fn := calledFunc(b.p.Info, call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	owner := ""
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			owner = n.Obj().Name()
		}
	}
	switch full := fn.Pkg().Path() + "." + owner + "." + fn.Name(); full {
	case "sync.WaitGroup.Wait", "sync.Cond.Wait", "time..Sleep":
		b.blocked(strings.ReplaceAll(strings.TrimPrefix(full, "sync."), "..", "."), call)
	case "sync.Mutex.Lock", "sync.RWMutex.Lock", "sync.RWMutex.RLock":
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if ok && b.lock == nil && b.heldByReceiverOrPackage(sel.X) {
			f := b.fact(KindLock, types.ExprString(sel.X), call)
			b.lock = &f
		}
	}
}

// heldByReceiverOrPackage reports whether e is the receiver, a field
// selected from it, or a package-level variable (or a field of one).
func (b *bodyWalk) heldByReceiverOrPackage(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj := b.p.Info.Uses[x]
			if obj == nil {
				return false
			}
			if b.recv != nil && obj == b.recv {
				return true
			}
			v, ok := obj.(*types.Var)
			return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
		case *ast.SelectorExpr:
			if sel := b.p.Info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				// pkg.Var
				if id, ok := x.X.(*ast.Ident); ok {
					if _, ok := b.p.Info.Uses[id].(*types.PkgName); ok {
						v, ok := b.p.Info.Uses[x.Sel].(*types.Var)
						return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
					}
				}
				return false
			}
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return false
			}
			e = x.X
		default:
			return false
		}
	}
}

// bound records the constants of the function's own package compared with
// an ordering operator.
func (b *bodyWalk) bound(n *ast.BinaryExpr) {
	switch n.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return
	}
	info := b.p.Info
	if tv, ok := info.Types[n]; ok && tv.Value != nil {
		return // both sides constant
	}
	for _, side := range []ast.Expr{n.X, n.Y} {
		c := packageConst(info, side)
		if c == nil || c.Pkg() != b.p.Types || b.defaultConsts[c] || b.seenConst[c.Name()] {
			continue
		}
		b.seenConst[c.Name()] = true
		f := b.fact(KindConst, c.Name(), n)
		f.Value = constValue(c.Type(), c.Val())
		if s := types.ExprString(n); len(s) <= maxCond {
			f.Cond = s
		}
		b.consts = append(b.consts, f)
	}
}

// packageConst returns the package-level constant e names, or nil.
func packageConst(info *types.Info, e ast.Expr) *types.Const {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return nil
	}
	c, ok := info.Uses[id].(*types.Const)
	if !ok || c.Pkg() == nil || c.Parent() != c.Pkg().Scope() {
		return nil
	}
	return c
}

// defaultFact recognises "if x == 0 { x = D }" (also <= 0, == "", == nil)
// where x is a parameter or a field of one, the if has no init statement,
// and D is a constant or a package-level variable. obj is D's object when
// D is a named constant.
func (b *bodyWalk) defaultFact(s *ast.IfStmt) (Fact, types.Object, bool) {
	info := b.p.Info
	bin, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || s.Init != nil || len(s.Body.List) == 0 || bin.Op != token.EQL && bin.Op != token.LEQ {
		return Fact{}, nil, false
	}
	if !isZero(info, bin.Y) || !rootedAtParam(info, b.params, bin.X) {
		return Fact{}, nil, false
	}
	as, ok := s.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 ||
		types.ExprString(as.Lhs[0]) != types.ExprString(bin.X) {
		return Fact{}, nil, false
	}
	rhs := ast.Unparen(as.Rhs[0])
	tv, ok := info.Types[rhs]
	if !ok || isZero(info, rhs) || tv.Value == nil && !packageVar(info, rhs) {
		// Only a constant or a package-level variable is a default.
		return Fact{}, nil, false
	}
	name := ""
	var obj types.Object
	switch rhs.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		name = types.ExprString(rhs)
		if c := packageConst(info, rhs); c != nil {
			obj = c
		}
	}
	f := b.fact(KindDefault, name, as)
	f.Line = b.p.Fset.Position(s.Pos()).Line
	f.Cond = types.ExprString(s.Cond)
	if tv.Value != nil {
		f.Value = constValue(tv.Type, tv.Value)
	}
	return f, obj, true
}

// packageVar reports whether e names a package-level variable
// ("DefaultClient", "http.DefaultClient").
func packageVar(info *types.Info, e ast.Expr) bool {
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// constValue renders a constant as a doc would write it: durations as
// time.Duration prints them without trailing zero units ("30s", "15m",
// "1h30m"), strings quoted, floats in decimal, other numbers exactly.
func constValue(t types.Type, v constant.Value) string {
	if isDuration(t) {
		if d, ok := constant.Int64Val(v); ok {
			return durationString(time.Duration(d))
		}
	}
	switch v.Kind() {
	case constant.Float:
		if f, ok := constant.Float64Val(v); ok {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	case constant.Int:
		if i, ok := constant.Int64Val(v); ok {
			return strconv.FormatInt(i, 10)
		}
	}
	return v.ExactString()
}

// durationString is d.String() without zero trailing units: "15m" for
// "15m0s", "1h" for "1h0m0s".
func durationString(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func isDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

func isContext(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// isPlainNumber reports whether t is an unnamed integer or float type
// (int, uint32, float64): a named type such as time.Duration carries its
// unit itself.
func isPlainNumber(t types.Type) bool {
	bt, ok := t.(*types.Basic)
	return ok && bt.Info()&(types.IsInteger|types.IsFloat) != 0
}

// unitOf returns, in words, the unit a parameter name carries
// ([prose.NameUnit]: "timeoutMs" → "milliseconds", "size_kb" →
// "kilobytes", "seconds" → "seconds"), or "".
func unitOf(name string) string {
	unit, _ := prose.NameUnit(name)
	if unit == "" {
		return ""
	}
	return prose.UnitName(unit)
}

// guard returns the condition of the if statement whose body directly
// holds the statement on top of stack, when the if has no init statement
// and the condition is at most maxCond characters long; else "".
func guard(stack []ast.Node) string {
	if len(stack) < 3 {
		return ""
	}
	block, ok := stack[len(stack)-2].(*ast.BlockStmt)
	if !ok {
		return ""
	}
	ifs, ok := stack[len(stack)-3].(*ast.IfStmt)
	if !ok || ifs.Body != block || ifs.Init != nil {
		return ""
	}
	if s := types.ExprString(ifs.Cond); len(s) <= maxCond {
		return s
	}
	return ""
}

// isBuiltin reports whether call calls the builtin name.
func isBuiltin(info *types.Info, call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// hasRecover reports whether body defers a call that reaches recover: its
// panics do not leave the function.
func hasRecover(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	for _, st := range body.List {
		d, ok := st.(*ast.DeferStmt)
		if !ok {
			continue
		}
		ast.Inspect(d.Call, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && isBuiltin(info, call, "recover") {
				found = true
			}
			return !found
		})
	}
	return found
}

// unreachable reports whether a panic call marks code that cannot run: its
// message says "unreachable", "not reached", "impossible", "should not
// happen" or "never happen".
func unreachable(call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	msg := strings.ToLower(lit.Value)
	for _, w := range []string{"unreachable", "not reached", "impossible", "should not happen", "never happen"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// isZero reports whether e is the constant zero, "" or nil.
func isZero(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	if tv.IsNil() {
		return true
	}
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	}
	return false
}

// rootedAtParam reports whether e is a parameter or a field selected from
// one ("opts.Timeout").
func rootedAtParam(info *types.Info, params map[types.Object]bool, e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return params[info.Uses[x]]
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				return false
			}
			e = x.X
		default:
			return false
		}
	}
}

// calledFunc returns the function or method a call calls statically, its
// generic origin for an instance; nil for calls of func values and
// interface methods without a declaration.
func calledFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr:
		return calledFunc(info, &ast.CallExpr{Fun: f.X})
	case *ast.IndexListExpr:
		return calledFunc(info, &ast.CallExpr{Fun: f.X})
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

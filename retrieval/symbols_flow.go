package retrieval

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// ValueFlow is where the value of a package-level const or var goes within
// its package: the fields set from it, the fields copied over those under
// a guard ("if opts.Size > 0 { c.size = opts.Size }": Size defaults to the
// value), the fields a func returns when set and the value otherwise
// ([FallbackReturns]), and the funcs that use it.
type ValueFlow struct {
	// Fields maps each struct field the package sets from the value, by
	// a composite literal's key or an assignment ("Client.RetryCount"), to
	// the func or method that sets it ("New").
	Fields map[string]string
	// Funcs lists, in source order, the funcs and methods whose bodies use
	// the value ("New", "Client.Reset").
	Funcs []string
}

// ValueFlow returns where the value of sym, a const or var declared in
// the module, goes within its package; the zero ValueFlow for other
// symbols. Test files are not read.
func (s *Symbols) ValueFlow(sym Symbol) ValueFlow {
	p := sym.Package
	if p == nil || p.Info == nil || sym.Object == nil || (sym.Kind != SymbolConst && sym.Kind != SymbolVar) {
		return ValueFlow{}
	}
	obj := sym.Object
	flow := ValueFlow{Fields: map[string]string{}}
	named := func(t types.Type) string {
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return n.Obj().Name()
		}
		return ""
	}
	uses := func(root ast.Node) bool {
		found := false
		ast.Inspect(root, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && p.Info.Uses[id] == obj {
				found = true
			}
			return !found
		})
		return found
	}
	setField := func(field, fn string) {
		if _, ok := flow.Fields[field]; !ok {
			flow.Fields[field] = fn
		}
	}
	for _, file := range p.Syntax {
		if name := p.Fset.Position(file.Package).Filename; strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !uses(fd.Body) {
				continue
			}
			fn := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				if recv := named(p.Info.TypeOf(fd.Recv.List[0].Type)); recv != "" {
					fn = recv + "." + fn
				}
			}
			if !slices.Contains(flow.Funcs, fn) {
				flow.Funcs = append(flow.Funcs, fn)
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					typ := named(p.Info.TypeOf(n))
					if typ == "" {
						return true
					}
					for _, e := range n.Elts {
						kv, ok := e.(*ast.KeyValueExpr)
						if !ok || !uses(kv.Value) {
							continue
						}
						if key, ok := kv.Key.(*ast.Ident); ok {
							if v, ok := p.Info.Uses[key].(*types.Var); ok && v.IsField() {
								setField(typ+"."+key.Name, fn)
							}
						}
					}
				case *ast.AssignStmt:
					if len(n.Lhs) != len(n.Rhs) {
						return true
					}
					for i, l := range n.Lhs {
						sel, ok := l.(*ast.SelectorExpr)
						if !ok || !uses(n.Rhs[i]) {
							continue
						}
						if sl := p.Info.Selections[sel]; sl != nil && sl.Kind() == types.FieldVal {
							if typ := named(sl.Recv()); typ != "" {
								setField(typ+"."+sel.Sel.Name, fn)
							}
						}
					}
				}
				return true
			})
			// A func returning the field when set and the value
			// otherwise gives the field its default.
			for _, fb := range FallbackReturns(p.Info, fd.Body) {
				if fb.FieldType != "" && uses(fb.Value) {
					setField(fb.FieldType+"."+fb.Field.Name(), fn)
				}
			}
			// A field copied over one set from the value, when set,
			// takes the value when unset.
			for _, cp := range GuardedCopies(p.Info, fd.Body) {
				if cp.FromType != "" && cp.ToType != "" && flow.Fields[cp.ToType+"."+cp.To.Name()] == fn {
					setField(cp.FromType+"."+cp.From.Name(), fn)
				}
			}
		}
	}
	// So does one copied, by a func handed the struct, over a field
	// another func set from the value.
	for _, file := range p.Syntax {
		if name := p.Fset.Position(file.Package).Filename; strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			for _, cp := range HandedCopies(p.Info, fd) {
				if cp.FromType == "" || cp.ToType == "" {
					continue
				}
				if fn, ok := flow.Fields[cp.ToType+"."+cp.To.Name()]; ok {
					setField(cp.FromType+"."+cp.From.Name(), fn)
				}
			}
		}
	}
	return flow
}

// FieldsSet returns the struct fields ("Config.Port") that the body of
// sym, a func or method of the module, or the value of sym, a
// package-level var, sets to a constant value by a composite literal's
// key or an assignment, each with the line of the first such setting; nil
// for other symbols. "Config{Port: 9042}" and
// "c.Port = defaultPort" both set Config.Port.
func (s *Symbols) FieldsSet(sym Symbol) map[string]int {
	p := sym.Package
	if p == nil || p.Info == nil || p.Fset == nil || sym.Object == nil || (sym.Kind != SymbolFunc && sym.Kind != SymbolMethod && sym.Kind != SymbolVar) {
		return nil
	}
	var body ast.Node
	for _, file := range p.Syntax {
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil && d.Name.Pos() == sym.Object.Pos() {
					body = d.Body
				}
			case *ast.GenDecl:
				// A package-level var's value: "var ConfigDefault =
				// Config{Expiration: 1 * time.Minute}".
				for _, sp := range d.Specs {
					vs, ok := sp.(*ast.ValueSpec)
					if !ok || len(vs.Values) != len(vs.Names) {
						continue
					}
					for i, n := range vs.Names {
						if n.Pos() == sym.Object.Pos() {
							body = vs.Values[i]
						}
					}
				}
			}
		}
	}
	if body == nil {
		return nil
	}
	named := func(t types.Type) string {
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == p.Types {
			return n.Obj().Name()
		}
		return ""
	}
	out := map[string]int{}
	set := func(field string, at ast.Node, val ast.Expr) {
		if tv, ok := p.Info.Types[val]; !ok || tv.Value == nil {
			return
		}
		if _, ok := out[field]; !ok {
			out[field] = p.Fset.Position(at.Pos()).Line
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			typ := named(p.Info.TypeOf(n))
			if typ == "" {
				return true
			}
			for _, e := range n.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if key, ok := kv.Key.(*ast.Ident); ok {
					if v, ok := p.Info.Uses[key].(*types.Var); ok && v.IsField() {
						set(typ+"."+key.Name, kv, kv.Value)
					}
				}
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				sel, ok := l.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				if sl := p.Info.Selections[sel]; sl != nil && sl.Kind() == types.FieldVal {
					if typ := named(sl.Recv()); typ != "" {
						set(typ+"."+sel.Sel.Name, n, n.Rhs[i])
					}
				}
			}
		}
		return true
	})
	return out
}

// FieldCopy is a struct field that a func copies into another under a
// guard on the source: "if opts.MaxFrameSize > 0 { c.maxFrameSize =
// opts.MaxFrameSize }". Unless the source is set, the target keeps the
// value it had, so the target's default is the source's too.
type FieldCopy struct {
	From, To *types.Var
	// FromType and ToType name the struct types the fields are selected
	// on ("ConnOptions", "conn"); empty for a type of another package.
	FromType, ToType string
	// At is the assignment.
	At ast.Node
}

// GuardedCopies returns the field copies of body: an if statement whose
// condition reads field F and whose branches assign F, possibly
// converted, to another field G.
func GuardedCopies(info *types.Info, body ast.Node) []FieldCopy {
	if info == nil || body == nil {
		return nil
	}
	fieldOf := func(x ast.Expr) (*types.Var, string) {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return nil, ""
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return nil, ""
		}
		v, _ := s.Obj().(*types.Var)
		t := s.Recv()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		name := ""
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == v.Pkg() {
			name = n.Obj().Name()
		}
		return v, name
	}
	var out []FieldCopy
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			return true
		}
		read := map[*types.Var]bool{}
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok {
				if v, _ := fieldOf(x); v != nil {
					read[v] = true
				}
			}
			return true
		})
		if len(read) == 0 {
			return true
		}
		for _, st := range ifs.Body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				continue
			}
			for i, l := range as.Lhs {
				to, toType := fieldOf(l)
				from, fromType := fieldOf(unconvert(info, as.Rhs[i]))
				if to != nil && from != nil && to != from && read[from] {
					out = append(out, FieldCopy{From: from, To: to, FromType: fromType, ToType: toType, At: as})
				}
			}
		}
		return true
	})
	return out
}

// HandedCopies returns the guarded copies of fd ([GuardedCopies]) whose
// target is a field of a struct fd is handed, as a parameter or receiver:
// an option that configures a struct a constructor filled with defaults
// before handing it over ("func (fc FlowControl) configure(o *opts) { if
// fc.Flow > 0 { o.flow = fc.Flow } }"). The source keeps the target's
// default when unset, whichever func gave it.
func HandedCopies(info *types.Info, fd *ast.FuncDecl) []FieldCopy {
	if info == nil || fd == nil || fd.Body == nil {
		return nil
	}
	handed := map[types.Object]bool{}
	lists := []*ast.FieldList{fd.Type.Params}
	if fd.Recv != nil {
		lists = append(lists, fd.Recv)
	}
	for _, l := range lists {
		for _, f := range l.List {
			for _, n := range f.Names {
				if obj := info.Defs[n]; obj != nil {
					handed[obj] = true
				}
			}
		}
	}
	var out []FieldCopy
	for _, cp := range GuardedCopies(info, fd.Body) {
		as, ok := cp.At.(*ast.AssignStmt)
		if !ok {
			continue
		}
		for _, l := range as.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || info.Uses[sel.Sel] != cp.To {
				continue
			}
			if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && handed[info.Uses[x]] {
				out = append(out, cp)
				break
			}
		}
	}
	return out
}

// FieldFallback is a func that returns a struct field when it is set and
// a value of its own otherwise: "if w.BatchSize > 0 { return w.BatchSize
// }; return 100", or "if o.Size == 0 { return defaultSize }; return
// o.Size". The value is the field's default.
type FieldFallback struct {
	Field *types.Var
	// FieldType names the struct type the field is selected on; empty for
	// a type of another package.
	FieldType string
	// Value is what the func returns when the field is unset.
	Value ast.Expr
	// At is that return statement.
	At *ast.ReturnStmt
}

// FallbackReturns returns the field fallbacks of a func body whose
// statements are, at the top level, an if statement testing one field
// and returning, followed by a return: one branch returns the field
// (possibly converted), the other one result.
func FallbackReturns(info *types.Info, body *ast.BlockStmt) []FieldFallback {
	if info == nil || body == nil {
		return nil
	}
	field := func(x ast.Expr) (*types.Var, string) {
		sel, ok := unconvert(info, x).(*ast.SelectorExpr)
		if !ok {
			return nil, ""
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return nil, ""
		}
		v, _ := s.Obj().(*types.Var)
		t := s.Recv()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		name := ""
		if n, ok := types.Unalias(t).(*types.Named); ok && v != nil && n.Obj().Pkg() == v.Pkg() {
			name = n.Obj().Name()
		}
		return v, name
	}
	single := func(st ast.Stmt) *ast.ReturnStmt {
		r, ok := st.(*ast.ReturnStmt)
		if !ok || len(r.Results) != 1 {
			return nil
		}
		return r
	}
	var out []FieldFallback
	for i, st := range body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 || i+1 >= len(body.List) {
			continue
		}
		in, after := single(ifs.Body.List[0]), single(body.List[i+1])
		cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if in == nil || after == nil || !ok {
			continue
		}
		tested, typ := field(cond.X)
		if tested == nil {
			continue
		}
		set, unset := zeroTestOps(info, cond)
		var value *ast.ReturnStmt
		switch {
		case set && sameField(field, in.Results[0], tested):
			value = after // "if F set { return F }; return K"
		case unset && sameField(field, after.Results[0], tested):
			value = in // "if F unset { return K }; return F"
		default:
			// "if F unset { return K * unit }; return F * unit": the
			// field counts units (lumberjack's MaxSize in megabytes),
			// its default is K.
			if k := scaledFallback(info, field, tested, in, after, set, unset); k != nil {
				if tv, ok := info.Types[k]; ok && tv.Value != nil {
					out = append(out, FieldFallback{Field: tested, FieldType: typ, Value: k, At: in})
				}
			}
			continue // "if F > max { return max }": a cap, not a default
		}
		if tv, ok := info.Types[value.Results[0]]; !ok || tv.Value == nil {
			continue
		}
		out = append(out, FieldFallback{Field: tested, FieldType: typ, Value: value.Results[0], At: value})
	}
	return out
}

// sameField reports whether x selects field v, as field reads it.
// scaledFallback returns K of "if F unset { return K * unit }; return F *
// unit" (conversions allowed around each operand and product), the unit
// the same expression or a constant of the same value in both; nil when
// the branches are not of that form.
func scaledFallback(info *types.Info, field func(ast.Expr) (*types.Var, string), tested *types.Var, in, after *ast.ReturnStmt, set, unset bool) ast.Expr {
	if !unset && !set {
		return nil
	}
	fallback, fieldRet := in, after
	if set {
		fallback, fieldRet = after, in
	}
	product := func(x ast.Expr) (a, b ast.Expr, ok bool) {
		bin, ok := unconvert(info, x).(*ast.BinaryExpr)
		if !ok || bin.Op != token.MUL {
			return nil, nil, false
		}
		return bin.X, bin.Y, true
	}
	fx, fy, ok := product(fieldRet.Results[0])
	if !ok {
		return nil
	}
	unit := fy
	if !sameField(field, fx, tested) {
		if !sameField(field, fy, tested) {
			return nil
		}
		unit = fx
	}
	ut := info.Types[unit]
	kx, ky, ok := product(fallback.Results[0])
	if !ok {
		return nil
	}
	// The same unit: a constant of the same value, or the same
	// expression (lumberjack's megabyte is a var).
	same := func(x ast.Expr) bool {
		if types.ExprString(unconvert(info, x)) == types.ExprString(unconvert(info, unit)) {
			return true
		}
		tv, ok := info.Types[x]
		return ok && tv.Value != nil && ut.Value != nil && constant.Compare(constant.ToFloat(tv.Value), token.EQL, constant.ToFloat(ut.Value))
	}
	switch {
	case same(ky):
		return kx
	case same(kx):
		return ky
	}
	return nil
}

func sameField(field func(ast.Expr) (*types.Var, string), x ast.Expr, v *types.Var) bool {
	got, _ := field(x)
	return got == v
}

// zeroTestOps reports whether cond ("x > 0", "x != nil", "x == \"\"")
// tests that x is set or that it is unset: compared with its zero value
// (or "x >= 1", "x < 1").
func zeroTestOps(info *types.Info, cond *ast.BinaryExpr) (set, unset bool) {
	tv := info.Types[cond.Y]
	if tv.IsNil() {
		return cond.Op == token.NEQ, cond.Op == token.EQL
	}
	if tv.Value == nil {
		return false, false
	}
	switch tv.Value.Kind() {
	case constant.String:
		if constant.StringVal(tv.Value) != "" {
			return false, false
		}
		return cond.Op == token.NEQ, cond.Op == token.EQL
	case constant.Int, constant.Float:
		switch constant.Sign(tv.Value) {
		case 0:
			return cond.Op == token.NEQ || cond.Op == token.GTR, cond.Op == token.EQL || cond.Op == token.LEQ
		case 1:
			if constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1)) {
				return cond.Op == token.GEQ, cond.Op == token.LSS
			}
		}
	}
	return false, false
}

// Unconvert strips parentheses and conversions: uint32(opts.Size) is
// opts.Size.
func Unconvert(info *types.Info, x ast.Expr) ast.Expr { return unconvert(info, x) }

func unconvert(info *types.Info, x ast.Expr) ast.Expr {
	for {
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !info.Types[call.Fun].IsType() {
			return ast.Unparen(x)
		}
		x = call.Args[0]
	}
}

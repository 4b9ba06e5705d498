package retrieval

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// ValueFlow is where the value of a package-level const or var goes within
// its package.
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
		}
	}
	return flow
}

package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// Defaults of configuration keys a dependency declares. A component's
// configuration often holds a dependency's struct under a key of its own
// (kafkaexporter's Config embeds configretry.BackOffConfig as
// retry_on_failure), and its constructor sets that struct from the
// dependency's own constructor (createDefaultConfig sets BackOffConfig:
// configretry.NewDefaultBackOffConfig()). The README's "`max_elapsed_time`
// (default = 120s)" then speaks of MaxElapsedTime, whose default is in the
// dependency's func body: a body the symbol table does not type-check
// (dependencies are loaded declarations only), so it is read from the
// module cache's source file and its value evaluated as a constant
// expression of the dependency's package (time units written out). The
// evidence is the module's line that calls the dependency's constructor
// (evidence lies in the repository), naming the dependency's line.
//
// The key must be the tag of one field of one dependency struct that the
// module structs of the doc's scope hold (embedded or named, by value or
// pointer), in the nearest package that holds any; the module must set
// that struct, in every constructor that does, by the same call of a func
// of the struct's package without arguments, whose body returns one
// composite literal of the struct (or its address) setting the field.

// depKeyField is a field of a dependency struct a module struct holds.
type depKeyField struct {
	holder *types.Var   // the module struct's field of the dependency's type
	tag    string       // the holder's struct tag
	named  *types.Named // the dependency's struct type
	field  *types.Var   // its field tagged with the key
}

// depKeyDefault returns the default a dependency gives the field the key
// names, as a site at the module's call of the dependency's constructor,
// and that field's name ("BackOffConfig.MaxElapsedTime").
func (r *LiteralMismatch) depKeyDefault(ws *review.Workspace, c review.Claim, fullKey string) (valueSite, string, bool) {
	key := lastKeyPart(fullKey)
	sc := newScope(ws.Symbols, c)
	var found []depKeyField
	var in *retrieval.Package
	for _, p := range docScopePackages(ws, c, sc) {
		for sf := range structFields(p) {
			holder := sf.field()
			named := depStruct(ws, holder.Type())
			if named == nil {
				continue
			}
			dst := named.Underlying().(*types.Struct)
			for j := range dst.NumFields() {
				if f := dst.Field(j); f.Exported() && slices.Contains(tagNames(dst.Tag(j)), key) {
					found = append(found, depKeyField{holder: holder, tag: sf.st.Tag(sf.i), named: named, field: f})
				}
			}
		}
		if len(found) > 0 {
			in = p
			break
		}
	}
	if len(found) > 1 {
		// The key's parent names the holder.
		parent := r.keyParent(ws, c, fullKey)
		found = slices.DeleteFunc(found, func(k depKeyField) bool {
			return parent == "" || !slices.Contains(append(tagNames(k.tag), k.holder.Name()), parent)
		})
	}
	if len(found) != 1 {
		return valueSite{}, "", false
	}
	k := found[0]
	// The module's constructors set the holder from one func of the
	// dependency's package.
	sites := r.pkgValuesOf(ws, in).fields[k.holder]
	if len(sites) == 0 {
		return valueSite{}, "", false
	}
	for _, s := range sites[1:] {
		if s.expr != sites[0].expr {
			return valueSite{}, "", false
		}
	}
	ce, ok := ast.Unparen(sites[0].src).(*ast.CallExpr)
	if !ok || len(ce.Args) != 0 {
		return valueSite{}, "", false
	}
	sel, ok := ce.Fun.(*ast.SelectorExpr)
	if !ok {
		return valueSite{}, "", false
	}
	fn, ok := in.Info.Uses[sel.Sel].(*types.Func)
	dep := k.named.Obj().Pkg()
	if !ok || fn.Pkg() != dep || !returnsStruct(fn, k.named) {
		return valueSite{}, "", false
	}
	val, expr, at, ok := r.depFieldValue(ws, fn, k.named, k.field)
	if !ok {
		return valueSite{}, "", false
	}
	// The evidence is the module's own line, which exists at head; the
	// dependency's line is named in it.
	site := sites[0]
	site.val, site.typ, site.name, site.expr = val, k.field.Type(), k.field.Name(), expr
	site.why = fmt.Sprintf("%s sets %s = %s, which returns %s: %s (%s)", sites[0].fn, sites[0].name, sites[0].expr,
		k.field.Name(), expr, at)
	return site, k.named.Obj().Name() + "." + k.field.Name(), true
}

// depStruct returns the named struct type t holds (by value or pointer)
// when a dependency declares it; nil otherwise.
func depStruct(ws *review.Workspace, t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return nil
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil
	}
	if _, ok := ws.Symbols.DepPackage(named.Obj().Pkg().Path()); !ok {
		return nil
	}
	return named
}

// returnsStruct reports whether fn takes nothing and returns named or a
// pointer to it, alone.
func returnsStruct(fn *types.Func, named *types.Named) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	t := sig.Results().At(0).Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return types.Identical(t, named)
}

// depLit is the one composite literal a dependency's constructor returns,
// parsed from the module cache.
type depLit struct {
	fset *token.FileSet
	file string
	lit  *ast.CompositeLit
}

// constructorLit reads fn's source in the module cache, once per
// workspace, and returns the one composite literal of named its body
// returns (or the address of); nil when there is not exactly one.
func (r *LiteralMismatch) constructorLit(ws *review.Workspace, fn *types.Func, named *types.Named) *depLit {
	dl, _ := r.depLits.get(ws, fn.FullName(), func() (*depLit, error) {
		dp, ok := ws.Symbols.DepPackage(fn.Pkg().Path())
		if !ok || dp.Fset == nil || !fn.Pos().IsValid() {
			return nil, nil
		}
		filename := dp.Fset.Position(fn.Pos()).Filename
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filename, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil
		}
		var lits []*ast.CompositeLit
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name != fn.Name() || fd.Body == nil {
				continue
			}
			for _, st := range fd.Body.List {
				ret, ok := st.(*ast.ReturnStmt)
				if !ok || len(ret.Results) != 1 {
					continue
				}
				x := ast.Unparen(ret.Results[0])
				if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
					x = u.X
				}
				if cl, ok := x.(*ast.CompositeLit); ok && typeNamed(cl.Type, named.Obj().Name()) {
					lits = append(lits, cl)
				}
			}
		}
		if len(lits) != 1 {
			return nil, nil
		}
		return &depLit{fset: fset, file: filename, lit: lits[0]}, nil
	})
	return dl
}

// depFieldValue returns the constant fn's composite literal of named
// gives field, as written, and where ("@upstream/…/backoff.go:21").
func (r *LiteralMismatch) depFieldValue(ws *review.Workspace, fn *types.Func, named *types.Named, field *types.Var) (constant.Value, string, string, bool) {
	dl := r.constructorLit(ws, fn, named)
	if dl == nil {
		return nil, "", "", false
	}
	for _, e := range dl.lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != field.Name() {
			continue
		}
		expr := types.ExprString(kv.Value)
		tv, err := types.Eval(token.NewFileSet(), fn.Pkg(), token.NoPos, timeUnits.Replace(expr))
		if err != nil || tv.Value == nil || tv.Value.Kind() == constant.Unknown {
			return nil, "", "", false
		}
		p, ok := upstreamPath(ws, fn.Pkg().Path(), dl.file)
		if !ok {
			return nil, "", "", false
		}
		return tv.Value, expr, p + ":" + strconv.Itoa(dl.fset.Position(kv.Pos()).Line), true
	}
	return nil, "", "", false
}

// typeNamed reports whether a composite literal's type expression is the
// type called name, qualified or not.
func typeNamed(x ast.Expr, name string) bool {
	switch t := x.(type) {
	case *ast.Ident:
		return t.Name == name
	case *ast.SelectorExpr:
		return t.Sel.Name == name
	}
	return false
}

// upstreamPath names a dependency's source file as the upstream index
// does: "@upstream/MODULE@VERSION/DIR/FILE.go".
func upstreamPath(ws *review.Workspace, ip, filename string) (string, bool) {
	mod, version, ok := ws.Symbols.DepModule(ip)
	if !ok || strings.Contains(version, "@") {
		return "", false
	}
	rel := strings.TrimPrefix(ip, mod)
	rel = strings.TrimPrefix(rel, "/")
	return "@upstream/" + mod + "@" + version + "/" + path.Join(rel, filepath.Base(filename)), true
}

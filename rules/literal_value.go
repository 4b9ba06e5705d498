package rules

import (
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
)

// unloadedConvRE is the name of a dependency's type that converts a
// number without changing it: ptypes.Duration, config.ByteSize,
// units.Size.
var unloadedConvRE = regexp.MustCompile(`^(?:[A-Z][A-Za-z0-9]*)?(?:Duration|Size|Bytes)$`)

// exprValue returns the constant value of e and its type: the type
// checker's, else, when the value went unknown because a package the
// module imports could not be loaded (not in the module cache), the value
// the expression still has:
//
//   - a conversion to a duration or size type of that package keeps its
//     operand's value: `ptypes.Duration(30 * time.Second)` is 30s, typed
//     time.Duration, when github.com/traefik/paerser is missing;
//   - a name of a const of the package whose value pv recorded that way.
//
// pv may be nil; it returns nil when e has no value it can tell.
func exprValue(info *types.Info, pv *pkgValues, e ast.Expr) (constant.Value, types.Type) {
	if info == nil || e == nil {
		return nil, nil
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() != constant.Unknown {
		return tv.Value, tv.Type
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if pv == nil {
			return nil, nil
		}
		if c, ok := info.Uses[x].(*types.Const); ok {
			if s, ok := pv.byObj[c]; ok && s.val != nil && s.val.Kind() != constant.Unknown {
				return s.val, s.typ
			}
		}
	case *ast.CallExpr:
		if len(x.Args) != 1 || x.Ellipsis.IsValid() {
			return nil, nil
		}
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok || !unloadedConvRE.MatchString(sel.Sel.Name) {
			return nil, nil
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return nil, nil
		}
		pn, ok := info.Uses[id].(*types.PkgName)
		if !ok || pn.Imported().Scope().Lookup(sel.Sel.Name) != nil {
			return nil, nil // a loaded package: the checker's answer stands
		}
		v, t := exprValue(info, pv, x.Args[0])
		if v == nil || v.Kind() != constant.Int && v.Kind() != constant.Float {
			return nil, nil
		}
		return v, t
	}
	return nil, nil
}

package retrieval

import "go/ast"

// ReceiverTypeName returns the name of the type a method receiver or an
// embedded field names: "Cache" for Cache, *Cache, (*Cache), Cache[K, V]
// and pkg.Cache. It returns "" for any other expression (a type-set term
// such as ~int | ~string).
func ReceiverTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel.Name
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

package prose

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// Operand is a name in an arithmetic expression and its byte range there.
type Operand struct {
	Name       string
	Start, End int
}

// ArithOperands returns the names of src when it is an arithmetic
// expression of names and numbers with at least one operator
// ("maxBatchSize * maxPacketSize", "(1 << 20) * pageSize",
// "time.Minute * 5"), in order; false for anything else (a call, a
// comparison, a single name).
func ArithOperands(src string) ([]Operand, bool) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, false
	}
	var ops []Operand
	binary := false
	var walk func(n ast.Expr) bool
	walk = func(n ast.Expr) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			switch n.Op {
			case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.SHL, token.SHR:
			default:
				return false
			}
			binary = true
			return walk(n.X) && walk(n.Y)
		case *ast.ParenExpr:
			return walk(n.X)
		case *ast.BasicLit:
			return n.Kind == token.INT || n.Kind == token.FLOAT
		case *ast.Ident:
			ops = append(ops, Operand{Name: n.Name, Start: int(n.Pos()) - 1, End: int(n.End()) - 1})
			return true
		case *ast.SelectorExpr:
			x, ok := n.X.(*ast.Ident)
			if !ok {
				return false
			}
			ops = append(ops, Operand{Name: x.Name + "." + n.Sel.Name, Start: int(x.Pos()) - 1, End: int(n.End()) - 1})
			return true
		}
		return false
	}
	if !walk(e) || !binary || len(ops) == 0 {
		return nil, false
	}
	return ops, true
}

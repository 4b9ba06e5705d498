package clitree

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
)

// FlagDefault is a flag registered with the standard flag package or with
// pflag (cobra's flags) whose name and default are constants: what the
// program's help output prints as "(default …)".
type FlagDefault struct {
	Name, Short string
	// Usage is the flag's usage text when it is a constant, else "".
	Usage string
	// Type is the value's type as the registration names it: "Int",
	// "Duration", "String", "Bool", "Float64", "Uint64"…
	Type string
	// Value is the default; Shown is how the help output prints it
	// ("6000", "5s", `"./data"`), "" for the zero value, which it does not
	// print.
	Value constant.Value
	Shown string
	Expr  string // the default as written: "6 * 1000"
	Def   Pos    // the registration
	Lib   string // "flag" or "pflag"
}

// flagTypes are the value types whose registrations FlagDefaults reads:
// the scalar ones, whose default the help output prints from a constant.
var flagTypes = map[string]bool{
	"Bool": true, "Int": true, "Int8": true, "Int16": true, "Int32": true, "Int64": true,
	"Uint": true, "Uint8": true, "Uint16": true, "Uint32": true, "Uint64": true,
	"Float32": true, "Float64": true, "String": true, "Duration": true,
}

// FlagDefaults lists the flags of p, any package, registered on any flag
// set of the standard flag package or pflag with a constant name and a
// constant default.
func FlagDefaults(p *retrieval.Package) []FlagDefault {
	if p.Info == nil {
		return nil
	}
	var out []FlagDefault
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fd, ok := flagDefault(p, call)
			if ok {
				out = append(out, fd)
			}
			return true
		})
	}
	return out
}

// flagDefault reads one registration call.
func flagDefault(p *retrieval.Package, call *ast.CallExpr) (FlagDefault, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return FlagDefault{}, false
	}
	fn, ok := p.Info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return FlagDefault{}, false
	}
	lib := ""
	switch fn.Pkg().Path() {
	case stdFlagImp:
		lib = "flag"
	case pflagPath:
		lib = "pflag"
	default:
		return FlagDefault{}, false
	}
	name := fn.Name()
	short := lib == "pflag" && strings.HasSuffix(name, "P") && name != "P"
	if short {
		name = strings.TrimSuffix(name, "P")
	}
	ptr := strings.HasSuffix(name, "Var")
	typ := strings.TrimSuffix(name, "Var")
	if !flagTypes[typ] {
		return FlagDefault{}, false
	}
	i := 0
	if ptr {
		i = 1
	}
	nameIdx, shortIdx, valIdx := i, -1, i+1
	if short {
		shortIdx, valIdx = i+1, i+2
	}
	usageIdx := valIdx + 1
	if len(call.Args) != usageIdx+1 {
		return FlagDefault{}, false
	}
	str := func(e ast.Expr) (string, bool) {
		tv, ok := p.Info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(tv.Value), true
	}
	fd := FlagDefault{Type: typ, Lib: lib}
	if fd.Name, ok = str(call.Args[nameIdx]); !ok || fd.Name == "" {
		return FlagDefault{}, false
	}
	if shortIdx >= 0 {
		if fd.Short, ok = str(call.Args[shortIdx]); !ok {
			return FlagDefault{}, false
		}
	}
	fd.Usage, _ = str(call.Args[usageIdx])
	tv, ok := p.Info.Types[call.Args[valIdx]]
	if !ok || tv.Value == nil {
		return FlagDefault{}, false
	}
	fd.Value = tv.Value
	fd.Shown = shownDefault(typ, tv.Value)
	fd.Expr = types.ExprString(call.Args[valIdx])
	pos := p.Fset.Position(call.Pos())
	fd.Def = Pos{Path: pos.Filename, Line: pos.Line}
	return fd, true
}

// shownDefault is how the flag package and pflag print a default of type
// typ in the help output: strings quoted, durations as time.Duration
// prints them, floats in the shortest form; "" for the zero value, which
// neither prints.
func shownDefault(typ string, v constant.Value) string {
	switch {
	case typ == "String":
		if v.Kind() != constant.String || constant.StringVal(v) == "" {
			return ""
		}
		return strconv.Quote(constant.StringVal(v))
	case typ == "Bool":
		if v.Kind() != constant.Bool || !constant.BoolVal(v) {
			return ""
		}
		return "true"
	case typ == "Duration":
		n, ok := constant.Int64Val(constant.ToInt(v))
		if !ok || n == 0 {
			return ""
		}
		return time.Duration(n).String()
	case strings.HasPrefix(typ, "Float"):
		f, _ := constant.Float64Val(constant.ToFloat(v))
		if f == 0 {
			return ""
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	default:
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int || constant.Sign(iv) == 0 {
			return ""
		}
		return iv.ExactString()
	}
}

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
	Lib   string // "flag", "pflag" or "urfave"
}

// flagTypes are the value types whose registrations FlagDefaults reads:
// the scalar ones, whose default the help output prints from a constant.
var flagTypes = map[string]bool{
	"Bool": true, "Int": true, "Int8": true, "Int16": true, "Int32": true, "Int64": true,
	"Uint": true, "Uint8": true, "Uint16": true, "Uint32": true, "Uint64": true,
	"Float32": true, "Float64": true, "String": true, "Duration": true,
}

// FlagDefaults lists the flags of p, any package, registered on any flag
// set of the standard flag package or pflag, or declared as a urfave/cli
// flag literal (&cli.DurationFlag{Name: "timeout", Value: 2 * time.Minute}),
// with a constant name and a constant default.
func FlagDefaults(p *retrieval.Package) []FlagDefault {
	if p.Info == nil {
		return nil
	}
	var out []FlagDefault
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if fd, ok := flagDefault(p, n); ok {
					out = append(out, fd)
				}
			case *ast.CompositeLit:
				if fd, ok := urfaveFlagDefault(p, n); ok {
					out = append(out, fd)
				}
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

// urfavePaths are the import paths of urfave/cli's major versions.
var urfavePaths = map[string]bool{"github.com/urfave/cli": true, urfave2: true, urfave3: true}

// urfaveFlagDefault reads a urfave/cli flag literal: its Name (v1 writes
// "timeout, t", the name and its aliases), Value and Usage. A flag with a
// DefaultText prints that text instead, and a Bool flag prints no default
// in v1: neither is read.
func urfaveFlagDefault(p *retrieval.Package, lit *ast.CompositeLit) (FlagDefault, bool) {
	tv, ok := p.Info.Types[lit]
	if !ok || tv.Type == nil {
		return FlagDefault{}, false
	}
	t := tv.Type
	if ptr, isPtr := t.(*types.Pointer); isPtr {
		t = ptr.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !urfavePaths[named.Obj().Pkg().Path()] {
		return FlagDefault{}, false
	}
	typ, ok := strings.CutSuffix(named.Obj().Name(), "Flag")
	if !ok || !flagTypes[typ] || typ == "Bool" {
		return FlagDefault{}, false
	}
	fd := FlagDefault{Type: typ, Lib: "urfave"}
	var val ast.Expr
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return FlagDefault{}, false
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return FlagDefault{}, false
		}
		switch key.Name {
		case "Name":
			s, ok := constStr(p.Info, kv.Value)
			if !ok {
				return FlagDefault{}, false
			}
			names := strings.Split(s, ",")
			fd.Name = strings.TrimSpace(names[0])
			for _, a := range names[1:] {
				if a = strings.TrimSpace(a); len(a) == 1 {
					fd.Short = a
				}
			}
		case "Usage":
			fd.Usage, _ = constStr(p.Info, kv.Value)
		case "Value":
			val = kv.Value
		case "DefaultText":
			return FlagDefault{}, false
		}
	}
	if fd.Name == "" || val == nil {
		return FlagDefault{}, false
	}
	c, ok := p.Info.Types[val]
	if !ok || c.Value == nil {
		return FlagDefault{}, false
	}
	fd.Value = c.Value
	fd.Shown = shownDefault(typ, c.Value)
	fd.Expr = types.ExprString(val)
	pos := p.Fset.Position(lit.Pos())
	fd.Def = Pos{Path: pos.Filename, Line: pos.Line}
	return fd, true
}

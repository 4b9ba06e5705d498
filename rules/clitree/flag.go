package clitree

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/docreview/docreview/retrieval"
)

// flagFuncs maps the flag package's registration functions (and
// *flag.FlagSet methods) to the index of their name argument.
var flagFuncs = map[string]int{
	"Bool": 0, "Int": 0, "Int64": 0, "Uint": 0, "Uint64": 0, "String": 0, "Float64": 0, "Duration": 0,
	"Func": 0, "BoolFunc": 0,
	"BoolVar": 1, "IntVar": 1, "Int64Var": 1, "UintVar": 1, "Uint64Var": 1, "StringVar": 1,
	"Float64Var": 1, "DurationVar": 1, "Var": 1, "TextVar": 1,
}

// Std is what a main package built with the standard flag package
// defines: the flags every flag set of the package registers and the
// subcommands its dispatch switch accepts.
type Std struct {
	Flags map[string]Pos // where each flag is registered, by name
	// Values says, by name, whether a flag reads the next word as its
	// value (ValueNo for Bool, BoolVar and BoolFunc; ValueUnknown for Var
	// and TextVar, whose value may be a bool's).
	Values map[string]ValueKind
	// Subs is nil when the package has no dispatch switch on its first
	// argument: then subcommands are not checked.
	Subs   map[string]bool
	Switch Pos // where the dispatch switch is
}

// ReadStd reads the flags (on any flag set) and the subcommand dispatch
// (a switch on args[0], args[1] or os.Args[1]) of main package p, and
// reports whether they can all be known: not when a registration has a
// non-constant name, when a flag set is handed to a func outside package
// flag (which may register more: air's runner.ParseConfigFlag(cmd) adds
// --build.cmd and the like), or when p registers no flag.
func ReadStd(p *retrieval.Package) (Std, bool) {
	prog := Std{Flags: map[string]Pos{}, Values: map[string]ValueKind{}}
	ok := true
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				idx, isFlag := flagCall(p.Info, n)
				if !isFlag {
					if passesFlagSet(p.Info, n) {
						ok = false
					}
					return true
				}
				if idx >= len(n.Args) {
					ok = false
					return true
				}
				tv, found := p.Info.Types[n.Args[idx]]
				if !found || tv.Value == nil || tv.Value.Kind() != constant.String {
					ok = false
					return true
				}
				pos := p.Fset.Position(n.Pos())
				name := constant.StringVal(tv.Value)
				prog.Flags[name] = Pos{Path: pos.Filename, Line: pos.Line}
				prog.Values[name] = stdValueKind(n)
			case *ast.SwitchStmt:
				if !isArgSwitch(n.Tag) {
					return true
				}
				subs := map[string]bool{}
				for _, s := range n.Body.List {
					cc := s.(*ast.CaseClause)
					for _, e := range cc.List {
						tv, found := p.Info.Types[e]
						if !found || tv.Value == nil || tv.Value.Kind() != constant.String {
							return true
						}
						subs[constant.StringVal(tv.Value)] = true
					}
				}
				if len(subs) < 2 {
					return true
				}
				if prog.Subs == nil {
					prog.Subs = map[string]bool{}
					pos := p.Fset.Position(n.Pos())
					prog.Switch = Pos{Path: pos.Filename, Line: pos.Line}
				}
				for s := range subs {
					prog.Subs[s] = true
				}
			}
			return true
		})
	}
	return prog, ok && len(prog.Flags) > 0
}

// flagCall reports whether call registers a flag with the standard flag
// package, and the index of its name argument.
func flagCall(info *types.Info, call *ast.CallExpr) (int, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return 0, false
	}
	idx, known := flagFuncs[sel.Sel.Name]
	if !known {
		return 0, false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "flag" {
		return 0, false
	}
	return idx, true
}

// isArgSwitch reports whether a switch's tag is args[0], args[1] or
// os.Args[1]: a subcommand dispatch.
func isArgSwitch(tag ast.Expr) bool {
	ix, ok := tag.(*ast.IndexExpr)
	if !ok {
		return false
	}
	lit, ok := ix.Index.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT || (lit.Value != "0" && lit.Value != "1") {
		return false
	}
	switch x := ix.X.(type) {
	case *ast.Ident:
		return x.Name == "args" && lit.Value == "0"
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "os" && x.Sel.Name == "Args" && lit.Value == "1"
	}
	return false
}

// stdValueKind says whether the flag a registration call defines reads
// the next word as its value.
func stdValueKind(call *ast.CallExpr) ValueKind {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ValueUnknown
	}
	switch sel.Sel.Name {
	case "Bool", "BoolVar", "BoolFunc":
		return ValueNo
	case "Var", "TextVar":
		return ValueUnknown
	}
	return ValueYes
}

// passesFlagSet reports whether call, a call of a func outside package
// flag, takes a *flag.FlagSet argument.
func passesFlagSet(info *types.Info, call *ast.CallExpr) bool {
	if fn := typeutil.StaticCallee(info, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "flag" {
		return false
	}
	for _, a := range call.Args {
		t := info.TypeOf(a)
		if ptr, ok := t.(*types.Pointer); ok {
			if named, ok := ptr.Elem().(*types.Named); ok && named.Obj().Pkg() != nil &&
				named.Obj().Pkg().Path() == "flag" && named.Obj().Name() == "FlagSet" {
				return true
			}
		}
	}
	return false
}

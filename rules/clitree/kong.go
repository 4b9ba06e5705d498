package clitree

import (
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval"
)

// kongSafe lists the kong options that do not add commands or flags.
var kongSafe = []string{
	"Name", "Description", "UsageOnError", "ShortUsageOnError", "ConfigureHelp", "Vars", "Configuration",
	"DefaultEnvars", "Bind", "BindTo", "BindToProvider", "BindSingletonProvider", "Exit", "Writers", "Help",
	"HelpFormatter", "NoDefaultHelp", "ExplicitGroups", "Groups", "ValueFormatter", "TypeMapper",
	"NamedMapper", "KindMapper", "ValueMapper", "ClearResolvers", "Resolvers", "NoExpandSubcommands",
	"AutoGroup", "WithHyphenPrefixedParameters", "IgnoreFields", "Flags", "Vars",
}

// readKong reads the kong grammar that main package p (or a package it
// imports) parses: the struct given to kong.Parse, kong.New or kong.Must,
// when exactly one such call exists and its options add nothing.
func readKong(p *retrieval.Package, pkgs []*retrieval.Package) *Tree {
	var call *ast.CallExpr
	var at fileCtx
	calls := 0
	for _, fc := range filesOf(pkgs) {
		name := fc.names[kongPath]
		if name == "." {
			return nil
		}
		ast.Inspect(fc.f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if ok && (isSel(c.Fun, name, "Parse") || isSel(c.Fun, name, "New") || isSel(c.Fun, name, "Must")) {
				calls++
				call, at = c, fc
			}
			return true
		})
	}
	if calls != 1 || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil
	}
	tree := &Tree{Framework: "kong"}
	kongName := at.names[kongPath]
	for _, o := range call.Args[1:] {
		oc, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok || !isSel(oc.Fun, kongName, "") {
			return nil
		}
		opt := oc.Fun.(*ast.SelectorExpr).Sel.Name
		if opt == "IgnoreFields" || !slices.Contains(kongSafe, opt) {
			return nil
		}
		if opt == "Name" && len(oc.Args) == 1 {
			if s, ok := constStr(at.p.Info, oc.Args[0]); ok && IsCommandName(s) {
				tree.Names = append(tree.Names, s)
			}
		}
	}
	t := at.p.Info.TypeOf(call.Args[0])
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	def := at.pos(call.Args[0])
	if u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); ok {
		if v, ok := objOf(at.p.Info, u.X).(*types.Var); ok && v.Pos().IsValid() {
			def = posOf(pkgs, v.Pos())
		}
	}
	if named, ok := ptr.Elem().(*types.Named); ok && named.Obj().Pos().IsValid() {
		def = posOf(pkgs, named.Obj().Pos())
	}
	root := NewNode(def)
	kongStruct(pkgs, root, st, "", 0)
	tree.Root = root
	return tree
}

// kongStruct reads the fields of a kong grammar struct into node.
func kongStruct(pkgs []*retrieval.Package, node *Node, st *types.Struct, prefix string, depth int) {
	if depth > 10 {
		node.FlagsOpen, node.SubsOpen = true, true
		return
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		if _, ok := tag.Lookup("kong"); ok {
			node.FlagsOpen, node.SubsOpen = true, true
			continue
		}
		if !f.Exported() && !f.Embedded() {
			continue
		}
		ft := f.Type()
		if pt, ok := ft.(*types.Pointer); ok {
			ft = pt.Elem()
		}
		sub, isStruct := ft.Underlying().(*types.Struct)
		_, embed := tag.Lookup("embed")
		_, cmd := tag.Lookup("cmd")
		_, arg := tag.Lookup("arg")
		def := posOf(pkgs, f.Pos())
		switch {
		case cmd:
			child := NewNode(def)
			child.Name = kebab(f.Name())
			if n, ok := tag.Lookup("name"); ok && n != "" {
				child.Name = n
			}
			if a, ok := tag.Lookup("aliases"); ok && a != "" {
				child.Aliases = strings.Split(a, ",")
			}
			if _, ok := tag.Lookup("default"); ok {
				node.TakesArgs = true
			}
			if isStruct {
				kongStruct(pkgs, child, sub, "", depth+1)
			} else {
				child.FlagsOpen, child.SubsOpen, child.TakesArgs = true, true, true
			}
			child.hasParent = true
			node.Subs = append(node.Subs, child)
		case arg:
			node.TakesArgs = true
		case f.Embedded() || embed:
			if !isStruct {
				node.FlagsOpen, node.SubsOpen = true, true
				continue
			}
			pre, _ := tag.Lookup("prefix")
			kongStruct(pkgs, node, sub, prefix+pre, depth+1)
		default:
			name := kebab(f.Name())
			if n, ok := tag.Lookup("name"); ok && n != "" {
				name = n
			}
			name = prefix + name
			short, _ := tag.Lookup("short")
			v := ValueYes
			if b, ok := f.Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				v = ValueNo
			} else if ok && b.Kind() == types.Invalid || f.Type() == types.Typ[types.Invalid] {
				v = ValueUnknown
			} else if _, ok := tag.Lookup("type"); ok || isStruct {
				v = ValueUnknown
			}
			node.AddFlag(true, name, short, def, v)
			if _, ok := tag.Lookup("negatable"); ok {
				node.AddFlag(true, "no-"+name, "", def, ValueNo)
			}
			if a, ok := tag.Lookup("aliases"); ok && a != "" {
				for _, al := range strings.Split(a, ",") {
					node.AddFlag(true, al, "", def, v)
				}
			}
		}
	}
}

// kebab turns a Go field name into kong's kebab-case flag or command name:
// DryRun → dry-run, HTTPPort → http-port.
func kebab(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				b.WriteByte('-')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

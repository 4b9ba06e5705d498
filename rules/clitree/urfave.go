package clitree

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
)

// readUrfave reads the urfave/cli (v2 or v3) command tree of main package
// p: v2's only App literal, or v3's Command whose Run p (or a package it
// imports) calls.
func readUrfave(p *retrieval.Package, pkgs []*retrieval.Package, ip string) *Tree {
	files := filesOf(pkgs)
	b := &binder{lits: map[*ast.CompositeLit]*Node{}, objs: map[types.Object]*Node{}, funcs: map[types.Object]*Node{}}
	var apps []*Node
	for _, fc := range files {
		name := fc.names[ip]
		if name == "." || name == "" {
			if name == "." {
				return nil
			}
			continue
		}
		ast.Inspect(fc.f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			isApp := ip == urfave2 && isSel(lit.Type, name, "App")
			if isApp || isSel(lit.Type, name, "Command") {
				node := NewNode(fc.pos(lit))
				b.lits[lit] = node
				if isApp {
					apps = append(apps, node)
				}
			}
			// []*cli.Command{{Name: ...}}: elements with the type elided
			if arr, ok := lit.Type.(*ast.ArrayType); ok {
				elt := arr.Elt
				if st, ok := elt.(*ast.StarExpr); ok {
					elt = st.X
				}
				if isSel(elt, name, "Command") {
					for _, e := range lit.Elts {
						if el, ok := e.(*ast.CompositeLit); ok && el.Type == nil {
							b.lits[el] = NewNode(fc.pos(el))
						}
					}
				}
			}
			return true
		})
	}
	if len(b.lits) == 0 {
		return nil
	}
	b.bindAll(files)
	executed := map[*retrieval.Package][]*Node{}
	for _, fc := range files {
		info, name := fc.p.Info, fc.names[ip]
		ast.Inspect(fc.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if node := b.lits[n]; node != nil {
					urfaveFields(fc, b, node, name, n.Elts)
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					sel, ok := l.(*ast.SelectorExpr)
					if !ok {
						continue
					}
					if node := b.resolve(info, sel.X); node != nil {
						if len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN {
							node.FlagsOpen, node.SubsOpen = true, true
							continue
						}
						urfaveFields(fc, b, node, name, []ast.Expr{&ast.KeyValueExpr{Key: sel.Sel, Value: n.Rhs[i]}})
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if ok && (sel.Sel.Name == "Run" || sel.Sel.Name == "RunContext") {
					if node := b.resolve(info, sel.X); node != nil {
						executed[fc.p] = append(executed[fc.p], node)
					}
				}
			}
			return true
		})
	}
	var root *Node
	if ip == urfave2 {
		if len(apps) != 1 {
			return nil
		}
		root = apps[0]
	} else if root = pickRoot(p, pkgs, executed); root == nil {
		return nil
	}
	tree := &Tree{Root: root, Framework: "urfave/cli"}
	if root.Name != "" && root.Name != "\x00" {
		tree.Names = []string{root.Name}
	}
	root.Walk(func(n *Node, depth int) {
		if n.version && depth == 0 {
			n.AddFlag(false, "version", "v", n.Def, ValueNo)
		}
		for _, s := range n.Subs {
			if s.Name == "" || s.Name == "\x00" {
				n.SubsOpen = true
			}
		}
		n.AddFlag(false, "generate-bash-completion", "", n.Def, ValueNo)
		n.AddFlag(false, "generate-shell-completion", "", n.Def, ValueNo)
		if len(n.Subs) > 0 {
			n.Subs = append(n.Subs, NewBuiltin("help", n.Def), NewBuiltin("h", n.Def))
			if depth == 0 {
				n.Subs = append(n.Subs, NewBuiltin("completion", n.Def))
			}
		}
	})
	return tree
}

// urfaveFields reads the fields of urfave/cli's App and Command the package
// knows (or assignments to them); others leave the node unchanged.
func urfaveFields(fc fileCtx, b *binder, node *Node, cliName string, elts []ast.Expr) {
	info := fc.p.Info
	for _, el := range elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		switch key.Name {
		case "Name":
			if s, ok := constStr(info, kv.Value); ok && IsCommandName(s) {
				node.Name = s
			} else {
				node.Name = "\x00"
			}
		case "Aliases":
			if a, ok := constStrs(info, kv.Value); ok {
				node.Aliases = a
			} else {
				node.Name = "\x00"
			}
		case "Commands", "Subcommands":
			lit, ok := ast.Unparen(kv.Value).(*ast.CompositeLit)
			if !ok {
				node.SubsOpen = true
				continue
			}
			for _, e := range lit.Elts {
				child := b.resolve(info, e)
				if child == nil {
					node.SubsOpen = true
					continue
				}
				child.hasParent = true
				if !slices.Contains(node.Subs, child) {
					node.Subs = append(node.Subs, child)
				}
			}
		case "Flags":
			lit, ok := ast.Unparen(kv.Value).(*ast.CompositeLit)
			if !ok {
				node.FlagsOpen = true
				continue
			}
			for _, e := range lit.Elts {
				if !urfaveFlag(fc, node, cliName, e) {
					node.FlagsOpen = true
				}
			}
		case "Action", "Arguments", "CommandNotFound":
			node.TakesArgs = true
		case "SkipFlagParsing", "UseShortOptionHandling":
			node.FlagsOpen = true
		case "Version":
			node.version = true
		}
	}
}

// urfaveFlag reads one element of a Flags list: &cli.StringFlag{Name: ...,
// Aliases: ...}. It reports false when the flag cannot be read.
func urfaveFlag(fc fileCtx, node *Node, cliName string, e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || !isSel(lit.Type, cliName, "") {
		return false
	}
	typ := lit.Type.(*ast.SelectorExpr).Sel.Name
	if !strings.HasSuffix(typ, "Flag") {
		return false
	}
	var name string
	var aliases []string
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		key, _ := kv.Key.(*ast.Ident)
		switch {
		case key == nil:
			return false
		case key.Name == "Name":
			if name, ok = constStr(fc.p.Info, kv.Value); !ok {
				return false
			}
		case key.Name == "Aliases":
			if aliases, ok = constStrs(fc.p.Info, kv.Value); !ok {
				return false
			}
		}
	}
	if name == "" {
		return false
	}
	v := ValueYes
	if typ == "BoolFlag" {
		v = ValueNo
	}
	def := fc.pos(lit)
	node.AddFlag(true, name, "", def, v)
	for _, a := range aliases {
		node.Inherit[a] = Flag{Def: def, Long: name, Value: v}
	}
	return true
}

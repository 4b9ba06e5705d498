package clitree

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval"
)

// pflagMethods lists *pflag.FlagSet methods that neither register flags
// nor hide them; methods starting with Get are skipped too.
var pflagMethods = []string{
	"Lookup", "ShorthandLookup", "MarkHidden", "MarkDeprecated", "MarkShorthandDeprecated", "Set",
	"SetAnnotation", "Changed", "Parse", "Parsed", "Args", "NArg", "Arg", "NFlag", "VisitAll", "Visit",
	"HasFlags", "HasAvailableFlags", "FlagUsages", "FlagUsagesWrapped", "PrintDefaults", "SetOutput",
	"Init", "SetInterspersed", "ParseAll", "ArgsLenAtDash", "Output", "Name", "SortFlags",
}

// pflagOpen lists *pflag.FlagSet methods that add flags the package cannot
// read or rename them.
var pflagOpen = []string{"AddFlag", "AddFlagSet", "AddGoFlagSet", "AddGoFlag", "SetNormalizeFunc"}

// pflagArgs returns the index of the name and shorthand arguments of a
// pflag registration method (short is -1 without one).
func pflagArgs(m string) (name, short int) {
	switch {
	case m == "IP":
		return 0, -1
	case strings.HasSuffix(m, "VarPF"), strings.HasSuffix(m, "VarP"):
		return 1, 2
	case strings.HasSuffix(m, "Var"):
		return 1, -1
	case strings.HasSuffix(m, "P") && m != "IP":
		return 0, 1
	}
	return 0, -1
}

// cobraFlagSets are the *cobra.Command methods returning a flag set that
// registrations go to, and whether flags registered there are inherited.
var cobraFlagSets = map[string]bool{"Flags": false, "PersistentFlags": true, "LocalFlags": false, "LocalNonPersistentFlags": false}

// readCobra reads the cobra command tree whose root main package p
// executes.
func readCobra(p *retrieval.Package, pkgs []*retrieval.Package) *Tree {
	files := filesOf(pkgs)
	b := &binder{lits: map[*ast.CompositeLit]*Node{}, objs: map[types.Object]*Node{}, funcs: map[types.Object]*Node{}}
	for _, fc := range files {
		name := fc.names[cobraPath]
		if name == "." {
			return nil
		}
		ast.Inspect(fc.f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok && isSel(lit.Type, name, "Command") {
				node := NewNode(fc.pos(lit))
				node.Name = "\x00" // unnamed until Use is read
				b.lits[lit] = node
			}
			return true
		})
	}
	if len(b.lits) == 0 {
		return nil
	}
	b.bindAll(files)
	var flagsOpen, subsOpen bool
	executed := map[*retrieval.Package][]*Node{}
	for _, fc := range files {
		info := fc.p.Info
		cobraName, pflagName, stdName := fc.names[cobraPath], fc.names[pflagPath], fc.names[stdFlagImp]
		// flag sets bound to variables: fs := cmd.Flags()
		sets := map[types.Object]struct {
			n          *Node
			persistent bool
		}{}
		var stack []ast.Node
		ast.Inspect(fc.f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			parent := ast.Node(nil)
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.CompositeLit:
				if node := b.lits[n]; node != nil {
					cobraFields(info, node, n.Elts)
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					sel, ok := l.(*ast.SelectorExpr)
					if !ok {
						continue
					}
					if node := b.resolve(info, sel.X); node != nil && len(n.Lhs) == len(n.Rhs) {
						i := slices.Index(n.Lhs, l)
						cobraFields(info, node, []ast.Expr{&ast.KeyValueExpr{Key: sel.Sel, Value: n.Rhs[i]}})
					}
				}
			case *ast.SelectorExpr:
				// global flag sets cobra merges into every command
				if isSel(n, pflagName, "CommandLine") || isSel(n, stdName, "CommandLine") || isSel(n, pflagName, "") && parentCall(parent, n) {
					flagsOpen = true
				}
				if isSel(n, stdName, "") && parentCall(parent, n) {
					if _, reg := flagFuncs[n.Sel.Name]; reg {
						flagsOpen = true
					}
				}
				persistent, isSet := cobraFlagSets[n.Sel.Name]
				call, ok := parent.(*ast.CallExpr)
				if !isSet || !ok || call.Fun != n || len(call.Args) != 0 || isSel(n, cobraName, "") {
					return true
				}
				node := b.resolve(info, n.X)
				if node == nil {
					flagsOpen = true
					return true
				}
				// what the flag set is used for: stack[-3] is the
				// selector on the call, or an assignment
				if len(stack) >= 3 {
					switch up := stack[len(stack)-3].(type) {
					case *ast.SelectorExpr:
						if len(stack) >= 4 {
							if reg, ok := stack[len(stack)-4].(*ast.CallExpr); ok && reg.Fun == up {
								cobraFlag(fc, node, persistent, up.Sel.Name, reg)
								return true
							}
						}
					case *ast.AssignStmt:
						if len(up.Lhs) == 1 && len(up.Rhs) == 1 {
							if o := objOf(info, up.Lhs[0]); o != nil {
								if _, dup := sets[o]; !dup {
									sets[o] = struct {
										n          *Node
										persistent bool
									}{node, persistent}
									return true
								}
							}
						}
					case *ast.ValueSpec:
						if len(up.Names) == 1 && len(up.Values) == 1 {
							if o := info.Defs[up.Names[0]]; o != nil {
								sets[o] = struct {
									n          *Node
									persistent bool
								}{node, persistent}
								return true
							}
						}
					}
				}
				node.FlagsOpen = true
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if s, ok := sets[objOf(info, sel.X)]; ok {
					cobraFlag(fc, s.n, s.persistent, sel.Sel.Name, n)
					return true
				}
				switch sel.Sel.Name {
				case "AddCommand":
					parentNode := b.resolve(info, sel.X)
					if parentNode == nil {
						subsOpen = true
						return true
					}
					if n.Ellipsis.IsValid() {
						parentNode.SubsOpen = true
					}
					for _, a := range n.Args {
						child := b.resolve(info, a)
						if child == nil {
							parentNode.SubsOpen = true
							continue
						}
						child.hasParent = true
						if !slices.Contains(parentNode.Subs, child) {
							parentNode.Subs = append(parentNode.Subs, child)
						}
					}
				case "Execute", "ExecuteC", "ExecuteContext", "ExecuteContextC":
					if node := b.resolve(info, sel.X); node != nil {
						executed[fc.p] = append(executed[fc.p], node)
					}
				case "SetFlagErrorFunc", "SetGlobalNormalizationFunc":
					flagsOpen = true
				}
			}
			return true
		})
		// a flag set variable used other than by calling its methods
		for o, s := range sets {
			if setEscapes(fc.f, info, o) {
				s.n.FlagsOpen = true
			}
		}
	}
	root := pickRoot(p, pkgs, executed)
	if root == nil || root.Name == "\x00" {
		return nil
	}
	tree := &Tree{Root: root, Framework: "cobra", Names: []string{root.Name}}
	// cobra's built-ins
	root.Walk(func(n *Node, depth int) {
		if flagsOpen {
			n.FlagsOpen = true
		}
		if subsOpen {
			n.SubsOpen = true
		}
		if n.version {
			n.AddFlag(false, "version", "v", n.Def, ValueNo)
		}
		// cobra rejects an unknown first word only on the root; below, a
		// runnable command receives it as an argument
		if depth > 0 && n.runnable {
			n.TakesArgs = true
		}
		for _, s := range n.Subs {
			if s.Name == "\x00" {
				n.SubsOpen = true
			}
		}
		if depth == 0 && len(n.Subs) > 0 {
			n.Subs = append(n.Subs, NewBuiltin("completion", n.Def), NewBuiltin("help", n.Def))
		}
	})
	return tree
}

// parentCall reports whether parent calls sel.
func parentCall(parent ast.Node, sel *ast.SelectorExpr) bool {
	c, ok := parent.(*ast.CallExpr)
	return ok && c.Fun == sel
}

// setEscapes reports whether the flag set variable o is used in f other
// than as the receiver of a method call or by its definition.
func setEscapes(f *ast.File, info *types.Info, o types.Object) bool {
	escapes := false
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != o || len(stack) < 3 {
			return true
		}
		sel, ok := stack[len(stack)-2].(*ast.SelectorExpr)
		if !ok || sel.X != id {
			escapes = true
			return true
		}
		if call, ok := stack[len(stack)-3].(*ast.CallExpr); !ok || call.Fun != sel {
			escapes = true
		}
		return true
	})
	return escapes
}

// cobraFields reads the fields of a cobra.Command literal (or assignments
// to them).
func cobraFields(info *types.Info, node *Node, elts []ast.Expr) {
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
		case "Use":
			use, ok := constStr(info, kv.Value)
			if f := strings.Fields(use); ok && len(f) > 0 && IsCommandName(f[0]) {
				node.Name = f[0]
			} else {
				node.Name = "\x00"
			}
		case "Aliases":
			if a, ok := constStrs(info, kv.Value); ok {
				node.Aliases = a
			} else {
				node.Name = "\x00"
			}
		case "Version":
			node.version = true
		case "Run", "RunE":
			node.runnable = true
		case "Args", "ValidArgsFunction", "TraverseChildren":
			node.TakesArgs = true
			if key.Name == "TraverseChildren" {
				node.FlagsOpen = true
			}
		case "DisableFlagParsing", "FParseErrWhitelist":
			node.FlagsOpen = true
		}
	}
}

// cobraFlag reads a registration call on a command's flag set.
func cobraFlag(fc fileCtx, node *Node, persistent bool, method string, call *ast.CallExpr) {
	if slices.Contains(pflagOpen, method) {
		node.FlagsOpen = true
		return
	}
	if slices.Contains(pflagMethods, method) || strings.HasPrefix(method, "Get") || !unicode.IsUpper(rune(method[0])) {
		return
	}
	ni, si := pflagArgs(method)
	if ni >= len(call.Args) || si >= len(call.Args) || call.Ellipsis.IsValid() {
		node.FlagsOpen = true
		return
	}
	name, ok := constStr(fc.p.Info, call.Args[ni])
	if !ok || name == "" {
		node.FlagsOpen = true
		return
	}
	short := ""
	if si >= 0 {
		if short, ok = constStr(fc.p.Info, call.Args[si]); !ok {
			node.FlagsOpen = true
			return
		}
	}
	v := ValueYes
	if strings.HasPrefix(method, "Bool") || strings.HasPrefix(method, "Count") || strings.HasSuffix(method, "VarPF") || strings.HasPrefix(method, "Func") {
		v = ValueUnknown
		if strings.HasPrefix(method, "Bool") && !strings.HasPrefix(method, "BoolSlice") || strings.HasPrefix(method, "Count") {
			v = ValueNo
		}
	}
	node.AddFlag(persistent, name, short, fc.pos(call), v)
}

package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval"
)

// The import paths of the command-line frameworks whose command trees the
// snippet rule reads.
const (
	cobraPath  = "github.com/spf13/cobra"
	pflagPath  = "github.com/spf13/pflag"
	urfave2    = "github.com/urfave/cli/v2"
	urfave3    = "github.com/urfave/cli/v3"
	kongPath   = "github.com/alecthomas/kong"
	stdFlagImp = "flag"
)

// cliTree is a command tree read from cobra, urfave/cli or kong code.
type cliTree struct {
	root      *cliNode
	framework string // "cobra", "urfave/cli" or "kong"
	// names are the names the program gives itself (cobra's root Use,
	// urfave's Name, kong.Name), besides its directory's.
	names []string
}

// cliNode is one command of a framework-built tree.
type cliNode struct {
	name    string
	aliases []string
	def     flagDef
	// flags holds the command's own flags by long name and shorthand,
	// without dashes; inherit those its descendants accept too (cobra's
	// persistent flags, kong's and urfave's parent flags).
	flags, inherit map[string]cliFlag
	subs           []*cliNode
	// subsOpen and flagsOpen are set when a subcommand or flag may exist
	// that was not read; takesArgs when a word that is no subcommand may be
	// a positional argument.
	subsOpen, flagsOpen, takesArgs bool
	version                        bool // a version flag is built in
	runnable                       bool // cobra: Run or RunE is set
	builtin                        bool // added by the framework
	hasParent                      bool
}

// cliFlag is one flag of a cliNode.
type cliFlag struct {
	flagDef
	long  string    // the flag's long name, for messages
	value valueKind // whether it reads the next word as its value
}

// valueKind says whether a flag takes a value.
type valueKind int

const (
	valueUnknown valueKind = iota
	valueYes
	valueNo
)

// newCLINode returns an empty command defined at def.
func newCLINode(def flagDef) *cliNode {
	return &cliNode{def: def, flags: map[string]cliFlag{}, inherit: map[string]cliFlag{}}
}

// child returns the subcommand named or aliased w.
func (n *cliNode) child(w string) *cliNode {
	for _, s := range n.subs {
		if s.name == w || slices.Contains(s.aliases, w) {
			return s
		}
	}
	return nil
}

// addFlag records a flag with its shorthand ("" for none).
func (n *cliNode) addFlag(persistent bool, name, short string, def flagDef, v valueKind) {
	f := cliFlag{flagDef: def, long: name, value: v}
	m := n.flags
	if persistent {
		m = n.inherit
	}
	m[name] = f
	if short != "" {
		m[short] = f
	}
}

// importNames maps the import paths of a file to their local names.
func importNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		ip, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := path2name(ip)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[ip] = name
	}
	return out
}

// path2name is the package name an import path is used by without an
// explicit name: its last element, skipping a major version suffix.
func path2name(ip string) string {
	parts := strings.Split(ip, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	return last
}

// isSel reports whether e is pkg.name with pkg the local name of an
// import ("" never matches).
func isSel(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || pkg == "" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && (name == "" || sel.Sel.Name == name)
}

// constStr returns the value of a constant string expression.
func constStr(info *types.Info, e ast.Expr) (string, bool) {
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil
	}
	if info == nil {
		return "", false
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if c, ok := info.Uses[id].(*types.Const); ok && c.Val().Kind() == constant.String {
			return constant.StringVal(c.Val()), true
		}
	}
	return "", false
}

// constStrs returns the values of a []string{...} literal of constants.
func constStrs(info *types.Info, e ast.Expr) ([]string, bool) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var out []string
	for _, el := range lit.Elts {
		s, ok := constStr(info, el)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// localImports returns p and the module packages it imports, directly or
// not, that are loaded.
func localImports(syms *retrieval.Symbols, p *retrieval.Package) []*retrieval.Package {
	byPath := map[string]*retrieval.Package{}
	for _, q := range syms.Packages() {
		if q.ImportPath != "" && q.Info != nil {
			byPath[q.ImportPath] = q
		}
	}
	seen := map[*retrieval.Package]bool{p: true}
	out := []*retrieval.Package{p}
	for i := 0; i < len(out) && len(out) < 200; i++ {
		for _, f := range out[i].Syntax {
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				if q := byPath[ip]; q != nil && !seen[q] && q.Name != "main" {
					seen[q] = true
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// frameworkOf returns the framework the packages use ("" for none) and
// whether it can be read: false when they import one the rule does not
// read, or more than one.
func frameworkOf(pkgs []*retrieval.Package) (string, bool) {
	found := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for ip := range importNames(f) {
				under := func(root string) bool { return ip == root || strings.HasPrefix(ip, root+"/") }
				switch {
				case under(cobraPath):
					found["cobra"] = true
				case under(urfave2):
					found[urfave2] = true
				case under(urfave3):
					found[urfave3] = true
				case under(kongPath):
					found["kong"] = true
				case under(pflagPath):
					// read with cobra; alone, not at all
					found["pflag"] = true
				default:
					for _, fw := range cliFrameworks {
						if under(fw) {
							found[fw] = true
						}
					}
				}
			}
		}
	}
	if found["cobra"] {
		delete(found, "pflag")
	}
	if len(found) == 0 {
		return "", true
	}
	if len(found) > 1 {
		return "", false
	}
	for fw := range found {
		if fw == "pflag" {
			return "", false
		}
		return fw, true
	}
	return "", false
}

// readFramework reads the command tree of main package p built with
// framework fw from p and the module packages it imports. It returns nil
// when the tree cannot be found.
func readFramework(syms *retrieval.Symbols, p *retrieval.Package, fw string) *cliTree {
	pkgs := localImports(syms, p)
	switch fw {
	case "cobra":
		return readCobra(p, pkgs)
	case urfave2, urfave3:
		return readUrfave(p, pkgs, fw)
	case "kong":
		return readKong(p, pkgs)
	}
	return nil
}

// fileCtx is one file being read, with its package.
type fileCtx struct {
	p     *retrieval.Package
	f     *ast.File
	names map[string]string
}

// filesOf lists the files of pkgs with their import names.
func filesOf(pkgs []*retrieval.Package) []fileCtx {
	var out []fileCtx
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			out = append(out, fileCtx{p: p, f: f, names: importNames(f)})
		}
	}
	return out
}

// pos returns where n is.
func (fc fileCtx) pos(n ast.Node) flagDef {
	pos := fc.p.Fset.Position(n.Pos())
	return flagDef{path: pos.Filename, line: pos.Line}
}

// binder follows framework command values through variables, fields and
// functions returning them: each composite literal of a command type is a
// node, and objects bound to exactly one node resolve to it.
type binder struct {
	lits  map[*ast.CompositeLit]*cliNode
	objs  map[types.Object]*cliNode // nil: bound to several
	funcs map[types.Object]*cliNode // nil: returns several
}

// objOf returns the object an identifier or selector's name refers to.
func objOf(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if o := info.Uses[e]; o != nil {
			return o
		}
		return info.Defs[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}

// resolve returns the node an expression evaluates to, or nil.
func (b *binder) resolve(info *types.Info, e ast.Expr) *cliNode {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return b.lits[e]
	case *ast.CallExpr:
		if o := objOf(info, e.Fun); o != nil {
			return b.funcs[o]
		}
	case *ast.Ident, *ast.SelectorExpr:
		if o := objOf(info, e); o != nil {
			return b.objs[o]
		}
	}
	return nil
}

// bind records that o holds n; a second, different node makes o
// ambiguous.
func bind(m map[types.Object]*cliNode, o types.Object, n *cliNode) bool {
	if o == nil || n == nil {
		return false
	}
	old, seen := m[o]
	if !seen {
		m[o] = n
		return true
	}
	if old != n && old != nil {
		m[o] = nil
		return true
	}
	return false
}

// bindAll binds the variables, fields and functions of the files to the
// nodes they hold or return, until nothing changes.
func (b *binder) bindAll(files []fileCtx) {
	for range 6 {
		changed := false
		for _, fc := range files {
			info := fc.p.Info
			ast.Inspect(fc.f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec:
					if len(n.Names) == len(n.Values) {
						for i, v := range n.Values {
							changed = bind(b.objs, info.Defs[n.Names[i]], b.resolve(info, v)) || changed
						}
					}
				case *ast.AssignStmt:
					if len(n.Lhs) == len(n.Rhs) {
						for i, v := range n.Rhs {
							changed = bind(b.objs, objOf(info, n.Lhs[i]), b.resolve(info, v)) || changed
						}
					}
				case *ast.FuncDecl:
					if n.Body == nil || n.Type.Results == nil {
						return true
					}
					fn := info.Defs[n.Name]
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if _, ok := m.(*ast.FuncLit); ok {
							return false
						}
						if r, ok := m.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
							changed = bind(b.funcs, fn, b.resolve(info, r.Results[0])) || changed
						}
						return true
					})
				}
				return true
			})
		}
		if !changed {
			return
		}
	}
}

// pflagMethods lists *pflag.FlagSet methods that neither register flags
// nor hide them; methods starting with Get are skipped too.
var pflagMethods = []string{
	"Lookup", "ShorthandLookup", "MarkHidden", "MarkDeprecated", "MarkShorthandDeprecated", "Set",
	"SetAnnotation", "Changed", "Parse", "Parsed", "Args", "NArg", "Arg", "NFlag", "VisitAll", "Visit",
	"HasFlags", "HasAvailableFlags", "FlagUsages", "FlagUsagesWrapped", "PrintDefaults", "SetOutput",
	"Init", "SetInterspersed", "ParseAll", "ArgsLenAtDash", "Output", "Name", "SortFlags",
}

// pflagOpen lists *pflag.FlagSet methods that add flags the rule cannot
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
func readCobra(p *retrieval.Package, pkgs []*retrieval.Package) *cliTree {
	files := filesOf(pkgs)
	b := &binder{lits: map[*ast.CompositeLit]*cliNode{}, objs: map[types.Object]*cliNode{}, funcs: map[types.Object]*cliNode{}}
	for _, fc := range files {
		name := fc.names[cobraPath]
		if name == "." {
			return nil
		}
		ast.Inspect(fc.f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok && isSel(lit.Type, name, "Command") {
				node := newCLINode(fc.pos(lit))
				node.name = "\x00" // unnamed until Use is read
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
	executed := map[*retrieval.Package][]*cliNode{}
	for _, fc := range files {
		info := fc.p.Info
		cobraName, pflagName, stdName := fc.names[cobraPath], fc.names[pflagPath], fc.names[stdFlagImp]
		// flag sets bound to variables: fs := cmd.Flags()
		sets := map[types.Object]struct {
			n          *cliNode
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
										n          *cliNode
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
									n          *cliNode
									persistent bool
								}{node, persistent}
								return true
							}
						}
					}
				}
				node.flagsOpen = true
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
						parentNode.subsOpen = true
					}
					for _, a := range n.Args {
						child := b.resolve(info, a)
						if child == nil {
							parentNode.subsOpen = true
							continue
						}
						child.hasParent = true
						if !slices.Contains(parentNode.subs, child) {
							parentNode.subs = append(parentNode.subs, child)
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
				s.n.flagsOpen = true
			}
		}
	}
	root := pickRoot(p, pkgs, executed)
	if root == nil || root.name == "\x00" {
		return nil
	}
	tree := &cliTree{root: root, framework: "cobra", names: []string{root.name}}
	// cobra's built-ins
	walkTree(root, func(n *cliNode, depth int) {
		if flagsOpen {
			n.flagsOpen = true
		}
		if subsOpen {
			n.subsOpen = true
		}
		if n.version {
			n.addFlag(false, "version", "v", n.def, valueNo)
		}
		// cobra rejects an unknown first word only on the root; below, a
		// runnable command receives it as an argument
		if depth > 0 && n.runnable {
			n.takesArgs = true
		}
		for _, s := range n.subs {
			if s.name == "\x00" {
				n.subsOpen = true
			}
		}
		if depth == 0 && len(n.subs) > 0 {
			n.subs = append(n.subs, builtinNode("completion", n.def), builtinNode("help", n.def))
		}
	})
	return tree
}

// builtinNode is a subcommand a framework adds on its own: whatever
// follows it is not checked.
func builtinNode(name string, def flagDef) *cliNode {
	n := newCLINode(def)
	n.name, n.subsOpen, n.flagsOpen, n.takesArgs, n.builtin = name, true, true, true, true
	return n
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
func cobraFields(info *types.Info, node *cliNode, elts []ast.Expr) {
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
			if f := strings.Fields(use); ok && len(f) > 0 && isSubWord(f[0]) {
				node.name = f[0]
			} else {
				node.name = "\x00"
			}
		case "Aliases":
			if a, ok := constStrs(info, kv.Value); ok {
				node.aliases = a
			} else {
				node.name = "\x00"
			}
		case "Version":
			node.version = true
		case "Run", "RunE":
			node.runnable = true
		case "Args", "ValidArgsFunction", "TraverseChildren":
			node.takesArgs = true
			if key.Name == "TraverseChildren" {
				node.flagsOpen = true
			}
		case "DisableFlagParsing", "FParseErrWhitelist":
			node.flagsOpen = true
		}
	}
}

// cobraFlag reads a registration call on a command's flag set.
func cobraFlag(fc fileCtx, node *cliNode, persistent bool, method string, call *ast.CallExpr) {
	if slices.Contains(pflagOpen, method) {
		node.flagsOpen = true
		return
	}
	if slices.Contains(pflagMethods, method) || strings.HasPrefix(method, "Get") || !unicode.IsUpper(rune(method[0])) {
		return
	}
	ni, si := pflagArgs(method)
	if ni >= len(call.Args) || si >= len(call.Args) || call.Ellipsis.IsValid() {
		node.flagsOpen = true
		return
	}
	name, ok := constStr(fc.p.Info, call.Args[ni])
	if !ok || name == "" {
		node.flagsOpen = true
		return
	}
	short := ""
	if si >= 0 {
		if short, ok = constStr(fc.p.Info, call.Args[si]); !ok {
			node.flagsOpen = true
			return
		}
	}
	v := valueYes
	if strings.HasPrefix(method, "Bool") || strings.HasPrefix(method, "Count") || strings.HasSuffix(method, "VarPF") || strings.HasPrefix(method, "Func") {
		v = valueUnknown
		if strings.HasPrefix(method, "Bool") && !strings.HasPrefix(method, "BoolSlice") || strings.HasPrefix(method, "Count") {
			v = valueNo
		}
	}
	node.addFlag(persistent, name, short, fc.pos(call), v)
}

// pickRoot chooses the executed root of main package p: the one p
// executes itself, else the only one the module packages it imports
// execute.
func pickRoot(p *retrieval.Package, pkgs []*retrieval.Package, executed map[*retrieval.Package][]*cliNode) *cliNode {
	cands := uniqNodes(executed[p])
	if len(cands) == 0 {
		for _, q := range pkgs[1:] {
			cands = append(cands, executed[q]...)
		}
		cands = uniqNodes(cands)
	}
	if len(cands) != 1 || cands[0].hasParent {
		return nil
	}
	return cands[0]
}

// uniqNodes returns the distinct nodes of ns in first-seen order.
func uniqNodes(ns []*cliNode) []*cliNode {
	var out []*cliNode
	for _, n := range ns {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// walkTree calls f on every node of the tree once, parents first.
func walkTree(root *cliNode, f func(n *cliNode, depth int)) {
	seen := map[*cliNode]bool{}
	var walk func(n *cliNode, depth int)
	walk = func(n *cliNode, depth int) {
		if seen[n] || depth > 20 {
			return
		}
		seen[n] = true
		f(n, depth)
		for _, s := range slices.Clone(n.subs) {
			walk(s, depth+1)
		}
	}
	walk(root, 0)
}

// urfaveFields reads the fields of urfave/cli's App and Command the rule
// knows (or assignments to them); others leave the node unchanged.
func urfaveFields(fc fileCtx, b *binder, node *cliNode, cliName string, elts []ast.Expr) {
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
			if s, ok := constStr(info, kv.Value); ok && isSubWord(s) {
				node.name = s
			} else {
				node.name = "\x00"
			}
		case "Aliases":
			if a, ok := constStrs(info, kv.Value); ok {
				node.aliases = a
			} else {
				node.name = "\x00"
			}
		case "Commands", "Subcommands":
			lit, ok := ast.Unparen(kv.Value).(*ast.CompositeLit)
			if !ok {
				node.subsOpen = true
				continue
			}
			for _, e := range lit.Elts {
				child := b.resolve(info, e)
				if child == nil {
					node.subsOpen = true
					continue
				}
				child.hasParent = true
				if !slices.Contains(node.subs, child) {
					node.subs = append(node.subs, child)
				}
			}
		case "Flags":
			lit, ok := ast.Unparen(kv.Value).(*ast.CompositeLit)
			if !ok {
				node.flagsOpen = true
				continue
			}
			for _, e := range lit.Elts {
				if !urfaveFlag(fc, node, cliName, e) {
					node.flagsOpen = true
				}
			}
		case "Action", "Arguments", "CommandNotFound":
			node.takesArgs = true
		case "SkipFlagParsing", "UseShortOptionHandling":
			node.flagsOpen = true
		case "Version":
			node.version = true
		}
	}
}

// urfaveFlag reads one element of a Flags list: &cli.StringFlag{Name: ...,
// Aliases: ...}. It reports false when the flag cannot be read.
func urfaveFlag(fc fileCtx, node *cliNode, cliName string, e ast.Expr) bool {
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
	v := valueYes
	if typ == "BoolFlag" {
		v = valueNo
	}
	def := fc.pos(lit)
	node.addFlag(true, name, "", def, v)
	for _, a := range aliases {
		node.inherit[a] = cliFlag{flagDef: def, long: name, value: v}
	}
	return true
}

// readUrfave reads the urfave/cli (v2 or v3) command tree of main package
// p: v2's only App literal, or v3's Command whose Run p (or a package it
// imports) calls.
func readUrfave(p *retrieval.Package, pkgs []*retrieval.Package, ip string) *cliTree {
	files := filesOf(pkgs)
	b := &binder{lits: map[*ast.CompositeLit]*cliNode{}, objs: map[types.Object]*cliNode{}, funcs: map[types.Object]*cliNode{}}
	var apps []*cliNode
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
				node := newCLINode(fc.pos(lit))
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
							b.lits[el] = newCLINode(fc.pos(el))
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
	executed := map[*retrieval.Package][]*cliNode{}
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
							node.flagsOpen, node.subsOpen = true, true
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
	var root *cliNode
	if ip == urfave2 {
		if len(apps) != 1 {
			return nil
		}
		root = apps[0]
	} else if root = pickRoot(p, pkgs, executed); root == nil {
		return nil
	}
	tree := &cliTree{root: root, framework: "urfave/cli"}
	if root.name != "" && root.name != "\x00" {
		tree.names = []string{root.name}
	}
	walkTree(root, func(n *cliNode, depth int) {
		if n.version && depth == 0 {
			n.addFlag(false, "version", "v", n.def, valueNo)
		}
		for _, s := range n.subs {
			if s.name == "" || s.name == "\x00" {
				n.subsOpen = true
			}
		}
		n.addFlag(false, "generate-bash-completion", "", n.def, valueNo)
		n.addFlag(false, "generate-shell-completion", "", n.def, valueNo)
		if len(n.subs) > 0 {
			n.subs = append(n.subs, builtinNode("help", n.def), builtinNode("h", n.def))
			if depth == 0 {
				n.subs = append(n.subs, builtinNode("completion", n.def))
			}
		}
	})
	return tree
}

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
func readKong(p *retrieval.Package, pkgs []*retrieval.Package) *cliTree {
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
	tree := &cliTree{framework: "kong"}
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
			if s, ok := constStr(at.p.Info, oc.Args[0]); ok && isSubWord(s) {
				tree.names = append(tree.names, s)
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
	root := newCLINode(def)
	kongStruct(pkgs, root, st, "", 0)
	tree.root = root
	return tree
}

// posOf turns a position of one of pkgs into a flagDef.
func posOf(pkgs []*retrieval.Package, pos token.Pos) flagDef {
	p := pkgs[0].Fset.Position(pos)
	return flagDef{path: p.Filename, line: p.Line}
}

// kongStruct reads the fields of a kong grammar struct into node.
func kongStruct(pkgs []*retrieval.Package, node *cliNode, st *types.Struct, prefix string, depth int) {
	if depth > 10 {
		node.flagsOpen, node.subsOpen = true, true
		return
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		if _, ok := tag.Lookup("kong"); ok {
			node.flagsOpen, node.subsOpen = true, true
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
			child := newCLINode(def)
			child.name = kebab(f.Name())
			if n, ok := tag.Lookup("name"); ok && n != "" {
				child.name = n
			}
			if a, ok := tag.Lookup("aliases"); ok && a != "" {
				child.aliases = strings.Split(a, ",")
			}
			if _, ok := tag.Lookup("default"); ok {
				node.takesArgs = true
			}
			if isStruct {
				kongStruct(pkgs, child, sub, "", depth+1)
			} else {
				child.flagsOpen, child.subsOpen, child.takesArgs = true, true, true
			}
			child.hasParent = true
			node.subs = append(node.subs, child)
		case arg:
			node.takesArgs = true
		case f.Embedded() || embed:
			if !isStruct {
				node.flagsOpen, node.subsOpen = true, true
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
			v := valueYes
			if b, ok := f.Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				v = valueNo
			} else if ok && b.Kind() == types.Invalid || f.Type() == types.Typ[types.Invalid] {
				v = valueUnknown
			} else if _, ok := tag.Lookup("type"); ok || isStruct {
				v = valueUnknown
			}
			node.addFlag(true, name, short, def, v)
			if _, ok := tag.Lookup("negatable"); ok {
				node.addFlag(true, "no-"+name, "", def, valueNo)
			}
			if a, ok := tag.Lookup("aliases"); ok && a != "" {
				for _, al := range strings.Split(a, ",") {
					node.addFlag(true, al, "", def, v)
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

// accepted returns the flags the last command of chain accepts: its own,
// those its ancestors pass down, and the built-in help flags; open is set
// when one of them may have flags the rule did not read.
func accepted(chain []*cliNode) (flags map[string]cliFlag, open bool) {
	flags = map[string]cliFlag{
		"help": {long: "help", value: valueNo}, "h": {long: "help", value: valueNo},
	}
	last := chain[len(chain)-1]
	for _, n := range chain {
		open = open || n.flagsOpen
		for k, f := range n.inherit {
			flags[k] = f
		}
	}
	for k, f := range last.flags {
		flags[k] = f
	}
	return flags, open
}

// subtreeFlag finds a flag by name in the commands under n (n included),
// for reading the words that follow it before the final subcommand is
// known; found is false when no command has it or they disagree on
// whether it takes a value.
func subtreeFlag(n *cliNode, name string) (v valueKind, found bool) {
	walkTree(n, func(m *cliNode, _ int) {
		for _, fs := range []map[string]cliFlag{m.flags, m.inherit} {
			if f, ok := fs[name]; ok {
				if found && f.value != v {
					v = valueUnknown
				}
				v, found = f.value, true
			}
		}
	})
	return v, found
}

// checkTree finds the first flag or subcommand of a shell line's words
// (after the program name) that a framework-built command does not define.
// It walks the subcommand words down the tree, then checks the flags
// against the command they reach: cobra reads flags given before the
// subcommand with the subcommand's flag set. A word is reported only when
// nothing the rule could not read might define it: the flags of every
// command on the path must be known, and a word is an unknown subcommand
// only where the command takes no positional arguments. urfave/cli stops
// reading flags at the first positional argument.
func checkTree(cmd *command, words []string) (cliUse, bool) {
	t := cmd.tree
	chain := []*cliNode{t.root}
	path := []string{cmd.name}
	type flagWord struct{ word, name string }
	var flagWords []flagWord
	// uncertain: a word may have been a flag's value or a subcommand.
	seenArg, uncertain := false, false
	for i := 0; i < len(words); i++ {
		w := words[i]
		cur := chain[len(chain)-1]
		if w == "--" {
			break
		}
		if strings.HasPrefix(w, "-") && w != "-" {
			if seenArg && t.framework == "urfave/cli" {
				break
			}
			body := strings.TrimLeft(w, "-")
			dashes := len(w) - len(body)
			name, _, hasEq := strings.Cut(body, "=")
			if dashes > 2 || !isFlagWord(name) || dashes == 1 && len(name) > 1 && t.framework != "urfave/cli" {
				// placeholders, shorthand clusters (-abc) and -1
				uncertain = true
				continue
			}
			flagWords = append(flagWords, flagWord{w, name})
			v := valueNo
			if fs, _ := accepted(chain); fs[name].long != "" {
				v = fs[name].value
			} else if sv, ok := subtreeFlag(cur, name); ok {
				v = sv
			} else if _, open := accepted(chain); !open && !subtreeOpen(cur) {
				// no command from here down defines it
				return unknownFlag(cmd, chain, path, w, name), true
			} else {
				v = valueUnknown
			}
			switch {
			case hasEq:
			case v == valueYes:
				i++
			case v == valueUnknown:
				uncertain = true
			}
			continue
		}
		if seenArg || uncertain {
			seenArg = true
			if t.framework == "urfave/cli" {
				break
			}
			continue
		}
		if child := cur.child(w); child != nil {
			chain = append(chain, child)
			path = append(path, w)
			continue
		}
		if len(cur.subs) == 0 || cur.subsOpen || cur.takesArgs || !isSubWord(w) {
			seenArg = true
			continue
		}
		var names []string
		for _, s := range cur.subs {
			if !s.builtin && s.name != "h" {
				names = append(names, s.name)
				names = append(names, s.aliases...)
			}
		}
		return cliUse{cmd: cmd, word: w, sub: true, closest: closestOf(w, names), node: cur, path: strings.Join(path, " ")}, true
	}
	last := chain[len(chain)-1]
	flags, open := accepted(chain)
	if open || uncertain && len(last.subs) > 0 {
		return cliUse{}, false
	}
	for _, fw := range flagWords {
		if _, ok := flags[fw.name]; !ok {
			return unknownFlag(cmd, chain, path, fw.word, fw.name), true
		}
	}
	return cliUse{}, false
}

// subtreeOpen reports whether a command under n (n included) may have
// flags the rule did not read.
func subtreeOpen(n *cliNode) bool {
	open := false
	walkTree(n, func(m *cliNode, _ int) {
		open = open || m.flagsOpen && !m.builtin
	})
	return open
}

// unknownFlag describes flag word w (named name) given to the last
// command of chain, with the unique close long name it accepts.
func unknownFlag(cmd *command, chain []*cliNode, path []string, w, name string) cliUse {
	flags, _ := accepted(chain)
	closest := ""
	if len(name) > 2 {
		var longs []string
		for k := range flags {
			if len(k) > 1 {
				longs = append(longs, k)
			}
		}
		closest = closestOf(name, longs)
	}
	return cliUse{cmd: cmd, word: w, closest: closest, node: chain[len(chain)-1], path: strings.Join(path, " "), flags: flags}
}

// treeEvidence returns the definition a finding on a framework-built
// command cites, and why: the close flag or subcommand when there is one,
// else the command's definition with what it accepts.
func treeEvidence(u cliUse) (flagDef, string) {
	if u.sub {
		var names []string
		for _, s := range u.node.subs {
			if s.builtin {
				continue
			}
			if s.name == u.closest || slices.Contains(s.aliases, u.closest) {
				return s.def, fmt.Sprintf("%s defines the subcommand %s", u.path, u.closest)
			}
			names = append(names, s.name)
		}
		slices.Sort(names)
		return u.node.def, fmt.Sprintf("%s defines the subcommands %s", u.path, shortList(names, 12))
	}
	if u.closest != "" {
		if f, ok := u.flags[u.closest]; ok && f.path != "" {
			return f.flagDef, fmt.Sprintf("%s defines the flag --%s", u.path, u.closest)
		}
	}
	var names []string
	for _, f := range u.flags {
		if f.path != "" && !slices.Contains(names, "--"+f.long) {
			names = append(names, "--"+f.long)
		}
	}
	slices.Sort(names)
	return u.node.def, fmt.Sprintf("%s defines the flags %s", u.path, shortList(names, 12))
}

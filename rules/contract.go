package rules

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/completeness"
)

var _ review.Judge = (*MissingContract)(nil)

// MissingContract is the missing-contract rule: an exported func or method
// returns sentinel errors (package-level error variables, returned as they
// are or wrapped with fmt.Errorf's %w) or typed errors (a composite literal
// of an error type) in a result declared as error, calls panic at the top
// of its own body or directly under an if, or substitutes a constant or
// package-level default for a zero parameter ("if ttl <= 0 { ttl =
// DefaultTTL }"), or passes on the sentinel and typed errors of module
// callees one or two calls deep (completeness.Analyze's error facts), and
// its doc comment names none of these. It labels the
// claim incomplete and lists every item by name, with its condition when
// the item sits directly in an if with a short condition, and the
// default's value.
//
// The doc states an item when it names the sentinel (or, for "pkg.ErrX",
// ErrX), the error type or its words ("a syntax error"), "panic" in any
// form for a panic, and for a default the constant's name, its value, or
// the word "default" or "zero". One stated item is enough for the rule to
// stay silent: it only reports docs silent about the whole contract.
// Callees' errors other than module sentinels and error types, panics
// inside func literals, switch cases or loops, panics marked unreachable,
// functions that recover, io.EOF from Read methods, unexported functions,
// methods implementing a documented interface method, docs saying the
// function implements something, Test, Benchmark, Fuzz and Example
// functions, declarations in test files and deprecated ones are exempt.
// The suggestion appends one sentence stating every item.
//
// When that check stays silent, the rule also reports, in a diff review
// with a base, a diff that deletes a doc sentence stating an error, panic
// or failure contract (a panic in any form; error, err, fail, failure, a
// sentinel or error type name, or "invalid" next to returns or rejects;
// "returns nil" or "returns false" with if, when or unless; not a denial
// such as "never returns an error") that the head doc no longer states
// (not the same text reflowed or moved, nor a typo fix, nor a rewording
// into a new contract sentence of the same kind, nor another contract
// sentence naming the same sentinel or condition) while the function's own
// body still has the contract: a return of an error result that is not
// the literal nil, a panic call, or a return of the literal nil or false.
// Its evidence is those lines and the doc's diff lines, and its suggestion
// the head doc with the sentence put back where it stood, unless the
// function's result types changed. The exemptions above apply to it too.
// The zero value is ready to use and safe for concurrent use.
type MissingContract struct {
	callees memo[map[string][]completeness.Fact]
}

// Name returns "missing-contract".
func (*MissingContract) Name() string { return "missing-contract" }

// contractKind says what a contract item is.
type contractKind int

const (
	contractError   contractKind = iota // returns a sentinel or typed error
	contractPanic                       // panics
	contractDefault                     // substitutes a default for a zero parameter
)

// contractItem is one thing a function's doc should state.
type contractItem struct {
	kind  contractKind
	name  string // sentinel or type name; the parameter for a default
	repl  string // the default's expression
	value string // the default's constant value, "" when not constant
	cond  string // the guarding condition, "" when not a simple if
	line  int
	start int // the first line the item rests on: the if of a default, else line
	// path is the file of line when it is not the function's own (an
	// error a callee returns); hops the chain of calls that reaches it.
	path string
	hops []string
}

// Judge reports a doc comment that states none of its function's error,
// panic and default contract or, failing that, one whose diff removed the
// sentence stating a contract the function still has; else nil. It fails
// only with the context's error.
func (r *MissingContract) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Symbols == nil || c.Kind != review.KindDocComment || c.Symbol == "" ||
		strings.HasPrefix(c.Symbol, "package ") || !exportedPath(c.Symbol) || isDeprecated(c.Text) ||
		strings.HasSuffix(c.Path, "_test.go") {
		return nil, nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || !sym.Exported || sym.Kind != "func" && sym.Kind != "method" || sym.Path == "" || sym.Line < 1 {
		return nil, nil
	}
	name := lastPart(c.Symbol)
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) && sym.Kind == "func" {
			return nil, nil
		}
	}
	if countWord(strings.ToLower(c.Text), "implements") > 0 {
		// The interface's doc carries the contract.
		return nil, nil
	}
	decl := funcDecl(sym)
	fn, _ := sym.Object.(*types.Func)
	if decl == nil || decl.Body == nil || sym.Package.Info == nil || fn == nil {
		return nil, nil
	}
	if sym.Kind == "method" && implementsDocumented(ws.Symbols, sym) {
		return nil, nil
	}
	v, own := r.silent(ws, c, sym, decl, fn.Signature())
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if v != nil && own > 0 {
		return v, nil
	}
	// With only callees' errors missing, a diff that removed the sentence
	// stating the contract gets the more specific finding: its suggestion
	// puts that sentence back.
	if lost := r.lostContract(ws, c, sym, decl, fn.Signature()); lost != nil {
		return lost, nil
	}
	return v, nil
}

// silent reports a doc comment that states none of its function's error,
// panic and default items, unless that silence predates the diff, or nil.
func (r *MissingContract) silent(ws *review.Workspace, c review.Claim, sym retrieval.Symbol, decl *ast.FuncDecl, sig *types.Signature) (*review.Verdict, int) {
	items := contractItems(sym.Package, decl, sig)
	own := len(items)
	items = append(items, r.calleeErrors(ws, c, items)...)
	if len(items) == 0 {
		return nil, own
	}
	for _, it := range items {
		if it.stated(c.Text) {
			return nil, own
		}
	}
	if predatesContract(ws, c, sym, decl, items) {
		return nil, own
	}
	return r.verdict(c, sym, items), own
}

// calleeErrors returns the sentinel and typed errors the function returns
// through its module callees (one or two calls deep, as
// [completeness.Analyze] traces them: unwrapped or wrapped with %w) that
// its own body does not already return, as items whose evidence is the
// callee's return line. An analysis failure gives none.
func (r *MissingContract) calleeErrors(ws *review.Workspace, c review.Claim, own []contractItem) []contractItem {
	facts, err := r.callees.get(ws, c.Package, func() (map[string][]completeness.Fact, error) {
		syms, err := completeness.Analyze(context.Background(), ws.Symbols, []string{c.Package})
		if err != nil {
			return nil, err
		}
		out := map[string][]completeness.Fact{}
		for _, s := range syms {
			out[s.Name] = s.Facts
		}
		return out, nil
	})
	if err != nil {
		return nil
	}
	named := map[string]bool{}
	for _, it := range own {
		if it.kind == contractError {
			named[it.name] = true
		}
	}
	var out []contractItem
	for _, f := range facts[c.Symbol] {
		if f.Kind != completeness.KindError || len(f.Hops) == 0 || named[f.Name] || f.Path == "" || f.Line < 1 {
			continue
		}
		named[f.Name] = true
		out = append(out, contractItem{kind: contractError, name: f.Name, line: f.Line, start: f.Line, path: f.Path, hops: f.Hops})
	}
	return out
}

var contractWordRE = regexp.MustCompile(`(?i)\b(?:err\w*|fail\w*|panic\w*|default\w*|zero|invalid)\b`)

// contractWords counts the words of a doc text that speak of an error,
// panic or default contract, stated or not in the rule's terms.
func contractWords(text string) int { return len(contractWordRE.FindAllStringIndex(text, -1)) }

// predatesContract reports whether the doc's silence about items is older
// than the diff: the doc at base states none of them either and has no
// more words about errors, panics or defaults than at head, and each item
// existed at base, as far as the diff shows: it adds no line of the
// declaration's signature, nor the line of any item or of a default's if.
// It is false in an audit ([review.ScopeAll]) and without a base.
func predatesContract(ws *review.Workspace, c review.Claim, sym retrieval.Symbol, decl *ast.FuncDecl, items []contractItem) bool {
	old, ok := baseDoc(ws, c)
	if !ok {
		return false
	}
	if contractWords(old) > contractWords(c.Text) {
		// The diff removed contract wording the rule cannot match to an
		// item ("returns an error if ..."): the doc got less complete.
		return false
	}
	for _, it := range items {
		if it.stated(old) {
			// The diff removed what the doc said: that gap is new.
			return false
		}
	}
	f, changed := headChange(ws, sym.Path)
	if !changed {
		return true
	}
	fset := sym.Package.Fset
	if f.Touches(fset.Position(decl.Pos()).Line, fset.Position(decl.Body.Lbrace).Line) {
		return false
	}
	for _, it := range items {
		if it.path == "" && f.Touches(it.start, it.line) {
			return false
		}
	}
	// A callee's changed return line does not make the caller's doc less
	// complete than it was: callees' items count only with the doc.
	return true
}

// verdict lists the missing items in one sentence, with one evidence item
// per line.
func (r *MissingContract) verdict(c review.Claim, sym retrieval.Symbol, items []contractItem) *review.Verdict {
	var errs, panics, defaults []string
	seen := map[string]bool{}
	// An error returned on several paths is named once, without the
	// conditions, which no longer single out one path.
	errPaths := map[string]int{}
	for _, it := range items {
		if it.kind == contractError {
			errPaths[it.name]++
		}
	}
	v := &review.Verdict{Label: review.Incomplete, Rule: r.Name(), Confidence: 0.8}
	for _, it := range items {
		ev := review.Evidence{
			Path: sym.Path, StartLine: it.line, EndLine: it.line, Source: review.SourceCode,
			Why: it.why(), Hops: []string{c.Symbol, it.hop()},
		}
		if it.path != "" {
			ev.Path = it.path
			ev.Why = "returns " + it.name + " to " + c.Symbol + " through " + strings.Join(it.hops, " → ")
			ev.Hops = append([]string{c.Symbol}, it.hops...)
		}
		v.Evidence = append(v.Evidence, ev)
		label := it.label()
		if it.kind == contractError && errPaths[it.name] > 1 {
			label = it.name
		}
		if seen[label] {
			continue
		}
		seen[label] = true
		switch it.kind {
		case contractError:
			errs = append(errs, label)
		case contractPanic:
			panics = append(panics, label)
		case contractDefault:
			defaults = append(defaults, label)
		}
	}
	var parts []string
	if len(errs) > 0 {
		parts = append(parts, "returns "+joinOr(errs))
	}
	if len(panics) > 0 {
		parts = append(parts, "panics"+conds(panics))
	}
	parts = append(parts, defaults...)
	v.Message = fmt.Sprintf("Doc comment of %s does not say that it %s.", c.Symbol, joinAnd(parts))
	v.Suggestion = addContract(c.Text, items, errPaths, callerNames(sym))
	return v
}

// callerNames are the names a caller knows: the parameters and the
// receiver of sym's signature.
func callerNames(sym retrieval.Symbol) map[string]bool {
	out := map[string]bool{}
	fn, ok := sym.Object.(*types.Func)
	if !ok {
		return out
	}
	sig := fn.Signature()
	if rv := sig.Recv(); rv != nil && rv.Name() != "" {
		out[rv.Name()] = true
	}
	for v := range sig.Params().Variables() {
		out[v.Name()] = true
	}
	return out
}

// condFor renders a condition for a caller, in backticks, or "" when it
// names none of the caller's names (a local such as "!ok" says nothing to
// a caller).
func condFor(cond string, names map[string]bool) string {
	if cond == "" {
		return ""
	}
	for _, w := range wordRE.FindAllString(cond, -1) {
		if names[w] {
			return " when `" + cond + "`"
		}
	}
	return ""
}

// addContract returns the doc text with one sentence appended that states
// the items compactly, by exact name, literal and condition ("It returns
// ErrNoStock when `n > 10` and panics when `n < 0`."), the rest of the
// text left as it is. Conditions that name nothing a caller knows (no
// parameter or receiver, as in "!ok") are left out.
func addContract(text string, items []contractItem, errPaths map[string]int, names map[string]bool) string {
	var clauses []string
	seen := map[string]bool{}
	for _, it := range items {
		var cl string
		switch it.kind {
		case contractError:
			cl = "returns " + it.name
			if errPaths[it.name] == 1 {
				cl += condFor(it.cond, names)
			}
		case contractPanic:
			cl = "panics" + condFor(it.cond, names)
		case contractDefault:
			cl = "uses " + it.repl
			if it.value != "" && it.value != it.repl {
				cl += " (" + it.value + ")"
			}
			if w := condFor(it.cond, names); w != "" {
				cl += w
			} else {
				cl += " when " + it.cond
			}
		}
		if cl != "" && !seen[cl] {
			seen[cl] = true
			clauses = append(clauses, cl)
		}
	}
	if len(clauses) == 0 {
		return ""
	}
	t := strings.TrimRight(text, " \n")
	if t != "" && !strings.HasSuffix(t, ".") {
		t += "."
	}
	return strings.TrimSpace(t + " It " + joinAnd(clauses) + ".")
}

// joinOr joins words as English prose with "or".
func joinOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// conds formats the conditions of panics: " (a, b)", or "" when none is
// known.
func conds(labels []string) string {
	var cs []string
	for _, l := range labels {
		if l != "" {
			cs = append(cs, l)
		}
	}
	if len(cs) == 0 {
		return ""
	}
	return " (" + joinOr(cs) + ")"
}

// label is how the message names the item.
func (it contractItem) label() string {
	switch it.kind {
	case contractPanic:
		return it.cond
	case contractDefault:
		s := fmt.Sprintf("uses %s", it.repl)
		if it.value != "" && it.value != it.repl {
			s += " (" + it.value + ")"
		}
		return s + " when " + it.cond
	}
	if it.cond != "" {
		return it.name + " (" + it.cond + ")"
	}
	return it.name
}

// hop is the last hop of the item's evidence.
func (it contractItem) hop() string {
	switch it.kind {
	case contractPanic:
		return "panic"
	case contractDefault:
		return it.repl
	}
	return it.name
}

// why explains the item's evidence line.
func (it contractItem) why() string {
	var s string
	switch it.kind {
	case contractPanic:
		s = "panics"
	case contractDefault:
		s = "substitutes " + it.repl
		if it.value != "" && it.value != it.repl {
			s += " (" + it.value + ")"
		}
		return s + " when " + it.cond
	default:
		s = "returns " + it.name
	}
	if it.cond != "" {
		s += " when " + it.cond
	}
	return s
}

var panicWordRE = regexp.MustCompile(`(?i)\bpanic`)

// stated reports whether a doc text names the item.
func (it contractItem) stated(text string) bool {
	switch it.kind {
	case contractPanic:
		return panicWordRE.MatchString(text)
	case contractDefault:
		lower := strings.ToLower(text)
		if strings.Contains(lower, "default") || countWord(lower, "zero") > 0 || countWord(text, lastPart(it.repl)) > 0 {
			return true
		}
		return it.value != "" && strings.Contains(text, strings.Trim(it.value, `"`))
	}
	name := strings.TrimPrefix(it.name, "*")
	if countWord(text, name) > 0 || countWord(text, lastPart(name)) > 0 {
		return true
	}
	// "a syntax error" states *SyntaxError.
	words := strings.Join(splitWords(lastPart(name)), " ")
	return strings.Contains(name, "Error") && strings.Contains(strings.ToLower(text), words)
}

// packageLevel reports whether e names a package-level variable or
// constant ("DefaultTTL", "http.DefaultClient").
func packageLevel(info *types.Info, e ast.Expr) bool {
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false
	}
	obj := info.Uses[id]
	return obj != nil && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// hasRecover reports whether body defers a func literal that calls
// recover: its panics do not leave the function.
func hasRecover(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	for _, st := range body.List {
		d, ok := st.(*ast.DeferStmt)
		if !ok {
			continue
		}
		ast.Inspect(d.Call, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "recover" {
					if _, ok := info.Uses[id].(*types.Builtin); ok {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// unreachable reports whether a panic call marks code that cannot run:
// its message says "unreachable", "not reached", "impossible" or "should
// not happen".
func unreachable(call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	msg := strings.ToLower(lit.Value)
	for _, w := range []string{"unreachable", "not reached", "impossible", "should not happen", "never happen"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// maxCond is the longest condition quoted in a message.
const maxCond = 40

// contractItems collects the contract of decl's own body, in source order.
func contractItems(p *retrieval.Package, decl *ast.FuncDecl, sig *types.Signature) []contractItem {
	info := p.Info
	recovers := hasRecover(info, decl.Body)
	reader := strings.HasPrefix(decl.Name.Name, "Read")
	params := map[types.Object]bool{}
	for _, f := range decl.Type.Params.List {
		for _, n := range f.Names {
			if obj := info.Defs[n]; obj != nil {
				params[obj] = true
			}
		}
	}
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	var items []contractItem
	var stack []ast.Node
	line := func(n ast.Node) int { return p.Fset.Position(n.Pos()).Line }
	// guard returns the condition of the if statement whose body directly
	// holds the statement on top of the stack, when it is short.
	guard := func() string {
		if len(stack) < 3 {
			return ""
		}
		block, ok := stack[len(stack)-2].(*ast.BlockStmt)
		if !ok {
			return ""
		}
		ifs, ok := stack[len(stack)-3].(*ast.IfStmt)
		if !ok || ifs.Body != block || ifs.Init != nil {
			return ""
		}
		if s := types.ExprString(ifs.Cond); len(s) <= maxCond {
			return s
		}
		return ""
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) != sig.Results().Len() {
				break
			}
			for i, e := range n.Results {
				if !types.Identical(sig.Results().At(i).Type(), types.Universe.Lookup("error").Type()) {
					// A constructor of an error type returns it by
					// design; only results declared as error count.
					continue
				}
				if name, ok := errorItem(info, errType, e); ok && !(reader && name == "io.EOF") {
					items = append(items, contractItem{kind: contractError, name: name, cond: guard(), line: line(n), start: line(n)})
				}
			}
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok {
					if _, ok := info.Uses[id].(*types.Builtin); ok && id.Name == "panic" && !recovers && !unreachable(call) {
						// Only a panic at the top of the body or under a
						// short if condition is a contract; one in a switch
						// case or a loop is usually an assertion.
						top := len(stack) == 2 && stack[0] == decl.Body
						if cond := guard(); cond != "" || top {
							items = append(items, contractItem{kind: contractPanic, cond: cond, line: line(n), start: line(n)})
						}
					}
				}
			}
		case *ast.IfStmt:
			if it, ok := defaultItem(info, params, n); ok {
				it.line, it.start = line(n.Body.List[0]), line(n)
				items = append(items, it)
			}
		}
		return true
	})
	return items
}

// errorItem names the sentinel or typed error e returns: a package-level
// error variable ("ErrNotFound", "io.EOF"), such a variable wrapped by
// fmt.Errorf with %w, or a composite literal of an error type
// ("*PathError").
func errorItem(info *types.Info, errType *types.Interface, e ast.Expr) (string, bool) {
	e = ast.Unparen(e)
	if name, ok := sentinel(info, errType, e); ok {
		return name, true
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		if fn := calledFunc(info, x); fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Errorf" {
			return "", false
		}
		if len(x.Args) < 2 {
			return "", false
		}
		if lit, ok := x.Args[0].(*ast.BasicLit); !ok || !strings.Contains(lit.Value, "%w") {
			return "", false
		}
		for _, a := range x.Args[1:] {
			if name, ok := sentinel(info, errType, ast.Unparen(a)); ok {
				return name, true
			}
		}
	case *ast.UnaryExpr:
		if cl, ok := x.X.(*ast.CompositeLit); ok && x.Op == token.AND {
			if t := info.TypeOf(x); t != nil && types.Implements(t, errType) && exportedType(t) {
				return "*" + types.ExprString(cl.Type), true
			}
		}
	case *ast.CompositeLit:
		if t := info.TypeOf(x); t != nil && types.Implements(t, errType) && exportedType(t) {
			return types.ExprString(x.Type), true
		}
	}
	return "", false
}

// sentinel names e when it is an exported package-level variable of an
// error type.
func sentinel(info *types.Info, errType *types.Interface, e ast.Expr) (string, bool) {
	var id *ast.Ident
	prefix := ""
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		pkg, ok := x.X.(*ast.Ident)
		if !ok {
			return "", false
		}
		if _, ok := info.Uses[pkg].(*types.PkgName); !ok {
			return "", false
		}
		id, prefix = x.Sel, pkg.Name+"."
	default:
		return "", false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !types.Implements(v.Type(), errType) || !v.Exported() {
		return "", false
	}
	return prefix + id.Name, true
}

// exportedType reports whether t (or what it points to) is a named type
// callers can name: an unexported error type or sentinel is no contract a
// caller could test for, so its absence from the doc is not a gap.
func exportedType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Exported()
}

// calledFunc returns the function a call calls, when it is a named one.
func calledFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := call.Fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// defaultItem recognises "if x == 0 { x = D }" (or <= 0, == "", == nil)
// where x is a parameter or a field of one, and the body's first
// statement assigns x.
func defaultItem(info *types.Info, params map[types.Object]bool, s *ast.IfStmt) (contractItem, bool) {
	bin, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || s.Init != nil || len(s.Body.List) == 0 || bin.Op != token.EQL && bin.Op != token.LEQ {
		return contractItem{}, false
	}
	if !isZero(info, bin.Y) || !rootedAtParam(info, params, bin.X) {
		return contractItem{}, false
	}
	as, ok := s.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 ||
		types.ExprString(as.Lhs[0]) != types.ExprString(bin.X) {
		return contractItem{}, false
	}
	rhs := as.Rhs[0]
	tv, ok := info.Types[rhs]
	if !ok || isZero(info, rhs) || tv.Value == nil && !packageLevel(info, rhs) {
		// Only a constant or a package-level variable is a default; "x =
		// r" fills in a result.
		return contractItem{}, false
	}
	it := contractItem{kind: contractDefault, name: types.ExprString(bin.X), repl: types.ExprString(rhs), cond: types.ExprString(s.Cond)}
	if tv.Value != nil {
		it.value = constValue(tv)
	}
	return it, true
}

// constValue formats a constant as a doc would write it: durations as
// time.Duration prints them, strings quoted, numbers exactly.
func constValue(tv types.TypeAndValue) string {
	if n, ok := tv.Type.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration" {
		if d, ok := constant.Int64Val(tv.Value); ok {
			return time.Duration(d).String()
		}
	}
	return tv.Value.ExactString()
}

// isZero reports whether e is the constant zero, "" or nil.
func isZero(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	if tv.IsNil() {
		return true
	}
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	}
	return false
}

// rootedAtParam reports whether e is a parameter or a field selected from
// one ("opts.Timeout").
func rootedAtParam(info *types.Info, params map[types.Object]bool, e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return params[info.Uses[x]]
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				return false
			}
			e = x.X
		default:
			return false
		}
	}
}

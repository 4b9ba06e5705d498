package rules

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/completeness"
	"github.com/docreview/docreview/review/prose"
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
// inside func literals, switch cases or loops, internal panics (see
// [internalPanic]: a message or an adjacent comment saying the panic
// cannot run, as "Can't get here" above zap's "RedirectStdLog", or naming
// an internal invariant, as go-cmp's Diff's "inconsistent difference and
// equality results", under a condition on no parameter), functions that
// recover, io.EOF from Read… and io.ErrShortWrite from Write… functions
// (the io contracts say what they mean), unexported functions, methods
// implementing a documented interface method, docs saying the function
// implements something, Test, Benchmark, Fuzz and Example functions,
// declarations in test files and deprecated ones are exempt. Panics are
// read from the function's own body only: callees' panics (go-cmp's
// assertion helpers under Equal) are never items.
//
// The suggestion appends one sentence stating every item, as a paragraph
// of its own when the doc ends in an indented block (code or a list). It
// is left out when the items name errors and the function can return an
// exported sentinel or error type they do not name, one that the trace
// cannot list (see [errorTrace.hidden]: past its two calls, or a
// conversion such as "UnsupportedConfigError"(ext)): the items are then
// a sample, and naming them alone would mislead (viper's "ReadInConfig",
// whose README has callers check "ConfigFileNotFoundError", returned four
// calls down, would be told "It returns ConfigParseError."). Naming the
// others too would take items the message and evidence do not have, so
// the rule names none; the message still lists the items.
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
	decls   memo[map[*types.Func]funcSource]
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
	if typeDoc := receiverDoc(ws, c); typeDoc != "" {
		// The receiver type's doc may carry the contract for all its
		// methods ("It supports keys in range [1, math.MaxUint64-1]").
		for _, it := range items {
			if it.stated(typeDoc) || it.kind == contractPanic && condNamedIn(it.cond, typeDoc) {
				return nil, own
			}
		}
	}
	if predatesContract(ws, c, sym, decl, items) {
		return nil, own
	}
	if items = withoutCommonErrors(ws, sym.Package, items); len(items) == 0 {
		return nil, own
	}
	// What the io contracts say need not be said again, though a doc
	// saying it has stated its contract (above).
	items = slices.DeleteFunc(items, func(it contractItem) bool {
		return it.kind == contractError && ioContract(decl.Name.Name, it.name)
	})
	if len(items) == 0 {
		return nil, own
	}
	v := r.verdict(c, sym, items)
	if r.hidesErrors(ws, sym, items) {
		// The error items are a sample: naming them alone would hide
		// the others (viper's ReadInConfig, whose README has users check
		// ConfigFileNotFoundError four calls down, got "It returns
		// ConfigParseError."). The message still lists them.
		v.Suggestion = ""
	}
	return v, own
}

// receiverDoc returns the doc comment of a method claim's receiver type,
// "" for funcs and undocumented types.
func receiverDoc(ws *review.Workspace, c review.Claim) string {
	typ, _, ok := strings.Cut(c.Symbol, ".")
	if !ok {
		return ""
	}
	sym, found := ws.Symbols.Lookup(c.Package, typ)
	if !found || sym.Kind != "type" {
		return ""
	}
	return sym.Doc
}

// condNamedIn reports whether a panic's condition compares with a named
// bound that doc names ("k == math.MaxUint64" and a doc that says
// "keys in range [1, math.MaxUint64-1]"): the doc states the constraint
// the panic enforces.
func condNamedIn(cond, doc string) bool {
	for _, m := range condNameRE.FindAllString(cond, -1) {
		if strings.Contains(m, ".") || token0Exported(m) {
			if countWord(doc, lastPart(m)) > 0 {
				return true
			}
		}
	}
	return false
}

var condNameRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?`)

// ioContract reports whether the io package's contracts already say what
// error err means for a function called fn: io.EOF for Read…,
// io.ErrShortWrite for Write….
func ioContract(fn, err string) bool {
	return strings.HasPrefix(fn, "Read") && err == "io.EOF" || strings.HasPrefix(fn, "Write") && err == "io.ErrShortWrite"
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

// funcSource is a function declaration of the module with the type
// information of its package.
type funcSource struct {
	decl *ast.FuncDecl
	info *types.Info
}

// calleeDepth is how many calls deep [completeness.Analyze] follows
// errors; [errorTrace] looks past it.
const calleeDepth = 2

// hidesErrors reports whether items name errors and sym can return an
// exported sentinel or error type they do not name but a caller could
// check for: one the callee trace cannot see (see [errorTrace.hidden]).
// Then the items are a sample of what the doc should name, not the list.
func (r *MissingContract) hidesErrors(ws *review.Workspace, sym retrieval.Symbol, items []contractItem) bool {
	fn, ok := sym.Object.(*types.Func)
	if !ok || sym.Package == nil || sym.Package.Types == nil {
		return false
	}
	decls, _ := r.decls.get(ws, "", func() (map[*types.Func]funcSource, error) {
		out := map[*types.Func]funcSource{}
		for _, p := range ws.Symbols.Packages() {
			if p.Info == nil {
				continue
			}
			for _, f := range p.Syntax {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
						if fn, ok := p.Info.Defs[fd.Name].(*types.Func); ok {
							out[fn] = funcSource{fd, p.Info}
						}
					}
				}
			}
		}
		return out, nil
	})
	named := map[string]bool{}
	for _, it := range items {
		if it.kind == contractError {
			named[strings.TrimPrefix(it.name, "*")] = true
		}
	}
	if len(named) == 0 {
		// A suggestion naming no error hides none.
		return false
	}
	t := &errorTrace{decls: decls, memo: map[traceKey][]types.Object{}, busy: map[*types.Func]bool{}}
	for _, obj := range t.hidden(fn, calleeDepth) {
		name := obj.Name()
		if obj.Pkg() != sym.Package.Types {
			name = obj.Pkg().Name() + "." + name
		}
		if !named[name] {
			return true
		}
	}
	return false
}

// errorTrace follows a function's errors through the module's functions
// the way [completeness.Analyze] does, to find what its trace misses.
type errorTrace struct {
	decls map[*types.Func]funcSource
	memo  map[traceKey][]types.Object
	busy  map[*types.Func]bool
}

type traceKey struct {
	fn    *types.Func
	depth int
}

// hidden returns the exported sentinels (their *types.Var) and error types
// (their *types.TypeName) that fn can return in a result declared as error
// but a trace depth calls deep does not list: conversions to an error type
// (viper's "UnsupportedConfigError"(ext)), which the trace does not read as
// typed errors, at any depth, and every sentinel and typed error of the
// module functions past the depth (viper's "ConfigFileNotFoundError", four
// calls below "ReadInConfig"). Errors pass as the trace passes them:
// returned as they are, wrapped with fmt.Errorf's %w, through local
// variables and the results of module calls, except those a function
// compares with == or != or tests with errors.Is. A negative depth is past
// the trace: everything found counts. Errors of functions without a body
// in the module (the standard library, other modules, interface methods,
// func values), parameters and fields are none: the rule exempts them.
func (t *errorTrace) hidden(fn *types.Func, depth int) []types.Object {
	fn = fn.Origin()
	key := traceKey{fn, depth}
	if out, ok := t.memo[key]; ok {
		return out
	}
	src, ok := t.decls[fn]
	if !ok || t.busy[fn] {
		// A recursive call returns what the function does.
		return nil
	}
	t.busy[fn] = true
	defer delete(t.busy, fn)
	sig := fn.Signature()
	var errIdx []int
	for i := range sig.Results().Len() {
		if types.Identical(sig.Results().At(i).Type(), types.Universe.Lookup("error").Type()) {
			errIdx = append(errIdx, i)
		}
	}
	if len(errIdx) == 0 {
		return nil
	}
	w := &traceWalk{t: t, info: src.info, depth: depth, assigns: map[types.Object][]ast.Expr{},
		handled: map[types.Object]bool{}, seen: map[types.Object]bool{}, found: map[types.Object]bool{}}
	var returns []*ast.ReturnStmt
	ast.Inspect(src.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns = append(returns, n)
		case *ast.AssignStmt:
			w.record(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			w.record(lhs, n.Values)
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				w.handle(n.X)
				w.handle(n.Y)
			}
		case *ast.CallExpr:
			if f := calledFunc(src.info, n); f != nil && f.Pkg() != nil && f.Pkg().Path() == "errors" && f.Name() == "Is" && len(n.Args) == 2 {
				w.handle(n.Args[1])
			}
		}
		return true
	})
	for _, r := range returns {
		switch len(r.Results) {
		case sig.Results().Len():
			for _, i := range errIdx {
				w.expr(r.Results[i])
			}
		case 0:
			for _, i := range errIdx {
				w.variable(sig.Results().At(i))
			}
		case 1:
			// return f(...) with f's results as the function's.
			if call, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr); ok {
				w.call(call)
			}
		}
	}
	// In map order: the one use is a membership test.
	var out []types.Object
	for obj := range w.found {
		out = append(out, obj)
	}
	t.memo[key] = out
	return out
}

// traceWalk collects what [errorTrace.hidden] finds in one function.
type traceWalk struct {
	t       *errorTrace
	info    *types.Info
	depth   int
	assigns map[types.Object][]ast.Expr
	handled map[types.Object]bool
	seen    map[types.Object]bool
	found   map[types.Object]bool
}

// record notes the values assigned to local variables; of a multi-value
// call, each variable gets the call.
func (w *traceWalk) record(lhs, rhs []ast.Expr) {
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		obj := w.info.ObjectOf(id)
		switch {
		case obj == nil:
		case len(rhs) == len(lhs):
			w.assigns[obj] = append(w.assigns[obj], rhs[i])
		case len(rhs) == 1:
			w.assigns[obj] = append(w.assigns[obj], rhs[0])
		}
	}
}

// handle marks the sentinel e names as handled by the function.
func (w *traceWalk) handle(e ast.Expr) {
	if obj := w.sentinel(ast.Unparen(e)); obj != nil {
		w.handled[obj] = true
	}
}

// sentinel returns the exported package-level error variable e names, or
// nil.
func (w *traceWalk) sentinel(e ast.Expr) types.Object {
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return nil
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !v.Exported() || !isError(v.Type()) {
		return nil
	}
	return v
}

// errorTypeName returns the exported named type t (or what it points to)
// when it is an error type, or nil.
func errorTypeName(t types.Type) types.Object {
	if t == nil || !isError(t) {
		return nil
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || !n.Obj().Exported() || n.Obj().Pkg() == nil {
		return nil
	}
	return n.Obj()
}

// isError reports whether t implements error.
func isError(t types.Type) bool {
	return types.Implements(t, types.Universe.Lookup("error").Type().Underlying().(*types.Interface))
}

// expr collects the errors an error expression can hold.
func (w *traceWalk) expr(e ast.Expr) {
	e = ast.Unparen(e)
	if obj := w.sentinel(e); obj != nil {
		if w.depth < 0 {
			w.found[obj] = true
		}
		return
	}
	switch x := e.(type) {
	case *ast.Ident:
		if v, ok := w.info.Uses[x].(*types.Var); ok {
			w.variable(v)
		}
	case *ast.CompositeLit, *ast.UnaryExpr:
		if obj := errorTypeName(w.info.TypeOf(x)); obj != nil && w.depth < 0 {
			w.found[obj] = true
		}
	case *ast.CallExpr:
		if tv, ok := w.info.Types[x.Fun]; ok && tv.IsType() {
			// The trace reads no conversion as a typed error.
			if obj := errorTypeName(tv.Type); obj != nil {
				w.found[obj] = true
			}
			return
		}
		fn := calledFunc(w.info, x)
		if fn == nil || fn.Pkg() == nil {
			return
		}
		if fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf" {
			if len(x.Args) < 2 {
				return
			}
			if tv, ok := w.info.Types[x.Args[0]]; !ok || tv.Value == nil || !strings.Contains(tv.Value.ExactString(), "%w") {
				return
			}
			for _, a := range x.Args[1:] {
				if t := w.info.TypeOf(a); t != nil && isError(t) {
					w.expr(a)
				}
			}
			return
		}
		w.call(x)
	}
}

// variable collects the errors of the values assigned to a local variable.
func (w *traceWalk) variable(v *types.Var) {
	if v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || w.seen[v] {
		return
	}
	w.seen[v] = true
	for _, rhs := range w.assigns[v] {
		w.expr(rhs)
	}
}

// call collects the errors of the module function call calls: those the
// trace misses one call less deep, or all of them past its depth.
func (w *traceWalk) call(call *ast.CallExpr) {
	fn := calledFunc(w.info, call)
	if fn == nil {
		return
	}
	depth := w.depth - 1
	if w.depth <= 0 {
		depth = -1
	}
	for _, obj := range w.t.hidden(fn, depth) {
		if !w.handled[obj] {
			w.found[obj] = true
		}
	}
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
// text left as it is. The sentence ends the last paragraph, or, when the
// doc ends in an indented block (a line starting with a space or a tab:
// code or a list), is a paragraph of its own after it. Conditions that
// name nothing a caller knows (no parameter or receiver, as in "!ok") are
// left out.
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
	sentence := "It " + joinAnd(clauses) + "."
	t := strings.TrimRight(text, " \t\n")
	if last := t[strings.LastIndex(t, "\n")+1:]; strings.HasPrefix(last, " ") || strings.HasPrefix(last, "\t") {
		// The doc ends in an indented block, code or a list: a sentence
		// glued to its last line would become code ("}). It panics").
		return t + "\n\n" + sentence
	}
	if t != "" && !strings.HasSuffix(t, ".") {
		t += "."
	}
	return strings.TrimSpace(t + " " + sentence)
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
	words := strings.Join(prose.Words(lastPart(name)), " ")
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

// unreachableWords say that the code they speak of cannot run.
var unreachableWords = []string{
	"unreachable", "not reached", "never reached", "never be reached", "impossible",
	"should not happen", "shouldn't happen", "never happen", "can't happen", "cannot happen", "can not happen",
	"can't get here", "cannot get here", "can not get here", "never get here", "should not get here",
	"not reach here", "never reach here",
}

// unreachableText reports whether a panic's message or comment says the
// panic cannot run.
func unreachableText(s string) bool {
	s = strings.ReplaceAll(strings.ToLower(s), "\u2019", "'")
	for _, w := range unreachableWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// unreachable reports whether a panic call marks code that cannot run:
// its message, a string literal, says so ("unreachable", "not reached",
// "impossible", "should not happen", "can't get here"; see
// unreachableWords).
func unreachable(call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && unreachableText(lit.Value)
}

// invariantRE matches the words of a panic that reports a broken internal
// invariant rather than a caller's mistake.
var invariantRE = regexp.MustCompile(`(?i)\b(?:inconsisten(?:t|cy)|invariants?|assertions?|programmer error|internal error|bugs?)\b`)

// internalPanic reports whether the panic statement stmt, calling call
// and directly under ifs (nil for one at the top of the body), is no
// contract a caller could act on:
//
//   - its message (a constant string, or the constant format of
//     fmt.Sprintf, fmt.Errorf or errors.New) or a comment next to it (see
//     [panicComments]) says it cannot run: zap's "RedirectStdLog", under
//     "// Can't get here, since passing InfoLevel ... always works.";
//   - or the message or the comment names an internal invariant
//     ("inconsistent", "invariant", "assertion", "programmer error",
//     "internal error", "bug") and the condition of ifs names none of the
//     function's parameters: go-cmp's Diff, which panics with
//     "inconsistent difference and equality results" when
//     `(d == "") != s.result.Equal()`, both locals. A check on a
//     parameter is a precondition whatever its message says.
func internalPanic(p *retrieval.Package, file *ast.File, stmt ast.Stmt, call *ast.CallExpr, ifs *ast.IfStmt, params map[types.Object]bool) bool {
	msg := panicMessage(p.Info, call)
	note := panicComments(p.Fset, file, stmt, ifs)
	if unreachableText(msg) || unreachableText(note) {
		return true
	}
	if !invariantRE.MatchString(msg) && !invariantRE.MatchString(note) {
		return false
	}
	if ifs == nil {
		return true
	}
	for _, n := range []ast.Node{ifs.Init, ifs.Cond} {
		if n != nil && namesParam(p.Info, params, n) {
			return false
		}
	}
	return true
}

// namesParam reports whether n uses one of params.
func namesParam(info *types.Info, params map[types.Object]bool, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && params[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// panicMessage returns the constant text of a panic's argument: a string
// constant or the constant format of fmt.Sprintf, fmt.Errorf or
// errors.New; else "".
func panicMessage(info *types.Info, call *ast.CallExpr) string {
	if len(call.Args) != 1 {
		return ""
	}
	arg := ast.Unparen(call.Args[0])
	if inner, ok := arg.(*ast.CallExpr); ok && len(inner.Args) > 0 {
		if fn := calledFunc(info, inner); fn != nil && fn.Pkg() != nil &&
			(fn.Pkg().Path() == "fmt" && (fn.Name() == "Sprintf" || fn.Name() == "Errorf") || fn.Pkg().Path() == "errors" && fn.Name() == "New") {
			arg = inner.Args[0]
		}
	}
	if tv, ok := info.Types[arg]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return ""
}

// panicComments returns the text of the comments next to a panic
// statement: the comment group ending on the line above it or starting on
// its line, and, when it sits directly under ifs, the same for the if
// statement. Comments further away speak of other code.
func panicComments(fset *token.FileSet, file *ast.File, stmt ast.Stmt, ifs *ast.IfStmt) string {
	if file == nil {
		return ""
	}
	lines := []int{fset.Position(stmt.Pos()).Line}
	if ifs != nil {
		lines = append(lines, fset.Position(ifs.Pos()).Line)
	}
	var b strings.Builder
	for _, cg := range file.Comments {
		start, end := fset.Position(cg.Pos()).Line, fset.Position(cg.End()).Line
		for _, l := range lines {
			if end == l-1 || start == l {
				b.WriteString(cg.Text())
				b.WriteString("\n")
				break
			}
		}
	}
	return b.String()
}

// fileOf returns the file of p that holds n, or nil.
func fileOf(p *retrieval.Package, n ast.Node) *ast.File {
	for _, f := range p.Syntax {
		if f.FileStart <= n.Pos() && n.Pos() < f.FileEnd {
			return f
		}
	}
	return nil
}

// maxCond is the longest condition quoted in a message.
const maxCond = 40

// contractItems collects the contract of decl's own body, in source order.
func contractItems(p *retrieval.Package, decl *ast.FuncDecl, sig *types.Signature) []contractItem {
	info := p.Info
	recovers := hasRecover(info, decl.Body)
	params := map[types.Object]bool{}
	for _, f := range decl.Type.Params.List {
		for _, n := range f.Names {
			if obj := info.Defs[n]; obj != nil {
				params[obj] = true
			}
		}
	}
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	file := fileOf(p, decl)
	var items []contractItem
	var stack []ast.Node
	line := func(n ast.Node) int { return p.Fset.Position(n.Pos()).Line }
	// guardIf returns the if statement whose body directly holds the
	// statement on top of the stack, or nil; guard its condition, when it
	// is short and the if has no init statement.
	guardIf := func() *ast.IfStmt {
		if len(stack) < 3 {
			return nil
		}
		block, ok := stack[len(stack)-2].(*ast.BlockStmt)
		if !ok {
			return nil
		}
		if ifs, ok := stack[len(stack)-3].(*ast.IfStmt); ok && ifs.Body == block {
			return ifs
		}
		return nil
	}
	guard := func() string {
		ifs := guardIf()
		if ifs == nil || ifs.Init != nil {
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
				if name, ok := errorItem(info, errType, e); ok {
					items = append(items, contractItem{kind: contractError, name: name, cond: guard(), line: line(n), start: line(n)})
				}
			}
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok {
					if _, ok := info.Uses[id].(*types.Builtin); ok && id.Name == "panic" && !recovers {
						// Only a panic at the top of the body or under a
						// short if condition is a contract; one in a switch
						// case or a loop is usually an assertion.
						top := len(stack) == 2 && stack[0] == decl.Body
						cond := guard()
						if (cond != "" || top) && !internalPanic(p, file, n, call, guardIf(), params) {
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
	switch f := ast.Unparen(call.Fun).(type) {
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

// commonErrorFuncs is how many exported funcs and methods of a package
// must return a sentinel for it to be the package's, not one function's:
// nats returns nats.ErrConnectionClosed from dozens of Conn methods, and a doc
// that lists it on each buries the function's own conditions
// (nats.ErrBadTimeout when timeout <= 0).
const commonErrorFuncs = 10

// commonErrorsKey is the [review.Workspace.Shared] key of a package's
// common errors.
type commonErrorsKey struct{ dir string }

// commonErrors returns the package-level error variables of p that the
// bodies of at least commonErrorFuncs exported funcs and methods of p
// name, computed once per review.
func commonErrors(ws *review.Workspace, p *retrieval.Package) map[string]bool {
	v, _ := ws.Shared(commonErrorsKey{p.Dir}, func() (any, error) {
		users := map[types.Object]map[*ast.FuncDecl]bool{}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || !fd.Name.IsExported() {
					continue
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					id, ok := n.(*ast.Ident)
					if !ok {
						return true
					}
					obj, ok := p.Info.Uses[id].(*types.Var)
					if !ok || obj.Pkg() != p.Types || obj.Parent() != p.Types.Scope() || !isError(obj.Type()) {
						return true
					}
					if users[obj] == nil {
						users[obj] = map[*ast.FuncDecl]bool{}
					}
					users[obj][fd] = true
					return true
				})
			}
		}
		common := map[string]bool{}
		for obj, fns := range users {
			if len(fns) >= commonErrorFuncs {
				common[obj.Name()] = true
			}
		}
		return common, nil
	})
	m, _ := v.(map[string]bool)
	return m
}

// withoutCommonErrors drops the error items whose sentinel is one of the
// package's common errors ([commonErrors]): a doc need not repeat what
// most of its package returns.
func withoutCommonErrors(ws *review.Workspace, p *retrieval.Package, items []contractItem) []contractItem {
	if p == nil || p.Info == nil || p.Types == nil {
		return items
	}
	common := commonErrors(ws, p)
	if len(common) == 0 {
		return items
	}
	out := items[:0:0]
	for _, it := range items {
		if it.kind == contractError && common[it.name] {
			continue
		}
		out = append(out, it)
	}
	return out
}

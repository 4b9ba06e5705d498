package rules

// This file holds the local-constant half of the literal-mismatch rule: a
// func's doc writes the value of a constant its body declares, by the
// constant's own name and an equals sign ("With base = 200ms and multi =
// 1.618, …" above "const ( base = float64(200 * time.Millisecond); multi
// = 1.618 )"). The name as written binds the number: no other reading of
// the sentence is needed.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// localConst is a constant a func body declares.
type localConst struct {
	name string
	val  constant.Value
	expr string // as written: "float64(200 * time.Millisecond)"
	line int
	path string
	// duration is true when the expression is written in time's units,
	// so that the value counts nanoseconds.
	duration bool
}

// localAssignRE finds "name = value" (or "name := value"): the name, then
// the value, a number with an optional attached or spaced unit. The value
// must not go on into an expression ("base = 2 * x").
var localAssignRE = regexp.MustCompile(`(?:^|[^\w.])([A-Za-z_]\w*)\s*:?=\s*(-?\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?)([a-zµ]+)?`)

// judgeLocalConst reports a value the claim's func doc gives a constant
// of the func's own body, by name and "=", that differs from the
// constant's, or nil.
func (r *LiteralMismatch) judgeLocalConst(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || !strings.Contains(c.Text, "=") {
		return nil
	}
	sym, fd, ok := documentedFunc(ws, c)
	if !ok {
		return nil
	}
	consts := localConsts(sym.Package, fd)
	if len(consts) == 0 {
		return nil
	}
	for _, m := range localAssignRE.FindAllStringSubmatchIndex(c.Text, -1) {
		name := c.Text[m[2]:m[3]]
		lc, ok := consts[name]
		if !ok {
			continue
		}
		numEnd := m[5]
		if m[6] >= 0 {
			numEnd = m[7]
		}
		// "x = 2 * base" or "x = 3.5.1" is no value.
		if rest := strings.TrimLeft(c.Text[numEnd:], " "); rest != "" && strings.ContainsAny(rest[:1], "*/+-^.(") && !strings.HasPrefix(rest, ". ") && rest != "." && !strings.HasPrefix(rest, ".\n") {
			continue
		}
		num, err := strconv.ParseFloat(strings.ReplaceAll(c.Text[m[4]:m[5]], "_", ""), 64)
		if err != nil {
			continue
		}
		// Float64Val's exactness is moot: 1.618 has no exact float64.
		code, _ := constant.Float64Val(constant.ToFloat(lc.val))
		stated, per := num, 1.0
		if m[6] >= 0 {
			unit, ok := prose.CanonUnit(c.Text[m[6]:m[7]], true)
			if !ok || prose.DimensionOf(unit) != prose.Duration || !lc.duration {
				continue
			}
			per = prose.Nanoseconds(unit)
			stated = num * per
		} else if lc.duration {
			continue // a duration stated without a unit
		}
		if stated == code || math.Abs(stated-code) <= 1e-9*math.Max(math.Abs(stated), math.Abs(code)) {
			continue
		}
		written := c.Text[m[4]:numEnd]
		msg := fmt.Sprintf("The doc of %s says %s = %s, but the func declares const %s = %s.", c.Symbol, name, written, name, lc.expr)
		v := &review.Verdict{
			Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.9,
			Evidence: []review.Evidence{{
				Path: lc.path, StartLine: lc.line, EndLine: lc.line, Source: review.SourceCode,
				Why: name + " = " + lc.expr, Hops: []string{c.Symbol + " (doc)", c.Symbol},
			}},
		}
		if n := code / per; n == math.Trunc(n) || m[6] < 0 {
			v.Suggestion = c.Text[:m[4]] + strconv.FormatFloat(n, 'f', -1, 64) + c.Text[m[5]:]
		}
		return v
	}
	return nil
}

// localConsts returns the numeric constants fd's body declares, by name;
// a name declared twice (in two scopes) is left out.
func localConsts(p *retrieval.Package, fd *ast.FuncDecl) map[string]localConst {
	out := map[string]localConst{}
	seen := map[string]int{}
	eachConst(p, fd.Body, func(_ *ast.ValueSpec, id *ast.Ident, k *types.Const, val ast.Expr) {
		seen[id.Name]++
		if k == nil || val == nil {
			return
		}
		switch k.Val().Kind() {
		case constant.Int, constant.Float:
		default:
			return
		}
		expr := types.ExprString(val)
		pos := p.Fset.Position(id.Pos())
		out[id.Name] = localConst{
			name: id.Name, val: k.Val(), expr: expr, line: pos.Line, path: pos.Filename,
			duration: strings.Contains(expr, "time.") || litIsDuration(k.Type()),
		}
	})
	for n, c := range seen {
		if c > 1 {
			delete(out, n)
		}
	}
	return out
}

// documentedFunc returns the func or method whose doc comment the claim
// is, with its declaration, when the module declares it with a body.
func documentedFunc(ws *review.Workspace, c review.Claim) (retrieval.Symbol, *ast.FuncDecl, bool) {
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || (sym.Kind != retrieval.SymbolFunc && sym.Kind != retrieval.SymbolMethod) || sym.Package == nil || sym.Package.Info == nil {
		return retrieval.Symbol{}, nil, false
	}
	fd := funcDecl(sym)
	if fd == nil || fd.Body == nil {
		return retrieval.Symbol{}, nil, false
	}
	return sym, fd, true
}

// eachConst calls f for every name a const declaration inside root
// declares, with its constant (nil when the checker has none) and its
// value expression (nil when the spec repeats the one before).
func eachConst(p *retrieval.Package, root ast.Node, f func(vs *ast.ValueSpec, id *ast.Ident, k *types.Const, val ast.Expr)) {
	ast.Inspect(root, func(n ast.Node) bool {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			return true
		}
		for _, spec := range gd.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for i, id := range vs.Names {
				k, _ := p.Info.Defs[id].(*types.Const)
				var val ast.Expr
				if i < len(vs.Values) {
					val = vs.Values[i]
				}
				f(vs, id, k, val)
			}
		}
		return true
	})
}

// retryWordRE finds a word of retrying: the sentence counts attempts.
var retryWordRE = regexp.MustCompile(`(?i)\b(?:retr(?:y|ies|ied|ying)|re-?tr(?:y|ies)|attempts?|tries|tried)\b`)

// countedLoop is a for loop that runs a constant number of times.
type countedLoop struct {
	n    int64
	text string // "for i := 0; i < 50; i++"
	line int
	path string
}

// judgeRetryCount reports a count of attempts a func's doc gives ("it
// waits and retries up to 50 times") that differs from the one loop of
// the func's body that runs a constant number of times and stops early
// (a break or a return), by more than one (the doc may count retries, the
// loop attempts), or nil.
func (r *LiteralMismatch) judgeRetryCount(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || !retryWordRE.MatchString(c.Text) {
		return nil
	}
	var stated *prose.Literal
	for _, sp := range prose.Sentences(c.Text) {
		sent := c.Text[sp.Start:sp.End]
		if !retryWordRE.MatchString(sent) {
			continue
		}
		for _, l := range prose.Literals(sent) {
			switch l.Unit {
			case "times", "retries", "attempts":
			default:
				continue
			}
			if stated != nil {
				return nil // two counts: which is the loop's is not certain
			}
			l.Start += sp.Start
			l.End += sp.Start
			stated = &l
		}
	}
	if stated == nil || stated.Value != math.Trunc(stated.Value) || stated.Value < 2 {
		return nil
	}
	sym, fd, ok := documentedFunc(ws, c)
	if !ok {
		return nil
	}
	loops := countedLoops(sym.Package, fd.Body)
	if len(loops) != 1 {
		return nil
	}
	loop := loops[0]
	if d := int64(stated.Value) - loop.n; d >= -1 && d <= 1 {
		return nil
	}
	written := c.Text[stated.Start:stated.End]
	v := &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.8,
		Message: fmt.Sprintf("The doc of %s says %s, but its loop runs %d times (%s).", c.Symbol, strings.Join(strings.Fields(written), " "), loop.n, loop.text),
		Evidence: []review.Evidence{{
			Path: loop.path, StartLine: loop.line, EndLine: loop.line, Source: review.SourceCode,
			Why: loop.text, Hops: []string{c.Symbol + " (doc)", c.Symbol},
		}},
	}
	if digits := leadingDigitsRE.FindString(written); digits != "" {
		v.Suggestion = c.Text[:stated.Start] + strconv.FormatInt(loop.n, 10) + c.Text[stated.Start+len(digits):]
	}
	return v
}

// countedLoops returns the loops of body that run a constant number of
// times and may stop early: "for i := 0; i < K; i++" (or "<= K", or "for
// range K") with K a constant and a break or return in the loop's body.
func countedLoops(p *retrieval.Package, body *ast.BlockStmt) []countedLoop {
	intVal := func(x ast.Expr) (int64, bool) {
		tv, ok := p.Info.Types[x]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return 0, false
		}
		return constant.Int64Val(tv.Value)
	}
	stops := func(b *ast.BlockStmt) bool {
		found := false
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				found = true
			case *ast.BranchStmt:
				found = found || n.Tok == token.BREAK && n.Label == nil
			}
			return !found
		})
		return found
	}
	var out []countedLoop
	ast.Inspect(body, func(n ast.Node) bool {
		switch l := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			init, ok := l.Init.(*ast.AssignStmt)
			cond, ok2 := l.Cond.(*ast.BinaryExpr)
			if !ok || !ok2 || len(init.Lhs) != 1 || len(init.Rhs) != 1 || (cond.Op != token.LSS && cond.Op != token.LEQ) {
				out = append(out, countedLoop{n: -1}) // a loop of another kind
				return true
			}
			id, ok := init.Lhs[0].(*ast.Ident)
			x, ok2 := cond.X.(*ast.Ident)
			from, ok3 := intVal(init.Rhs[0])
			to, ok4 := intVal(cond.Y)
			inc, ok5 := l.Post.(*ast.IncDecStmt)
			if !ok || !ok2 || !ok3 || !ok4 || !ok5 || inc.Tok != token.INC || x.Name != id.Name || !stops(l.Body) {
				out = append(out, countedLoop{n: -1})
				return true
			}
			cnt := to - from
			if cond.Op == token.LEQ {
				cnt++
			}
			pos := p.Fset.Position(l.Pos())
			out = append(out, countedLoop{n: cnt, line: pos.Line, path: pos.Filename,
				text: fmt.Sprintf("for %s := %s; %s; %s++", id.Name, types.ExprString(init.Rhs[0]), types.ExprString(cond), id.Name)})
		case *ast.RangeStmt:
			to, ok := intVal(l.X)
			if !ok || !stops(l.Body) {
				out = append(out, countedLoop{n: -1})
				return true
			}
			pos := p.Fset.Position(l.Pos())
			out = append(out, countedLoop{n: to, line: pos.Line, path: pos.Filename, text: "for range " + types.ExprString(l.X)})
		}
		return true
	})
	for _, l := range out {
		if l.n < 0 {
			return nil // another loop: which one retries is not certain
		}
	}
	return out
}

var (
	// fileModeWordRE finds a sentence about a file's permissions.
	fileModeWordRE = regexp.MustCompile(`(?i)\b(?:perm(?:ission)?s?|mode)\b`)
	// octalModeRE finds a file mode as docs write it: 0600, 0o644, 0755.
	octalModeRE = regexp.MustCompile(`(?:^|[^\w.])(0o?)([0-7]{3,4})\b`)
)

// modeSite is a constant file mode a func's body uses.
type modeSite struct {
	mode uint64
	expr string
	line int
	path string
}

// judgeFileMode reports a file mode a func's doc gives (*The file's
// permissions will be 0600*) that differs from the one constant of type
// fs.FileMode the func's body uses (renameio's TempFile passes
// WithStaticPermissions(defaultPerm)), or nil. A body with two modes, or
// a doc with two, leaves it unchecked.
func (r *LiteralMismatch) judgeFileMode(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || !fileModeWordRE.MatchString(c.Text) {
		return nil
	}
	var found []int
	for _, sp := range prose.Sentences(c.Text) {
		sent := c.Text[sp.Start:sp.End]
		if !fileModeWordRE.MatchString(sent) {
			continue
		}
		for _, m := range octalModeRE.FindAllStringSubmatchIndex(sent, -1) {
			found = append(found, sp.Start+m[2], sp.Start+m[3], sp.Start+m[4], sp.Start+m[5])
		}
	}
	if len(found) != 4 {
		return nil
	}
	digits := c.Text[found[2]:found[3]]
	stated, err := strconv.ParseUint(digits, 8, 32)
	if err != nil {
		return nil
	}
	sym, fd, ok := documentedFunc(ws, c)
	if !ok {
		return nil
	}
	sites := fileModes(sym.Package, fd.Body)
	if len(sites) == 0 {
		return nil
	}
	for _, s := range sites[1:] {
		if s.mode != sites[0].mode {
			return nil // several modes: which one the doc means is not certain
		}
	}
	site := sites[0]
	if site.mode&0o7777 == stated {
		return nil
	}
	code := strconv.FormatUint(site.mode&0o7777, 8)
	for len(code) < len(digits) {
		code = "0" + code
	}
	written := c.Text[found[0]:found[3]]
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.85,
		Message: fmt.Sprintf("The doc of %s gives mode %s, but it uses %s (%s%s).", c.Symbol, written, site.expr, c.Text[found[0]:found[1]], code),
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.line, Source: review.SourceCode,
			Why: "file mode " + site.expr, Hops: []string{c.Symbol + " (doc)", c.Symbol},
		}},
		Suggestion: c.Text[:found[2]] + code + c.Text[found[3]:],
	}
}

// fileModes returns the constant expressions of type fs.FileMode in
// body, outermost only ("defaultPerm", "0o644" passed to os.WriteFile),
// not in func literals.
func fileModes(p *retrieval.Package, body *ast.BlockStmt) []modeSite {
	var out []modeSite
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case ast.Expr:
			tv, ok := p.Info.Types[x]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int || !isFileMode(tv.Type) {
				return true
			}
			v, ok := constant.Uint64Val(tv.Value)
			if !ok {
				return false
			}
			pos := p.Fset.Position(x.Pos())
			out = append(out, modeSite{mode: v, expr: types.ExprString(x), line: pos.Line, path: pos.Filename})
			return false
		}
		return true
	})
	return out
}

// isFileMode reports whether t is io/fs's FileMode (os.FileMode is an
// alias of it).
func isFileMode(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "FileMode" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "io/fs"
}

package rules

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the parameter half of the literal-mismatch rule: a
// func's doc gives the value one of its own parameters falls back to
// when the caller passes zero or nil ("If size is zero or negative, a
// default size of 4096 bytes is used"), and the body replaces that
// parameter with another constant:
//
//	if size <= 0 { size = 8192 }
//
// or computes the same thing from a constant in the parameter's place:
//
//	if timeout != nil { abs = time.Now().Add(*timeout) } else { abs = time.Now().Add(2 * time.Second) }

// paramUsedRE starts right after a literal that a sentence says is used
// in the parameter's place: "5 seconds is used", "4096 will be used".
var paramUsedRE = regexp.MustCompile(`(?i)^\s*(?:is|will\s+be|gets|shall\s+be)\s+(?:used|assumed|applied|chosen)\b`)

// paramCueRE ends right before a literal that a sentence gives as a
// parameter's fallback: "a default timeout of", "defaults to", "falls
// back to", "uses".
var paramCueRE = regexp.MustCompile(`(?i)(?:\bdefault(?:\s+[a-z]+){0,2}\s+of|\bdefaults?\s+(?:to|is)|\bfalls?\s+back\s+to|\b(?:it\s+)?uses|\bis\s+(?:treated\s+as|replaced\s+(?:by|with))|\bbecomes)\s*$`)

// paramSite is the value a func body gives a parameter left zero.
type paramSite struct {
	param *types.Var
	site  valueSite
}

// judgeParamDefault reports a number a func's doc gives as the value one
// of its parameters takes when left zero or nil, while the body uses
// another constant, or nil.
func (r *LiteralMismatch) judgeParamDefault(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") || !zeroRE.MatchString(c.Text) {
		return nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Path != c.Path || (sym.Kind != retrieval.SymbolFunc && sym.Kind != retrieval.SymbolMethod) || sym.Package == nil || sym.Package.Info == nil {
		return nil
	}
	fd := funcDecl(sym)
	if fd == nil || fd.Body == nil {
		return nil
	}
	sites := paramFallbacks(sym.Package, r.pkgValuesOf(ws, sym.Package), fd)
	if len(sites) == 0 {
		return nil
	}
	for _, span := range prose.Sentences(c.Text) {
		sent := c.Text[span.Start:span.End]
		if driftHistoryRE.MatchString(sent) || topicExampleRE.MatchString(sent) || !zeroRE.MatchString(sent) {
			continue
		}
		// The sentence names exactly one parameter with a fallback.
		var named *paramSite
		for i, s := range sites {
			if !litNamesWord(sent, s.param.Name()) {
				continue
			}
			if named != nil && named.param != s.param {
				named = nil
				break
			}
			named = &sites[i]
		}
		if named == nil {
			continue
		}
		site, ok := soleParamSite(sites, named.param)
		if !ok {
			continue
		}
		bound := paramDefaultsStated(sent)
		if len(bound) != 1 {
			continue
		}
		b := bound[0]
		if b.Unit == "" {
			// A bare number: a count, never a duration without its unit.
			if litIsDuration(site.typ) {
				continue
			}
			if v := r.compareDefaultText(c, "The doc gives", b.Text, keyDefaultRepl(b.Text, site), named.param.Name(), nil, site); v != nil {
				return paramHops(v, c)
			}
			continue
		}
		if v := r.compare(c, named.param.Name(), b, site); v != nil {
			return paramHops(v, c)
		}
	}
	return nil
}

// paramHops makes the verdict's evidence trail the doc and its func: the
// value is in the func's own body.
func paramHops(v *review.Verdict, c review.Claim) *review.Verdict {
	for i := range v.Evidence {
		v.Evidence[i].Hops = []string{c.Symbol + " (doc)", c.Symbol}
	}
	return v
}

// paramDefaultsStated returns the numbers of a sentence that it gives as
// a fallback: right after a cue ("defaults to", "a default timeout of")
// or right before "is used". A number with a unit is read as one literal
// ("5 seconds", "five seconds") and a bare integer is read as
// [sentenceNumbers] reads it; a zero or negative number and one in a code
// expression are left out.
func paramDefaultsStated(sent string) []litPlaced {
	var out []litPlaced
	for _, n := range sentenceNumbers(sent) {
		// The zero of the condition ("is set to 0") is no fallback.
		if n.value <= 0 || partOfNumber(sent, n.start, n.end) || litInExpr(sent, n.start, n.end) || inQuotation(sent, n.start) {
			continue
		}
		if paramCueRE.MatchString(sent[:n.start]) || paramUsedRE.MatchString(sent[n.end:]) {
			out = append(out, litPlaced{
				Mention: review.Mention{Kind: review.MentionLiteral, Text: sent[n.start:n.end], Value: n.value, Unit: n.unit},
				start:   n.start, end: n.end,
			})
		}
	}
	return out
}

// soleParamSite returns the one constant the sites give param; it fails
// when they give several that differ.
func soleParamSite(sites []paramSite, param *types.Var) (valueSite, bool) {
	var found []valueSite
	for _, s := range sites {
		if s.param == param {
			found = append(found, s.site)
		}
	}
	return agreeingSite(found)
}

// paramFallbacks returns the constants fd's body uses for a parameter
// the caller left zero or nil: "if p <= 0 { p = X }", and a branch on
// "p != nil" whose two arms assign one target expressions that differ
// only in p (or *p) against a constant X.
func paramFallbacks(p *retrieval.Package, pv *pkgValues, fd *ast.FuncDecl) []paramSite {
	params := map[types.Object]bool{}
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if obj := p.Info.Defs[n]; obj != nil {
				params[obj] = true
			}
		}
	}
	if len(params) == 0 {
		return nil
	}
	fn := funcLabel(fd)
	paramOf := func(x ast.Expr) *types.Var {
		x = ast.Unparen(x)
		if st, ok := x.(*ast.StarExpr); ok {
			x = ast.Unparen(st.X)
		}
		id, ok := x.(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := p.Info.Uses[id].(*types.Var)
		if !ok || !params[v] {
			return nil
		}
		return v
	}
	var out []paramSite
	add := func(param *types.Var, val ast.Expr, at ast.Node, direct bool, why string) {
		v, typ := exprValue(p.Info, pv, val)
		if v == nil {
			return
		}
		if t := p.Info.TypeOf(val); t != nil && typeKnown(t) {
			typ = t
		}
		if typ == nil {
			return
		}
		a, b := p.Fset.Position(at.Pos()), p.Fset.Position(at.End())
		site := valueSite{
			val: v, typ: typ, name: param.Name(), expr: types.ExprString(val), src: val,
			why: why, path: a.Filename, line: a.Line, end: max(a.Line, b.Line), fn: fn,
		}
		if !direct {
			// The body does not set the parameter; it uses the value in
			// its place.
			site.name, site.fn = fmt.Sprintf("%s's value for an unset %s", fn, param.Name()), ""
		}
		out = append(out, paramSite{param: param, site: site})
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || ifs.Init != nil {
			return true
		}
		cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok {
			return true
		}
		param := paramOf(cond.X)
		if param == nil || ast.Unparen(cond.X) != cond.X {
			return true
		}
		if _, star := cond.X.(*ast.StarExpr); star {
			return true
		}
		// "if p <= 0 { p = X }"
		if zeroTest(p, cond) {
			for _, st := range ifs.Body.List {
				as, ok := st.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || paramOf(as.Lhs[0]) != param {
					continue
				}
				if _, star := as.Lhs[0].(*ast.StarExpr); star {
					continue
				}
				add(param, as.Rhs[0], as, true, fmt.Sprintf("%s sets %s = %s when %s", fn, param.Name(), types.ExprString(as.Rhs[0]), types.ExprString(cond)))
			}
		}
		// "if p != nil { t = f(*p) } else { t = f(X) }", either way round.
		set, unset := ifs.Body, elseBlock(ifs)
		switch {
		case unset == nil:
			return true
		case zeroTest(p, cond):
			set, unset = unset, set
		case !nonZeroTest(p, cond):
			return true
		}
		a, okA := soleAssign(set)
		b, okB := soleAssign(unset)
		if !okA || !okB || types.ExprString(a.Lhs[0]) != types.ExprString(b.Lhs[0]) {
			return true
		}
		x, y, ok := exprDiff(a.Rhs[0], b.Rhs[0])
		if !ok || paramOf(x) != param {
			return true
		}
		add(param, y, b, false, fmt.Sprintf("%s uses %s in place of %s when %s is unset: %s = %s", fn, types.ExprString(y), types.ExprString(x), param.Name(), types.ExprString(b.Lhs[0]), types.ExprString(b.Rhs[0])))
		return true
	})
	return out
}

// nonZeroTest reports whether cond holds exactly when x, compared with
// nil or zero, is set: "x != nil", "x != 0", "x > 0".
func nonZeroTest(p *retrieval.Package, cond *ast.BinaryExpr) bool {
	tv := p.Info.Types[cond.Y]
	if cond.Op == token.NEQ && tv.IsNil() {
		return true
	}
	if tv.Value == nil || !zeroValue(p, cond.Y) {
		return false
	}
	return cond.Op == token.NEQ || cond.Op == token.GTR
}

// elseBlock returns an if statement's else block, nil when it has none
// or the else is another if.
func elseBlock(ifs *ast.IfStmt) *ast.BlockStmt {
	b, _ := ifs.Else.(*ast.BlockStmt)
	return b
}

// soleAssign returns the one statement of a block when it assigns one
// value to one target.
func soleAssign(b *ast.BlockStmt) (*ast.AssignStmt, bool) {
	if b == nil || len(b.List) != 1 {
		return nil, false
	}
	as, ok := b.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, false
	}
	return as, true
}

// exprDiff returns the one place where two expressions of the same shape
// differ: "time.Now().Add(*timeout)" and "time.Now().Add(2 * time.Second)"
// give "*timeout" and "2 * time.Second". It fails when they are equal or
// differ in more than one place.
func exprDiff(a, b ast.Expr) (ast.Expr, ast.Expr, bool) {
	a, b = ast.Unparen(a), ast.Unparen(b)
	if types.ExprString(a) == types.ExprString(b) {
		return nil, nil, false
	}
	ka, kb := exprKids(a), exprKids(b)
	if ka == nil || kb == nil || len(ka) != len(kb) || fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) || exprOp(a) != exprOp(b) {
		return a, b, true
	}
	at := -1
	for i := range ka {
		if types.ExprString(ka[i]) != types.ExprString(kb[i]) {
			if at >= 0 {
				return nil, nil, false
			}
			at = i
		}
	}
	if at < 0 {
		return nil, nil, false
	}
	return exprDiff(ka[at], kb[at])
}

// exprKids returns the operand expressions of a call, selector, star,
// unary or binary expression; nil for any other.
func exprKids(e ast.Expr) []ast.Expr {
	switch e := e.(type) {
	case *ast.CallExpr:
		return append([]ast.Expr{e.Fun}, e.Args...)
	case *ast.SelectorExpr:
		return []ast.Expr{e.X, e.Sel}
	case *ast.StarExpr:
		return []ast.Expr{e.X}
	case *ast.UnaryExpr:
		return []ast.Expr{e.X}
	case *ast.BinaryExpr:
		return []ast.Expr{e.X, e.Y}
	}
	return nil
}

// exprOp returns the operator of a unary or binary expression.
func exprOp(e ast.Expr) token.Token {
	switch e := e.(type) {
	case *ast.UnaryExpr:
		return e.Op
	case *ast.BinaryExpr:
		return e.Op
	}
	return token.ILLEGAL
}

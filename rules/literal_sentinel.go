package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the sentinel half of the literal-mismatch rule: a
// field's doc (or the doc of an option func that sets the field) says
// what a zero or negative value means ("Zero means no limit", "A negative
// value disables the timeout"), and a fallback of the package replaces
// exactly such a value with a positive constant
// ("if o.Timeout <= 0 { o.Timeout = 30 * time.Second }"), so the value
// never has the meaning the doc gives it.

var (
	// sentinelZeroRE finds a zero value as a clause's subject: "zero",
	// "0", "0s", "unset", "not set".
	sentinelZeroRE = regexp.MustCompile(`(?i)(?:\bzero\b|(?:^|[^\w.\-])0s?(?:[^\w.]|$)|\bunset\b|\bnot\s+set\b)`)
	// sentinelNegRE finds a negative value: "negative", "-1", "less
	// than zero", "below 0".
	sentinelNegRE = regexp.MustCompile(`(?i)(?:\bnegative\b|(?:^|[^\w\-])-1\b|\b(?:less\s+than|below)\s+(?:zero|0)\b)`)
	// sentinelOffRE finds what such a value is said to mean: the thing
	// is switched off or unbounded.
	sentinelOffRE = regexp.MustCompile(`(?i)\b(?:disables?|disabled|disabling|turns?\s+(?:it\s+|this\s+)?off|switch(?:es)?\s+(?:it\s+)?off|no\s+(?:limit|timeout|maximum|cap|deadline|expiry|expiration|retries|bound)|unlimited|unbounded|infinite(?:ly)?|indefinitely|forever|never\s+(?:expires?|times?\s+out)|without\s+(?:a\s+|any\s+)?(?:limit|timeout|deadline))\b`)
	// sentinelNotRE finds a negation, which turns the clause around:
	// "zero does not disable it".
	sentinelNotRE = regexp.MustCompile(`(?i)\b(?:not\s+(?:disable|mean)|(?:does|do|will|must|should|can|may)\s*(?:not|n't)|cannot|won't|doesn't|isn't|only)\b`)
	// sentinelClauseRE splits a sentence into clauses that may speak of
	// different values: "Zero uses 10, and a negative value disables it."
	sentinelClauseRE = regexp.MustCompile(`;|,\s+(?:and|but|while|whereas|or)\b|\.\s`)
	// sentinelNameRE finds a Go name written in a clause: a doc link, a
	// code span or a word with an inner capital (MaxRetries).
	sentinelNameRE = regexp.MustCompile("\\[[^\\]]+\\]|`[^`]+`|\\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*\\b")
	// sentinelNotZeroRE finds a value the clause sets aside: "-1 (not 0)
	// disables retries" speaks of -1 only.
	sentinelNotZeroRE = regexp.MustCompile(`(?i)\(\s*not\s+[^)]*\)|\bnot\s+(?:zero|0)\b`)
)

// sentinelClass is the kind of value a doc gives a meaning.
type sentinelClass int

const (
	sentinelZero sentinelClass = iota
	sentinelNegative
)

func (k sentinelClass) String() string {
	if k == sentinelNegative {
		return "a negative"
	}
	return "a zero"
}

// sample is a value of the class, to test a fallback's condition with.
func (k sentinelClass) sample() constant.Value {
	if k == sentinelNegative {
		return constant.MakeInt64(-1)
	}
	return constant.MakeInt64(0)
}

// sentinelGuard is a fallback that replaces a field's value under a
// comparison with a constant: "if o.Timeout <= 0 { o.Timeout = 30s }".
type sentinelGuard struct {
	op         token.Token
	bound, val constant.Value
	cond, expr string
	lhs        string
	fn         string
	path       string
	line       int
}

// holds reports whether the guard's condition holds for values of class k.
func (g sentinelGuard) holds(k sentinelClass) bool {
	return constant.Compare(k.sample(), g.op, g.bound)
}

// judgeSentinel reports a field doc that gives a zero or negative value a
// meaning of its own (off, no limit) while the package replaces such a
// value with a positive constant, or nil.
func (r *LiteralMismatch) judgeSentinel(ws *review.Workspace, c review.Claim) *review.Verdict {
	if !sentinelOffRE.MatchString(c.Text) {
		return nil
	}
	sym, field, ok := claimField(ws, c)
	if !ok || field.Object == nil || sym.Package == nil || sym.Package.Info == nil {
		return nil
	}
	if sym.Kind != retrieval.SymbolField && !plainSetter(sym) {
		return nil
	}
	basic, ok := field.Object.Type().Underlying().(*types.Basic)
	if !ok || basic.Info()&types.IsNumeric == 0 || basic.Info()&types.IsComplex != 0 {
		return nil
	}
	signed := basic.Info()&types.IsUnsigned == 0
	fieldName := lastPart(field.Name)
	var guards []sentinelGuard // the field's fallbacks, read once when a clause needs them
	guardsRead := false
	for _, sent := range prose.SplitSentences(c.Text) {
		if driftHistoryRE.MatchString(sent) {
			continue
		}
		for _, clause := range sentinelClauseRE.Split(sent, -1) {
			k, ok := sentinelClassOf(clause, fieldName, sym.Name, signed)
			if !ok {
				continue
			}
			if !guardsRead {
				guards, guardsRead = sentinelGuards(field), true
			}
			if len(guards) == 0 {
				return nil
			}
			var hit *sentinelGuard
			for i, g := range guards {
				if !g.holds(k) {
					continue
				}
				if hit != nil && !constant.Compare(hit.val, token.EQL, g.val) {
					return nil // fallbacks that disagree: which one applies is not certain
				}
				if hit == nil {
					hit = &guards[i]
				}
			}
			if hit == nil || !sentinelReplaces(hit.val, field.Object.Type()) {
				continue
			}
			what := strings.TrimRight(strings.Join(strings.Fields(clause), " "), ".")
			msg := fmt.Sprintf("The doc of %s says %q, but %s replaces %s %s with %s (if %s { %s = %s }).",
				c.Symbol, what, hit.fn, k, fieldName, sentinelShown(hit.val, field.Object.Type()), hit.cond, hit.lhs, hit.expr)
			return &review.Verdict{
				Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.75,
				Evidence: []review.Evidence{{
					Path: hit.path, StartLine: hit.line, EndLine: hit.line, Source: review.SourceCode,
					Why:  fmt.Sprintf("%s replaces %s %s with %s", hit.fn, k, fieldName, hit.expr),
					Hops: []string{c.Symbol + " (doc)", hit.fn},
				}},
			}
		}
	}
	return nil
}

// sentinelClassOf returns the class of value a clause gives an "off"
// meaning, when it speaks of the field itself and of one class only.
func sentinelClassOf(clause, field, self string, signed bool) (sentinelClass, bool) {
	if !sentinelOffRE.MatchString(clause) || sentinelNotRE.MatchString(clause) ||
		strings.Contains(strings.ToLower(clause), "default") {
		return 0, false
	}
	// A clause that names another Go name may speak of its value.
	if namesOther(clause, field, self) {
		return 0, false
	}
	clause = sentinelNotZeroRE.ReplaceAllString(clause, " ")
	zero, neg := sentinelZeroRE.MatchString(clause), sentinelNegRE.MatchString(clause)
	switch {
	case neg && !zero && signed:
		return sentinelNegative, true
	case zero && !neg:
		return sentinelZero, true
	}
	// "Zero or negative disables it": both classes are one claim; the
	// zero half is the one every field can hold.
	if zero && neg {
		return sentinelZero, true
	}
	return 0, false
}

// namesOther reports whether text names a Go name other than the field
// and the documented symbol: a doc link, a code span or a word with an
// inner capital.
func namesOther(text, field, self string) bool {
	for _, m := range sentinelNameRE.FindAllString(text, -1) {
		n := strings.Trim(m, "[]`")
		if n != field && n != self && lastPart(n) != field && lastPart(n) != lastPart(self) {
			return true
		}
	}
	return false
}

// plainSetter reports an option func or setter whose body tests nothing:
// it copies its parameter into the field, so the field's fallbacks give
// the parameter's zero value its meaning.
func plainSetter(sym retrieval.Symbol) bool {
	fd := funcDecl(sym)
	if fd == nil || fd.Body == nil {
		return false
	}
	plain := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.IfStmt, *ast.SwitchStmt, *ast.ForStmt, *ast.RangeStmt:
			plain = false
		}
		return plain
	})
	return plain
}

// sentinelReplaces reports whether v, a fallback's value, gives the field
// a bound of its own: positive, not 1 (one attempt is no retry) and not
// so large that it stands for no bound at all.
func sentinelReplaces(v constant.Value, t types.Type) bool {
	f, ok := constant.Float64Val(constant.ToFloat(v))
	if !ok || f <= 0 {
		return false
	}
	if litIsDuration(t) {
		return f < float64(365*24*time.Hour)
	}
	return f != 1 && f < math.MaxInt32
}

// sentinelShown writes a fallback's value for a message: a duration as
// one.
func sentinelShown(v constant.Value, t types.Type) string {
	if litIsDuration(t) {
		if n, ok := constant.Int64Val(v); ok {
			return time.Duration(n).String()
		}
	}
	return v.ExactString()
}

// sentinelGuards returns the fallbacks of the field's package that compare
// the field with a constant and then assign it a constant:
// "if o.F <= 0 { o.F = X }", also as an else-if.
func sentinelGuards(field retrieval.Symbol) []sentinelGuard {
	p := field.Package
	if p == nil || p.Info == nil || p.Fset == nil {
		return nil
	}
	isField := func(x ast.Expr) bool {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := p.Info.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal && s.Obj() == field.Object
	}
	var out []sentinelGuard
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn := funcLabel(fd)
			// record adds the assignments of the field to a constant in
			// body, run when the field compares op with bound.
			record := func(op token.Token, cond string, boundX ast.Expr, body []ast.Stmt) {
				bound := p.Info.Types[boundX].Value
				if bound == nil || bound.Kind() != constant.Int && bound.Kind() != constant.Float {
					return
				}
				for _, st := range body {
					as, ok := st.(*ast.AssignStmt)
					if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isField(as.Lhs[0]) {
						continue
					}
					val := p.Info.Types[as.Rhs[0]].Value
					if val == nil {
						// A computed value: the field's meaning is not
						// the doc's, but what it becomes is not known.
						continue
					}
					pos := p.Fset.Position(as.Pos())
					out = append(out, sentinelGuard{
						op: op, bound: bound, val: val,
						cond: cond, expr: types.ExprString(as.Rhs[0]), lhs: types.ExprString(as.Lhs[0]),
						fn: fn, path: pos.Filename, line: pos.Line,
					})
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.IfStmt:
					// "if o.F <= 0 { o.F = X }", also as an else-if.
					cond, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr)
					if n.Init != nil || !ok || !isField(cond.X) {
						return true
					}
					switch cond.Op {
					case token.EQL, token.LSS, token.LEQ:
						record(cond.Op, types.ExprString(cond), cond.Y, n.Body.List)
					}
				case *ast.SwitchStmt:
					// "switch o.F { case 0: o.F = X }"
					if n.Init != nil || n.Tag == nil || !isField(n.Tag) {
						return true
					}
					for _, st := range n.Body.List {
						cc, ok := st.(*ast.CaseClause)
						if !ok || len(cc.List) != 1 {
							continue
						}
						cond := types.ExprString(n.Tag) + " == " + types.ExprString(cc.List[0])
						record(token.EQL, cond, cc.List[0], cc.Body)
					}
				}
				return true
			})
		}
	}
	return out
}

// noBoundDefaultRE finds a default a doc states as no bound at all:
// "Defaults to no limit", "By default, there is no timeout", "Default:
// unlimited", "(default: disabled)".
var noBoundDefaultRE = regexp.MustCompile(`(?i)(?:\bdefaults?\s+(?:to|is)|\bby\s+default,?|\bdefault(?:\s+value)?\s*[:=]|\(\s*default:?)\s*(?:it\s+is\s+|there\s+is\s+|is\s+)?(no\s+(?:limit|timeout|maximum|cap|deadline|expiry|expiration|retries)|unlimited|unbounded|infinite|disabled|zero|none)\b`)

// judgeNoBoundDefault reports a field doc that gives no bound as the
// field's default ("Defaults to no limit") while the package gives the
// field a positive constant default, or nil.
func (r *LiteralMismatch) judgeNoBoundDefault(ws *review.Workspace, c review.Claim) *review.Verdict {
	all := noBoundDefaultRE.FindAllStringSubmatchIndex(c.Text, -1)
	if len(all) != 1 {
		return nil // none, or several: which is the field's is not certain
	}
	m := all[0]
	sym, field, ok := claimField(ws, c)
	if !ok || field.Object == nil || sym.Package == nil {
		return nil
	}
	if sym.Kind != retrieval.SymbolField && !plainSetter(sym) {
		return nil
	}
	basic, ok := field.Object.Type().Underlying().(*types.Basic)
	if !ok || basic.Info()&types.IsNumeric == 0 || basic.Info()&types.IsComplex != 0 {
		return nil
	}
	// The sentence must speak of the field alone.
	for _, sent := range prose.Sentences(c.Text) {
		if sent.Start > m[0] || m[0] >= sent.End {
			continue
		}
		text := c.Text[sent.Start:sent.End]
		if driftHistoryRE.MatchString(text) || topicExampleRE.MatchString(text) || sentinelNotRE.MatchString(text) {
			return nil
		}
		if namesOther(text, lastPart(field.Name), sym.Name) {
			return nil
		}
	}
	site, ok := r.fieldDefault(ws, field)
	if !ok || site.val == nil || !sentinelReplaces(site.val, field.Object.Type()) {
		return nil
	}
	stated := c.Text[m[2]:m[3]]
	code := site.expr
	if shown := sentinelShown(site.val, field.Object.Type()); shown != code {
		code += " (" + shown + ")"
	}
	msg := fmt.Sprintf("The doc gives %s as the default of %s, but the code sets %s = %s.", strings.Join(strings.Fields(stated), " "), field.Name, site.name, code)
	hops := []string{c.Symbol + " (doc)"}
	if site.fn != "" {
		hops = append(hops, site.fn)
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.75,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: hops,
		}},
	}
}

package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the range half of the literal-mismatch rule: a doc
// states the values a setting accepts ("MaxArrayElements … can be set to
// [16, 134217728]", "level must be between -2 and 9", "from 1 to 65535"),
// and the guard that rejects the others (an if whose condition is a ||
// chain of comparisons of the setting with constants, and whose body
// returns an error or panics) has another bound.
//
// The setting is certain or the claim is not checked: a struct field's
// own doc, a parameter the func's doc names as a word, or a field a
// Markdown table row's first cell or a sentence's one code span names.

// rangeNum is a number of a range as docs write it, with an optional unit:
// "16", "134,217,728", "-2", "1_000", "10 seconds", "64KiB".
const rangeNum = `(-?(?:\d{1,3}(?:,\d{3})+|\d+(?:_\d+)*)(?:\.\d+)?(?:\s?[A-Za-z]+|%)?)`

// rangeREs find a range in a sentence; each has two groups, the bounds.
var rangeREs = []*regexp.Regexp{
	regexp.MustCompile(`\[\s*` + rangeNum + `\s*,\s*` + rangeNum + `\s*\]`),
	regexp.MustCompile(`(?i)\bbetween\s+` + rangeNum + `\s+and\s+` + rangeNum),
	regexp.MustCompile(`(?i)\bfrom\s+` + rangeNum + `\s+(?:to|through)\s+` + rangeNum),
	regexp.MustCompile(`(?i)\branges?(?:\s+(?:is|of|from))?:?\s+` + rangeNum + `\s*(?:-|–|\.\.|\s+to\s+)\s*` + rangeNum),
}

// acceptCueRE finds a word saying a range is the values a setting
// accepts, not some other span the sentence speaks of ("each retry waits
// between 1 and 5 seconds").
var acceptCueRE = regexp.MustCompile(`(?i)\b(?:(?:must|should|can|may)(?:\s+only)?\s+be\b|valid|allowed|accept|permitted|legal|supported|ranges?\b|set\s+to\b)`)

// docBound is one bound of a range a doc states.
type docBound struct {
	lit litPlaced
	set bool
}

// docRange is a range a sentence states, its bounds inclusive.
type docRange struct {
	lo, hi docBound
}

// sentenceRanges returns the ranges of a sentence, with offsets relative
// to the sentence.
func sentenceRanges(sent string) []docRange {
	var out []docRange
	taken := make([]bool, len(sent)+1)
	for _, re := range rangeREs {
		for _, m := range re.FindAllStringSubmatchIndex(sent, -1) {
			if taken[m[0]] {
				continue
			}
			lo, okLo := rangeBound(sent, m[2], m[3])
			hi, okHi := rangeBound(sent, m[4], m[5])
			if !okLo || !okHi {
				continue
			}
			// "between 1 and 10 seconds": the first bound takes the
			// second's unit.
			if lo.lit.Unit == "" && hi.lit.Unit != "" {
				lo.lit.Unit = hi.lit.Unit
			}
			if lo.lit.Unit != hi.lit.Unit || prose.DimensionOf(hi.lit.Unit) != prose.DimensionOf(lo.lit.Unit) {
				continue
			}
			for i := m[0]; i < m[1]; i++ {
				taken[i] = true
			}
			out = append(out, docRange{lo: lo, hi: hi})
		}
	}
	return out
}

// rangeBound reads the number (and unit) at sent[start:end].
func rangeBound(sent string, start, end int) (docBound, bool) {
	text := sent[start:end]
	num := text
	unit := ""
	if i := strings.IndexFunc(text, func(r rune) bool { return r == ' ' || r == '%' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }); i > 0 {
		num = text[:i]
		w := strings.TrimSpace(text[i:])
		// The unit is one prose reads as one, else the word is not part
		// of the bound ("between 1 and 9 inclusive").
		ls := prose.Literals("1 " + w)
		if len(ls) == 1 && ls[0].Start == 0 && ls[0].End == len(w)+2 {
			unit = ls[0].Unit
		} else {
			text = num
			end = start + len(num)
		}
	}
	v, err := strconv.ParseFloat(strings.NewReplacer(",", "", "_", "").Replace(num), 64)
	if err != nil {
		return docBound{}, false
	}
	return docBound{set: true, lit: litPlaced{
		Mention: review.Mention{Kind: review.MentionLiteral, Text: text, Value: v, Unit: unit},
		start:   start, end: end,
	}}, true
}

// rangeSubject is the setting a range is bound to: a struct field or a
// parameter of a func, with the package and the funcs whose guards count.
type rangeSubject struct {
	name string
	obj  types.Object
	pkg  *retrieval.Package
	// fn is the func whose body holds the guards of a parameter; nil for
	// a field, whose guards may be in any func of its package.
	fn *ast.FuncDecl
}

// codeBound is one bound a guard enforces.
type codeBound struct {
	site valueSite
	set  bool
	// plural is true when guards disagree on the bound.
	plural bool
}

// judgeRange reports a bound of a range the claim states for a setting
// that the guard rejecting other values contradicts, or nil.
func (r *LiteralMismatch) judgeRange(ws *review.Workspace, c review.Claim) *review.Verdict {
	if !strings.ContainsAny(c.Text, "0123456789") {
		return nil
	}
	for _, sent := range prose.SplitSentences(c.Text) {
		if !acceptCueRE.MatchString(sent) {
			continue
		}
		ranges := sentenceRanges(sent)
		if len(ranges) == 0 {
			if v := r.judgeValueSet(ws, c, sent); v != nil {
				return v
			}
			continue
		}
		if len(ranges) != 1 {
			continue // several ranges: which is whose is not certain
		}
		subj, ok := r.rangeSubject(ws, c, sent)
		if !ok {
			continue
		}
		lo, hi := guardBounds(subj)
		dr := ranges[0]
		for _, pair := range []struct {
			doc  docBound
			code codeBound
			side string
		}{{dr.lo, lo, "below"}, {dr.hi, hi, "above"}} {
			if !pair.doc.set || !pair.code.set || pair.code.plural {
				continue
			}
			if v := r.compareBound(c, sent, subj, pair.doc.lit, pair.code.site, pair.side); v != nil {
				return v
			}
		}
	}
	return nil
}

// compareBound reports a doc bound that differs from the code's, or nil.
func (r *LiteralMismatch) compareBound(c review.Claim, sent string, subj rangeSubject, lit litPlaced, site valueSite, side string) *review.Verdict {
	equal, inUnit, ok := boundMatch(lit, site)
	if !ok || equal {
		return nil
	}
	shown := site.expr
	if s := constShown(site); s != "" && s != shown {
		shown += " (" + s + ")"
	}
	msg := fmt.Sprintf("The doc gives %s as a bound of %s, but the code rejects values %s %s.", lit.Text, subj.name, side, shown)
	suggestion := ""
	if inUnit == math.Trunc(inUnit) && math.Abs(inUnit) < 1e15 && strings.Count(c.Text, sent) == 1 {
		num := strconv.FormatFloat(inUnit, 'f', -1, 64)
		if strings.Contains(lit.Text, ",") {
			num = groupThousands(num)
		}
		digits := lit.Text
		if i := strings.IndexFunc(digits, func(r rune) bool { return r == ' ' || r == '%' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }); i > 0 {
			digits = digits[:i]
		}
		fixed := sent[:lit.start] + num + sent[lit.start+len(digits):]
		suggestion = strings.Replace(c.Text, sent, fixed, 1)
	}
	hop := c.Symbol
	if hop == "" {
		hop = fmt.Sprintf("%s:%d", c.Path, c.Line)
	}
	hops := []string{hop}
	if site.fn != "" {
		hops = append(hops, site.fn)
	}
	return &review.Verdict{
		Label:      review.Contradicted,
		Rule:       r.Name(),
		Message:    msg,
		Confidence: 0.85,
		Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: hops,
		}},
	}
}

// boundMatch compares a doc bound with the code's: equal, the code's
// value in the doc's unit, and false when they cannot be compared.
func boundMatch(lit litPlaced, site valueSite) (equal bool, inUnit float64, ok bool) {
	if site.val == nil || site.val.Kind() != constant.Int || site.typ == nil {
		return false, 0, false
	}
	if lit.Unit != "" {
		if lit.Value < 0 {
			return false, 0, false
		}
		m, ok := matchLiteral(lit, site)
		return m.equal, m.inUnit, ok && (m.equal || m.inUnit != 0)
	}
	if b, ok := site.typ.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 || litIsDuration(site.typ) {
		return false, 0, false
	}
	code, _ := constant.Float64Val(site.val)
	return litSame(lit.Value, code), code, true
}

// rangeSubject finds the setting a sentence of c states a range of.
func (r *LiteralMismatch) rangeSubject(ws *review.Workspace, c review.Claim, sent string) (rangeSubject, bool) {
	switch c.Kind {
	case review.KindDocComment:
		if c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") {
			return rangeSubject{}, false
		}
		sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
		if !ok || sym.Package == nil || sym.Path != c.Path || sym.Object == nil {
			return rangeSubject{}, false
		}
		switch sym.Kind {
		case retrieval.SymbolField:
			return rangeSubject{name: sym.Name, obj: sym.Object, pkg: sym.Package}, true
		case retrieval.SymbolFunc, retrieval.SymbolMethod:
			return paramSubject(sym, sent)
		}
		return rangeSubject{}, false
	case review.KindMarkdown:
		name := ""
		if strings.HasPrefix(c.Text, "|") {
			cells := splitRow(c.Text)
			if len(cells) < 2 {
				return rangeSubject{}, false
			}
			name = strings.Trim(cells[0], "`* ")
		} else {
			spans := codeSpans(sent)
			if len(spans) != 1 {
				return rangeSubject{}, false
			}
			name = sent[spans[0][0]:spans[0][1]]
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
		}
		if !isIdent(name) || !token.IsExported(name) {
			return rangeSubject{}, false
		}
		field, ok := r.tableField(ws, c, name)
		if !ok || field.Object == nil {
			return rangeSubject{}, false
		}
		return rangeSubject{name: field.Name, obj: field.Object, pkg: field.Package}, true
	}
	return rangeSubject{}, false
}

// paramSubject returns the one parameter of a func that a sentence of its
// doc names as a word.
func paramSubject(sym retrieval.Symbol, sent string) (rangeSubject, bool) {
	fd := funcDecl(sym)
	if fd == nil || fd.Body == nil || sym.Package == nil || sym.Package.Info == nil {
		return rangeSubject{}, false
	}
	var found types.Object
	name := ""
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if len(n.Name) < 2 || !litNamesWord(sent, n.Name) {
				continue
			}
			if found != nil {
				return rangeSubject{}, false
			}
			found, name = sym.Package.Info.Defs[n], n.Name
		}
	}
	if found == nil {
		return rangeSubject{}, false
	}
	return rangeSubject{name: name, obj: found, pkg: sym.Package, fn: fd}, true
}

// guardBounds returns the bounds the guards of subj enforce: lo is the
// least value accepted, hi the greatest.
func guardBounds(subj rangeSubject) (lo, hi codeBound) {
	p := subj.pkg
	if p == nil || p.Info == nil || p.Fset == nil {
		return lo, hi
	}
	is := func(e ast.Expr) bool {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return subj.fn != nil && p.Info.Uses[x] == subj.obj
		case *ast.SelectorExpr:
			s := p.Info.Selections[x]
			return s != nil && s.Kind() == types.FieldVal && s.Obj() == subj.obj
		}
		return false
	}
	fn := ""
	add := func(b *codeBound, site valueSite) {
		site.fn = fn
		switch {
		case !b.set:
			b.site, b.set = site, true
		case !sameConstant(b.site.val, site.val):
			b.plural = true
		}
	}
	visit := func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			st, ok := n.(*ast.IfStmt)
			if !ok || !rejects(st.Body) {
				return true
			}
			terms := orTerms(st.Cond)
			var los, his []valueSite
			for _, t := range terms {
				b, ok := ast.Unparen(t).(*ast.BinaryExpr)
				if !ok {
					return true
				}
				op, other := b.Op, b.Y
				switch {
				case is(b.X):
				case is(b.Y):
					op, other = flipCompare(b.Op), b.X
				default:
					return true // a guard of something else too
				}
				val, typ := exprValue(p.Info, nil, other)
				if val == nil || val.Kind() != constant.Int {
					return true
				}
				if typ == nil || !typeKnown(typ) {
					typ = subj.obj.Type()
				}
				a, z := p.Fset.Position(st.Cond.Pos()), p.Fset.Position(st.Cond.End())
				site := valueSite{val: val, typ: typ, name: types.ExprString(other), expr: types.ExprString(other),
					why: "if " + types.ExprString(st.Cond), path: a.Filename, line: a.Line, end: max(a.Line, z.Line)}
				switch op {
				case token.LSS: // x < A rejected: A is the least accepted
					los = append(los, site)
				case token.LEQ: // x <= A rejected: A+1
					site.val = constant.BinaryOp(val, token.ADD, constant.MakeInt64(1))
					site.expr += " + 1"
					los = append(los, site)
				case token.GTR:
					his = append(his, site)
				case token.GEQ:
					site.val = constant.BinaryOp(val, token.SUB, constant.MakeInt64(1))
					site.expr += " - 1"
					his = append(his, site)
				default:
					return true
				}
			}
			if len(los) > 1 || len(his) > 1 {
				return true
			}
			for _, s := range los {
				add(&lo, s)
			}
			for _, s := range his {
				add(&hi, s)
			}
			return true
		})
	}
	if subj.fn != nil {
		fn = subj.fn.Name.Name
		visit(subj.fn.Body)
		return lo, hi
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				fn = fd.Name.Name
				visit(fd.Body)
			}
		}
	}
	return lo, hi
}

// orTerms flattens a || chain.
func orTerms(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return append(orTerms(b.X), orTerms(b.Y)...)
	}
	return []ast.Expr{e}
}

// flipCompare turns "A < x" into "x > A".
func flipCompare(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// rejects reports whether a guard's body rejects the value: it returns
// something other than a bare nil last result, or panics.
func rejects(body *ast.BlockStmt) bool {
	if body == nil {
		return false
	}
	for _, st := range body.List {
		switch s := st.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) == 0 {
				return false
			}
			if id, ok := s.Results[len(s.Results)-1].(*ast.Ident); ok && (id.Name == "nil" || id.Name == "true") {
				return false
			}
			return true
		case *ast.ExprStmt:
			if call, ok := s.X.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
					return true
				}
			}
		}
	}
	return false
}

// setRE finds a set of values a sentence says a setting may take:
// "either 16, 24, or 32", "one of 1, 2 or 4", "be 128 or 256".
var setRE = regexp.MustCompile(`(?i)\b(?:either|one\s+of|be)\s+(-?\d+(?:\s*,\s*-?\d+)*,?\s+or\s+-?\d+)\b`)

// setNumRE finds the numbers of a set.
var setNumRE = regexp.MustCompile(`-?\d+`)

// judgeValueSet reports a number of the one set of values a sentence says
// its setting may take that the guard rejecting the others does not
// accept, when the two sets have as many members and differ in that one:
// "key should be either 16, 24, or 64 bytes" beside
// "if l := len(key); l != 16 && l != 24 && l != 32 { return err }".
func (r *LiteralMismatch) judgeValueSet(ws *review.Workspace, c review.Claim, sent string) *review.Verdict {
	ms := setRE.FindAllStringSubmatchIndex(sent, -1)
	if len(ms) != 1 {
		return nil
	}
	subj, ok := r.rangeSubject(ws, c, sent)
	if !ok {
		return nil
	}
	code, site, ok := guardSet(subj)
	if !ok {
		return nil
	}
	type num struct {
		v          int64
		start, end int
	}
	var doc []num
	for _, m := range setNumRE.FindAllStringIndex(sent[ms[0][2]:ms[0][3]], -1) {
		v, err := strconv.ParseInt(sent[ms[0][2]+m[0]:ms[0][2]+m[1]], 10, 64)
		if err != nil {
			return nil
		}
		doc = append(doc, num{v, ms[0][2] + m[0], ms[0][2] + m[1]})
	}
	if len(doc) != len(code) {
		return nil
	}
	var wrong []num
	for _, d := range doc {
		if !code[d.v] {
			wrong = append(wrong, d)
		}
	}
	var missing []int64
	for v := range code {
		found := false
		for _, d := range doc {
			found = found || d.v == v
		}
		if !found {
			missing = append(missing, v)
		}
	}
	if len(wrong) == 0 && len(missing) == 1 {
		// A value listed twice in place of the missing one ("16, 32, or
		// 32"): the doc's list, in the code's ascending order, differs in
		// one place.
		sorted := slices.Sorted(maps.Keys(code))
		var at []int
		for i, d := range doc {
			if d.v != sorted[i] {
				at = append(at, i)
			}
		}
		if len(at) == 1 && sorted[at[0]] == missing[0] {
			wrong = []num{doc[at[0]]}
		}
	}
	if len(wrong) != 1 || len(missing) != 1 {
		return nil
	}
	w := wrong[0]
	suggestion := ""
	if strings.Count(c.Text, sent) == 1 {
		suggestion = strings.Replace(c.Text, sent, sent[:w.start]+strconv.FormatInt(missing[0], 10)+sent[w.end:], 1)
	}
	hop := c.Symbol
	if hop == "" {
		hop = fmt.Sprintf("%s:%d", c.Path, c.Line)
	}
	return &review.Verdict{
		Label:      review.Contradicted,
		Rule:       r.Name(),
		Message:    fmt.Sprintf("The doc gives %d among the values %s may take, but the code accepts %d, not %d.", w.v, subj.name, missing[0], w.v),
		Confidence: 0.85,
		Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: []string{hop, site.fn},
		}},
	}
}

// guardSet returns the values a guard accepts for subj: an if whose
// condition is a && chain of "x != C" and whose body rejects, where x is
// the setting, its len, or a name the if's init binds to either. It
// fails when there is no such guard or several disagree.
func guardSet(subj rangeSubject) (map[int64]bool, valueSite, bool) {
	p := subj.pkg
	if p == nil || p.Info == nil || p.Fset == nil {
		return nil, valueSite{}, false
	}
	isSubj := func(e ast.Expr) bool {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return subj.fn != nil && p.Info.Uses[x] == subj.obj
		case *ast.SelectorExpr:
			s := p.Info.Selections[x]
			return s != nil && s.Kind() == types.FieldVal && s.Obj() == subj.obj
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "len" && len(x.Args) == 1 {
				if _, ok := p.Info.Uses[id].(*types.Builtin); ok {
					return subjExpr(p, subj, x.Args[0])
				}
			}
		}
		return false
	}
	var found map[int64]bool
	var site valueSite
	fn := ""
	bad := false
	visit := func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			st, ok := n.(*ast.IfStmt)
			if !ok || !rejects(st.Body) {
				return true
			}
			// "l := len(key)" in the if's init stands for len(key).
			var alias types.Object
			if as, ok := st.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && isSubj(as.Rhs[0]) {
				if id, ok := as.Lhs[0].(*ast.Ident); ok {
					alias = p.Info.Defs[id]
				}
			}
			set := map[int64]bool{}
			for _, t := range andTerms(st.Cond) {
				b, ok := ast.Unparen(t).(*ast.BinaryExpr)
				if !ok || b.Op != token.NEQ {
					return true
				}
				x, other := b.X, b.Y
				if !isSubj(x) && !isAlias(p, alias, x) {
					x, other = b.Y, b.X
				}
				if !isSubj(x) && !isAlias(p, alias, x) {
					return true
				}
				val, _ := exprValue(p.Info, nil, other)
				if val == nil || val.Kind() != constant.Int {
					return true
				}
				v, ok := constant.Int64Val(val)
				if !ok {
					return true
				}
				set[v] = true
			}
			if len(set) < 2 {
				return true
			}
			if found != nil && !sameSet(found, set) {
				bad = true
			}
			a, z := p.Fset.Position(st.Pos()), p.Fset.Position(st.Cond.End())
			why := "if " + types.ExprString(st.Cond)
			if as, ok := st.Init.(*ast.AssignStmt); ok && alias != nil {
				why = "if " + types.ExprString(as.Lhs[0]) + " " + as.Tok.String() + " " + types.ExprString(as.Rhs[0]) + "; " + types.ExprString(st.Cond)
			}
			found, site = set, valueSite{path: a.Filename, line: a.Line, end: max(a.Line, z.Line), fn: fn, why: why}
			return true
		})
	}
	if subj.fn != nil {
		fn = subj.fn.Name.Name
		visit(subj.fn.Body)
	} else {
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					fn = fd.Name.Name
					visit(fd.Body)
				}
			}
		}
	}
	return found, site, found != nil && !bad
}

// subjExpr reports whether e is the setting itself.
func subjExpr(p *retrieval.Package, subj rangeSubject, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return subj.fn != nil && p.Info.Uses[x] == subj.obj
	case *ast.SelectorExpr:
		s := p.Info.Selections[x]
		return s != nil && s.Kind() == types.FieldVal && s.Obj() == subj.obj
	}
	return false
}

// isAlias reports whether e names alias.
func isAlias(p *retrieval.Package, alias types.Object, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && alias != nil && p.Info.Uses[id] == alias
}

// andTerms flattens a && chain.
func andTerms(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(andTerms(b.X), andTerms(b.Y)...)
	}
	return []ast.Expr{e}
}

// sameSet reports whether a and b hold the same values.
func sameSet(a, b map[int64]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for v := range a {
		if !b[v] {
			return false
		}
	}
	return true
}

package rules

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// An expression's stated value: a backticked arithmetic expression of
// constants followed, in its sentence, by the value it has:
//
//	`maxBatchSize * maxPacketSize` bytes (currently 64 × 1472 = 94,208 bytes)
//	`headerLen + 2` is 14
//
// The value is a chain of terms joined by "=": a term with one number per
// operand of the expression, in order ("64 × 1472"), and a last term of
// one number, the result ("94,208"), optionally followed by "bytes". Each
// number is compared with the constant it stands for and the result with
// the expression's value; the first that differs is contradicted, and the
// suggestion rewrites the whole chain with the code's values.

var (
	// exprLeadRE is what may stand between the closing backtick and the
	// stated value: a unit word, then "(currently", "(i.e.", "(=", "is",
	// "=", ", which is", "equals".
	exprLeadRE = regexp.MustCompile(`^\s*(?:(?:bytes?|entries|items|elements)\b\s*)?(?:\(\s*(?:currently|i\.e\.,?|that\s+is,?|=)?|,?\s*which\s+is|\bis(?:\s+currently)?|=|equals)\s*`)
	// exprNumRE is a number as docs write it: digits with "," or "_"
	// grouping.
	exprNumRE = regexp.MustCompile(`^\d{1,3}(?:[,_]\d{3})+|^\d+`)
	// exprOpRE is an operator between two numbers of a term.
	exprOpRE = regexp.MustCompile(`^\s*([×x*+\-/]|<<|>>)\s*`)
	// exprRatioRE follows a number that is a ratio or a bound, not the
	// expression's value.
	exprRatioRE = regexp.MustCompile(`(?i)^\s*(?:times\b|x\b|%|percent|more|less|fewer|larger|smaller|bigger|higher|lower|of\b|or\s+(?:more|less|fewer))`)
	// exprEqRE joins two terms.
	exprEqRE = regexp.MustCompile(`^\s*=\s*`)
)

// exprTerm is a term of a stated chain: its numbers and where each is in
// the sentence.
type exprTerm struct {
	nums   []*big.Int
	ranges [][2]int
}

// parseChain reads the chain of terms at s[i:]; terms are returned in
// order with offsets into s.
func parseChain(s string, i int) []exprTerm {
	var terms []exprTerm
	for {
		var t exprTerm
		for {
			m := exprNumRE.FindString(s[i:])
			if m == "" {
				return terms
			}
			// Not a number of a larger token: "1.5", "64KB", "v2".
			if j := i + len(m); j < len(s) && (s[j] == '.' && j+1 < len(s) && litDigit(s[j+1]) || isWordByte(s[j])) {
				return terms
			}
			n, ok := new(big.Int).SetString(strings.NewReplacer(",", "", "_", "").Replace(m), 10)
			if !ok {
				return terms
			}
			t.nums = append(t.nums, n)
			t.ranges = append(t.ranges, [2]int{i, i + len(m)})
			i += len(m)
			op := exprOpRE.FindString(s[i:])
			if op == "" {
				break
			}
			i += len(op)
		}
		terms = append(terms, t)
		eq := exprEqRE.FindString(s[i:])
		if eq == "" {
			return terms
		}
		i += len(eq)
	}
}

func isWordByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// codeSpans returns the byte ranges of the backticked spans' contents.
func codeSpans(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			break
		}
		open := i + j + 1
		k := strings.IndexByte(s[open:], '`')
		if k < 0 {
			break
		}
		out = append(out, [2]int{open, open + k})
		i = open + k + 1
	}
	return out
}

// judgeExprValue checks the values a sentence states for a backticked
// expression of constants.
func (r *LiteralMismatch) judgeExprValue(ws *review.Workspace, c review.Claim) *review.Verdict {
	if !strings.Contains(c.Text, "`") {
		return nil
	}
	sc := newScope(ws.Symbols, c)
	for _, sent := range prose.SplitSentences(c.Text) {
		for _, sp := range codeSpans(sent) {
			if v := r.judgeExprSpan(ws, sc, c, sent, sp); v != nil {
				return v
			}
		}
	}
	return nil
}

func (r *LiteralMismatch) judgeExprSpan(ws *review.Workspace, sc scope, c review.Claim, sent string, sp [2]int) *review.Verdict {
	src := sent[sp[0]:sp[1]]
	operands, ok := prose.ArithOperands(src)
	if !ok {
		return nil
	}
	lead := exprLeadRE.FindString(sent[sp[1]+1:])
	if lead == "" {
		return nil
	}
	terms := parseChain(sent, sp[1]+1+len(lead))
	if len(terms) == 0 {
		return nil
	}
	// A ratio or a comparison is no value: "is 2 times larger".
	last := terms[len(terms)-1]
	if exprRatioRE.MatchString(sent[last.ranges[len(last.ranges)-1][1]:]) {
		return nil
	}
	// The expression's value, from the constants it names.
	var sites []valueSite
	vals := map[string]constant.Value{}
	for _, o := range operands {
		sym, ok := sc.lookup(o.Name)
		if !ok || sym.Kind != retrieval.SymbolConst && sym.Kind != retrieval.SymbolVar || !sc.inModule(sym) {
			return nil
		}
		site, ok := r.constSite(ws, sym)
		if !ok || site.val == nil || site.val.Kind() != constant.Int {
			return nil
		}
		sites = append(sites, site)
		vals[o.Name] = site.val
	}
	total, ok := evalArith(src, operands, vals)
	if !ok {
		return nil
	}
	// Which term is which: a term with one number per operand is the
	// operands; a last term of one number is the result.
	var opTerm, resTerm *exprTerm
	for i := range terms {
		t := &terms[i]
		switch {
		case len(t.nums) == len(operands) && len(operands) > 1 && opTerm == nil && i < len(terms)-1:
			opTerm = t
		case len(t.nums) == 1 && i == len(terms)-1:
			resTerm = t
		}
	}
	if resTerm == nil && opTerm == nil {
		return nil
	}
	var wrong []string
	var evs []review.Evidence
	hop := c.Symbol
	if hop == "" {
		hop = fmt.Sprintf("%s:%d", c.Path, c.Line)
	}
	if opTerm != nil {
		for i, n := range opTerm.nums {
			code := constantBig(sites[i].val)
			if code == nil || code.Cmp(n) == 0 {
				continue
			}
			wrong = append(wrong, fmt.Sprintf("%s is %s, not %s", operands[i].Name, code, n))
			evs = append(evs, review.Evidence{Path: sites[i].path, StartLine: sites[i].line, EndLine: sites[i].end,
				Source: review.SourceCode, Why: sites[i].why, Hops: []string{hop, sites[i].name}})
		}
	}
	if resTerm != nil && resTerm.nums[0].Cmp(total) != 0 {
		wrong = append(wrong, fmt.Sprintf("%s is %s, not %s", src, total, resTerm.nums[0]))
		if len(evs) == 0 {
			for _, s := range sites {
				evs = append(evs, review.Evidence{Path: s.path, StartLine: s.line, EndLine: s.end,
					Source: review.SourceCode, Why: s.why, Hops: []string{hop, s.name}})
			}
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	// The suggestion: every stated number rewritten with the code's, in
	// the doc's grouping.
	type edit struct {
		at  [2]int
		new string
	}
	var edits []edit
	if opTerm != nil {
		for i, n := range opTerm.nums {
			if code := constantBig(sites[i].val); code != nil && code.Cmp(n) != 0 {
				edits = append(edits, edit{opTerm.ranges[i], groupLike(sent[opTerm.ranges[i][0]:opTerm.ranges[i][1]], code)})
			}
		}
	}
	if resTerm != nil && resTerm.nums[0].Cmp(total) != 0 {
		edits = append(edits, edit{resTerm.ranges[0], groupLike(sent[resTerm.ranges[0][0]:resTerm.ranges[0][1]], total)})
	}
	suggestion := ""
	if i := strings.Index(c.Text, sent); i >= 0 && strings.Count(c.Text, sent) == 1 {
		fixed := sent
		for k := len(edits) - 1; k >= 0; k-- {
			e := edits[k]
			fixed = fixed[:e.at[0]] + e.new + fixed[e.at[1]:]
		}
		suggestion = c.Text[:i] + fixed + c.Text[i+len(sent):]
	}
	return &review.Verdict{
		Label:      review.Contradicted,
		Rule:       r.Name(),
		Message:    fmt.Sprintf("The doc spells out the value of %s, but in the code %s.", "`"+src+"`", strings.Join(wrong, "; ")),
		Confidence: 0.85,
		Suggestion: suggestion,
		Evidence:   evs,
	}
}

// evalArith evaluates src, an expression whose operands ArithOperands
// gave, with the names' values; false when the result is not an integer.
func evalArith(src string, operands []prose.Operand, vals map[string]constant.Value) (*big.Int, bool) {
	// The operands are replaced by their values and the result is
	// evaluated as a constant expression.
	var b strings.Builder
	last := 0
	for _, o := range operands {
		v, ok := vals[o.Name]
		if !ok {
			return nil, false
		}
		b.WriteString(src[last:o.Start])
		b.WriteString("(" + v.ExactString() + ")")
		last = o.End
	}
	b.WriteString(src[last:])
	v, ok := evalConstExpr(b.String())
	if !ok {
		return nil, false
	}
	n := constantBig(v)
	return n, n != nil
}

// constantBig is an integer constant as a big.Int, nil for anything else.
func constantBig(v constant.Value) *big.Int {
	if v == nil || v.Kind() != constant.Int {
		return nil
	}
	n, ok := new(big.Int).SetString(v.ExactString(), 10)
	if !ok {
		return nil
	}
	return n
}

// groupLike writes n the way old writes its number: with "," or "_"
// grouping when old has it.
func groupLike(old string, n *big.Int) string {
	s := n.String()
	sep := ""
	switch {
	case strings.Contains(old, ","):
		sep = ","
	case strings.Contains(old, "_"):
		sep = "_"
	}
	if sep == "" || len(s) <= 3 || strings.HasPrefix(s, "-") {
		return s
	}
	var out []string
	for len(s) > 3 {
		out = append([]string{s[len(s)-3:]}, out...)
		s = s[:len(s)-3]
	}
	return strings.Join(append([]string{s}, out...), sep)
}

// evalConstExpr evaluates a constant expression of literals.
func evalConstExpr(src string) (constant.Value, bool) {
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, src)
	if err != nil || tv.Value == nil {
		return nil, false
	}
	return tv.Value, true
}

package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the noun-phrase half of the literal-mismatch rule: the
// doc comment of a func says what value a field of what it builds has,
// naming the field in words ("returns a fake fetch with a partition of
// 0", "uses a read timeout of 5 seconds"), and the func, or a callee up to
// depth 2, sets that field to one constant: a composite literal's key
// (Partition: -1) or an assignment (c.ReadTimeout = 10 * time.Second).

// nounValueRE finds a noun phrase of one or two words followed by "of",
// "is", "set to" or "=" at the end of the text before a number: "a
// partition of ", "the read timeout is ".
var nounValueRE = regexp.MustCompile(`(?i)\b(?:a|an|the|its|their|default)\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:of|is|set\s+to|=)\s+$`)

// fieldSet is a constant a func gives a named field.
type fieldSet struct {
	field string
	val   constant.Value
	typ   types.Type
	text  string // the value as written
	path  string
	line  int
	hops  []string
}

// judgeNounValue reports a number the claim's func doc states for a field
// its code sets to another constant, or nil.
func (r *LiteralMismatch) judgeNounValue(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") {
		return nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || (sym.Kind != retrieval.SymbolFunc && sym.Kind != retrieval.SymbolMethod) || sym.Package == nil {
		return nil
	}
	var sets []fieldSet
	loaded := false
	for _, sent := range prose.Sentences(c.Text) {
		text := c.Text[sent.Start:sent.End]
		if driftHistoryRE.MatchString(text) {
			continue
		}
		for _, n := range sentenceNumbers(text) {
			m := nounValueRE.FindStringSubmatch(text[:n.start])
			if m == nil || inDocCode(c.Text, sent.Start+n.start) {
				continue
			}
			field := camelWords(m[1])
			if !loaded {
				sets, loaded = fieldSets(ws.Symbols, sym), true
			}
			var match []fieldSet
			for _, s := range sets {
				if strings.EqualFold(s.field, field) {
					match = append(match, s)
				}
			}
			if len(match) == 0 {
				continue
			}
			for _, s := range match[1:] {
				if !constant.Compare(s.val, token.EQL, match[0].val) {
					return nil // set to several values: which the doc means is not certain
				}
			}
			site := match[0]
			same, comparable := sameFieldValue(n.value, n.unit, site)
			if !comparable || same {
				continue
			}
			written := text[n.start:n.end]
			msg := fmt.Sprintf("The doc says %s gives %s %s, but it sets %s to %s.", c.Symbol, strings.ToLower(m[1]), written, site.field, site.text)
			return &review.Verdict{
				Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.7,
				Evidence: []review.Evidence{{
					Path: site.path, StartLine: site.line, EndLine: site.line, Source: review.SourceCode,
					Why: fmt.Sprintf("sets %s to %s", site.field, site.text), Hops: append([]string{c.Symbol + " (doc)"}, site.hops...),
				}},
			}
		}
	}
	return nil
}

// sentNum is a number of a sentence with its unit, if any.
type sentNum struct {
	start, end int
	value      float64
	unit       string // canonical unit, "" for a bare number
}

// bareNumberRE finds a bare integer, its thousands perhaps grouped with
// commas ("10,000"), perhaps quoted ("sets '404 Not Found'"): digits not
// part of a word, a version or a larger number.
var bareNumberRE = regexp.MustCompile(`(?:^|[\s("'])(\d{1,3}(?:,\d{3})+|\d+)(?:[\s.,;:)"']|$)`)

// numberLabelRE ends right before a number that names a document, a
// release or a place rather than stating a value: "RFC 9218", "section
// 4", "issue #123", "Go 1", "line 42".
var numberLabelRE = regexp.MustCompile(`(?i)(?:\b(?:rfcs?|sections?|chapters?|figures?|fig\.|tables?|steps?|lines?|pages?|issues?|prs?|pull\s+requests?|cves?|iso|ieee|ecma|versions?|go|utf|sha|crc)|§)\s*[-#]?\s*$`)

// sentenceNumbers returns the numbers of text: the literals with units
// (prose.Literals) and the bare integers between them.
func sentenceNumbers(text string) []sentNum {
	var out []sentNum
	covered := make([]bool, len(text)+1)
	for _, l := range prose.Literals(text) {
		out = append(out, sentNum{start: l.Start, end: l.End, value: l.Value, unit: l.Unit})
		for i := l.Start; i < l.End; i++ {
			covered[i] = true
		}
	}
	for _, m := range bareNumberRE.FindAllStringSubmatchIndex(text, -1) {
		if covered[m[2]] || numberLabelRE.MatchString(text[:m[2]]) {
			continue
		}
		var v float64
		fmt.Sscan(strings.ReplaceAll(text[m[2]:m[3]], ",", ""), &v)
		out = append(out, sentNum{start: m[2], end: m[3], value: v})
	}
	return out
}

// camelWords joins the words of a noun phrase as a Go name would:
// "read timeout" → "ReadTimeout".
func camelWords(s string) string {
	var b strings.Builder
	for _, w := range strings.Fields(s) {
		b.WriteString(strings.ToUpper(w[:1]) + strings.ToLower(w[1:]))
	}
	return b.String()
}

// sameFieldValue compares a stated number with the constant a field is
// set to: a duration with a time.Duration, a size with an integer in
// bytes (decimal or binary prefixes), a bare number with an integer or
// float. It reports whether they are equal and whether they could be
// compared at all.
func sameFieldValue(stated float64, unit string, s fieldSet) (same, comparable bool) {
	f, ok := constant.Float64Val(constant.ToFloat(s.val))
	if !ok {
		return false, false
	}
	isDuration := false
	if n, ok := s.typ.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration" {
		isDuration = true
	}
	switch prose.DimensionOf(unit) {
	case prose.Duration:
		if !isDuration {
			return false, false
		}
		return math.Abs(stated*prose.Nanoseconds(unit)-f) < 0.5, true
	case prose.Size:
		if isDuration {
			return false, false
		}
		for _, per := range prose.Bytes(unit) {
			if math.Abs(stated*per-f) < 0.5 {
				return true, true
			}
		}
		return false, true
	case prose.Dimensionless, prose.Count:
		if isDuration || unit == "%" {
			return false, false
		}
		if b, ok := s.typ.Underlying().(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
			return false, false
		}
		return math.Abs(stated-f) < 1e-9, true
	}
	return false, false
}

// fieldSets returns the constants sym's body and its callees up to depth
// 2 give named fields: keys of composite literals and assignments to a
// selector; a callee's only where it sets them on every path.
func fieldSets(syms *retrieval.Symbols, sym retrieval.Symbol) []fieldSet {
	var out []fieldSet
	add := func(s retrieval.Symbol, hops []string, callee bool) {
		fd := funcDecl(s)
		if fd == nil || fd.Body == nil || s.Package == nil || s.Package.Info == nil || s.Package.Fset == nil {
			return
		}
		p := s.Package
		// A callee's value set only on some paths is not what the func
		// gives: go-github's Do builds a 403 response only when the rate
		// limit is spent, while its doc speaks of GitHub's own 202.
		var branches []ast.Node
		if callee {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
					branches = append(branches, n)
				}
				return true
			})
		}
		record := func(name string, val ast.Expr) {
			if slices.ContainsFunc(branches, func(b ast.Node) bool { return b.Pos() <= val.Pos() && val.End() <= b.End() }) {
				return
			}
			tv, ok := p.Info.Types[val]
			if !ok || tv.Value == nil || tv.Type == nil {
				return
			}
			if k := tv.Value.Kind(); k != constant.Int && k != constant.Float {
				return
			}
			pos := p.Fset.Position(val.Pos())
			out = append(out, fieldSet{field: name, val: tv.Value, typ: tv.Type, text: types.ExprString(val),
				path: pos.Filename, line: pos.Line, hops: hops})
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok {
					if _, isField := p.Info.Uses[id].(*types.Var); isField {
						record(id.Name, x.Value)
					}
				}
			case *ast.AssignStmt:
				if len(x.Lhs) == len(x.Rhs) {
					for i, l := range x.Lhs {
						if sel, ok := l.(*ast.SelectorExpr); ok {
							record(sel.Sel.Name, x.Rhs[i])
						}
					}
				}
			}
			return true
		})
	}
	add(sym, []string{sym.Name}, false)
	for _, ref := range syms.Callees(sym, 2) {
		add(ref.Symbol, ref.Hops, true)
	}
	return out
}

// inDocCode reports whether offset i of a doc comment's text is on an
// indented line, a code block of the doc: fake-gcs-server's "bytes */4096
// (The end of 4096 byte streaming document)" is an example header, not a
// field's value.
func inDocCode(text string, i int) bool {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	return strings.HasPrefix(text[start:], " ") || strings.HasPrefix(text[start:], "\t")
}

package rules

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the diff-anchored half of the literal-mismatch rule: a
// number the doc comment of a declaration states ("the first 6 bytes") that
// the same declaration also holds as a literal at base ("len(id) < 6"),
// where the diff changed one side and not the other.

// driftFile is a Go file parsed at base, without type information.
type driftFile struct {
	fset *token.FileSet
	file *ast.File
}

// docNum is a number a doc comment states, bound to a unit word or alone
// in parentheses, or bare.
type docNum struct {
	start, end int // of the digits in the doc text
	// bare is true for a number with neither a unit word nor parentheses
	// ("returns 4 for known types"): only a diff that replaces it with
	// another number, word for word, makes it a claim about the code.
	bare   bool
	text   string // the digits and the unit word as written: "6 bytes"
	digits string
	key    string // numKey of the value
	// prefix and suffix are the rest of the number's sentence before and
	// after the digits, with whitespace collapsed.
	prefix, suffix string
}

// codeLit is an integer or float literal of a declaration, in AST walk
// order.
type codeLit struct {
	key  string
	text string // as written: "0x0f"
	line int
	// does says what the declaration does with the literal ("compares
	// len(id) with 6") and why is the code it stands in ("len(id) < 6").
	does, why string
	// radix is true for a number base passed to a call ([radixArgs]).
	radix bool
}

// driftUnits are the words after a number that make it a count, size or
// duration of something, and so worth comparing with the code.
var driftUnits = map[string]bool{
	"byte": true, "bytes": true, "bit": true, "bits": true, "octet": true, "octets": true,
	"nibble": true, "nibbles": true, "kb": true, "kib": true, "mb": true, "mib": true, "gb": true, "gib": true,
	"digit": true, "digits": true, "character": true, "characters": true, "char": true, "chars": true,
	"rune": true, "runes": true, "word": true, "words": true, "line": true, "lines": true,
	"column": true, "columns": true, "decimal": true, "decimals": true, "place": true, "places": true,
	"entry": true, "entries": true, "item": true, "items": true, "element": true, "elements": true,
	"slot": true, "slots": true, "bucket": true, "buckets": true, "level": true, "levels": true,
	"worker": true, "workers": true, "goroutine": true, "goroutines": true, "connection": true, "connections": true,
	"times": true, "retry": true, "retries": true, "attempt": true, "attempts": true,
	"ns": true, "nanosecond": true, "nanoseconds": true, "us": true, "microsecond": true, "microseconds": true,
	"ms": true, "millisecond": true, "milliseconds": true, "sec": true, "secs": true, "second": true, "seconds": true,
	"minute": true, "minutes": true, "hour": true, "hours": true, "day": true, "days": true,
	"percent": true,
}

var (
	// driftDigitsRE finds the numbers of a doc: digits with at most one
	// decimal part.
	driftDigitsRE = regexp.MustCompile(`\d+(?:\.\d+)?`)
	// driftUnitRE reads the unit word after a number: "6 bytes", "6-byte".
	driftUnitRE = regexp.MustCompile(`^(?:[ \t]+|-|\n[ \t]*)([A-Za-z]+)\b`)
	// driftHistoryRE finds sentences about the past, whose numbers are not
	// the code's current values.
	driftHistoryRE = regexp.MustCompile(`(?i)\b(?:previously|formerly|used\s+to|prior\s+to|before\s+(?:v|version\s+)?\d|since\s+(?:v|version\s+)?\d|until\s+(?:v|version\s+)?\d|as\s+of\s+(?:v|version\s+)?\d|in\s+(?:v|version\s+)\d|older\s+versions?|earlier\s+versions?|changed\s+(?:from|in)|was\s+changed|no\s+longer|deprecated)\b`)
	// driftQuotedRE finds quoted and backticked spans, whose numbers are
	// text, not claims.
	driftQuotedRE = regexp.MustCompile("\"[^\"\n]*\"|`[^`\n]*`|\u201c[^\u201d\n]*\u201d")
	// driftURLRE finds URLs.
	driftURLRE = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+`)
)

// judgeDrift reports a number of a func, method, type, const or var doc
// comment that drifted from the literal it was bound to at base: the diff
// changed the literal and left the doc (the code changed), or changed the
// doc's number and left the literal (the doc changed). It returns nil when the
// claim is not a doc comment of one declared name, the review has no base
// or audits everything, the diff leaves the doc and the declaration
// alone, or the evidence is not certain.
func (r *LiteralMismatch) judgeDrift(ws *review.Workspace, c review.Claim) *review.Verdict {
	if ws.BaseFS == nil || ws.Scope == review.ScopeAll || c.Kind != review.KindDocComment || c.Symbol == "" ||
		strings.HasPrefix(c.Symbol, "package ") || strings.ContainsAny(c.Symbol, ", ") {
		return nil
	}
	f, ok := headChange(ws, c.Path)
	if !ok || f.Status == diff.Added || f.Status == diff.Copied || f.OldPath == "" || !strings.HasSuffix(c.Path, ".go") {
		return nil
	}
	heads := docNumbers(c.Text)
	if len(heads) == 0 {
		return nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Package == nil || sym.Package.Fset == nil || sym.Path != c.Path {
		return nil
	}
	if sym.Kind == retrieval.SymbolField {
		return r.fieldDrift(ws, c, f, sym, heads)
	}
	head := declNode(sym)
	if head == nil {
		return nil
	}
	fset := sym.Package.Fset
	if !f.Touches(c.Line, fset.Position(head.End()).Line) {
		return nil
	}
	baseText, ok := baseDoc(ws, c)
	if !ok {
		return nil
	}
	bases := docNumbers(baseText)
	if len(bases) == 0 {
		return nil
	}
	bf := r.baseFile(ws, f.OldPath)
	if bf == nil {
		return nil
	}
	base := baseDeclNode(bf.file, sym)
	if base == nil {
		return nil
	}
	baseLits := declLits(base, bf.fset, nil)
	headLits := declLits(head, fset, radixArgs(head, sym.Package.Info))
	headValues := constValues(head, sym.Package.Info)
	if v := r.codeDrift(ws, c, f, heads, bases, baseLits, headLits, headValues); v != nil {
		return v
	}
	return r.docDrift(ws, c, f, heads, bases, baseLits, headLits, headValues)
}

// codeDrift is the case where the diff changed the literal: the doc states
// N in a sentence the diff left alone, the base declaration held literal
// N, the head one holds no value N at all, and the literal that stood for
// N now says M, in a line the diff added.
func (r *LiteralMismatch) codeDrift(ws *review.Workspace, c review.Claim, f diff.File, heads, bases []docNum, baseLits, headLits []codeLit, headValues map[string]bool) *review.Verdict {
	for _, hn := range heads {
		if hn.bare || headValues[hn.key] || !sameSentence(bases, hn, hn.key) || !hasLit(baseLits, hn.key) {
			continue
		}
		m, ok := changedTo(baseLits, headLits, hn.key)
		if !ok || !f.AddedAt(m.line) || statesValue(heads, m.key) {
			continue
		}
		msg := fmt.Sprintf("The doc states %s, but %s %s (this diff changed %s to %s).", hn.text, c.Symbol, m.does, hn.digits, m.text)
		evs := []review.Evidence{{
			Path: c.Path, StartLine: m.line, EndLine: m.line, Source: review.SourceCode,
			Why: m.why, Hops: []string{c.Symbol + " (doc)", c.Symbol},
		}}
		if ev, ok := hunkEvidence(ws.Diff, review.SymbolRef{Path: c.Path, Line: m.line}, false); ok {
			ev.Why = fmt.Sprintf("this diff changed %s to %s", hn.digits, m.text)
			ev.Hops = []string{c.Symbol + " (doc)", "diff " + ev.Path}
			evs = append(evs, ev)
		}
		suggestion := ""
		if countNumber(c.Text, hn.digits) == 1 {
			suggestion = c.Text[:hn.start] + m.text + c.Text[hn.end:]
		}
		return &review.Verdict{
			Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.8,
			Suggestion: suggestion, Evidence: evs,
		}
	}
	return nil
}

// docDrift is the case where the diff changed the doc: a sentence that
// stated N at base, bound to literal N of the declaration, states M at
// head and is otherwise the same, while the head declaration still holds
// literal N and no value M.
func (r *LiteralMismatch) docDrift(ws *review.Workspace, c review.Claim, f diff.File, heads, bases []docNum, baseLits, headLits []codeLit, headValues map[string]bool) *review.Verdict {
	for _, hn := range heads {
		if headValues[hn.key] || sameSentence(bases, hn, hn.key) {
			continue
		}
		var was *docNum
		for i, bn := range bases {
			if bn.prefix == hn.prefix && bn.suffix == hn.suffix && bn.key != hn.key && bn.bare == hn.bare {
				was = &bases[i]
				break
			}
		}
		if was == nil || !hasLit(baseLits, was.key) {
			continue
		}
		var lit *codeLit
		for i, l := range headLits {
			if l.key == was.key && !l.radix {
				lit = &headLits[i]
				break
			}
		}
		if lit == nil {
			continue
		}
		msg := fmt.Sprintf("The doc states %s, but %s %s (this diff changed the doc's %s to %s).", hn.text, c.Symbol, lit.does, was.digits, hn.digits)
		evs := []review.Evidence{{
			Path: c.Path, StartLine: lit.line, EndLine: lit.line, Source: review.SourceCode,
			Why: lit.why, Hops: []string{c.Symbol + " (doc)", c.Symbol},
		}}
		docLine := c.Line + strings.Count(c.Text[:hn.start], "\n")
		if f.AddedAt(docLine) {
			if ev, ok := hunkEvidence(ws.Diff, review.SymbolRef{Path: c.Path, Line: docLine}, false); ok {
				ev.Why = fmt.Sprintf("this diff changed the doc's %s to %s", was.digits, hn.digits)
				ev.Hops = []string{c.Symbol + " (doc)", "diff " + ev.Path}
				evs = append(evs, ev)
			}
		}
		return &review.Verdict{
			Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.8,
			Suggestion: c.Text[:hn.start] + was.digits + c.Text[hn.end:], Evidence: evs,
		}
	}
	return nil
}

// fieldDrift is docDrift for the doc of a struct field: a sentence that
// stated N at base, N being the field's one default (fieldDefault), states
// M at head and is otherwise the same, while the default is still N.
func (r *LiteralMismatch) fieldDrift(ws *review.Workspace, c review.Claim, f diff.File, sym retrieval.Symbol, heads []docNum) *review.Verdict {
	if !f.Touches(c.Line, c.Line+strings.Count(c.Text, "\n")) {
		return nil
	}
	site, ok := r.fieldDefault(ws, sym)
	if !ok || site.val == nil {
		return nil
	}
	def := numKey(site.val)
	if def == "" {
		return nil
	}
	baseText, ok := baseDoc(ws, c)
	if !ok {
		return nil
	}
	bases := docNumbers(baseText)
	for _, hn := range heads {
		if hn.key == def || sameSentence(bases, hn, hn.key) {
			continue
		}
		var was *docNum
		for i, bn := range bases {
			if bn.prefix == hn.prefix && bn.suffix == hn.suffix && bn.key != hn.key && bn.bare == hn.bare {
				was = &bases[i]
				break
			}
		}
		if was == nil || was.key != def {
			continue
		}
		msg := fmt.Sprintf("The doc states %s, but the default of %s is %s (this diff changed the doc's %s to %s).", hn.text, c.Symbol, site.expr, was.digits, hn.digits)
		evs := []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: []string{c.Symbol + " (doc)", cmp.Or(site.fn, site.name)},
		}}
		docLine := c.Line + strings.Count(c.Text[:hn.start], "\n")
		if f.AddedAt(docLine) {
			if ev, ok := hunkEvidence(ws.Diff, review.SymbolRef{Path: c.Path, Line: docLine}, false); ok {
				ev.Why = fmt.Sprintf("this diff changed the doc's %s to %s", was.digits, hn.digits)
				ev.Hops = []string{c.Symbol + " (doc)", "diff " + ev.Path}
				evs = append(evs, ev)
			}
		}
		return &review.Verdict{
			Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.8,
			Suggestion: c.Text[:hn.start] + was.digits + c.Text[hn.end:], Evidence: evs,
		}
	}
	return nil
}

// sameSentence reports whether the base doc states the value key in the
// same sentence, word for word, as n does at head.
func sameSentence(bases []docNum, n docNum, key string) bool {
	for _, b := range bases {
		if b.key == key && b.prefix == n.prefix && b.suffix == n.suffix {
			return true
		}
	}
	return false
}

// statesValue reports whether one of the doc's numbers has the value key.
func statesValue(nums []docNum, key string) bool {
	for _, n := range nums {
		if n.key == key {
			return true
		}
	}
	return false
}

// hasLit reports whether one of lits has the value key.
func hasLit(lits []codeLit, key string) bool {
	for _, l := range lits {
		if l.key == key {
			return true
		}
	}
	return false
}

// changedTo aligns the literals of the declaration at base and head (a
// longest common subsequence of their values) and returns the one head
// literal that every base literal of value key became. It fails when a
// literal of value key has no counterpart (the stretch of changed
// literals around it differs in length between base and head), or when
// they became different values.
func changedTo(base, head []codeLit, key string) (codeLit, bool) {
	n, m := len(base), len(head)
	if n == 0 || m == 0 || n*m > 1<<22 {
		return codeLit{}, false
	}
	var got *codeLit
	for _, g := range unmatched(n, m, func(i, j int) bool { return base[i].key == head[j].key }) {
		for k := g.i0; k < g.i1; k++ {
			if base[k].key != key {
				continue
			}
			if g.i1-g.i0 != g.j1-g.j0 {
				return codeLit{}, false
			}
			h := head[g.j0+k-g.i0]
			if got != nil && got.key != h.key {
				return codeLit{}, false
			}
			got = &h
		}
	}
	if got == nil || got.key == key {
		return codeLit{}, false
	}
	return *got, true
}

// countNumber counts the occurrences of digits in text as a whole number.
func countNumber(text, digits string) int {
	n := 0
	for _, m := range driftDigitsRE.FindAllStringIndex(text, -1) {
		if text[m[0]:m[1]] == digits {
			n++
		}
	}
	return n
}

// docNumbers finds the numbers a doc text states about its declaration:
// written with digits, not 0 or 1, followed by a unit word ("6 bytes",
// "16-byte", "9 digits") or alone in parentheses, and not part of a
// version, dotted number, hex number, identifier, year, code block,
// quoted or backticked span, URL or a sentence about the past.
func docNumbers(text string) []docNum {
	mask := make([]bool, len(text))
	lineStart := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
			for k := range len(line) {
				mask[lineStart+k] = true // a code block of the doc
			}
		}
		lineStart += len(line)
	}
	for _, re := range []*regexp.Regexp{driftQuotedRE, driftURLRE} {
		for _, m := range re.FindAllStringIndex(text, -1) {
			for k := m[0]; k < m[1]; k++ {
				mask[k] = true
			}
		}
	}
	var out []docNum
	for _, span := range prose.Sentences(text) {
		sent := text[span.Start:span.End]
		if driftHistoryRE.MatchString(sent) {
			continue
		}
		for _, m := range driftDigitsRE.FindAllStringIndex(sent, -1) {
			start, end := span.Start+m[0], span.Start+m[1]
			if mask[start] {
				continue
			}
			n, ok := boundNumber(text, start, end)
			if !ok {
				continue
			}
			n.prefix = strings.Join(strings.Fields(text[span.Start:start]), " ")
			n.suffix = strings.Join(strings.Fields(text[end:span.End]), " ")
			out = append(out, n)
		}
	}
	return out
}

// boundNumber reads the number text[start:end] and its unit word; it
// fails for a number that is no claim about a count or size.
func boundNumber(text string, start, end int) (docNum, bool) {
	digits := text[start:end]
	// A range written with a dash ("1–32") bounds a value like a number
	// standing alone.
	if start > 0 && !strings.HasSuffix(text[:start], "–") && !strings.HasSuffix(text[:start], "—") {
		switch b := text[start-1]; {
		case isIdentByte(b), b == '.', b == '-', b == '+', b == '/', b == ':', b == '#', b == '$', b == '@', b == '~':
			return docNum{}, false
		}
	}
	if end < len(text) {
		if b := text[end]; isIdentByte(b) || b == '.' && end+1 < len(text) && litDigit(text[end+1]) || b == ',' && end+1 < len(text) && litDigit(text[end+1]) {
			return docNum{}, false
		}
	}
	if len(digits) > 1 && digits[0] == '0' && !strings.HasPrefix(digits, "0.") {
		return docNum{}, false
	}
	kind := token.INT
	if strings.Contains(digits, ".") {
		kind = token.FLOAT
	}
	v := constant.MakeFromLiteral(digits, kind, 0)
	if v.Kind() == constant.Unknown {
		return docNum{}, false
	}
	key := numKey(v)
	if key == "0" || key == "1" {
		return docNum{}, false
	}
	n := docNum{start: start, end: end, digits: digits, key: key, text: digits}
	if u := driftUnitRE.FindStringSubmatchIndex(text[end:]); u != nil && driftUnits[strings.ToLower(text[end+u[2]:end+u[3]])] {
		sep := " "
		if text[end] == '-' {
			sep = "-"
		}
		n.text = digits + sep + text[end+u[2]:end+u[3]]
		return n, true
	}
	before := strings.TrimRight(text[:start], " ")
	after := strings.TrimLeft(text[end:], " ")
	year := len(digits) == 4 && (strings.HasPrefix(digits, "19") || strings.HasPrefix(digits, "20"))
	if year {
		return docNum{}, false
	}
	if strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")") {
		return n, true
	}
	n.bare = true
	return n, true
}

// numKey writes a numeric constant so that equal values give equal keys,
// whatever their kind: 9, 9.0 and 0x9 all give "9".
func numKey(v constant.Value) string {
	if i := constant.ToInt(v); i.Kind() == constant.Int {
		return i.ExactString()
	}
	if f := constant.ToFloat(v); f.Kind() == constant.Float {
		return f.ExactString()
	}
	return ""
}

// declNode finds the declaration of a func, method, type, const or var
// symbol in its package's syntax: the *ast.FuncDecl, *ast.TypeSpec, or
// *ast.ValueSpec declaring only that name.
func declNode(sym retrieval.Symbol) ast.Node {
	switch sym.Kind {
	case retrieval.SymbolFunc, retrieval.SymbolMethod:
		if fd := funcDecl(sym); fd != nil {
			return fd
		}
		return nil
	case retrieval.SymbolType, retrieval.SymbolConst, retrieval.SymbolVar:
	default:
		return nil
	}
	if sym.Object == nil || !sym.Object.Pos().IsValid() {
		return nil
	}
	for _, f := range sym.Package.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Pos() == sym.Object.Pos() {
						return s
					}
				case *ast.ValueSpec:
					if len(s.Names) == 1 && s.Names[0].Pos() == sym.Object.Pos() {
						return s
					}
				}
			}
		}
	}
	return nil
}

// baseDeclNode finds the declaration of the same name as sym in a base
// file: a func or method of the same receiver type, or a type, const or
// var spec declaring only that name.
func baseDeclNode(file *ast.File, sym retrieval.Symbol) ast.Node {
	name := lastPart(sym.Name)
	recv := ""
	if sym.Kind == retrieval.SymbolMethod {
		recv = strings.TrimSuffix(sym.Name, "."+name)
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if sym.Kind != retrieval.SymbolFunc && sym.Kind != retrieval.SymbolMethod || d.Name.Name != name {
				continue
			}
			got := ""
			if d.Recv != nil && len(d.Recv.List) == 1 {
				got = retrieval.ReceiverTypeName(d.Recv.List[0].Type)
			}
			if got == recv {
				return d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if sym.Kind == retrieval.SymbolType && s.Name.Name == name {
						return s
					}
				case *ast.ValueSpec:
					if (sym.Kind == retrieval.SymbolConst && d.Tok == token.CONST || sym.Kind == retrieval.SymbolVar && d.Tok == token.VAR) &&
						len(s.Names) == 1 && s.Names[0].Name == name {
						return s
					}
				}
			}
		}
	}
	return nil
}

// baseFile parses a Go file at base, once per workspace; nil when it is
// unreadable or too broken to parse.
func (r *LiteralMismatch) baseFile(ws *review.Workspace, path string) *driftFile {
	b, err := parsedBase(ws, path)
	if err != nil {
		return nil
	}
	return &driftFile{fset: b.fset, file: b.file}
}

// declLits lists the integer and float literals of a declaration in walk
// order, with what the declaration does with each; those in radix are
// marked.
func declLits(node ast.Node, fset *token.FileSet, radix map[ast.Expr]bool) []codeLit {
	var out []codeLit
	var stack []ast.Node
	ast.Inspect(node, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if b, ok := n.(*ast.BasicLit); ok && (b.Kind == token.INT || b.Kind == token.FLOAT) {
			v := constant.MakeFromLiteral(b.Value, b.Kind, 0)
			if key := numKey(v); key != "" {
				does, why := litContext(b, stack)
				out = append(out, codeLit{key: key, text: b.Value, line: fset.Position(b.Pos()).Line, does: does, why: why, radix: radix[b]})
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

// litContext says what the code around a literal does with it: "compares
// len(id) with 7" and "len(id) < 7".
func litContext(b *ast.BasicLit, stack []ast.Node) (does, why string) {
	if len(stack) == 0 {
		return "holds " + b.Value, b.Value
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.BinaryExpr:
		expr := types.ExprString(p)
		switch p.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
			other := p.X
			if other == ast.Expr(b) {
				other = p.Y
			}
			return "compares " + types.ExprString(other) + " with " + b.Value, expr
		}
		return "computes " + expr, expr
	case *ast.ArrayType:
		expr := types.ExprString(p)
		return "declares " + expr, expr
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r == ast.Expr(b) && len(p.Lhs) == len(p.Rhs) {
				why := types.ExprString(p.Lhs[i]) + " " + p.Tok.String() + " " + b.Value
				return "sets " + why, why
			}
		}
	case *ast.ValueSpec:
		for i, r := range p.Values {
			if r == ast.Expr(b) && i < len(p.Names) {
				why := p.Names[i].Name + " = " + b.Value
				return "sets " + why, why
			}
		}
	case *ast.CaseClause:
		return "has case " + b.Value, "case " + b.Value
	case *ast.ReturnStmt:
		return "returns " + b.Value, "return " + b.Value
	case ast.Expr:
		expr := types.ExprString(p)
		return "uses " + b.Value + " in " + expr, expr
	}
	return "holds " + b.Value, b.Value
}

// constValues returns the keys of every numeric constant value of a head
// declaration: its literals and, with type information, every constant
// expression and named constant it uses ("36 + 2", "maxLen").
//
// Radix arguments (the base parameter of strconv.FormatInt and its kin)
// are left out: a number base is never a count the doc states.
func constValues(node ast.Node, info *types.Info) map[string]bool {
	out := map[string]bool{}
	radix := radixArgs(node, info)
	ast.Inspect(node, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && radix[e] {
			return false
		}
		switch e := n.(type) {
		case *ast.BasicLit:
			if e.Kind == token.INT || e.Kind == token.FLOAT {
				if key := numKey(constant.MakeFromLiteral(e.Value, e.Kind, 0)); key != "" {
					out[key] = true
				}
			}
		case ast.Expr:
			if info == nil {
				return true
			}
			if tv, ok := info.Types[e]; ok && tv.Value != nil {
				if k := tv.Value.Kind(); k == constant.Int || k == constant.Float {
					if key := numKey(tv.Value); key != "" {
						out[key] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// radixArgs returns the arguments of calls in node passed to an integer
// parameter named "base", as strconv.FormatInt(n, 10) passes 10; nil
// without type information.
func radixArgs(node ast.Node, info *types.Info) map[ast.Expr]bool {
	if info == nil {
		return nil
	}
	var out map[ast.Expr]bool
	ast.Inspect(node, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sig, ok := info.TypeOf(call.Fun).(*types.Signature)
		if !ok {
			return true
		}
		for i, a := range call.Args {
			if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
				break
			}
			p := sig.Params().At(i)
			if b, ok := p.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 && p.Name() == "base" {
				if out == nil {
					out = map[ast.Expr]bool{}
				}
				out[a] = true
			}
		}
		return true
	})
	return out
}

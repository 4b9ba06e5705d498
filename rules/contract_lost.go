package rules

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/docreview/docreview/review/prose"
)

// lostKind says which contract a doc sentence states.
type lostKind int

const (
	lostError  lostKind = iota // the function returns an error
	lostPanic                  // the function panics
	lostResult                 // the function returns nil or false on a condition
)

// noun names the contract in a message.
func (k lostKind) noun() string {
	switch k {
	case lostPanic:
		return "panic"
	case lostResult:
		return "failure"
	}
	return "error"
}

var (
	// contractErrRE matches the words of a sentence that states an error
	// contract: error(s), err, fail and its forms, failure(s), a sentinel
	// ("ErrNotFound", "io.EOF" is not one) or an error type name
	// ("SyntaxError").
	contractErrRE = regexp.MustCompile(`(?i:\berr(?:ors?)?\b|\bfail(?:s|ed|ing|ures?)?\b)|\bErr[A-Z]\w*|\b[A-Z]\w*Error\b`)
	// contractPanicRE matches the forms of "panic".
	contractPanicRE = regexp.MustCompile(`(?i)\bpanic(?:s|ked|king)?\b`)
	// contractInvalidRE matches "invalid" stated as a rejection: the
	// sentence also returns or rejects something.
	contractInvalidRE = regexp.MustCompile(`(?i)\binvalid\b`)
	contractRejectRE  = regexp.MustCompile(`(?i)\b(?:returns?|returned|rejects?|rejected)\b`)
	// contractResultRE matches "returns nil" or "returns false"; the
	// sentence must also carry a condition (contractCondRE).
	contractResultRE = regexp.MustCompile(`(?i)\b(?:returns?|returned|reports?)\s+(?:a\s+)?(nil|false)\b`)
	contractCondRE   = regexp.MustCompile(`(?i)\b(?:if|when|unless)\b`)
	// contractNegRE matches a sentence that says the function does not
	// fail: "never returns an error", "does not panic", "a nil error".
	contractNegRE = regexp.MustCompile(`(?i)\b(?:never|not|no|without|cannot)\s+(?:\w+\s+){0,3}?(?:errors?|fail(?:s|ure)?|panics?)\b|n't\s+(?:\w+\s+){0,3}?(?:errors?|fail|panic)\b|\bnil\s+error\b`)
	// contractIdentRE matches the error names a sentence can share with
	// another: sentinels and error types.
	contractIdentRE = regexp.MustCompile(`\b(?:\w+\.)?(?:Err[A-Z]\w*|[A-Z]\w*Error)\b`)
	lostWordRE      = regexp.MustCompile(`[\p{L}\p{N}_]+`)
)

// contractSentence reports whether a sentence states an error, panic or
// failure contract, and which: a panic when it names panic in any form;
// an error when it says error(s), err, fail(s, ed, ing, ure, ures), names a
// sentinel (ErrX) or an error type (XError), or says "invalid" next to
// returns or rejects; a failure result when it says "returns nil" or
// "returns false" with if, when or unless. A sentence that denies the
// contract ("never returns an error", "does not panic", "a nil error") is
// none.
func contractSentence(s string) (lostKind, bool) {
	if contractNegRE.MatchString(s) {
		return 0, false
	}
	switch {
	case contractPanicRE.MatchString(s):
		return lostPanic, true
	case contractErrRE.MatchString(s),
		contractInvalidRE.MatchString(s) && contractRejectRE.MatchString(s):
		return lostError, true
	case contractResultRE.MatchString(s) && contractCondRE.MatchString(s):
		return lostResult, true
	}
	return 0, false
}

// lostBlock is one block of a doc text: lines between blank lines.
type lostBlock struct {
	raw   string // the lines as written
	text  string // the words, one space apart
	prose bool   // no line is indented: not code or a list
}

// lostBlocks splits a doc text into its blocks.
func lostBlocks(doc string) []lostBlock {
	var out []lostBlock
	var cur []string
	flush := func() {
		if len(cur) == 0 {
			return
		}
		b := lostBlock{raw: strings.Join(cur, "\n"), prose: true}
		for _, l := range cur {
			if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
				b.prose = false
			}
		}
		b.text = lostNorm(b.raw)
		out = append(out, b)
		cur = nil
	}
	for l := range strings.SplitSeq(doc, "\n") {
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRight(l, " \t"))
	}
	flush()
	return out
}

// lostNorm collapses white space to single spaces and trims it.
func lostNorm(s string) string { return strings.Join(strings.Fields(s), " ") }

// lostPlace is a sentence of a doc and where it stands.
type lostPlace struct {
	text         string
	block, index int // the prose block and the sentence's place in it
}

// lostProse lists the sentences of a doc's prose blocks.
func lostProse(blocks []lostBlock) []lostPlace {
	var out []lostPlace
	for bi, b := range blocks {
		if !b.prose {
			continue
		}
		for si, s := range prose.SplitSentences(b.text) {
			out = append(out, lostPlace{text: s, block: bi, index: si})
		}
	}
	return out
}

// lostStopWords are left out when sentences are compared by their words.
var lostStopWords = map[string]bool{
	"a": true, "an": true, "the": true, "if": true, "when": true, "unless": true, "is": true, "are": true,
	"be": true, "will": true, "it": true, "its": true, "of": true, "to": true, "in": true, "on": true,
	"or": true, "and": true, "for": true, "by": true, "this": true, "that": true, "does": true, "do": true,
	"not": true, "has": true, "have": true, "was": true, "with": true, "as": true, "at": true, "there": true,
}

// lostContent returns the lower-case words of s that are not stop words.
func lostContent(s string) []string {
	var out []string
	for _, w := range lostWordRE.FindAllString(strings.ToLower(s), -1) {
		if !lostStopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// lostSimilar reports whether h says what s says, reworded a little: both
// name the same sentinels and error types, and at most two or a tenth of
// s's runes are edited or, when h is a contract sentence of the same kind
// (sameKind) and s has at least three content words, 60% of them are
// kept.
func lostSimilar(s, h string, sameKind bool) bool {
	if !slices.Equal(lostIdents(s), lostIdents(h)) {
		return false
	}
	ls, lh := strings.ToLower(s), strings.ToLower(h)
	if len(ls) <= 400 && len(lh) <= 400 {
		if d := prose.EditDistance(ls, lh); d <= 2 || d*10 <= len([]rune(ls)) {
			return true
		}
	}
	sw := lostContent(s)
	if !sameKind || len(sw) < 3 {
		return false
	}
	hw := map[string]bool{}
	for _, w := range lostContent(h) {
		hw[w] = true
	}
	kept := 0
	for _, w := range sw {
		if hw[w] {
			kept++
		}
	}
	return kept*5 >= len(sw)*3
}

// lostIdents returns the sentinels and error types a sentence names,
// sorted, without repeats.
func lostIdents(s string) []string {
	ids := contractIdentRE.FindAllString(s, -1)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// lostCondition returns the content words after a sentence's first if,
// when or unless: the condition it states.
func lostCondition(s string) []string {
	loc := contractCondRE.FindStringIndex(s)
	if loc == nil {
		return nil
	}
	return lostContent(s[loc[1]:])
}

// lostSentence is a contract sentence of the base doc that the head doc
// no longer states.
type lostSentence struct {
	lostPlace
	kind lostKind
}

// lostSentences returns the contract sentences of the base doc that the
// head doc no longer states, in base order. The head states a sentence
// when its text, white space collapsed, still stands anywhere in the head
// doc (a reflow, a move to another paragraph); when a head sentence is
// similar to it ([lostSimilar]: a typo fix, a small rewording); when
// the head has a contract sentence of the same kind that the base doc does
// not (the diff reworded it); and when a head contract sentence of the same
// kind names one of its sentinels or error types or, for a sentence naming
// none, every content word of its condition.
func lostSentences(base, head string) []lostSentence {
	bb, hb := lostBlocks(base), lostBlocks(head)
	var headAll, baseAll []string
	for _, b := range hb {
		headAll = append(headAll, b.text)
	}
	for _, b := range bb {
		baseAll = append(baseAll, b.text)
	}
	headText, baseText := strings.Join(headAll, " "), strings.Join(baseAll, " ")
	if headText == baseText {
		return nil
	}
	type headSentence struct {
		text     string
		kind     lostKind
		contract bool
	}
	var hs []headSentence
	// The kinds of the contract sentences the diff wrote: a rewording,
	// which the rule cannot tell from a loss.
	written := map[lostKind]bool{}
	for _, s := range lostProse(hb) {
		k, ok := contractSentence(s.text)
		hs = append(hs, headSentence{s.text, k, ok})
		if ok && !strings.Contains(baseText, s.text) {
			written[k] = true
		}
	}
	var out []lostSentence
	for _, s := range lostProse(bb) {
		kind, ok := contractSentence(s.text)
		if !ok || written[kind] || strings.Contains(headText, s.text) {
			continue
		}
		stated := false
		idents := contractIdentRE.FindAllString(s.text, -1)
		cond := lostCondition(s.text)
		for _, h := range hs {
			if lostSimilar(s.text, h.text, h.contract && h.kind == kind) {
				stated = true
				break
			}
			if !h.contract || h.kind != kind {
				continue
			}
			if len(idents) > 0 && slices.ContainsFunc(idents, func(id string) bool { return countWord(h.text, lastPart(id)) > 0 }) {
				stated = true
				break
			}
			if len(idents) == 0 && len(cond) > 0 && lostHasWords(h.text, cond) {
				stated = true
				break
			}
		}
		if !stated {
			out = append(out, lostSentence{s, kind})
		}
	}
	return out
}

// lostHasWords reports whether text has every one of words.
func lostHasWords(text string, words []string) bool {
	have := map[string]bool{}
	for _, w := range lostContent(text) {
		have[w] = true
	}
	for _, w := range words {
		if !have[w] {
			return false
		}
	}
	return true
}

// contractSite is a head line that carries a contract: a return of a
// non-nil error, nil or false, or a panic call.
type contractSite struct {
	line int
	expr string // what it returns, or "panic"
}

// maxSiteExpr is the longest expression quoted in a site's evidence.
const maxSiteExpr = 60

// contractSites lists, in source order, the lines of decl's own body (not
// its func literals) that still carry a contract of kind: for an error, a
// return whose error result (a result declared as error) is not the
// literal nil, a return of a call's results, or a bare return when a named
// error result is assigned something other than nil; for a panic, a call
// of the builtin panic when the function does not recover and the panic
// is not marked unreachable; for a failure result, a return with the
// literal nil or false (the word stated) in a result not declared as
// error.
func contractSites(p *retrieval.Package, decl *ast.FuncDecl, sig *types.Signature, kind lostKind, word string) []contractSite {
	info := p.Info
	errT := types.Universe.Lookup("error").Type()
	res := sig.Results()
	var errIdx []int
	for i := range res.Len() {
		if types.Identical(res.At(i).Type(), errT) {
			errIdx = append(errIdx, i)
		}
	}
	if kind == lostError && len(errIdx) == 0 {
		return nil
	}
	if kind == lostPanic && hasRecover(info, decl.Body) {
		return nil
	}
	isConst := func(e ast.Expr, name string) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || id.Name != name {
			return false
		}
		obj := info.Uses[id]
		return obj != nil && obj.Parent() == types.Universe
	}
	// namedErrSet reports whether a named error result is assigned a
	// value other than nil in the body.
	namedErrSet := false
	if kind == lostError {
		named := map[types.Object]bool{}
		for _, i := range errIdx {
			if v := res.At(i); v.Name() != "" && v.Name() != "_" {
				named[v] = true
			}
		}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				_, lit := n.(*ast.FuncLit)
				return !lit
			}
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok || !named[info.ObjectOf(id)] {
					continue
				}
				if len(as.Rhs) != len(as.Lhs) || !isConst(as.Rhs[i], "nil") {
					namedErrSet = true
				}
			}
			return true
		})
	}
	line := func(n ast.Node) int { return p.Fset.Position(n.Pos()).Line }
	short := func(e ast.Expr) string {
		s := types.ExprString(e)
		if len(s) > maxSiteExpr {
			s = s[:maxSiteExpr-3] + "..."
		}
		return s
	}
	var out []contractSite
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case kind == lostError && len(n.Results) == 0:
				if namedErrSet {
					out = append(out, contractSite{line(n), res.At(errIdx[0]).Name()})
				}
			case kind == lostError && len(n.Results) == 1 && res.Len() > 1:
				out = append(out, contractSite{line(n), short(n.Results[0])})
			case kind == lostError && len(n.Results) == res.Len():
				for _, i := range errIdx {
					if !isConst(n.Results[i], "nil") {
						out = append(out, contractSite{line(n), short(n.Results[i])})
						break
					}
				}
			case kind == lostResult && len(n.Results) == res.Len():
				for i, e := range n.Results {
					if !slices.Contains(errIdx, i) && isConst(e, word) {
						out = append(out, contractSite{line(n), word})
						break
					}
				}
			}
		case *ast.CallExpr:
			if kind != lostPanic {
				break
			}
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "panic" {
				if _, ok := info.Uses[id].(*types.Builtin); ok && !unreachable(n) {
					out = append(out, contractSite{line(n), "panic"})
				}
			}
		}
		return true
	})
	return out
}

// maxLostSites is the number of contract lines given as evidence.
const maxLostSites = 3

// lostContract reports a doc comment whose diff removed a sentence stating
// the function's error, panic or failure contract while the function, at
// head, still has it; see [MissingContract]. It returns nil without a base
// (an audit, a new file, a symbol undocumented at base) and when the diff
// does not touch the doc's lines.
func (r *MissingContract) lostContract(ws *review.Workspace, c review.Claim, sym retrieval.Symbol, decl *ast.FuncDecl, sig *types.Signature) *review.Verdict {
	old, ok := baseDoc(ws, c)
	if !ok {
		return nil
	}
	f, changed := headChange(ws, c.Path)
	if !changed {
		return nil
	}
	hunk, ok := lostHunk(f, c)
	if !ok {
		return nil
	}
	for _, ls := range lostSentences(old, c.Text) {
		word := ""
		if ls.kind == lostResult {
			word = strings.ToLower(contractResultRE.FindStringSubmatch(ls.text)[1])
		}
		sites := contractSites(sym.Package, decl, sig, ls.kind, word)
		if len(sites) == 0 {
			continue
		}
		sites = lostRank(sites, ls.text)
		v := &review.Verdict{Label: review.Incomplete, Rule: r.Name(), Confidence: 0.8}
		verb := "returns errors"
		switch ls.kind {
		case lostPanic:
			verb = "panics"
		case lostResult:
			verb = "returns " + word
		}
		v.Message = fmt.Sprintf("The doc no longer states the %s contract that this diff removed: %q; %s still %s (line %d).",
			ls.kind.noun(), ls.text, c.Symbol, verb, sites[0].line)
		for _, s := range sites[:min(len(sites), maxLostSites)] {
			why := "returns " + s.expr
			if ls.kind == lostPanic {
				why = "panics"
			}
			v.Evidence = append(v.Evidence, review.Evidence{
				Path: sym.Path, StartLine: s.line, EndLine: s.line, Source: review.SourceCode,
				Why: why, Hops: []string{c.Symbol, s.expr},
			})
		}
		hunk.Why = fmt.Sprintf("the diff removes %q from the doc of %s", ls.text, c.Symbol)
		hunk.Hops = []string{c.Symbol + " (doc)", "diff"}
		v.Evidence = append(v.Evidence, hunk)
		if lostSameResults(ws, f, decl) {
			v.Suggestion = restoreSentence(old, c.Text, ls.lostPlace)
		}
		return v
	}
	return nil
}

// lostRank puts first the sites whose returned expression names an error
// the sentence names, keeping source order otherwise.
func lostRank(sites []contractSite, sentence string) []contractSite {
	idents := contractIdentRE.FindAllString(sentence, -1)
	named := func(s contractSite) bool {
		return slices.ContainsFunc(idents, func(id string) bool { return countWord(s.expr, lastPart(id)) > 0 })
	}
	out := make([]contractSite, 0, len(sites))
	for _, s := range sites {
		if named(s) {
			out = append(out, s)
		}
	}
	for _, s := range sites {
		if !named(s) {
			out = append(out, s)
		}
	}
	return out
}

// lostHunk is the diff evidence of a doc edit: the head lines of the doc
// that the diff adds, and those on either side of a removal, from the
// first to the last. It reports false when the diff touches none.
func lostHunk(f diff.File, c review.Claim) (review.Evidence, bool) {
	from, to := 0, 0
	add := func(l int) {
		if l < c.Line || l > c.EndLine {
			return
		}
		if from == 0 || l < from {
			from = l
		}
		to = max(to, l)
	}
	for _, a := range f.Added {
		for l := max(a.Start, c.Line); l <= min(a.End, c.EndLine); l++ {
			add(l)
		}
	}
	for _, p := range f.RemovedBefore {
		add(p - 1)
		add(p)
	}
	if from == 0 {
		return review.Evidence{}, false
	}
	return review.Evidence{Path: c.Path, StartLine: from, EndLine: to, Source: review.SourceDiff}, true
}

// lostSameResults reports whether decl's results are, type for type, those
// of its declaration at base: then a sentence about them still reads
// true. It is false when the base file does not parse or lacks the
// declaration.
func lostSameResults(ws *review.Workspace, f diff.File, decl *ast.FuncDecl) bool {
	old := f.OldPath
	if old == "" || ws.BaseFS == nil {
		return false
	}
	base, err := parsedBase(ws, old)
	if err != nil {
		return false
	}
	file := base.file
	recv := ""
	if decl.Recv != nil && len(decl.Recv.List) == 1 {
		recv = retrieval.ReceiverTypeName(decl.Recv.List[0].Type)
	}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != decl.Name.Name || (fd.Recv == nil) != (decl.Recv == nil) {
			continue
		}
		if fd.Recv != nil && (len(fd.Recv.List) != 1 || retrieval.ReceiverTypeName(fd.Recv.List[0].Type) != recv) {
			continue
		}
		return slices.Equal(lostResults(fd.Type), lostResults(decl.Type))
	}
	return false
}

// lostResults lists a function type's result types, one per result.
func lostResults(ft *ast.FuncType) []string {
	var out []string
	if ft.Results == nil {
		return nil
	}
	for _, f := range ft.Results.List {
		t := types.ExprString(f.Type)
		for range max(len(f.Names), 1) {
			out = append(out, t)
		}
	}
	return out
}

// restoreSentence returns the head doc with the lost sentence put back
// where it stood at base: after the sentence that preceded it, else before
// the one that followed it, else, when its whole paragraph went, as a
// paragraph after the paragraph that preceded it or before the one that
// followed it. The lines of the paragraph from the one where it goes in
// are wrapped again at the longest prose line of the two docs. It returns "" when no neighbour survives at head.
func restoreSentence(base, head string, s lostPlace) string {
	bb, hb := lostBlocks(base), lostBlocks(head)
	if s.block >= len(bb) {
		return ""
	}
	bs := prose.SplitSentences(bb[s.block].text)
	width := 0
	for _, b := range slices.Concat(bb, hb) {
		if b.prose {
			for l := range strings.SplitSeq(b.raw, "\n") {
				width = max(width, len(l))
			}
		}
	}
	if width < 40 {
		width = 76
	}
	// edit inserts ins at byte at of block i's text; the lines before the
	// one holding at stay as they are.
	edit := func(i, at int, ins string) string {
		lines := strings.Split(hb[i].raw, "\n")
		start := 0 // where line k starts in the block's text
		k := 0
		for k+1 < len(lines) {
			next := start + len(lostNorm(lines[k])) + 1
			if next > at {
				break
			}
			start, k = next, k+1
		}
		text := hb[i].text
		rest := text[start:at] + ins + text[at:]
		out := slices.Clone(hb)
		out[i] = lostBlock{raw: strings.Join(append(lines[:k:k], lostWrap(rest, width)), "\n"), prose: true}
		return lostRender(out, head)
	}
	if s.index > 0 {
		prev := bs[s.index-1]
		for i, b := range hb {
			if j := lostAt(b, prev); b.prose && j >= 0 {
				return edit(i, j+len(prev), " "+s.text)
			}
		}
	}
	if s.index+1 < len(bs) {
		next := bs[s.index+1]
		for i, b := range hb {
			if j := lostAt(b, next); b.prose && j >= 0 {
				return edit(i, j, s.text+" ")
			}
		}
	}
	if len(bs) != 1 {
		return ""
	}
	para := lostBlock{raw: lostWrap(s.text, width), text: s.text, prose: true}
	insert := func(at int) string {
		return lostRender(slices.Insert(slices.Clone(hb), at, para), head)
	}
	if s.block > 0 {
		for i, b := range hb {
			if b.text == bb[s.block-1].text {
				return insert(i + 1)
			}
		}
	}
	if s.block+1 < len(bb) {
		for i, b := range hb {
			if b.text == bb[s.block+1].text {
				return insert(i)
			}
		}
	}
	return ""
}

// lostAt returns where sentence s starts in block b as a whole
// sentence (at the start or after a space, and ending the block or
// followed by a space), or -1.
func lostAt(b lostBlock, s string) int {
	for from := 0; from < len(b.text); {
		j := strings.Index(b.text[from:], s)
		if j < 0 {
			return -1
		}
		j += from
		end := j + len(s)
		if (j == 0 || b.text[j-1] == ' ') && (end == len(b.text) || b.text[end] == ' ') {
			return j
		}
		from = j + 1
	}
	return -1
}

// lostWrap fills words into lines of at most width bytes; a longer word
// stands alone on its line.
func lostWrap(text string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// lostRender joins blocks into a doc text, blank lines between them,
// ending in a newline when like does.
func lostRender(blocks []lostBlock, like string) string {
	raws := make([]string, len(blocks))
	for i, b := range blocks {
		raws[i] = b.raw
	}
	out := strings.Join(raws, "\n\n")
	if strings.HasSuffix(like, "\n") {
		out += "\n"
	}
	return out
}

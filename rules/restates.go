package rules

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

var _ review.Judge = (*RestatesName)(nil)

// RestatesName is the restates-name rule: the doc comment of an exported
// func, method or type is one sentence that, once stop words and the words
// of the symbol's name (and its receiver type's) are removed, says nothing
// at all ("Close closes the store."). It labels the claim incomplete and
// says what a complete doc would state, derived from the declaration.
//
// Words are compared after light stemming, and a receiver type's words
// count as the name only in a run that ends the type's name ("the cache",
// "the big cache" for BigCache; not "updated" in UpdateBuilder's "Table
// sets the table to be updated."). Content whatever its words is: a quoted
// literal, a number, an identifier other than the names, a capitalised
// exported identifier of the package (a package-level name, or a field or
// method of one of its types) whose words are not all words of the names
// ("Sync" in "SetError sets the error that the Sync method will return.",
// although Syncer stems to sync), and "as" followed by a type name, a
// conversion ("Uintptr returns the pointer as a uintptr.").
//
// Exempt are funcs and methods other than Close whose body decides nothing
// ([decides]: no if, switch or select statement and no panic), trivial accessors (a method without parameters returning one
// value whose body is just "return x.field", or one return statement of the
// method's own name as type, as in Version() Version; and a func or method named
// Get…, Is… or Has… whose body is one return statement), funcs and methods
// without parameters whose only results are errors that every return
// statement gives as the literal nil, String and Error methods, unexported
// symbols, consts, vars and struct fields, and deprecation notes, unless
// this diff reduced a doc that said more to a restatement. An error result
// that is always nil is left out of the advice too: it has no contract to
// state. It never suggests text: what is missing is not certain.
//
// In an audit ([review.ScopeAll]) the rule is silent unless Audit is set:
// a restatement that predates the review is old debt, and of the 14 such
// findings hand-judged in audits of real modules none was a gap the
// maintainers would fix ("ReadInt read int", "MaxCost returns the max cost
// of the cache"). Diff reviews still report the docs a change adds or
// reduces to a restatement.
// The zero value is ready to use and safe for concurrent use.
type RestatesName struct {
	// Audit makes the rule report restatements in --scope all audits too.
	Audit bool
}

// Name returns "restates-name".
func (*RestatesName) Name() string { return "restates-name" }

// Judge reports a doc comment that only restates its symbol's name, or nil.
func (r *RestatesName) Judge(_ context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Scope == review.ScopeAll && !r.Audit {
		return nil, nil
	}
	if ws.Symbols == nil || c.Kind != review.KindDocComment || c.Symbol == "" ||
		strings.HasPrefix(c.Symbol, "package ") || !exportedPath(c.Symbol) || isDeprecated(c.Text) {
		return nil, nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || !sym.Exported || sym.Path == "" || sym.Line < 1 {
		return nil, nil
	}
	// A doc that this diff reduced to a restatement lost what it said,
	// whatever the symbol: the exemptions below are for docs written
	// that way.
	old, hadBase := baseDoc(ws, c)
	voc := vocabulary{names: []string{c.Symbol}}
	if sym.Package != nil {
		voc.pkg = sym.Package.Types
	}
	// Fewer words, not only other ones: fixing a typo ("the mionr
	// version") keeps a restatement a restatement.
	reduced := hadBase && len(wordRE.FindAllString(old, -1)) > len(wordRE.FindAllString(c.Text, -1))+1 &&
		(sentences(old) > 1 || len(voc.baseResidue(old)) > 0)
	var decl *ast.FuncDecl
	switch sym.Kind {
	case "func", "method":
		if decl = funcDecl(sym); decl == nil {
			return nil, nil
		}
		if reduced {
			break
		}
		if name := lastPart(c.Symbol); sym.Kind == "method" && (name == "String" || name == "Error") || isTrivialAccessor(decl) {
			return nil, nil
		}
		if !decides(decl) && lastPart(c.Symbol) != "Close" &&
			(strings.HasPrefix(decl.Name.Name, "New") || len(vocabulary{names: []string{lastPart(c.Symbol)}, pkg: voc.pkg}.residue(c.Text)) > 0) {
			// Straight-line code (assignments, calls, loops without
			// conditions) has no case the name leaves open, so a doc
			// that says what the name applies to is enough: audits of
			// real modules judge "ClientID returns the set client id"
			// or "MaxCost returns the max cost of the cache" complete.
			// A doc of the name's words alone ("Count returns the
			// count.") still says nothing. Close is the exception: what
			// a closed value still does, and whether closing twice is
			// safe, is never in its name.
			return nil, nil
		}
		if decl.Recv == nil && strings.HasPrefix(decl.Name.Name, "New") && decl.Type.Params.NumFields() == 0 {
			// A constructor without parameters has only its result to
			// describe, and its name already does.
			return nil, nil
		}
	case "type":
	default:
		return nil, nil
	}
	if decl != nil && decl.Recv == nil && strings.HasPrefix(decl.Name.Name, "New") {
		// A constructor's result type is part of its name's meaning:
		// "New returns a new Store" says no more than "New".
		for _, r := range fields(decl.Type.Results) {
			voc.names = append(voc.names, strings.TrimLeft(r.typ, "*[]"))
		}
	}
	if sentences(c.Text) != 1 || len(voc.residue(c.Text)) > 0 {
		return nil, nil
	}
	if sym.Kind == "method" && implementsDocumented(ws.Symbols, sym) {
		// The interface's doc carries the contract; restating it on every
		// implementation adds nothing.
		return nil, nil
	}
	if hadBase && sentences(old) == 1 && len(voc.baseResidue(old)) == 0 {
		// The doc restated the name before the diff: old debt, which a
		// review of the diff leaves to --scope all.
		return nil, nil
	}
	start, end := lineRange(sym.Line, sym.EndLine)
	var what, shape string
	if decl != nil {
		var settled bool
		if what, shape, settled = funcAdvice(c.Symbol, decl); settled && !reduced {
			// Only an error result that is always nil: the name
			// leaves no contract open.
			return nil, nil
		}
	} else {
		if typeDocumentedElsewhere(ws.Symbols, c.Package, sym) {
			return nil, nil
		}
		what, shape = typeAdvice(sym)
	}
	msg := fmt.Sprintf("Doc comment of %s only restates its name; state %s.", c.Symbol, what)
	if reduced {
		msg = fmt.Sprintf("Doc comment of %s only restates its name since this diff removed the rest of it; state %s.", c.Symbol, what)
	}
	v := &review.Verdict{
		Label:      review.Incomplete,
		Rule:       r.Name(),
		Message:    msg,
		Confidence: 0.7,
		Evidence: []review.Evidence{{
			Path: sym.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
			Why:  fmt.Sprintf("declaration of %s: %s", c.Symbol, shape),
			Hops: []string{c.Symbol + " (doc)", c.Symbol},
		}},
	}
	if reduced {
		v.Evidence = append(v.Evidence, review.Evidence{
			Path: c.Path, StartLine: c.Line, EndLine: c.EndLine, Source: review.SourceDiff,
			Why:  "this diff removed from the doc: " + removedText(old, c.Text),
			Hops: []string{c.Symbol + " (doc)", "diff " + c.Path},
		})
	}
	return v, nil
}

// stopWords carry no information about a symbol beyond its name.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "that": true, "these": true, "those": true,
	"is": true, "are": true, "was": true, "be": true, "been": true, "it": true, "its": true,
	"of": true, "for": true, "to": true, "in": true, "on": true, "at": true, "by": true, "with": true,
	"from": true, "as": true, "and": true, "or": true, "into": true,
	"returns": true, "return": true, "returned": true, "gets": true, "get": true, "sets": true, "set": true,
	"new": true, "creates": true, "create": true, "makes": true, "make": true, "given": true,
	"specified": true, "provided": true, "method": true, "function": true, "func": true,
	"type": true, "struct": true, "represents": true, "represent": true, "holds": true, "describes": true,
	"does": true, "do": true, "will": true, "simply": true, "just": true,
	"reports": true, "report": true, "whether": true,
}

var (
	wordRE   = regexp.MustCompile(`[\p{L}\p{N}_]+`)
	quotedRE = regexp.MustCompile(`"[^"\n]+"`)
)

// vocabulary is what a doc comment is measured against: the symbol's
// names and, when known, its package.
type vocabulary struct {
	// names are the symbol's qualified name ("Store.Close") and other
	// names its doc may restate (a constructor's result types).
	names []string
	// pkg is the symbol's type-checked package; nil leaves out the
	// package's identifiers and types.
	pkg *types.Package
}

// residue is [vocabulary.residue] with names only.
func residue(text string, names ...string) []string {
	return vocabulary{names: names}.residue(text)
}

// residue returns the words of text that are neither stop words nor words
// of the names, compared after light stemming. The words of the last part
// of a name (close of "Store.Close") count wherever they stand; the words
// of a receiver type (store) only in a run of words that ends its name
// ("cache" or "big cache" for BigCache, not "big" alone, nor "updated" for
// UpdateBuilder), since elsewhere they do not refer to the receiver.
// Content as a whole are: quoted literals; numbers; identifiers other than
// the names ("BoolType", "[Transformer]"); a capitalised word that is an
// exported identifier declared in the package, as a package-level name or
// a field or method of one of its types, unless its words are words of the
// names ("Sync" on Syncer.SetError, not "Level" on SetLevel); and "as"
// followed by a type name, predeclared or the package's, a conversion
// ("as a uintptr"), whatever the type's name.
func (v vocabulary) residue(text string) []string {
	// known: stems of words that count anywhere; recvKnown: stems of
	// receiver words; anyKnown: both; exact: every word of the names,
	// unstemmed; whole: the names and their parts, lower case.
	known, recvKnown, anyKnown := map[string]bool{}, map[string]bool{}, map[string]bool{}
	exact, whole := map[string]bool{}, map[string]bool{}
	var recvs [][]string // the stems of each receiver type's words, in order
	for _, n := range v.names {
		whole[strings.ToLower(n)] = true
		parts := strings.Split(n, ".")
		for i, part := range parts {
			whole[strings.ToLower(part)] = true
			isRecv := i < len(parts)-1
			var stems []string
			for _, w := range prose.Words(part) {
				st := stem(w)
				exact[w], anyKnown[st] = true, true
				if isRecv {
					recvKnown[st] = true
				} else {
					known[st] = true
				}
				stems = append(stems, st)
			}
			if isRecv {
				recvs = append(recvs, stems)
			}
		}
	}
	idents := map[string]bool{}
	for _, l := range prose.DocLinks(text) {
		for tok := range strings.SplitSeq(l.Name, ".") {
			idents[tok] = true
		}
	}
	// A quoted literal ("restates-name", "30s") is content, whatever its
	// words.
	quoted := quotedRE.FindAllString(text, -1)
	text = quotedRE.ReplaceAllString(text, " ")

	// Each word of the text, in order: content, or not, or a receiver
	// word decided once the runs are known. Only words split from prose
	// have a stem.
	type word struct {
		text, stem string
		state      int
	}
	const (
		dropped = iota
		content
		receiver
	)
	var seq []word
	toks := wordRE.FindAllString(text, -1)
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		if strings.EqualFold(tok, "as") && i+1 < len(toks) {
			j := i + 1
			for j < len(toks)-1 && isArticle(toks[j]) {
				j++
			}
			if v.isTypeName(toks[j]) {
				// "the pointer as a uintptr": the result is something
				// converted, which a name does not say.
				seq = append(seq, word{text: "as " + toks[j], state: content})
				i = j
				continue
			}
		}
		if !whole[strings.ToLower(tok)] && unicode.IsUpper([]rune(tok)[0]) && !allIn(prose.Words(tok), exact) && v.declares(tok) {
			seq = append(seq, word{text: tok, state: content})
			continue
		}
		if strings.ContainsAny(tok, "0123456789") {
			// "30s", "utf8": a number or unit says something, unless
			// the name says it already ("float64" of GetFloat64).
			w := word{text: strings.ToLower(tok)}
			if !whole[strings.ToLower(tok)] && !allKnown(prose.Words(tok), anyKnown) {
				w.state = content
			}
			seq = append(seq, w)
			continue
		}
		if identShaped(tok) || idents[tok] {
			w := word{text: tok}
			if !whole[strings.ToLower(tok)] {
				w.state = content
			}
			seq = append(seq, w)
			continue
		}
		for _, w := range prose.Words(tok) {
			st := stem(w)
			switch {
			case stopWords[w]:
				seq = append(seq, word{text: w, stem: st, state: dropped})
			case known[st]:
				seq = append(seq, word{text: w, stem: st, state: dropped})
			case recvKnown[st]:
				seq = append(seq, word{text: w, stem: st, state: receiver})
			default:
				seq = append(seq, word{text: w, stem: st, state: content})
			}
		}
	}
	// A receiver word names the receiver only within a run of words that
	// ends the receiver type's name: for BigCache, "big cache" or "cache".
	stems := make([]string, len(seq))
	for i, w := range seq {
		stems[i] = w.stem
	}
	for _, r := range recvs {
		for k := range r {
			for i := 0; i+len(r)-k <= len(seq); i++ {
				if !slices.Equal(stems[i:i+len(r)-k], r[k:]) {
					continue
				}
				for n := i; n < i+len(r)-k; n++ {
					if seq[n].state == receiver {
						seq[n].state = dropped
					}
				}
			}
		}
	}
	rest := quoted
	for _, w := range seq {
		if w.state != dropped {
			rest = append(rest, w.text)
		}
	}
	return rest
}

// isArticle reports whether w is an English article.
func isArticle(w string) bool {
	switch strings.ToLower(w) {
	case "a", "an", "the":
		return true
	}
	return false
}

// isTypeName reports whether w names a predeclared type or a type declared
// in the package.
func (v vocabulary) isTypeName(w string) bool {
	if _, ok := types.Universe.Lookup(w).(*types.TypeName); ok {
		return true
	}
	if v.pkg == nil {
		return false
	}
	_, ok := v.pkg.Scope().Lookup(w).(*types.TypeName)
	return ok
}

// declares reports whether name is an exported identifier declared in the
// package: a package-level name, or a field or method of one of its types
// (promoted ones included).
func (v vocabulary) declares(name string) bool {
	if v.pkg == nil || !token.IsExported(name) {
		return false
	}
	scope := v.pkg.Scope()
	if scope.Lookup(name) != nil {
		return true
	}
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, v.pkg, name); obj != nil {
			return true
		}
	}
	return false
}

// allIn reports whether every word is in set, as it is.
func allIn(words []string, set map[string]bool) bool {
	for _, w := range words {
		if !set[w] {
			return false
		}
	}
	return len(words) > 0
}

// removedText returns the sentences of old that new does not contain,
// on one line.
func removedText(old, new string) string {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	n := norm(new)
	var out []string
	for _, sen := range prose.SplitSentences(old) {
		if sen = norm(sen); !strings.Contains(n, sen) {
			out = append(out, sen)
		}
	}
	if len(out) == 0 {
		return norm(old)
	}
	return strings.Join(out, " ")
}

// baseResidue is the residue of a doc at base, less the misspellings of
// the names' words ("cuont" in "Count returns the cuont."): a typo fix
// does not turn a restatement into a new one.
func (v vocabulary) baseResidue(text string) []string {
	var words []string
	for _, n := range v.names {
		words = append(words, prose.Words(n)...)
	}
	var out []string
	for _, w := range v.residue(text) {
		typo := false
		for _, n := range words {
			if len(n) >= 4 && prose.EditDistance(strings.ToLower(w), n) <= max(1, len(n)/4) {
				typo = true
				break
			}
		}
		if !typo {
			out = append(out, w)
		}
	}
	return out
}

// allKnown reports whether every word is, by its stem, in known.
func allKnown(words []string, known map[string]bool) bool {
	for _, w := range words {
		if !known[stem(w)] {
			return false
		}
	}
	return len(words) > 0
}

// stem strips one common English suffix and a final e, so that close,
// closes, closed, closing and closer all give "clos". Words it would cut
// below three letters are kept whole.
func stem(w string) string {
	for _, suf := range []string{"ing", "ies", "es", "ed", "er", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-len(suf)]
			if suf == "ies" {
				w += "y"
			}
			break
		}
	}
	if len(w) > 3 {
		w = strings.TrimSuffix(w, "e")
	}
	return w
}

// sentences counts the sentences of a doc text ([prose.Sentences]); a
// text with several paragraphs counts as several.
func sentences(text string) int {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0
	}
	if strings.Contains(text, "\n\n") {
		return 2
	}
	return len(prose.Sentences(text))
}

// isDeprecated reports whether the doc carries a deprecation notice.
func isDeprecated(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "Deprecated:") {
			return true
		}
	}
	return false
}

// funcSignature returns the signature of the func or method symbol of
// package dir; false for any other symbol.
func funcSignature(syms *retrieval.Symbols, dir, symbol string) (*types.Signature, bool) {
	sym, ok := syms.Lookup(dir, symbol)
	if !ok || sym.Object == nil {
		return nil, false
	}
	fn, ok := sym.Object.(*types.Func)
	if !ok {
		return nil, false
	}
	sig, ok := fn.Type().(*types.Signature)
	return sig, ok
}

// funcDecl finds the declaration of a func or method symbol in its
// package's syntax.
func funcDecl(sym retrieval.Symbol) *ast.FuncDecl {
	p := sym.Package
	if p == nil || p.Fset == nil {
		return nil
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name == nil {
				continue
			}
			if sym.Object != nil && sym.Object.Pos().IsValid() {
				if fd.Name.Pos() == sym.Object.Pos() {
					return fd
				}
				continue
			}
			pos := p.Fset.Position(fd.Name.Pos())
			if pos.Line >= sym.Line && pos.Line <= max(sym.Line, sym.EndLine) && strings.HasSuffix(pos.Filename, sym.Path) &&
				fd.Name.Name == lastPart(sym.Name) {
				return fd
			}
		}
	}
	return nil
}

// isTrivialAccessor reports whether a declaration's name is its whole
// contract: a method with no parameters and one result whose body is
// "return recv.field", or a func or method named Get…, Is… or Has… whose
// body is a single return statement.
func isTrivialAccessor(fd *ast.FuncDecl) bool {
	if fd.Body == nil || len(fd.Body.List) != 1 {
		return false
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok {
		return false
	}
	name := fd.Name.Name
	for _, p := range []string{"Get", "Is", "Has"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || unicode.IsUpper([]rune(rest)[0])) {
			return true
		}
	}
	if fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Type.Params.NumFields() != 0 ||
		fd.Type.Results.NumFields() != 1 || len(ret.Results) != 1 {
		return false
	}
	// Version() Version: the result's own type documents what it holds,
	// and the body is a single expression, so the name is the contract.
	if t, ok := stripStar(fd.Type.Results.List[0].Type).(*ast.Ident); ok && t.Name == name {
		return true
	}
	// return recv.field, or recv.a.b: a field reached from the receiver.
	e, ok := ret.Results[0].(*ast.SelectorExpr)
	if !ok {
		return false
	}
	var x ast.Expr = e
	for {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			break
		}
		x = sel.X
	}
	id, ok := x.(*ast.Ident)
	names := fd.Recv.List[0].Names
	return ok && len(names) == 1 && id.Name == names[0].Name
}

func stripStar(e ast.Expr) ast.Expr {
	if st, ok := e.(*ast.StarExpr); ok {
		return st.X
	}
	return e
}

// param is one parameter or result of a declaration.
type param struct{ name, typ string }

func fields(fl *ast.FieldList) []param {
	var out []param
	if fl == nil {
		return out
	}
	for _, f := range fl.List {
		typ := types.ExprString(f.Type)
		if len(f.Names) == 0 {
			out = append(out, param{typ: typ})
			continue
		}
		for _, n := range f.Names {
			out = append(out, param{name: n.Name, typ: typ})
		}
	}
	return out
}

// funcAdvice derives from a declaration what its doc should state, and a
// short description of its shape for the evidence. An error result that
// every return statement gives as nil ([errorAlwaysNil]) has no contract
// to state; settled reports that it was all the declaration had (no
// parameters, no other results), so that there is nothing to state.
func funcAdvice(symbol string, fd *ast.FuncDecl) (what, shape string, settled bool) {
	params, results := fields(fd.Type.Params), fields(fd.Type.Results)
	var parts, named, takes, gives []string
	hasCtx := false
	for _, p := range params {
		takes = append(takes, strings.TrimSpace(p.name+" "+p.typ))
		switch {
		case p.typ == "context.Context":
			hasCtx = true
		case p.name != "" && p.name != "_":
			named = append(named, p.name)
		default:
			named = append(named, "its "+p.typ+" argument")
		}
	}
	if lastPart(symbol) == "Close" {
		parts = append(parts, "what it releases", "whether it is safe to call twice")
	}
	if len(named) > 0 {
		parts = append(parts, "what "+joinAnd(named)+" must hold")
	}
	if hasCtx {
		parts = append(parts, "what happens when ctx is cancelled")
	}
	var values []string
	returnsErr, nilErr := false, errorAlwaysNil(fd)
	for _, r := range results {
		if r.typ == "error" && nilErr {
			gives = append(gives, "error (always nil)")
		} else {
			gives = append(gives, r.typ)
		}
		switch r.typ {
		case "error":
			returnsErr = !nilErr
		case "bool":
			parts = append(parts, "when it reports true")
		default:
			values = append(values, r.typ)
		}
	}
	if len(values) > 0 {
		parts = append(parts, "what the returned "+joinAnd(values)+" holds")
	}
	if returnsErr {
		parts = append(parts, "when it returns an error")
	}
	if len(parts) == 0 {
		settled = nilErr
		parts = append(parts, "what it does and which state it changes")
	}
	shape = "takes no arguments"
	if len(takes) > 0 {
		shape = "takes " + strings.Join(takes, ", ")
	}
	if len(gives) > 0 {
		shape += "; returns " + strings.Join(gives, ", ")
	} else {
		shape += "; returns nothing"
	}
	return joinAnd(parts), shape, settled
}

// errorAlwaysNil reports whether fd has an error result that no return
// statement sets: there is at least one return statement, and every one
// lists all results with the literal nil for each error. A bare return of
// named results and "return f()" may set it; the return statements of
// function literals are their own.
func errorAlwaysNil(fd *ast.FuncDecl) bool {
	results := fields(fd.Type.Results)
	var errs []int
	for i, r := range results {
		if r.typ == "error" {
			errs = append(errs, i)
		}
	}
	if len(errs) == 0 || fd.Body == nil {
		return false
	}
	returns, ok := 0, true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns++
			if len(n.Results) != len(results) {
				ok = false
				break
			}
			for _, i := range errs {
				if id, isIdent := n.Results[i].(*ast.Ident); !isIdent || id.Name != "nil" {
					ok = false
				}
			}
		}
		return ok
	})
	return ok && returns > 0
}

// typeAdvice says what the doc of a type should state.
func typeAdvice(sym retrieval.Symbol) (what, shape string) {
	name := lastPart(sym.Name)
	var under types.Type
	if sym.Object != nil {
		under = sym.Object.Type().Underlying()
	}
	switch u := under.(type) {
	case *types.Struct:
		return fmt.Sprintf("what %s holds or stands for, whether its zero value is ready to use, and whether it is safe for concurrent use", article(name)),
			"struct with " + count(u.NumFields(), "field")
	case *types.Interface:
		return fmt.Sprintf("what implementations of %s must guarantee and who calls them", name),
			"interface with " + count(u.NumMethods(), "method")
	case nil:
		return fmt.Sprintf("what %s stands for and which values are valid", article(name)), "type"
	default:
		return fmt.Sprintf("what %s stands for and which values are valid", article(name)),
			"defined as " + types.TypeString(u, func(*types.Package) string { return "" })
	}
}

// count formats n things: "1 field", "3 fields".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// article prefixes a type name with "a" or "an", by its first letter.
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// implementsDocumented reports whether method sym implements a method of an
// interface declared in the module whose own doc comment is not empty.
func implementsDocumented(syms *retrieval.Symbols, sym retrieval.Symbol) bool {
	fn, ok := sym.Object.(*types.Func)
	if !ok {
		return false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if _, isPtr := t.(*types.Pointer); !isPtr {
		t = types.NewPointer(t)
	}
	for _, p := range syms.Packages() {
		if p.Types == nil {
			continue
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || iface.NumMethods() == 0 || !types.Implements(t, iface) {
				continue
			}
			for m := range iface.Methods() {
				if m.Name() != fn.Name() {
					continue
				}
				if is, ok := syms.Lookup(p.Dir, name+"."+m.Name()); ok && strings.TrimSpace(is.Doc) != "" {
					return true
				}
			}
		}
	}
	return false
}

// decides reports whether a function makes a decision a doc could have to
// state: an if, switch, type switch or select statement, or a call of
// panic, anywhere in its body (function literals included). A guard that
// only returns when the receiver is nil ("if nc == nil { return }") is no
// decision: it makes a nil receiver harmless, which no doc is asked to say.
func decides(fd *ast.FuncDecl) bool {
	if fd.Body == nil {
		return false // implemented outside Go
	}
	recv := ""
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recv = fd.Recv.List[0].Names[0].Name
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			if !nilReceiverGuard(n, recv) {
				found = true
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			found = true
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "panic" {
				found = true
			}
		}
		return !found
	})
	return found
}

// nilReceiverGuard reports whether s is "if recv == nil { return ... }"
// with no init statement and no else branch.
func nilReceiverGuard(s *ast.IfStmt, recv string) bool {
	if recv == "" || s.Init != nil || s.Else != nil || len(s.Body.List) != 1 {
		return false
	}
	if _, ok := s.Body.List[0].(*ast.ReturnStmt); !ok {
		return false
	}
	b, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	x, okX := b.X.(*ast.Ident)
	y, okY := b.Y.(*ast.Ident)
	return okX && okY && x.Name == recv && y.Name == "nil"
}

// typeDocumentedElsewhere reports whether a type's contract is written
// where its doc does not need to repeat it: a struct whose exported fields
// (one or more) all have doc comments, as configuration structs do
// ("ObjectStoreConfig is the config for the object store." above a field
// list that documents each option), or a defined non-struct type with two
// or more constants of it declared in its package, which list the valid
// values.
func typeDocumentedElsewhere(syms *retrieval.Symbols, pkg string, sym retrieval.Symbol) bool {
	tn, ok := sym.Object.(*types.TypeName)
	if !ok {
		return false
	}
	switch u := tn.Type().Underlying().(type) {
	case *types.Struct:
		exported := 0
		for f := range u.Fields() {
			if !f.Exported() {
				continue
			}
			exported++
			fs, ok := syms.Lookup(pkg, tn.Name()+"."+f.Name())
			if !ok || strings.TrimSpace(fs.Doc) == "" {
				return false
			}
		}
		return exported > 0
	case *types.Interface:
		return false
	}
	if tn.Pkg() == nil {
		return false
	}
	consts := 0
	scope := tn.Pkg().Scope()
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), tn.Type()) {
			consts++
		}
	}
	return consts >= 2
}

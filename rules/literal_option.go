package rules

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the option half of the literal-mismatch rule: the doc of
// a func or method that sets one struct field from its parameter (an
// option func, "func WithLimit(n int) Option { return func(o *options) {
// o.limit = n } }", or a setter) states the default that applies when it
// is not called, and the package gives that field another one.

// judgeOption reports a default stated in the doc of an option func or
// setter that the default of the field it sets contradicts, and a number
// without a unit that a field's doc states as its default ("Defaults to
// 8080.") and the field's default contradicts; nil when there is none.
func (r *LiteralMismatch) judgeOption(ws *review.Workspace, c review.Claim) *review.Verdict {
	// A field's own doc is read here for the numbers without a unit
	// ("Defaults to 8080."), which judgeBound does not read.
	_, field, ok := claimField(ws, c)
	if !ok {
		return nil
	}
	site, ok := r.fieldDefault(ws, field)
	if !ok {
		return nil
	}
	for _, sent := range prose.SplitSentences(c.Text) {
		if driftHistoryRE.MatchString(sent) {
			continue
		}
		for _, lit := range defaultValues(ws, sent, site) {
			if v := r.compare(c, field.Name, lit, site); v != nil {
				return v
			}
		}
		if v := r.compareString(c, field.Name, sent, site); v != nil {
			return v
		}
	}
	return nil
}

// sameDefaultString reports whether a doc's default string and the
// code's are the same: equal but for case, or for a path's leading "/" or
// "./" or trailing "/" (fiber's filesystem doc says "index.html" of an
// Index the code stores as "/index.html" and prefixes with "/" anyway).
func sameDefaultString(doc, code string) bool {
	norm := func(s string) string {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "./"), "/")
		return strings.ToLower(strings.TrimSuffix(s, "/"))
	}
	return strings.EqualFold(doc, code) || doc != "" && code != "" && norm(doc) == norm(code)
}

// defaultStringRE is a quoted string right after a default phrase:
// `Default value "no-referrer"`, "defaults to `json`".
var defaultStringRE = regexp.MustCompile(`(?i)(?:\bdefaults?\s+(?:to|is|of|value\s+is)|\bdefault(?:\s+value)?\s*[:=]?|\(default:?|\bby\s+default,?(?:\s+(?:it\s+)?is)?)\s*("[^"\n]*"|` + "`[^`\n]*`" + `)`)

// defaultStringAfterRE finds a quoted string a sentence says something
// is by default: `It is "2m" by default.`, not ff's "a flag with the name
// `-section.subsection.value` by default", an example of the result.
var defaultStringAfterRE = regexp.MustCompile(`(?i)\b(?:is|are)\s+("[^"\n]*"|` + "`[^`\n]*`" + `)\s+by\s+default\b`)

// compareString reports a quoted string a sentence states as the default
// of a string field that another constant string defaults it to: fiber's
// helmet Config says `Default value "ReferrerPolicy".` of the
// ReferrerPolicy field its ConfigDefault sets to "no-referrer". Only a
// sentence with one such string counts, and strings equal but for case
// agree.
func (r *LiteralMismatch) compareString(c review.Claim, subject, sent string, site valueSite) *review.Verdict {
	if site.val == nil || site.val.Kind() != constant.String {
		return nil
	}
	if _, isConst := site.ref.(*types.Const); site.ref != nil && !isConst {
		return nil // a variable's value may change
	}
	ms := append(defaultStringRE.FindAllStringSubmatch(sent, -1), defaultStringAfterRE.FindAllStringSubmatch(sent, -1)...)
	if len(ms) != 1 {
		return nil
	}
	quoted := ms[0][1]
	doc, code := quoted[1:len(quoted)-1], constant.StringVal(site.val)
	if u, err := strconv.Unquote(quoted); err == nil && quoted[0] == '"' {
		doc = u // written as Go writes it: "\u001b[91m"
	}
	if sameDefaultString(doc, code) {
		return nil
	}
	msg := fmt.Sprintf("The doc gives %s as the default of %s, but %s is %s.", quoted, subject, site.name, strconv.Quote(code))
	if site.fn != "" {
		msg = fmt.Sprintf("The doc gives %s as the default of %s, but the code sets %s = %s.", quoted, subject, site.name, strconv.Quote(code))
	}
	hops := []string{cmp.Or(c.Symbol, fmt.Sprintf("%s:%d", c.Path, c.Line)), cmp.Or(site.fn, site.name)}
	suggestion := ""
	if strings.Count(c.Text, quoted) == 1 {
		suggestion = strings.Replace(c.Text, quoted, quoted[:1]+code+quoted[len(quoted)-1:], 1)
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.85, Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: hops,
		}},
	}
}

// defaultValues returns the literals of a sentence that come right after
// a default phrase ("the default is 30 seconds", "defaults to 100"), the
// only one of their kind there, and, for a plain integer default, bare
// numbers after such a phrase.
func defaultValues(ws *review.Workspace, sent string, site valueSite) []litPlaced {
	lits, names := placeMentions(ws, sent)
	var out []litPlaced
	for _, l := range lits {
		if defaultCueRE.MatchString(sent[:l.start]) && soleOfKind(lits, l) && !boundToOtherName(sent, names, l) {
			out = append(out, l)
		}
	}
	if len(lits) > 0 || litIsDuration(site.typ) || nameNanoseconds(site.name) > 0 {
		return out
	}
	for _, l := range sentenceValues(ws, sent, site) {
		if defaultCueRE.MatchString(sent[:l.start]) {
			out = append(out, l)
		}
	}
	return out
}

// claimField returns the symbol of a doc comment and the struct field it
// speaks of: the field itself, or the one field an option func or setter
// sets from its parameter; false for other claims.
func claimField(ws *review.Workspace, c review.Claim) (sym, field retrieval.Symbol, ok bool) {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") {
		return sym, field, false
	}
	sym, ok = ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Package == nil || sym.Path != c.Path {
		return sym, field, false
	}
	switch sym.Kind {
	case retrieval.SymbolField:
		return sym, sym, true
	case retrieval.SymbolFunc, retrieval.SymbolMethod:
		field, ok = optionField(sym)
		return sym, field, ok
	}
	return sym, field, false
}

// optionField returns the one struct field that the func sets from one of
// its parameters, in its body or in a func literal there: "o.limit = n".
func optionField(sym retrieval.Symbol) (retrieval.Symbol, bool) {
	fd := funcDecl(sym)
	p := sym.Package
	if fd == nil || fd.Body == nil || p.Info == nil {
		return retrieval.Symbol{}, false
	}
	params := map[types.Object]bool{}
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if o := p.Info.Defs[n]; o != nil {
				params[o] = true
			}
		}
	}
	if len(params) == 0 {
		return retrieval.Symbol{}, false
	}
	var found *types.Var
	var owner string
	many := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			sel, ok := l.(*ast.SelectorExpr)
			if !ok {
				continue
			}
			id, ok := ast.Unparen(as.Rhs[i]).(*ast.Ident)
			if !ok || !params[p.Info.Uses[id]] {
				continue
			}
			s := p.Info.Selections[sel]
			if s == nil || s.Kind() != types.FieldVal {
				continue
			}
			v, _ := s.Obj().(*types.Var)
			recv := s.Recv()
			if ptr, ok := recv.(*types.Pointer); ok {
				recv = ptr.Elem()
			}
			nt, ok := recv.(*types.Named)
			if v == nil || !ok {
				continue
			}
			if found != nil && found != v {
				many = true
			}
			found, owner = v, nt.Obj().Name()
		}
		return true
	})
	if found == nil && !many {
		found, owner = appliedOption(p, fd, params)
	}
	if found == nil || many {
		return retrieval.Symbol{}, false
	}
	return retrieval.Symbol{Name: owner + "." + found.Name(), Kind: retrieval.SymbolField, Package: p, Object: found}, true
}

// appliedOption returns the field an option value sets when fd returns it
// as a composite literal holding its parameter ("return
// &cacheExpiryDurationOption{duration: duration}") and the one method of
// that option type that reads the key assigns it to a field of another
// struct ("func (o *cacheExpiryDurationOption) ApplyToExecutor(e
// *Executor) { e.CacheExpiryDuration = o.duration }"), with the name of
// that field's struct; nil when there is no such field or more than one.
func appliedOption(p *retrieval.Package, fd *ast.FuncDecl, params map[types.Object]bool) (*types.Var, string) {
	var key *types.Var
	var opt *types.Named
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return true
		}
		lit := passedLiteral(ret.Results[0])
		if lit == nil {
			return true
		}
		nt, ok := types.Unalias(p.Info.TypeOf(lit)).(*types.Named)
		if !ok || nt.Obj().Pkg() != p.Types {
			return true
		}
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			id, ok := ast.Unparen(kv.Value).(*ast.Ident)
			k, _ := kv.Key.(*ast.Ident)
			if !ok || k == nil || !params[p.Info.Uses[id]] {
				continue
			}
			if v, ok := p.Info.Uses[k].(*types.Var); ok {
				if key != nil && key != v {
					key, opt = nil, nil
					return false
				}
				key, opt = v, nt
			}
		}
		return true
	})
	if key == nil {
		return nil, ""
	}
	var found *types.Var
	var owner string
	for i := range opt.NumMethods() {
		m := opt.Method(i)
		md := methodDecl(p, m)
		if md == nil {
			continue
		}
		ast.Inspect(md.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for j, l := range as.Lhs {
				if selectedField(p.Info, ast.Unparen(as.Rhs[j])) != key {
					continue
				}
				to := selectedField(p.Info, l)
				sel, _ := l.(*ast.SelectorExpr)
				if to == nil || sel == nil {
					continue
				}
				recv := p.Info.Selections[sel].Recv()
				if ptr, ok := recv.(*types.Pointer); ok {
					recv = ptr.Elem()
				}
				nt, ok := types.Unalias(recv).(*types.Named)
				if !ok || nt == opt {
					continue
				}
				if found != nil && found != to {
					found, owner = nil, "-"
					return false
				}
				if owner != "-" {
					found, owner = to, nt.Obj().Name()
				}
			}
			return true
		})
	}
	if owner == "-" {
		return nil, ""
	}
	return found, owner
}

// methodDecl returns the declaration of a method of a package, or nil.
func methodDecl(p *retrieval.Package, m *types.Func) *ast.FuncDecl {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Recv != nil && p.Info.Defs[fd.Name] == m {
				return fd
			}
		}
	}
	return nil
}

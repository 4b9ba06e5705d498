package rules

import (
	"context"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

var _ review.Unverifier = (*LiteralMismatch)(nil)

// Unverified lists the defaults and limits a claim states (a literal
// right after a default or limit phrase: "defaults to 30 seconds", "at
// most 100 entries") that the rule had no value of the code to compare
// with: no constant or field default is bound to them, or the one bound is
// computed at run time. A consistent label does not vouch for them.
func (r *LiteralMismatch) Unverified(ctx context.Context, ws *review.Workspace, c review.Claim) []string {
	if ws == nil || ws.Symbols == nil || isHistory(c.Path) || !hasLiteral(c) {
		return nil
	}
	if c.Kind != review.KindDocComment && c.Kind != review.KindMarkdown {
		return nil
	}
	if hasCodeBlock(c) {
		return nil
	}
	sc := newScope(ws.Symbols, c)
	var self *retrieval.Symbol
	if c.Kind == review.KindDocComment && c.Symbol != "" && !strings.HasPrefix(c.Symbol, "package ") {
		if sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol); ok && sc.inModule(sym) {
			self = &sym
		}
	}
	var out []string
	for _, sent := range prose.SplitSentences(c.Text) {
		if ctx.Err() != nil {
			return out
		}
		if driftHistoryRE.MatchString(sent) {
			continue
		}
		lits, names := placeMentions(ws, sent)
		for _, lit := range lits {
			before := sent[:lit.start]
			if !defaultCueRE.MatchString(before) && !limitCueRE.MatchString(before) {
				continue
			}
			if r.comparable(ws, sc, self, sent, names, lit) || slices.Contains(out, lit.Text) {
				continue
			}
			out = append(out, lit.Text)
		}
	}
	return out
}

// comparable reports whether the rule has a value of the code to compare
// the literal with: the claim's own const, var or field, the field an
// option func sets, or a const or field named right before the literal.
func (r *LiteralMismatch) comparable(ws *review.Workspace, sc scope, self *retrieval.Symbol, sent string, names []litPlaced, lit litPlaced) bool {
	siteOf := func(sym retrieval.Symbol) (valueSite, bool) {
		switch sym.Kind {
		case retrieval.SymbolConst, retrieval.SymbolVar:
			return r.constSite(ws, sym)
		case retrieval.SymbolField:
			return r.fieldDefault(ws, sym)
		case retrieval.SymbolFunc, retrieval.SymbolMethod:
			if f, ok := optionField(sym); ok {
				return r.fieldDefault(ws, f)
			}
		}
		return valueSite{}, false
	}
	check := func(sym retrieval.Symbol) bool {
		site, ok := siteOf(sym)
		if !ok {
			return false
		}
		_, ok = matchLiteral(lit, site)
		return ok
	}
	for _, n := range names {
		if n.end > lit.start {
			continue
		}
		if sym, ok := sc.lookup(strings.TrimPrefix(n.Text, "*")); ok && check(sym) {
			return true
		}
	}
	return self != nil && check(*self)
}

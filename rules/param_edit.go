package rules

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// substitution is one word of a doc comment's text at base that the diff
// replaced by one other word, between words both sides share.
type substitution struct{ old, new string }

// wordSubstitutions aligns the words of base and head (a longest common
// subsequence) and returns each place where exactly one word of base was
// replaced by exactly one word of head: "associated with key." becomes
// "associated with dial." gives {key, dial}. Insertions, deletions and
// rewrites of several words give nothing.
func wordSubstitutions(base, head string) []substitution {
	a, b := wordRE.FindAllString(base, -1), wordRE.FindAllString(head, -1)
	if len(a) == 0 || len(b) == 0 || len(a)*len(b) > 1<<20 {
		return nil
	}
	var out []substitution
	for _, g := range unmatched(len(a), len(b), func(i, j int) bool { return a[i] == b[j] }) {
		if g.i1-g.i0 == 1 && g.j1-g.j0 == 1 {
			out = append(out, substitution{old: a[g.i0], new: b[g.j0]})
		}
	}
	return out
}

// editedParams finds the parameter names a diff replaced in the doc
// comment of c by words the signature does not have: the doc said "the
// tls.Config associated with key" and now says "associated with dial", on
// a func that still takes key. Such an edit names a parameter of a sibling
// or of a signature the author had in mind, not of this one; the fix is
// the word the diff replaced. A replacement word counts when it is no
// English word ("rv", "hctx"), or when the doc no longer names the
// parameter anywhere and the new word stands where a name does, without an
// article ("with dial", not "the entry"). Words the package declares,
// words of the body, plurals and other cases of the parameter, and words
// the doc already had at base are never counted, nor are edits of code
// examples (the snippet rules read those).
func (r *WrongParameter) editedParams(ws *review.Workspace, sc scope, reserved map[string]bool, text string, c review.Claim, sym retrieval.Symbol, decl, base *ast.FuncDecl, params []string) []wrongParam {
	if base == nil || !c.Changed {
		return nil
	}
	old, ok := baseDoc(ws, c)
	if !ok || old == c.Text {
		return nil
	}
	baseParams := paramNames(base.Type.Params)
	own := funcTypeNames(decl)
	used := bodyNames(decl)
	english := englishWords()
	var vocab *paramVocab
	if sym.Package != nil {
		vocab = r.vocabulary(ws, sym.Package)
	}
	plain := proseOnly(backtickRE.ReplaceAllString(text, " "))
	var found []wrongParam
	seen := map[string]bool{}
	for _, s := range wordSubstitutions(proseOnly(quotedRE.ReplaceAllString(old, " ")), proseOnly(text)) {
		p, w := s.old, s.new
		if seen[w] || !slices.Contains(params, p) || !slices.Contains(baseParams, p) || slices.Contains(params, w) ||
			!token.IsIdentifier(w) || !isLowerStart(w) || len(w) < 2 || own[w] || countWord(old, w) > 0 ||
			strings.EqualFold(w, p) || w == p+"s" || w == p+"es" || p == w+"s" || p == w+"es" ||
			!r.candidate(sc, reserved, text, c, w, true) {
			continue
		}
		lw := strings.ToLower(w)
		isEnglish := isEnglishWord(english, w) || vocab != nil && vocab.nouns[lw] > 1
		if used[w] && isEnglish {
			continue // "in key": a local of the body the doc may describe
		}
		if isEnglish && (countWord(text, p) > 0 || !bareUse(plain, w)) {
			continue // "the entry", or the parameter is still named: a rewording
		}
		seen[w] = true
		found = append(found, wrongParam{old: w, new: p, edited: true})
	}
	return found
}

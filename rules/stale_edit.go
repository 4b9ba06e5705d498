package rules

import (
	"go/token"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/docreview/docreview/review/prose"
)

// editedNames finds the names a diff wrote into doc comment c in place of
// a name that exists, where what it wrote is wrong whatever the reader
// means:
//
//   - the doc opened with its symbol's name, as Go convention has it, and
//     now opens with another declaration's ("NullTime implements" became
//     "JSONTime implements" on NullTime);
//   - a name of the module was replaced by a Go-shaped name that shares a
//     word with it and that nothing declares ("a KeySet implementation"
//     became "a KeyInit implementation"): no package of the module, no
//     import, no file.
//
// Code examples are left to the snippet rules. Both say what the fix is: the word the diff replaced. A replacement by
// another existing name, or by a word that shares nothing with the old
// one (a brand, a rewording), is not judged: only the reader knows which
// name is meant.
func (r *StaleReference) editedNames(ws *review.Workspace, sc scope, c review.Claim, seen, skip map[string]bool) []stale {
	if !c.Changed {
		return nil
	}
	var subs []substitution
	old, own := "", ""
	switch {
	case c.Kind == review.KindDocComment && c.Symbol != "":
		var ok bool
		if old, ok = baseDoc(ws, c); !ok || old == c.Text {
			return nil
		}
		own = lastPart(c.Symbol)
		subs = wordSubstitutions(proseOnly(old), proseOnly(c.Text))
	case c.Kind == review.KindMarkdown && !hasCodeBlock(c):
		var olds []string
		for _, e := range editedLines(ws, c) {
			olds = append(olds, e.Old)
			subs = append(subs, wordSubstitutions(e.Old, e.New)...)
		}
		old = strings.Join(olds, "\n")
	default:
		return nil
	}
	opening := func(text string) string {
		first, _, _ := strings.Cut(strings.TrimSpace(text), " ")
		return trimCall(strings.TrimRight(first, ",.:;"))
	}
	var out []stale
	for _, s := range subs {
		o, n := s.old, s.new
		if seen[n] || skip[n] || !token.IsIdentifier(n) || isBuiltin(n) || countWord(old, n) > 0 ||
			strings.EqualFold(o, n) || len(prose.Words(n)) < 2 {
			continue
		}
		target := o
		if own != "" && o == own {
			target = c.Symbol
		}
		oSym, found := sc.lookup(target)
		if !found {
			continue
		}
		st := stale{kind: staleEdited, name: n, repl: o, newSym: oSym, hasNew: true,
			mention: review.Mention{Kind: review.MentionIdent, Text: n, Line: c.Line, EndLine: c.EndLine}}
		_, isDecl := sc.lookup(n)
		if own != "" && o == own && opening(old) == o && opening(c.Text) == n && isDecl {
			st.opening = true
		} else if sc.namesAnything(n) || anyImportExports(sc, n) || plural(sc, n) || isFile(ws.HeadFS, c.Path, n) ||
			ws.Symbols.Defined(n) || !sharesWord(o, n) {
			continue
		}
		seen[n] = true
		out = append(out, st)
	}
	return out
}

// sharesWord reports whether Go names a and b have a word in common
// ("KeySet" and "KeyInit"), by [prose.Words].
func sharesWord(a, b string) bool {
	wb := prose.Words(b)
	for _, w := range prose.Words(a) {
		for _, x := range wb {
			if w == x {
				return true
			}
		}
	}
	return false
}

// editedLines returns the lines of claim c the diff replaced one for one
// ([diff.Hunk.Replacements]) whose new line lies in c.
func editedLines(ws *review.Workspace, c review.Claim) []diff.Replacement {
	f, ok := headChange(ws, c.Path)
	if !ok {
		return nil
	}
	var out []diff.Replacement
	for _, h := range f.Hunks {
		if h.NewStart+h.NewLines <= c.Line || h.NewStart > c.EndLine {
			continue
		}
		for _, r := range h.Replacements() {
			if r.NewLine >= c.Line && r.NewLine <= c.EndLine {
				out = append(out, r)
			}
		}
	}
	return out
}

package rules

import (
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// siblingOpening recognises a doc comment copied from a sibling's and
// left opening with the sibling's name: connect's Unmarshal doc opens
// "Marshal unmarshals the given message", mo's Then doc "Catch is
// called…". By Go convention a doc comment opens with the name of what it
// documents, so the correction is certain. The sibling is a declaration of
// the same kind and place (a method of the same type, a package-level
// func, a type) whose own doc opens with its name; a doc whose first
// sentence names its own declaration too ("Marshal and Unmarshal
// convert…") documents both and is left alone.
func siblingOpening(sc scope, c review.Claim) (stale, bool) {
	self, ok := siblingSelf(sc, c)
	if !ok {
		return stale{}, false
	}
	text := strings.TrimSpace(c.Text)
	first, _, _ := strings.Cut(text, " ")
	first = strings.TrimRight(first, ",.:;")
	own := lastPart(c.Symbol)
	if !token.IsIdentifier(first) || !token.IsIdentifier(own) || strings.EqualFold(first, own) {
		return stale{}, false
	}
	sentences := prose.SplitSentences(text)
	if len(sentences) == 0 || litNamesWord(sentences[0], own) {
		return stale{}, false
	}
	name := first
	if recv, _, isMethod := strings.Cut(c.Symbol, "."); isMethod {
		name = recv + "." + first
	}
	sib, ok := sc.syms.Lookup(c.Package, name)
	if !ok || sib.Kind != self.Kind || sib.Package != self.Package || sib.Name == self.Name {
		return stale{}, false
	}
	sibFirst, sibRest, _ := strings.Cut(strings.TrimSpace(sib.Doc), " ")
	if strings.TrimRight(sibFirst, ",.:;") != first {
		return stale{}, false
	}
	// The word after the name is the sibling's too ("Valid returns …"
	// on ValidPrint, as on Valid), or the symbol's own verb ("Marshal
	// unmarshals" on Unmarshal): a doc that opens with a word that is
	// also a name ("Default implementation for signal waiter." beside a
	// func Default) was not copied.
	_, rest, _ := strings.Cut(text, " ")
	next, sibNext := firstWord(rest), firstWord(sibRest)
	if next == "" || next != sibNext && !strings.HasPrefix(strings.ToLower(next), strings.ToLower(own)) {
		return stale{}, false
	}
	if imperativeObject[next] {
		// "Decrement an item of type int8 by n." on DecrementInt8, beside
		// a Decrement documented the same way: the first word is a verb
		// in the imperative, which reads right on either.
		return stale{}, false
	}
	return stale{
		kind:    staleSibling,
		mention: review.Mention{Kind: review.MentionCode, Text: first, Line: c.Line, EndLine: c.Line},
		name:    first, repl: own, newSym: self, hasNew: true, sibling: sib,
	}, true
}

// imperativeObject are words that follow a verb in the imperative ("Add
// an item", "Set the value", "Write to w"), not a name's verb.
var imperativeObject = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "that": true, "these": true, "those": true,
	"all": true, "any": true, "each": true, "every": true, "some": true, "one": true, "its": true,
	"to": true, "from": true, "into": true, "with": true, "by": true, "for": true, "of": true,
	"in": true, "on": true, "at": true, "it": true, "them": true, "up": true, "out": true,
}

// firstWord returns the first word of s, lower-cased, without
// punctuation.
func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return strings.ToLower(strings.Trim(w, ",.:;()"))
}

// siblingMessage says what a doc copied from a sibling's names.
func siblingMessage(c review.Claim, s stale) string {
	if s.kind == staleVariant {
		return fmt.Sprintf("the doc comment of %s names %s in a sentence copied word for word from the doc of %s, where %s belongs; for %s it is %s",
			c.Symbol, s.name, s.sibling.Name, s.name, lastPart(c.Symbol), s.repl)
	}
	where := "another func of the package"
	switch s.sibling.Kind {
	case retrieval.SymbolMethod:
		recv, _, _ := strings.Cut(s.sibling.Name, ".")
		where = "another method of " + recv
	case retrieval.SymbolType:
		where = "another type of the package"
	}
	return fmt.Sprintf("the doc comment of %s opens with %s, %s, whose own doc opens the same way: it was copied from %s's; by Go convention it opens with %s",
		c.Symbol, s.name, where, s.name, s.repl)
}

// docWordRE finds the words of a doc that may be Go names.
var docWordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// siblingVariant recognises a sentence copied from a sibling's doc that
// kept a name belonging to the sibling: otel's AsStringSlice doc says
// "Make sure that the Value's type is INT64SLICE.", the sentence of
// AsInt64Slice's doc, where its own type is STRINGSLICE. The sibling's
// name differs from the symbol's in one part (Int64 for String), the name
// the doc keeps holds that part once (INT64SLICE, in its letter case), the
// name with the symbol's part in its place exists in the package
// (STRINGSLICE), and the sentence is the sibling's word for word. The
// sibling's own name, or a name that is only the part, is no such name.
func siblingVariant(sc scope, c review.Claim) (stale, bool) {
	self, ok := siblingSelf(sc, c)
	if !ok || self.Package.Types == nil {
		return stale{}, false
	}
	own := lastPart(c.Symbol)
	if !token.IsIdentifier(own) {
		return stale{}, false
	}
	scope := self.Package.Types.Scope()
	// The doc's words that name a declaration of the package, first: most
	// docs name none but their own.
	var words []string
	seen := map[string]bool{own: true}
	for _, w := range docWordRE.FindAllString(c.Text, -1) {
		if !seen[w] && scope.Lookup(w) != nil {
			words = append(words, w)
		}
		seen[w] = true
	}
	if len(words) == 0 {
		return stale{}, false
	}
	var sentences []string
	for _, sibName := range siblingNames(self) {
		x, y := differingPart(own, lastPart(sibName))
		if len(x) < 2 || len(y) < 2 || strings.EqualFold(x, y) || len(own)-len(x) < 3 {
			continue
		}
		for _, w := range words {
			if w == lastPart(sibName) || inCodeBlock(c, w) {
				continue
			}
			// A doc that names the symbol's counterpart too names both
			// on purpose ("[SubMapOf] and [SuperMapOf] take only one
			// parameter").
			repl, ok := variantName(w, x, y)
			if !ok || repl == own || scope.Lookup(repl) == nil || litNamesWord(c.Text, repl) {
				continue
			}
			sib, ok := sc.syms.Lookup(self.Package.Dir, sibName)
			if !ok || sib.Kind != self.Kind || sib.Doc == "" {
				continue
			}
			if sentences == nil {
				sentences = prose.SplitSentences(strings.TrimSpace(c.Text))
			}
			if !sharedSentenceWith(sentences, sib.Doc, w) {
				continue
			}
			s := stale{
				kind:    staleVariant,
				mention: review.Mention{Kind: review.MentionIdent, Text: w, Line: c.Line, EndLine: c.EndLine},
				name:    w, repl: repl, sibling: sib,
			}
			s.newSym, s.hasNew = sc.syms.Lookup(self.Package.Dir, repl)
			return s, true
		}
	}
	return stale{}, false
}

// inCodeBlock reports whether w appears in one of the claim's code blocks.
func inCodeBlock(c review.Claim, w string) bool {
	for _, m := range c.Mentions {
		if m.Kind == review.MentionBlock && litNamesWord(m.Text, w) {
			return true
		}
	}
	return false
}

// variantName returns w with the sibling's part y replaced by the
// symbol's part x, in w's letter case (INT64SLICE with Int64 for String
// gives STRINGSLICE); false when w holds y not once, holds x, or is y.
func variantName(w, x, y string) (string, bool) {
	for _, cased := range [][2]string{{x, y}, {strings.ToUpper(x), strings.ToUpper(y)}, {strings.ToLower(x), strings.ToLower(y)}} {
		cx, cy := cased[0], cased[1]
		if w == cy || strings.Count(w, cy) != 1 || strings.Contains(w, cx) {
			continue
		}
		return strings.Replace(w, cy, cx, 1), true
	}
	return "", false
}

// sharedSentenceWith reports whether one of sentences holds w and is a
// sentence of doc word for word.
func sharedSentenceWith(sentences []string, doc, w string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	theirs := map[string]bool{}
	for _, s := range prose.SplitSentences(strings.TrimSpace(doc)) {
		theirs[norm(s)] = true
	}
	for _, s := range sentences {
		if theirs[norm(s)] && litNamesWord(s, w) {
			return true
		}
	}
	return false
}

// siblingSelf returns the func, method or type a doc comment documents,
// when it is the module's.
func siblingSelf(sc scope, c review.Claim) (retrieval.Symbol, bool) {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") {
		return retrieval.Symbol{}, false
	}
	self, ok := sc.syms.Lookup(c.Package, c.Symbol)
	if !ok || !sc.inModule(self) || self.Package == nil {
		return retrieval.Symbol{}, false
	}
	switch self.Kind {
	case retrieval.SymbolFunc, retrieval.SymbolMethod, retrieval.SymbolType:
		return self, true
	}
	return retrieval.Symbol{}, false
}

// siblingNames returns the names of the declarations of the same kind
// and place as self: the other methods of its type ("Value.AsInt64"), or
// the package's other funcs or types.
func siblingNames(self retrieval.Symbol) []string {
	var names []string
	switch self.Kind {
	case retrieval.SymbolMethod:
		fn, ok := self.Object.(*types.Func)
		if !ok {
			return nil
		}
		recv := fn.Type().(*types.Signature).Recv()
		if recv == nil {
			return nil
		}
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok {
			return nil
		}
		for m := range named.Methods() {
			if n := named.Obj().Name() + "." + m.Name(); n != self.Name {
				names = append(names, n)
			}
		}
	default:
		scope := self.Package.Types.Scope()
		for _, n := range scope.Names() {
			obj := scope.Lookup(n)
			_, isFunc := obj.(*types.Func)
			_, isType := obj.(*types.TypeName)
			if n != self.Name && isFunc == (self.Kind == retrieval.SymbolFunc) && isType == (self.Kind == retrieval.SymbolType) {
				names = append(names, n)
			}
		}
	}
	return names
}

// differingPart returns the parts of a and b between their longest common
// prefix and suffix: "String" and "Int64" for AsStringSlice and
// AsInt64Slice.
func differingPart(a, b string) (string, string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return a[p : len(a)-s], b[p : len(b)-s]
}

// siblingWhy says why the sibling's doc is evidence.
func siblingWhy(s stale) string {
	if s.kind == staleVariant {
		return fmt.Sprintf("the doc of %s, which has the same sentence with %s", s.sibling.Name, s.name)
	}
	return fmt.Sprintf("the doc of %s, which opens with %s too", s.sibling.Name, s.name)
}

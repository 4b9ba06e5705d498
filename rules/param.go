package rules

import (
	"context"
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/docreview/docreview/review/prose"
)

var _ review.Judge = (*WrongParameter)(nil)

// WrongParameter is the wrong-parameter rule: the doc comment of a func or
// method names a parameter the signature does not have, while the
// signature has one the doc does not name. It labels the claim
// contradicted and, when every wrong name maps to exactly one parameter,
// suggests the doc with the names replaced.
//
// A word counts as a wrong parameter name in two cases. Either this diff
// renamed the parameter: the declaration at base had a parameter of that
// name at the same position, the head declaration has another name there,
// and the doc uses the old name but not the new one. Or the word is
// backticked or identifier-shaped ("maxSize", "max_size"), resolves to
// nothing in the package, and is close (by edit distance or by the same
// camel-case words) to exactly one parameter the doc does not name. Words
// that are receiver or result names, declared names, fields or methods of
// some type in the package, stop words, single letters, or plain English
// words behind an article ("the value", but not "the tpl argument") are
// never reported; neither are deprecated declarations. A doc writing the
// function's own call with the parameter names in another order
// ("Copy(dst, src)" for Copy(src, dst)) is contradicted too. The zero
// value is ready to use and safe for concurrent use.
//
// A plain word is a wrong parameter name too when Go would read it as
// one: it stands without an article ("if n is negative"), it is the name
// of a parameter or receiver of another func in the package (the
// package's own vocabulary of parameter names, so a doc copied from a
// sibling keeps the sibling's names), the documented func's body never
// uses it, and the signature has a parameter the doc never names. When
// the package's docs also use the word as an English noun ("the writer"),
// it counts only when it is close to the unnamed parameter or the sibling
// gave it the same type. See docs/rules.md for the boundary.
type WrongParameter struct {
	vocab memo[*paramVocab]
}

// Name returns "wrong-parameter".
func (*WrongParameter) Name() string { return "wrong-parameter" }

// wrongParam is one wrong parameter name of a doc comment.
type wrongParam struct {
	old, new string
	renamed  bool // the diff renamed old to new
	edited   bool // the diff replaced new by old in the doc
}

// Judge reports the parameter names of a doc comment that the signature
// does not have, or nil. It never fails: a base file that cannot be read
// or parsed only removes the diff's evidence.
func (r *WrongParameter) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Symbols == nil || c.Kind != review.KindDocComment || c.Symbol == "" ||
		strings.HasPrefix(c.Symbol, "package ") || isDeprecated(c.Text) {
		return nil, nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Kind != "func" && sym.Kind != "method" || sym.Path == "" || sym.Line < 1 {
		return nil, nil
	}
	decl := funcDecl(sym)
	if decl == nil {
		return nil, nil
	}
	params := paramNames(decl.Type.Params)
	if len(params) == 0 {
		return nil, nil
	}
	sc := newScope(ws.Symbols, c)
	reserved := ownNames(sc, c)
	for _, p := range params {
		delete(reserved, p)
	}
	text := quotedRE.ReplaceAllString(c.Text, " ")
	named := func(p string) bool { return countWord(text, p) > 0 }
	if v := r.swapped(c, sym, decl, params); v != nil {
		return v, nil
	}
	base := r.baseDecl(ws, sym, decl)
	unnamed := slices.DeleteFunc(slices.Clone(params), named)
	if len(unnamed) == 0 {
		// Every parameter is named, but the diff may have written a
		// wrong one beside them.
		if found := r.editedParams(ws, sc, reserved, text, c, sym, decl, base, params); len(found) > 0 {
			return r.verdict(ws, c, sym, decl, params, found), nil
		}
		return nil, nil
	}
	var found []wrongParam
	if base != nil {
		old := paramNames(base.Type.Params)
		if len(old) == len(params) {
			for i, o := range old {
				n := params[i]
				if o == n || !named(o) || slices.Contains(params, o) || slices.Contains(old, n) || named(n) ||
					!r.candidate(sc, reserved, text, c, o, false) || compoundOnly(text, o) {
					continue
				}
				found = append(found, wrongParam{old: o, new: n, renamed: true})
			}
		}
	}
	if len(found) == 0 {
		found = r.editedParams(ws, sc, reserved, text, c, sym, decl, base, params)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	seen := map[string]bool{}
	for _, f := range found {
		seen[f.old] = true
	}
	used := bodyNames(decl)
	// The prose a loose name must stand in: no code lines, placeholders
	// or URLs ("https://git.io/fj9gU").
	loose := proseOnly(backtickRE.ReplaceAllString(driftURLRE.ReplaceAllString(text, " "), " "))
	for _, w := range shapedWords(c.Text) {
		if seen[w] || slices.Contains(params, w) {
			continue
		}
		seen[w] = true
		// "the `array` parameter": the doc says it is a parameter, so
		// what else the word names does not matter.
		explicit, others := namedAsParam(c.Text, w)
		if others {
			continue
		}
		explicit = explicit && isLowerStart(w)
		if explicit {
			if len([]rune(w)) < 2 || reserved[w] || isBuiltin(w) || w == lastPart(c.Symbol) || used[w] ||
				slices.ContainsFunc(params, func(p string) bool { return strings.EqualFold(p, w) }) {
				continue // "OverallPrecision argument" opening a sentence names overallPrecision
			}
		} else if !r.candidate(sc, reserved, text, c, w, true) {
			continue
		}
		var close []string
		for _, p := range unnamed {
			if closeParam(w, p) {
				close = append(close, p)
			}
		}
		switch {
		case len(close) == 1:
			found = append(found, wrongParam{old: w, new: close[0]})
		case len(close) == 0 && (explicit || looseName(w, used) && standsIn(loose, w) && !sc.namesAnything(w) && !indefiniteOnly(loose, w)):
			// A name the package does not declare, written where the
			// signature has a parameter the doc never names: the
			// parameter of a sibling or an older signature. Only a
			// parameter sharing a word with it ("userKey", "groupKey")
			// is a fix. A loose name must be tied to parameters: by
			// that shared word, by standing where a name does ("when
			// blockNr is -1"), or by being a sibling's parameter name.
			fix := sharedWordParam(w, unnamed)
			if !explicit && fix == "" && !paramFrame(loose, w) && !r.siblingParam(ws, sym, w) {
				continue
			}
			found = append(found, wrongParam{old: w, new: fix})
		}
	}
	if len(found) == 0 {
		found = r.plainWords(ws, sc, reserved, text, c, sym, decl, unnamed, seen, used)
	}
	if len(found) == 0 {
		return nil, nil
	}
	return r.verdict(ws, c, sym, decl, params, found), nil
}

// paramVocab is what a package's code says about parameter names.
type paramVocab struct {
	// types maps each parameter and receiver name of the package's funcs
	// to the types it is declared with.
	types map[string][]string
	// nouns counts, for each lower-case word the package's comments write
	// after an article ("the writer"), the comments that do: English
	// there, whatever else it is.
	nouns map[string]int
}

var articleNounRE = regexp.MustCompile(`(?i)\b(?:the|a|an|each|every|this|that|any|its|their)\s+([a-z][a-z0-9]*)\b`)

// vocabulary returns the parameter vocabulary of the package of sym.
func (r *WrongParameter) vocabulary(ws *review.Workspace, p *retrieval.Package) *paramVocab {
	v, _ := r.vocab.get(ws, p.Dir, func() (*paramVocab, error) {
		v := &paramVocab{types: map[string][]string{}, nouns: map[string]int{}}
		for _, f := range p.Syntax {
			for _, cg := range f.Comments {
				for w := range articleNouns(cg.Text()) {
					v.nouns[w]++
				}
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
					for _, p := range fields(fl) {
						if p.name != "" && p.name != "_" {
							v.types[p.name] = append(v.types[p.name], p.typ)
						}
					}
				}
			}
		}
		return v, nil
	})
	return v
}

// articleNouns returns the lower-case words text writes after an
// article.
func articleNouns(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range articleNounRE.FindAllStringSubmatch(text, -1) {
		out[strings.ToLower(m[1])] = true
	}
	return out
}

// nameUse says how a doc comment writes a plain word where Go writes
// names rather than English.
type nameUse struct {
	// quoted: in single quotes ("at most 'max' items").
	quoted bool
	// opening: it opens a sentence in lower case, as the subject of a
	// statement ("hint determines the type"), in a doc whose other
	// sentences open in upper case.
	opening bool
}

// openingVerbs are the words after which a lower-case word opening a
// sentence is its subject, a name: "hint determines", "opt must".
var openingVerbs = map[string]bool{
	"controls": true, "indicates": true, "represents": true, "defines": true, "limits": true,
	"selects": true, "describes": true, "gives": true, "names": true, "tells": true, "says": true,
	"sets": true, "receives": true, "provides": true, "stores": true, "keeps": true,
}

// nameUses finds the words of plain that it writes as names: in single
// quotes, or opening a sentence in lower case (see [nameUse]).
func nameUses(plain string) map[string]nameUse {
	out := map[string]nameUse{}
	for _, m := range singleQuotedRE.FindAllStringSubmatchIndex(plain, -1) {
		if m[2] > 1 && isIdentByte(plain[m[2]-2]) {
			continue // "package's 'x'": an apostrophe, not a quote
		}
		w := plain[m[2]:m[3]]
		if before := wordRE.FindAllString(plain[:m[0]], -1); len(w) < 2 ||
			len(before) > 0 && valueVerbs[strings.ToLower(before[len(before)-1])] {
			continue // "X will be 'i' for inbound": a value
		}
		if quotedList(plain, m[0], m[1]) {
			continue // "shared by 'action' and 'publish'": names of values or commands
		}
		u := out[w]
		u.quoted = true
		out[w] = u
	}
	spans := prose.Sentences(plain)
	capitalised := 0
	for _, sp := range spans {
		if c := plain[sp.Start]; c >= 'A' && c <= 'Z' {
			capitalised++
		}
	}
	if capitalised == 0 {
		return out
	}
	for _, sp := range spans {
		words := wordRE.FindAllString(plain[sp.Start:sp.End], 3)
		if len(words) < 2 || !isLowerStart(words[0]) || !strings.HasPrefix(plain[sp.Start:], words[0]) || stopWords[words[0]] || articles[words[0]] {
			continue
		}
		if next := strings.ToLower(words[1]); frameWords[next] || openingVerbs[next] {
			u := out[words[0]]
			u.opening = true
			out[words[0]] = u
		}
	}
	return out
}

// valueVerbs are the words after which a quoted word is a value, not a
// name: "will be 'i'", "is 'none'".
var valueVerbs = map[string]bool{"be": true, "is": true, "are": true, "was": true, "were": true, "equals": true, "becomes": true}

// quotedList reports whether the quoted word at text[start:end] is one
// of a list of quoted words: "'action' and 'publish'", "'a', 'b' or 'c'".
func quotedList(text string, start, end int) bool {
	for _, sep := range []string{" and ", " or ", ", ", ","} {
		if strings.HasPrefix(text[end:], sep+"'") || strings.HasSuffix(text[:start], "'"+sep) {
			return true
		}
	}
	return false
}

// singleQuotedRE matches a word in single quotes: 'max'.
var singleQuotedRE = regexp.MustCompile(`'([\pL_][\pL\pN_]*)'`)

// paramNounRE matches the word before "parameter" or "argument", in
// backticks or quotes or not: "the `array` parameter".
var paramNounRE = regexp.MustCompile("[`'\"]?([\\pL_][\\pL\\pN_]*)[`'\"]?\\s+(?:parameter|argument|param|arg)s?\\b")

// namedAsParam reports whether text calls w a parameter or an argument
// ("the `array` parameter", "the key argument"), and whether it calls it
// one of another func ("the keysAndArgs argument to the Do method").
func namedAsParam(text, w string) (own, other bool) {
	for _, m := range paramNounRE.FindAllStringSubmatchIndex(text, -1) {
		if text[m[2]:m[3]] != w {
			continue
		}
		switch strings.ToLower(wordRE.FindString(text[m[1]:])) {
		case "to", "of", "for", "passed", "given":
			other = true
		default:
			own = true
		}
	}
	return own, other
}

// isEnglishWord reports whether w, or its singular or plural, is a word
// of english ("clauses" for "clause").
func isEnglishWord(english map[string]bool, w string) bool {
	return english[w] || english[w+"s"] || english[strings.TrimSuffix(w, "s")] || english[strings.TrimSuffix(w, "es")]
}

// standsIn reports whether w occurs in text as a word of prose: after
// a space, a parenthesis or a quote, and before a space or punctuation,
// so not in a path, a selector or a pattern ("[a-zA-Z_]").
func standsIn(text, w string) bool {
	for _, loc := range wordRE.FindAllStringIndex(text, -1) {
		if text[loc[0]:loc[1]] != w {
			continue
		}
		before, after := byte(' '), byte(' ')
		if loc[0] > 0 {
			before = text[loc[0]-1]
		}
		if loc[1] < len(text) {
			after = text[loc[1]]
		}
		if strings.IndexByte(" \t\n(\"'", before) >= 0 && strings.IndexByte(" \t\n.,;:)!?\"'", after) >= 0 &&
			!(after == '.' && loc[1]+1 < len(text) && isIdentByte(text[loc[1]+1])) {
			return true
		}
	}
	return false
}

// indefiniteOnly reports whether every occurrence of w in text follows
// "a" or "an": "wait for an errorSequenceResponse" names a kind of
// thing, a type, where "pointed by the userKey" may name a parameter.
func indefiniteOnly(text, w string) bool {
	return everyOccurrence(text, w, func(start, _ int) bool {
		before := wordRE.FindAllString(text[:start], -1)
		if len(before) == 0 {
			return false
		}
		a := strings.ToLower(before[len(before)-1])
		return a == "a" || a == "an"
	})
}

// looseName reports whether a shaped word is a lower-case Go name with
// inner words ("userKey") that the body does not use: a name of no brand
// ("iOS", "eBPF"), and not snake_case, which names settings and columns
// ("default_query_exec_mode") rather than Go parameters.
func looseName(w string, used map[string]bool) bool {
	return token.IsIdentifier(w) && isASCII(w) && isLowerStart(w) && identShaped(w) && !strings.Contains(w, "_") &&
		!used[w] && !prose.IsBrand(w)
}

// isASCII reports whether s is ASCII only: Go names in docs are, and a
// word like "scrİpt" is an example of text.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// sharedWordParam returns the one parameter of unnamed that shares a
// word with w, abbreviations expanded ("sinceAddIndex" and "idx"), or "".
func sharedWordParam(w string, unnamed []string) string {
	var win []string
	for _, p := range unnamed {
		if prose.CommonWords(w, p) > 0 {
			win = append(win, p)
		}
	}
	if len(win) == 1 {
		return win[0]
	}
	return ""
}

// siblingParam reports whether w is the name of a parameter or receiver
// of some func of the package of sym.
func (r *WrongParameter) siblingParam(ws *review.Workspace, sym retrieval.Symbol, w string) bool {
	if sym.Package == nil {
		return false
	}
	return r.vocabulary(ws, sym.Package).types[w] != nil
}

// plainWords finds the plain words of a doc comment that Go reads as
// parameter names the signature does not have (see [WrongParameter]).
// Each maps to the one unnamed parameter when that one wins clearly;
// otherwise new is empty and the verdict makes no suggestion.
func (r *WrongParameter) plainWords(ws *review.Workspace, sc scope, reserved map[string]bool, text string, c review.Claim, sym retrieval.Symbol, decl *ast.FuncDecl, unnamed []string, seen, used map[string]bool) []wrongParam {
	if sym.Package == nil || len(sym.Package.Syntax) == 0 || decl.Body == nil {
		return nil
	}
	vocab := r.vocabulary(ws, sym.Package)
	own := funcTypeNames(decl)
	typeOf := map[string]string{}
	for _, p := range fields(decl.Type.Params) {
		typeOf[p.name] = p.typ
	}
	plain := proseOnly(backtickRE.ReplaceAllString(text, " "))
	english := englishWords()
	uses := nameUses(plain)
	// The claim's own article nouns do not make a word English: the
	// package's count includes this comment.
	ownNouns := articleNouns(c.Text)
	var found []wrongParam
	for _, loc := range wordRE.FindAllStringIndex(plain, -1) {
		w := plain[loc[0]:loc[1]]
		if seen[w] || !token.IsIdentifier(w) || w == "a" || w == "err" || w == "ok" || !isLowerStart(w) || own[w] || used[w] ||
			afterApostrophe(plain, loc[0]) && !uses[w].quoted || inPath(plain, loc[0], loc[1]) || hyphenated(plain, loc[0], loc[1]) {
			continue
		}
		seen[w] = true
		if functionWords[w] && !uses[w].quoted {
			continue // "you should call it after": a pronoun, not a name
		}
		use := uses[w]
		marked := use.quoted || use.opening
		// English: a word of the standard library's docs, or one some
		// other comment of the package writes after an article.
		lw := strings.ToLower(w)
		isEnglish := isEnglishWord(english, w) || vocab.nouns[lw] > 0 && !ownNouns[lw] || vocab.nouns[lw] > 1
		sibling, ok := vocab.types[w]
		if !ok && (!use.opening || len(w) < 3) {
			continue // "ou can call": a typo opening a sentence
		}
		if !use.quoted && identShaped(w) && sc.namesAnything(w) {
			continue // "behaves like newMockBroker": NewMockBroker, for stale-reference
		}
		// Behind an article, only a word that is no English one, or one
		// the doc marks as a name, is a name: "the rv", not "the key".
		bare := bareUse(plain, w)
		if !bare && isEnglish && !marked {
			continue
		}
		// Elsewhere a plain lower-case word must stand where a name does:
		// as the subject of "is", "must", "==" and the like ("if cfg is
		// nil"), in quotes, or opening a sentence. Behind an article a
		// word no English text writes is a name too ("the rv").
		if !identShaped(w) && !paramFrame(plain, w) && !marked && (isEnglish || bare) {
			continue
		}
		if len(w) == 1 {
			// A one-letter name ("if n is negative"): the checks of
			// candidate but its length.
			if reserved[w] || w == lastPart(c.Symbol) || sc.resolves(w) || sc.syms.Defined(w) {
				continue
			}
		} else if !r.candidate(sc, reserved, text, c, w, false) {
			continue
		}
		// A tie: the names are close, or a sibling gave the word the
		// parameter's type, when that type says something (not string,
		// int or the like) or the word is no English one.
		var win []string
		for _, p := range unnamed {
			if closeParam(w, p) || slices.Contains(sibling, typeOf[p]) && (!basicType(typeOf[p]) || !isEnglish) {
				win = append(win, p)
			}
		}
		if (isEnglish && !marked || len(w) == 1) && len(win) == 0 {
			continue // an English noun or a placeholder letter, and nothing ties it to a parameter
		}
		f := wrongParam{old: w}
		switch {
		case len(win) == 1:
			f.new = win[0]
		case len(unnamed) == 1 && len(decl.Type.Params.List) == 1 && len(win) == 0:
			f.new = unnamed[0] // the only parameter there is
		}
		found = append(found, f)
	}
	return found
}

// englishText holds the English nouns of the standard library's doc
// comments (see rules/internal/genenglish).
//
//go:embed english.txt
var englishText string

// englishWords returns the words of english.txt as a set.
var englishWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for line := range strings.SplitSeq(englishText, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out
})

// functionWords are the pronouns, determiners and quantifiers English
// writes as the subject of a statement about a value ("you should call
// it", "each must be unique"), which english.txt, a list of nouns, leaves
// out; unquoted, they name no parameter.
var functionWords = map[string]bool{
	"you": true, "we": true, "they": true, "he": true, "she": true, "it": true, "one": true,
	"this": true, "that": true, "these": true, "those": true, "there": true, "here": true,
	"which": true, "who": true, "what": true, "whom": true, "whose": true, "all": true, "any": true,
	"each": true, "every": true, "both": true, "either": true, "neither": true, "none": true,
	"some": true, "someone": true, "anyone": true, "everyone": true, "nothing": true,
	"something": true, "anything": true, "everything": true, "also": true, "then": true, "now": true,
}

// frameWords are the words after which a word before them is the subject
// of a statement about a value: "n is negative", "opt must be a struct".
var frameWords = map[string]bool{
	"is": true, "isn": true, "are": true, "was": true, "were": true, "must": true, "should": true,
	"may": true, "might": true, "can": true, "cannot": true, "will": true, "won": true, "has": true,
	"have": true, "does": true, "doesn": true, "equals": true, "contains": true, "holds": true,
	"specifies": true, "determines": true, "defaults": true, "points": true, "refers": true,
}

// conditionWords open a clause whose subject comes next: "until timeout
// elapses", "if cfg is nil".
var conditionWords = map[string]bool{
	"if": true, "when": true, "unless": true, "until": true, "whether": true, "once": true, "while": true,
}

// paramFrame reports whether word occurs in text as the subject of a
// statement about its value: followed by one of [frameWords] or by a
// comparison operator, or right after one of [conditionWords].
func paramFrame(text, word string) bool {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		i = end
		if j > 0 && isIdentByte(text[j-1]) || end < len(text) && isIdentByte(text[end]) {
			continue
		}
		if before := wordRE.FindAllString(text[:j], -1); len(before) > 0 && articles[strings.ToLower(before[len(before)-1])] ||
			len(before) > 1 && articles[strings.ToLower(before[len(before)-2])] && isLowerStart(before[len(before)-1]) {
			continue // "the command does not exist", "the specified level is": a noun
		}
		if before := wordRE.FindAllString(text[:j], -1); len(before) > 0 && conditionWords[strings.ToLower(before[len(before)-1])] &&
			strings.TrimSpace(text[strings.LastIndex(text[:j], before[len(before)-1])+len(before[len(before)-1]):j]) == "" {
			return true
		}
		rest := strings.TrimLeft(text[end:], " \t\n")
		for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
			if strings.HasPrefix(rest, op) {
				return true
			}
		}
		if next := wordRE.FindString(rest); next != "" && strings.HasPrefix(rest, next) && frameWords[strings.ToLower(next)] {
			return true
		}
	}
	return false
}

// inPath reports whether the word at text[start:end] is part of a path or
// selector ("mc.ch/inflight", "x.y"): a slash or dot touches it.
func inPath(text string, start, end int) bool {
	return start > 0 && (text[start-1] == '/' || text[start-1] == '.') ||
		end < len(text) && (text[end] == '/' || end+1 < len(text) && text[end] == '.' && isIdentByte(text[end+1]))
}

// hyphenated reports whether the word at text[start:end] is part of a
// hyphenated compound ("a b-tree search", "x-axis").
func hyphenated(text string, start, end int) bool {
	return start > 0 && text[start-1] == '-' || end+1 < len(text) && text[end] == '-' && isIdentByte(text[end+1])
}

// afterApostrophe reports whether the word at i follows an apostrophe, as
// the "s" of "package's" does.
func afterApostrophe(text string, i int) bool {
	return i > 0 && (text[i-1] == '\'' || strings.HasSuffix(text[:i], "’"))
}

// basicType reports whether a parameter type, as written, is one that
// many unrelated parameters share: predeclared types, byte slices, empty
// interfaces, errors, contexts.
func basicType(t string) bool {
	t = strings.TrimPrefix(t, "...")
	if types.Universe.Lookup(t) != nil {
		return true
	}
	switch t {
	case "[]byte", "[]string", "interface{}", "[]interface{}", "[]any", "context.Context":
		return true
	}
	return false
}

// placeholderRE matches a placeholder in angle brackets: "<n>", "<host>".
var placeholderRE = regexp.MustCompile(`<[^<>\n]*>`)

// proseOnly drops from a doc comment's text what is not prose: indented
// code lines and placeholders in angle brackets. Indented list items
// ("  - When blockNr is -1") are prose.
func proseOnly(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if (strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " ")) && !listItemRE.MatchString(l) {
			lines[i] = ""
		}
	}
	return placeholderRE.ReplaceAllString(strings.Join(lines, "\n"), " ")
}

// listItemRE matches a line of a list in a doc comment, as gofmt writes
// them: indented, then a marker ("-", "*", "+", "•") or a number.
var listItemRE = regexp.MustCompile(`^[ \t]+(?:[-*+•]|[0-9]+[.)])[ \t]`)

// isLowerStart reports whether s starts with a lower-case ASCII letter.
func isLowerStart(s string) bool { return s != "" && s[0] >= 'a' && s[0] <= 'z' }

// bodyNames returns every identifier the body of d uses or declares.
func bodyNames(d *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	if d.Body == nil {
		return out
	}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out[id.Name] = true
		}
		return true
	})
	return out
}

// funcTypeNames returns the names the signature of d declares anywhere:
// receiver, parameters, results, type parameters and the parameters of
// func-typed parameters ("fn func(path string)").
func funcTypeNames(d *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	visit := func(n ast.Node) bool {
		if f, ok := n.(*ast.Field); ok {
			for _, id := range f.Names {
				out[id.Name] = true
			}
		}
		return true
	}
	if d.Recv != nil {
		ast.Inspect(d.Recv, visit)
	}
	ast.Inspect(d.Type, visit)
	return out
}

// callFormRE finds a call written in prose: a name and an argument list
// without nested parentheses.
var callFormRE = regexp.MustCompile(`([\pL_][\pL\pN_]*)\(([^()\n]*)\)`)

// swapped reports a doc that writes its own function's call with the
// parameter names in another order than the signature's ("Copy(dst, src)"
// for func Copy(src, dst string)): every argument is a parameter name,
// each parameter appears once, and the doc never writes the call in the
// signature's order. The suggestion puts the names in order.
func (r *WrongParameter) swapped(c review.Claim, sym retrieval.Symbol, decl *ast.FuncDecl, params []string) *review.Verdict {
	if len(params) < 2 || len(params) != decl.Type.Params.NumFields() {
		return nil
	}
	name := decl.Name.Name
	want := strings.Join(params, ", ")
	var bad []string
	for _, m := range callFormRE.FindAllStringSubmatch(c.Text, -1) {
		if m[1] != name {
			continue
		}
		var args []string
		for a := range strings.SplitSeq(m[2], ",") {
			args = append(args, strings.TrimSuffix(strings.TrimSpace(a), "..."))
		}
		if strings.Join(args, ", ") == want {
			return nil // the doc also writes the call in order
		}
		sorted, ps := slices.Clone(args), slices.Clone(params)
		slices.Sort(sorted)
		slices.Sort(ps)
		if slices.Equal(sorted, ps) && !slices.Contains(bad, m[0]) {
			bad = append(bad, m[0])
		}
	}
	if len(bad) == 0 {
		return nil
	}
	line := sym.Line
	if p := sym.Package; p != nil && p.Fset != nil {
		line = p.Fset.Position(decl.Type.Pos()).Line
	}
	suggestion := c.Text
	for _, b := range bad {
		args := strings.SplitN(b[len(name)+1:len(b)-1], ",", len(params))
		fixed := slices.Clone(params)
		for i, a := range args {
			if strings.HasSuffix(strings.TrimSpace(a), "...") {
				fixed[i] += "..."
			}
		}
		suggestion = strings.ReplaceAll(suggestion, b, name+"("+strings.Join(fixed, ", ")+")")
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.85,
		Message:    fmt.Sprintf("The doc writes %s, but %s takes its parameters in the order %s.", bad[0], c.Symbol, joinAnd(params)),
		Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: sym.Path, StartLine: line, EndLine: line, Source: review.SourceCode,
			Why: "signature: " + sym.Signature, Hops: []string{c.Symbol + " (doc)", c.Symbol},
		}},
	}
}

// candidate reports whether word may be a parameter name the doc got
// wrong: no other name of the claim's scope, no stop word or single
// letter, and, unless shaped (backticked or identifier-shaped), used at
// least once without an article in front of it.
func (r *WrongParameter) candidate(sc scope, reserved map[string]bool, text string, c review.Claim, word string, shaped bool) bool {
	if len([]rune(word)) < 2 || reserved[word] || stopWords[strings.ToLower(word)] || isBuiltin(word) ||
		word == lastPart(c.Symbol) || sc.resolves(word) || sc.hasMember(word) || sc.syms.Defined(word) ||
		identShaped(word) && sc.syms.DependencyDeclares(word) {
		return false
	}
	if shaped || identShaped(word) || strings.Contains(text, "`"+word+"`") {
		return true
	}
	return bareUse(text, word)
}

// articles are words after which a noun is English, not a parameter name.
var articles = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "that": true, "each": true, "every": true,
	"its": true, "their": true, "any": true, "some": true, "no": true, "our": true, "your": true,
	"these": true, "those": true, "own": true, "his": true, "her": true, "my": true, "all": true,
	"both": true, "other": true, "such": true, "another": true, "same": true, "many": true, "more": true,
	"most": true, "few": true, "several": true,
}

// paramNouns are words after which the word before names a parameter,
// article or not ("the tpl argument").
var paramNouns = map[string]bool{
	"argument": true, "arguments": true, "arg": true, "args": true,
	"parameter": true, "parameters": true, "param": true, "params": true,
}

// bareUse reports whether word occurs in text at least once as a name:
// not right after an article ("for key", not "the key"), or right before
// "argument" or "parameter" ("the key argument").
func bareUse(text, word string) bool {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		i = end
		if j > 0 && (isIdentByte(text[j-1]) || text[j-1] == '.') || end < len(text) && isIdentByte(text[end]) {
			continue
		}
		before := wordRE.FindAllString(text[:j], -1)
		if len(before) == 0 || !articles[strings.ToLower(before[len(before)-1])] {
			return true
		}
		if next := wordRE.FindString(text[end:]); paramNouns[strings.ToLower(next)] &&
			strings.TrimSpace(text[end:end+strings.Index(text[end:], next)]) == "" {
			return true // "the tpl argument"
		}
	}
	return false
}

// pointingWords stand between an article and a parameter's name without
// making it a noun of English: "the given key".
var pointingWords = map[string]bool{"given": true, "specified": true, "provided": true, "supplied": true, "passed": true}

// phraseBreakers end a noun phrase: a word after them is not qualified by
// the words before them.
var phraseBreakers = map[string]bool{
	"of": true, "for": true, "to": true, "in": true, "on": true, "at": true, "by": true, "with": true,
	"from": true, "as": true, "and": true, "or": true, "into": true, "is": true, "are": true, "was": true,
	"be": true, "if": true, "when": true, "than": true, "then": true, "not": true, "returns": true,
}

// compoundOnly reports whether every occurrence of word in text ends a
// noun phrase that an article opens and another noun or adjective
// qualifies: "checks the given consistency proof" writes the noun proof,
// not the parameter proof a diff renamed to pf. "the given key" points
// at a parameter.
func compoundOnly(text, word string) bool {
	found := false
	for j := range wordSpans(text, word) {
		found = true
		before := wordRE.FindAllString(text[:j], -1)
		n := len(before)
		if n < 2 {
			return false
		}
		mod := before[n-1]
		if !isLowerStart(mod) || pointingWords[mod] || phraseBreakers[mod] || articles[mod] {
			return false
		}
		opened := articles[strings.ToLower(before[n-2])] ||
			n >= 3 && articles[strings.ToLower(before[n-3])] && isLowerStart(before[n-2]) && !phraseBreakers[before[n-2]]
		if !opened {
			return false
		}
	}
	return found
}

// closeParam reports whether word is close to parameter p: the same case
// of first letter, and an edit distance of at most max(1, len/3) or the
// same camel-case words in any order.
func closeParam(word, p string) bool {
	if token0Exported(word) != token0Exported(p) {
		return false
	}
	if prose.EditDistance(strings.ToLower(word), strings.ToLower(p)) <= max(1, len([]rune(p))/3) {
		return true
	}
	a, b := prose.Words(word), prose.Words(p)
	slices.Sort(a)
	slices.Sort(b)
	return len(a) > 1 && slices.Equal(a, b)
}

var backtickRE = regexp.MustCompile("`([^`\n]+)`")

// shapedWords returns the backticked identifiers and the identifier-shaped
// words of a doc text, in order.
func shapedWords(text string) []string {
	var out []string
	for _, m := range backtickRE.FindAllStringSubmatch(text, -1) {
		if token.IsIdentifier(m[1]) {
			out = append(out, m[1])
		}
	}
	text = quotedRE.ReplaceAllString(backtickRE.ReplaceAllString(text, " "), " ")
	for _, w := range wordRE.FindAllString(text, -1) {
		if token.IsIdentifier(w) && identShaped(w) {
			out = append(out, w)
		}
	}
	return out
}

// paramNames lists the named parameters of a declaration, without "_".
func paramNames(fl *ast.FieldList) []string {
	var out []string
	for _, p := range fields(fl) {
		if p.name != "" && p.name != "_" {
			out = append(out, p.name)
		}
	}
	return out
}

// baseDecl finds the declaration at base of the func or method decl,
// through the diff's file renames; nil when the file is new, unchanged,
// unreadable or no longer declares it.
func (r *WrongParameter) baseDecl(ws *review.Workspace, sym retrieval.Symbol, decl *ast.FuncDecl) *ast.FuncDecl {
	if ws.BaseFS == nil {
		return nil
	}
	var old string
	for _, f := range ws.Diff {
		if f.NewPath == sym.Path && f.Status != diff.Added && f.Status != diff.Deleted {
			old = f.OldPath
		}
	}
	if old == "" {
		return nil
	}
	base, err := parsedBase(ws, old)
	if err != nil {
		return nil
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
		return fd
	}
	return nil
}

// verdict turns the wrong names of a doc comment into one verdict.
func (r *WrongParameter) verdict(ws *review.Workspace, c review.Claim, sym retrieval.Symbol, decl *ast.FuncDecl, params []string, found []wrongParam) *review.Verdict {
	v := &review.Verdict{Label: review.Contradicted, Rule: r.Name(), Confidence: 0.9}
	line := sym.Line
	if p := sym.Package; p != nil && p.Fset != nil {
		line = p.Fset.Position(decl.Type.Pos()).Line
	}
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: sym.Path, StartLine: line, EndLine: line, Source: review.SourceCode,
		Why: "signature: " + sym.Signature, Hops: []string{c.Symbol + " (doc)", c.Symbol},
	})
	var parts []string
	suggestion, certain := c.Text, true
	news := map[string]bool{}
	renamedInDiff, editedInDiff := false, false
	for _, f := range found {
		if f.new == "" {
			// No parameter wins clearly: say what the signature has.
			parts = append(parts, fmt.Sprintf("doc uses %s as a parameter name, but %s's parameters are %s", f.old, c.Symbol, joinAnd(params)))
			v.Confidence = min(v.Confidence, 0.7)
			certain = false
			continue
		}
		p := fmt.Sprintf("doc names parameter %s, but %s's parameters are %s", f.old, c.Symbol, joinAnd(params))
		if countWord(quotedRE.ReplaceAllString(c.Text, " "), f.new) == 0 {
			p += fmt.Sprintf("; %s is not mentioned", f.new)
		}
		switch {
		case f.renamed:
			p += fmt.Sprintf(" (this diff renamed %s to %s)", f.old, f.new)
			renamedInDiff = true
		case f.edited:
			p += fmt.Sprintf(" (this diff replaced %s with %s in the doc)", f.new, f.old)
			editedInDiff = true
		default:
			v.Confidence = min(v.Confidence, 0.75)
		}
		parts = append(parts, p)
		if news[f.new] {
			certain = false
		}
		news[f.new] = true
		var n int
		if suggestion, n = replaceName(suggestion, f.old, f.new); n == 0 {
			certain = false
		}
	}
	if renamedInDiff {
		ref := review.SymbolRef{Path: sym.Path, Line: line}
		if ev, ok := hunkEvidence(ws.Diff, ref, false); ok {
			var olds []string
			for _, f := range found {
				if f.renamed {
					olds = append(olds, f.old+" to "+f.new)
				}
			}
			ev.Why = "this diff renamed parameter " + joinAnd(olds)
			ev.Hops = []string{c.Symbol + " (doc)", "diff " + ev.Path}
			v.Evidence = append(v.Evidence, ev)
		}
	}
	if editedInDiff {
		if ev, ok := docHunk(ws, c); ok {
			var edits []string
			for _, f := range found {
				if f.edited {
					edits = append(edits, f.new+" with "+f.old)
				}
			}
			ev.Why = "this diff replaced parameter name " + joinAnd(edits) + " in the doc"
			ev.Hops = []string{c.Symbol + " (doc)", "diff " + ev.Path}
			v.Evidence = append(v.Evidence, ev)
		}
	}
	v.Message = "The " + strings.Join(parts, "; ") + "."
	if certain && suggestion != c.Text {
		v.Suggestion = suggestion
	}
	return v
}

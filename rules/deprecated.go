package rules

import (
	"context"
	"fmt"
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

var _ review.Judge = (*DeprecatedUse)(nil)

// DeprecatedUse is the deprecated-use rule: a doc comment or Markdown text
// that names (doc link, code span or identifier-shaped word) a symbol of
// the module whose own doc carries a "Deprecated:" paragraph is labelled
// incomplete, with that paragraph as evidence and the replacement it
// names in the message.
//
// It stays quiet where mentioning a deprecated name is the point: the
// deprecated symbol's own doc and those of other deprecated symbols, text
// that itself says "deprecated" or "instead", change logs, and migration
// or upgrade guides. Code blocks
// belong to the snippet rule.
//
// It also stays quiet where every mention of the name, read in its own
// sentence, is history or contrast rather than advice (see [recommends]):
//   - the name followed by "would", "was", "were", "had", "did" or
//     "used to" ("middleware.RealIP would set r.RemoteAddr");
//   - the name opening its sentence or clause, followed by a past-tense
//     verb ("RealIP set r.RemoteAddr", "RealIP trusted X-Real-IP");
//   - the name after "unlike", "than", "compared to/with", "in contrast
//     to/with" or "as opposed to" ("never mutated, unlike RealIP");
//   - the name in a condition, before its comma ("if the type implements
//     xattr.TypeWithValidate, ...");
//   - in the doc of a _test.go declaration other than an Example, any
//     mention not directly after an instruction such as "use" or "call":
//     tests describe and exercise deprecated APIs until they are removed.
//
// Everything else is still a recommendation: an instruction ("call
// [RealIP] first"), and outside tests a present-tense description ("wraps
// h in RealIP", "`RealIP` sets r.RemoteAddr"), which tells readers they
// rely on it. The zero value is ready to use and safe for concurrent use.
type DeprecatedUse struct{}

// Name returns "deprecated-use".
func (*DeprecatedUse) Name() string { return "deprecated-use" }

// deprecatedRE finds the Deprecated paragraph of a doc comment.
var deprecatedRE = regexp.MustCompile(`(?m)^Deprecated: *(.*(?:\n[^\n]+)*)`)

// useRE finds the replacement a Deprecated paragraph names: "Use X",
// "use [X] instead".
var useRE = regexp.MustCompile(`(?i)\buse\s+\[?\*?([A-Za-z_][\w.]*)\]?`)

// Judge reports a claim that recommends a deprecated symbol, or nil.
func (r *DeprecatedUse) Judge(_ context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Symbols == nil || isHistory(c.Path) || isUpgradeGuide(c.Path) || isOtherVersionDoc(ws, c.Path) || isDeprecated(c.Text) {
		return nil, nil
	}
	lower := strings.ToLower(c.Text)
	if strings.Contains(lower, "deprecated") || strings.Contains(lower, "instead") {
		return nil, nil
	}
	sc := newScope(ws.Symbols, c)
	for _, m := range c.Mentions {
		if inBlock(c.Mentions, m) {
			continue
		}
		name, ok := refName(m)
		if !ok || name == c.Symbol || !recommends(c, m.Text) {
			continue
		}
		sym, ok := sc.lookup(name)
		if !ok || sym.DocLine < 1 {
			continue
		}
		para := deprecatedRE.FindStringSubmatch(sym.Doc)
		if para == nil || returnsType(ws.Symbols, c, sym) {
			continue
		}
		note := strings.Join(strings.Fields(para[1]), " ")
		v := &review.Verdict{
			Label:      review.Incomplete,
			Rule:       r.Name(),
			Confidence: 0.8,
			Message:    fmt.Sprintf("The text recommends %s, which is deprecated: %s", name, note),
			Evidence: []review.Evidence{{
				Path: sym.Path, StartLine: sym.DocLine, EndLine: sym.DocEndLine, Source: review.SourceCode,
				Why:  fmt.Sprintf("%s is marked Deprecated", sym.Name),
				Hops: []string{hopOf(c), sym.Name},
			}},
		}
		if u := useRE.FindStringSubmatch(note); u != nil {
			repl := strings.TrimSuffix(u[1], ".")
			if rs, ok := resolveReplacement(ws.Symbols, sym, repl); ok {
				v.Message = fmt.Sprintf("The text recommends %s, which is deprecated; use %s instead", name, repl)
				ref := ws.Symbols.Definition(rs)
				start, end := lineRange(ref.Line, ref.EndLine)
				v.Evidence = append(v.Evidence, review.Evidence{
					Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
					Why:  "defines " + rs.Name + ", the replacement",
					Hops: []string{hopOf(c), sym.Name, rs.Name},
				})
			}
		}
		if !strings.HasSuffix(v.Message, ".") {
			v.Message += "."
		}
		return v, nil
	}
	return nil, nil
}

// Patterns of the sentence around a mention, read by [recommends].
var (
	// clauseEndRE ends the sentence or clause before a mention: "GHSA-x
	// (convto): RealIP set ..." opens a clause with RealIP.
	clauseEndRE = regexp.MustCompile(`[.!?;:]\s+|\n\s*\n`)
	// contrastRE ends the text before a name it contrasts with.
	// conditionRE matches the part of a clause before a name that opens
	// a condition the name is in, before its comma ("If the type
	// implements xattr.TypeWithValidate, its validation runs too", "This
	// is ignored if WithDialer is used"): the text says what happens for
	// code that uses the name, it does not advise it.
	conditionRE = regexp.MustCompile(`(?i)(?:^|\s)(?:if|when|whenever|unless|whether)\s[^,]*$`)
	contrastRE  = regexp.MustCompile(`(?i)\b(?:unlike|than|compared\s+(?:to|with)|in\s+contrast\s+(?:to|with)|as\s+opposed\s+to)\s*$`)
	// instructionRE ends the text before a name it tells readers to use.
	instructionRE = regexp.MustCompile(`(?i)\b(?:use|call|prefer|choose|try|pass|add|insert|install|register|apply|wrap\s+\S+\s+(?:in|with))\s+(?:(?:the|a|an)\s+)?$`)
)

// pastMarkers are the words after a name that put it in the past or in a
// hypothetical, wherever it stands in its sentence.
var pastMarkers = map[string]bool{"would": true, "was": true, "were": true, "had": true, "did": true}

// irregularPast are past-tense verbs without -ed that follow a name as
// its subject ("RealIP set r.RemoteAddr"; the present is "sets").
var irregularPast = map[string]bool{
	"set": true, "put": true, "read": true, "let": true, "ran": true, "took": true, "gave": true,
	"made": true, "kept": true, "sent": true, "wrote": true, "held": true, "built": true, "broke": true,
}

// recommends reports whether claim c recommends the name written as text:
// whether some occurrence of text in c.Text, read in its sentence, is not
// history (a past or conditional verb after it), not a contrast ("unlike
// text") and, in the doc of a _test.go declaration other than an Example,
// directly follows an instruction ("use text"). When text does not occur
// as a whole word, it reports true, as the rule did before reading
// sentences.
func recommends(c review.Claim, text string) bool {
	isTest := strings.HasSuffix(c.Path, "_test.go") && c.Kind != review.KindExample
	found := false
	for i := 0; text != ""; {
		j := strings.Index(c.Text[i:], text)
		if j < 0 {
			break
		}
		start, end := i+j, i+j+len(text)
		i = start + 1
		if !wordAt(c.Text, start, end) {
			continue
		}
		found = true
		before := c.Text[:start]
		if loc := clauseEndRE.FindAllStringIndex(before, -1); loc != nil {
			before = before[loc[len(loc)-1][1]:]
		}
		before = strings.TrimRight(before, "[`*&")
		after := nextWords(c.Text[end:], 2)
		switch {
		case historical(before, after), contrastRE.MatchString(before), conditionRE.MatchString(before):
		case isTest && !instructionRE.MatchString(before):
		default:
			return true
		}
	}
	return !found
}

// wordAt reports whether s[start:end] stands alone as a name, as
// [replaceName] reads it: not part of a longer identifier or of a
// qualified name ("RealIP" in "middleware.RealIP").
func wordAt(s string, start, end int) bool {
	if start > 0 && (isIdentByte(s[start-1]) || s[start-1] == '.') {
		return false
	}
	return end == len(s) || !isIdentByte(s[end])
}

// nextWords returns up to n lower-case words after a name, past the
// closing bracket, backquote or call parentheses that end the mention.
func nextWords(s string, n int) []string {
	s = strings.TrimLeft(s, "]`()")
	var out []string
	for _, w := range strings.Fields(s) {
		if len(out) == n {
			break
		}
		out = append(out, strings.ToLower(strings.Trim(w, ",;:.!?()\"'`")))
	}
	return out
}

// historical reports whether a name with before (the start of its
// clause up to it) and after (the next words) is spoken of in the past or
// hypothetically: "would"/"was"/"used to" after it anywhere, or a
// past-tense verb after it as the clause's subject.
func historical(before string, after []string) bool {
	if len(after) == 0 {
		return false
	}
	w := after[0]
	if pastMarkers[w] || w == "used" && len(after) > 1 && after[1] == "to" {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(before)) {
	case "", "the", "old", "legacy", "the old", "the legacy":
	default:
		return false
	}
	return irregularPast[w] || len(w) > 3 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed")
}

// resolveReplacement finds the replacement a Deprecated note names, as
// written in the deprecated symbol's package.
func resolveReplacement(syms *retrieval.Symbols, dep retrieval.Symbol, name string) (retrieval.Symbol, bool) {
	if dep.Package == nil {
		return retrieval.Symbol{}, false
	}
	sym, ok := syms.Lookup(dep.Package.Dir, name)
	if !ok || sym.Path == "" {
		return retrieval.Symbol{}, false
	}
	return sym, true
}

// hopOf names the claim as the first hop of an evidence chain.
func hopOf(c review.Claim) string {
	if c.Symbol != "" {
		return c.Symbol + " (doc)"
	}
	return fmt.Sprintf("%s:%d", c.Path, c.Line)
}

// returnsType reports whether the claim is the doc of a func or method
// that returns the type dep (or a pointer to it): its doc names what its
// signature gives ("NewIndicesDeleteTemplateService creates a new
// IndicesDeleteTemplateService"). The signature, not the doc, uses the
// deprecated type, and a doc that names it differently would be wrong.
func returnsType(syms *retrieval.Symbols, c review.Claim, dep retrieval.Symbol) bool {
	if c.Kind != review.KindDocComment || c.Symbol == "" {
		return false
	}
	tn, ok := dep.Object.(*types.TypeName)
	if !ok {
		return false
	}
	sig, ok := funcSignature(syms, c.Package, c.Symbol)
	if !ok {
		return false
	}
	for v := range sig.Results().Variables() {
		t := types.Unalias(v.Type())
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		if types.Identical(t, types.Unalias(tn.Type())) {
			return true // also through an alias ("type MethodConfig = …")
		}
	}
	return false
}

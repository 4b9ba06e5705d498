package rules

import (
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the limit-constant half of the literal-mismatch rule: a
// sentence says how low or how high a setting goes ("The dial timeout by
// default is 30s, and can decrease automatically down to 100ms", CoreDNS's
// forward README) and the doc's package declares one constant for that
// bound, named for it and the setting (minDialTimeout = 1 * time.Second).
// The cue before the number says which bound: "down to", "at least", "a
// minimum of" the lower, "up to", "at most", "a maximum of" the upper; the
// setting's words, two or more, must stand in the sentence before it, in
// the constant's order.

// boundCueRE finds a bound's cue at the end of the text before a number;
// group 1 is a lower bound's, group 2 an upper bound's.
var boundCueRE = regexp.MustCompile(`(?i)\b(?:(down\s+to|as\s+low\s+as|at\s+least|a\s+minimum\s+of|no\s+less\s+than|no\s+lower\s+than)|(up\s+to|as\s+high\s+as|at\s+most|a\s+maximum\s+of|no\s+more\s+than|no\s+higher\s+than))\s+$`)

// limitConst is a package constant named for a bound of a setting.
type limitConst struct {
	name  string
	upper bool
	topic []string // the setting's words: [dial timeout]
}

// limitConsts returns the package-level constants of the doc's package
// whose name starts or ends with min/max (or minimum/maximum) and has two
// or more other words.
func limitConsts(scope *types.Scope) []limitConst {
	var out []limitConst
	for _, name := range scope.Names() {
		if _, ok := scope.Lookup(name).(*types.Const); !ok {
			continue
		}
		words := prose.Words(name)
		if len(words) < 3 {
			continue
		}
		var upper bool
		switch {
		case isLimitWord(words[0], "min") || isLimitWord(words[len(words)-1], "min"):
		case isLimitWord(words[0], "max") || isLimitWord(words[len(words)-1], "max"):
			upper = true
		default:
			continue
		}
		topic := prose.TopicWords(name)
		if len(topic) < 2 {
			continue
		}
		out = append(out, limitConst{name: name, upper: upper, topic: topic})
	}
	return out
}

// isLimitWord reports whether w is the bound word b ("min", "max") or its
// full form.
func isLimitWord(w, b string) bool {
	return w == b || w == b+"imum"
}

// judgeLimitConst reports a bound a sentence states for a setting whose
// bound constant has another value, or nil.
func (r *LiteralMismatch) judgeLimitConst(ws *review.Workspace, c review.Claim) *review.Verdict {
	p := docPackage(ws, c)
	if p == nil {
		return nil
	}
	consts := limitConsts(p.Types.Scope())
	if len(consts) == 0 {
		return nil
	}
	for _, sp := range prose.Sentences(c.Text) {
		sent := c.Text[sp.Start:sp.End]
		lits, _ := placeMentions(ws, sent)
		for _, lit := range lits {
			m := boundCueRE.FindStringSubmatch(sent[:lit.start])
			if m == nil {
				continue
			}
			upper := m[2] != ""
			words := sentenceWords(sent[:lit.start])
			var found *limitConst
			for i, lc := range consts {
				if lc.upper != upper || !wordsInOrder(words, lc.topic) {
					continue
				}
				if found != nil {
					found = nil
					break
				}
				found = &consts[i]
			}
			if found == nil {
				continue
			}
			sym, ok := ws.Symbols.Lookup(p.Dir, found.name)
			if !ok {
				continue
			}
			site, ok := r.constSite(ws, sym)
			if !ok {
				continue
			}
			lit.start += sp.Start
			lit.end += sp.Start
			if v := r.compare(c, strings.Join(found.topic, " ")+map[bool]string{true: "'s upper bound", false: "'s lower bound"}[upper], lit, site); v != nil {
				return v
			}
		}
	}
	return nil
}

// sentenceWordRE finds the words of a sentence.
var sentenceWordRE = regexp.MustCompile(`[A-Za-z]+`)

// sentenceWords returns the lower-cased words of text.
func sentenceWords(text string) []string {
	out := sentenceWordRE.FindAllString(text, -1)
	for i := range out {
		out[i] = strings.ToLower(out[i])
	}
	return out
}

// wordsInOrder reports whether words hold topic's words one after the
// other (a plural allowed): "dial timeout".
func wordsInOrder(words, topic []string) bool {
	for i := 0; i+len(topic) <= len(words); i++ {
		ok := true
		for j, t := range topic {
			w := words[i+j]
			if w != t && w != t+"s" && w != t+"es" {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

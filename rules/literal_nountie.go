package rules

import (
	"path"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the noun-phrase tie of the literal-mismatch rule: the
// words around a number in a sentence name a constant ("the frame header
// (8 bytes)" for HeaderSize, "version 2 of the protocol" for
// ProtocolVersion2Compatible), so the number states that constant's value.
// It binds only where another fact already points at the constant: the
// diff changed the constant's value and the number is its old value, or
// the diff changed the number and the old number was the constant's value.

// nounWindow is how many words either side of a number the words naming
// its constant may stand.
const nounWindow = 6

// nounTie reports whether the words of sent within nounWindow words of
// the number at sent[start:end] name the constant or field name
// ([prose.TopicNamed]).
func nounTie(sent string, start, end int, name string) bool {
	return prose.TopicNear(sent, start, end, nounWindow, prose.TopicWords(name))
}

// nounCandidate reports whether claim c may state, in words, the value of
// a constant of the package in dir: a doc comment of that package, or a
// Markdown file in its directory or a parent of it.
func nounCandidate(c review.Claim, dir string) bool {
	switch c.Kind {
	case review.KindDocComment:
		return c.Package == dir
	case review.KindMarkdown:
		md := path.Dir(c.Path)
		return md == "." || md == dir || strings.HasPrefix(dir, md+"/")
	}
	return false
}

// nounTiedOld returns the number of sent that the words around it tie to
// the changed constant and that states its old value but not its new
// one, with how the new value compares. A sentence that states the new
// value too, or the old one twice, is left alone.
func nounTiedOld(sent string, vc valueChange) (litPlaced, litMatch, bool) {
	var found *litPlaced
	var now litMatch
	for _, n := range sentenceNumbers(sent) {
		if n.value == 0 || n.value == 1 && n.unit == "" || partOfNumber(sent, n.start, n.end) {
			continue
		}
		unit := n.unit
		if unit == "" {
			unit = "count"
		}
		lit := litPlaced{
			Mention: review.Mention{Kind: review.MentionLiteral, Text: sent[n.start:n.end], Value: n.value, Unit: unit},
			start:   n.start, end: n.end,
		}
		was, ok := matchLiteral(lit, vc.was)
		if !ok {
			continue
		}
		m, ok := matchLiteral(lit, vc.now)
		if !ok || m.equal {
			return litPlaced{}, litMatch{}, false
		}
		if !was.equal || !nounTie(sent, n.start, n.end, vc.name) {
			continue
		}
		if found != nil {
			return litPlaced{}, litMatch{}, false
		}
		found, now = &lit, m
	}
	if found == nil {
		return litPlaced{}, litMatch{}, false
	}
	return *found, now, true
}

// partOfNumber reports whether sent[start:end] is part of a longer number
// or version: "2" of "2.5", "1,000" or "1.2.3".
func partOfNumber(sent string, start, end int) bool {
	if end+1 < len(sent) && (sent[end] == '.' || sent[end] == ',') && litDigit(sent[end+1]) {
		return true
	}
	return start >= 2 && (sent[start-1] == '.' || sent[start-1] == ',') && litDigit(sent[start-2])
}

package prose

import (
	"slices"
	"strings"
)

// topicKindWords are the words of a Go name that say what kind of value
// it is rather than what it is about ("default", "max", "size"); they
// never tie a sentence to a name on their own.
var topicKindWords = map[string]bool{
	"default": true, "def": true, "dflt": true, "maximum": true, "minimum": true, "number": true,
	"count": true, "size": true, "length": true, "limit": true, "value": true, "total": true,
	"const": true, "constant": true, "initial": true, "initialize": true,
	"new": true, "the": true, "per": true, "and": true, "for": true, "with": true,
}

// TopicWords returns the words of a Go name (its last dotted part) that
// say what it is about, lower-cased and with abbreviations expanded:
// "defaultMaxFrameSize" gives [frame], "ProtocolVersion2Compatible"
// [protocol version compatible], "DefaultSize" nothing. Words of fewer
// than three letters and digits are left out.
func TopicWords(name string) []string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	var out []string
	for _, w := range Words(name) {
		if one := strings.TrimSuffix(w, "s"); one != w && Expand(one) != one {
			w = Expand(one) // "conns": connection
		}
		w = Expand(w)
		if len(w) < 3 || topicKindWords[w] || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			continue
		}
		out = append(out, w)
	}
	return out
}

// TopicNamed reports whether words name topic (from [TopicWords]): every
// topic word is among them when there are one or two, at least two of
// them when there are more. No topic names nothing.
func TopicNamed(words, topic []string) bool {
	if len(topic) == 0 {
		return false
	}
	found := 0
	for _, t := range topic {
		for _, w := range words {
			if topicWordMatches(w, t) {
				found++
				break
			}
		}
	}
	if len(topic) <= 2 {
		return found == len(topic)
	}
	return found >= 2
}

// TopicCovers reports whether every word of topic is among words, as
// [TopicNamed] matches them; no topic is covered by nothing.
func TopicCovers(words, topic []string) bool {
	if len(topic) == 0 {
		return false
	}
	for _, t := range topic {
		if !slices.ContainsFunc(words, func(w string) bool { return topicWordMatches(w, t) }) {
			return false
		}
	}
	return true
}

// TopicNear reports whether the words of text within window words
// before start or after end name topic, as [TopicNamed] counts.
func TopicNear(text string, start, end, window int, topic []string) bool {
	before, after := Words(text[:start]), Words(text[end:])
	if len(before) > window {
		before = before[len(before)-window:]
	}
	if len(after) > window {
		after = after[:window]
	}
	return TopicNamed(append(before, after...), topic)
}

// topicWordMatches reports whether word w of a sentence is topic word t:
// the same word, a plural of it, or, for a topic word of four letters or
// more, a longer form of it by at most four letters ("connection"
// matches "connections", "header" "headers").
func topicWordMatches(w, t string) bool {
	w = Expand(w)
	if w == t || strings.TrimSuffix(w, "s") == t || strings.TrimSuffix(w, "es") == t {
		return true
	}
	return len(t) >= 4 && strings.HasPrefix(w, t) && len(w)-len(t) <= 4
}

// topicLeadWords may stand right before the words naming a topic without
// qualifying them: articles, possessives, the words of defaults and
// bounds.
var topicLeadWords = map[string]bool{
	"the": true, "a": true, "an": true, "its": true, "their": true, "this": true, "that": true,
	"default": true, "defaults": true, "max": true, "maximum": true, "min": true, "minimum": true,
	"is": true, "are": true, "of": true, "to": true, "and": true, "with": true, "for": true,
	"by": true, "as": true, "initial": true, "total": true,
}

// TopicPhrase is [TopicNear] for a phrase that names the topic alone: the
// first word near the number that names a topic word may not follow a
// word that qualifies it. "the default session timeout is 10s" names
// sessionTimeout; "Fetch timeout defaults to 30 seconds" does not name
// DefaultTimeout, whatever other timeout it is.
func TopicPhrase(text string, start, end, window int, topic []string) bool {
	if !TopicNear(text, start, end, window, topic) {
		return false
	}
	before, after := Words(text[:start]), Words(text[end:])
	lead := func(words []string, i int) bool { return i == 0 || topicLeadWords[words[i-1]] }
	first := max(0, len(before)-window)
	for i := first; i < len(before); i++ {
		if slices.ContainsFunc(topic, func(t string) bool { return topicWordMatches(before[i], t) }) {
			return lead(before, i)
		}
	}
	for i := 0; i < len(after) && i < window; i++ {
		if slices.ContainsFunc(topic, func(t string) bool { return topicWordMatches(after[i], t) }) {
			return i == 0 || lead(after, i)
		}
	}
	return false
}

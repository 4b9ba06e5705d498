package prose

import "strings"

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }

// Sentences returns the byte ranges of the sentences of text, without
// their surrounding white space, left to right. A sentence ends at a
// full stop, question or exclamation mark followed by a space or a line
// break, and at a blank line; a full stop after "e.g", "i.e", "etc" or
// "vs" ends none.
func Sentences(text string) []Span {
	var out []Span
	add := func(from, to int) {
		for from < to && isSpace(text[from]) {
			from++
		}
		for to > from && isSpace(text[to-1]) {
			to--
		}
		if from < to {
			out = append(out, Span{from, to})
		}
	}
	start := 0
	for i := 0; i < len(text); i++ {
		end := -1
		switch {
		case (text[i] == '.' || text[i] == '!' || text[i] == '?') && i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '\n'):
			if text[i] == '.' && EndsInAbbreviation(text[start:i]) {
				continue
			}
			end = i + 1
		case text[i] == '\n' && i+1 < len(text) && text[i+1] == '\n':
			end = i
		}
		if end >= 0 {
			add(start, end)
			start = end
		}
	}
	add(start, len(text))
	return out
}

// SplitSentences returns the sentences of text as [Sentences] finds them.
func SplitSentences(text string) []string {
	spans := Sentences(text)
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s.Start:s.End]
	}
	return out
}

// EndsInAbbreviation reports whether text ends in "e.g", "i.e", "etc" or
// "vs", in any case: a full stop after it ends no sentence.
func EndsInAbbreviation(text string) bool {
	l := strings.ToLower(text)
	return strings.HasSuffix(l, "e.g") || strings.HasSuffix(l, "i.e") || strings.HasSuffix(l, "etc") || strings.HasSuffix(l, "vs")
}

// StartsSentence reports whether the word at byte offset i of t begins a
// sentence, a list item, a quotation or the text, where capitalisation
// says nothing about identifiers.
func StartsSentence(t string, i int) bool {
	newlines := 0
	j := i - 1
	for ; j >= 0; j-- {
		c := t[j]
		if c == '\n' {
			newlines++
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' {
			continue
		}
		break
	}
	if j < 0 || newlines >= 2 {
		return true
	}
	switch t[j] {
	case '.', '!', '?', ':', '|', '#', '>', '-', '*', '+', '"', '(':
		return true
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

package rules

import (
	"iter"
	"strings"
)

// wordSpans yields the start and end of each occurrence of word in text
// that stands as a whole word: no identifier byte touches it on either
// side. The scan goes on after the end of every occurrence, whole or not.
func wordSpans(text, word string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		if word == "" {
			return
		}
		for i := 0; i < len(text); {
			j := strings.Index(text[i:], word)
			if j < 0 {
				return
			}
			j += i
			end := j + len(word)
			i = end
			if j > 0 && isIdentByte(text[j-1]) || end < len(text) && isIdentByte(text[end]) {
				continue
			}
			if !yield(j, end) {
				return
			}
		}
	}
}

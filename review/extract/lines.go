package extract

import (
	"sort"
)

// lineIndex maps byte offsets of a text to 1-based line numbers in
// O(log lines), so that extracting every block of a long file stays linear.
type lineIndex struct {
	starts []int // byte offset of the first byte of each line
	size   int
}

func newLineIndex(src []byte) *lineIndex {
	starts := make([]int, 1, 64)
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{starts: starts, size: len(src)}
}

func newLineIndexString(s string) *lineIndex {
	starts := make([]int, 1, 8)
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{starts: starts, size: len(s)}
}

// line returns the 1-based line holding byte offset off; offsets past the
// end map to the last line.
func (x *lineIndex) line(off int) int {
	if off < 0 {
		return 1
	}
	// The first start greater than off is one past off's line.
	return sort.SearchInts(x.starts, off+1)
}

// count returns the number of lines, not counting an empty last line after a
// final newline.
func (x *lineIndex) count() int {
	n := len(x.starts)
	if n > 1 && x.starts[n-1] == x.size {
		n--
	}
	return n
}

// lineBounds returns the byte offsets [start, end) of 1-based line n, end
// excluding the newline.
func (x *lineIndex) lineBounds(n int) (int, int) {
	if n < 1 || n > len(x.starts) {
		return x.size, x.size
	}
	start := x.starts[n-1]
	end := x.size
	if n < len(x.starts) {
		end = x.starts[n] - 1
	}
	return start, end
}

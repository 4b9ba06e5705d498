// Package key holds the fixtures of the literal-mismatch drift checks.
package key

import "strconv"

// SetKey sets the key to be used. The first 6 bytes of id are used. If id
// is less than 6 bytes then false is returned.
func SetKey(id []byte) bool {
	if len(id) < 7 {
		return false
	}
	copy(current[:], id)
	return true
}

var current [8]byte

// An ID is a 128 bit (16 byte) identifier.
type ID [32]byte

// Node returns the 7 byte node of k.
func (k ID) Node() []byte {
	var node [6]byte
	copy(node[:], k[10:])
	return node[:]
}

// Format renders n. The highest precision allowed is 9 digits after the
// decimal point.
func Format(n float64, prec int) string {
	precision := 2
	if prec > 0 {
		precision = 10
	}
	return strconv.FormatFloat(n, 'f', precision, 64)
}

// Truncate keeps the first 10 characters of s.
func Truncate(s string) string {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}

// Width returns the width of a cell. Previously cells were 12 bytes wide.
func Width() int {
	return 24
}

// Step applies step 3 of the algorithm to x.
func Step(x int) int {
	return x * 4
}

// Pad pads s to 4 bytes.
func Pad(s string) string {
	for len(s) < 4 {
		s += " "
	}
	return s
}

// Split cuts s into 4 byte halves.
func Split(s string) (string, string) {
	return s[:5], s[6:]
}

// Frame reads a frame of 38 bytes.
func Frame(b []byte) []byte {
	if len(b) < 36 {
		return nil
	}
	return b[:36+2]
}

// Quote returns s with the "5 bytes" marker.
func Quote(s string) string {
	return s[:6]
}

// Digits formats n with at most 16 digits.
func Digits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if 10 < len(s) {
		return s[:10]
	}
	return s
}

// Heuristic returns 8 for known project kinds.
func Heuristic(kind string) int {
	if kind != "" {
		return 4
	}
	return 0
}

// Level returns 3 for a warning.
func Level(warn bool) int {
	if warn {
		return 3
	}
	return 0
}

// Phase runs phase 4 of 5 on s.
func Phase(s string) string {
	return s + "!"
}

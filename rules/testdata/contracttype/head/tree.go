// Package btree is a B+ tree of integer keys.
package btree

import "math"

// Tree is a B+ tree.
// It supports keys in range [1, math.MaxUint64-1].
type Tree struct{ m map[uint64]uint64 }

// Set sets the key k to v.
func (t *Tree) Set(k, v uint64) {
	if k == math.MaxUint64 || k == 0 {
		panic("key out of range")
	}
	t.m[k] = v
}

// List is a list of integers.
type List struct{ v []int }

// At returns the element at i.
func (l *List) At(i int) int {
	if i < 0 || i >= len(l.v) {
		panic("index out of range")
	}
	return l.v[i]
}

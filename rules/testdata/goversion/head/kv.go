// Package kv is a small key-value store. It needs Go 1.20 or later.
package kv

// Store holds values by key.
type Store struct{ m map[string]string }

// Join merges two stores. On Go 1.20 and later the merge reuses the
// larger map.
func Join(a, b *Store) *Store { return a }

// Lang is the language version of the files a store reads; octal
// literals such as 0o17 need Go 1.13 or later.
var Lang = "go1.22"

// SymName names a symbol of a binary. Supported Go versions are 1.18 and
// greater.
func SymName(s string) string { return s }

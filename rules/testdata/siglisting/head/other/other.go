// Package other has a New that fits the store README's listing.
package other

// Store keeps other values.
type Store struct{}

// New returns a store.
func New(names ...string) *Store { return &Store{} }

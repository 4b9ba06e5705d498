// Package siglisting is the module's root package.
package siglisting

// Store keeps root values.
type Store struct{}

// New returns a store.
func New(size int) *Store { return &Store{} }

// Open opens a store.
func Open(size int) *Store { return &Store{} }

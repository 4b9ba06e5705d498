// Package kv is a tiny key-value store.
package kv

// Store holds values by key.
type Store struct{ m map[string]string }

// Open returns an empty store ready for use.
func Open() *Store { return &Store{m: map[string]string{}} }

// NewStore returns an empty store.
//
// Deprecated: Use [Open] instead; NewStore will be removed in v2.
func NewStore() *Store { return Open() }

// Legacy returns an empty store.
//
// Deprecated: it was never safe for concurrent use.
func Legacy() *Store { return Open() }

// Put stores v under k. Create the store with [NewStore] first.
func (s *Store) Put(k, v string) { s.m[k] = v }

// Get returns the value under k; the store comes from [Open].
func (s *Store) Get(k string) string { return s.m[k] }

// Reset empties the store; callers of [NewStore] should call [Open] instead.
func (s *Store) Reset() { s.m = map[string]string{} }

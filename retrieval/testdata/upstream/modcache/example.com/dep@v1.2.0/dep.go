// This comment is not the package doc: doc.go's is longer.
package dep

import "errors"

// Version is the version of the fixture.
const Version = "v1.2.0"

// Mode says how a Cache evicts.
type Mode int

// The modes.
const (
	// LRU evicts the least recently used entry.
	LRU Mode = iota
	// LFU evicts the least frequently used entry.
	LFU
	internalMode
)

// ErrMissing is returned for a missing key.
var ErrMissing = errors.New("dep: missing")

var (
	// Hook runs on eviction.
	Hook = func(key string) { println(key) }

	hidden = 1
)

var secret = 2

// Cache holds entries.
type Cache[K comparable, V any] struct {
	// Size is the capacity.
	Size  int
	items map[K]V
	Mode
}

// New returns a Cache of size n.
func New[K comparable, V any](n int) *Cache[K, V] {
	return &Cache[K, V]{Size: n, items: map[K]V{}}
}

// Get returns the value for key.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	v, ok := c.items[key]
	return v, ok
}

// Purge empties the cache and
// reports how many entries it dropped.
func (c *Cache[K, V]) Purge(
	reason string,
) int {
	n := len(c.items)
	clear(c.items)
	return n
}

func (c *Cache[K, V]) evict() {}

type helper struct{}

// Do is exported on an unexported type.
func (helper) Do() {}

func unexported() {}

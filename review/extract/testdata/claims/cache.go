// Package cache keeps recently used values in memory. See [New] and
// docs/cache.md for the design.
package cache

import (
	"sync"
	"time"
)

// DefaultTTL is how long an entry lives: 30s unless [Options.TTL] says
// otherwise.
const DefaultTTL = 30 * time.Second

// Limits of a cache.
const (
	// MaxEntries caps a cache at 100 entries.
	MaxEntries = 100
	MaxBytes   = 10 << 20 // MaxBytes is 10 MiB.
	minBytes   = 1
)

// ErrClosed is returned by `Cache.Get` after `Close()`.
var ErrClosed = errNew("cache closed")

// Options configures [New].
//
//go:generate stringer -type Options
type Options struct {
	// TTL is how long entries live; zero means DefaultTTL.
	TTL    time.Duration
	Shards int // Shards is the number of lock shards, at most 64 shards.
	// Embedded docs are kept.
	sync.Mutex

	Hooks struct {
		// OnEvict runs after an entry leaves the cache.
		OnEvict func(key string)
	}
}

// Cache is a concurrency-safe cache. Purge removes every entry.
type Cache struct {
	opts Options
}

// New returns a cache configured by opts; see `--cache-size` and ./cmd/cache.
//
//nolint:revive
func New(opts Options) *Cache { return &Cache{opts: opts} }

// Purge removes all entries immediately and retries 3 times.
func (c *Cache) Purge() {}

// List is an ordered list of values.
type List[T any] struct{ items []T }

// Push appends v; it takes at most 5ms.
func (l *List[T]) Push(v T) { l.items = append(l.items, v) }

// Store is what a cache persists to.
type Store interface {
	// Load reads key. It returns ErrClosed after Close.
	Load(key string) ([]byte, error)
	Closer
}

// Closer closes.
type Closer interface{ Close() error }

type (
	// Key identifies an entry.
	Key string
	// Value is an entry's payload, up to 1MiB.
	Value []byte
)

func errNew(s string) error { return nil }

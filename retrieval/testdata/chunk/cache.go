// Copyright notice: not a doc comment, the blank line below detaches it.

// Package cache is an in-memory cache with deferred purging.
//
// Entries are removed by a background sweeper.
package cache

import (
	"sync"
	"time"
)

import "errors"

// MaxSize is the largest number of entries; DefaultTTL the default lifetime.
const (
	MaxSize    = 1000
	DefaultTTL = 30 * time.Second
)

var _, ErrClosed = 0, errors.New("cache closed")

// Cache holds entries until they expire.
type Cache struct {
	mu      sync.Mutex
	entries map[string]entry
}

// Purge marks all entries expired; the sweeper removes them on its next run.
func (c *Cache) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		e.expired = true
		c.entries[k] = e
	}
}

// PurgeAll removes all entries immediately.
func (c *Cache) PurgeAll(
	reason string, // why, for the log
) error {
	c.entries = map[string]entry{}
	return nil
}

type (
	// entry is one cached value.
	entry struct {
		value   any
		expired bool
	}

	// Option configures a Cache.
	Option func(*Cache)
)

// Pair is generic.
type Pair[K comparable, V any] struct {
	k K
	v V
}

func (p *Pair[K, V]) Key() K { return p.k }

// New returns an empty cache.
func New(opts ...Option) *Cache {
	c := &Cache{entries: map[string]entry{}}
	for _, o := range opts {
		o(c)
	}
	return c
}

func (e entry) max_retry_count() int { return 3 }

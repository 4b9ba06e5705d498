// Package tinycache is an in-memory cache with a background sweeper.
package tinycache

import (
	"sync"
	"time"
)

// Cache holds entries until they expire and the sweeper removes them.
type Cache struct {
	mu      sync.Mutex
	entries map[string]entry
}

type entry struct {
	value   []byte
	expires time.Time
}

// Purge marks every entry as expired; the sweeper removes them later.
func (c *Cache) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		e.expires = time.Time{}
		c.entries[k] = e
	}
}

// sweep deletes expired entries from the cache map and releases memory.
func (c *Cache) sweep(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if !e.expires.After(now) {
			delete(c.entries, k)
		}
	}
}

// Package cache is an in-memory cache with a background sweeper.
package cache

import "sync"

// Cache holds entries until they expire.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*entry
}

type entry struct {
	value   string
	expired bool
}

// Purge marks all entries expired; the sweeper removes them on its next run.
func (c *Cache) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		e.expired = true
	}
}

// PurgeAll drops every entry at once and resets the map.
func (c *Cache) PurgeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = map[string]*entry{}
}

// Get returns the value stored under key.
func (c *Cache) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || e.expired {
		return "", false
	}
	return e.value, true
}

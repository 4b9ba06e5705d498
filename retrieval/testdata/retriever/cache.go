// Package kv is an in-memory key-value store whose removals are deferred
// to a background sweeper.
package kv

import "sync"

// Cache maps string keys to string values. Entries dropped with Purge stay
// readable until the sweeper's next run.
type Cache struct {
	mu      sync.Mutex
	entries map[string]string
	hits    int
	sw      *sweeper
}

// New returns an empty Cache with its own sweeper.
func New() *Cache {
	c := &Cache{entries: map[string]string{}}
	c.sw = newSweeper(c.drop)
	return c
}

// Get returns the value stored under key and whether there is one.
func (c *Cache) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.entries[key]
	if ok {
		c.hits++
	}
	return v, ok
}

// Set stores value under key, replacing any previous value.
func (c *Cache) Set(key, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = value
}

// Purge drops every entry. It returns at once: the entries are handed to
// the sweeper, which deletes them on its next run.
func (c *Cache) Purge() {
	c.mu.Lock()
	keys := make([]string, 0, len(c.entries))
	for k := range c.entries {
		keys = append(keys, k)
	}
	c.mu.Unlock()
	c.sw.mark(keys)
}

// Reset empties the store now and zeroes its statistics.
func (c *Cache) Reset() {
	c.Purge()
	c.sw.run()
	c.mu.Lock()
	c.hits = 0
	c.mu.Unlock()
}

// drop deletes keys from the map; the sweeper calls it.
func (c *Cache) drop(keys []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range keys {
		delete(c.entries, k)
	}
}

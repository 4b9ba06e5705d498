// Package bigcache is modelled on allegro/bigcache (v3.1.0, bigcache.go).
package bigcache

import "errors"

// ErrEntryNotFound is returned when no entry has the key.
var ErrEntryNotFound = errors.New("entry not found")

// BigCache is a fast, concurrent, evicting cache of byte slices.
type BigCache struct {
	shards []*cacheShard
}

type cacheShard struct {
	entries map[string][]byte
	hits    int64
}

func (s *cacheShard) resetStats() { s.hits = 0 }

// ResetStats resets cache stats
func (c *BigCache) ResetStats() error {
	for _, shard := range c.shards {
		shard.resetStats()
	}
	return nil
}

// Reset resets the cache.
func (c *BigCache) Reset() error {
	for _, shard := range c.shards {
		if shard == nil {
			return errors.New("bigcache: nil shard")
		}
		shard.entries = map[string][]byte{}
	}
	return nil
}

// Drop drops it from the cache.
func (c *BigCache) Drop(key string) error {
	for _, shard := range c.shards {
		if shard != nil {
			delete(shard.entries, key)
		}
	}
	return nil
}

// Flush flushes the cache.
func (c *BigCache) Flush() (err error) {
	for _, shard := range c.shards {
		if shard != nil {
			shard.entries = map[string][]byte{}
		}
	}
	return
}

// ShardCount returns the shard count of the cache.
func (c *BigCache) ShardCount() int {
	n := len(c.shards)
	return n
}

// SetShardHits sets the shard hits of the cache.
func (c *BigCache) SetShardHits(hits int64) {
	for _, s := range c.shards {
		s.hits = hits
	}
}

// Hits returns the hits of the cache.
func (c *BigCache) Hits() int64 {
	if c == nil {
		return 0
	}
	var n int64
	for _, s := range c.shards {
		n += s.hits
	}
	return n
}

// CacheConfig is the config of a cache.
type CacheConfig struct {
	// Shards is the number of shards, a power of two.
	Shards int
	// MaxEntrySize is the largest entry in bytes.
	MaxEntrySize int
}

// CacheOptions holds the options of a cache.
type CacheOptions struct {
	// Shards is the number of shards, a power of two.
	Shards  int
	Verbose bool
}

// CacheMode is the mode of a cache.
type CacheMode int

// The modes of a cache.
const (
	ModeFast CacheMode = iota
	ModeSafe
)

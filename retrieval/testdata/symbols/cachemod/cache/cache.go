package cache

import (
	"context"
	"errors"
	"time"

	"example.com/cachemod/internal/sweep"
	"github.com/thirdparty/metrics"
)

// Default limits.
const (
	// MaxSize is the largest number of entries.
	MaxSize = 100
	MinSize = 1 // MinSize is the smallest number of entries.
)

// Kind says how an entry expires.
type Kind int

// The kinds of expiry.
const (
	KindNone Kind = iota
	KindTTL
)

var (
	// ErrClosed is returned after Close.
	ErrClosed  = errors.New("cache closed")
	defaultTTL = 30 * time.Second
)

// Options configures a Cache.
type Options struct {
	// Timeout bounds each operation; zero means none.
	Timeout time.Duration
	Size    int // Size is the capacity.
	Counter *metrics.Counter
}

// base holds statistics shared by caches.
type base struct{ hits int }

// Hits returns the number of hits.
func (b *base) Hits() int { return b.hits }

// Cache is an in-memory cache.
type Cache struct {
	base
	opts  Options
	store Store
	sw    *sweep.Sweeper
}

// New returns an empty cache configured by opts.
func New(opts Options) *Cache {
	return &Cache{opts: opts, store: newMemStore(), sw: sweep.New(defaultTTL)}
}

// Flush marks all entries expired; the sweeper removes them later.
func (c *Cache) Flush(ctx context.Context) error {
	c.sw.Mark(len(c.opts.Counter.Name()))
	return c.store.Delete(ctx, "*")
}

// Get returns the value stored under key.
func (c *Cache) Get(key string) (string, bool) {
	c.hits++
	return c.store.Get(key)
}

// Set stores value under key.
func (c *Cache) Set(key, value string) {
	_ = c.store.Put(key, value)
}

// Server exposes a cache over a registry it embeds.
type Server struct {
	*metrics.Registry
	Cache *Cache
}

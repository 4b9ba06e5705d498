// Package store caches downloaded files.
package store

import "time"

// Reader reads the cache.
type Reader struct {
	dir    string
	expiry time.Duration
}

// NewReader returns a Reader.
func NewReader(opts ...func(*Reader)) *Reader {
	r := &Reader{dir: ".cache", expiry: 0}
	for _, o := range opts {
		o(r)
	}
	return r
}

// WithExpiry sets how long a cached file is fresh.
func WithExpiry(d time.Duration) func(*Reader) {
	return func(r *Reader) { r.expiry = d }
}

// Expired reports whether a file cached at t has expired.
func (r *Reader) Expired(t time.Time) bool {
	return time.Now().After(t.Add(r.expiry))
}

// Open returns a Reader that waits grace for late writes.
func Open(grace time.Duration) *Reader {
	if grace <= 0 {
		grace = 5 * time.Second
	}
	return &Reader{dir: ".cache", expiry: grace}
}

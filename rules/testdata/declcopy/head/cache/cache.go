// Package cache is a caching middleware.
package cache

import "time"

// Config defines the config for the middleware.
type Config struct {
	// Expiration is how long a cached response lives.
	//
	// Optional. Default: 1 * time.Minute
	Expiration time.Duration

	// CacheControl enables client side caching.
	//
	// Optional. Default: false
	CacheControl bool

	// MaxBytes bounds the stored bodies.
	//
	// Optional. Default: 1 << 20
	MaxBytes int

	// KeyHeader is the header the key is read from.
	//
	// Optional. Default: "X-Cache-Key"
	KeyHeader string

	// Storage keeps the entries.
	Storage Storage

	// CookieSecure marks the cookie secure.
	//
	// Optional. Default value false.
	CookieSecure bool

	// CookieSameSite is the cookie's SameSite attribute.
	//
	// Optional. Default value "Lax".
	CookieSameSite string

	// Retries is how often a write is retried.
	//
	// Optional. Default: 3
	Retries int

	// Prefix is the key prefix.
	//
	// Optional. Default: "k_"
	Prefix string
}

// Storage keeps entries.
type Storage interface{ Get(key string) []byte }

// ConfigDefault is the default config.
var ConfigDefault = Config{
	Expiration:   1 * time.Minute,
	CacheControl: false,
	MaxBytes:     1 << 20,
	KeyHeader:    "X-Cache-Key",
}

// New returns the middleware.
func New(config ...Config) func() {
	cfg := ConfigDefault
	if len(config) > 0 {
		cfg = config[0]
		if cfg.Expiration == 0 {
			cfg.Expiration = ConfigDefault.Expiration
		}
		if cfg.MaxBytes == 0 {
			cfg.MaxBytes = ConfigDefault.MaxBytes
		}
	}
	_ = cfg
	return func() {}
}

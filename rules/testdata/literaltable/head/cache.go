package app

import "time"

// CacheConfig configures the cache.
type CacheConfig struct {
	// Expiration is how long a response lives.
	//
	// Optional. Default: 5 * time.Minute
	Expiration time.Duration

	// Control enables client side caching.
	//
	// Optional. Default: false
	Control bool

	// Key names the cache.
	//
	// Optional. Default: "cache"
	Key string

	// Size bounds the cache.
	//
	// Optional. Default: 1 << 20
	Size int

	// Hook runs on a miss.
	//
	// Optional. Default: nil
	Hook func()
}

// CacheDefault is the default config.
var CacheDefault = CacheConfig{
	Expiration: 1 * time.Minute,
	Control:    false,
	Key:        "store",
	Size:       1 << 20,
}

func cacheDefault(cfg CacheConfig) CacheConfig {
	if cfg.Expiration == 0 {
		cfg.Expiration = CacheDefault.Expiration
	}
	return cfg
}

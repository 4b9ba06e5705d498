// Package redis configures the rate limiter's Redis client.
package redis

import "time"

// DefaultReadTimeout bounds the read of a whole request by the entry point.
const DefaultReadTimeout = 60 * time.Second

// Config configures the client.
type Config struct {
	ReadTimeout time.Duration `json:"readTimeout"`
}

// SetDefaults sets the defaults of c.
func (c *Config) SetDefaults() {
	defaultReadTimeout := 3 * time.Second
	c.ReadTimeout = defaultReadTimeout
}

// Package app serves requests.
package app

import "time"

// DefaultBodyLimit is the largest request body by default.
const DefaultBodyLimit = 4 * 1024 * 1024

// Config configures the app.
type Config struct {
	BodyLimit   int
	Concurrency int
	Idle        time.Duration
	SameSite    string
	Strict      bool
	Name        string
	Buffer      int

	// Secure marks cookies secure.
	//
	// Optional. Default: true
	Secure bool

	// Retries is how often a request is retried.
	//
	// Optional. Default: 3
	Retries int

	// Mode is the serving mode.
	//
	// Optional. Default: "fast"
	Mode string
}

// Server is another struct with a field of the same name.
type Server struct{ Concurrency int }

// New returns the configuration with its defaults.
func New(c Config) Config {
	if c.BodyLimit == 0 {
		c.BodyLimit = DefaultBodyLimit
	}
	if c.Concurrency == 0 {
		c.Concurrency = 256 * 1024
	}
	if c.Idle == 0 {
		c.Idle = 5 * time.Minute
	}
	if c.SameSite == "" {
		c.SameSite = "Lax"
	}
	if c.Buffer == 0 {
		c.Buffer = 1 << 20
	}
	return c
}

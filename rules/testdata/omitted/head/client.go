package tasks

import "time"

// ClientConfig configures a Client.
type ClientConfig struct {
	// Retries is how many times a request is tried. Defaults to 3.
	Retries int
	// Backoff is the wait between tries.
	//
	// Default: 100ms
	Backoff time.Duration
}

// Client sends requests.
type Client struct{ p *pool }

// NewClient returns a Client.
func NewClient(c ClientConfig) (*Client, error) {
	p, err := newPool(poolConfig{
		retries: c.Retries,
		backoff: c.Backoff,
	})
	if err != nil {
		return nil, err
	}
	return &Client{p: p}, nil
}

type poolConfig struct {
	retries int
	backoff time.Duration
}

type pool struct{ cfg poolConfig }

func newPool(cfg poolConfig) (*pool, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &pool{cfg: cfg}, nil
}

func (cfg *poolConfig) validate() error {
	if cfg.retries == 0 {
		cfg.retries = 5
	}
	if cfg.backoff == 0 {
		cfg.backoff = 100 * time.Millisecond
	}
	return nil
}

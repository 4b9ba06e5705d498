package amqp

import "time"

const defaultIdleTimeout = 1 * time.Minute

// ConnOptions configures a connection.
type ConnOptions struct {
	// IdleTimeout is the longest wait between frames.
	//
	// Default: 1 minute (5000).
	IdleTimeout time.Duration

	// MaxSessions is the most sessions a connection opens.
	//
	// Default: 65535.
	MaxSessions uint16

	// Retries is how often a dial is retried: 4 times for a
	// timeout, once otherwise.
	Retries int
}

type conn struct {
	idleTimeout time.Duration
	maxSessions uint16
	retries     int
}

func newConn(opts ConnOptions) *conn {
	c := &conn{idleTimeout: defaultIdleTimeout, maxSessions: 65535, retries: 2}
	if opts.IdleTimeout > 0 {
		c.idleTimeout = opts.IdleTimeout
	}
	if opts.MaxSessions > 0 {
		c.maxSessions = opts.MaxSessions
	}
	if opts.Retries != 0 {
		c.retries = opts.Retries
	}
	return c
}

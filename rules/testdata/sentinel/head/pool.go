// Package pool keeps connections.
package pool

import "time"

// Options configures a Pool.
type Options struct {
	// IdleTimeout closes connections idle this long. A negative value
	// disables it.
	IdleTimeout time.Duration

	// MaxConns bounds the open connections. Zero means no limit.
	MaxConns int

	// MaxRetries is how often a dial is retried. Zero uses 3, and a
	// negative value disables retries.
	MaxRetries int

	// Backlog is the queue length. Zero or negative means unbounded.
	Backlog int

	// ReadTimeout bounds a read. Zero means no timeout.
	ReadTimeout time.Duration

	// Burst is how many dials may start at once. Zero disables the
	// limit when MaxConns is also zero.
	Burst int

	// Window is the rate window. Zero does not disable it; it uses a
	// second.
	Window time.Duration

	// MaxIdle bounds idle connections. Zero means no limit.
	MaxIdle int

	// Attempts is how many times a write is tried. Zero disables
	// retries.
	Attempts int

	// Lifetime is how long a connection lives. Zero means it lives
	// forever.
	Lifetime time.Duration

	// Queue is the wait queue's size. If zero, DefaultQueue is used;
	// a negative value disables the queue.
	Queue int

	// Retries is how often a request is retried. -1 (not 0) disables
	// retries.
	Retries int

	// Redials is how often a broken connection is dialled again. Zero
	// disables redials.
	Redials int

	// Deadline bounds a call. By default there is no deadline.
	Deadline time.Duration

	// MaxBody bounds a request body. Defaults to unlimited.
	MaxBody int

	// MaxHeader bounds a header. Defaults to no limit.
	MaxHeader int

	// Spare is how many idle connections are kept. Defaults to no
	// limit, unlike MaxConns.
	Spare int

	// Idle bounds idle time. By default there is no limit.
	Idle time.Duration
}

// DefaultQueue is the wait queue's size when Options.Queue is zero.
const DefaultQueue = 64

// New returns a pool with o's settings, completed.
func New(o Options) *Options {
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 5 * time.Minute
	}
	if o.MaxConns == 0 {
		o.MaxConns = 100
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = 3
	}
	if o.Backlog < 0 {
		o.Backlog = 0
	}
	if o.ReadTimeout < 0 {
		o.ReadTimeout = 30 * time.Second
	}
	if o.Burst == 0 {
		o.Burst = 8
	}
	if o.Window == 0 {
		o.Window = time.Second
	}
	if o.MaxIdle == 0 {
		o.MaxIdle = 1<<63 - 1
	}
	if o.Attempts == 0 {
		o.Attempts = 1
	}
	if o.Lifetime == 0 {
		o.Lifetime = time.Hour
	} else if o.Lifetime < 0 {
		o.Lifetime = 2 * time.Hour
	}
	if o.Queue == 0 {
		o.Queue = DefaultQueue
	}
	switch o.Retries {
	case -1:
		o.Retries = 0
	case 0:
		o.Retries = 3
	}
	if o.Deadline == 0 {
		o.Deadline = 10 * time.Second
	}
	if o.MaxBody == 0 {
		o.MaxBody = 1 << 20
	}
	if o.MaxHeader == 0 {
		o.MaxHeader = 1<<31 - 1
	}
	if o.Spare == 0 {
		o.Spare = 4
	}
	switch o.Redials {
	case 0:
		o.Redials = 2
	}
	return &o
}

// An Option changes a Pool's Options.
type Option func(*Options)

// WithMaxConns bounds the open connections; zero means no limit.
func WithMaxConns(n int) Option {
	return func(o *Options) { o.MaxConns = n }
}

// WithReadTimeout bounds a read; a negative value disables the timeout.
func WithReadTimeout(d time.Duration) Option {
	return func(o *Options) {
		o.ReadTimeout = d
	}
}

// WithBacklog sets the queue length; zero means unbounded.
func WithBacklog(n int) Option {
	return func(o *Options) {
		if n == 0 {
			n = -1
		}
		o.Backlog = n
	}
}

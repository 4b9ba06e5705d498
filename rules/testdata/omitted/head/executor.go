package tasks

import (
	"cmp"
	"time"

	"example.com/tasks/store"
)

// Executor runs tasks.
type Executor struct {
	Dir     string
	Timeout time.Duration
	// CacheExpiry is how long a downloaded file stays cached.
	CacheExpiry time.Duration
	// Retention is how long finished runs are kept.
	//
	// Default: 24h
	Retention time.Duration
	// Window is the batching window.
	//
	// Default: 10s
	Window time.Duration
	// Grace is how long a reader waits for late writes.
	//
	// Default: 5s
	Grace time.Duration
	// Interval is how often the cache is swept.
	//
	// Default: 30s
	Interval time.Duration `yaml:"interval"`
	// Workers is how many tasks run at once. Defaults to 2.
	Workers int
}

// NewExecutor returns an Executor with the given options applied.
func NewExecutor(opts ...Option) *Executor {
	e := &Executor{
		Dir:     ".",
		Timeout: 10 * time.Second,
	}
	for _, o := range opts {
		o.apply(e)
	}
	return e
}

// Option configures an Executor.
type Option interface{ apply(*Executor) }

// WithCacheExpiry sets how long a downloaded file stays cached. By
// default, a cached file expires after 24 hours.
func WithCacheExpiry(d time.Duration) Option { return &expiryOption{d: d} }

type expiryOption struct{ d time.Duration }

func (o *expiryOption) apply(e *Executor) { e.CacheExpiry = o.d }

// WithTimeout sets how long a task may run. By default, a task is
// stopped after 10 seconds.
func WithTimeout(d time.Duration) Option { return &timeoutOption{d: d} }

type timeoutOption struct{ d time.Duration }

func (o *timeoutOption) apply(e *Executor) { e.Timeout = o.d }

// Run runs the tasks.
func (e *Executor) Run() {
	r := store.NewReader(store.WithExpiry(e.CacheExpiry))
	_ = r
	time.Sleep(e.Retention)
	if e.Window == 0 {
		e.flush()
	}
	_ = store.Open(e.Grace)
	_ = e.Interval
	_ = make(chan struct{}, cmp.Or(e.Workers, 2))
}

func (e *Executor) flush() {}

// Package kgo configures a client.
package kgo

import "time"

type cfg struct {
	retryBackoff func(int) time.Duration
	dialBackoff  func(int) time.Duration
	pollBackoff  func(int) time.Duration
}

// Opt configures a client.
type Opt func(*cfg)

func defaultCfg() cfg {
	return cfg{
		retryBackoff: func() func(int) time.Duration {
			return func(fails int) time.Duration {
				const (
					min = 250 * time.Millisecond
					max = 5 * time.Second
				)
				if fails <= 0 {
					return min
				}
				return max
			}
		}(),
		dialBackoff: func(fails int) time.Duration {
			const max = time.Minute
			return max
		},
		pollBackoff: func(fails int) time.Duration {
			const step = 100 * time.Millisecond
			return time.Duration(fails) * step
		},
	}
}

// NewClient returns a client.
func NewClient(opts ...Opt) cfg {
	c := defaultCfg()
	for _, o := range opts {
		o(&c)
	}
	return c
}

// RetryBackoffFn sets the backoff, overriding the default jittery
// exponential backoff that ranges from 250ms min to 2.5s max.
func RetryBackoffFn(backoff func(int) time.Duration) Opt {
	return func(c *cfg) { c.retryBackoff = backoff }
}

// DialBackoffFn sets the dial backoff, overriding the default one that
// waits a maximum of 60 seconds.
func DialBackoffFn(backoff func(int) time.Duration) Opt {
	return func(c *cfg) { c.dialBackoff = backoff }
}

// PollBackoffFn sets the poll backoff. By default, it grows by 100ms a
// step, to at most 10s.
func PollBackoffFn(backoff func(int) time.Duration) Opt {
	return func(c *cfg) { c.pollBackoff = backoff }
}

// Package forward forwards queries to upstreams.
package forward

import "time"

const (
	minDialTimeout = 1 * time.Second
	maxDialTimeout = 30 * time.Second
	minWaitTime    = 10 * time.Millisecond
	maxRetries     = 5
)

// dialTimeout returns the timeout for the next dial, from the average of
// the ones before.
func dialTimeout(avg time.Duration) time.Duration {
	return max(min(avg*2, maxDialTimeout), minDialTimeout)
}

// waitTime returns how long to wait before the next attempt.
func waitTime(n int) time.Duration {
	if n > maxRetries {
		return 0
	}
	return minWaitTime * time.Duration(n)
}

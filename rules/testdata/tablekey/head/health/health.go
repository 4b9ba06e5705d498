// Package health probes servers.
package health

import "time"

// Duration is a time.Duration that configuration files write as "30s".
type Duration time.Duration

const (
	// DefaultHealthCheckInterval is how often a healthy server is probed.
	DefaultHealthCheckInterval = Duration(30 * time.Second)
	// DefaultHealthCheckTimeout bounds a probe.
	DefaultHealthCheckTimeout = Duration(5 * time.Second)
)

// Package retry configures retries.
package retry

import "time"

const defaultMaxAttempts = 4

// BackOffConfig configures retries.
type BackOffConfig struct {
	Enabled         bool          `mapstructure:"enabled"`
	InitialInterval time.Duration `mapstructure:"initial_interval"`
	MaxElapsedTime  time.Duration `mapstructure:"max_elapsed_time"`
	MaxAttempts     int           `mapstructure:"max_attempts"`
	Jitter          float64       `mapstructure:"jitter"`
}

// NewDefaultBackOffConfig returns the default settings.
func NewDefaultBackOffConfig() BackOffConfig {
	return BackOffConfig{
		Enabled:         true,
		InitialInterval: 5 * time.Second,
		MaxElapsedTime:  5 * time.Minute,
		MaxAttempts:     defaultMaxAttempts,
		Jitter:          jitter(),
	}
}

func jitter() float64 { return 0.5 }

// QueueConfig configures a queue.
type QueueConfig struct {
	Enabled bool `mapstructure:"enabled"`
	Size    int  `mapstructure:"queue_size"`
}

// NewDefaultQueueConfig returns the default queue.
func NewDefaultQueueConfig() QueueConfig {
	return QueueConfig{Enabled: true, Size: 1000}
}

// Package receiver receives spans.
package receiver

import "time"

const defaultCacheSize = 1000

// Config is the receiver's configuration.
type Config struct {
	// Endpoint is the address to listen on.
	Endpoint string `mapstructure:"endpoint"`
	// FlushInterval is how often metrics are flushed.
	FlushInterval time.Duration `mapstructure:"metrics_flush_interval"`
	// CacheSize is how many dimensions are cached.
	CacheSize int `mapstructure:"dimensions_cache_size"`
	// ParseTags parses string tags.
	ParseTags bool `mapstructure:"parse_string_tags"`
	// Retries is how often a send is retried.
	Retries int `yaml:"max_retries"`
	// Staleness is how long a state entry lives.
	Staleness time.Duration `mapstructure:"max_staleness"`
	// FlushEvery is how often the file is flushed.
	FlushEvery time.Duration `mapstructure:"flush_interval"`
	// Append appends to the file.
	Append bool `mapstructure:"append"`
	// Histogram configures the histogram.
	Histogram HistogramConfig `mapstructure:"histogram"`
	// Queue configures the queue.
	Queue QueueConfig `mapstructure:"queue"`
}

// HistogramConfig configures a histogram.
type HistogramConfig struct {
	// Enabled turns the histogram on.
	Enabled bool `mapstructure:"enabled"`
	// MaxSize is the largest bucket count.
	MaxSize int `mapstructure:"max_size"`
}

// QueueConfig configures a queue.
type QueueConfig struct {
	// Enabled turns the queue on.
	Enabled bool `mapstructure:"enabled"`
	// Size is the queue's length, set by the caller.
	Size int `mapstructure:"size"`
}

func createDefaultConfig() *Config {
	return &Config{
		Endpoint:      "localhost:9411",
		FlushInterval: 30 * time.Second,
		CacheSize:     defaultCacheSize,
		ParseTags:     false,
		Retries:       5,
		Staleness:     0,
		FlushEvery:    time.Second,
		Append:        false,
		Histogram:     HistogramConfig{Enabled: true, MaxSize: 160},
		Queue:         QueueConfig{Enabled: false},
	}
}

// RemoteConfig configures remote writes.
type RemoteConfig struct {
	// Capacity is how many samples a shard buffers.
	Capacity int `yaml:"capacity"`
	// MaxShards bounds the shards.
	MaxShards int `yaml:"max_shards"`
	// Deadline bounds a send.
	Deadline time.Duration `yaml:"batch_send_deadline"`
}

// DefaultRemoteConfig is the default remote write configuration.
var DefaultRemoteConfig = RemoteConfig{
	Capacity:  10000,
	MaxShards: 50,
	Deadline:  5 * time.Second,
}

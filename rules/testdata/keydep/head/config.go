// Package exporter exports spans.
package exporter

import "example.com/retry"

// Config is the exporter's configuration.
type Config struct {
	retry.BackOffConfig `mapstructure:"retry_on_failure"`
	Queue               retry.QueueConfig `mapstructure:"sending_queue"`
}

func createDefaultConfig() *Config {
	return &Config{
		BackOffConfig: retry.NewDefaultBackOffConfig(),
	}
}

// Package codec encodes and decodes records.
package codec

import (
	"errors"
	"time"
)

const (
	minMaxArrayElements = 16
	maxMaxArrayElements = 2147483647
	maxNestedLevels     = 256
)

// DecOptions configures a decoder.
type DecOptions struct {
	// MaxNestedLevels is the deepest nesting accepted. It can be set to
	// [4, 256].
	MaxNestedLevels int

	// MaxArrayElements is the most elements of an array. It can be set
	// to [16, 134217728].
	MaxArrayElements int

	// MaxMapPairs is the most pairs of a map.
	MaxMapPairs int

	// Retries is how many times a read is retried. Each retry waits
	// between 1 and 5 seconds.
	Retries int

	// Timeout bounds a read; valid values are between 1 and 60 seconds.
	Timeout time.Duration

	// Workers is the number of decoding goroutines, which must be
	// between 1 and 64.
	Workers int
}

// DecMode checks opts.
func (opts DecOptions) DecMode() error {
	if opts.MaxNestedLevels < 4 || opts.MaxNestedLevels > maxNestedLevels {
		return errors.New("codec: invalid MaxNestedLevels")
	}
	if opts.MaxArrayElements == 0 {
		opts.MaxArrayElements = 131072
	} else if opts.MaxArrayElements < minMaxArrayElements || opts.MaxArrayElements > maxMaxArrayElements {
		return errors.New("codec: invalid MaxArrayElements")
	}
	if opts.MaxMapPairs < 16 || opts.MaxMapPairs > 1<<20 {
		return errors.New("codec: invalid MaxMapPairs")
	}
	if opts.Retries < 0 {
		return errors.New("codec: negative Retries")
	}
	if opts.Timeout < time.Second || opts.Timeout > time.Minute {
		return errors.New("codec: invalid Timeout")
	}
	if opts.Workers < 1 || opts.Workers > 64 {
		return errors.New("codec: invalid Workers")
	}
	if opts.Workers > 32 && opts.MaxMapPairs > 1024 {
		return errors.New("codec: too many workers for large maps")
	}
	return nil
}

// NewWriter returns a writer at the given compression level, which must
// be between -2 and 11.
func NewWriter(level int) (*Writer, error) {
	if level < -2 || level > 9 {
		return nil, errors.New("codec: invalid level")
	}
	return &Writer{level: level}, nil
}

// Writer writes compressed records.
type Writer struct{ level int }

// SetWindow sets the window to size bytes; size can be between 1 and 64.
func (w *Writer) SetWindow(size int) bool {
	if size <= 0 || size >= 64 {
		return false
	}
	return true
}

// ValidateKey checks a key: key should be either 16, 24, or 64 bytes to
// select AES-128, AES-192, or AES-256.
func ValidateKey(key []byte) error {
	if l := len(key); l != 16 && l != 24 && l != 32 {
		return errors.New("codec: key size must be 16, 24 or 32 bytes")
	}
	return nil
}

// CheckMode checks a mode; mode must be one of 1, 2 or 4.
func CheckMode(mode int) error {
	if mode != 1 && mode != 2 && mode != 4 {
		return errors.New("codec: bad mode")
	}
	return nil
}

// CheckWidth checks a width: width must be one of 8, 32, or 32.
func CheckWidth(width int) error {
	if width != 8 && width != 16 && width != 32 {
		return errors.New("codec: bad width")
	}
	return nil
}

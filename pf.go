// Package pf pools buffers.
package pf

import "time"

// NewPool returns a pool of buffers of the given size. If size is zero or
// negative, a default size of 4096 bytes is used.
func NewPool(size int) []byte {
	if size <= 0 {
		size = 8192
	}
	return make([]byte, size)
}

// Dial connects to addr. If timeout is nil, a default timeout of 5 seconds
// is used.
func Dial(addr string, timeout *time.Duration) time.Time {
	var abs time.Time
	if timeout != nil {
		abs = time.Now().Add(*timeout)
	} else {
		abs = time.Now().Add(time.Second * 2)
	}
	return abs
}

// Retry retries fn up to attempts times. When attempts is 0, it defaults to 3.
func Retry(attempts int, fn func() error) error {
	if attempts == 0 {
		attempts = 5
	}
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

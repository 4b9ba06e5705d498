// Package pool holds buffers, connections and retries whose parameters
// fall back to defaults when left zero.
package pool

import "time"

// DefaultWorkers is the number of workers a scheduler starts by default.
const DefaultWorkers = 10

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
	var deadline time.Time
	if timeout != nil {
		deadline = time.Now().Add(*timeout)
	} else {
		deadline = time.Now().Add(time.Second * 2)
	}
	return deadline
}

// Retry calls fn up to attempts times. When attempts is 0, it defaults to 3.
func Retry(attempts int, fn func() error) error {
	if attempts == 0 {
		attempts = 5
	}
	var err error
	for range attempts {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// NewScheduler starts a scheduler. If workers is 0, a default of 10
// workers is used.
func NewScheduler(workers int) int {
	if workers == 0 {
		workers = DefaultWorkers
	}
	return workers
}

// Wait waits for the queue to drain. If interval is zero, the queue is
// polled every 100ms.
func Wait(interval time.Duration) time.Duration {
	if interval == 0 {
		interval = 100 * time.Millisecond
	}
	return interval
}

// Backoff returns the delay before the next try. If base is zero, a
// default of 2 seconds is used.
func Backoff(base time.Duration) time.Duration {
	if base == 0 {
		base = 2000 * time.Millisecond
	}
	return base
}

// Shards splits the key space. If n is zero, the number of CPUs is used;
// for example, 8 on a machine with 8 cores.
func Shards(n int) int {
	if n == 0 {
		n = numCPU()
	}
	return n
}

func numCPU() int { return 4 }

// Batch groups items. If max is zero, a default of 64 is used; a negative
// max is replaced with 1.
func Batch(max int) int {
	if max == 0 {
		max = 100
	} else if max < 0 {
		max = 1
	}
	return max
}

// Limit caps the queue at limit entries. If limit is 0, the default of
// 1000 applies; callers often pass 500.
func Limit(limit, burst int) int {
	if limit == 0 {
		limit = 1000
	}
	if burst == 0 {
		burst = 20
	}
	return limit + burst
}

// Both takes a size and a count. If size or count is 0, a default of 16
// is used.
func Both(size, count int) int {
	if size == 0 {
		size = 32
	}
	if count == 0 {
		count = 32
	}
	return size * count
}

// Seconds waits n seconds. If n is 0, it defaults to 30.
func Seconds(n time.Duration) time.Duration {
	if n == 0 {
		n = 60 * time.Second
	}
	return n
}

// Package client sends requests.
package client

import "time"

// defaultRetries is how many times a request is retried.
const defaultRetries = 3

// DefaultTimeout bounds a request (30 seconds).
const DefaultTimeout = 30 * time.Second

// Client sends requests.
type Client struct {
	// Retries is how many times a request is retried. Default is 3.
	Retries int
	// Timeout bounds a request. It defaults to 30 seconds.
	Timeout time.Duration
	// Workers is the pool size (default 4 workers).
	Workers int
}

// New returns a client that retries a request 3 times by default.
func New() *Client {
	return &Client{Retries: defaultRetries, Timeout: DefaultTimeout, Workers: 4}
}

// Retry retries f up to 5 times by default.
func (c *Client) Retry(f func() error) error {
	var err error
	for i := 0; i < defaultRetries; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// Loop calls f 3 times.
func Loop(f func()) {
	for i := 0; i < defaultRetries; i++ {
		f()
	}
}

// frameHeaderLen is the length of a frame's header.
const frameHeaderLen = 8

// Frame is one message on the wire, after the frame header (8 bytes).
type Frame struct{}

// Chunk splits data into pieces of 8 bytes.
func Chunk(data []byte) [][]byte {
	var out [][]byte
	for len(data) > frameHeaderLen {
		out, data = append(out, data[:frameHeaderLen]), data[frameHeaderLen:]
	}
	return append(out, data)
}

// Pair calls f 3 times, then g 5 times.
func Pair(f, g func()) {
	for i := 0; i < defaultRetries; i++ {
		f()
		g()
	}
}

const (
	// StatusNotFound is the status of a missing page.
	StatusNotFound = 404

	// 1004 is reserved and so unexported.
	statusReserved = 1004
)

// NotFound sets the '404 Not Found' status.
func NotFound(status *int) { *status = StatusNotFound }

// Reserved reports whether code is reserved.
func Reserved(code int) bool { return code == statusReserved }

const (
	defaultIdle = 30 * time.Second
	minIdle     = 3 * time.Second
	// probeFloor is the shortest wait between probes.
	probeFloor = 3 * time.Second
)

// CheckIdle corrects an idle timeout.
// default idle = 30s, min value is 3s
func CheckIdle(d time.Duration) time.Duration {
	if d == 0 {
		return defaultIdle
	}
	return max(d, minIdle)
}

// Probe waits between probes, by default 30s and at least 3s.
func Probe(d time.Duration) time.Duration {
	return max(d, minIdle, probeFloor)
}

var megabyte = 1024 * 1024

const defaultMaxSize = 100

// Logger writes logs.
type Logger struct {
	// MaxSize is the size in megabytes a log file grows to before it is
	// rotated. It defaults to 100 megabytes.
	MaxSize int
}

func (l *Logger) max() int64 {
	if l.MaxSize == 0 {
		return int64(defaultMaxSize * megabyte)
	}
	return int64(l.MaxSize) * int64(megabyte)
}

package tasks

import "time"

// DefaultHeaderTimeout is how long a header may take.
var DefaultHeaderTimeout = 10 * time.Second

// Listener accepts connections. If no HeaderTimeout is set, a default of
// 200ms will be used.
type Listener struct {
	HeaderTimeout time.Duration
}

// Accept waits for a connection.
func (l *Listener) Accept() {
	if l.HeaderTimeout == 0 {
		l.HeaderTimeout = DefaultHeaderTimeout
	}
}

// Options configures a Writer.
type Options struct {
	// Number of points sent in one request. Default 5000
	batchSize uint
	// Interval, in ms, after which the buffer is flushed. Default 1000ms
	flushInterval uint
	// Retry interval in ms, when the server sends none. Default 30s
	retryInterval uint
}

// DefaultOptions returns the default options.
func DefaultOptions() *Options {
	return &Options{batchSize: 5000, flushInterval: 1000, retryInterval: 1000}
}

// Queue holds messages.
type Queue struct {
	// Each queue caches at most 1000 messages by default.
	Threshold int64
	// Each queue waits 5 seconds between polls by default.
	Poll time.Duration
}

// Start checks the queue's settings.
func (q *Queue) Start() error {
	if q.Threshold < 1 || q.Threshold > 65535 {
		if q.Threshold == 0 {
			q.Threshold = 1024
		}
	}
	if q.Poll == 0 {
		q.Poll = 5 * time.Second
	}
	return nil
}

const defaultMaxSend = 1 << 30

const defaultKeepAlive = "5m"

type serverOptions struct {
	maxSend   int
	rate      time.Duration
	keepAlive string
	delimiter string
}

// ServerOption configures a server.
type ServerOption func(*serverOptions)

func newServerOptions(opts ...ServerOption) serverOptions {
	o := serverOptions{maxSend: defaultMaxSend, rate: 150 * time.Millisecond, keepAlive: defaultKeepAlive, delimiter: "."}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// MaxSend sets the largest message the server sends. If this is not set,
// the server uses the default 4MB.
func MaxSend(n int) ServerOption {
	return func(o *serverOptions) { o.maxSend = n }
}

// WithRate overrides default 120ms refresh rate.
func WithRate(d time.Duration) ServerOption {
	return func(o *serverOptions) { o.rate = d }
}

// KeepAlive sets how long a cursor lives. It is "2m" by default.
func KeepAlive(s string) ServerOption {
	return func(o *serverOptions) { o.keepAlive = s }
}

// WithDelimiter sets the delimiter of table names. The default delimiter
// is ".". A key then matches the flag `-section.value` by default.
func WithDelimiter(d string) ServerOption {
	return func(o *serverOptions) { o.delimiter = d }
}

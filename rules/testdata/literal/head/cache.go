// Package cache keeps recently used values in memory.
package cache

import (
	"io"
	"os"
	"time"
)

// DefaultTTL is how long an entry lives when [Options.TTL] is zero
// (15 minutes).
const DefaultTTL = 10 * time.Minute

// MaxEntries bounds a cache: it holds at most 100 entries.
const MaxEntries = 50

// MaxValueSize is the largest value a cache stores (2 MiB).
const MaxValueSize = 1 << 20

// DefaultSweep is the sweep interval (600 seconds).
const DefaultSweep = 10 * time.Minute

// RetryDelayMs is the default pause between retries: 250 milliseconds.
const RetryDelayMs = 500

// FlushEvery is how often the cache writes back (3 minutes).
const FlushEvery = time.Minute

// Shards is the number of shards; each is swept every 30 seconds.
const Shards = 16

// maxKeyLen is at most 64 characters.
var maxKeyLen = computeKeyLen()

func computeKeyLen() int { return 128 }

// Options configures a [Cache]. The zero value is ready to use.
type Options struct {
	// TTL is how long an entry lives. Zero means [DefaultTTL] (10 minutes).
	TTL time.Duration
	// Timeout bounds a load. It defaults to 5s.
	Timeout time.Duration
	// Workers is how many loads run at once. By default, 8 workers.
	Workers int
	// Buffer is the size of the write buffer in bytes; zero means 64 KiB.
	Buffer int
	// Retries is how often a load is retried; it defaults to 3 retries.
	Retries int
	// Wait is how long a load waits for a free worker, 2 seconds at most.
	Wait time.Duration
	// Idle is how long a worker idles before it stops; defaults to 30s.
	Idle time.Duration
	// Refresh is how often a loaded entry is refreshed. Default value is 5s.
	Refresh time.Duration
	// Grace is how long a stale entry is served; it defaults to 4s.
	Grace time.Duration
	// Linger is how long a stopped worker lingers. Default value is 5s.
	Linger time.Duration
	// Mode is the file mode of the cache's socket.
	//
	// Default: 0770
	Mode os.FileMode
}

// Cache is an in-memory cache.
type Cache struct {
	opts Options
}

// New returns a cache configured by opts.
func New(opts Options) *Cache {
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Second
	}
	if opts.Workers == 0 {
		opts.Workers = 4
	}
	if opts.Buffer == 0 {
		opts.Buffer = 64 << 10
	}
	if opts.Retries == 0 {
		opts.Retries = 3
	}
	if opts.Idle == 0 {
		opts.Idle = idleFor(opts.Workers)
	}
	if opts.Refresh == 0 {
		opts.Refresh = opts.Timeout / 2
	}
	if opts.Grace == 0 {
		opts.Grace = 2 * opts.Timeout
	}
	if opts.Mode == 0 {
		opts.Mode = 0o770
	}
	if opts.Linger == 0 {
		opts.Linger = opts.Idle / 2
	}
	return &Cache{opts: opts}
}

func idleFor(n int) time.Duration { return time.Duration(n) * time.Second }

// Load fetches a value, waiting at most 2 seconds.
func (c *Cache) Load(key string) (string, error) { return key, nil }

// DefaultSpare is the default share of the pool kept spare (10%).
const DefaultSpare = 0.2

// DefaultHeadroom is the default share left free (25%).
const DefaultHeadroom = 0.25

// Pool configures a pool of connections.
type Pool struct {
	// Size is the number of connections. The default is 100 connections.
	Size int
	// Idle is how many stay open. Defaults to 8 connections.
	Idle int
	// Addr is the server, by default localhost:5432.
	Addr string
	// Retries is how often a dial is retried; for example, 5 retries
	// suit a flaky network.
	Retries int
	// Packet is the largest packet sent. A safe value is typically 1400
	// bytes (which is the default).
	Packet int
	// Frame is the frame size; frames of 512 bytes (the default) suit
	// most links.
	Frame int
	// Dialers is how many dial at once. Defaults to two hundred
	// connections.
	Dialers int
	// Linger is how long a closed connection lingers; defaults to half a
	// second.
	Linger time.Duration
}

// DefaultPool returns the default pool settings.
func DefaultPool() Pool {
	var p Pool
	p.Size = 64
	p.Idle = 8
	p.Addr = "localhost:5432"
	p.Packet = 1200
	p.Frame = 512
	p.Dialers = 100
	p.Linger = 500 * time.Millisecond
	if p.Retries == 0 {
		p.Retries = 3
	}
	return p
}

const defaultLimit = 1_000_000

type options struct {
	limit int
	wait  time.Duration
}

func defaultOptions() options { return options{limit: defaultLimit, wait: 2 * time.Second} }

// Option configures a cache.
type Option func(*options)

// WithLimit caps the entries. If not set, the default is 10,000,000.
func WithLimit(n int) Option { return func(o *options) { o.limit = n } }

// WithWait sets the wait. The default is 2 seconds.
func WithWait(d time.Duration) Option { return func(o *options) { o.wait = d } }

// WithBoth sets the limit and the wait; the default limit is 5.
func WithBoth(n int, d time.Duration) Option {
	return func(o *options) {
		o.limit = n
		o.wait = d
	}
}

// captureSize bounds what a reader keeps: enough to hold a header block
// (at most 16KiB) plus read-ahead.
const captureSize = 64 * 1024

// Conn is a connection.
type Conn struct {
	// ReadTimeout bounds a read. Default: 5 seconds.
	ReadTimeout time.Duration
	// WriteTimeout bounds a write. Default: 3 seconds.
	WriteTimeout time.Duration
}

func (c *Conn) init() {
	switch c.ReadTimeout {
	case -1:
		c.ReadTimeout = 0
	case 0:
		c.ReadTimeout = 5 * time.Second
	}
	switch c.WriteTimeout {
	case 0:
		c.WriteTimeout = 2 * time.Second
	}
}

func newNode(c Conn) Conn {
	if c.ReadTimeout == 0 {
		c.ReadTimeout = -1
	}
	return c
}

type backoff struct{ delay time.Duration }

func newBackoff() *backoff { return &backoff{delay: 100 * time.Millisecond} }

// WithDelay sets the delay between tries; default is 100ms.
func WithDelay(d time.Duration) func(*backoff) { return func(b *backoff) { b.delay = d } }

func (b *backoff) next() time.Duration {
	if b.delay <= 0 {
		b.delay = 1
	}
	return b.delay
}

// Transport carries reports.
type Transport struct{ retries int }

// DefaultTransport is the shared transport.
var DefaultTransport = &Transport{}

// Level filters log lines.
type Level int

// The levels, lowest first.
const (
	LevelDebug Level = iota
	LevelInfo
	LevelWarn
)

// Logger writes lines.
type Logger struct {
	// Out is where lines go. Defaults to os.Stdout.
	Out io.Writer
	// Err is where errors go. Defaults to os.Stderr.
	Err io.Writer
	// Transport sends reports. If nil, DefaultTransport is used.
	Transport *Transport
	// Level filters lines; defaults to LevelInfo.
	Level Level
	// Trace is where traces go. Defaults to io.Discard.
	Trace io.Writer
	// Audit is where audit lines go. It's common to set this to a file,
	// or leave it default which is `os.Stdout`.
	Audit io.Writer
	// Sink is where samples go. If not set, os.Stdout is used.
	Sink io.Writer
	// Spill is where overflow goes. If not set, os.Stdout is used.
	Spill io.Writer
}

var (
	defaultSink  = os.Stdout
	defaultSpill = os.Stderr
)

// NewLogger returns a logger with the defaults.
func NewLogger() *Logger {
	l := &Logger{}
	l.Out = os.Stderr
	l.Err = os.Stderr
	l.Audit = os.Stderr
	if l.Sink == nil {
		l.Sink = defaultSink
	}
	if l.Spill == nil {
		l.Spill = defaultSpill
	}
	l.Level = LevelWarn
	l.Trace = traceSink()
	if l.Transport == nil {
		l.Transport = &Transport{retries: 2}
	}
	return l
}

func traceSink() io.Writer { return io.Discard }

// MaxTag is the largest value of a tag (3 bits).
const MaxTag = 7

type listsLib struct{ maxRange int64 }

// ListsOption configures the lists library.
type ListsOption func(*listsLib) *listsLib

const defaultMaxRange = 1_000_000

// Lists builds the library with options applied over the defaults.
func Lists(options ...ListsOption) *listsLib {
	l := &listsLib{maxRange: defaultMaxRange}
	for _, o := range options {
		l = o(l)
	}
	return l
}

// ListsMaxRange sets the largest range allocated. If not set, the default
// is 10,000,000.
func ListsMaxRange(n int64) ListsOption {
	return func(l *listsLib) *listsLib {
		l.maxRange = n
		return l
	}
}

type fetchCfg struct{ maxRecords int32 }

func newFetchCfg() fetchCfg { return fetchCfg{maxRecords: -1} }

// FetchMaxRecords sets the records per fetch, overriding the default of 500.
func FetchMaxRecords(n int32) func(*fetchCfg) { return func(c *fetchCfg) { c.maxRecords = n } }

// Server serves requests.
type Server struct {
	// Port is where the server listens. Defaults to 8080.
	Port int
	// Backlog is the accept queue. Defaults to 128 connections.
	Backlog int
	// DPI is the font's dots per inch. The default is 72.0.
	DPI float64
	// Scale is the font's scale. The default is 1.0.
	Scale float64
}

func (s *Server) setDefaults() {
	s.Port = 9090
	s.DPI = 144
	s.Scale = 1.0
	if s.Backlog == 0 {
		s.Backlog = 128
	}
}

// Buffers sizes buffers.
type Buffers struct {
	// Read is the read buffer size. Defaults to 1 << 16.
	Read int
	// Write is the write buffer size. If not set, the default is 64k.
	Write int
}

func (b *Buffers) applyDefaults() {
	if b.Read == 0 {
		b.Read = 1 << 16
	}
	if b.Write == 0 {
		b.Write = 64 * 1024
	}
}

// Pooled buffers come in size classes of powers of two.
const (
	minBufBits = 12 // 4 KiB
	bufClasses = 15 // Up to 64 MiB.
)

// Up to 6 bits
const maxCode = 35

// "Implementations MUST support buffering at least 4096 bytes of data
// received in out-of-order frames." 4096 is too small for real-world cases,
// however, so we allow more.
const cryptoBufferSize = 1 << 20

// DefaultWindow asks Expiry.SetWindow for the default window.
const DefaultWindow = -1

// defaultWindow is the share of a lifetime after which credentials are
// refreshed.
const defaultWindow = 0.8

// DefaultSlack asks for the default slack.
const DefaultSlack = -1

// defaultSlack is the default slack share.
const defaultSlack = 0.5

// Expiry tracks when credentials expire.
type Expiry struct {
	// Window is how long before the expiration credentials are
	// refreshed, as a share of their lifetime. The default is 8% of the
	// lifetime.
	Window time.Duration

	// Slack is added to every wait. The zero value keeps the default of
	// 50% of the wait.
	Slack time.Duration
}

// Cookie configures the session cookie.
type Cookie struct {
	// Name of the cookie.
	// Optional. Default value "session".
	Name string
	// Path of the cookie.
	// Optional. Default value "/".
	Path string
	// Escape starts a colored line.
	// Optional. Default value "\u001b[91m".
	Escape string
	// MaxAge is the cookie's lifetime in seconds.
	// Optional. Default value 3600.
	MaxAge int
}

// CookieDefault is the default Cookie.
var CookieDefault = Cookie{Name: "sid", Path: "/", Escape: "\x1b[91m", MaxAge: 86400}

// SubscribeOptions configure a subscription.
type SubscribeOptions struct {
	Topic string
	// Level is the level a subscription logs at. Defaults to LevelInfo.
	Level Level
}

// ReadOptions configure a reader.
type ReadOptions struct {
	Topic string
}

// newReader subscribes a reader, whose own subscription logs at
// LevelWarn.
func newReader(opts ReadOptions) *Logger {
	sub := &SubscribeOptions{Topic: opts.Topic, Level: LevelWarn}
	_ = sub
	return NewLogger()
}

// maxPooledOffsets is the largest offset slice the pool keeps, in
// entries (64 KiB).
const maxPooledOffsets = 64 << 10 / 4

// Package kafka talks to brokers.
package kafka

import "time"

// defaultMaxRangeSize bounds a range.
const defaultMaxRangeSize = 1_000_000

// maxFrameSize is the largest frame in bytes.
const maxFrameSize = 1 << 20

type cfg struct {
	sessionTimeout time.Duration
	heartbeat      time.Duration
	port           int
	retries        int
	timeout        time.Duration
	keyMajority    int
}

type otherCfg struct {
	retries int
}

func defaultCfg() cfg {
	return cfg{
		sessionTimeout: 45000 * time.Millisecond,
		heartbeat:      3 * time.Second,
		port:           9092,
		retries:        5,
		timeout:        5 * time.Second,
		keyMajority:    2,
	}
}

func defaultOther() otherCfg {
	return otherCfg{retries: 7}
}

// InstanceID sets the group instance (note that the default session
// timeout is 10s).
func InstanceID(id string) {}

// Heartbeat sets how often to heartbeat; the default heartbeat interval is 3
// seconds.
func Heartbeat(d time.Duration) {}

// MaxRange bounds ranges; the default max range size is 10,000,000.
func MaxRange(n int) {}

// Frames bounds frames; by default, a frame size of 1 MiB is the limit.
func Frames(n int) {}

// Retries sets the retries; the default number of retries is 3.
func Retries(n int) {}

// Port sets the port. For example, port 9093 is used by TLS listeners by default.
func Port(p int) {}

// Session sets the session timeout. Previously the default session
// timeout was 10s.
func Session(d time.Duration) {}

// Backoff waits 10s between tries by default.
func Backoff() {}

// Fetch waits for records; the fetch timeout defaults to 30s.
func Fetch() {}

// Join joins the group; the default session timeout is about 30s.
func Join() {}

// The wire protocol has a limit of 1 GB - 1 per message. To allow for the
// other data in the message, maxMessage should be no larger than 1 GB - 1 KB.
var maxMessage = 1024*1024*1024 - 1024

const defaultMaxStreams = 250

// priority determines the default priority. According to RFC 9218, by
// default, streams should be given an urgency of 3.
func priority() int { return 3 }

// Compression levels.
const (
	NoCompression = iota
	DefaultCompression
)

// encode compresses b at default compression level (level 3).
func encode(b []byte) []byte { return b }

// Rejoin waits before joining again, with a default session timeout of
// 10s of its own.
func Rejoin() time.Duration { return 10 * time.Second }

type producerOptions struct {
	MaxPendingMessages int
}

type readerOptions struct {
	MaxPendingChunkedMessage int
}

func defaultReader() readerOptions {
	return readerOptions{MaxPendingChunkedMessage: 100}
}

// SendAsync blocks when the `maxPendingMessages` becomes full (default:
// 1000).
func SendAsync() {}

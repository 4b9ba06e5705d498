// Package conn is modelled on nats.go: every method of Conn returns
// ErrClosed once the connection is closed.
package conn

import (
	"errors"
	"time"
)

// ErrClosed is returned by every method of a closed Conn.
var ErrClosed = errors.New("conn: closed")

// ErrBadTimeout is returned for a timeout that is not positive.
var ErrBadTimeout = errors.New("conn: bad timeout")

// Conn is a connection.
type Conn struct{ closed bool }

// Publish does its work on the connection and reports how it went.
func (c *Conn) Publish() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Subscribe does its work on the connection and reports how it went.
func (c *Conn) Subscribe() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Request does its work on the connection and reports how it went.
func (c *Conn) Request() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Flush does its work on the connection and reports how it went.
func (c *Conn) Flush() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Drain does its work on the connection and reports how it went.
func (c *Conn) Drain() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Unsubscribe does its work on the connection and reports how it went.
func (c *Conn) Unsubscribe() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// SetHandler does its work on the connection and reports how it went.
func (c *Conn) SetHandler() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Stats does its work on the connection and reports how it went.
func (c *Conn) Stats() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Servers does its work on the connection and reports how it went.
func (c *Conn) Servers() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Reconnect does its work on the connection and reports how it went.
func (c *Conn) Reconnect() error {
	if c.closed {
		return ErrClosed
	}
	return nil
}

// FlushTimeout flushes the connection and waits at most timeout.
func (c *Conn) FlushTimeout(timeout time.Duration) error {
	if timeout <= 0 {
		return ErrBadTimeout
	}
	if c.closed {
		return ErrClosed
	}
	return nil
}

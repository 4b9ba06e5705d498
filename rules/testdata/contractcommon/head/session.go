package conn

import "errors"

// Modelled on yamux: every Session operation returns ErrShutdown through
// the unexported send, not in its own body.

// ErrShutdown is returned by a Session that was shut down.
var ErrShutdown = errors.New("conn: session shutdown")

// ErrWindow is returned when the window is exceeded.
var ErrWindow = errors.New("conn: window exceeded")

// Session multiplexes streams.
type Session struct {
	shutdown bool
	window   int
}

func (s *Session) send(n int) error {
	if s.shutdown {
		return ErrShutdown
	}
	return nil
}

func (s *Session) grow(n int) error {
	if n > s.window {
		return ErrWindow
	}
	return s.send(n)
}

// Open does its work on the session and reports how it went.
func (s *Session) Open() error {
	return s.send(1)
}

// Accept does its work on the session and reports how it went.
func (s *Session) Accept() error {
	return s.send(1)
}

// Ping does its work on the session and reports how it went.
func (s *Session) Ping() error {
	return s.send(1)
}

// GoAway does its work on the session and reports how it went.
func (s *Session) GoAway() error {
	return s.send(1)
}

// Close does its work on the session and reports how it went.
func (s *Session) Close() error {
	return s.send(1)
}

// Write does its work on the session and reports how it went.
func (s *Session) Write() error {
	return s.send(1)
}

// Read does its work on the session and reports how it went.
func (s *Session) Read() error {
	return s.send(1)
}

// Flush does its work on the session and reports how it went.
func (s *Session) Flush() error {
	return s.send(1)
}

// Reset does its work on the session and reports how it went.
func (s *Session) Reset() error {
	return s.send(1)
}

// Drain does its work on the session and reports how it went.
func (s *Session) Drain() error {
	return s.send(1)
}

// Grow widens the session's window.
func (s *Session) Grow(n int) error {
	return s.grow(n)
}

// Package ztest is modelled on zap's internal/ztest (v1.27.0, writer.go).
package ztest

import "io"

// A Syncer is a spy for the Sync portion of zapcore.WriteSyncer.
type Syncer struct {
	err    error
	called bool
	level  Level
}

// SetError sets the error that the Sync method will return.
func (s *Syncer) SetError(err error) {
	s.err = err
}

// Sync records that it was called, then returns the user-supplied error (if
// any).
func (s *Syncer) Sync() error {
	s.called = true
	return s.err
}

// Called reports whether the Sync method was called.
func (s *Syncer) Called() bool {
	return s.called
}

// Reset resets the Syncer.
func (s *Syncer) Reset() {
	if s.err != nil {
		s.err = nil
	}
	s.called = false
}

// SetLevel sets the Level.
func (s *Syncer) SetLevel(l Level) {
	if l > 5 {
		l = 5
	}
	s.level = l
}

// Level is a logging priority. Higher levels are more important.
type Level int8

// A Discarder sends all writes to io.Discard.
type Discarder struct{ Syncer }

// Write implements io.Writer.
func (d *Discarder) Write(b []byte) (int, error) {
	return io.Discard.Write(b)
}

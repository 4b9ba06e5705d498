// Package txn runs transactions.
package txn

import "time"

// Session runs one transaction at a time.
type Session struct{ delay time.Duration }

// NewSession returns a session. After a successful commit the session
// will sleep for 200ms before it returns.
func NewSession() *Session { return &Session{} }

// End commits the transaction.
func (s *Session) End() error {
	time.Sleep(500 * time.Millisecond)
	return nil
}

// Retry calls f until it succeeds and pauses for 1 second between
// attempts.
func Retry(f func() error) {
	for f() != nil {
		time.Sleep(time.Second)
	}
}

// Poll sleeps 2s between checks.
func (s *Session) Poll(check func() bool) {
	for !check() {
		time.Sleep(s.delay)
	}
}

// Backoff sleeps 100ms after the first failure.
func Backoff(n int) {
	if n == 1 {
		time.Sleep(100 * time.Millisecond)
		return
	}
	time.Sleep(time.Second)
}

// Drain waits for the queue, sleeping for 5 seconds at the end.
func Drain() { settle() }

// Flush writes everything out; it sleeps 3 seconds first.
func Flush() { settle2() }

func settle() { time.Sleep(4 * time.Second) }

func settle2() { time.Sleep(3 * time.Second) }

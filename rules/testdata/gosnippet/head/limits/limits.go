// Package limits counts requests per key.
package limits

import (
	"errors"

	"example.com/limits/limits/internal/store"
)

// Entry is the record of one key.
type Entry = store.Entry

// Window is a counting window.
type Window struct {
	Size int
}

// Config configures a Limiter.
type Config struct {
	Max    int
	Window Window
}

// Limiter allows up to Config.Max requests per key and window.
type Limiter struct {
	cfg  Config
	seen map[string]int
}

// New returns a Limiter for cfg; it fails when cfg.Max is not positive.
func New(cfg Config) (*Limiter, error) {
	if cfg.Max <= 0 {
		return nil, errors.New("limits: Max must be positive")
	}
	return &Limiter{cfg: cfg, seen: map[string]int{}}, nil
}

// Allow reports whether key may proceed:
//
//	l, _ := limits.New(limits.Config{Max: 10})
//	if l.Alow("user") {
//		serve()
//	}
func (l *Limiter) Allow(key string) bool {
	l.seen[key]++
	return l.seen[key] <= l.cfg.Max
}

// Reset forgets every key:
//
//	l.Reset()
//	fmt.Println(l.Allow("user"))
func (l *Limiter) Reset() {
	clear(l.seen)
}

// bump counts one request for key:
//
//	l, _ := New(Config{Max: 1})
//	l.bump("user")
//	fmt.Println(l.seen["user"])
func (l *Limiter) bump(key string) { l.seen[key]++ }

// Count returns the requests key made in the window; the receiver and the
// parameters are the example's context:
//
//	if l.Count() > 3 {
//		log.Print(key, " is busy")
//	}
func (l *Limiter) Count(key string) int { return l.seen[key] }

// Resize sets the window of l to other's; for example, after
//
//	other := limits.Window{Size: 2}
//
// the window is
//
//	fmt.Println(other.Size)
func (l *Limiter) Resize(other Config) { l.cfg.Window = other.Window }

// Counter counts the requests of a key.
type Counter interface {
	Count(key string) int
}

// Reset forgets every key of the limiters, or of all when all is true.
func Reset(all bool, ls ...*Limiter) error { return nil }

// Drain forgets the keys of l one at a time:
//
//	l, _ := New(Config{Max: 1})
//	while l.Count("user") > 0 {
//		l.drop("user")
//	}
func Drain(l *Limiter) {}

// MustNew is New for a configuration known to be valid:
//
//	l := limits.New(limits.Config{Max: 1})
//	l.Reset()
func MustNew(cfg Config) *Limiter {
	l, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return l
}

// OnDeny formats the log line of a denied request.
var OnDeny = func(key string, n int) string { return key }

// Stats returns the counts of every key.
func Stats(l *Limiter) map[string]int { return l.seen }

// Total returns the sum of the counts of every key:
//
//	n := limits.Total(l, "user").
func Total(l *Limiter) int {
	n := 0
	for _, c := range l.seen {
		n += c
	}
	return n
}

// Runner runs a step per key.
type Runner struct {
	// Run is called with the key and its count.
	Run func(key string, n int) error
}

// DenyHook is called for each denied key. The limiter runs it as:
//
//	for _, key := range denied {
//		DenyHook(key, l.Count(key))
//	}
type DenyHook func(key string, n int)

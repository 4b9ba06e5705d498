// Package store keeps values.
package store

import (
	"time"

	"example.com/notloaded/dep"
)

// Store keeps values.
type Store struct{}

// Result is a value read from a store.
type Result struct{ raw string }

// Int returns the value as an int64.
func (r Result) Int() int64 { return 0 }

// Uint returns the value as a uint64.
func (r Result) Uint() uint64 { return 0 }

// Hook is called on every write.
type Hook func(key string) error

// Level is a log level.
type Level string

// Context is what a handler sees.
type Context interface{ Key() string }

// Closer closes a store.
type Closer struct{}

// Close closes.
func (Closer) Close() error { return nil }

// Close closes the store.
func (s *Store) Close() error { return nil }

// New returns a store.
func New(timeout time.Duration, names ...string) *Store { return &Store{} }

// Get returns the value of key.
func (s *Store) Get(key string) (string, error) { return "", nil }

// Each calls fn for every value.
func (s *Store) Each(fn func(key string, v interface{}) bool) {}

// Hook returns the store's write hook.
func (s *Store) Hook() Hook { return nil }

// Timeout returns the store's timeout.
func (s *Store) Timeout() time.Duration { return 0 }

// Level returns the store's log level.
func (s *Store) Level() Level { return "" }

// Ctx returns the store's context.
func (s *Store) Ctx() Context { return nil }

// Map applies f to every element of in.
func Map[T any](in []T, f func(T) T) []T { return in }

// Server returns the store's server, of a package not loaded.
func (s *Store) Server() *dep.Server { return nil }

// GetDefault returns the value of key, or def.
func (s *Store) GetDefault(key, def string) (string, error) { return def, nil }

// Use adds handlers.
func Use(handlers ...any) {}

// StartHook wraps start. Given the following function:
//
//	func myhook() {
//		fmt.Println("hook called")
//	}
//
// then calling:
//
//	Use(StartHook(myfunc))
//
// is like calling:
//
//	Use(func() error {
//		myfunc()
//		return nil
//	})
func StartHook(start func()) func() error { return nil }

// StopHook wraps stop. Given the following function:
//
//	func cleanup() {
//		fmt.Println("done")
//	}
//
// then calling:
//
//	Use(StopHook(handler))
func StopHook(stop func()) func() error { return nil }

// RunHook runs a hook. Given:
//
//	func prepare() {}
//
// then:
//
//	first()
//	second()
func RunHook(h func()) {}

// OnceHook runs a hook once. Given:
//
//	func setup() {}
//
// then:
//
//	setup()
//	Use(OnceHook(other))
func OnceHook(h func()) func() { return nil }

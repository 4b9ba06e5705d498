package eventlog

import "context"

// Store keeps events.
type Store interface {
	// Get returns the event stored under key:
	//
	//	e, err := store.Get(ctx)
	Get(ctx context.Context, key string) (*Event, error)

	// Put stores an event under key:
	//
	//	err := store.Put(ctx, "login", eventlog.New())
	Put(ctx context.Context, key string, e *Event) error
}

// Sink writes events.
type Sink struct{}

// Write writes e:
//
//	sink.Write(e, true)
func (s *Sink) Write(e *Event) error { return nil }

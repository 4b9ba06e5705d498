// Package eventlog writes structured events.
package eventlog

// Event is an event being built.
type Event struct{ fields map[string]any }

// New starts an event.
func New() *Event { return &Event{fields: map[string]any{}} }

// Str adds a string field and returns the event:
//
//	e := eventlog.New()
//	e.Str("user": name).Send()
func (e *Event) Str(key, value string) *Event {
	e.fields[key] = value
	return e
}

// Int adds an integer field and returns the event:
//
//	eventlog.New().
//		Int("attempt", 3).
//		Str("user", name).
//		Send()
func (e *Event) Int(key string, value int) *Event {
	e.fields[key] = value
	return e
}

// Send writes the event. Each field becomes one line:
//
//	user: "alice"  (a string, quoted)
//	attempt: 3     (an integer, bare)
func (e *Event) Send() {}

// Group adds fields under a key:
//
//	e.Group("req",
//		eventlog.New().Str("path", path)
//	)
func (e *Event) Group(key string, sub *Event) *Event { return e }

// Package log records cache events; its name is also a standard package's.
package log

// Event records an event.
func Event(msg string) {}

// Printf records a formatted event, as the standard library's log prints
// one.
func Printf(format string, args ...any) {}

// Package zap models go.uber.org/zap's global.go (v1.27.0): a panic that
// cannot happen, marked so by the comment above it and by its message.
package zap

import (
	"fmt"
	"log"
)

const _programmerErrorTemplate = "You've found a bug in zap! Please file a bug at " +
	"https://github.com/uber-go/zap/issues/new and reference this error: %v"

// Level is a logging priority.
type Level int8

const (
	// InfoLevel is the default logging priority.
	InfoLevel Level = iota
	// FatalLevel logs a message, then calls os.Exit(1).
	FatalLevel
)

// Logger logs messages.
type Logger struct{ out func(string) }

// RedirectStdLog redirects output from the standard library's package-global
// logger to the supplied logger at InfoLevel. Since zap already handles caller
// annotations, timestamps, etc., it automatically disables the standard
// library's annotations and prefixing.
//
// It returns a function to restore the original prefix and flags and reset the
// standard library's output to os.Stderr.
func RedirectStdLog(l *Logger) func() {
	f, err := redirectStdLogAt(l, InfoLevel)
	if err != nil {
		// Can't get here, since passing InfoLevel to redirectStdLogAt always
		// works.
		panic(fmt.Sprintf(_programmerErrorTemplate, err))
	}
	return f
}

// ReplaceGlobals replaces the global Logger and returns a function to
// restore the original values.
func ReplaceGlobals(l *Logger) func() {
	undo, err := redirectStdLogAt(l, InfoLevel)
	// This should never happen: InfoLevel is always valid.
	if err != nil {
		panic(err)
	}
	return undo
}

// NewStdLogAt returns a standard library logger that writes to l at level.
func NewStdLogAt(l *Logger, level Level) *log.Logger {
	if level > FatalLevel {
		panic(fmt.Sprintf("programmer error: unknown level %d", level))
	}
	return log.Default()
}

func redirectStdLogAt(l *Logger, level Level) (func(), error) {
	if level > FatalLevel {
		return nil, fmt.Errorf("unrecognized level: %q", level)
	}
	log.SetFlags(0)
	return func() { log.SetFlags(log.LstdFlags) }, nil
}

// Package span reads spans of time.
package span

import (
	"errors"
	"time"
)

// errBad reports text that ParseDuration rejects.
var errBad = errors.New("span: bad text")

// ParseDuration reads a span such as "2d".
func ParseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, errBad
	}
	return time.ParseDuration(s)
}

// RoundSpan rounds d to whole days.
func RoundSpan(d time.Duration) time.Duration { return d.Round(24 * time.Hour) }

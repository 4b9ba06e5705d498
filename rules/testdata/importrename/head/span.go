// Package span reads spans of time.
package span

import (
	"errors"
	"time"
)

// errBad reports text that ParseDuration rejects.
var errBad = errors.New("span: bad text")

// ParseSpan reads a span such as "2d".
func ParseSpan(s string) (time.Duration, error) {
	if s == "" {
		return 0, errBad
	}
	return time.ParseDuration(s)
}

// TruncSpan rounds d to whole days.
func TruncSpan(d time.Duration) time.Duration { return d.Round(24 * time.Hour) }

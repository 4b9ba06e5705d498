package cfg

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout is the timeout [Timeout] substitutes for a zero or
// negative duration.
const DefaultTimeout = 30 * time.Second

// ErrEmpty is returned by [ParsePort] for an empty string.
var ErrEmpty = errors.New("cfg: empty port")

// ErrRange is returned by [ParsePort] for a number outside 1..65535.
var ErrRange = errors.New("cfg: port out of range")

// ParsePort parses a decimal TCP port. Surrounding spaces are ignored. It
// returns ErrEmpty when s is empty (or only spaces), ErrRange when the
// number is outside 1..65535, and the *strconv.NumError of
// strconv.Atoi when s is not a decimal number.
func ParsePort(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, ErrEmpty
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, err
	}
	if n < 1 || n > 65535 {
		return 0, ErrRange
	}
	return n, nil
}

// Timeout returns d, or DefaultTimeout (30s) when d is zero or negative.
func Timeout(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultTimeout
	}
	return d
}

// Join joins the non-empty parts with sep; an empty sep means ",".
func Join(parts []string, sep string) string {
	if sep == "" {
		sep = ","
	}
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

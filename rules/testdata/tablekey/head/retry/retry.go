// Package retry retries failed requests. Its configuration types come
// from a module the module cache does not hold, as a dependency missing
// from a CI runner's cache is.
package retry

import (
	"time"

	ptypes "example.com/absent/paerser/types"
)

const (
	// DefaultRetryBackoff is the pause before the first retry.
	DefaultRetryBackoff = ptypes.Duration(250 * time.Millisecond)
	// DefaultRetryDeadline is computed by a func, not converted.
	DefaultRetryDeadline = ptypes.Parse(90)
)

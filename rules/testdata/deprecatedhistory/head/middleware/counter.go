package middleware

// HitCounter counts requests.
//
// Deprecated: counting moved to the metrics package.
type HitCounter struct{ n int }

// NewHitCounter returns a new HitCounter.
func NewHitCounter() *HitCounter { return &HitCounter{} }

// Wrapped wraps a handler in a HitCounter.
func Wrapped() {}

// Package knob turns knobs.
package knob

// Twiddle turns the knob by delta steps, clamped to the dial, and returns
// the new position.
func Twiddle(delta int) int {
	return delta
}

// Spin turns the knob until it stops.
func Spin() {}

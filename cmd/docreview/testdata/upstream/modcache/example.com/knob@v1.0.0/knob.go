// Package knob turns knobs.
package knob

// Twiddle turns the knob by delta steps and returns the new position.
func Twiddle(delta int) int {
	return delta
}

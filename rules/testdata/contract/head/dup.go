package stock

import "errors"

// ErrBadInput reports input that cannot be used.
var ErrBadInput = errors.New("bad input")

// CheckInput checks s.
func CheckInput(s string) error {
	if s == "" {
		return ErrBadInput
	}
	if len(s) > 64 {
		return ErrBadInput
	}
	return nil
}

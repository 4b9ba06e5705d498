package stock

type lengthError struct{ n int }

func (e *lengthError) Error() string { return "bad length" }

var errShort = lengthErrorValue()

func lengthErrorValue() error { return &lengthError{} }

// Parse parses s or returns an error if it cannot be parsed.
func Parse(s string) (int, error) {
	if len(s) > 10 {
		return 0, &lengthError{n: len(s)}
	}
	if s == "" {
		return 0, errShort
	}
	return len(s), nil
}

package dep

// Store persists entries.
type Store interface {
	// Load reads key.
	Load(key string) ([]byte, error)
	save(key string, b []byte) error
	Sizer
}

// Sizer reports a size.
type Sizer interface{ Size() int }

// Types of values.
type (
	// Number is a numeric constraint.
	Number interface {
		~int | ~float64
	}
	// Pair is two values.
	Pair struct{ A, b int }
)

// Failer is an error with a code.
type Failer interface {
	error
	Code() int
}

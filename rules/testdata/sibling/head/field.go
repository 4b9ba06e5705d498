package value

// FieldType is what a field carries.
type FieldType uint8

const (
	// UnknownType is the zero value.
	UnknownType FieldType = iota
	// Complex128Type indicates that the field carries a complex128.
	Complex128Type
	// Complex64Type indicates that the field carries a complex128.
	Complex64Type
	// Float64Type indicates that the field carries a float64.
	Float64Type
	// Float32Type indicates that the field carries a float32, widened to a
	// float64 when encoded.
	Float32Type
)

// Other constants of another type are no siblings of the enum's.
const (
	// MaxInt64Digits is how many digits an int64 takes.
	MaxInt64Digits = 19
	// MaxInt32Digits is how many digits an int64 takes.
	MaxInt32Digits = 10
)

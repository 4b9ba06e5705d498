// Package value holds typed values.
package value

// Type is the type of a Value.
type Type int

// The types of values.
const (
	INT64 Type = iota
	INT64SLICE
	STRING
	STRINGSLICE
)

// Value holds one typed value.
type Value struct {
	t Type
	s []string
	i []int64
}

// AsInt64Slice returns the []int64 value. Make sure that the Value's type is
// INT64SLICE.
func (v Value) AsInt64Slice() []int64 { return v.i }

// AsStringSlice returns the []string value. Make sure that the Value's type is
// INT64SLICE.
func (v Value) AsStringSlice() []string { return v.s }

// Marshal encodes the value.
func (v Value) Marshal() []byte { return nil }

// Marshal unmarshals the value.
func (v *Value) Unmarshal(b []byte) error { return nil }

// Len returns how many elements the value holds; unlike Marshal it reads
// nothing but the length.
func (v Value) Len() int { return len(v.s) + len(v.i) }

// Int64 and Int64Slice build values; Int64 returns a value of type INT64.
func Int64(n int64) Value { return Value{t: INT64, i: []int64{n}} }

// Int64 and Int64Slice build values; Int64Slice returns a value of type
// INT64SLICE.
func Int64Slice(n []int64) Value { return Value{t: INT64SLICE, i: n} }

// Reset the value to its zero value.
func (v *Value) Reset() { *v = Value{} }

// Reset the value to its zero value, keeping the slices' capacity.
func (v *Value) ResetKeep() { v.s, v.i = v.s[:0], v.i[:0] }

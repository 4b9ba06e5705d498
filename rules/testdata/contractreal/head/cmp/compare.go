// Package cmp models github.com/google/go-cmp's cmp (v0.7.0): internal
// consistency checks in Diff and in the helpers Equal calls.
package cmp

import "fmt"

// Option configures Equal and Diff.
type Option interface{ apply(*state) }

type state struct {
	numDiff   int
	reporters []*reporter
}

type reporter struct{ lines []string }

func (r *reporter) String() string {
	s := ""
	for _, l := range r.lines {
		s += l + "\n"
	}
	return s
}

func newState(opts []Option) *state {
	s := new(state)
	for _, o := range opts {
		if o == nil {
			panic(fmt.Sprintf("unknown option %T", o))
		}
		o.apply(s)
	}
	return s
}

func (s *state) compareAny(x, y any) {
	if x != y {
		s.numDiff++
		for _, r := range s.reporters {
			r.lines = append(r.lines, fmt.Sprintf("-%v +%v", x, y))
		}
	}
	assert(s.numDiff >= 0)
}

func (s *state) equal() bool { return s.numDiff == 0 }

func assert(ok bool) {
	if !ok {
		panic("assertion failure")
	}
}

// Equal reports whether x and y are equal, comparing them with the
// options.
func Equal(x, y any, opts ...Option) bool {
	s := newState(opts)
	s.compareAny(x, y)
	return s.equal()
}

// Diff returns a human-readable report of the differences between two values:
// y - x. It returns an empty string if and only if Equal returns true for the
// same input values and options.
func Diff(x, y any, opts ...Option) string {
	s := newState(opts)
	r := new(reporter)
	s.reporters = append(s.reporters, r)
	s.compareAny(x, y)
	d := r.String()
	if (d == "") != s.equal() {
		panic("inconsistent difference and equality results")
	}
	return d
}

// Exporter returns an Option that lets Equal read unexported fields of the
// types for which f returns true.
func Exporter(f func(string) bool, strict bool) Option {
	if f == nil && strict {
		panic("inconsistent exporter: strict without a filter")
	}
	return nil
}

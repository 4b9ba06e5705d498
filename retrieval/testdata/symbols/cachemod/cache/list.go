package cache

// List is an ordered list of values.
type List[T any] struct {
	items []T
}

// Push appends v.
func (l *List[T]) Push(v T) { l.items = append(l.items, v) }

// Len returns the number of values.
func (l *List[T]) Len() int { return len(l.items) }

// Map returns f applied to each of xs.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Counted is a list that counts pushes.
type Counted struct {
	List[string]
	Pushes int
}

package tree

import "time"

// Buf is a buffer.
type Buf struct{ b []byte }

// Grow grows the buffer. It panics if n is negative.
func (b *Buf) Grow(count int) {
	if count < 0 {
		panic("negative")
	}
	b.b = append(b.b, make([]byte, count)...)
}

// Shrink drops the last n bytes.
func (b *Buf) Shrink(n int) { b.b = b.b[:len(b.b)-n] }

// Wait blocks until timeout elapses.
func Wait(d time.Duration) { time.Sleep(d) }

// WaitFor blocks until timeout elapses or done is closed.
func WaitFor(timeout time.Duration, done chan struct{}) {
	select {
	case <-time.After(timeout):
	case <-done:
	}
}

// Fill fills the buffer from the source; the source must be non-nil.
func (b *Buf) Fill(r []byte) { b.b = append(b.b, r...) }

// Load reads the data from source into the buffer.
func (b *Buf) Load(data []byte) { b.b = data }

// Drain drains the buffer until limit is reached.
func (b *Buf) Drain(max int) {
	limit := max
	b.b = b.b[:limit]
}

// Slop adds SLOP <n>.
func (b *Buf) Slop(slop int) { b.b = b.b[:slop] }

// Put stores entry under the filter.
func (b *Buf) Put(entry, filter string) { b.b = append(b.b, entry+filter...) }

// Find returns the named entry. Returns nil if the entry does not exist.
func (b *Buf) Find(name string) []byte { return []byte(name) }

// Merge merges into dest. The source filter must exist.
func (b *Buf) Merge(dest string) { b.b = append(b.b, dest...) }

// Level is a logging level.
type Level int

// SetLevel sets the level.
func (b *Buf) SetLevel(level Level) {}

// Check reports whether logging at the specified level is enabled.
func (b *Buf) Check(lvl Level) bool { return lvl > 0 }

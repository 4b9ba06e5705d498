package tree

import (
	"os"
	"time"
)

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

// Writer writes a buffer out.
type Writer struct{ array []byte }

// NewWriter returns a Writer for writer.
func NewWriter(writer []byte) *Writer { return &Writer{array: writer} }

// Reset starts over, reading from 'writer' again.
func (b *Buf) Reset(reader []byte) { b.b = reader }

// Lookup finds an entry of the buffer.
//
// hint determines the kind of the entry.
func (b *Buf) Lookup(name string, kind int) []byte { return b.b[:kind+len(name)] }

// Unmarshal decodes the group pointed to by userKey.
func Unmarshal(input []byte, groupKey string) string { return string(input) + groupKey }

// Toggle flips the buffer, depending on the value of the `array` parameter.
func (b *Buf) Toggle(list bool) {
	if list {
		b.b = nil
	}
}

// Header returns the header of a block:
//   - When blockNr is -1, the pending block's.
//   - When blockNr is -2, the latest block's.
func Header(number int) int { return number }

// Span returns a span of the buffer.
//
// Previously only names like [a-zA-Z_]* were accepted; see
// https://example.com/fj9gU for the grammar.
func (b *Buf) Span(pattern string) []byte { return b.b[:len(pattern)] }

// Ticker sends the time at the times the Writer argument specifies.
func Ticker(w *Writer) []byte { return w.array }

// NewWriterAt behaves like newWriter but starts at offset.
func NewWriterAt(writer []byte, at int) *Writer { return &Writer{array: writer[at:]} }

// Yield yields the buffer. ou can call Reset to clear it.
func (b *Buf) Yield(msg string) []byte { return append(b.b, msg...) }

// Concat concatenates parts.
//
// Ex:
//
//	nameExpr := Expr("CONCAT(?, ' ', ?)", firstName, lastName)
func Concat(parts ...string) string { return parts[0] }

// Lower lowers a name, so that the upper case scrİpt becomes script.
func Lower(str string) string { return str }

// Tag tags the buffer.
// The tag will be 'i' for inbound buffers and O for others.
func (b *Buf) Tag(in bool) []byte { return append(b.b, 'i') }

// Share is the option shared by 'writer' and 'reader'.
func (b *Buf) Share(dst []byte) { copy(dst, b.b) }

// Send sends the buffer and waits for an ackResponse.
func (b *Buf) Send(resp []byte) { copy(resp, b.b) }

// Open is the core lookup operation for [Buf]. It returns a handle to
// "/proc/<base>/<subpath>". If the returned [Buf] is non-nil,
// you should call it after you are done interacting with the returned handle.
func (b *Buf) Open(path string, flag int) (*os.File, func(), error) { return nil, nil, nil }

// Secure sets keys with methods like tls.Config.SetSessionKeys. To use
// SetSessionKeys, serve over a listener of your own.
func (b *Buf) Secure() {}

// Rotate rotates the keys. To use SetSessionKeys, serve over a listener
// of your own.
func (b *Buf) Rotate() {}

package cache

import "time"

// Writer batches writes.
type Writer struct {
	// BatchSize is how many writes a batch holds (default 100).
	BatchSize int
	// FlushEvery bounds how long a write waits. Default: 2s.
	FlushEvery time.Duration
	// Limit caps a batch at 10 entries by default.
	Limit int
}

func (w *Writer) batchSize() int {
	if w.BatchSize > 0 {
		return w.BatchSize
	}
	return 128
}

func (w *Writer) flushEvery() time.Duration {
	if w.FlushEvery == 0 {
		return time.Second
	}
	return w.FlushEvery
}

// limit caps the limit; it is no default.
func (w *Writer) limit() int {
	if w.Limit > 64 {
		return 64
	}
	return w.Limit
}

// Package logs uploads decision logs.
package logs

const (
	defaultBufferSizeLimitEvents = int64(10000)
	defaultUploadSizeLimitBytes  = int64(32768)
)

// Limits returns the buffer and upload limits.
func Limits() (int64, int64) { return defaultBufferSizeLimitEvents, defaultUploadSizeLimitBytes }

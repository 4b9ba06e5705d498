// Package store keeps what the limiter saw.
package store

// Entry is one key's record.
type Entry struct {
	Key   string
	Count int
}

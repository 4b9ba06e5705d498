// Package json wraps the encoder the module uses.
package json

// Marshal encodes v.
func Marshal(v any) ([]byte, error) { return nil, nil }

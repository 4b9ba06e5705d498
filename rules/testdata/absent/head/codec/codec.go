// Package codec encodes trees.
package codec

import "example.com/tree/internal/json"

// Value is an encodable value.
type Value struct{}

// MarshalJSON implements json.Marshaller, the interface of encoding/json.
func (Value) MarshalJSON() ([]byte, error) { return json.Marshal(nil) }

// Encode encodes v with json.Marshall.
func Encode(v any) ([]byte, error) { return json.Marshal(v) }

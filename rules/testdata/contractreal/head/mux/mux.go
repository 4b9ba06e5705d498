// Package mux models a router whose doc comments end with an indented
// code example.
package mux

import "errors"

// ErrEmptyPattern is returned for an empty pattern.
var ErrEmptyPattern = errors.New("mux: empty pattern")

// Handler responds to a request for a path.
type Handler interface{ Serve(path string) }

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(path string)

// Serve calls f(path).
func (f HandlerFunc) Serve(path string) { f(path) }

var routes = map[string]Handler{}

// Handle registers h for pattern, as in
//
//	mux.Handle("/", mux.HandlerFunc(func(path string) {
//		log.Print(path)
//	}))
func Handle(pattern string, h Handler) {
	if h == nil {
		panic("mux: nil handler")
	}
	routes[pattern] = h
}

// HandleFunc registers f for pattern. For example:
//
//	err := mux.HandleFunc("/", func(path string) {
//		log.Print(path)
//	})
func HandleFunc(pattern string, f func(string)) error {
	if pattern == "" {
		return ErrEmptyPattern
	}
	Handle(pattern, HandlerFunc(f))
	return nil
}

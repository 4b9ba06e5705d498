// Package impl is internal.
package impl

// Impl is internal.
func Impl() {}

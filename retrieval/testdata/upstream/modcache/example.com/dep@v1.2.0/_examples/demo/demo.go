// Package demo is an example.
package demo

// Demo is an example.
func Demo() {}

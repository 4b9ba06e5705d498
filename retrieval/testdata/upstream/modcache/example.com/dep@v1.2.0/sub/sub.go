// Package sub is a subpackage of the fixture dependency.
package sub

// Helper returns a greeting.
func Helper() string { return "hi" }

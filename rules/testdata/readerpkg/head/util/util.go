// Package util helps.
package util

// Join joins parts.
func Join(parts ...string) string { return "" }

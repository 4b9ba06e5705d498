//go:build ignore

package dep

// Ignored is in a file no build includes.
func Ignored() {}

// Package broken has a file that does not parse.
package broken

// Fine is declared in a file that parses.
func Fine() int { return 1 }

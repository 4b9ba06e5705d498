// Package sub holds sub-routes.
package sub

// Open opens the sub-routes.
func Open() {}

// Package dep is the fixture dependency at v1.1.0.
package dep

// Old is only in v1.1.0.
func Old() {}

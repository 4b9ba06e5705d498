// Package server is the test server the integration tests query.
package server

// Account is an account the test server returns.
type Account struct {
	ID   string
	Name string
}

// Package mw is an app whose middlewares live in subpackages.
package mw

// Config configures the app.
type Config struct {
	// Name is the app's name.
	Name string
}

// Package app runs an app.
package app

// App is an app.
type App struct{}

// New returns an app.
func New() *App { return &App{} }

// Run runs the app.
func (a *App) Run() error { return nil }

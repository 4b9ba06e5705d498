// Package app runs an app.
package app

// App is an app.
type App struct{}

// New returns an app.
func New() *App { return &App{} }

// Run runs the app.
func (a *App) Run() error { return nil }

// Done returns a channel closed when the app stops:
//
//	<-app.Done()
func (a *App) Done() <-chan struct{} { return nil }

// Stop stops the app:
//
//	app.Halt()
func (a *App) Stop() {}

// PanicError is a recovered panic.
type PanicError struct{}

func (PanicError) Error() string { return "panic" }

type testConn struct{}

func (testConn) Read(b []byte) (int, error) { return 0, nil }

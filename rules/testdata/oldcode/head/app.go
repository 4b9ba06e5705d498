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

// Must returns v and panics when err is not nil.
func Must[T any](v *T, err error) *T {
	if err != nil {
		panic(err)
	}
	return v
}

// Make returns a new T named name.
func Make[T any](name string) (*T, error) { return new(T), nil }

// Load reads a model; raw keeps its raw outputs.
func Load(path string, raw bool) *App { return &App{} }

// Package cli is the part of urfave/cli v2 the flag-help fixture uses.
package cli

import "time"

// Flag is a command-line flag.
type Flag interface{ Names() []string }

// DurationFlag is a flag of type time.Duration.
type DurationFlag struct {
	Name        string
	Aliases     []string
	Usage       string
	EnvVars     []string
	Value       time.Duration
	DefaultText string
}

// Names returns the flag's names.
func (f *DurationFlag) Names() []string { return append([]string{f.Name}, f.Aliases...) }

// IntFlag is a flag of type int.
type IntFlag struct {
	Name    string
	Aliases []string
	Usage   string
	EnvVars []string
	Value   int
}

// Names returns the flag's names.
func (f *IntFlag) Names() []string { return append([]string{f.Name}, f.Aliases...) }

// StringFlag is a flag of type string.
type StringFlag struct {
	Name    string
	Aliases []string
	Usage   string
	EnvVars []string
	Value   string
}

// Names returns the flag's names.
func (f *StringFlag) Names() []string { return append([]string{f.Name}, f.Aliases...) }

// App is a command-line application.
type App struct {
	Name  string
	Flags []Flag
}

// Run runs the app.
func (a *App) Run(args []string) error { return nil }

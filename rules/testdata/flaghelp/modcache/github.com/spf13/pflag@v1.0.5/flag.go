// Package pflag holds the part of pflag v1.0.5's API the flaghelp fixture
// registers its flags with, under the same signatures.
package pflag

// ErrorHandling defines how to handle flag parsing errors.
type ErrorHandling int

// ExitOnError calls os.Exit(2) on a parse error.
const ExitOnError ErrorHandling = 1

// FlagSet is a set of defined flags.
type FlagSet struct{ name string }

// NewFlagSet returns a new, empty flag set.
func NewFlagSet(name string, errorHandling ErrorHandling) *FlagSet { return &FlagSet{name: name} }

// IntVarP is like IntVar, but accepts a shorthand letter.
func (f *FlagSet) IntVarP(p *int, name, shorthand string, value int, usage string) { *p = value }

// StringVar defines a string flag with specified name, default value, and
// usage string.
func (f *FlagSet) StringVar(p *string, name string, value string, usage string) { *p = value }

// Parse parses flag definitions from the argument list.
func (f *FlagSet) Parse(arguments []string) error { return nil }

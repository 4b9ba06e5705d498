// Package cli parses command-line flags.
package cli

// FlagSet is a set of flags.
type FlagSet struct {
	names map[string]bool
}

// BoolP defines a bool flag with a shorthand.
func (f *FlagSet) BoolP(name, shorthand string, value bool, usage string) *bool {
	f.names[name] = true
	return &value
}

// MarkDeprecated marks the flag name deprecated.
func (f *FlagSet) MarkDeprecated(name, message string) error {
	delete(f.names, name)
	return nil
}

// Hide hides the flag name from help text.
func (f *FlagSet) MarkHidden(name string) error {
	f.names[name] = false
	return nil
}

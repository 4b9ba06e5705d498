// Package cfg registers the settings' flags.
package cfg

import "flag"

// Register adds a flag per setting to fs.
func Register(fs *flag.FlagSet) *string {
	return fs.String("build.cmd", "", "the build command")
}

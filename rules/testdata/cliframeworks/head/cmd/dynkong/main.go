// Command dynkong adds commands at run time.
package main

import "github.com/alecthomas/kong"

var cli struct {
	Verbose bool
}

func main() {
	kong.Parse(&cli, kong.DynamicCommand("extra", "added later", "", &struct{}{}))
}

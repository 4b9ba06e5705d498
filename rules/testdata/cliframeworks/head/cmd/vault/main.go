// Command vault keeps secrets, with kong.
package main

import (
	"time"

	"github.com/alecthomas/kong"
)

// Globals are flags every command accepts.
type Globals struct {
	ConfigFile string `help:"configuration file"`
}

// StoreCmd stores a secret.
type StoreCmd struct {
	DryRun bool          `help:"only check"`
	TTL    time.Duration `name:"ttl" help:"lifetime"`
	Key    string        `arg:""`
}

var cli struct {
	Globals
	Debug bool     `short:"d" help:"debug output"`
	Store StoreCmd `cmd:"" help:"store a secret"`
	Fetch struct {
		Key    string `arg:""`
		Output string `name:"out" short:"o"`
	} `cmd:"" aliases:"get" help:"fetch a secret"`
}

func main() {
	ctx := kong.Parse(&cli, kong.Name("vault"), kong.Description("Keeps secrets."))
	_ = ctx.Run()
}

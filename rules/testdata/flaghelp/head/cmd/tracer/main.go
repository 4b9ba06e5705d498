package main

import (
	"os"
	"time"

	"github.com/urfave/cli/v2"
)

func main() {
	app := &cli.App{
		Name: "tracer",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "timeout", Aliases: []string{"t"}, Usage: "how long a trace may run", EnvVars: []string{"TRACER_TIMEOUT"}, Value: 2 * time.Minute},
			&cli.StringFlag{Name: "output", Usage: "where traces go", Value: "traces.json"},
			&cli.IntFlag{Name: "depth", Usage: "how deep to follow calls", Value: 8},
		},
	}
	_ = app.Run(os.Args)
}

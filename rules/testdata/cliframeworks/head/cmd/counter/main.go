// Command counter counts, with urfave/cli v3.
package main

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"
)

func main() {
	cmd := &cli.Command{
		Name: "count",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "step", Aliases: []string{"s"}},
		},
		Commands: []*cli.Command{
			{Name: "up", Action: func(context.Context, *cli.Command) error { return nil }},
			{Name: "down", Action: func(context.Context, *cli.Command) error { return nil }},
		},
	}
	_ = cmd.Run(context.Background(), os.Args)
}

// Command greeter greets, with urfave/cli v2.
package main

import (
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	app := &cli.App{
		Name:    "greeter",
		Version: "v1.0.0",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "lang", Aliases: []string{"l"}, Value: "en"},
		},
		Commands: []*cli.Command{
			{
				Name:    "hello",
				Aliases: []string{"hi"},
				Flags:   []cli.Flag{&cli.BoolFlag{Name: "loud"}},
				Action:  func(*cli.Context) error { return nil },
			},
			byeCmd(),
		},
	}
	_ = app.Run(os.Args)
}

func byeCmd() *cli.Command {
	return &cli.Command{Name: "bye", Action: func(*cli.Context) error { return nil }}
}

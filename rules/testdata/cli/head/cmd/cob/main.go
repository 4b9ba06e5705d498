// Command cob uses a command-line framework.
package main

import (
	"flag"

	"github.com/spf13/cobra"
)

func main() {
	flag.Bool("x", false, "x")
	_ = &cobra.Command{Use: "cob"}
}

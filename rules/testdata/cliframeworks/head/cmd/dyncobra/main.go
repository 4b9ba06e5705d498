// Command dyncobra registers its flags and subcommands in loops.
package main

import "github.com/spf13/cobra"

func main() {
	root := &cobra.Command{Use: "dyncobra"}
	for _, n := range []string{"alpha", "beta"} {
		root.Flags().Bool(n, false, "a computed flag")
	}
	for _, c := range []*cobra.Command{{Use: "one"}, {Use: "two"}} {
		root.AddCommand(c)
	}
	_ = root.Execute()
}

// Package cli holds shipper's cobra commands.
package cli

import (
	"os"

	"github.com/spf13/cobra"
)

const version = "1.2.0"

var rootCmd = &cobra.Command{
	Use:     "shipper",
	Short:   "Ships parcels",
	Version: version,
}

func init() {
	rootCmd.PersistentFlags().StringP("config", "c", "", "config file")
	rootCmd.AddCommand(newSendCmd(), trackCmd)
}

// Execute runs the root command.
func Execute() {
	if err := rootCmd.Execute(); err != nil {
		os.Exit(1)
	}
}

package cli

import "github.com/spf13/cobra"

var trackCmd = &cobra.Command{
	Use: "track ID",
	Run: func(cmd *cobra.Command, args []string) {},
}

func init() {
	trackCmd.Flags().Duration("timeout", 0, "how long to wait")
}

package cli

import "github.com/spf13/cobra"

var dryRun bool

func newSendCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "send <parcel> [flags]",
		Aliases: []string{"ship"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return nil
		},
	}
	flags := cmd.Flags()
	flags.IntP("priority", "p", 1, "delivery priority")
	flags.BoolVar(&dryRun, "dry-run", false, "only print what would be sent")
	return cmd
}

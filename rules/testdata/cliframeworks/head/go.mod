module example.com/tools

go 1.22

require (
	github.com/alecthomas/kong v1.6.0
	github.com/spf13/cobra v1.8.1
	github.com/urfave/cli/v2 v2.27.5
	github.com/urfave/cli/v3 v3.0.0
)

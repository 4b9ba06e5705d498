module example.com/flaghelp

go 1.22

require (
	github.com/spf13/pflag v1.0.5
	github.com/urfave/cli/v2 v2.27.1
)

// Command shipctl ships uploads, with pflag.
package main

import (
	"os"

	"github.com/spf13/pflag"
)

func main() {
	var retries int
	var listen string
	fs := pflag.NewFlagSet("shipctl", pflag.ExitOnError)
	fs.IntVarP(&retries, "retries", "r", 3, "How many times to retry a failed upload")
	fs.StringVar(&listen, "listen", "127.0.0.1:8080", "Address to listen on")
	_ = fs.Parse(os.Args[1:])
}

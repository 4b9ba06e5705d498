// Command plug lets another package register flags on its flag set.
package main

import (
	"flag"
	"fmt"

	"example.com/shop/internal/cfg"
)

func main() {
	verbose := flag.Bool("v", false, "verbose")
	cmd := flag.CommandLine
	build := cfg.Register(cmd)
	flag.Parse()
	fmt.Println(*verbose, *build)
}

// Command dyn registers flags with computed names.
package main

import (
	"flag"
	"fmt"
)

func main() {
	for _, n := range []string{"alpha", "beta"} {
		flag.Bool(n, false, "a computed flag")
	}
	flag.Parse()
	fmt.Println(flag.Args())
}

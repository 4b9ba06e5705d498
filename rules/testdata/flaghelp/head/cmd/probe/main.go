// Command probe checks a server, with a timeout flag of its own.
package main

import "flag"

func main() {
	timeout := flag.Int("timeout", 10, "Seconds before the probe gives up")
	flag.Parse()
	_ = timeout
}

// Command shipper ships parcels; its commands live in internal/cli.
package main

import "example.com/tools/internal/cli"

func main() {
	cli.Execute()
}

// Command demo prints a day, using one func of the library, RoundSpan.
package main

import (
	"fmt"
	"time"

	"example.com/span"
)

func main() {
	fmt.Println(span.TruncSpan(25 * time.Hour))
}

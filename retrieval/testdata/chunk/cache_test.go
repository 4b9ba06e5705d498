package cache_test

import (
	"fmt"
	"testing"

	"example.com/cache"
)

func TestPurge(t *testing.T) {
	c := cache.New()
	c.Purge()
}

// ExampleCache_Purge shows deferred purging.
func ExampleCache_Purge() {
	c := cache.New()
	c.Purge()
	fmt.Println("purged")
	// Output: purged
}

func Example() {
	fmt.Println(cache.MaxSize)
}

// Examples is a helper, not an example: "s" is lower case.
func Examples() {}

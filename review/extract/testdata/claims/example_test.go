package cache_test

import (
	"fmt"

	"example.com/m/cache"
)

// ExampleNew shows the defaults: entries live 30 seconds.
func ExampleNew() {
	c := cache.New(cache.Options{})
	fmt.Println(c != nil)
	// Output: true
}

func ExampleCache_Purge() {
	c := cache.New(cache.Options{})
	c.Purge()
	fmt.Println("empty")
	// Output:
	// empty
}

// TestHelper is not an example.
func helper() {}

package cache_test

import (
	"context"
	"fmt"

	"example.com/cachemod/cache"
)

func ExampleCache_Flush() {
	c := cache.New(cache.Options{})
	fmt.Println(c.Flush(context.Background()))
	// Output: <nil>
}

func ExampleNew() {
	c := cache.New(cache.Options{Size: 10})
	c.Set("a", "b")
	fmt.Println(c.Get("a"))
	// Output: b true
}

func Example() {
	c := cache.New(cache.Options{})
	c.Set("k", "v")
	// Output:
}

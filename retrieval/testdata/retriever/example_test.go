package kv_test

import (
	"fmt"

	"example.com/kv"
)

func ExampleCache_Purge() {
	c := kv.New()
	c.Set("session", "42")
	c.Purge()
	v, ok := c.Get("session")
	fmt.Println(v, ok)
	// Output: 42 true
}

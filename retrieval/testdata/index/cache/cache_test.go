package cache

import (
	"fmt"
	"testing"
)

func TestPurgeMarksExpired(t *testing.T) {
	c := &Cache{entries: map[string]*entry{"a": {value: "1"}}}
	c.Purge()
	if _, ok := c.Get("a"); ok {
		t.Fatal("entry still visible after Purge")
	}
}

func ExampleCache_Purge() {
	c := &Cache{entries: map[string]*entry{}}
	c.Purge()
	fmt.Println(len(c.entries))
	// Output: 0
}

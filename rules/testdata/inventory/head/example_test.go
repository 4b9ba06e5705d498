package inventory_test

import (
	"context"
	"fmt"

	"example.com/inventory"
)

// ExampleStore_Hold shows a hold.
func ExampleStore_Hold() {
	s := inventory.New("shop")
	s.Add("apple", 3)
	if err := s.Hold(context.Background(), "apple", 2); err != nil {
		fmt.Println(err)
	}
	fmt.Println(s.Count("apple"))
	// Output: 1
}

// ExampleStore_Release shows a release after a reservation.
func ExampleStore_Release() {
	s := inventory.New("shop")
	s.Add("apple", 3)
	_ = s.Reserve(context.Background(), "apple", 2)
	fmt.Println(s.Release("apple", 2))
	// Output: <nil>
}

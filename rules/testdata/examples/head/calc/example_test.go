package calc_test

import (
	"fmt"

	"example.com/calc/calc"
)

// The output comment is stale: Add returns 5.
func ExampleAdd() {
	fmt.Println(calc.Add(2, 3))
	// Output: 6
}

func ExampleAdd_zero() {
	fmt.Println(calc.Add(0, 0))
	// Output: 0
}

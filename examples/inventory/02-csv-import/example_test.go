package inventory_test

import (
	"fmt"
	"log"

	"example.com/inventory"
)

func ExampleStore_Reserve() {
	store := inventory.New(inventory.Options{})
	if err := store.Add(inventory.Item{SKU: "TEA-100", Name: "Green tea", Quantity: 20}); err != nil {
		log.Fatal(err)
	}
	res, err := store.Reserve("TEA-100", 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(store.Available("TEA-100"))

	if err := store.Confirm(res.ID); err != nil {
		log.Fatal(err)
	}
	tea, _ := store.Get("TEA-100")
	fmt.Println(tea.Quantity, store.Available("TEA-100"))
	// Output:
	// 17
	// 17 17
}

package inventory

// Item is a product line the store keeps stock of.
type Item struct {
	// SKU identifies the item; it must not be empty.
	SKU string
	// Name is a human-readable name such as "Green tea".
	Name string
	// Quantity is the number of units on hand, including units that are
	// reserved but not yet sold.
	Quantity int
}

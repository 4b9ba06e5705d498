package links

// Store holds items.
type Store struct{}

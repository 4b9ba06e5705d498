package inventory

import "errors"

// Errors returned by [Store] methods, wrapped with the operation and SKU;
// test for them with [errors.Is].
var (
	// ErrNotFound is returned when no item has the requested SKU.
	ErrNotFound = errors.New("inventory: item not found")
	// ErrInvalidQuantity is returned when a quantity that must be positive
	// is zero or negative.
	ErrInvalidQuantity = errors.New("inventory: quantity must be positive")
	// ErrInsufficientStock is returned by [Store.Reserve] when fewer units
	// are available than requested.
	ErrInsufficientStock = errors.New("inventory: insufficient stock")
	// ErrUnknownReservation is returned for a reservation ID that was never
	// issued, was already confirmed or released, or has expired.
	ErrUnknownReservation = errors.New("inventory: unknown reservation")
)

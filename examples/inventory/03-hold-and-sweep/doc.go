// Package inventory keeps an in-memory count of the units on hand for each
// item a shop sells, and lets checkout code set units aside for an order
// while the customer pays.
//
// A [Store] is safe for concurrent use. Items are identified by their SKU.
// A [Reservation] keeps units of one item out of the available stock until
// it is confirmed, released or expires.
package inventory

// Package inventory keeps stock counts of items in memory.
package inventory

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotFound is returned when a SKU has no stock entry.
var ErrNotFound = errors.New("inventory: sku not found")

// MaxSKUs is the max SKUs.
const MaxSKUs = 1000

// Store keeps stock counts by SKU. Its zero value is not usable; call New.
type Store struct {
	name  string
	stock map[string]int
	held  map[string]int
}

// Snapshot represents a snapshot.
type Snapshot struct {
	Stock map[string]int
}

// New returns a new Store.
func New(name string) *Store {
	return &Store{name: name, stock: map[string]int{}, held: map[string]int{}}
}

// Reserve takes n units of sku out of stock until [Store.Release] gives
// them back. It returns [ErrNotFound] when sku has no stock entry.
func (s *Store) Reserve(ctx context.Context, sku string, n int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	have, ok := s.stock[sku]
	if !ok {
		return ErrNotFound
	}
	if have < n {
		return fmt.Errorf("inventory: hold %d of %s: only %d in stock", n, sku, have)
	}
	s.stock[sku] -= n
	s.held[sku] += n
	return nil
}

// Release puts n held units of sku back into stock; it undoes
// [Store.Reserve].
func (s *Store) Release(sku string, n int) error {
	if s.held[sku] < n {
		return fmt.Errorf("inventory: release %d of %s: only %d held", n, sku, s.held[sku])
	}
	s.held[sku] -= n
	s.stock[sku] += n
	return nil
}

// Add adds n units of sku, creating its entry; see `Store.Relase` to give
// held units back and [MaxSKU] for the limit.
func (s *Store) Add(sku string, n int) {
	s.stock[sku] += n
}

// Count returns the count.
func (s *Store) Count(sku string) int {
	return s.stock[sku]
}

// Name returns the name.
func (s *Store) Name() string { return s.name }

// IsEmpty is empty.
func (s *Store) IsEmpty() bool { return len(s.stock) == 0 }

// Close closes the store.
func (s *Store) Close() error {
	s.stock, s.held = nil, nil
	return nil
}

// String returns the string.
func (s *Store) String() string { return fmt.Sprintf("store %s", s.name) }

// Drain removes every unit of stock.
func (s *Store) Drain(ctx context.Context) {
	s.stock = map[string]int{}
}

// Snapshot copies the stock counts; unlike `Store.Drain` it leaves the
// store untouched, and `http.Get`, `yaml.Marshal` and [context.Context]
// are not ours.
func (s *Store) Snapshot() Snapshot {
	out := Snapshot{Stock: map[string]int{}}
	for k, v := range s.stock {
		out.Stock[k] = v
	}
	return out
}

// reset resets the store.
func (s *Store) reset() { s.stock = map[string]int{} }

package inventory

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Reservation is a quantity of one item set aside by [Store.Reserve] for a
// pending order.
type Reservation struct {
	// ID identifies the reservation in calls to [Store.Confirm] and
	// [Store.Release].
	ID int64
	// SKU is the reserved item.
	SKU string
	// Quantity is the number of units reserved.
	Quantity int
	// Expires is when the reservation lapses if it is neither confirmed
	// nor released.
	Expires time.Time
}

// Store is an in-memory inventory. Create one with [New]; a Store is safe
// for concurrent use.
type Store struct {
	mu     sync.Mutex
	items  map[string]Item
	res    map[int64]Reservation
	nextID int64
	ttl    time.Duration
	now    func() time.Time
}

// New returns an empty store configured by opts.
func New(opts Options) *Store {
	ttl := opts.ReservationTTL
	if ttl <= 0 {
		ttl = DefaultReservationTTL
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Store{
		items: make(map[string]Item),
		res:   make(map[int64]Reservation),
		ttl:   ttl,
		now:   now,
	}
}

// Add puts units of an item on hand. If the store already has an item with
// the same SKU, Add increases its quantity and keeps the existing name;
// otherwise it adds the item. Add returns an error if it.SKU is empty and
// an error wrapping [ErrInvalidQuantity] if it.Quantity is not positive.
func (s *Store) Add(it Item) error {
	if it.SKU == "" {
		return errors.New("inventory: add: empty SKU")
	}
	if it.Quantity <= 0 {
		return fmt.Errorf("add %s: %w", it.SKU, ErrInvalidQuantity)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.items[it.SKU]; ok {
		cur.Quantity += it.Quantity
		s.items[it.SKU] = cur
		return nil
	}
	s.items[it.SKU] = it
	return nil
}

// Get returns the item with the given SKU and whether the store has it.
// The item's Quantity includes reserved units; see [Store.Available].
func (s *Store) Get(sku string) (Item, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.items[sku]
	return it, ok
}

// Available returns how many units of the item with the given SKU can
// still be sold: its quantity minus the units of unexpired reservations.
// It returns 0 for an unknown SKU.
func (s *Store) Available(sku string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.available(sku, s.now())
}

// available is Available for callers that hold s.mu.
func (s *Store) available(sku string, now time.Time) int {
	it, ok := s.items[sku]
	if !ok {
		return 0
	}
	n := it.Quantity
	for _, r := range s.res {
		if r.SKU == sku && now.Before(r.Expires) {
			n -= r.Quantity
		}
	}
	return n
}

// Reserve sets aside qty units of the item with the given SKU and returns
// the reservation. The units stop counting as available until the
// reservation is confirmed with [Store.Confirm], released with
// [Store.Release], or expires. Reserve returns an error wrapping
// [ErrInvalidQuantity] if qty is not positive, [ErrNotFound] if the SKU is
// unknown, and [ErrInsufficientStock] if fewer than qty units are
// available.
func (s *Store) Reserve(sku string, qty int) (Reservation, error) {
	if qty <= 0 {
		return Reservation{}, fmt.Errorf("reserve %s: %w", sku, ErrInvalidQuantity)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.items[sku]; !ok {
		return Reservation{}, fmt.Errorf("reserve %s: %w", sku, ErrNotFound)
	}
	now := s.now()
	if avail := s.available(sku, now); avail < qty {
		return Reservation{}, fmt.Errorf("reserve %d of %s, %d available: %w", qty, sku, avail, ErrInsufficientStock)
	}
	s.nextID++
	r := Reservation{ID: s.nextID, SKU: sku, Quantity: qty, Expires: now.Add(s.ttl)}
	s.res[r.ID] = r
	return r, nil
}

// Confirm completes the sale of a reservation: it takes the reserved units
// off the item's quantity and forgets the reservation. Confirm returns an
// error wrapping [ErrUnknownReservation] if id is not a live reservation.
func (s *Store) Confirm(id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.live(id)
	if err != nil {
		return fmt.Errorf("confirm: %w", err)
	}
	it := s.items[r.SKU]
	it.Quantity -= r.Quantity
	s.items[r.SKU] = it
	delete(s.res, id)
	return nil
}

// Release cancels a reservation, making its units available again. It
// returns an error wrapping [ErrUnknownReservation] if id is not a live
// reservation.
func (s *Store) Release(id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.live(id); err != nil {
		return fmt.Errorf("release: %w", err)
	}
	delete(s.res, id)
	return nil
}

// live returns the unexpired reservation with the given ID. The caller
// holds s.mu.
func (s *Store) live(id int64) (Reservation, error) {
	r, ok := s.res[id]
	if !ok || !s.now().Before(r.Expires) {
		return Reservation{}, fmt.Errorf("reservation %d: %w", id, ErrUnknownReservation)
	}
	return r, nil
}

package inventory_test

import (
	"errors"
	"testing"
	"time"

	"example.com/inventory"
)

// clock is a fake time source for Options.Now.
type clock struct{ t time.Time }

func newClock() *clock {
	return &clock{t: time.Date(2024, time.March, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// newStore returns a store on clock c holding 20 TEA-100 and 6 MUG-200.
func newStore(t *testing.T, c *clock) *inventory.Store {
	t.Helper()
	s := inventory.New(inventory.Options{Now: c.now})
	for _, it := range []inventory.Item{
		{SKU: "TEA-100", Name: "Green tea", Quantity: 20},
		{SKU: "MUG-200", Name: "Stoneware mug", Quantity: 6},
	} {
		if err := s.Add(it); err != nil {
			t.Fatalf("Add(%+v): %v", it, err)
		}
	}
	return s
}

func TestAdd(t *testing.T) {
	tests := []struct {
		name    string
		item    inventory.Item
		wantErr error
		want    int
	}{
		{name: "new item", item: inventory.Item{SKU: "CUP-300", Quantity: 4}, want: 4},
		{name: "existing item", item: inventory.Item{SKU: "TEA-100", Quantity: 5}, want: 25},
		{name: "zero quantity", item: inventory.Item{SKU: "TEA-100"}, wantErr: inventory.ErrInvalidQuantity, want: 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t, newClock())
			err := s.Add(tt.item)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Add: got error %v, want %v", err, tt.wantErr)
			}
			it, _ := s.Get(tt.item.SKU)
			if it.Quantity != tt.want {
				t.Errorf("quantity: got %d, want %d", it.Quantity, tt.want)
			}
		})
	}
}

func TestAddEmptySKU(t *testing.T) {
	s := inventory.New(inventory.Options{})
	if err := s.Add(inventory.Item{Quantity: 1}); err == nil {
		t.Fatal("Add with an empty SKU: got nil error")
	}
}

func TestReserve(t *testing.T) {
	tests := []struct {
		name      string
		sku       string
		qty       int
		wantErr   error
		wantAvail int
	}{
		{name: "ok", sku: "TEA-100", qty: 5, wantAvail: 15},
		{name: "all units", sku: "MUG-200", qty: 6, wantAvail: 0},
		{name: "too many", sku: "MUG-200", qty: 7, wantErr: inventory.ErrInsufficientStock, wantAvail: 6},
		{name: "unknown SKU", sku: "NOPE-1", qty: 1, wantErr: inventory.ErrNotFound},
		{name: "zero quantity", sku: "TEA-100", qty: 0, wantErr: inventory.ErrInvalidQuantity, wantAvail: 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t, newClock())
			_, err := s.Reserve(tt.sku, tt.qty)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Reserve: got error %v, want %v", err, tt.wantErr)
			}
			if got := s.Available(tt.sku); got != tt.wantAvail {
				t.Errorf("Available: got %d, want %d", got, tt.wantAvail)
			}
		})
	}
}

func TestConfirmAndRelease(t *testing.T) {
	c := newClock()
	s := newStore(t, c)
	sold, err := s.Reserve("TEA-100", 3)
	if err != nil {
		t.Fatal(err)
	}
	dropped, err := s.Reserve("TEA-100", 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Confirm(sold.ID); err != nil {
		t.Fatalf("Confirm: %v", err)
	}
	if err := s.Release(dropped.ID); err != nil {
		t.Fatalf("Release: %v", err)
	}
	tea, _ := s.Get("TEA-100")
	if tea.Quantity != 17 || s.Available("TEA-100") != 17 {
		t.Errorf("after confirm and release: quantity %d, available %d; want 17, 17", tea.Quantity, s.Available("TEA-100"))
	}
	if err := s.Confirm(sold.ID); !errors.Is(err, inventory.ErrUnknownReservation) {
		t.Errorf("second Confirm: got %v, want ErrUnknownReservation", err)
	}
	if err := s.Release(dropped.ID); !errors.Is(err, inventory.ErrUnknownReservation) {
		t.Errorf("second Release: got %v, want ErrUnknownReservation", err)
	}
}

func TestReservationExpires(t *testing.T) {
	c := newClock()
	s := newStore(t, c)
	r, err := s.Reserve("MUG-200", 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.t.Add(inventory.DefaultReservationTTL); !r.Expires.Equal(want) {
		t.Errorf("Expires: got %v, want %v", r.Expires, want)
	}
	c.advance(inventory.DefaultReservationTTL - time.Second)
	if got := s.Available("MUG-200"); got != 4 {
		t.Errorf("Available before expiry: got %d, want 4", got)
	}
	c.advance(time.Second)
	if got := s.Available("MUG-200"); got != 6 {
		t.Errorf("Available at expiry: got %d, want 6", got)
	}
	if err := s.Confirm(r.ID); !errors.Is(err, inventory.ErrUnknownReservation) {
		t.Errorf("Confirm after expiry: got %v, want ErrUnknownReservation", err)
	}
}

func TestReservationTTLOption(t *testing.T) {
	c := newClock()
	s := inventory.New(inventory.Options{ReservationTTL: time.Minute, Now: c.now})
	if err := s.Add(inventory.Item{SKU: "TEA-100", Quantity: 1}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Reserve("TEA-100", 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.t.Add(time.Minute); !r.Expires.Equal(want) {
		t.Errorf("Expires: got %v, want %v", r.Expires, want)
	}
}

// Package stock holds stock counts.
package stock

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// ErrNotFound is returned for an unknown SKU.
var ErrNotFound = errors.New("stock: not found")

// ErrInvalidQuantity is returned for a quantity below one.
var ErrInvalidQuantity = errors.New("stock: invalid quantity")

// ErrInsufficientStock is returned when too few units are left.
var ErrInsufficientStock = errors.New("stock: insufficient")

// DefaultTTL is how long a hold lasts when none is given.
const DefaultTTL = 5 * time.Minute

// SKUError reports a malformed SKU.
type SKUError struct{ SKU string }

func (e *SKUError) Error() string { return "stock: bad sku " + e.SKU }

// Store keeps stock counts.
type Store struct {
	stock map[string]int
}

// Hold takes qty units of sku out of stock.
func (s *Store) Hold(sku string, qty int) error {
	if qty <= 0 {
		return ErrInvalidQuantity
	}
	have, ok := s.stock[sku]
	if !ok {
		return ErrNotFound
	}
	if have < qty {
		return fmt.Errorf("hold %s: %w", sku, ErrInsufficientStock)
	}
	s.stock[sku] = have - qty
	return nil
}

// Take takes qty units of sku out of stock.
func (s *Store) Take(sku string, qty int) error {
	if _, ok := s.stock[sku]; !ok {
		return fmt.Errorf("take %s: %w", sku, ErrNotFound)
	}
	s.stock[sku] -= qty
	return nil
}

// Check checks that sku is well formed.
func Check(sku string) error {
	if sku == "" {
		return &SKUError{SKU: sku}
	}
	return nil
}

// Must returns the count of sku.
func (s *Store) Must(sku string) int {
	n, ok := s.stock[sku]
	if !ok {
		panic("stock: unknown sku " + sku)
	}
	go func() { panic("not this one") }()
	return n
}

// Expiry returns when a hold made now ends.
func Expiry(now time.Time, ttl time.Duration) time.Time {
	if ttl == 0 {
		ttl = DefaultTTL
	}
	return now.Add(ttl)
}

// Count returns the count of sku, or ErrNotFound when it has none.
func (s *Store) Count(sku string) (int, error) {
	if sku == "" {
		return 0, ErrInvalidQuantity
	}
	n, ok := s.stock[sku]
	if !ok {
		return 0, ErrNotFound
	}
	return n, nil
}

// Read reads the stock from r.
func Read(r io.Reader) error {
	_, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return nil
}

// Next returns the next SKU.
func Next(r io.Reader) error {
	return io.EOF
}

// WriteAll writes the stock to w.
func WriteAll(w io.Writer, b []byte) error {
	n, err := w.Write(b)
	if err != nil {
		return err
	}
	if n < len(b) {
		return io.ErrShortWrite
	}
	return nil
}

// ReadHeader reads a header from r.
//
// io.EOF is returned if r is empty.
func ReadHeader(r io.Reader, b []byte) error {
	n, err := r.Read(b)
	if n == 0 {
		return io.EOF
	}
	if err != nil {
		return ErrNotFound
	}
	return nil
}

// WriteStock writes the stock to w.
func WriteStock(w io.Writer, b []byte) error { return WriteAll(w, b) }

// Wait waits for the hold to end; a zero ttl waits the default time.
func Wait(ttl time.Duration) {
	if ttl == 0 {
		ttl = DefaultTTL
	}
	time.Sleep(ttl)
}

// Drop removes sku.
//
// Deprecated: use Take.
func (s *Store) Drop(sku string) error {
	return ErrNotFound
}

// hold is unexported.
func hold(sku string) error {
	return ErrNotFound
}

// Sizer reports a size.
type Sizer interface {
	// Size returns the size, or ErrNotFound when there is none.
	Size() (int, error)
}

// Size returns the size.
func (s *Store) Size() (int, error) {
	if s.stock == nil {
		return 0, ErrNotFound
	}
	return len(s.stock), nil
}

// NewSKUError makes the error for a bad SKU.
func NewSKUError(sku string) *SKUError {
	return &SKUError{SKU: sku}
}

// Mode names a stocking mode.
func Mode(m int) string {
	switch m {
	case 0:
		return "fifo"
	case 1:
		return "lifo"
	default:
		panic(m)
	}
}

// Kind names a kind.
func Kind(k int) string {
	if k > 1 {
		panic("unreachable")
	}
	return "k"
}

// Flush implements Flusher.Flush.
func (s *Store) Flush() error {
	return ErrNotFound
}

// Safe runs f.
func Safe(f func()) (err error) {
	defer func() {
		if recover() != nil {
			err = ErrInvalidQuantity
		}
	}()
	if f == nil {
		panic("stock: nil func")
	}
	f()
	return nil
}

// Match fills in m.
func (s *Store) Match(m *Match) {
	if m.Store == nil {
		m.Store = s
	}
}

// Match is a match.
type Match struct{ Store *Store }

// Validate checks sku and returns a syntax error when it is empty.
func Validate(sku string) error {
	if sku == "" {
		return &SyntaxError{}
	}
	return nil
}

// SyntaxError is a syntax error.
type SyntaxError struct{}

func (*SyntaxError) Error() string { return "syntax" }

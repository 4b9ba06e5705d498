package inventory

import (
	"context"
	"testing"
)

// Stores lists the stores a test fills.
type Stores []*Store

// TestHold holds units of a store; tables of [Stores] come later.
func TestHold(t *testing.T) {
	s := New("test")
	s.Add("apple", 3)
	if err := s.Hold(context.Background(), "apple", 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Count("apple"); got != 1 {
		t.Fatalf("Count = %d, want 1", got)
	}
}

func TestLimit(t *testing.T) {
	// MaxSKUs bounds the stock table; a store takes that many SKUs.
	s := New("limit")
	for i := range 1000 {
		s.Add(string(rune('a'+i%26))+string(rune('a'+i/26)), 1)
	}
}

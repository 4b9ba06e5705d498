package shop

import "testing"

func TestHoldTooMany(t *testing.T) {
	s := NewStore()
	s.Add("apple", 100)
	if err := s.Hold("apple", 51); err != ErrNoStock {
		t.Fatalf("Hold(51) = %v, want ErrNoStock", err)
	}
}

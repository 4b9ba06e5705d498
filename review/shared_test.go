package review

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestWorkspaceShared(t *testing.T) {
	type key struct{ path string }
	ws := &Workspace{shared: &sharedStore{}}
	var calls atomic.Int32
	compute := func() (any, error) {
		calls.Add(1)
		return []int{1, 2}, nil
	}
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Go(func() { got[i], _ = ws.Shared(key{"a.go"}, compute) })
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("8 concurrent callers computed %d times, want 1", n)
	}
	for _, v := range got {
		if s, ok := v.([]int); !ok || len(s) != 2 {
			t.Fatalf("value %v", v)
		}
	}
	if _, _ = ws.Shared(key{"b.go"}, compute); calls.Load() != 2 {
		t.Errorf("another key was not computed")
	}
	copied := *ws
	if _, _ = copied.Shared(key{"a.go"}, compute); calls.Load() != 2 {
		t.Errorf("a copy of the workspace computed again")
	}

	boom := errors.New("boom")
	fails := 0
	for range 2 {
		if _, err := ws.Shared(key{"bad.go"}, func() (any, error) { fails++; return nil, boom }); !errors.Is(err, boom) {
			t.Errorf("err = %v, want boom", err)
		}
	}
	if fails != 1 {
		t.Errorf("a failed computation ran %d times, want 1 (errors are kept)", fails)
	}

	byHand := &Workspace{}
	for range 2 {
		_, _ = byHand.Shared(key{"a.go"}, compute)
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("a workspace built by hand computed %d times in all, want 4 (no store)", n)
	}
}

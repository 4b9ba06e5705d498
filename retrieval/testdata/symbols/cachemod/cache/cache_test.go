package cache

import (
	"context"
	"testing"
)

func TestFlush(t *testing.T) {
	c := New(Options{})
	if err := c.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestGet(t *testing.T) {
	c := New(Options{Size: MaxSize})
	if _, ok := c.Get("k"); ok {
		t.Fatal("unexpected hit")
	}
}

func BenchmarkSet(b *testing.B) {
	c := New(Options{})
	for i := 0; i < b.N; i++ {
		c.Set("k", "v")
	}
}

func TestList(t *testing.T) {
	var l List[int]
	l.Push(1)
	if got := Map(l.items, func(i int) int { return i * 2 }); got[0] != 2 {
		t.Fatal(got)
	}
}

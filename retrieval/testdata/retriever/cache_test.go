package kv

import "testing"

func TestSet(t *testing.T) {
	c := New()
	c.Set("a", "1")
	if v, ok := c.Get("a"); !ok || v != "1" {
		t.Fatalf("Get(a) = %q, %v; want 1, true", v, ok)
	}
}

func TestPurge(t *testing.T) {
	c := New()
	c.Set("a", "1")
	c.Purge()
	if _, ok := c.Get("a"); !ok {
		t.Fatal("entry gone before the sweeper ran")
	}
	c.sw.run()
	if _, ok := c.Get("a"); ok {
		t.Fatal("entry still there after the sweeper ran")
	}
}

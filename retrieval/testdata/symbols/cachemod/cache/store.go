package cache

import "context"

// Store keeps the entries of a cache.
type Store interface {
	// Get returns the value of key.
	Get(key string) (string, bool)
	// Put stores a value.
	Put(key, value string) error
	// Delete removes the entries matching pattern.
	Delete(ctx context.Context, pattern string) error
}

type memStore struct{ m map[string]string }

func newMemStore() *memStore { return &memStore{m: make(map[string]string)} }

func (s *memStore) Get(key string) (string, bool) { v, ok := s.m[key]; return v, ok }

func (s *memStore) Put(key, value string) error { s.m[key] = value; return nil }

func (s *memStore) Delete(ctx context.Context, pattern string) error {
	clear(s.m)
	return nil
}

// diskStore keeps entries in files.
type diskStore struct{ dir string }

func (d diskStore) Get(key string) (string, bool) { return "", false }

func (d diskStore) Put(key, value string) error { return nil }

func (d diskStore) Delete(ctx context.Context, pattern string) error { return d.removeFiles(pattern) }

func (d diskStore) removeFiles(pattern string) error { return nil }

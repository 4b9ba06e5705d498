// Package gen generates caches.
package gen

import "example.com/cachemod/cache"

// Generate returns a new cache of the given size.
func Generate(size int) *cache.Cache {
	return cache.New(cache.Options{Size: size})
}

// Package cache is an in-memory cache whose entries are removed lazily.
package cache

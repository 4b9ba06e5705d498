//go:build !unix

package app

import "context"

// lockFile is a no-op where flock(2) does not exist: the in-process lock
// is the only one, so processes must not share a mirror directory there.
func lockFile(ctx context.Context, path string) (func(), error) {
	return func() {}, ctx.Err()
}

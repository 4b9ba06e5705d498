//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package retrieval

import "context"

// indexLock does nothing on systems without flock(2): there, concurrent
// writers to one index directory must be kept apart by the caller.
func indexLock(ctx context.Context, path string, exclusive bool) (func(), error) {
	return func() {}, ctx.Err()
}

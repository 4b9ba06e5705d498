package webhook

import (
	"context"
	"runtime/debug"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// smallBody is the largest delivery drawn from the small share of the
// pre-authentication budget; smallShare is that share. GitHub's ordinary
// deliveries are a few KiB to a few hundred.
const (
	smallBody  = 1 << 20
	smallShare = 8 << 20
)

// freeAfter is how many bytes must have been held before authentication
// for the memory to be handed back to the system once none is; freeEvery
// spaces those hand-backs.
const (
	freeAfter = 16 << 20
	freeEvery = 5 * time.Second
	freeDelay = time.Second
)

// preAuthBudget bounds the body bytes held before their signature is
// checked. Deliveries of up to smallBody bytes draw from a share of their
// own, so that a flood of large unsigned bodies never delays GitHub's
// ordinary deliveries; larger ones, and bodies without a Content-Length,
// draw from the large share. A body with a Content-Length takes its whole
// size at once: bodies holding part of the budget while waiting for the
// rest would starve one another. Once a burst of large bodies is over and
// nothing is held, the memory is returned to the operating system, so
// that a burst does not leave the process at its peak.
type preAuthBudget struct {
	small, large *semaphore.Weighted

	mu       sync.Mutex
	inUse    int64
	high     int64 // most held since the last hand-back
	lastFree time.Time
	freeing  bool
}

func newPreAuthBudget(large int64) *preAuthBudget {
	return &preAuthBudget{small: semaphore.NewWeighted(smallShare), large: semaphore.NewWeighted(large)}
}

// share is the semaphore a body of n bytes (-1: unknown) draws from.
func (b *preAuthBudget) share(sized bool, n int64) *semaphore.Weighted {
	if sized && n <= smallBody {
		return b.small
	}
	return b.large
}

// acquire takes n bytes from sem, waiting until ctx ends.
func (b *preAuthBudget) acquire(ctx context.Context, sem *semaphore.Weighted, n int64) error {
	if err := sem.Acquire(ctx, n); err != nil {
		return err
	}
	b.mu.Lock()
	b.inUse += n
	b.high = max(b.high, b.inUse)
	b.mu.Unlock()
	return nil
}

// release gives n bytes back to sem.
func (b *preAuthBudget) release(sem *semaphore.Weighted, n int64) {
	sem.Release(n)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inUse -= n
	if b.inUse > 0 || b.high < freeAfter || b.freeing || time.Since(b.lastFree) < freeEvery {
		return
	}
	b.freeing, b.high = true, 0
	// A moment later, when the handlers that released have returned and
	// their buffers are garbage, unless bodies are held again by then.
	time.AfterFunc(freeDelay, func() {
		b.mu.Lock()
		idle := b.inUse == 0
		b.mu.Unlock()
		if idle {
			// Twice: the first collection moves the reused chunks
			// (a sync.Pool) to its victim cache, the second frees them.
			debug.FreeOSMemory()
			debug.FreeOSMemory()
		}
		b.mu.Lock()
		b.freeing, b.lastFree = false, time.Now()
		b.mu.Unlock()
	})
}

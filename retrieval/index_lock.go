//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package retrieval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// indexLockPoll is the longest wait between two attempts to take a lock.
const indexLockPoll = 100 * time.Millisecond

// indexLock takes a lock on the file at path (created if missing): an
// exclusive lock for a writer, a shared one for a reader. It waits until
// the lock is free or ctx ends, and returns the function that releases
// it. The lock is flock(2)'s: held per open file, so two holders in one
// process exclude each other like two processes do, and released by the
// kernel if the process dies. A reader that can neither create nor open
// the lock file (an index on read-only storage, which no writer can
// change) goes without the lock.
func indexLock(ctx context.Context, path string, exclusive bool) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil && !exclusive && indexReadOnlyErr(err) {
		if f, err = os.Open(path); err != nil && indexReadOnlyErr(err) {
			return func() {}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	wait := time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, indexLockPoll)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}

// indexReadOnlyErr reports whether err says a file cannot be created or
// written where it is.
func indexReadOnlyErr(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.EROFS)
}

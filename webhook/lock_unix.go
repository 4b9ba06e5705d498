//go:build unix

package webhook

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDataDir takes an exclusive flock(2) on path without waiting and
// returns the function that releases it; another process holding it is an
// error. The kernel drops the lock with the process that held it, so a
// crashed server's lock is free again.
func lockDataDir(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errDataDirInUse
		}
		return nil, fmt.Errorf("flock %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

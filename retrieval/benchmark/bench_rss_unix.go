//go:build unix

package benchmark

import (
	"runtime"
	"syscall"
)

// peakRSS returns the process's peak resident set size in bytes, from
// getrusage(2); 0 if it cannot be read.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // kilobytes elsewhere
}

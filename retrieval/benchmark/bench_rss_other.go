//go:build !unix

package benchmark

// peakRSS returns 0: the peak resident set size is not measured on this
// system.
func peakRSS() int64 { return 0 }

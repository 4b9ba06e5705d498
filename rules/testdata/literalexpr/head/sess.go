// Package kcp sends packets.
package kcp

const (
	maxBatchSize  = 64
	maxPacketSize = 1472
	headerLen     = 12
)

// Burst is the bucket's burst, `maxBatchSize * maxPacketSize` bytes
// (currently 64 × 1472 = 94,208 bytes).
func Burst() int { return maxBatchSize * maxPacketSize }

// Frame is a frame of `headerLen + 2` bytes, which is 14.
type Frame struct{}

// Scratch holds `headerLen * 2` bytes (for example 30 of them).
type Scratch struct{}

// Window is sized `n * maxPacketSize` (currently 3 × 1472 = 4,416).
func Window(n int) int { return n * maxPacketSize }

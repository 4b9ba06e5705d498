//go:build !race

package retrieval

// raceEnabled is true when the tests run with the race detector.
const raceEnabled = false

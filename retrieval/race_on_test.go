//go:build race

package retrieval

// raceEnabled is true when the tests run with the race detector, which
// slows bleve's background merges by an order of magnitude.
const raceEnabled = true

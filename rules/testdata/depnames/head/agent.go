// Package agent runs the agent.
package agent

import "example.com/logutils"

// LevelFilter returns a LevelFilter that is configured with the log
// levels that we use.
func LevelRun() *logutils.LevelFilter {
	return &logutils.LevelFilter{MinLevel: "INFO"}
}

// newServer makes a server that copies dst and srcErr.
func newServer(srcOut, srcErr string) string {
	return srcOut + srcErr
}

// calcScore returns the overlap of cells at levels at most 16
// (maxCellLevel in the logutils repo).
func calcScore(queryLevel, indexLevel int) int {
	return queryLevel - indexLevel
}

// Package logutils filters logs by level.
package logutils

// LevelFilter drops messages below a level.
type LevelFilter struct{ MinLevel string }

var dst = "logutils"

var maxCellLevel = 16

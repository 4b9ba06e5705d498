// Package diff parses git's unified diff output into the files and line
// ranges a pull request changes.
package diff

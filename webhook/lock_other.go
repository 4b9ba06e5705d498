//go:build !unix

package webhook

// lockDataDir cannot lock files on this system: it reports that, and the
// queue then neither claims the data directory nor recovers orphaned jobs
// at start (River's rescuer still does, after RescueAfter).
func lockDataDir(string) (func(), error) { return nil, errNoLock }

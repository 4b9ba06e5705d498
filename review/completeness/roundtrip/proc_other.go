//go:build !unix

package roundtrip

import "os/exec"

// setProcessGroup does nothing here: cancellation kills the go command
// alone, and the test binary stops at its own -timeout.
func setProcessGroup(*exec.Cmd) {}

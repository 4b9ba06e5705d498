//go:build !unix

package githubtest

import "os/exec"

// setProcessGroup does nothing where process groups are not available.
func setProcessGroup(*exec.Cmd) {}

// signalGroup kills cmd's process only; both signals are a kill here.
func signalGroup(cmd *exec.Cmd, _ bool) {
	_ = cmd.Process.Kill()
}

//go:build unix

package githubtest

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd the leader of a new process group, so that
// signalGroup reaches any child it starts.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM (or SIGKILL when kill is true) to cmd's process
// group. Errors (the group is already gone) are ignored.
func signalGroup(cmd *exec.Cmd, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

//go:build unix

package roundtrip

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in its own process group and makes its
// cancellation kill the whole group: the test binary as well as the go
// command.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Package proc starts the child processes of cegpv (SMT solvers, external
// model checkers, bench tasks) the one way they must be started: each in
// its own process group, the whole group killed when the context ends, and
// killed by the kernel if cegpv itself dies without cancelling (SIGKILL, a
// crash), so that no child outlives it.
package proc

import (
	"context"
	"os/exec"
	"syscall"
	"time"
)

// WaitDelay is how long Wait waits for the child's output pipes after the
// group was killed.
const WaitDelay = 2 * time.Second

// Command is exec.CommandContext with the process-group policy above.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the whole group
	}
	cmd.WaitDelay = WaitDelay
	return cmd
}

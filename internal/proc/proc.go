// Package proc starts the child processes of cegpv (SMT solvers, external
// model checkers, bench tasks) the one way they must be started: each in
// its own process group, the whole group killed when the context ends (a
// cegpv child asked to stop first: TermFirst), and
// killed by the kernel if cegpv itself dies without cancelling (SIGKILL, a
// crash), so that no child outlives it; Start and Run meter its CPU time on
// the context's clock (package budget).
package proc

import (
	"context"
	"os/exec"
	"syscall"
	"time"

	"cegpv.dev/cegpv/internal/budget"
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

// TermFirst makes the end of cmd's context send SIGTERM to its group
// rather than SIGKILL, and SIGKILL only after grace: for a child that is
// cegpv itself (a bench task), which stops its own checkers and removes its
// temporary files on SIGTERM as on any interrupt, and cannot when killed.
func TermFirst(cmd *exec.Cmd, grace time.Duration) {
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = grace // then exec kills the process itself
}

// Start is cmd.Start with the child's CPU time metered on ctx's clock
// (budget.Process); wait replaces cmd.Wait.
func Start(ctx context.Context, cmd *exec.Cmd) (wait func() error, err error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	end := budget.Process(ctx, cmd.Process.Pid)
	return func() error {
		err := cmd.Wait()
		end(cmd.ProcessState)
		return err
	}, nil
}

// Run is cmd.Run, metered as Start.
func Run(ctx context.Context, cmd *exec.Cmd) error {
	wait, err := Start(ctx, cmd)
	if err != nil {
		return err
	}
	return wait()
}

package external

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/program"
)

// MaxOutput is the number of bytes kept of each output stream.
const MaxOutput = 64 << 20

// Output is what a checker process produced.
type Output struct {
	Stdout, Stderr []byte
	ExitCode       int // -1 when killed by a signal
	Signal         string
	Truncated      bool // an output stream exceeded MaxOutput; its beginning was dropped
	Elapsed        time.Duration
}

// Exec runs path with args in dir, in its own process group, until it
// exits, ctx is done or timeout (0: none) passes. Cancellation and the
// time limit kill the whole group and give an error of kind Timeout
// naming the tool; a failure to start is Internal. An exit by a signal
// is returned in Output (the caller decides; see Crashed).
func Exec(ctx context.Context, tool, path string, args []string, dir string, timeout time.Duration) (*Output, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := proc.Command(ctx, path, args...) // the checker and anything it starts: one group
	cmd.Dir = dir
	var so, se capped
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	err := proc.Run(ctx, cmd)
	out := &Output{Stdout: so.bytes(), Stderr: se.bytes(), Elapsed: time.Since(start), ExitCode: -1}
	out.Truncated = so.over || se.over
	if cmd.ProcessState != nil {
		out.ExitCode = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			out.Signal = ws.Signal().String()
		}
	}
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return out, program.Errorf(program.Timeout, "%s: time limit reached after %s", tool, out.Elapsed.Round(time.Millisecond))
		}
		return out, program.Errorf(program.Timeout, "%s: cancelled: %v", tool, cerr)
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return out, program.Errorf(program.Internal, "%s: cannot run %s: %v", tool, path, err)
		}
	}
	return out, nil
}

// Crashed returns an error of kind Crash naming the tool and the end of its
// output when the process was killed by a signal, or nil.
func (o *Output) Crashed(tool string) error {
	if o.Signal == "" {
		return nil
	}
	return program.Errorf(program.Crash, "%s killed by signal %s: %s", tool, o.Signal, o.Tail())
}

// Tail returns the last lines of the output (stderr, else stdout), for
// error messages.
func (o *Output) Tail() string {
	s := strings.TrimSpace(string(o.Stderr))
	if s == "" {
		s = strings.TrimSpace(string(o.Stdout))
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 4 {
		lines = lines[len(lines)-4:]
	}
	t := strings.Join(lines, " | ")
	if len(t) > 600 {
		t = t[len(t)-600:]
	}
	if t == "" {
		return "(no output)"
	}
	return t
}

// Verdict returns the checker's verdict line (the last one beginning with
// VERIFICATION, as CBMC and ESBMC print it), else the end of its output.
func (o *Output) Verdict() string {
	for _, b := range [][]byte{o.Stderr, o.Stdout} {
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		for i := len(lines) - 1; i >= 0; i-- {
			if strings.HasPrefix(lines[i], "VERIFICATION ") {
				return lines[i]
			}
		}
	}
	return o.Tail()
}

// Unexpected returns an error of kind Crash for an exit code the adapter
// does not know.
func (o *Output) Unexpected(tool string) error {
	if err := o.Crashed(tool); err != nil {
		return err
	}
	return program.Errorf(program.Crash, "%s exited with unexpected code %d: %s", tool, o.ExitCode, o.Tail())
}

// capped is a writer that keeps the last MaxOutput bytes (traces and
// verdicts are at the end of a checker's output).
type capped struct {
	b    bytes.Buffer
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.b.Write(p)
	if c.b.Len() > 2*MaxOutput {
		c.over = true
		keep := append([]byte(nil), c.b.Bytes()[c.b.Len()-MaxOutput:]...)
		c.b.Reset()
		c.b.Write(keep)
	}
	return len(p), nil
}

func (c *capped) bytes() []byte {
	b := c.b.Bytes()
	if len(b) > MaxOutput {
		c.over = true
		b = b[len(b)-MaxOutput:]
	}
	return b
}

// Lookup returns the binary to run: path when given, else tool on PATH,
// else tool beside the running executable (make deps links bin/esbmc
// beside bin/cegpv). A missing binary is an Internal error saying how to
// name it.
func Lookup(tool, path string) (string, error) {
	if path != "" {
		found, err := exec.LookPath(path)
		if err != nil {
			return "", program.Errorf(program.Internal, "%s: binary %s not found: %v", tool, path, err)
		}
		// absolute: the checker runs in its own temporary directory, where
		// a relative name (--esbmc bin/esbmc) means nothing
		return filepath.Abs(found)
	}
	if found, err := exec.LookPath(tool); err == nil {
		return found, nil
	}
	if self, err := os.Executable(); err == nil {
		cand := filepath.Join(filepath.Dir(self), tool)
		if st, err := os.Stat(cand); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return cand, nil
		}
	}
	return "", program.Errorf(program.Internal, "%s: binary not found on PATH nor beside cegpv; install it (make deps) or name it with --%s PATH", tool, tool)
}

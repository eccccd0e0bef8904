package esbmc

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/external"
	"cegpv.dev/cegpv/program"
)

// Options configure the backend.
type Options struct {
	Path   string   // the esbmc binary; "" = "esbmc" on PATH
	Extra  []string // more flags, before the file
	TmpDir string   // where temporary directories go ("" = the system's)
	Logger hclog.Logger
}

// Backend runs ESBMC.
type Backend struct{ opts Options }

// New returns the backend.
func New(opts Options) *Backend {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	return &Backend{opts: opts}
}

// Name implements backend.Backend.
func (b *Backend) Name() string { return "esbmc" }

// Args returns the ESBMC command-line flags for the bounds and the data
// model, before the file name.
func Args(m program.DataModel, bd backend.Bounds) []string {
	args := []string{"--64"}
	if m != program.LP64 {
		args[0] = "--32"
	}
	args = append(args, "--unwind", strconv.Itoa(max(bd.Unwind, 1)))
	if !bd.UnwindingAssertions {
		args = append(args, "--no-unwinding-assertions")
	}
	if bd.Contexts > 0 {
		args = append(args, "--context-bound", strconv.Itoa(bd.Contexts))
	}
	if bd.MemoryMB > 0 {
		args = append(args, "--memlimit", strconv.Itoa(bd.MemoryMB)+"m")
	}
	// cegpv's Alloc never fails (program model), so neither does malloc here
	return append(args, "--force-malloc-success", "--compact-trace")
}

// Check implements backend.Backend.
func (b *Backend) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	start := time.Now()
	res := backend.Result{Verdict: backend.Unknown, Bounds: bd}
	res.Bounds.Threads = 0 // ESBMC bounds threads spawned in a loop by the unwinding
	res.Bounds.DeepenFrom = 0
	path, err := external.Lookup("esbmc", b.opts.Path)
	if err != nil {
		return res, err
	}
	pr, err := external.Print(p, b.opts.TmpDir, "prog.c", external.PrintOptions{InlineAtomic: true})
	if err != nil {
		return res, err
	}
	defer pr.Remove()
	args := append(Args(p.Model, bd), b.opts.Extra...)
	args = append(args, "prog.c")
	b.opts.Logger.Debug("running esbmc", "args", strings.Join(args, " "))
	out, err := external.Exec(ctx, "esbmc", path, args, pr.Dir, bd.Timeout)
	res.Stats.Total = time.Since(start)
	if out != nil {
		res.Log = string(out.Stdout) + string(out.Stderr)
		res.Stats.SolverTime = out.Elapsed
	}
	if err != nil {
		return res, err
	}
	return interpret(p, pr, out, bd, res)
}

// interpret turns ESBMC's output into a result.
func interpret(p *program.Program, pr *external.Printed, out *external.Output, bd backend.Bounds, res backend.Result) (backend.Result, error) {
	if err := out.Crashed("esbmc"); err != nil {
		return res, err
	}
	rep := Parse(string(out.Stderr) + "\n" + string(out.Stdout))
	switch {
	case out.ExitCode == 0 && rep.Verdict == "SUCCESSFUL":
		if where := pointerAccess(p); where != "" {
			res.Reason = "esbmc answers VERIFICATION SUCCESSFUL, but ESBMC 8.4 misses interleavings at accesses through pointers and the program has " + where
			return res, nil
		}
		res.Verdict = backend.Safe
		res.Proof = bd.UnwindingAssertions
		res.Complete = res.Proof
		return res, nil
	case out.ExitCode == 1 && rep.Verdict == "FAILED":
	case out.ExitCode == 6 || strings.Contains(string(out.Stderr), "PARSING ERROR"):
		return res, program.Errorf(program.Crash, "esbmc cannot parse the printed program (exit %d): %s", out.ExitCode, out.Tail())
	default:
		return res, out.Unexpected("esbmc")
	}
	if out.Truncated {
		return res, program.Errorf(program.BadOutput, "esbmc: output over %d MiB, counterexample not read", external.MaxOutput>>20)
	}
	tr := rep.Trace
	if tr == nil || tr.Violation == nil {
		return res, program.Errorf(program.BadOutput, "esbmc: VERIFICATION FAILED without a counterexample: %s", out.Tail())
	}
	if strings.HasPrefix(tr.Comment, "unwinding assertion") {
		res.Reason = fmt.Sprintf("esbmc: %s fails: unwind %d does not cover every run", tr.Comment, bd.Unwind)
		return res, nil
	}
	if !strings.HasPrefix(tr.Comment, "assertion") {
		res.Reason = fmt.Sprintf("esbmc reports %q at line %d (a check besides the program's assertions)", tr.Comment, tr.Violation.Line)
		return res, nil
	}
	run, err := external.MapTrace("esbmc", p, pr, tr)
	if err != nil {
		return res, err
	}
	res.Verdict = backend.Unsafe
	res.Run = run
	return res, nil
}

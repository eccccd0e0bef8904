package esbmc

import (
	"context"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/external"
	"cegpv.dev/cegpv/program"
)

// Options configure the backend (Path: the esbmc binary, "" = esbmc on PATH).
type Options = external.Options

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

// Capabilities: a process per check, whose traces may not be followable.
func (b *Backend) Capabilities() backend.Capabilities {
	return backend.Capabilities{External: true, Unfollowable: true}
}

// Args returns the ESBMC command-line flags for the bounds and the data
// model, before the file name.
func Args(m program.DataModel, bd backend.Bounds) []string {
	args := []string{"--64"}
	if m != program.LP64 {
		args[0] = "--32"
	}
	args = append(args, "--unwind", strconv.Itoa(max(bd.MaxUnwind(), 1)))
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
	bd.DeepenFrom = 0
	bd.Threads = 0 // ESBMC bounds the threads a spawn in a loop creates by the unwinding
	bd = backend.Uniform(bd)
	job := external.Job{Tool: "esbmc", Path: b.opts.Path, Args: append(Args(p.Model, bd), b.opts.Extra...),
		Print: external.PrintOptions{InlineAtomic: true}, TmpDir: b.opts.TmpDir, Logger: b.opts.Logger,
		Interpret: func(pr *external.Printed, out *external.Output, res backend.Result) (backend.Result, error) {
			return interpret(p, pr, out, bd, res)
		}}
	return job.Check(ctx, p, bd)
}

// interpret turns ESBMC's output into a result.
func interpret(p *program.Program, pr *external.Printed, out *external.Output, bd backend.Bounds, res backend.Result) (backend.Result, error) {
	rep := Parse(string(out.Stderr) + "\n" + string(out.Stdout))
	res.Stats.Checker = rep.Summary
	switch {
	case out.ExitCode == 0 && rep.Verdict == "SUCCESSFUL":
		if where := pointerAccess(p); where != "" {
			res.Reason = "esbmc answers VERIFICATION SUCCESSFUL, but ESBMC 8.4 misses interleavings at accesses through pointers and the program has " + where
			return res, nil
		}
		if where := reallocAt(p); where != "" {
			res.Reason = "esbmc answers VERIFICATION SUCCESSFUL, but ESBMC 8.4's realloc does not always keep the old block's contents and the program has " + where
			return res, nil
		}
		return external.Safe(bd, res), nil
	case out.ExitCode == 1 && rep.Verdict == "FAILED":
	case out.ExitCode == 6 || strings.Contains(string(out.Stderr), "PARSING ERROR"):
		return res, program.Errorf(program.Crash, "esbmc cannot parse the printed program (exit %d): %s", out.ExitCode, out.Tail())
	case out.Signal == "" && strings.Contains(string(out.Stderr)+string(out.Stdout), "ERROR: Out of memory"):
		// its solver's allocation failed (exit 2, "ERROR: SMT solver failed")
		return res, program.Errorf(program.Memout, "esbmc ran out of memory (exit %d): %s", out.ExitCode, out.Tail())
	default:
		return res, out.Unexpected("esbmc")
	}
	if out.Truncated {
		return res, program.Errorf(program.BadOutput, "esbmc: output over %d MiB, counterexample not read", external.MaxOutput>>20)
	}
	return external.Violation("esbmc", p, pr, rep.Trace, bd, res)
}

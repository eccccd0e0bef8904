package esbmc

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/external"
	"cegpv.dev/cegpv/program"
)

// Options configure the backend: external.Options's fields and ESBMC's
// SMT solver.
type Options struct {
	Path   string   // the esbmc binary; "" = esbmc on PATH
	Extra  []string // more flags, before the file
	TmpDir string   // where temporary directories go ("" = the system's)
	Logger hclog.Logger
	// Solver is the solver ESBMC runs, its flag without the dashes
	// (boolector, bitwuzla, z3, cvc5, ...); "" is DefaultSolver.
	Solver string
}

// DefaultSolver is the solver cegpv asks ESBMC for. Not ESBMC 8.4's own
// default, Bitwuzla: with Bitwuzla, ESBMC builds the error trace of a large
// program in seconds (6 s of 12 on the 3-round sequentialisation of
// pthread-wmm's mix018, --cex-only too), with Boolector in 0.03 s, and
// Boolector decides sequentialisations Bitwuzla does not within 60 s
// (docs/bench/s23-esbmc-solver).
const DefaultSolver = "boolector"

// ValidSolver reports whether name may be Options.Solver: a word, which
// ESBMC takes as the flag --word (ESBMC itself says which solvers it was
// built with).
func ValidSolver(name string) error {
	if !solverName.MatchString(name) {
		return fmt.Errorf("esbmc solver %q: want a solver's name, such as boolector or bitwuzla", name)
	}
	return nil
}

var solverName = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// Backend runs ESBMC.
type Backend struct{ opts Options }

// New returns the backend.
func New(opts Options) *Backend {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.Solver == "" {
		opts.Solver = DefaultSolver
	}
	return &Backend{opts: opts}
}

// Name implements backend.Backend.
func (b *Backend) Name() string { return "esbmc" }

// Capabilities: a process per check, whose traces may not be followable.
func (b *Backend) Capabilities() backend.Capabilities {
	return backend.Capabilities{External: true, Unfollowable: true}
}

// Args returns the ESBMC command-line flags for the bounds, the data
// model and the solver ("" = ESBMC's own default), before the file name.
func Args(m program.DataModel, bd backend.Bounds, solver string) []string {
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
	if solver != "" {
		args = append(args, "--"+solver)
	}
	// cegpv's Alloc never fails (program model), so neither does malloc here
	return append(args, "--force-malloc-success", "--compact-trace")
}

// Check implements backend.Backend.
func (b *Backend) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	if err := ValidSolver(b.opts.Solver); err != nil {
		return backend.Result{}, program.Errorf(program.Unsupported, "%v", err)
	}
	bd.DeepenFrom = 0
	bd.Threads = 0 // ESBMC bounds the threads a spawn in a loop creates by the unwinding
	bd = backend.Uniform(bd)
	job := external.Job{Tool: "esbmc", Path: b.opts.Path, Args: append(Args(p.Model, bd, b.opts.Solver), b.opts.Extra...),
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

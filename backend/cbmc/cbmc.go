package cbmc

import (
	"bytes"
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
	Path   string   // the cbmc binary; "" = "cbmc" on PATH
	Extra  []string // more flags, before the file
	TmpDir string   // where temporary directories go ("" = the system's)
	Logger hclog.Logger
}

// Backend runs CBMC.
type Backend struct{ opts Options }

// New returns the backend.
func New(opts Options) *Backend {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	return &Backend{opts: opts}
}

// Name implements backend.Backend.
func (b *Backend) Name() string { return "cbmc" }

// Args returns the CBMC flags for the bounds and the data model.
func Args(m program.DataModel, bd backend.Bounds) []string {
	args := []string{"--64"}
	if m != program.LP64 {
		args[0] = "--32"
	}
	args = append(args, "--unwind", strconv.Itoa(max(bd.Unwind, 1)))
	if bd.UnwindingAssertions {
		args = append(args, "--unwinding-assertions")
	} else {
		args = append(args, "--no-unwinding-assertions")
	}
	return append(args, "--xml-ui")
}

// Check implements backend.Backend.
func (b *Backend) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	start := time.Now()
	res := backend.Result{Verdict: backend.Unknown, Bounds: bd}
	res.Bounds.Threads, res.Bounds.Contexts, res.Bounds.DeepenFrom = 0, 0, 0
	path, err := external.Lookup("cbmc", b.opts.Path)
	if err != nil {
		return res, err
	}
	pr, err := external.Print(p, b.opts.TmpDir, "prog.c", external.PrintOptions{})
	if err != nil {
		return res, err
	}
	defer pr.Remove()
	args := append(append(Args(p.Model, bd), b.opts.Extra...), "prog.c")
	b.opts.Logger.Debug("running cbmc", "args", strings.Join(args, " "))
	out, err := external.Exec(ctx, "cbmc", path, args, pr.Dir, bd.Timeout)
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

// interpret turns CBMC's output into a result.
func interpret(p *program.Program, pr *external.Printed, out *external.Output, bd backend.Bounds, res backend.Result) (backend.Result, error) {
	if err := out.Crashed("cbmc"); err != nil {
		return res, err
	}
	if out.Truncated {
		return res, program.Errorf(program.BadOutput, "cbmc: output over %d MiB, not read", external.MaxOutput>>20)
	}
	rep, perr := ParseXML(bytes.NewReader(out.Stdout))
	switch {
	case out.ExitCode == 0 && perr == nil && rep.Status == "SUCCESS":
		res.Verdict = backend.Safe
		res.Proof = bd.UnwindingAssertions
		res.Complete = res.Proof
		return res, nil
	case out.ExitCode == 10 && perr == nil && rep.Status == "FAILURE":
	case out.ExitCode == 6 || (perr == nil && len(rep.Errors) > 0):
		msg := out.Tail()
		if perr == nil && len(rep.Errors) > 0 {
			msg = strings.Join(rep.Errors, " | ")
		}
		return res, program.Errorf(program.Crash, "cbmc cannot parse or convert the printed program (exit %d): %s", out.ExitCode, msg)
	case perr != nil && (out.ExitCode == 0 || out.ExitCode == 10):
		return res, program.Errorf(program.BadOutput, "cbmc: unreadable XML output (exit %d): %v", out.ExitCode, perr)
	default:
		return res, out.Unexpected("cbmc")
	}
	tr := rep.Trace
	if tr == nil || tr.Violation == nil {
		return res, program.Errorf(program.BadOutput, "cbmc: FAILURE without a counterexample")
	}
	if strings.HasPrefix(tr.Comment, "unwinding assertion") {
		res.Reason = fmt.Sprintf("cbmc: %s fails: unwind %d does not cover every run", tr.Comment, bd.Unwind)
		return res, nil
	}
	if !strings.HasPrefix(tr.Comment, "assertion") {
		res.Reason = fmt.Sprintf("cbmc reports %q at line %d (a check besides the program's assertions)", tr.Comment, tr.Violation.Line)
		return res, nil
	}
	run, err := external.MapTrace("cbmc", p, pr, tr)
	if err != nil {
		return res, err
	}
	res.Verdict = backend.Unsafe
	res.Run = run
	return res, nil
}

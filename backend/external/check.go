package external

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// Job is one run of a checker on a program.
type Job struct {
	Tool   string // "esbmc", "cbmc": named in every message
	Path   string // the binary ("" = Tool on PATH)
	Args   []string
	Print  PrintOptions
	TmpDir string
	Logger hclog.Logger
	// Interpret turns the output into a result (res has the bounds, the
	// log and the times filled in).
	Interpret func(pr *Printed, out *Output, res backend.Result) (backend.Result, error)
}

// Check prints p into a temporary directory as prog.c, runs the checker
// there with j.Args and prog.c under bd.Timeout and ctx, and interprets its
// output; the temporary directory is removed on every path.
func (j Job) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	start := time.Now()
	res := backend.Result{Verdict: backend.Unknown, Bounds: bd}
	path, err := Lookup(j.Tool, j.Path)
	if err != nil {
		return res, err
	}
	pr, err := Print(p, j.TmpDir, "prog.c", j.Print)
	if err != nil {
		return res, err
	}
	defer pr.Remove()
	res.Input = string(pr.Text)
	args := append(append([]string(nil), j.Args...), "prog.c")
	log := j.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	log.Info("running "+j.Tool, "command", path+" "+strings.Join(args, " "), "dir", pr.Dir)
	out, err := Exec(ctx, j.Tool, path, args, pr.Dir, bd.Timeout)
	res.Stats.Total = time.Since(start)
	if out != nil {
		res.Log = string(out.Stdout) + string(out.Stderr)
		res.Stats.SolverTime = out.Elapsed
		log.Info(j.Tool+" answered", "exit", out.ExitCode, "verdict", out.Verdict(), "time", out.Elapsed.Round(time.Millisecond))
	}
	if err != nil {
		return res, err
	}
	if err := out.Crashed(j.Tool); err != nil {
		return res, err
	}
	// a trace that cannot be followed (ErrUnfollowable) is returned as
	// it is: what to do about it is cegpv.Check's decision
	return j.Interpret(pr, out, res)
}

// Violation turns a checker's counterexample into a result: an
// assertion's trace is followed (MapTrace), a failed unwinding assertion's
// to the bound (MapUnwinding), into an Unsafe result, or a BadOutput
// error (wrapping ErrUnfollowable when the trace does not lead there); a
// property other than these, or an unwinding assertion that is not the
// one checked (Bounds.UnwindingOnly), is Unknown with the reason.
func Violation(tool string, p *program.Program, pr *Printed, tr *Trace, bd backend.Bounds, res backend.Result) (backend.Result, error) {
	if tr == nil || tr.Violation == nil {
		return res, program.Errorf(program.BadOutput, "%s: a violation without a counterexample", tool)
	}
	if strings.HasPrefix(tr.Comment, "unwinding assertion") || strings.HasPrefix(tr.Comment, "recursion unwinding assertion") {
		if !bd.UnwindingAssertions {
			return res, program.Errorf(program.BadOutput, "%s reports %q at line %d, but unwinding assertions were off", tool, tr.Comment, tr.Violation.Line)
		}
		run, err := MapUnwinding(tool, p, pr, tr, bd.MaxUnwind())
		if err != nil {
			return res, err
		}
		if u, ok := program.UnwindingByID(p, run.Violated); bd.UnwindingOnly != "" && (!ok || u.Key() != bd.UnwindingOnly) {
			res.Reason = fmt.Sprintf("%s reports the unwinding assertion of %s (%s), not the one checked", tool, run.Violated, tr.Comment)
			return res, nil
		}
		res.Verdict = backend.Unsafe
		res.Run = run
		return res, nil
	}
	if !strings.HasPrefix(tr.Comment, "assertion") {
		res.Reason = fmt.Sprintf("%s reports %q at %s:%d (a check besides the program's assertions)", tool, tr.Comment, tr.Violation.File, tr.Violation.Line)
		return res, nil
	}
	run, err := MapTrace(tool, p, pr, tr)
	if err != nil {
		return res, err
	}
	res.Verdict = backend.Unsafe
	res.Run = run
	return res, nil
}

// Safe returns res as a Safe result: a proof when unwinding assertions
// were on.
func Safe(bd backend.Bounds, res backend.Result) backend.Result {
	res.Verdict = backend.Safe
	res.Proof = bd.UnwindingAssertions
	res.Complete = res.Proof
	return res
}

// Options configure an adapter (package esbmc, cbmc).
type Options struct {
	Path   string   // the binary; "" = the tool's name on PATH
	Extra  []string // more flags, before the file
	TmpDir string   // where temporary directories go ("" = the system's)
	Logger hclog.Logger
}

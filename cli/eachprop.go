package cli

import (
	"context"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/report"
	"github.com/hashicorp/go-hclog"
)

// verifyEach checks every property of the file separately, up to jobs at a
// time. Only infrastructure failures (a backend crash, an internal error)
// cancel the remaining checks; a violated property is a result.
func verifyEach(ctx context.Context, file string, vf *verifyFlags, jobs int, log hclog.Logger, outs []output) (int, error) {
	rep := &report.Properties{File: file, Verdict: "UNKNOWN"}
	p, err := vf.load(ctx, file, log)
	if err != nil {
		o := vf.outcome(file)
		o.Reason, o.Err = err.Error(), err
		rep.Properties = []*report.Outcome{o}
		return writeEach(outs, rep, exitCodeFor(err)), nil
	}
	if err := vf.checkProgram(p); err != nil {
		return exitUsage, usageError{err}
	}
	opts, err := vf.checkOptions(log)
	if err != nil {
		o := vf.outcome(file)
		o.Reason, o.Err = err.Error(), err
		rep.Properties = []*report.Outcome{o}
		return writeEach(outs, rep, exitCodeFor(err)), nil
	}
	props := cegpv.CheckEach(ctx, p, opts, jobs)
	for _, r := range props.Reports {
		o := vf.outcome(file)
		o.Program = p
		o.Fill(r)
		o.Stats.TotalSec = r.Elapsed.Seconds()
		rep.Properties = append(rep.Properties, o)
	}
	rep.Verdict = props.Verdict.SVCOMP()
	code := exitUnknown
	switch props.Verdict {
	case backend.Unsafe:
		code = exitUnsafe
	case backend.Safe:
		code = exitSafe
	}
	return writeEach(outs, rep, code), nil
}

// writeEach writes the results of --each-property with the writers that
// have a format for them (text or JSON on standard output) and returns
// code.
func writeEach(outs []output, rep *report.Properties, code int) int {
	for _, out := range outs {
		if ew, ok := out.w.(report.EachWriter); ok {
			ew.WriteEach(rep)
		}
	}
	return code
}

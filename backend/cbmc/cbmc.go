package cbmc

import (
	"bytes"
	"context"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/external"
	"cegpv.dev/cegpv/program"
)

// Options configure the backend (Path: the cbmc binary, "" = cbmc on PATH).
type Options = external.Options

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

// Capabilities: a process per check, whose traces may not be followable.
func (b *Backend) Capabilities() backend.Capabilities {
	return backend.Capabilities{External: true, Unfollowable: true}
}

// Args returns the CBMC flags for the bounds and the data model.
func Args(m program.DataModel, bd backend.Bounds) []string {
	args := []string{"--64"}
	if m != program.LP64 {
		args[0] = "--32"
	}
	args = append(args, "--unwind", strconv.Itoa(max(bd.MaxUnwind(), 1)))
	if bd.UnwindingAssertions {
		args = append(args, "--unwinding-assertions")
	} else {
		args = append(args, "--no-unwinding-assertions")
	}
	return append(args, "--xml-ui")
}

// Check implements backend.Backend.
func (b *Backend) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	// CBMC bounds spawned threads by the unwinding and has no context bound
	bd.Threads, bd.Contexts, bd.DeepenFrom = 0, 0, 0
	bd = backend.Uniform(bd)
	job := external.Job{Tool: "cbmc", Path: b.opts.Path, Args: append(Args(p.Model, bd), b.opts.Extra...),
		TmpDir: b.opts.TmpDir, Logger: b.opts.Logger,
		Interpret: func(pr *external.Printed, out *external.Output, res backend.Result) (backend.Result, error) {
			return interpret(p, pr, out, bd, res)
		}}
	return job.Check(ctx, p, bd)
}

// interpret turns CBMC's output into a result.
func interpret(p *program.Program, pr *external.Printed, out *external.Output, bd backend.Bounds, res backend.Result) (backend.Result, error) {
	if out.Truncated {
		return res, program.Errorf(program.BadOutput, "cbmc: output over %d MiB, not read", external.MaxOutput>>20)
	}
	rep, perr := ParseXML(bytes.NewReader(out.Stdout))
	switch {
	case out.ExitCode == 0 && perr == nil && rep.Status == "SUCCESS":
		return external.Safe(bd, res), nil
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
	return external.Violation("cbmc", p, pr, rep.Trace, bd, res)
}

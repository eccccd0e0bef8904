package cegpv

import (
	"context"
	"fmt"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/program"
)

// incremental is Check with CheckOptions.IncrementalBMC: the check with
// unwinding assertions, again with a doubled bound for the loop (or the
// recursive calls) whose bound the last answer's run reached, until an
// answer that is not such a FALSE, or the end of the time (UNKNOWN, with
// the last bound a run reached). Each round is the whole check (check)
// on a checker of its own, with the bounds of the round.
func (c *checker) incremental(ctx context.Context, p *program.Program) *Report {
	opts := c.opts
	opts.Bounds = opts.CheckedBounds()
	opts.IncrementalBMC = false
	// the one wall-clock limit covers every round (a round's check sets
	// its own from its start, which this one's deadline precedes)
	if t := opts.Bounds.Timeout; t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	b, err := backend.ResolveUnwindSet(p, opts.Bounds)
	if err != nil {
		rep := c.newReport(p)
		rep.unknown(&program.Error{Kind: program.Unsupported, Err: err})
		return rep
	}
	opts.Bounds = b
	reached := "" // the last bound a run reached, for an UNKNOWN
	for round := 0; ; round++ {
		rctx, cancel := ctx, context.CancelFunc(func() {})
		if round > 0 {
			rctx, cancel = budget.WithShare(ctx, incrementalRound.Engine, incrementalRound.Share, incrementalRound.Max)
		}
		rc := &checker{opts: opts, log: c.log}
		rep := rc.check(rctx, p)
		cancel()
		if rep.Verdict != backend.Unsafe || !program.IsUnwinding(rep.Property) || rep.Run == nil {
			if rep.Verdict == backend.Unknown && reached != "" {
				rep.Reason = fmt.Sprintf("incremental BMC: %s; the check with %s ended: %s", reached, opts.Bounds, rep.Reason)
			}
			return rep
		}
		u, ok := program.UnwindingByID(p, rep.Property)
		if !ok { // (judge names a property of p)
			return rep
		}
		cur := max(opts.Bounds.UnwindOf(u.Key()), rep.Run.BoundOf(u.Key()))
		reached = fmt.Sprintf("a run reaches unwind %d of %s (%s)", cur, backend.LoopIDOf(u), u.Describe())
		next := 2 * cur
		var why string
		switch {
		case ctx.Err() != nil:
			why = "the time ran out"
		case next > MaxIncrementalUnwind:
			why = fmt.Sprintf("a deeper bound would exceed %d (MaxIncrementalUnwind)", MaxIncrementalUnwind)
		default:
			if left, ok := budget.Left(ctx); ok && left <= 0 {
				why = "the CPU time of the check ran out"
			}
		}
		if why != "" {
			r := c.newReport(p)
			r.Bounds, r.Loop = rep.Bounds, rep.Loop
			r.Reason = fmt.Sprintf("incremental BMC: %s; %s", reached, why)
			r.Err = program.Errorf(program.Timeout, "%s", r.Reason)
			return r
		}
		opts.Bounds = opts.Bounds.WithLoopBound(backend.LoopBound{ID: backend.LoopIDOf(u), Key: u.Key(), Bound: next})
		c.log.Info("incremental BMC: a run reaches a loop bound; checking again with it doubled", "property", u.ID, "unwind", cur, "bounds", opts.Bounds.String())
	}
}

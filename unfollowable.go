package cegpv

import (
	"context"
	"fmt"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/program"
)

// searchUnfollowable answers a check whose answer is an error wrapping
// backend.ErrUnfollowable (the checker reports a violation whose trace
// does not lead to it on the program: CBMC 5.4 prints no step of a thread
// other than main) with the explicit-state search on the same program
// within the same bounds (the table's unfollowable budget; loop-free
// programs included, finite nondeterminism only). Check's backend (wrap)
// calls it for the checks of every engine; NoExplicit turns it off.
//   - a violation found is a run of that program (Unsafe); like any other
//     answer it becomes a FALSE only through judge, replayed on the
//     original program;
//   - no violation is a Safe answer only when the search explored every
//     run (Complete): it then contradicts the checker on every run;
//   - otherwise the answer stays the checker's error, with what the
//     search did: UNKNOWN with the reason;
//   - on the program the search already races on beside the mode (raced,
//     set by mode), it is not run again: the race's search decides, or
//     mode runs this one after the race when that search never started.
//
// tool is the backend's name, res and cause its answer.
func (c *checker) searchUnfollowable(ctx context.Context, tool string, p *program.Program, bd backend.Bounds, res backend.Result, cause error) (backend.Result, error) {
	if err := explicit.Explorable(p); err != nil {
		return res, fmt.Errorf("%w; the explicit-state search does not apply: %v", cause, err)
	}
	if p == c.raced.Load() {
		// the search racing beside the mode searches p with at least
		// this budget (a backend whose counterexamples cannot be
		// followed is not incremental: explicitOptions); a second one
		// would only repeat it, and Race waits for it after this answer
		return res, fmt.Errorf("%w; the explicit-state search racing beside the checker on this program decides", cause)
	}
	eo := c.explicitOptions()
	eo.LoopFree, eo.Share = true, unfollowable.Share
	if _, ok := budget.Left(ctx); ok {
		eo.Max = 24 * time.Hour // the share of the CPU time left is the budget
	}
	log := c.log.Named("unfollowable")
	u0 := budget.Used(ctx)
	xr, done := explicit.Check(ctx, p, bd, eo)
	switch {
	case !done:
		return res, fmt.Errorf("%w; the explicit-state search gave up after %.1fs of CPU time", cause, (budget.Used(ctx) - u0).Seconds())
	case xr.Verdict == backend.Unsafe:
		log.Info(tool+"'s counterexample cannot be followed; the explicit-state search found a violation", "reason", cause, "states", xr.Stats.States)
		xr.Log = res.Log
		return xr, nil
	case xr.Verdict == backend.Safe && xr.Complete:
		log.Warn(tool+" reports a violation that the explicit-state search, exploring every run, does not find", "reason", cause, "states", xr.Stats.States)
		xr.Log = res.Log
		return xr, nil
	}
	return res, fmt.Errorf("%w; the explicit-state search finds no violation within the bounds (%s), and does not explore every run", cause, bd)
}

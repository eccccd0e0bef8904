package cegpv

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/program"
)

// UnfollowableShare is the share of the time left that the explicit-state
// search may use when a checker's counterexample cannot be followed (see
// searching).
const UnfollowableShare = 0.5

// searching wraps be so that every check whose answer is an error wrapping
// backend.ErrUnfollowable (the checker reports a violation whose trace
// does not lead to it on the program: CBMC 5.4 prints no step of a thread
// other than main) is answered by the explicit-state search on the same
// program within the same bounds, with UnfollowableShare of the time left
// (without a deadline, the budget of CheckOptions.Explicit; loop-free
// programs included, finite nondeterminism only):
//   - a violation found is a run of that program, confirmed by
//     interp.Replay (Unsafe); like any other answer it becomes a FALSE
//     only through judge, replayed on the original program;
//   - no violation is a Safe answer only when the search explored every
//     run without cutting one at a bound (Complete): it then contradicts
//     the checker on every run of the program, not only within bounds the
//     two engines might count differently;
//   - otherwise (no violation within the bounds, the search gave up or
//     does not apply) the answer stays the checker's error, with what the
//     search did added to it: UNKNOWN with the reason;
//   - on the program the search already races on beside the mode (Race
//     has started it, with at least UnfollowableShare of the time), it is
//     not run again: the checker's error is the answer, and Race waits
//     for its search.
//
// Check wraps the backend once, so that the checks of the plain mode, of
// the CEGPV loop (abstractions, reconstructions) and of the search beyond
// the bounds all get it; NoExplicit turns it off with the other searches.
func (c *checker) searching(be backend.Backend) backend.Backend {
	if c.opts.NoExplicit {
		return be
	}
	return keepOpen(searchingBackend{be, c}, be)
}

type searchingBackend struct {
	backend.Backend
	c *checker
}

func (s searchingBackend) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	res, err := s.Backend.Check(ctx, p, bd)
	if err == nil || !errors.Is(err, backend.ErrUnfollowable) || ctx.Err() != nil {
		return res, err
	}
	return s.c.searchUnfollowable(ctx, s.Backend.Name(), p, bd, res, err)
}

// searchUnfollowable is the search of searching, after the backend named
// tool answered res with cause (an error wrapping
// backend.ErrUnfollowable).
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
	eo.LoopFree, eo.Share = true, UnfollowableShare
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

package cegpv

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/program"
)

// checkBackend is how the library asks a backend about a program (the
// plain mode's check and every check of the CEGPV loop): be.Check, and
// when the backend reports a violation whose counterexample it cannot show
// on p (backend.ErrUnfollowable: CBMC 5.4 prints no step of a thread but
// main), the explicit-state search on p within the same bounds and half
// the time left. A violation the search finds is a replayed run of p
// (Unsafe; the caller judges it like any other); a search that explores
// every run and finds none contradicts the backend, and the answer stays
// the backend's error (UNKNOWN), as it does when the search gives up or
// does not apply (infinite nondeterminism). The trace itself is never a
// FALSE.
func checkBackend(ctx context.Context, be backend.Backend, p *program.Program, bounds backend.Bounds, log hclog.Logger) (backend.Result, error) {
	res, err := be.Check(ctx, p, bounds)
	if err == nil || !errors.Is(err, backend.ErrUnfollowable) {
		return res, err
	}
	if log == nil {
		log = hclog.NewNullLogger()
	}
	eo := explicit.Defaults
	eo.LoopFree, eo.Share, eo.Max = true, 0.5, time.Duration(math.MaxInt64)
	eo.Logger = log.Named("explicit")
	start := time.Now()
	r, done := explicit.Check(ctx, p, bounds, eo)
	switch {
	case done && r.Verdict == backend.Unsafe:
		log.Info(be.Name()+"'s counterexample cannot be followed; the explicit-state search found a violation", "reason", err, "states", r.Stats.States)
		r.Stats.Total = res.Stats.Total + time.Since(start)
		r.Log = res.Log
		return r, nil
	case done && r.Verdict == backend.Safe:
		return res, fmt.Errorf("%w; the explicit-state search finds no violation within the bounds", err)
	}
	return res, err
}

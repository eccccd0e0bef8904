package cegpv

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// BeyondOptions configure Beyond.
type BeyondOptions struct {
	Backend backend.Backend
	// Bounds are the bounds of the check that found no violation.
	Bounds     backend.Bounds
	NoExplicit bool // only the backend at deeper bounds
	// NoBackend: only the explicit search (when the check within the
	// bounds took so long that a deeper one cannot end in time)
	NoBackend bool
	Logger    hclog.Logger // nil: silent
}

// BeyondFactor is how much deeper than the bounds Beyond asks the backend
// to look: the unwinding, the threads of a run (and the threads per spawn
// site, when bounded) times this.
const BeyondFactor = 4

// Beyond looks for a violation of p beyond opts.Bounds, for as long as ctx
// allows, after a check within the bounds found none but cut some runs
// (a bounded TRUE that is not complete). Two engines run side by side and
// the first answer in CPU time wins (budget.Race):
//   - the backend on p at BeyondFactor times the unwinding (the built-in
//     backend deepens towards it from the unwinding above the bounds, so
//     it stops at the first unwinding with a violation);
//   - explicit.Beyond: an explicit-state search with loops unbounded and
//     preemptions bounded by 0, 1, 2, …
//
// A bug found is reported whatever its depth: a violation is a run of the
// original program, replayed before it is printed like any other (rule 1);
// the bounds limit how hard the tools look, not which bugs count. The
// answer is Unsafe with its run (Bounds: those of the check that found
// it), or Safe and Complete when an engine covered every run; found is
// false when neither answered, and the bounded TRUE stands. how says which
// engine answered and how. failed, when neither answered, is why an engine
// stopped other than its budget (a solver's crash, an internal error): the
// bounded TRUE says so rather than that the search ran its course.
func Beyond(ctx context.Context, p *program.Program, opts BeyondOptions) (res backend.Result, how string, found bool, failed error) {
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	if !p.Bounded() {
		return backend.Result{}, "", false, nil // no loop or recursion: nothing lies beyond
	}
	deeper := opts.Bounds.Scaled(BeyondFactor) // the per-loop bounds (--unwindset) too
	if deeper.Threads > 0 {
		deeper.Threads *= BeyondFactor
	}
	deeper.MaxThreads = opts.Bounds.MaxThreadsOrDefault() * BeyondFactor
	deeper.UnwindingAssertions = false
	deeper.DeepenFrom = opts.Bounds.Unwind + 1
	start := time.Now()
	type answer struct {
		res backend.Result
		how string
	}
	var engines []budget.Engine[answer]
	var mu sync.Mutex
	var failures []error
	// failure records an engine's error that is not the end of its budget
	failure := func(err error) {
		switch {
		case err == nil || errors.Is(err, errNoAnswer) || errors.Is(err, context.Canceled):
		case program.KindOf(err) == program.Timeout || program.KindOf(err) == program.Interrupted:
		case ctx.Err() != nil: // the caller's deadline: the budget's end
		default:
			mu.Lock()
			failures = append(failures, err)
			mu.Unlock()
		}
	}
	if !opts.NoBackend {
		engines = append(engines, budget.Engine[answer]{Name: "the backend beyond the bounds", Run: func(ctx context.Context) (_ answer, err error) {
			defer func() { failure(err) }()
			defer program.Recover(&err) // an engine's bug: no answer from it
			r, err := opts.Backend.Check(ctx, p, deeper)
			log.Debug("backend beyond the bounds", "bounds", deeper.String(), "verdict", r.Verdict, "complete", r.Complete, "error", err, "seconds", time.Since(start).Seconds())
			switch {
			case err != nil:
				return answer{}, err
			case r.Verdict == backend.Unsafe:
				// replayed here, so that a run that does not replay leaves
				// the bounded answer standing instead of replacing it
				if _, err := interp.Confirm(p, r.Run); err != nil {
					log.Warn("backend beyond the bounds: the violation is not a confirmed run of the program", "error", err)
					return answer{}, err
				}
				how := opts.Backend.Name() + " within " + r.Bounds.String()
				if r.Reason != "" {
					how += " (" + r.Reason + ")"
				}
				r.Reason = ""
				return answer{r, how}, nil
			case r.Verdict == backend.Safe && r.Complete:
				r.Bounds = opts.Bounds
				r.Proof = opts.Bounds.UnwindingAssertions
				return answer{r, opts.Backend.Name() + ", every run"}, nil
			}
			return answer{}, errNoAnswer
		}})
	}
	if !opts.NoExplicit { // answers at once where it does not apply
		engines = append(engines, budget.Engine[answer]{Name: "the explicit-state search beyond the bounds", Run: func(ctx context.Context) (_ answer, err error) {
			defer func() { failure(err) }()
			defer program.Recover(&err)
			eo := searchOptions(race)
			eo.Logger = log.Named("explicit")
			eb := opts.Bounds
			eb.MaxThreads = deeper.MaxThreads
			r, how, ok := explicit.Beyond(ctx, p, eb, eo)
			if !ok {
				return answer{}, errNoAnswer
			}
			if r.Verdict == backend.Safe {
				r.Bounds = opts.Bounds // every run: the bounds given stand
			}
			return answer{r, how}, nil
		}})
	}
	if len(engines) == 0 {
		return backend.Result{}, "", false, nil
	}
	// the first answer in CPU time wins (budget.Race); both engines have
	// stopped (no solver process is left) when it returns
	a, err, _ := budget.Race(ctx, func(_ answer, err error) bool { return err == nil }, engines...)
	if err != nil {
		return backend.Result{}, "", false, errors.Join(failures...)
	}
	return a.res, a.how, true, nil
}

// errNoAnswer is an engine's answer beyond the bounds that decides nothing.
var errNoAnswer = errors.New("no answer")

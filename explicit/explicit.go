// Package explicit is the explicit-state model checker. Explore
// (explore.go) searches every state of a program whose nondeterminism is
// finite: the search, its canonical state key and its reductions (private
// steps, thread symmetry, dead locals left out, preemption bounding), over
// the machine of internal/machine, which package interp drives along given
// runs; the facts the reductions rest on come from package analysis.
//
// The rest of the package makes the search a verification engine that
// runs beside another one, as a portfolio:
// cegpv.Check races it (Race) beside the backend in plain mode and beside
// the CEGPV loop in cegpv mode, on the program it was given, and runs it
// (Check) behind a backend whose counterexample cannot be followed
// (backend.ErrUnfollowable); no backend runs it itself.
//
// The search applies to programs with loops or recursion (program.Bounded)
// whose nondeterminism is finite (Explorable): on loop-free programs the
// symbolic engines are fast and a second search only competes with them
// for the cores; on programs whose threads loop, its reductions prove
// tasks whose encoding is too hard for the solver (docs/measurements.md,
// Why the defaults).
//
// Invariants: an Unsafe answer carries a run that interp.Replay confirmed
// on the program; a Safe answer covers at least the runs within the bounds
// that the built-in encoding covers (Explore bounds loops, recursion and
// threads as it does) and is a proof only when no run reached a bound and
// unwinding assertions were asked for. A search that gives up (state
// store full, time share used, an execution error) answers nothing, and
// the other engine decides.
//
// Beyond is the same search past the loop bounds, for after a bounded
// answer (cegpv.Beyond): loops unbounded, preemptions bounded and raised
// one by one. Its Unsafe answers are replayed runs like Check's; its Safe
// answer is Complete (every run of the program explored).
package explicit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// Options bound the search.
type Options struct {
	// Delay is the CPU time the other engine uses alone before the
	// search starts (most programs are answered faster by it; 0: at once).
	Delay time.Duration
	// Share is the share of the CPU time left (budget.Left) the search may
	// use (0: next to none when the check has a budget), Max its CPU time
	// at most, and without a budget (0: no cap).
	Share float64
	Max   time.Duration
	// Bytes bounds the store of visited states (0: Explore's default,
	// ExploreOptions.MaxStateBytes; the threads of a run are bounded by
	// backend.Bounds.MaxThreads).
	Bytes int
	// LoopFree runs the search on loop-free programs too (Applies asks
	// for loops): for programs with few interleavings, such as a
	// reconstruction that forces the order of a counterexample's shared
	// steps, where it answers in seconds what an encoding or an external
	// checker takes minutes for.
	LoopFree bool
	Logger   hclog.Logger // nil: silent
}

// Backend is the search as a backend.Backend, an engine of a race beside
// another: Check answers the search's verdict, or an error when it gave
// up or does not apply (AppliesWith).
type Backend struct{ Options Options }

// Name names the search.
func (Backend) Name() string { return "the explicit-state search" }

// Capabilities: in-process, every trace a replayed run.
func (Backend) Capabilities() backend.Capabilities { return backend.Capabilities{} }

// Check runs the search on p within bounds (Check).
func (b Backend) Check(ctx context.Context, p *program.Program, bounds backend.Bounds) (backend.Result, error) {
	if !AppliesWith(p, b.Options) {
		return backend.Result{}, errors.New("the explicit-state search does not apply")
	}
	res, done := Check(ctx, p, bounds, b.Options)
	if !done {
		return backend.Result{}, errGaveUp
	}
	return res, nil
}

// Applies reports whether the search runs on p (see the package comment).
func Applies(p *program.Program) bool {
	return p.Bounded() && Explorable(p) == nil
}

// AppliesWith is Applies under opts: loop-free programs too with
// opts.LoopFree. Race runs the search on p exactly when it holds.
func AppliesWith(p *program.Program, opts Options) bool {
	return (opts.LoopFree || p.Bounded()) && Explorable(p) == nil
}

// Check runs the search on p within bounds; done is false when it gave up.
func Check(ctx context.Context, p *program.Program, bounds backend.Bounds, opts Options) (res backend.Result, done bool) {
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	defer func() {
		if r := recover(); r != nil { // a bug of the search: the other engine decides
			log.Error("explicit search failed", "error", program.PanicError(r))
			res, done = backend.Result{}, false
		}
	}()
	ectx, cancel := budget.WithShare(ctx, "the explicit-state search", opts.Share, opts.Max)
	defer cancel()
	start := time.Now()
	xr, err := Explore(ectx, p, ExploreOptions{Unwind: max(1, bounds.Unwind), UnwindSet: bounds.SetMap(), Threads: bounds.Threads, MaxThreads: bounds.MaxThreadsOrDefault(), MaxStateBytes: opts.Bytes, MaxHeap: maxHeap(opts.Bytes),
		UnwindingAssertions: bounds.UnwindingAssertions, UnwindingOnly: bounds.UnwindingOnly})
	if err != nil {
		log.Debug("explicit search failed", "error", err)
		return backend.Result{}, false
	}
	st := backend.Stats{States: xr.States, SolverTime: time.Since(start)}
	switch xr.Status {
	case ViolationFound:
		out, err := interp.Replay(p, xr.Run)
		if err != nil || out.Status != interp.Violated {
			// a bug of the search; the other engine decides
			log.Error("explicit search: the violation does not replay", "error", err)
			return backend.Result{}, false
		}
		log.Debug("violation", "states", xr.States)
		return backend.Result{Verdict: backend.Unsafe, Run: out.Run, Bounds: bounds, Stats: st}, true
	case NoViolation:
		log.Debug("no violation", "states", xr.States, "complete", xr.Complete)
		bounds.ThreadCap = xr.ThreadCap // stated when it cut a run
		// with unwinding assertions, a selected bound reached would have
		// been a violation: a run cut elsewhere leaves the answer bounded
		return backend.Result{Verdict: backend.Safe, Proof: xr.Complete && bounds.UnwindingAssertions, Complete: xr.Complete, Bounds: bounds, Stats: st}, true
	}
	log.Debug("gave up", "reason", xr.Reason, "states", xr.States)
	return backend.Result{}, false
}

// maxHeap is the heap a search with a store of bytes may use: Explore's
// default, or three times the store (the store's map and the states on
// the search path) when that is more.
func maxHeap(bytes int) uint64 { return max(768<<20, 3*uint64(bytes)) }

// Race runs primary and, when AppliesWith(p, opts), once primary has used
// opts.Delay of CPU time also Check beside it; the first verdict in CPU time
// wins (budget.Race: not the first in wall time, so that the winner does
// not depend on the load) and the other engine is stopped (Race returns
// after it has). When primary answers without a verdict (known false) while
// the search runs, the search may still answer. wrap turns the search's
// answer into a T (an answer it makes unknown counts as none).
func Race[T any](ctx context.Context, p *program.Program, bounds backend.Bounds, opts Options,
	primary func(context.Context) (T, error), wrap func(backend.Result) T, known func(T) bool) (T, error) {
	if !AppliesWith(p, opts) {
		return primary(ctx)
	}
	search := func(ctx context.Context) (T, error) {
		res, done := Check(ctx, p, bounds, opts)
		var w T
		if !done {
			return w, errGaveUp
		}
		return wrap(res), nil
	}
	prim := func(ctx context.Context) (_ T, err error) {
		defer program.Recover(&err) // the primary engine's bug: its answer is the error
		return primary(ctx)
	}
	res, err, _ := budget.Race(ctx, func(r T, err error) bool { return err == nil && known(r) },
		budget.Engine[T]{Name: "primary", Run: prim},
		budget.Engine[T]{Name: "the explicit-state search", After: opts.Delay, Run: search})
	return res, err
}

var errGaveUp = errors.New("the explicit-state search gave up")

// Beyond looks for a violation of p beyond the loop bounds, after a check
// within them found none: the search with loops unbounded (visited states
// close them) and the preemptions of a run bounded by 0, 1, 2, …
// (iterative context bounding: most concurrency bugs need few), each
// bound a new search, until ctx ends, a search finds a violation or one
// covers every run. A violation found is a run of p, replayed like any
// other, whatever its depth; its Bounds are the ones given (the run may
// exceed them). A search that neither cut a run at the preemption bound
// nor reached a recursion or thread bound explored every run of p: that
// answer is Safe for every bound (Proof when unwinding assertions were
// asked for, as in Check). how says how the answer was found; done is
// false when there is none.
func Beyond(ctx context.Context, p *program.Program, bounds backend.Bounds, opts Options) (res backend.Result, how string, done bool) {
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	defer func() {
		if r := recover(); r != nil {
			log.Error("explicit search beyond the bounds failed", "error", program.PanicError(r))
			res, how, done = backend.Result{}, "", false
		}
	}()
	if !Applies(p) {
		return backend.Result{}, "", false
	}
	start := time.Now()
	states := 0
	for k := 0; ctx.Err() == nil; k++ {
		xr, err := Explore(ctx, p, ExploreOptions{Unwind: max(1, bounds.Unwind), UnwindSet: bounds.SetMap(), Unbounded: true,
			BoundPreemptions: true, Preemptions: k, MaxThreads: bounds.MaxThreadsOrDefault(), MaxStateBytes: opts.Bytes, MaxHeap: maxHeap(opts.Bytes)})
		if err != nil {
			log.Debug("search beyond the bounds failed", "error", err)
			return backend.Result{}, "", false
		}
		states += xr.States
		st := backend.Stats{States: states, SolverTime: time.Since(start)}
		switch xr.Status {
		case ViolationFound:
			run, err := interp.Confirm(p, xr.Run)
			if err != nil {
				log.Error("search beyond the bounds: the violation is not a confirmed run of the program", "error", err)
				return backend.Result{}, "", false
			}
			log.Debug("violation beyond the bounds", "preemptions", k, "states", states)
			return backend.Result{Verdict: backend.Unsafe, Run: run, Bounds: bounds, Stats: st},
				fmt.Sprintf("explicit-state search, loops unbounded, at most %d preemptions", k), true
		case NoViolation:
			if xr.Complete {
				log.Debug("every run explored", "preemptions", k, "states", states)
				return backend.Result{Verdict: backend.Safe, Proof: bounds.UnwindingAssertions, Complete: true, Bounds: bounds, Stats: st},
					"explicit-state search, every run", true
			}
			log.Debug("no violation", "preemptions", k, "states", xr.States)
		default:
			log.Debug("search beyond the bounds gave up", "preemptions", k, "reason", xr.Reason)
			return backend.Result{}, "", false
		}
	}
	return backend.Result{}, "", false
}

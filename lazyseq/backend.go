package lazyseq

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// Backend checks a program by checking its sequentialisation with Inner
// (any backend: the built-in one does plain symbolic execution on a
// program without Spawn). Its answers hold within Rounds round-robin
// rounds besides the other bounds: a Safe answer is never a proof nor
// complete, and an Unsafe answer carries the run mapped back to the
// program it was given (replay it there; cegpv.Check does).
type Backend struct {
	Inner  backend.Backend
	Rounds int
	Logger hclog.Logger // nil: silent
}

// Name names the inner backend and the sequentialisation.
func (b Backend) Name() string { return b.Inner.Name() + "+lazyseq" }

// Capabilities are Inner's, with rounds and without its incremental
// instances or its deepening (the sequentialisation is checked whole).
func (b Backend) Capabilities() backend.Capabilities {
	c := b.Inner.Capabilities()
	c.Incremental, c.Deepens, c.Rounds = false, false, true
	return c
}

// Check sequentialises p with Rounds rounds and the thread bound of
// bounds (Threads, or Unwind when 0), checks it with Inner and maps the
// answer back.
func (b Backend) Check(ctx context.Context, p *program.Program, bounds backend.Bounds) (backend.Result, error) {
	log := b.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	if b.Rounds < 1 {
		return backend.Result{}, fmt.Errorf("lazyseq: rounds %d, want at least 1", b.Rounds)
	}
	if bounds.UnwindingAssertions {
		// its rounds cut runs that no unwinding property speaks of, and
		// the sequentialisation has loops of its own
		return backend.Result{}, program.Errorf(program.Unsupported, "lazyseq: the round-bounded sequentialisation does not check unwinding assertions")
	}
	if len(bounds.UnwindSet) > 0 {
		return backend.Result{}, program.Errorf(program.Unsupported, "lazyseq: the round-bounded sequentialisation has one unwinding for every loop (no --unwindset)")
	}
	threads := bounds.Threads
	if threads <= 0 {
		threads = bounds.Unwind
	}
	stated := bounds
	stated.Threads, stated.Rounds, stated.Contexts = threads, b.Rounds, 0
	q, m, err := Sequentialize(p, Options{Rounds: b.Rounds, Threads: max(threads, 1), Unwind: max(bounds.Unwind, 1)})
	if err != nil {
		return backend.Result{}, err
	}
	log.Debug("sequentialised", "rounds", b.Rounds, "instances", m.Instances(), "functions", len(q.Funcs))
	inner := bounds
	inner.Contexts, inner.Rounds = 0, 0
	res, err := b.Inner.Check(ctx, q, inner)
	if err != nil {
		return res, err
	}
	res.Bounds = stated
	res.Proof, res.Complete = false, false
	if res.Verdict == backend.Unsafe {
		if res.Run == nil {
			return backend.Result{Verdict: backend.Unknown, Reason: "the sequential checker answered unsafe without a run", Bounds: stated, Stats: res.Stats, Log: res.Log}, nil
		}
		run, err := m.Run(res.Run)
		if err != nil {
			return backend.Result{Verdict: backend.Unknown, Reason: "the run of the sequentialisation does not map back: " + err.Error(), Bounds: stated, Stats: res.Stats, Log: res.Log}, nil
		}
		res.Run = run
	}
	return res, nil
}

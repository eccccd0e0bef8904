package loop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/observer"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/reconstruct"
	"cegpv.dev/cegpv/refine"
	"cegpv.dev/cegpv/slice"
)

// A strategy is one way of running an abstraction level of the loop: how
// the abstraction is checked, how its counterexample is checked against
// the original program, and how a spurious one is removed. refineLevel is the
// loop; the strategies are
//
//   - monitor: the order-only reconstruction (reconstruct.OrderOnlySeq)
//     and the trie monitor of package refine, code to code;
//   - incremental: the same pairing on an incremental backend, with both
//     programs encoded once and unsat cores (blockers) excluded;
//   - observerStrategy: the values-and-order reconstruction and the
//     paper's observer/controller (package observer), code to code.
type strategy interface {
	// check checks the abstraction with every counterexample excluded so
	// far (iteration it of the level). An Unsafe result comes with its
	// counterexample; a Safe one states what it proves of the original
	// program (Proof and Complete).
	check(ctx context.Context, it int) (backend.Result, *cex, error)
	// reconstruct checks c against the original program; an Unsafe
	// result's Run is a run of the original program (not yet replayed),
	// a Safe one means c is spurious.
	reconstruct(ctx context.Context, c *cex, it int) (backend.Result, error)
	// exclude removes the spurious c from the abstraction.
	exclude(c *cex, it int) error
	close()
}

// generalising is a strategy that generalises a spurious counterexample
// before excluding it (the monitor; generalise.go): it may set c.w, and
// done says that the generalisation found the level's verdict, res.
type generalising interface {
	generalise(ctx context.Context, c *cex) (res Result, done bool, err error)
}

// errWiden is a strategy's answer that it cannot go on at this level (a
// refinement the construction or the backend does not support): the loop
// widens the kept set, which is always sound.
var errWiden = errors.New("abstraction level given up")

// cex is a counterexample of the abstraction A, the one type every
// strategy passes through the loop.
type cex struct {
	// run is a run of A (mapped back from the refined abstraction).
	run *program.Run
	// seq is its visible label sequence in the order the monitor accepted
	// it (monitor); keys are its visible steps' instance keys (incremental).
	seq  []program.Label
	keys []string
	// blockers are the unsat cores of its forced check (incremental).
	blockers []backend.Blocker
	// w is the label set of the pattern to exclude when it is spurious
	// (monitor, set by the generalisation); nil: the visible set.
	w map[program.Label]bool
}

// strategy returns the strategy of the level keeping v0: the observer when
// asked for, the incremental loop on an incremental backend (but not for
// the last level, which is one check of the program: the backend's own,
// whose encoding has no instance keys to carry), the monitor otherwise.
func (v *verifier) strategy(ctx context.Context, g *depgraph.Graph, v0 []depgraph.Var, full bool) (strategy, error) {
	a, kept, err := slice.Abstract(v.work, g, v0)
	if err != nil {
		return nil, err
	}
	if err := v.sane("slice", a); err != nil {
		return nil, err
	}
	v.dump(fmt.Sprintf("L%d-abstract.c", v.level), a)
	if v.opts.Refinement == "observer" {
		var names []string
		for _, k := range kept {
			names = append(names, string(k))
		}
		// the tree of the observer is over every visible step of A; the
		// reconstruction forces only the order of the shared ones, which
		// proves more (every placement of the local steps) and is much
		// easier for the backend
		return &observerStrategy{v: v, a: a, kept: names, visible: program.Visible(a), shared: program.SharedVisible(a)}, nil
	}
	visible := program.SharedVisible(a)
	if inc, ok := backend.OpenOf(v.opts.Backend); ok && !v.opts.NoIncremental && !full {
		ia, err := inc.Open(ctx, a, v.opts.Bounds)
		if err != nil {
			return nil, err
		}
		return &incremental{v: v, inc: inc, a: a, ia: ia, visible: visible, seen: map[string]bool{}}, nil
	}
	return &monitor{v: v, a: a, visible: visible}, nil
}

// refineLevel runs the refinement loop for one kept set with strategy s. done
// is false when the level is given up (its iteration budget ran out, the
// abstraction is too coarse to decide, or s answered errWiden) and the
// caller should widen. full: the level keeps every variable, so A is the
// program and its counterexamples are runs of it.
func (v *verifier) refineLevel(ctx context.Context, s strategy, full bool) (Result, bool, error) {
	for it := 0; it < v.opts.MaxIterations || full; it++ {
		if res, stop, err := v.exhausted(ctx); stop {
			return res, true, err
		}
		r, c, err := s.check(ctx, it)
		if errors.Is(err, errWiden) {
			return Result{}, false, nil
		}
		if err != nil {
			return fromBackend(r), true, err
		}
		switch r.Verdict {
		case backend.Safe:
			return Result{Result: backend.Result{Verdict: backend.Safe, Proof: r.Proof, Complete: r.Complete, Bounds: r.Bounds, Stats: r.Stats}}, true, nil
		case backend.Unknown:
			if !full && ctx.Err() == nil {
				// the abstraction is too coarse to decide (e.g. a possible
				// invalid access through a sliced pointer): widen
				v.log.Info("abstraction undecided, widening", "level", v.level, "reason", r.Reason)
				return Result{}, false, nil
			}
			return fromBackend(r), true, nil
		}
		if full {
			res, err := v.confirm(c.run, r)
			return res, true, err
		}
		s1, err := s.reconstruct(ctx, c, it)
		if err != nil {
			// design.md §5 rule 3: a failed reconstruction is UNKNOWN, never spurious
			return fromBackend(s1), true, err
		}
		switch s1.Verdict {
		case backend.Unsafe:
			res, err := v.confirm(s1.Run, s1)
			return res, true, err
		case backend.Unknown:
			return fromBackend(s1), true, nil
		}
		v.log.Debug("spurious counterexample", "level", v.level, "iteration", it, "visible_steps", max(len(c.seq), len(c.keys)), "blockers", len(c.blockers))
		if g, ok := s.(generalising); ok {
			// (generalise.go) a violation or the verdict may turn up
			if res, done, err := g.generalise(ctx, c); err != nil || done {
				return res, true, err
			}
		}
		if err := s.exclude(c, it); errors.Is(err, errWiden) {
			return Result{}, false, nil
		} else if err != nil {
			return Result{}, true, err
		}
	}
	return Result{}, false, nil
}

// checkRefined dumps and checks the refined abstraction ar of iteration it
// (code-to-code strategies) and records the iteration.
func (v *verifier) checkRefined(ctx context.Context, ar *program.Program, it int) (backend.Result, error) {
	v.dump(fmt.Sprintf("L%d-I%d-refined.c", v.level, it), ar)
	r, err := v.check(ctx, ar, fmt.Sprintf("L%d-I%d-abstract", v.level, it))
	v.recordAbstract(it, ar, r, err, r.Stats.Total)
	return r, err
}

// recordAbstract records iteration it of the current level: the check of
// the (refined) abstraction a, its answer and the time d it took.
func (v *verifier) recordAbstract(it int, a *program.Program, r backend.Result, err error, d time.Duration) {
	v.iters = append(v.iters, Iteration{Unwind: v.opts.Bounds.Unwind, Level: v.level, Iteration: it, Kept: len(v.sets[len(v.sets)-1].Kept),
		Instrs: size(a), Abstract: verdictWord(r, err), AbstractTime: d, BackendTime: d})
}

// recordReconstruct adds the check of the last iteration's counterexample
// on the original program (its answer and time d) to that iteration.
func (v *verifier) recordReconstruct(r backend.Result, err error, d time.Duration) {
	last := &v.iters[len(v.iters)-1]
	last.Reconstruct = verdictWord(r, err)
	last.ReconstructTime = d
	last.BackendTime += d
}

// checkReconstructed dumps and checks the reconstructed program p1 of
// iteration it (code-to-code strategies); an Unsafe answer's run is mapped
// back to the original program by m1.
func (v *verifier) checkReconstructed(ctx context.Context, p1 *program.Program, m1 *reconstruct.Map, it int) (backend.Result, error) {
	if err := v.sane("reconstruct", p1); err != nil {
		return backend.Result{}, err
	}
	v.dump(fmt.Sprintf("L%d-I%d-reconstructed.c", v.level, it), p1)
	name := fmt.Sprintf("L%d-I%d-reconstruct", v.level, it)
	check := func(ctx context.Context) (backend.Result, error) { return v.check(ctx, p1, name) }
	var s backend.Result
	var err error
	start := time.Now()
	if so := v.opts.Search; so != nil {
		// (see Options.Search) the search starts at once: the forced
		// program is what it is best at
		eo := *so
		eo.LoopFree, eo.Delay = true, 0
		eo.Logger = v.log.Named("explicit")
		s, err = explicit.Race(ctx, p1, v.opts.Bounds, eo, check,
			func(r backend.Result) backend.Result { return r },
			func(r backend.Result) bool { return r.Verdict != backend.Unknown })
	} else {
		s, err = check(ctx)
	}
	v.recordReconstruct(s, err, time.Since(start)) // (the backend's or the search's)
	if err == nil && s.Verdict == backend.Unsafe {
		s.Run = m1.Run(s.Run)
	}
	return s, err
}

// monitor is the order-only strategy, code to code: a counterexample is
// checked by forcing its visible label sequence on the original program,
// and a spurious sequence is removed by the trie monitors of package
// refine, which remove every abstract run with that sequence, or, after
// the sequence was generalised (generalise.go), every abstract run whose
// projection onto a smaller label set W is the sequence's.
type monitor struct {
	v        *verifier
	a        *program.Program
	visible  map[program.Label]bool
	patterns []refine.Pattern
}

func (m *monitor) check(ctx context.Context, it int) (backend.Result, *cex, error) {
	ar := m.a
	var amap *refine.Map
	if len(m.patterns) > 0 {
		var err error
		if ar, amap, err = refine.ExcludePatterns(m.a, m.patterns); err != nil {
			return backend.Result{}, nil, err
		}
		if err := m.v.sane("refine", ar); err != nil {
			return backend.Result{}, nil, err
		}
	}
	r, err := m.v.checkRefined(ctx, ar, it)
	if err != nil || r.Verdict != backend.Unsafe {
		return r, nil, err
	}
	// the visible label sequence in the order A′'s monitor accepted it
	// (a deferred Call/Spawn/Return step may run after steps the monitor
	// accepted later); spurious sequences are keyed by it
	c := &cex{run: r.Run}
	if amap != nil {
		c.seq, c.run = amap.VisibleIn(r.Run, m.visible), amap.Run(r.Run)
	} else {
		c.seq = program.Project(r.Run, m.visible)
	}
	return r, c, nil
}

func (m *monitor) reconstruct(ctx context.Context, c *cex, it int) (backend.Result, error) {
	p1, m1, err := reconstruct.OrderOnlySeq(m.v.work, m.visible, c.seq)
	if err != nil {
		return backend.Result{}, err
	}
	return m.v.checkReconstructed(ctx, p1, m1, it)
}

func (m *monitor) generalise(ctx context.Context, c *cex) (Result, bool, error) {
	return m.v.generalise(ctx, c, m.visible)
}

func (m *monitor) exclude(c *cex, _ int) error {
	w := c.w
	if w == nil {
		w = m.visible
	}
	m.patterns = append(m.patterns, refine.Pattern{Labels: w, Seq: project(c.seq, w)})
	return nil
}

func (m *monitor) close() {}

// incremental is the monitor strategy on an incremental backend: the
// abstraction is encoded once and spurious runs are excluded by
// constraints over its clocks; the original program is encoded once (for
// all levels, v.instP) and reconstruction is a check of it under
// constraints forcing the visible order of the run, whose unsat cores
// (blockers) are what is excluded.
type incremental struct {
	v       *verifier
	inc     backend.Incremental
	a       *program.Program
	ia      backend.Instance
	visible map[program.Label]bool
	seen    map[string]bool // visible sequences found spurious at this level
}

func (s *incremental) check(ctx context.Context, it int) (backend.Result, *cex, error) {
	v := s.v
	v.checks++
	start := time.Now()
	r, keys, err := s.ia.Check(ctx)
	v.recordAbstract(it, s.a, r, err, time.Since(start))
	if err == nil && r.Verdict == backend.Unsafe && (r.Run == nil || len(keys) != len(r.Run.Steps)) {
		err = program.Errorf(program.Internal, "incremental backend returned a run without step keys")
	}
	if err != nil || r.Verdict != backend.Unsafe {
		return r, nil, err
	}
	c := &cex{run: r.Run}
	for i, st := range r.Run.Steps {
		if s.visible[st.Label] {
			if keys[i] == "" {
				return backend.Result{}, nil, program.Errorf(program.Internal, "visible step %d (%s) has no key", i, st.Label)
			}
			c.keys = append(c.keys, keys[i])
		}
	}
	key := strings.Join(c.keys, " ")
	if s.seen[key] {
		// the exclusion of the previous spurious run did not hold on it
		return backend.Result{}, nil, program.Errorf(program.Internal, "refinement made no progress: the abstraction returned an excluded counterexample again")
	}
	s.seen[key] = true
	return r, c, nil
}

func (s *incremental) reconstruct(ctx context.Context, c *cex, it int) (backend.Result, error) {
	v := s.v
	if v.instP == nil {
		var err error
		if v.instP, err = s.inc.Open(ctx, v.work, v.opts.Bounds); err != nil {
			return backend.Result{}, err
		}
	}
	v.checks++
	start := time.Now()
	r, blks, err := v.instP.CheckForced(ctx, s.visible, c.keys, v.opts.Relax)
	v.recordReconstruct(r, err, time.Since(start))
	c.blockers = blks
	return r, err
}

func (s *incremental) exclude(c *cex, it int) error {
	s.v.dumpText(fmt.Sprintf("L%d-I%d-blockers.txt", s.v.level, it), blockersText(c.keys, c.blockers))
	for _, b := range c.blockers {
		s.v.log.Trace("blocker", "atoms", b.String())
		if err := s.ia.Exclude(b); err != nil {
			return err
		}
	}
	return nil
}

func (s *incremental) close() { s.ia.Close() }

// observerStrategy is the paper's pairing (design.md §1, "Refinement"): a
// counterexample π of A is checked by the values-and-order reconstruction
// (reconstruct.ValuesAndOrderSeq over the shared visible labels: P1 follows
// π's order of shared steps and the values of the replaced variables), and
// a spurious π is removed from A by the observer/controller construction
// (observer.Refine), which removes the runs of A that stay in the prefix
// tree of the spurious runs and nothing else. When the values-and-order
// reconstruction does not support π, the order-only one is used: it proves
// more (no run of P has π's visible label sequence), so removing π stays
// sound. When the observer cannot restore a node of the tree
// (observer.Refine returns Unsupported) or the backend cannot check the
// refined program, the level is given up (errWiden).
//
// A SAFE answer after a refinement is bounded, never a proof: the threads
// of A' resume in the middle of loops, so A' can be complete for the
// unwinding bound where A is not.
type observerStrategy struct {
	v               *verifier
	a               *program.Program
	kept            []string
	visible, shared map[program.Label]bool
	spurious        []*program.Run
}

func (o *observerStrategy) check(ctx context.Context, it int) (backend.Result, *cex, error) {
	v := o.v
	ar := o.a
	var amap *observer.Map
	if len(o.spurious) > 0 {
		var err error
		if ar, amap, err = observer.Refine(o.a, o.visible, o.spurious); err != nil {
			if program.KindOf(err) == program.Unsupported {
				v.log.Info("observer refinement not possible at this level, widening", "level", v.level, "reason", err)
				return backend.Result{}, nil, errWiden
			}
			return backend.Result{}, nil, err
		}
		if err := v.sane("observer", ar); err != nil {
			return backend.Result{}, nil, err
		}
	}
	r, err := v.checkRefined(ctx, ar, it)
	if err != nil && amap != nil && program.KindOf(err) == program.Unsupported {
		// the backend cannot check the refined program (e.g. a thread
		// resumed inside an atomic section); A itself it could
		v.log.Info("backend cannot check the refined abstraction, widening", "level", v.level, "reason", err)
		return backend.Result{}, nil, errWiden
	}
	if err != nil {
		return r, nil, err
	}
	switch r.Verdict {
	case backend.Safe:
		if len(o.spurious) > 0 {
			r.Proof, r.Complete = false, false
		}
		return r, nil, nil
	case backend.Unknown:
		return r, nil, nil
	}
	runA := r.Run
	if amap != nil {
		runA = amap.Run(r.Run)
	}
	// the run of A, with every store recomputed (the values the
	// reconstruction follows and the tree records)
	out, err := interp.Replay(o.a, runA)
	if err != nil {
		return backend.Result{}, nil, program.Errorf(program.Internal, "counterexample of the refined abstraction does not map to a run of the abstraction: %v", err)
	}
	if out.Status != interp.Violated {
		return backend.Result{}, nil, program.Errorf(program.Internal, "counterexample of the refined abstraction maps to a run of the abstraction without violation (%v)", out.Status)
	}
	return r, &cex{run: out.Run}, nil
}

func (o *observerStrategy) reconstruct(ctx context.Context, c *cex, it int) (backend.Result, error) {
	p := o.v.work
	p1, m1, err := reconstruct.ValuesAndOrderSeq(p, o.shared, c.run, o.kept)
	if program.KindOf(err) == program.Unsupported {
		o.v.log.Debug("values-and-order reconstruction not supported, order only", "reason", err)
		p1, m1, err = reconstruct.OrderOnlySeq(p, o.shared, program.Project(c.run, o.shared))
	}
	if err != nil {
		return backend.Result{}, err
	}
	return o.v.checkReconstructed(ctx, p1, m1, it)
}

func (o *observerStrategy) exclude(c *cex, _ int) error {
	o.spurious = append(o.spurious, c.run)
	return nil
}

func (o *observerStrategy) close() {}

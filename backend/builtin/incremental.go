package builtin

// Incremental instances (backend.Incremental): a program encoded once and
// kept alive in its solver, so that the CEGPV loop forces and excludes
// orders of steps with constraints over clocks (design.md §1, §3.1, §6).
//
// # Instance keys
//
// Every step record of the symbolic execution (one executed instance of an
// instruction: state merging makes it one per thread instance, call context,
// loop iteration and label) gets a key:
//
//	key    = frame ":" label loops
//	frame  = "main"                      the root frame of the main thread
//	       | key(spawn) ">" function     the root frame of a spawned thread
//	       | key(call) "/" function      a frame of an inlined call
//	loops  = "" | "[" back "=" n { "," back "=" n } "]"
//
// where back is the label of the back edge of an enclosing loop of the
// same function that has been taken n ≥ 1 times since the loop was entered
// (sorted by label), e.g. "main:main.9>worker:worker.7[worker.12=2]" is
// the third iteration of the loop closed at worker.12 in the thread
// created by the spawn at main.9. Keys use
// labels only (never program counters, object ids, block numbers or
// creation orders), so a program and its abstraction (same labels and
// control flow) give the same key to the same instance:
//   - state merging merges paths at the same label of the same frame and
//     iteration, which are one instance in both programs;
//   - pruning of constant guards only removes instances whose path is
//     infeasible (a key missing in P then makes F unsatisfiable, which is
//     right: no run of P takes that path); an abstraction has at least the
//     instances of the original;
//   - lock-region collapsing changes blocks and clocks, never step records.
//
// One caveat, shared with the non-incremental path: the thread bound
// (Bounds.Threads) counts the spawns of a label in symbolic-execution
// order, including spawns on paths that are infeasible only in the
// original; with a thread bound set the bounded verdicts of P and A may
// then differ (never with Threads = 0).
//
// Two step records with one key make Open fail (Unsupported), since the
// forced orders would then be ambiguous.
//
// # Order of steps
//
// The run of a model lists executed steps by (clock of their block, creation
// order): the order buildRun uses. Every label that SharedVisible marks in
// the encoded program gets its own block (a clock) even when it makes no
// shared access, so that visible steps are ordered by their own clocks and
// a visible local step (an assertion over local values, say) can be placed
// anywhere between its thread's neighbours, as in a real run. Steps of one
// block (an atomic section, a collapsed lock region) share its clock and are
// ordered by program order; a block's visible steps can then appear
// consecutively in a forced sequence (and only so). A visible instance
// without a block of its own (a visible set computed on another program)
// is positioned, like buildRun does, at the clock of the last executed block
// of its thread before it.
//
// # Atoms, F(seq) and cores
//
// The atoms of backend.Atom are terms over the run membership g(r) of step
// records, their positions pos(r) (the run order above: (clock, creation
// order)) and the conditions cond(r) of assertion records. A model's run
// ends at its first violated assertion (buildRun cuts it there), so
//
//	g(r) = pg(r) ∧ ∧_{a an assertion record} ¬(pg(a) ∧ ¬cond(a) ∧ pos(a) < pos(r))
//
// where r.pg is the presence guard (presence.go: a step of an atomic
// section that does not complete is not in the run). Steps a model
// executes after the run's end do not count: they are not part of the run,
// and a program and its abstraction may differ there (a thread stopped by
// a violation in P, so that its joiner waits forever, while the joiner of
// A goes on), which would make a core of P exclude the image of a real
// violation from A.
//
//	exec(a)          = g(a)
//	a < b            = g(a) ∧ g(b) ∧ pos(a) < pos(b)
//	fails(a)         = g(a) ∧ ¬cond(a)
//	exec(b) ⇒ a < b  = g(b) ⇒ (g(a) ∧ pos(a) < pos(b))
//
// a key the instance does not have is a step no run executes (g = false).
// Each atom is an exact predicate of the run buildRun makes of a model.
// F(seq) for seq = r0..rn, rn an assertion, is Flat(seq):
//
//	exec(r0) ∧ ∧_i r(i-1) < ri ∧ fails(rn) ∧ ∧_{v visible, not in seq} (exec(v) ⇒ rn < v)
//
// linear in |seq| + visible instances. CheckForced sends every atom as an
// assumption literal (check-sat-assuming); when the answer is unsat, the
// solver's unsat core is a subset of the atoms that no run satisfies, which
// is returned as the Blocker: a spurious counterexample then excludes every
// run of the abstraction that agrees with it on the core only, not just its
// exact visible sequence. Positions of visible steps are their own clocks
// in the abstraction and in the original alike (SharedVisible of an
// abstraction is included in SharedVisible of the original, so they have
// blocks of their own in both), which is what makes a Blocker mean the same
// in both programs.
//
// # Reductions and soundness
//
// Lock-region collapsing (locks.go), executing busy waits once (spin.go)
// and ordering symmetric thread instances (symmetry.go) are reductions:
// they keep the reachable violations of a program, not all its runs. An
// instance starts with all three.
//
//   - Check before any exclusion is sound on a reduced encoding: every
//     violation has a representative run in it.
//   - CheckForced is sound on a reduced encoding of P: every violation of P
//     has a representative run in it, which satisfies F of its own
//     sequence, and a core of a forced check is unsatisfiable with every
//     representative, so a blocker never removes the image of a
//     representative from A. A's run may name step instances that P's
//     reduced encoding lacks (an iteration of a busy wait that goes round):
//     their atoms are false (Instance), and their blockers remove runs of A
//     that are images of no representative, which is what they say.
//   - Excluding sequences is only sound when every run of the abstraction
//     is represented (a violation of P whose sequence was never excluded
//     must stay reachable in A), so the first Exclude re-encodes the
//     instance without reductions and keeps that encoding.
//
// The controller opens the original program P as an instance only for
// forced checks, which keep its reductions, and A for checks and
// exclusions, so A is encoded at most twice.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/smt"
	"cegpv.dev/cegpv/program"
)

var _ backend.Incremental = (*builtinBackend)(nil)

// instHooks records instance keys during the symbolic execution (called
// from symex.go when enc.inst is set).
type instHooks struct {
	ownBlock map[program.Label]bool // labels whose steps get a block of their own
	fkey     map[*frame]string
	tkey     map[*thread]string
	key      map[*stepRec]string
	byKey    map[string]*stepRec
	recs     []*stepRec // keyed step records in creation order
	dup      string     // a key given to two step records
	lastRun  []*stepRec // the step records of the last run built (run.go)
	labels   map[program.Label]*program.Instr
}

func newInstHooks(p *program.Program) *instHooks {
	h := &instHooks{ownBlock: program.SharedVisible(p), fkey: map[*frame]string{}, tkey: map[*thread]string{},
		key: map[*stepRec]string{}, byKey: map[string]*stepRec{}, labels: map[program.Label]*program.Instr{}}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			h.labels[in.Label] = in
		}
	}
	return h
}

func (h *instHooks) frameKey(fr *frame) string {
	if k, ok := h.fkey[fr]; ok {
		return k
	}
	// a root frame: the thread's key
	if k, ok := h.tkey[fr.th]; ok {
		return k
	}
	return "main"
}

// step names the step record rec of in, executed from st in frame fr.
func (h *instHooks) step(fr *frame, st *state, in *program.Instr, rec *stepRec) {
	var b strings.Builder
	b.WriteString(h.frameKey(fr))
	b.WriteByte(':')
	b.WriteString(string(in.Label))
	if len(st.loops) > 0 {
		type it struct {
			back program.Label
			n    int
		}
		var its []it
		for pc, l := range st.loops {
			if l.n > 0 && pc < len(fr.fn.Body) {
				its = append(its, it{fr.fn.Body[pc].Label, l.n})
			}
		}
		slices.SortFunc(its, func(a, b it) int { return strings.Compare(string(a.back), string(b.back)) })
		for i, x := range its {
			if i == 0 {
				b.WriteByte('[')
			} else {
				b.WriteByte(',')
			}
			b.WriteString(string(x.back))
			b.WriteByte('=')
			b.WriteString(strconv.Itoa(x.n))
			if i == len(its)-1 {
				b.WriteByte(']')
			}
		}
	}
	k := b.String()
	if _, ok := h.byKey[k]; ok && h.dup == "" {
		h.dup = k
	}
	h.key[rec] = k
	h.byKey[k] = rec
	h.recs = append(h.recs, rec)
}

func (h *instHooks) frame(nf *frame, call *stepRec, f *program.Func) {
	h.fkey[nf] = h.key[call] + "/" + f.Name
}

func (h *instHooks) thread(child *thread, spawn *stepRec) {
	h.tkey[child] = h.key[spawn] + ">" + child.fn.Name
}

// instance implements backend.Instance on a Session.
type instance struct {
	ctx      context.Context
	p        *program.Program
	bounds   backend.Bounds
	opts     Options
	s        *Session
	applied  reductions // the reductions of the encoding (see the comment at the top of this file)
	excluded []backend.Blocker
	nf       int // fresh names of assumption literals
	broken   error
}

// Open encodes p once and keeps it in a live solver (backend.Incremental).
func (b *builtinBackend) Open(ctx context.Context, p *program.Program, bounds backend.Bounds) (_ backend.Instance, err error) {
	defer program.Recover(&err)
	bounds = b.effective(bounds)
	s, applied, err := newSession(ctx, p, bounds, b.opts, true, redAll)
	if err != nil {
		return nil, err
	}
	return &instance{ctx: ctx, p: p, bounds: bounds, opts: b.opts, s: s, applied: applied}, nil
}

func (in *instance) Close() error {
	if in.s != nil {
		err := in.s.Close()
		in.s = nil
		return err
	}
	return nil
}

// guard runs f with ctx (and Bounds.Timeout) able to stop the solver; a
// stopped solver leaves the instance unusable.
func (in *instance) guard(ctx context.Context, f func() (backend.Result, error)) (backend.Result, error) {
	if in.broken != nil {
		return backend.Result{Verdict: backend.Unknown, Reason: in.broken.Error()}, in.broken
	}
	if in.s == nil {
		err := program.Errorf(program.Internal, "instance is closed")
		return backend.Result{Verdict: backend.Unknown, Reason: err.Error()}, err
	}
	if in.bounds.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, in.bounds.Timeout)
		defer cancel()
	}
	sv := in.s.solver
	stop := context.AfterFunc(ctx, func() { sv.Close() })
	res, err := f()
	if !stop() {
		// the solver was stopped: whatever it answered is not an answer
		in.broken = &program.Error{Kind: program.Timeout, Err: ctx.Err()}
		return backend.Result{Verdict: backend.Unknown, Reason: in.broken.Error(), Bounds: in.bounds}, in.broken
	}
	if err == nil && in.ctx.Err() != nil {
		err = &program.Error{Kind: program.Timeout, Err: in.ctx.Err()}
	}
	if err != nil && res.Reason == "" {
		res.Verdict, res.Reason = backend.Unknown, err.Error()
	}
	return res, err
}

// Check is Session.Check on the instance (with its exclusions), plus the key
// of every step of the run.
func (in *instance) Check(ctx context.Context) (_ backend.Result, _ []string, err error) {
	defer program.Recover(&err)
	var keys []string
	res, err := in.guard(ctx, func() (backend.Result, error) {
		h := in.s.enc.inst
		h.lastRun = h.lastRun[:0]
		res, err := in.s.Check()
		if err != nil || res.Verdict != backend.Unsafe {
			return res, err
		}
		if res.Run == nil || len(h.lastRun) != len(res.Run.Steps) {
			e := program.Errorf(program.Internal, "run of %d steps from %d step records", len(res.Run.Steps), len(h.lastRun))
			res, _ := in.s.unknown(e)
			return res, e
		}
		keys = make([]string, len(h.lastRun))
		for i, r := range h.lastRun {
			keys[i] = h.key[r]
			if r.in.Label != res.Run.Steps[i].Label {
				e := program.Errorf(program.Internal, "step %d of the run is %s, its record %s", i, res.Run.Steps[i].Label, r.in.Label)
				res, _ := in.s.unknown(e)
				return res, e
			}
		}
		return res, nil
	})
	if res.Verdict != backend.Unsafe {
		keys = nil
	}
	return res, keys, err
}

// CheckForced looks for a violation in a run satisfying F(seq) (push, the
// atoms of Flat(seq) as assumption literals, check, pop): first one without
// invalid accesses (Unsafe, replayed), then, if none, whether an invalid
// access is possible in such a run (Unknown). Each unsatisfiable check
// gives a core, and up to relax times the check is repeated with the atoms
// of the cores so far dropped (a run of the program close to the forced
// one; any violation found is real and replayed). Safe comes with the cores
// as Blockers.
func (in *instance) CheckForced(ctx context.Context, visible map[program.Label]bool, seq []string, relax int) (_ backend.Result, _ []backend.Blocker, err error) {
	defer program.Recover(&err)
	var blks []backend.Blocker
	res, err := in.guard(ctx, func() (backend.Result, error) {
		s := in.s
		sv := s.solver
		atoms, err := in.flat(visible, seq)
		if err != nil {
			return s.unknown(err)
		}
		in.nf++
		pfx := "ca" + strconv.Itoa(in.nf) + "_"
		var defs strings.Builder
		lits := make([]string, 0, len(atoms))
		byLit := map[string]backend.Atom{}
		for i, a := range atoms {
			t := in.atomTerm(a)
			if isTrue(t) {
				continue
			}
			if isFalse(t) {
				// no run satisfies this atom alone
				blks = []backend.Blocker{{a}}
				return s.result(backend.Safe, ""), nil
			}
			name := pfx + strconv.Itoa(i)
			fmt.Fprintf(&defs, "(declare-fun %s () Bool)\n(assert (=> %s %s))\n", name, name, t.s)
			lits = append(lits, name)
			byLit[name] = a
		}
		// core reads the unsat core of the last check as a Blocker; an
		// empty core (no violation at all) blocks with every atom.
		core := func() (backend.Blocker, []string, error) {
			names, err := sv.UnsatCore()
			if err != nil {
				return nil, nil, err
			}
			var b backend.Blocker
			for _, n := range names {
				a, ok := byLit[n]
				if !ok {
					return nil, nil, program.Errorf(program.BadOutput, "unsat core names %s, not an assumption", n)
				}
				b = append(b, a)
			}
			if len(b) == 0 {
				return atoms, lits, nil
			}
			return b, names, nil
		}
		sv.Push()
		defer sv.Pop()
		if err := sv.Send(defs.String()); err != nil {
			return s.unknown(err)
		}
		// 1. violations without invalid accesses, relaxing the order
		sv.Push()
		sv.Assert(not(s.bad).s)
		sv.Assert(s.viol.s) // implied by fails(rn), needed once relaxing drops it
		cur := lits
		var cores []backend.Blocker
		for round := 0; ; round++ {
			r, pushes, why, err := s.solveRun(cur)
			pop := func() {
				for i := 0; i <= pushes; i++ {
					sv.Pop()
				}
			}
			if err != nil {
				pop()
				return s.unknown(err)
			}
			if r == smt.Unknown {
				if why == "" {
					why = "solver: " + sv.ReasonUnknown()
				}
				pop()
				return s.result(backend.Unknown, why), nil
			}
			if r == smt.Sat {
				run, err := s.enc.buildRun(sv, nil)
				pop()
				return s.replayed(run, err)
			}
			b, names, err := core()
			if err != nil {
				sv.Pop()
				return s.unknown(err)
			}
			cores = append(cores, b)
			in.opts.Logger.Trace("forced check unsat", "round", round, "core", len(names), "assumed", len(cur))
			if round >= relax || len(names) == len(cur) {
				break
			}
			drop := map[string]bool{}
			for _, n := range names {
				drop[n] = true
			}
			var next []string
			for _, l := range cur {
				if !drop[l] {
					next = append(next, l)
				}
			}
			cur = next
		}
		sv.Pop()
		if len(s.enc.bad) == 0 {
			blks = cores
			return s.result(backend.Safe, ""), nil
		}
		// 2. the cores above hold without invalid accesses only; with
		// them, the forced order must be unsatisfiable too
		r, err := sv.CheckSatAssuming(lits)
		if err != nil {
			return s.unknown(err)
		}
		switch r {
		case smt.Unsat:
			b, _, err := core()
			if err != nil {
				return s.unknown(err)
			}
			blks = []backend.Blocker{b}
			return s.result(backend.Safe, ""), nil
		case smt.Sat:
			return s.result(backend.Unknown, s.badReason()), nil
		}
		return s.result(backend.Unknown, "solver: "+sv.ReasonUnknown()), nil
	})
	if res.Verdict != backend.Safe || err != nil {
		blks = nil
	}
	return res, blks, err
}

// Exclude asserts ¬b for all later checks. The first exclusion on a
// reduced encoding re-encodes the program without reductions (see the
// comment at the top of this file).
func (in *instance) Exclude(b backend.Blocker) error {
	if in.broken != nil {
		return in.broken
	}
	if in.s == nil {
		return program.Errorf(program.Internal, "instance is closed")
	}
	in.excluded = append(in.excluded, slices.Clone(b))
	if in.applied != 0 {
		return in.reencode(0)
	}
	return in.exclude1(in.excluded[len(in.excluded)-1])
}

// reencode replaces the encoding by one with at most the reductions red,
// with the exclusions so far.
func (in *instance) reencode(red reductions) error {
	s, applied, err := newSession(in.ctx, in.p, in.bounds, in.opts, true, red)
	if err != nil {
		in.broken = err
		return err
	}
	in.s.Close()
	in.s, in.applied = s, applied
	for _, x := range in.excluded {
		if err := in.exclude1(x); err != nil {
			return err
		}
	}
	return nil
}

func (in *instance) exclude1(b backend.Blocker) error {
	if len(b) == 0 {
		return program.Errorf(program.Internal, "empty blocker (it would exclude every run)")
	}
	var ts []*term
	for _, a := range b {
		ts = append(ts, in.atomTerm(a))
	}
	f := and(ts...)
	if isFalse(f) {
		return nil
	}
	if err := in.s.AddClause(not(f).s); err != nil {
		in.broken = err
		return err
	}
	return nil
}

// position is where a step record falls in the run order: the clock of its
// block (or of the last executed block of its thread before it) and its
// creation order.
type position struct {
	clk *term
	seq int
}

func (in *instance) pos(r *stepRec) position {
	if r.blk != nil {
		return position{clk: &term{s: r.blk.clock}, seq: r.seq}
	}
	// the clock buildRun uses: the block of the last executed step of the
	// thread before r that has a block, else the thread's start
	clk := &term{s: r.th.start.clock}
	for _, q := range r.th.steps {
		if q == r {
			break
		}
		if q.tail || q.blk == nil {
			continue
		}
		clk = ite(q.pg, &term{s: q.blk.clock}, clk)
	}
	return position{clk: clk, seq: r.seq}
}

// before is the strict run order of two distinct step records.
func (in *instance) before(a, b position) *term {
	e := in.s.enc
	if a.clk.s == b.clk.s {
		return boolc(a.seq < b.seq)
	}
	if a.seq < b.seq {
		return e.clockLE(a.clk.s, b.clk.s)
	}
	return e.clockLT(a.clk.s, b.clk.s)
}

// flat returns the atoms of F(seq) (see the comment at the top of this
// file). A key of seq the instance does not have gives exec(key) alone,
// which no run satisfies.
func (in *instance) flat(visible map[program.Label]bool, seq []string) (backend.Blocker, error) {
	h := in.s.enc.inst
	if len(seq) == 0 {
		return nil, program.Errorf(program.Internal, "forced sequence is empty")
	}
	inSeq := map[*stepRec]bool{}
	var rs []*stepRec
	for _, k := range seq {
		r := h.byKey[k]
		if r == nil {
			return backend.Blocker{{Kind: backend.Exec, A: k}}, nil
		}
		if !visible[r.in.Label] {
			return nil, program.Errorf(program.Internal, "forced step %s is at an invisible label", k)
		}
		if inSeq[r] {
			return nil, program.Errorf(program.Internal, "forced step %s repeats", k)
		}
		inSeq[r] = true
		rs = append(rs, r)
	}
	last := rs[len(rs)-1]
	if last.in.Op != program.OpAssert {
		return nil, program.Errorf(program.Internal, "forced sequence ends at %s, not at an assertion", last.in.Label)
	}
	out := backend.Blocker{{Kind: backend.Exec, A: seq[0]}}
	for i := 1; i < len(seq); i++ {
		out = append(out, backend.Atom{Kind: backend.Before, A: seq[i-1], B: seq[i]})
	}
	lk := seq[len(seq)-1]
	out = append(out, backend.Atom{Kind: backend.Fails, A: lk})
	for _, r := range h.recs {
		if r.tail || isFalse(r.pg) || inSeq[r] || !visible[r.in.Label] {
			continue
		}
		out = append(out, backend.Atom{Kind: backend.NotBefore, A: lk, B: h.key[r]})
	}
	return out, nil
}

// atomTerm is the term of an atom (see the comment at the top of this
// file).
func (in *instance) atomTerm(a backend.Atom) *term {
	h := in.s.enc.inst
	ra, rb := h.byKey[a.A], h.byKey[a.B]
	g := in.inRun
	switch a.Kind {
	case backend.Exec:
		return g(ra)
	case backend.Before:
		if ra == nil || rb == nil || ra == rb {
			return tFalse
		}
		return and(g(ra), g(rb), in.before(in.pos(ra), in.pos(rb)))
	case backend.Fails:
		if ra == nil || ra.in.Op != program.OpAssert || ra.assert == nil {
			return tFalse
		}
		return and(g(ra), not(ra.assert))
	case backend.NotBefore:
		if rb == nil {
			return tTrue
		}
		if ra == nil || ra == rb {
			return not(g(rb))
		}
		return implies(g(rb), and(g(ra), in.before(in.pos(ra), in.pos(rb))))
	}
	return tFalse
}

// inRun is g(r) (see the comment at the top of this file): r is executed
// and no violated assertion comes before it. Cached per session.
func (in *instance) inRun(r *stepRec) *term {
	if r == nil || r.tail {
		return tFalse
	}
	s := in.s
	if t := s.inRun[r]; t != nil {
		return t
	}
	parts := []*term{r.pg}
	pr := in.pos(r)
	for _, a := range s.enc.asserts {
		if a == r || a.tail || isFalse(a.pg) || (a.th == r.th && a.seq > r.seq) {
			continue
		}
		parts = append(parts, not(and(a.pg, not(a.assert), in.before(in.pos(a), pr))))
	}
	t := and(parts...)
	if s.inRun == nil {
		s.inRun = map[*stepRec]*term{}
	}
	s.inRun[r] = t
	return t
}

// keysOf returns the keys of all step instances of the encoding (tests).
func (in *instance) keysOf() map[string]program.Label {
	out := map[string]program.Label{}
	for k, r := range in.s.enc.inst.byKey {
		out[k] = r.in.Label
	}
	return out
}

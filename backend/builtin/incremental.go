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
//	loops  = "" | "[" head "=" n { "," head "=" n } "]"
//
// where head is the label of the head of an enclosing loop of the same
// function that has been re-entered n ≥ 1 times (sorted by label), e.g.
// "main:main.9>worker:worker.7[worker.3=2]" is the third iteration of the
// loop at worker.3 in the thread created by the spawn at main.9. Keys use
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
// # F(seq)
//
// With r0..rn the instances of seq (cut at the first key the instance does
// not have, that is not at a visible label, or that repeats), and
// pos(a) < pos(b) the strict run order above, and g(r) the presence guard
// of r (presence.go: a step of an atomic section that does not complete is
// not in the run):
//
//	h0 = g(r0); hi = h(i-1) ∧ g(ri) ∧ pos(r(i-1)) < pos(ri) ∧ (r(i-1) assertion ⇒ cond(r(i-1)))
//	sel_j = hj ∧ ¬cond(rj)          for each rj that is an assertion
//	below_i = ∨_{j<i} sel_j          (the violation is before position i of seq)
//	(VC, VS) = the position of the selected rj (an ite chain over sel_j)
//	F = ∨_j sel_j
//	    ∧ ∧_{v visible, not in seq}  g(v) ⇒ (VC,VS) < pos(v)
//	    ∧ ∧_{ri}                     below_i ∧ g(ri) ⇒ (VC,VS) < pos(ri)
//	    ∧ ∧_{a invisible assertion}  g(a) ∧ ¬cond(a) ⇒ (VC,VS) < pos(a)
//
// The sel_j exclude each other (sel_k needs cond(rj) for j < k), and every
// auxiliary symbol is defined by an equation, so F is an exact Boolean
// function of the model: it holds exactly when the run buildRun makes of the
// model has seq[0..j] as its visible steps up to its (first) violation, for
// some j. Hence ¬F can be asserted permanently (Exclude) and F pushed
// (CheckForced). The size is linear in |seq| + visible instances +
// assertions.
//
// # Reductions and soundness
//
// Lock-region collapsing (locks.go) is a reduction: it keeps the reachable
// violations of a program, not all its interleavings. An instance starts
// collapsed. CheckForced and Check before any exclusion are sound on the
// reduced encoding (every violation of P has a representative run in it,
// which satisfies F of its own sequence). Excluding sequences is only sound
// when every run of the abstraction is represented (a violation of P whose
// sequence was never excluded must stay reachable in A), so the first
// Exclude re-encodes the instance once without collapsing and keeps that
// encoding.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/smt"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/reconstruct"
	"github.com/hashicorp/go-hclog"
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
	h := &instHooks{ownBlock: reconstruct.SharedVisible(p), fkey: map[*frame]string{}, tkey: map[*thread]string{},
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
			head program.Label
			n    int
		}
		var its []it
		for pc, l := range st.loops {
			if l[0] > 0 && pc < len(fr.fn.Body) {
				its = append(its, it{fr.fn.Body[pc].Label, l[0]})
			}
		}
		slices.SortFunc(its, func(a, b it) int { return strings.Compare(string(a.head), string(b.head)) })
		for i, x := range its {
			if i == 0 {
				b.WriteByte('[')
			} else {
				b.WriteByte(',')
			}
			b.WriteString(string(x.head))
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

// encodeInst is encodeProgram (builtin.go) with instance keys: plainly, or
// with lock regions collapsed when collapse is set and possible.
func encodeInst(p *program.Program, bounds backend.Bounds, clockInt, collapse bool) (*enc, bool, error) {
	plain, err := encodeOnceInst(p, bounds, clockInt, nil, nil)
	if err != nil {
		return nil, false, err
	}
	if collapse {
		coll := plain.collapsible()
		regs := plain.collapsibleRegions(coll)
		if len(coll) > 0 || len(regs) > 0 {
			if c, err := encodeOnceInst(p, bounds, clockInt, coll, regs); err == nil {
				if err := c.finishSafe(); err == nil {
					return c, true, nil
				}
			}
		}
	}
	return plain, false, plain.finishSafe()
}

// encodeOnceInst is encodeOnce (builtin.go) with instance hooks.
func encodeOnceInst(p *program.Program, bounds backend.Bounds, clockInt bool, collapse map[cellKey]bool, regs map[int]bool) (e *enc, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, recovered(r)
		}
	}()
	var prev []*object
	for pass := 0; pass < 3; pass++ {
		e = newEnc(p, bounds, clockInt)
		e.inst = newInstHooks(p)
		e.collapse = collapse
		e.collapseRegs = regs
		e.prev = prev
		e.symex()
		if !e.anyDeref || sameObjects(prev, e.objs) {
			if e.inst.dup != "" {
				return nil, program.Errorf(program.Unsupported, "instance key %s names two step instances", e.inst.dup)
			}
			return e, nil
		}
		prev = e.objs
	}
	return nil, program.Errorf(program.Unsupported, "pointer targets do not stabilise")
}

// newInstSession is NewSession (builtin.go) on an instance encoding.
func newInstSession(ctx context.Context, p *program.Program, bounds backend.Bounds, opts Options, collapse bool) (*Session, bool, error) {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	s := &Session{ctx: ctx, p: p, bounds: bounds, opts: opts, start: time.Now()}
	clockInt := !opts.BVClocks
	if len(opts.Solver) > 0 && strings.Contains(opts.Solver[0], "boolector") {
		clockInt = false
	}
	e, collapsed, err := encodeInst(p, bounds, clockInt, collapse)
	if err != nil {
		return nil, false, err
	}
	s.enc = e
	s.encode = time.Since(s.start)
	s.queries()
	opts.Logger.Debug("instance encoded", "threads", len(e.threads), "events", len(e.events), "keys", len(e.inst.recs), "collapsed", collapsed, "time", s.encode)
	if err := ctx.Err(); err != nil {
		return nil, false, &program.Error{Kind: program.Timeout, Err: err}
	}
	sv, err := smt.Start(ctx, opts.Solver, opts.Logger)
	if err != nil {
		return nil, false, err
	}
	if opts.KeepFormula {
		sv.KeepTranscript()
	}
	s.solver = sv
	if isZ3(opts.Solver) && clockInt {
		sv.Send("(set-option :smt.arith.solver 2)\n")
	}
	if err := sv.Send(e.out.String()); err != nil {
		sv.Close()
		return nil, false, err
	}
	e.out.Reset()
	return s, collapsed, nil
}

// instance implements backend.Instance on a Session.
type instance struct {
	ctx       context.Context
	p         *program.Program
	bounds    backend.Bounds
	opts      Options
	s         *Session
	collapsed bool // the encoding collapses lock regions (see the package comment of this file)
	excluded  []excluded
	nf        int // fresh names of F terms
	broken    error
}

type excluded struct {
	visible map[program.Label]bool
	seq     []string
}

// Open encodes p once and keeps it in a live solver (backend.Incremental).
func (b *builtinBackend) Open(ctx context.Context, p *program.Program, bounds backend.Bounds) (backend.Instance, error) {
	s, collapsed, err := newInstSession(ctx, p, bounds, b.opts, true)
	if err != nil {
		return nil, err
	}
	return &instance{ctx: ctx, p: p, bounds: bounds, opts: b.opts, s: s, collapsed: collapsed}, nil
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
func (in *instance) Check(ctx context.Context) (backend.Result, []string, error) {
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

// CheckForced looks for a violation in a run satisfying F(seq) (push, F,
// check, pop): first one without invalid accesses (Unsafe, replayed), then,
// if none, whether an invalid access is possible in such a run (Unknown).
func (in *instance) CheckForced(ctx context.Context, visible map[program.Label]bool, seq []string) (backend.Result, error) {
	return in.guard(ctx, func() (backend.Result, error) {
		s := in.s
		sv := s.solver
		var defs strings.Builder
		f := in.formula(&defs, visible, seq)
		if isFalse(f) {
			return s.result(backend.Safe, ""), nil
		}
		sv.Push()
		defer sv.Pop()
		if err := sv.Send(defs.String()); err != nil {
			return s.unknown(err)
		}
		sv.Assert(f.s)
		sv.Push()
		sv.Assert(not(s.bad).s)
		r, pushes, why, err := s.solveRun()
		pop := func() {
			for i := 0; i <= pushes; i++ {
				sv.Pop()
			}
		}
		if err != nil {
			pop()
			return s.unknown(err)
		}
		switch r {
		case smt.Unknown:
			if why == "" {
				why = "solver: " + sv.ReasonUnknown()
			}
			pop()
			return s.result(backend.Unknown, why), nil
		case smt.Sat:
			run, err := s.enc.buildRun(sv)
			pop()
			if err != nil {
				if program.KindOf(err) == 0 {
					err = program.Errorf(program.Internal, "building the counterexample: %v", err)
				}
				return s.unknown(err)
			}
			return in.replayed(run)
		}
		pop()
		if len(s.enc.bad) == 0 {
			return s.result(backend.Safe, ""), nil
		}
		sv.Push()
		defer sv.Pop()
		sv.Assert(s.bad.s)
		r, err = s.check()
		if err != nil {
			return s.unknown(err)
		}
		switch r {
		case smt.Unsat:
			return s.result(backend.Safe, ""), nil
		case smt.Sat:
			reason := "possible invalid memory access"
			if vs, err := sv.GetValue(badTerms(s.enc.bad)); err == nil {
				for i, v := range vs {
					if v.Bool {
						b := s.enc.bad[i]
						reason = fmt.Sprintf("%s: %s", b.pos, b.why)
						break
					}
				}
			}
			return s.result(backend.Unknown, reason), nil
		}
		return s.result(backend.Unknown, "solver: "+sv.ReasonUnknown()), nil
	})
}

// replayed confirms a run with interp.Replay (design.md §5 rule 1).
func (in *instance) replayed(run *program.Run) (backend.Result, error) {
	s := in.s
	out, err := interp.Replay(s.p, run)
	if err != nil {
		e := program.Errorf(program.Internal, "counterexample does not replay: %v", err)
		res, _ := s.unknown(e)
		res.Run = run
		return res, e
	}
	if out.Status != interp.Violated {
		e := program.Errorf(program.Internal, "counterexample replays to %s, not a violation", out.Status)
		res, _ := s.unknown(e)
		res.Run = run
		return res, e
	}
	res := s.result(backend.Unsafe, "")
	res.Run = out.Run
	if res.Run == nil {
		res.Run = run
	}
	return res, nil
}

// Exclude asserts ¬F(seq) for all later checks. The first exclusion on a
// collapsed encoding re-encodes the program without collapsing (see the
// comment at the top of this file).
func (in *instance) Exclude(visible map[program.Label]bool, seq []string) error {
	if in.broken != nil {
		return in.broken
	}
	if in.s == nil {
		return program.Errorf(program.Internal, "instance is closed")
	}
	in.excluded = append(in.excluded, excluded{visible: visible, seq: slices.Clone(seq)})
	if in.collapsed {
		s, collapsed, err := newInstSession(in.ctx, in.p, in.bounds, in.opts, false)
		if err != nil {
			in.broken = err
			return err
		}
		in.s.Close()
		in.s, in.collapsed = s, collapsed
		for _, x := range in.excluded {
			if err := in.exclude1(x); err != nil {
				return err
			}
		}
		return nil
	}
	return in.exclude1(in.excluded[len(in.excluded)-1])
}

func (in *instance) exclude1(x excluded) error {
	var defs strings.Builder
	f := in.formula(&defs, x.visible, x.seq)
	if isFalse(f) {
		return nil
	}
	if err := in.s.solver.Send(defs.String()); err != nil {
		in.broken = err
		return err
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

// formula writes the definitions of F(seq)'s auxiliary symbols to defs and
// returns F (see the comment at the top of this file).
func (in *instance) formula(defs *strings.Builder, visible map[program.Label]bool, seq []string) *term {
	e := in.s.enc
	h := e.inst
	in.nf++
	pfx := "fz" + strconv.Itoa(in.nf) + "_"
	nn := 0
	def := func(t *term, sort string) *term {
		if t.c || len(t.s) < 24 {
			return t
		}
		nn++
		name := pfx + strconv.Itoa(nn)
		fmt.Fprintf(defs, "(declare-fun %s () %s)\n(assert (= %s %s))\n", name, sort, name, t.s)
		return &term{s: name, w: t.w}
	}
	// the instances of seq, cut at the first unusable key
	var rs []*stepRec
	idx := map[*stepRec]int{}
	for _, k := range seq {
		r := h.byKey[k]
		if r == nil || !visible[r.in.Label] {
			break
		}
		if _, dup := idx[r]; dup {
			break
		}
		idx[r] = len(rs)
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return tFalse
	}
	pos := make([]position, len(rs))
	for i, r := range rs {
		pos[i] = in.pos(r)
	}
	// prefixes, selections
	var hs []*term
	sel := make([]*term, len(rs))
	var sels []*term
	for i, r := range rs {
		var hi *term
		if i == 0 {
			hi = r.pg
		} else {
			prev := rs[i-1]
			ok := tTrue
			if prev.assert != nil {
				ok = prev.assert
			}
			hi = and(hs[i-1], r.pg, in.before(pos[i-1], pos[i]), ok)
		}
		hi = def(hi, "Bool")
		hs = append(hs, hi)
		sel[i] = tFalse
		if r.assert != nil && r.in.Op == program.OpAssert {
			sel[i] = def(and(hi, not(r.assert)), "Bool")
			sels = append(sels, sel[i])
		}
	}
	any := or(sels...)
	if isFalse(any) {
		return tFalse
	}
	// position of the violation
	vcSort, vsSort := e.clockSort(), "Int"
	zero := &term{s: e.clockZero()}
	vs := func(n int) *term { return &term{s: strconv.Itoa(n)} }
	if !e.clockInt {
		vsSort = "(_ BitVec 32)"
		vs = func(n int) *term { return &term{s: "(_ bv" + strconv.Itoa(n) + " 32)"} }
	}
	vc, vsq := zero, vs(0)
	for i := len(rs) - 1; i >= 0; i-- {
		if isFalse(sel[i]) {
			continue
		}
		vc = ite(sel[i], pos[i].clk, vc)
		vsq = ite(sel[i], vs(pos[i].seq), vsq)
	}
	VC := pfx + "vc"
	VS := pfx + "vs"
	fmt.Fprintf(defs, "(declare-fun %s () %s)\n(assert (= %s %s))\n", VC, vcSort, VC, vc.s)
	fmt.Fprintf(defs, "(declare-fun %s () %s)\n(assert (= %s %s))\n", VS, vsSort, VS, vsq.s)
	afterV := func(p position) *term {
		lt := e.clockLT(VC, p.clk.s)
		var seqLT *term
		if e.clockInt {
			seqLT = &term{s: "(< " + VS + " " + vs(p.seq).s + ")"}
		} else {
			seqLT = &term{s: "(bvult " + VS + " " + vs(p.seq).s + ")"}
		}
		return or(lt, and(&term{s: "(= " + VC + " " + p.clk.s + ")"}, seqLT))
	}
	// below_i: the selected violation is before index i
	below := make([]*term, len(rs))
	below[0] = tFalse
	for i := 1; i < len(rs); i++ {
		below[i] = def(or(below[i-1], sel[i-1]), "Bool")
	}
	conj := []*term{any}
	for _, r := range h.recs {
		if r.tail || isFalse(r.pg) {
			continue
		}
		if visible[r.in.Label] {
			if i, ok := idx[r]; ok {
				if i > 0 {
					conj = append(conj, implies(and(below[i], r.pg), afterV(pos[i])))
				}
				continue
			}
			conj = append(conj, implies(r.pg, afterV(in.pos(r))))
		} else if r.in.Op == program.OpAssert && r.assert != nil {
			conj = append(conj, implies(and(r.pg, not(r.assert)), afterV(in.pos(r))))
		}
	}
	return def(and(conj...), "Bool")
}

// keysOf returns the keys of all step instances of the encoding (tests).
func (in *instance) keysOf() map[string]program.Label {
	out := map[string]program.Label{}
	for k, r := range in.s.enc.inst.byKey {
		out[k] = r.in.Label
	}
	return out
}

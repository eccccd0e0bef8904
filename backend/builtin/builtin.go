// Package builtin is cegpv's default backend: a symbolic bounded model
// checker for concurrent programs.
//
// Check unwinds loops and inlines calls up to the bounds, executes every
// thread instance symbolically to SSA form with path guards, and encodes
// the interleavings with the partial-order (clock) encoding of Alglave,
// Kroening and Tautschnig (CAV 2013): every block that executes atomically
// (one instruction, or a whole atomic section) has a clock; its
// shared-memory accesses are events; reads-from variables choose, for each
// read, the write it sees, with no write of the same cell in between. The
// formula (bit-precise, QF_ABV plus integer or bit-vector clocks) is solved
// by an SMT-LIB2 solver process (package smt). A counterexample is rebuilt
// from the model, ordered by the clocks, and replayed with interp.Replay
// before Unsafe is reported.
//
// Assumptions, locks and joins strengthen the path guard of their thread:
// a thread whose assumption fails simply has no later events, which gives
// exactly the prefix semantics of reachability (a blocked thread never
// hides a violation of another thread).
//
// A thread goes on after an assertion only where it holds: a run ends at
// its first violation (interp), so after assert(0), the lowering of
// __VERIFIER_error, the path is dead.
//
// Encoding details (see the files): reads-from uses the linear "last write"
// form (concur.go), where writes statically before a read (earlier in its
// thread, or in an ancestor before the spawn leading to it) need no clock
// comparison and the latest one that surely happens hides the others; a
// block's reads see memory before it, its writes are flushed at its end
// (encode.go), and a cell a block writes only under a condition (a store
// through a symbolic index or a pointer with several targets, a write in
// one branch) is read only if the block reads it later: the write event's
// guard carries the condition, so its value elsewhere is a placeholder
// (centry), and a block reads each cell at most once, at its start, under
// the block's guard whatever path or operand needs the value
// (blockStart); x % d is x - (x / d) * d with the quotient shared, plus the
// remainder's bounds as lemmas (eval.go). Three reductions keep every reachable
// violation while representing many runs by one (type reductions):
//
//   - lock regions (pthread mutexes and user-defined atomic lock functions,
//     also on a pointer parameter: acquire(&m)) run as one block when no
//     other thread touches their data without the lock, or, by Lipton's
//     reduction, when a region that always completes has at most one racy
//     access (locks.go);
//   - busy-wait loops (while (l != s);) are executed once, after a wait of
//     any length (spin.go);
//   - symmetric thread instances (a spawn in a loop, same function and
//     argument, handle never read) are ordered by their first shared access
//     (symmetry.go).
//
// Two precisions of memory make the formula smaller without dropping
// runs: a global that nothing stores into is read as its initial value,
// with no event (a thread count in a global folds the spawn loops to
// constants); a read of a global's pointer cell points only into the
// targets the program writes there, found over encoding passes (encodeOnce
// checks that each pass's writes lie within what its reads assumed, and
// encodes again otherwise, falling back to unknown targets), instead of
// into every object whose address is taken.
//
// Anything the encoding cannot represent faithfully is an Unsupported
// error; accesses that would be execution errors in the interpreter
// (invalid pointers, out-of-bounds indices, accesses to freed heap blocks,
// double frees: free clears a liveness cell of the block, symex.go) or that
// the encoding does not model (reads beyond the modelled first cells of a
// heap block of symbolic size, cells of a large array beyond
// max(64, 8×unwind) at a variable index) make the answer Unknown unless a
// violation is found that avoids them.
//
// Check runs iterative deepening for bugs around the encoding (deepen):
// the encoding at unwind 1 (or Bounds.DeepenFrom), 2, …, Unwind-1 first,
// until a step takes more than deepenJump; a violation found there is a
// real run, found at a fraction of the cost; a Safe step that cut no path
// is the final answer (Options.NoDeepening turns it off).
//
// The explicit-state search of package explicit is not the backend's: the
// library (cegpv.Check) races it beside whole checks, whatever the backend.
//
// Results: Unsafe only with a run that interp.Replay confirms (a run that
// does not replay is an Internal error): a violated assertion, or, with
// unwinding assertions, a run that reaches a loop or recursion bound
// (after the assertions: a run that violates one is reported first); Safe
// holds for the bounds (Result.Bounds) and is a proof (Result.Proof) when
// unwinding assertions were requested and no path reaches a cut (loop,
// recursion or thread bound). Loops are bounded per back edge and entry
// (machine.Unwinder's rule), so that a run reaching a bound replays.
package builtin

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/smt"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"github.com/hashicorp/go-hclog"
)

// Options configure the backend.
type Options struct {
	Solver []string // solver command line; nil = z3 -in -smt2
	Logger hclog.Logger
	// BVClocks uses bit-vector clocks instead of integers (for solvers
	// without integer arithmetic, e.g. boolector). Chosen automatically
	// from the solver name when false.
	BVClocks bool
	// KeepFormula keeps the SMT-LIB2 text in Result.Log (for --dump).
	KeepFormula bool
	// NoSymmetry leaves out the ordering of symmetric thread instances
	// (symmetry.go), e.g. to compare verdicts with and without it.
	NoSymmetry bool
	// NoDeepening checks only at the bounds asked for, without first
	// looking for violations at smaller unwindings (see Check).
	NoDeepening bool
	// BeyondSolver is the solver command line of the checks beyond the
	// bounds (Bounds.DeepenFrom > 0, cegpv.Beyond), which unroll loops
	// several times deeper than the bounds, and of programs that create
	// no thread (the lazy sequentialisation of --rounds). nil: Yices 2
	// (the "yices" preset) when it is installed, measured faster than z3
	// on these deep bit-vector formulas (docs/bench/beyond-yices) and on
	// sequentialisations (docs/bench/rounds: 0.15 s against 74 s on
	// safe024_rmo at 2 rounds), else Solver.
	BeyondSolver []string
}

type builtinBackend struct{ opts Options }

// New returns the built-in backend.
func New(opts Options) backend.Backend {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.BeyondSolver == nil {
		opts.BeyondSolver = opts.Solver
		if y, err := smt.Command("yices"); err == nil && smt.Available(y) {
			opts.BeyondSolver = y
		}
	}
	return &builtinBackend{opts: opts}
}

func (b *builtinBackend) Name() string { return "builtin" }

// Capabilities: incremental, deepening, in-process, every trace followed.
func (b *builtinBackend) Capabilities() backend.Capabilities {
	return backend.Capabilities{Incremental: true, Deepens: true}
}

// Check verifies p under bounds by the symbolic encoding, after iterative
// deepening (see deepen).
func (b *builtinBackend) Check(ctx context.Context, p *program.Program, bounds backend.Bounds) (_ backend.Result, err error) {
	defer program.Recover(&err)
	if bounds.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, bounds.Timeout)
		defer cancel()
	}
	bounds = b.effective(bounds)
	start := time.Now()
	res, err := b.symbolic(ctx, p, bounds)
	res.Stats.Total = time.Since(start)
	return res, err
}

// symbolic is the check by the SMT encoding: deepening, then the bounds.
func (b *builtinBackend) symbolic(ctx context.Context, p *program.Program, bounds backend.Bounds) (backend.Result, error) {
	if !b.opts.NoDeepening {
		if res, done, err := b.deepen(ctx, p, bounds); done {
			return res, err
		}
	}
	return b.checkAt(ctx, p, bounds)
}

// optsFor returns the options of a session on p at bounds: beyond the
// bounds of the first check (Bounds.DeepenFrom), and on a program that
// creates no thread, with the BeyondSolver.
func (b *builtinBackend) optsFor(p *program.Program, bounds backend.Bounds) Options {
	opts := b.opts
	if bounds.DeepenFrom > 0 || !p.Spawns() {
		opts.Solver = opts.BeyondSolver
	}
	return opts
}

func (b *builtinBackend) checkAt(ctx context.Context, p *program.Program, bounds backend.Bounds) (backend.Result, error) {
	s, err := NewSession(ctx, p, bounds, b.optsFor(p, bounds))
	if err != nil {
		return backend.Result{Verdict: backend.Unknown, Reason: err.Error(), Bounds: bounds}, err
	}
	defer s.Close()
	return s.Check()
}

// deepen is iterative deepening for bugs (ESBMC's incremental BMC): before
// the check at bounds, it checks at unwind 1, 2, …, bounds.Unwind-1 (beyond
// the bounds, deepenSteps' wider steps up to the bounds, after a first
// step with thinThreads threads per spawn site when a loop spawns), each
// step with at most deepenShare of the CPU time left (all of it beyond the
// bounds, where the steps are the search), and stops at the first step that
//   - finds a violation: that run is a real counterexample (it replays on
//     p like any other), found with less work than at the full bounds,
//     which is returned (done);
//   - is Safe and cut no path (no loop, recursion or spawn reached the
//     step's bound): every run of p was explored, so the answer is that of
//     the full bounds too, returned with the full bounds (done);
//   - ends otherwise (timeout, an invalid access, an error), or is Safe
//     after more than deepenJump: the full check decides (not done);
//     beyond the bounds (Bounds.DeepenFrom), such a step ends the search
//     instead (done, with its answer), except an invalid access: a deeper
//     step may find a violation that avoids it (sigma_false: the array
//     index is out of bounds on runs the loops' cut leaves incomplete).
//
// A Safe step that cut paths says nothing about deeper runs, so the next
// step follows. The shallow steps cost little next to the full one when
// each unwinding costs several times the one before, the rule in
// concurrent programs.
func (b *builtinBackend) deepen(ctx context.Context, p *program.Program, bounds backend.Bounds) (backend.Result, bool, error) {
	opts := b.optsFor(p, bounds)
	share := deepenShare
	if bounds.DeepenFrom > 0 {
		// beyond the bounds a step that does not end ends the search, so
		// nothing is kept for a later check: a step may use all that is left
		share = 1
	}
	type stepResult struct {
		res               backend.Result
		complete, invalid bool
		took              time.Duration
		err               error
	}
	step := func(sb backend.Bounds, share float64) (stepResult, bool) {
		sctx, cancel := budget.WithShare(ctx, "a step of the deepening", share, 0)
		defer cancel()
		// a bound reached below the bounds is no unwinding violation at
		// them: the shallow steps look for assertion violations only
		sb.UnwindingAssertions, sb.UnwindingOnly = false, ""
		s, err := NewSession(sctx, p, sb, opts)
		if err != nil {
			return stepResult{err: err}, false
		}
		res, err := s.Check()
		r := stepResult{res, s.enc.coversAll(), s.invalid, 0, err}
		s.Close()
		r.took = budget.Used(sctx)
		b.opts.Logger.Debug("deepening", "unwind", sb.Unwind, "threads", sb.Threads, "verdict", res.Verdict, "reason", res.Reason, "complete", r.complete)
		return r, true
	}
	if bounds.DeepenFrom > 0 && spawnsInLoop(p) && (bounds.Threads == 0 || bounds.Threads > thinThreads) {
		// beyond the bounds, first with few threads per spawn site (the
		// others dormant, spawnStep): most races need two instances, and
		// the loops that create thousands of threads are cheap then
		sb := bounds.WithUnwind(bounds.DeepenFrom)
		sb.Threads = thinThreads
		r, ok := step(sb, thinShare)
		switch {
		case !ok && program.KindOf(r.err) == program.Unsupported:
			return backend.Result{Verdict: backend.Unknown, Reason: r.err.Error(), Bounds: bounds}, true, r.err
		case ok && r.err == nil && r.res.Verdict == backend.Unsafe:
			return r.res, true, nil
		}
		// otherwise the steps with every thread follow (a step that did
		// not end here tells little of them: they may find a shallower run)
	}
	for _, k := range deepenSteps(bounds) {
		r, ok := step(bounds.WithUnwind(k), share) // (per-loop bounds at most k too)
		if !ok {
			if program.KindOf(r.err) == program.Unsupported {
				return backend.Result{Verdict: backend.Unknown, Reason: r.err.Error(), Bounds: bounds}, true, r.err
			}
			return backend.Result{}, false, nil
		}
		res, err := r.res, r.err
		switch {
		case err == nil && r.invalid && bounds.DeepenFrom > 0:
			// beyond the bounds: no violation that avoids an invalid
			// access within this unwinding, one may lie deeper (the
			// access may be an artefact of cutting the loops here)
		case err != nil || res.Verdict == backend.Unknown:
			if bounds.DeepenFrom > 0 {
				// beyond the bounds, a deeper check will not end where
				// this one did not
				res.Bounds = bounds
				return res, true, err
			}
			return backend.Result{}, false, nil
		case res.Verdict == backend.Unsafe:
			return res, true, nil
		case r.complete:
			res.Bounds = bounds
			res.Proof = bounds.UnwindingAssertions
			res.Complete = true
			return res, true, nil
		case bounds.DeepenFrom == 0 && r.took > deepenJump:
			// each unwinding costs several times the one before, so the
			// steps left before the bounds would add a third or more to
			// the check at the bounds, which finds their bugs too
			return backend.Result{}, false, nil
		}
	}
	if bounds.DeepenFrom > 0 {
		// beyond the bounds the last step reached them: nothing found
		return backend.Result{Verdict: backend.Safe, Bounds: bounds}, true, nil
	}
	return backend.Result{}, false, nil
}

// deepenSteps returns the unwindings deepen checks: 1, 2, …, Unwind-1
// before the check at the bounds; beyond them (Bounds.DeepenFrom), from
// DeepenFrom on, each half again the one before, up to the first at or past
// Unwind (6, 9, 14, 21 beyond unwind 5): the search's steps are not the
// user's bounds, and a deep bug is reached before the steps below it have
// used the time (nondet-loop-bound-1 needs 21: 6 s in four steps, more
// than 15 s one unwinding at a time).
func deepenSteps(b backend.Bounds) []int {
	var ks []int
	if b.DeepenFrom <= 0 {
		for k := 1; k < b.Unwind; k++ {
			ks = append(ks, k)
		}
		return ks
	}
	for k := b.DeepenFrom; ; k = max(k+1, (3*k+1)/2) {
		ks = append(ks, k)
		if k >= b.Unwind {
			return ks
		}
	}
}

// thinThreads is the threads per spawn site of the first step beyond the
// bounds (deepen) when a spawn lies in a loop, and thinShare the share of
// the CPU time left that step may use.
const (
	thinThreads = 1
	thinShare   = 0.5
)

// spawnsInLoop reports whether p has a Spawn between a loop's head and its
// back edge (a spawn site that may create many threads).
func spawnsInLoop(p *program.Program) bool {
	for _, f := range p.Funcs {
		for pc := range f.Loops() {
			if f.Body[pc].Op == program.OpSpawn {
				return true
			}
		}
	}
	return false
}

// deepenJump ends deepen after a Safe step that took more CPU time
// (encoding and solver, package budget): the check at
// the bounds follows at once. Not beyond the bounds (Bounds.DeepenFrom),
// where the bounds are a limit of the search, not its goal.
const deepenJump = time.Second

// deepenShare is the share of the CPU time left (budget.Left) that one
// step of deepen may use; the rest stays for the check at the full bounds
// (within the bounds; beyond them a step may use all that is left).
const deepenShare = 0.75

// effective returns the bounds the backend really applies: it has no
// context bound and explores every interleaving within the other bounds (a
// stronger check than the one asked for), so results state no context
// bound.
func (b *builtinBackend) effective(bounds backend.Bounds) backend.Bounds {
	if bounds.Contexts > 0 {
		if b.opts.Logger != nil {
			b.opts.Logger.Warn("the built-in backend has no context bound: every interleaving within the other bounds is explored", "context_bound", bounds.Contexts)
		}
		bounds.Contexts = 0
	}
	return bounds
}

// Session is an encoded instance kept alive in its solver, so that
// refinement can add constraints over clocks between checks (design.md §1,
// §6) instead of re-encoding the program:
//
//	s, err := builtin.NewSession(ctx, p, bounds, opts)
//	defer s.Close()
//	res, err := s.Check()               // like Backend.Check
//	cs, gs := s.ClockOf("worker.3")     // clocks (and guards) of a label's instances
//	s.AddClause("(or (not g1) (< c7 c12))") // e.g. forbid or force an order
//	res, err = s.Check()                // solves again with the clause
//
// Each check runs inside push/pop, so clauses added with AddClause persist
// while the property queries do not. Only labels of steps that belong to a
// block (shared-memory accesses, synchronisation, atomic sections) have
// clocks; a thread-local step is ordered by its thread's surrounding blocks.
type Session struct {
	ctx    context.Context
	p      *program.Program
	bounds backend.Bounds
	opts   Options
	enc    *enc
	solver *smt.Solver
	// invalid: the last Check found no violation that avoids an invalid
	// access, and a run that reaches one (its answer is Unknown)
	invalid bool
	start   time.Time
	encode  time.Duration
	viol    *term
	bad     *term
	fit     *term              // the heap blocks of symbolic size of the run fit their modelled prefix
	inRun   map[*stepRec]*term // incremental.go: run membership of step records
}

// queries builds the terms of the checks from the encoding.
func (s *Session) queries() {
	e := s.enc
	var viols []*term
	for _, a := range e.asserts {
		viols = append(viols, and(a.g, not(a.assert)))
	}
	s.viol = or(viols...)
	var bads []*term
	for _, b := range e.bad {
		bads = append(bads, b.g)
	}
	s.bad = or(bads...)
	var fits []*term
	for _, o := range e.symAllocs {
		fits = append(fits, implies(o.alloc.pg, cmp("bvule", e.countOf(o), bvc(e.offW, uint64(o.ncells)))))
	}
	s.fit = and(fits...)
}

// solveRun solves the violation query pushed by the caller. A run lists
// one value per cell of each heap block it allocates, so a model with a
// block of symbolic size larger than its modelled prefix gives no run (its
// other cells are never read: their values do not matter, but there are
// too many): the query is then solved again with the blocks bounded, in a
// scope of its own. The caller pops pushes scopes after using the model.
// Unknown with a reason when a violation exists only with larger blocks.
// With assume, the checks assume those literals (check-sat-assuming); an
// Unsat answer then always comes from the first check (pushes = 0), so its
// unsat core is one of the query alone.
func (s *Session) solveRun(assume []string) (r smt.Result, pushes int, reason string, err error) {
	sv := s.solver
	check := s.check
	if assume != nil {
		check = func() (smt.Result, error) { return sv.CheckSatAssuming(assume) }
	}
	r, err = check()
	if err != nil || r != smt.Sat || isTrue(s.fit) {
		return r, 0, "", err
	}
	vs, err := sv.GetValue([]string{s.fit.s})
	if err != nil {
		return r, 0, "", err
	}
	if vs[0].Bool {
		return r, 0, "", nil
	}
	sv.Push()
	sv.Assert(s.fit.s)
	r, err = check()
	if err == nil && r == smt.Unsat {
		r, reason = smt.Unknown, "a violation needs a heap block of symbolic size larger than its modelled prefix"
	}
	return r, 1, reason, err
}

// NewSession encodes p and loads the formula into a fresh solver.
func NewSession(ctx context.Context, p *program.Program, bounds backend.Bounds, opts Options) (*Session, error) {
	s, _, err := newSession(ctx, p, bounds, opts, false, redAll)
	return s, err
}

// reductions are the ways an encoding may represent some runs of a program
// by others while keeping every reachable violation.
type reductions uint8

const (
	redCollapse reductions = 1 << iota // lock regions run as one block (locks.go)
	redSpin                            // busy waits executed once (spin.go)
	redSym                             // symmetric thread instances ordered (symmetry.go)
	redAll      = redCollapse | redSpin | redSym
)

// newSession encodes p (with instance keys when inst is set, for
// incremental instances; with the reductions of red where they apply) and
// loads the formula into a fresh solver. applied says which reductions the
// encoding applies.
func newSession(ctx context.Context, p *program.Program, bounds backend.Bounds, opts Options, inst bool, red reductions) (s *Session, applied reductions, err error) {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	s = &Session{ctx: ctx, p: p, bounds: bounds, opts: opts, start: time.Now()}
	clockInt := !opts.BVClocks
	if len(opts.Solver) > 0 && strings.Contains(opts.Solver[0], "boolector") {
		clockInt = false
	}
	e, applied, err := encodeProgram(ctx, p, bounds, clockInt, inst, red)
	if err != nil {
		return nil, 0, err
	}
	if red&redSym != 0 && !opts.NoSymmetry {
		if e.symmetry(); e.symGroups > 0 {
			applied |= redSym
		}
	}
	s.enc = e
	s.encode = time.Since(s.start)
	s.queries()
	opts.Logger.Debug("encoded", "threads", len(e.threads), "events", len(e.events), "bytes", e.out.Len(), "instance", inst, "reductions", applied, "time", s.encode)
	if err := ctx.Err(); err != nil {
		return nil, 0, &program.Error{Kind: program.Timeout, Err: err}
	}
	sv, err := smt.Start(ctx, opts.Solver, opts.Logger)
	if err != nil {
		return nil, 0, err
	}
	if opts.KeepFormula {
		sv.KeepTranscript()
	}
	s.solver = sv
	if inst {
		// CheckForced reads unsat cores of its assumptions; the option
		// must come before the first assertion.
		if err := sv.EnableCores(); err != nil {
			sv.Close()
			return nil, 0, err
		}
	}
	if isZ3(opts.Solver) && clockInt {
		// z3's default arithmetic solver is very slow on clock orders in
		// incremental mode (after push); the older simplex solver is
		// several times faster on these formulas (measured).
		sv.Send("(set-option :smt.arith.solver 2)\n")
	}
	if err := sv.Send(e.out.String()); err != nil {
		sv.Close()
		return nil, 0, err
	}
	e.out.Reset()
	return s, applied, nil
}

// encodeProgram runs the symbolic execution and the concurrency encoding
// (with instance keys when inst is set): first plainly (with busy waits
// executed once if red has redSpin), then, if red has redCollapse and lock
// regions can be collapsed, again with them collapsed (falling back to the
// first encoding if that fails). applied says which reductions were
// applied (symmetry is added by newSession).
func encodeProgram(ctx context.Context, p *program.Program, bounds backend.Bounds, clockInt, inst bool, red reductions) (e *enc, applied reductions, err error) {
	// with unwinding assertions a busy wait is a loop like any other: a
	// thread that waits long enough reaches its bound (CBMC's unwinding
	// assertion fails), which the reduction would hide
	spin := red&redSpin != 0 && !bounds.UnwindingAssertions
	plain, err := encodeOnce(ctx, p, bounds, clockInt, inst, spin, nil, nil)
	if err != nil {
		return nil, 0, err
	}
	if plain.spinUsed {
		applied |= redSpin
	}
	if red&redCollapse != 0 {
		coll := plain.collapsible()
		regs := plain.collapsibleRegions(coll)
		if len(coll) > 0 || len(regs) > 0 {
			if c, err := encodeOnce(ctx, p, bounds, clockInt, inst, spin, coll, regs); err == nil {
				if err := c.finishSafe(); err == nil {
					return c, applied | redCollapse, nil
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, &program.Error{Kind: program.Timeout, Err: fmt.Errorf("encoding: %w", err)}
	}
	return plain, applied, plain.finishSafe()
}

func (e *enc) finishSafe() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = recovered(r)
		}
	}()
	e.finish()
	return nil
}

func recovered(r any) error {
	if pe, ok := r.(*program.Error); ok {
		return pe
	}
	return program.Errorf(program.Internal, "encoding: %v\n%s", r, debug.Stack())
}

// encodeOnce runs the symbolic execution, repeated when pointers of unknown
// target meet objects created later.
func encodeOnce(ctx context.Context, p *program.Program, bounds backend.Bounds, clockInt, inst, spin bool, collapse map[cellKey]bool, regs map[int]bool) (e *enc, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, recovered(r)
		}
	}()
	var prev []*object
	stored := map[string]bool{} // globals a store through a pointer may reach
	// Reads of the pointer cells of globals: unknown targets in the first
	// pass; when some was, the next passes read them with the targets the
	// previous pass wrote (readPts, ids of prev's objects), grown until
	// every pointer a pass writes is among those its reads assumed
	// (ptsHold) with the same objects; after maxPtsPasses refinements,
	// unknown again (refine false).
	var readPts map[cellKey]map[int]bool
	refine, ptsPasses := true, 0
	for pass := 0; pass < 3; pass++ {
		e = newEnc(p, bounds, clockInt)
		e.stored = stored
		e.ctx = ctx
		if inst {
			e.inst = newInstHooks(p)
		}
		e.spinOK = spin
		e.collapse = collapse
		e.collapseRegs = regs
		e.prev = prev
		e.readPts = readPts
		e.symex()
		if err := ctx.Err(); err != nil {
			return nil, &program.Error{Kind: program.Timeout, Err: fmt.Errorf("encoding: %w", err)}
		}
		if len(e.constStored) > 0 {
			// reads of these globals were taken as their initial
			// values: encode again (this does not count as a pass,
			// and ends since stored only grows)
			for _, n := range e.constStored {
				stored[n] = true
			}
			pass--
			continue
		}
		if refine && (readPts == nil && e.anyGlobalPtrRead || readPts != nil && (!e.ptsHold() || !sameObjects(prev, e.objs))) {
			ptsPasses++
			if ptsPasses > maxPtsPasses {
				refine, readPts, prev = false, nil, nil
			} else {
				readPts = unionPts(readPts, e.writtenPts)
				prev = e.objs
			}
			pass--
			continue
		}
		if !e.anyDeref || sameObjects(prev, e.objs) {
			if inst && e.inst.dup != "" {
				return nil, program.Errorf(program.Unsupported, "instance key %s names two step instances", e.inst.dup)
			}
			return e, nil
		}
		prev = e.objs
	}
	return nil, program.Errorf(program.Unsupported, "pointer targets do not stabilise")
}

// maxPtsPasses bounds the passes that refine the targets of the pointer
// cells of globals (encodeOnce).
const maxPtsPasses = 4

// unionPts returns a ∪ b (a nil entry, unknown, absorbs).
func unionPts(a, b map[cellKey]map[int]bool) map[cellKey]map[int]bool {
	out := map[cellKey]map[int]bool{}
	for _, m := range []map[cellKey]map[int]bool{a, b} {
		for k, ids := range m {
			addPts(out, k, ids)
		}
	}
	return out
}

func isZ3(argv []string) bool {
	return len(argv) == 0 || strings.Contains(filepath.Base(argv[0]), "z3")
}

func sameObjects(a, b []*object) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name || a[i].ncells != b[i].ncells {
			return false
		}
	}
	return true
}

// Close ends the solver.
func (s *Session) Close() error {
	if s.solver != nil {
		return s.solver.Close()
	}
	return nil
}

// ClockOf returns the SMT names of the clocks of the blocks that contain an
// executed instance of label l, each with its guard; refinement uses them
// to force or forbid orders of labels (design.md §6).
func (s *Session) ClockOf(l program.Label) (clocks []string, guards []string) {
	for _, th := range s.enc.threads {
		for _, r := range th.steps {
			if r.in != nil && r.in.Label == l {
				b := r.blk
				if b == nil {
					continue
				}
				clocks = append(clocks, b.clock)
				guards = append(guards, r.pg.s)
			}
		}
	}
	return clocks, guards
}

// AddClause asserts an SMT-LIB2 Bool term (typically over clocks from
// ClockOf) permanently; the next Check takes it into account.
func (s *Session) AddClause(term string) error { return s.solver.Assert(term) }

func (s *Session) stats() backend.Stats {
	st := s.solver.Stats()
	return backend.Stats{
		Vars:       s.enc.nsym + s.enc.nblocks,
		Clauses:    st.Assertions + s.enc.nassert,
		FormulaB:   st.BytesSent,
		Events:     len(s.enc.events),
		SolverTime: st.SolverTime,
		EncodeTime: s.encode,
		Total:      time.Since(s.start),
	}
}

func (s *Session) result(v backend.Verdict, reason string) backend.Result {
	r := backend.Result{Verdict: v, Reason: reason, Bounds: s.bounds, Stats: s.stats()}
	if v == backend.Safe && s.enc.capCut {
		// the cap of the model cut some run: the answer holds for the
		// runs within it only, and says so
		r.Bounds.ThreadCap = s.bounds.MaxThreadsOrDefault()
	}
	if s.opts.KeepFormula {
		r.Log = s.solver.Transcript()
	}
	return r
}

func (s *Session) check() (smt.Result, error) {
	r, err := s.solver.CheckSat()
	if err != nil {
		return r, err
	}
	return r, nil
}

// replayed turns the run built from a model (or the error building it)
// into a result: Unsafe only when interp.Replay confirms the violation on
// the program (design.md §5 rule 1), otherwise an internal error.
func (s *Session) replayed(run *program.Run, buildErr error) (backend.Result, error) {
	if buildErr != nil {
		if program.KindOf(buildErr) == 0 {
			buildErr = program.Errorf(program.Internal, "building the counterexample: %v", buildErr)
		}
		return s.unknown(buildErr)
	}
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
	// the run may go past the bounds (grant, dormantSpawn): say how
	var how []string
	if s.enc.granted > 0 {
		how = append(how, "loops that branch only on constants run to their end")
	}
	if s.enc.dormant > 0 {
		how = append(how, "threads created past the bounds never run")
	}
	res.Reason = strings.Join(how, ", ")
	res.Run = out.Run
	if res.Run == nil {
		res.Run = run
	}
	return res, nil
}

// badReason names the invalid access of the current model (after Sat of a
// query that asserts one).
func (s *Session) badReason() string {
	if vs, err := s.solver.GetValue(badTerms(s.enc.bad)); err == nil {
		for i, v := range vs {
			if v.Bool {
				b := s.enc.bad[i]
				return fmt.Sprintf("%s: %s", b.pos, b.why)
			}
		}
	}
	return "possible invalid memory access"
}

func (s *Session) unknown(err error) (backend.Result, error) {
	res := s.result(backend.Unknown, err.Error())
	return res, err
}

// Check solves: first for a violation that passes no invalid access, then
// for invalid accesses (Unknown), then, with unwinding assertions, for a
// path that reaches a loop or recursion bound (Unsafe: a run violating
// that unwinding property, replayed) and for one cut at another bound (a
// thread bound, an unwinding property not selected: Safe, not a proof).
func (s *Session) Check() (_ backend.Result, err error) {
	defer program.Recover(&err)
	sv := s.solver
	s.invalid = false
	// 1. violation without invalid accesses
	sv.Push()
	sv.Assert(s.viol.s)
	sv.Assert(not(s.bad).s)
	r, pushes, why, err := s.solveRun(nil)
	if err != nil {
		return s.unknown(err)
	}
	pop := func() {
		for i := 0; i <= pushes; i++ {
			sv.Pop()
		}
	}
	switch r {
	case smt.Unknown:
		if why == "" {
			why = "solver: " + sv.ReasonUnknown()
		}
		pop()
		return s.result(backend.Unknown, why), nil
	case smt.Sat:
		run, err := s.enc.buildRun(sv, nil)
		pop()
		return s.replayed(run, err)
	}
	pop()
	// 2. invalid accesses
	if len(s.enc.bad) > 0 {
		sv.Push()
		sv.Assert(s.bad.s)
		r, err := s.check()
		if err != nil {
			return s.unknown(err)
		}
		if r != smt.Unsat {
			reason := "solver: " + sv.ReasonUnknown()
			if r == smt.Sat {
				reason = s.badReason()
				s.invalid = true
			}
			sv.Pop()
			return s.result(backend.Unknown, reason), nil
		}
		sv.Pop()
	}
	res := s.result(backend.Safe, "")
	res.Complete = s.enc.coversAll()
	// 3. unwinding assertions
	if s.bounds.UnwindingAssertions {
		if res.Complete {
			res.Proof = true
			return res, nil
		}
		var checked, other []cutRec
		for _, c := range s.enc.cuts {
			if c.id != "" && (s.bounds.UnwindingOnly == "" || s.bounds.UnwindingOnly == c.key) {
				checked = append(checked, c)
			} else {
				other = append(other, c)
			}
		}
		for i, cs := range [][]cutRec{checked, other} {
			if len(cs) == 0 {
				continue
			}
			gs := make([]*term, len(cs))
			for j, c := range cs {
				gs[j] = c.g
			}
			sv.Push()
			sv.Assert(or(gs...).s)
			var r smt.Result
			var pushes int
			var why string
			var err error
			if i == 0 {
				r, pushes, why, err = s.solveRun(nil) // a run is built from the model
			} else {
				r, err = s.check()
			}
			pop := func() {
				for k := 0; k <= pushes; k++ {
					sv.Pop()
				}
			}
			if err != nil {
				return s.unknown(err)
			}
			switch {
			case r == smt.Unknown:
				if why == "" {
					why = "solver: " + sv.ReasonUnknown()
				}
				pop()
				return s.result(backend.Unknown, why), nil
			case r == smt.Sat && i == 0:
				run, err := s.enc.buildRun(sv, checked)
				pop()
				return s.replayed(run, err)
			case r == smt.Sat:
				pop()
				res.Stats = s.stats()
				return res, nil // bounded: a run is cut elsewhere
			}
			pop()
		}
		res.Proof, res.Complete = true, true
		res.Stats = s.stats()
	}
	return res, nil
}

func badTerms(bs []badRec) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.g.s
	}
	return out
}

package cegpv

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/sync/errgroup"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// Modes of Check.
const (
	// ModeCEGPV runs the CEGPV loop (Verify) over the backend.
	ModeCEGPV = "cegpv"
	// ModePlain asks the backend about the whole program: the baseline.
	ModePlain = "plain"
)

// Modes are the accepted values of CheckOptions.Mode.
var Modes = []string{ModeCEGPV, ModePlain}

// CheckOptions configure Check. DefaultCheckOptions are the defaults,
// the command line's too, so that a Go caller and `cegpv verify` with the
// same settings reach the same verdict. A field left 0 means what its
// comment says, here and on the command line alike: off for the engines
// (Probe, BeyondMax; the loop's Relax), the default for the limits (Grace;
// the loop's MaxIterations, MaxChecks, MaxKeptShare).
type CheckOptions struct {
	// Options are the loop's options; Backend and Bounds are required.
	// Bounds.Timeout, when set, limits the whole check.
	loop.Options
	// Mode is ModeCEGPV ("" too) or ModePlain.
	Mode string
	// LoopOnly measures the CEGPV loop itself (--loop-only): mode cegpv
	// with no probe, no whole-program check beside the loop, no explicit
	// search and no search beyond the bounds,
	// and a TRUE or FALSE that another engine decided (the backend alone
	// after a counterexample the loop cannot follow) is UNKNOWN, so that
	// every verdict is the loop's.
	LoopOnly bool
	// BeyondMax is the most CPU time of the search for a violation beyond
	// the bounds that follows a bounded TRUE whose bounds cut some runs
	// (Beyond; the rest of its budget is the table's, engines.go). 0 (or
	// negative): off.
	BeyondMax time.Duration
	// Grace is how long a backend may take to return after its context
	// is done before it is abandoned with a Timeout error (0: the
	// default, DefaultGrace; a wall-clock time).
	Grace time.Duration
	// NoExplicit turns off the explicit-state search: beside the mode
	// (programs with loops and finite nondeterminism; loop-free ones too
	// beside an external checker), beyond the bounds, and behind a
	// counterexample a backend cannot follow (that answer then stays
	// UNKNOWN). Why it is on: docs/measurements.md, Why the defaults.
	NoExplicit bool
	// Explicit are the search's budgets (nil: the table's, engines.go).
	Explicit *explicit.Options
	// Probe is how long, in mode cegpv over a backend that is not
	// external (the built-in one), the backend first checks the whole
	// program alone before the loop starts; its verdict, if it has one by
	// then, is the answer. 0 (or negative): off.
	Probe time.Duration
	// IncrementalBMC (--incremental-bmc, ESBMC's name) deepens the loops
	// whose bound a run reaches: it turns unwinding assertions on, and
	// while the answer is a FALSE of an unwinding property (a run,
	// replayed, that reaches the bound of a loop or of a function's
	// recursive calls) it doubles that loop's bound (Bounds.UnwindSet)
	// and checks again, until a proof (TRUE: no run reaches a bound), a
	// FALSE of a real property, or the end of the time (UNKNOWN naming
	// the last bound a run reached). Each deeper check is the whole check
	// again, with all the CPU time left (engines.go, incremental).
	IncrementalBMC bool
	// RoundsBeside is a checker of the program's round-bounded lazy
	// sequentialisation (a lazyseq.Backend; the command line's default is
	// ESBMC at DefaultRoundsBeside rounds when it is installed) raced
	// beside the mode in mode cegpv, on a program with threads, once the
	// mode has used RoundsBesideAfter of CPU time (engines.go,
	// roundsBeside). Its FALSE, replayed, decides as the mode's would;
	// its TRUE, bounded by its rounds, never ends the race: it is the
	// verdict only when the mode ends without one (the time limit, an
	// UNKNOWN). nil: none; not under --rounds (Backend sequentialises
	// already), IncrementalBMC, unwinding assertions or an unwinding set,
	// which the sequentialisation does not check.
	RoundsBeside backend.Backend
	// RoundsBesideAfter is the mode's CPU time before RoundsBeside starts
	// (0: the table's, roundsBeside.Delay).
	RoundsBesideAfter time.Duration
}

// CheckedBounds are the bounds Check checks within: Bounds, with unwinding
// assertions when IncrementalBMC is set (it deepens on their violations),
// so that the properties checked (CheckedProperties) include them.
func (o CheckOptions) CheckedBounds() backend.Bounds {
	b := o.Bounds
	b.UnwindingAssertions = b.UnwindingAssertions || o.IncrementalBMC
	return b
}

// DefaultRoundsBeside is the rounds of the command line's RoundsBeside:
// 2, where ESBMC on the sequentialisation solved 73 of the 86 pthread
// tasks of SV-COMP 2015 (docs/bench/s24-lazyseq-points).
const DefaultRoundsBeside = 2

// MaxIncrementalUnwind is the largest bound IncrementalBMC gives a loop:
// a run that reaches it ends the deepening with UNKNOWN, saying so.
const MaxIncrementalUnwind = 1 << 20

// DefaultUnwind and DefaultGrace are DefaultCheckOptions' unwinding and
// grace.
const (
	DefaultUnwind = 5
	DefaultGrace  = 5 * time.Second
)

// DefaultCheckOptions are Check's defaults and the command line's (which
// takes its flags' defaults from them); Backend is left to the caller.
func DefaultCheckOptions() CheckOptions {
	o := CheckOptions{
		Options:   loop.DefaultOptions(),
		Mode:      ModeCEGPV,
		BeyondMax: DefaultBeyondMax,
		Probe:     DefaultProbe,
		Grace:     DefaultGrace,
	}
	o.Bounds = backend.Bounds{Unwind: DefaultUnwind, MaxThreads: backend.DefaultMaxThreads}
	return o
}

// normalize gives the options left 0 their defaults and checks them: the
// one place Check does (the loop's through loop.Options.Normalize).
func (o *CheckOptions) normalize() error {
	switch o.Mode {
	case "", ModeCEGPV, ModePlain:
	default:
		return program.Errorf(program.Unsupported, "unknown mode %q (%s)", o.Mode, strings.Join(Modes, " or "))
	}
	if o.Backend == nil {
		return program.Errorf(program.Internal, "no backend")
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.RoundsBesideAfter <= 0 {
		o.RoundsBesideAfter = roundsBeside.Delay
	}
	o.Probe, o.BeyondMax = max(0, o.Probe), max(0, o.BeyondMax)
	if o.LoopOnly {
		if o.Mode == ModePlain {
			return program.Errorf(program.Unsupported, "LoopOnly in mode plain: the loop is mode cegpv")
		}
		o.Mode, o.Probe, o.BeyondMax, o.NoExplicit = ModeCEGPV, 0, 0, true
	}
	return o.Options.Normalize()
}

// Engines that decide a verdict (Report.DecidedBy).
const (
	ByLoop    = "the CEGPV loop"
	ByBackend = "the backend on the whole program"
	ByProbe   = "the backend on the whole program, before the loop (probe)"
	ByWhole   = "the backend on the whole program, beside the loop"
	BySearch  = "the explicit-state search on the whole program"
	// ByUnwinding: in mode cegpv, after a TRUE of the loop, the unwinding
	// properties are checked on the whole program (Verify)
	ByUnwinding = "the backend on the whole program, checking the unwinding assertions after the CEGPV loop"
	ByBeyond    = "the search beyond the bounds" // after a bounded TRUE (FoundBeyond says how)
	// ByRounds: CheckOptions.RoundsBeside, beside the mode
	ByRounds = "the checker of the round-bounded sequentialisation, beside the mode"
)

// Report is the verdict of Check with everything that supports it.
//
// Invariants: Verdict Unsafe only with a Run of Program that interp.Replay
// confirmed, that violates Property and draws no opaque value (design.md
// §5 rules 1 and 6); Verdict Safe states its Bounds and whether it is a
// Proof; any other answer is Unknown with a Reason (and Err when an error
// caused it, whose program.ErrKind classifies it).
type Report struct {
	Verdict  backend.Verdict
	Property string // the violated property (Unsafe)
	Reason   string // why Unknown
	Err      error  // the error behind an Unknown, or nil
	Proof    bool   // Safe for every run of the program, not only within Bounds
	// ProofBy says what showed a Proof: "unwinding assertions hold for
	// <bounds>" (no run reaches a bound), or which engine explored every
	// run beyond the bounds (and, when they were asked for, that the
	// unwinding assertions themselves fail).
	ProofBy string
	// Bounds are the bounds the verdict is stated for.
	Bounds backend.Bounds
	// FoundWithin: the violation was found within smaller bounds
	// (iterative deepening), when they differ from Bounds.
	FoundWithin *backend.Bounds
	// FoundBeyond says how a violation beyond the bounds was found;
	// SearchedBeyond, for a Safe verdict, what the search beyond them did.
	FoundBeyond    string
	SearchedBeyond string
	// Run is the replayed run of Program: the counterexample of an
	// Unsafe verdict, or the run that made it Unknown because it draws
	// opaque values (Reason says so).
	Run     *program.Run
	Program *program.Program
	// Result is the backend's answer the verdict comes from (statistics).
	Result backend.Result
	// Loop holds the CEGPV loop's statistics (ModeCEGPV), or nil.
	Loop *loop.Result
	// DecidedBy names the engine whose answer the verdict comes from
	// (ByLoop, ByBackend, ByProbe, BySearch, ByBeyond, ByUnwinding), ""
	// for Unknown.
	DecidedBy string
	Elapsed   time.Duration
	// Overflows are the steps of Run that overflow a signed operation
	// (undefined behaviour in C) when Program does not check them as
	// properties (interp.Overflows): a run that violates an assertion
	// after one says so at that step.
	Overflows []interp.Overflow
}

// Check decides the verdict for p: the one entry point of the library,
// behind `cegpv verify`. It
//   - when p draws opaque values (results of library functions whose
//     effect is over-approximated), first checks program.WithoutOpaque(p)
//     with half the time: its runs are the runs of p that draw none, so a
//     violation there is a FALSE of p;
//   - runs the mode (the CEGPV loop or the backend alone) on p;
//   - judges every answer the same way (judge): a violation counts only
//     with a run replayed on p that draws no opaque value;
//   - answers a backend's violation whose trace cannot be followed
//     (backend.ErrUnfollowable) with the explicit-state search on the
//     program it checked (searchUnfollowable), unless NoExplicit; when the CEGPV
//     loop still ends on such a violation, the backend checks the whole
//     program alone (as in plain mode) with the time left;
//   - after a bounded TRUE whose bounds cut some runs, looks beyond the
//     bounds (Beyond) and reports a violation found there.
//
// Check never fails: every problem is an Unknown Report with the reason.
func Check(ctx context.Context, p *program.Program, opts CheckOptions) *Report {
	start := time.Now()
	c := &checker{opts: opts, log: opts.Logger}
	if c.log == nil {
		c.log = hclog.NewNullLogger()
	}
	// every budget inside is CPU time (package budget), shares of this
	// nominal total: the wall-clock timeout is the only wall-clock limit
	total := opts.Bounds.Timeout
	if dl, ok := ctx.Deadline(); ok && (total <= 0 || time.Until(dl) < total) {
		total = time.Until(dl)
	}
	ctx, stop := budget.Start(ctx, "the check", total)
	var rep *Report
	if opts.IncrementalBMC {
		rep = c.incremental(ctx, p)
	} else {
		rep = c.check(ctx, p)
	}
	stop()
	if opts.LoopOnly {
		loopOnly(rep)
	}
	if rep.Run != nil && rep.Program != nil {
		ovs, err := interp.Overflows(rep.Program, rep.Run)
		if err != nil {
			c.log.Warn("overflows of the counterexample not computed", "error", err)
		}
		rep.Overflows = ovs
	}
	rep.Elapsed = time.Since(start)
	return rep
}

// loopOnly makes a verdict that an engine other than the CEGPV loop
// decided UNKNOWN (CheckOptions.LoopOnly): with the probe, the explicit
// search and the search beyond the bounds off, that is the backend alone
// on the program after a counterexample the loop cannot follow
// (backend.ErrUnfollowable). An UNKNOWN is always sound (design.md §5).
func loopOnly(rep *Report) {
	if rep.Verdict == backend.Unknown || rep.DecidedBy == ByLoop {
		return
	}
	rep.Reason = fmt.Sprintf("loop only: %s decided %s, not the CEGPV loop", rep.DecidedBy, rep.Verdict)
	rep.Verdict, rep.Property, rep.Proof, rep.ProofBy, rep.Run, rep.DecidedBy = backend.Unknown, "", false, "", nil, ""
	rep.FoundWithin, rep.FoundBeyond, rep.Overflows = nil, "", nil
}

// check is Check's body; a panic in it (an engine's bug on a path without
// its own recovery) is an Unknown report, never a crash.
func (c *checker) check(ctx context.Context, p *program.Program) (rep *Report) {
	defer func() {
		if r := recover(); r != nil {
			rep = c.newReport(p)
			rep.unknown(program.PanicError(r))
		}
	}()
	return c.checkMode(ctx, p)
}

type checker struct {
	opts CheckOptions
	log  hclog.Logger
	// raced is the program the search races on beside the mode with at
	// least the unfollowable share, set by mode before the race: the
	// search behind an unfollowable counterexample leaves it to that one
	raced atomic.Pointer[program.Program]
}

// decidedBy records the engine of a verdict that is not Unknown.
func (r *Report) decidedBy(by string) {
	if r.Verdict != backend.Unknown {
		r.DecidedBy = by
	}
}

func (c *checker) newReport(p *program.Program) *Report {
	return &Report{Verdict: backend.Unknown, Bounds: c.opts.Bounds, Program: p}
}

func (c *checker) checkMode(ctx context.Context, p *program.Program) *Report {
	rep := c.newReport(p)
	if err := c.opts.normalize(); err != nil {
		rep.unknown(err)
		return rep
	}
	b, err := backend.ResolveUnwindSet(p, c.opts.Bounds)
	if err != nil {
		rep.unknown(&program.Error{Kind: program.Unsupported, Err: err})
		return rep
	}
	b, err = loop.PropertyBounds(p, c.opts.Property, b)
	if err != nil {
		rep.unknown(&program.Error{Kind: program.Unsupported, Err: err})
		return rep
	}
	c.opts.Bounds = b
	rep.Bounds = b
	c.opts.Backend = c.wrap(c.opts.Backend, !c.opts.NoExplicit)
	if be := c.opts.RoundsBeside; be != nil {
		// no search behind its counterexamples: the mode's own engines
		// cover the program
		c.opts.RoundsBeside = c.wrap(be, false)
	}
	if t := c.opts.Bounds.Timeout; t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	pw, err := loop.SelectProperty(p, c.opts.Property)
	if err != nil {
		rep.unknown(err)
		return rep
	}
	u0 := budget.Used(ctx)
	qSafe := false
	if q, n := program.WithoutOpaque(p); n > 0 {
		if err := loop.SanityCheck(c.opts.Sanity, "cutting the opaque draws", q); err != nil {
			rep.unknown(err)
			return rep
		}
		c.log.Debug("the program draws opaque values; checking its runs without them first", "cut", n)
		qctx, cancel := budget.WithShare(ctx, withoutOpaque.Engine, withoutOpaque.Share, withoutOpaque.Max)
		qrep := c.newReport(p)
		qw, err := loop.SelectProperty(q, c.opts.Property)
		if err != nil {
			cancel()
			rep.unknown(err)
			return rep
		}
		qres, qloop, qby, qerr := c.mode(qctx, q, qw, false)
		cancel()
		qrep.Loop = qloop
		c.judge(ctx, qrep, p, qres, qerr)
		qrep.decidedBy(qby)
		if qrep.Verdict == backend.Unsafe {
			return qrep
		}
		qSafe = qerr == nil && qres.Verdict == backend.Safe
	}
	res, lr, by, err := c.mode(ctx, p, pw, true)
	rep.Loop = lr
	c.judge(ctx, rep, p, res, err)
	rep.decidedBy(by)
	if rep.Verdict == backend.Unknown && strings.HasPrefix(rep.Reason, program.OpaqueReason) && qSafe {
		rep.Reason += " (none avoids them within the bounds)"
	}
	if rep.Verdict == backend.Safe && !res.Proof && !res.Complete && c.opts.BeyondMax > 0 && ctx.Err() == nil {
		c.searchBeyond(ctx, rep, p, pw, budget.Used(ctx)-u0)
	}
	return rep
}

// mode runs the chosen mode on q (p, or p with its opaque draws cut;
// work is q with only the checked property), with the explicit-state
// search beside it unless opts.NoExplicit, and with whole, the checker of
// the sequentialisation (roundsApplies): the one place where the engines
// race. by names the engine that answered.
func (c *checker) mode(ctx context.Context, q, work *program.Program, whole bool) (res backend.Result, lr *loop.Result, by string, err error) {
	type answer struct {
		res backend.Result
		lr  *loop.Result
		by  string
	}
	var runLoop func(ctx context.Context, fallback bool) (answer, error)
	run := func(ctx context.Context) (answer, error) {
		// an unwinding property alone is checked on the whole program in
		// either mode (Verify)
		if c.opts.Mode == ModePlain || program.IsUnwinding(c.opts.Property) {
			res, err := c.opts.Backend.Check(ctx, work, c.opts.Bounds)
			return answer{res: res, by: ByBackend}, err
		}
		if c.wholeBeside() {
			// the loop and the whole program's sequentialisation side by
			// side (wholeBeside): the first verdict in CPU time wins. The
			// loop has loopBeside's budget and leaves its last level, the
			// same check, to the other (loop.Options.WholeBeside). The
			// whole program's check is the first engine, so that without
			// a verdict its answer is the mode's (budget.Race)
			a, err, _ := budget.Race(ctx, func(a answer, err error) bool { return err == nil && a.res.Verdict != backend.Unknown },
				budget.Engine[answer]{Name: wholeBeside.Engine, Run: func(ctx context.Context) (_ answer, err error) {
					defer program.Recover(&err)
					res, err := c.opts.Backend.Check(ctx, work, c.opts.Bounds)
					return answer{res: res, by: ByWhole}, err
				}},
				budget.Engine[answer]{Name: ByLoop, Run: func(ctx context.Context) (_ answer, err error) {
					defer program.Recover(&err)
					lctx, stop := budget.WithShare(ctx, loopBeside.Engine, loopBeside.Share, loopBeside.Max)
					defer stop()
					return runLoop(lctx, false)
				}})
			return a, err
		}
		if probe := c.probe(); probe > 0 {
			pctx, cancel := budget.WithLimit(ctx, "the probe", probe)
			res, err := c.opts.Backend.Check(pctx, work, c.opts.Bounds)
			cancel()
			if err == nil && res.Verdict != backend.Unknown {
				return answer{res: res, by: ByProbe}, nil
			}
			c.log.Debug("the probe did not decide; the loop starts", "probe", probe, "error", err, "reason", res.Reason)
		}
		return runLoop(ctx, true)
	}
	// runLoop runs the CEGPV loop; with fallback, the backend alone
	// checks the program itself when the loop stops on a counterexample
	// it cannot follow (raced beside the whole program's check, the loop
	// just ends)
	runLoop = func(ctx context.Context, fallback bool) (answer, error) {
		vo := c.opts.Options
		vo.Logger = c.log.Named("cegpv")
		vo.WholeBeside = !fallback && c.wholeBeside()
		if !c.opts.NoExplicit && vo.Search == nil {
			eo := c.explicitOptions()
			vo.Search = &eo
		}
		cr, err := loop.VerifySelected(ctx, q, work, vo)
		if fallback && errors.Is(err, backend.ErrUnfollowable) && ctx.Err() == nil {
			// the loop cannot use the backend's counterexamples (of
			// an abstraction whose sliced reads keep the search out,
			// typically): the backend alone decides on the program
			// itself, with the search behind it (searchUnfollowable)
			c.log.Info("the backend's counterexample cannot be followed and the loop stops; checking the program itself", "reason", err)
			res, err2 := c.opts.Backend.Check(ctx, work, c.opts.Bounds)
			cr.Checks++
			switch {
			case err2 != nil:
				return answer{res, &cr, ""}, fmt.Errorf("%w; the backend alone on the program: %v", err, err2)
			case res.Verdict == backend.Unknown:
				return answer{res, &cr, ""}, fmt.Errorf("%w; the backend alone on the program: %s", err, res.Reason)
			}
			return answer{res, &cr, ByBackend}, nil
		}
		by := ByLoop
		switch {
		case cr.Unwinding:
			by = ByUnwinding
		case cr.BySearch:
			by = BySearch // the generalisation's limit case
		}
		return answer{cr.Result, &cr, by}, err
	}
	// the race: the mode, the explicit-state search and the checker of
	// the sequentialisation, engines of budget.Race (the first decisive
	// answer in CPU time wins)
	engines := []budget.Engine[answer]{{Name: "the mode", Run: func(ctx context.Context) (_ answer, err error) {
		defer program.Recover(&err) // the mode's bug: its answer is the error
		return run(ctx)
	}}}
	var searched atomic.Bool
	if eo := c.explicitOptions(); !c.opts.NoExplicit && explicit.AppliesWith(work, eo) {
		if eo.Share >= unfollowable.Share {
			c.raced.Store(work)
			defer c.raced.Store(nil)
		}
		search := explicit.Backend{Options: eo}
		engines = append(engines, budget.Engine[answer]{Name: search.Name(), After: eo.Delay, Run: func(ctx context.Context) (answer, error) {
			searched.Store(true)
			res, err := search.Check(ctx, work, c.opts.Bounds)
			return answer{res: res, by: BySearch}, err
		}})
	}
	// held is the sequentialisation's TRUE: bounded by its rounds, it
	// never ends the race and answers only when the mode has no verdict
	var held atomic.Pointer[backend.Result]
	if whole && c.roundsApplies(work) {
		be := c.opts.RoundsBeside
		engines = append(engines, budget.Engine[answer]{Name: roundsBeside.Engine, After: c.opts.RoundsBesideAfter, Run: func(ctx context.Context) (_ answer, err error) {
			defer program.Recover(&err)
			res, err := be.Check(ctx, work, c.opts.Bounds)
			if err == nil && res.Verdict == backend.Safe {
				held.Store(&res)
				c.log.Debug("the sequentialisation's check is TRUE; held until the mode ends", "bounds", res.Bounds.String())
			}
			return answer{res: res, by: ByRounds}, err
		}})
	}
	if len(engines) == 1 {
		a, err := run(ctx)
		return a.res, a.lr, a.by, err
	}
	decisive := func(a answer, err error) bool {
		return err == nil && a.res.Verdict != backend.Unknown && (a.by != ByRounds || a.res.Verdict == backend.Unsafe)
	}
	a, err, _ := budget.Race(ctx, decisive, engines...)
	res, lr, by = a.res, a.lr, a.by
	if err != nil && errors.Is(err, backend.ErrUnfollowable) && c.raced.Load() == work && !searched.Load() && ctx.Err() == nil {
		// the mode ended on a counterexample it cannot follow before the
		// search beside it started: the search behind it runs now
		c.raced.Store(nil)
		sres, err2 := c.searchUnfollowable(ctx, c.opts.Backend.Name(), work, c.opts.Bounds, a.res, err)
		if err2 == nil {
			// credited as behind the wrapper: the backend's check answered
			res, by = sres, ByBackend
		}
		err = err2
	}
	if h := held.Load(); h != nil && (err != nil || res.Verdict == backend.Unknown) && !errors.Is(ctx.Err(), context.Canceled) {
		why := res.Reason
		if err != nil {
			why = err.Error()
		}
		c.log.Info("the mode ended without a verdict; the sequentialisation's TRUE answers", "mode", why)
		// the loop's statistics are not this verdict's (as with ByWhole)
		return *h, nil, ByRounds, nil
	}
	return res, lr, by, err
}

// roundsApplies reports whether RoundsBeside races beside the mode on p
// (CheckOptions.RoundsBeside): in mode cegpv, on a program with threads,
// when the backend does not sequentialise already and the bounds are ones
// the sequentialisation checks.
func (c *checker) roundsApplies(p *program.Program) bool {
	o := c.opts
	return o.RoundsBeside != nil && o.Mode != ModePlain && !o.LoopOnly && !o.Backend.Capabilities().Rounds &&
		!o.IncrementalBMC && !o.Bounds.UnwindingAssertions && len(o.Bounds.UnwindSet) == 0 && p.Spawns()
}

// probe is the probe's time (CheckOptions.Probe): only in mode cegpv over
// a backend that is not external, without --rounds (wholeBeside races the
// whole program's check there instead). Beside an external checker the
// loop is the point (each of its checks costs a process and the checker's
// fixed cost).
func (c *checker) probe() time.Duration {
	if c.external() || c.opts.Mode == ModePlain || c.wholeBeside() {
		return 0
	}
	return c.opts.Probe
}

// wholeBeside reports whether the backend checks the whole program beside
// the loop (engines.go, wholeBeside): in mode cegpv under --rounds, where
// every check is of a sequential program and the whole program's is often
// as cheap as one of the loop's (docs/bench/rounds-wmm). It replaces the
// probe there.
func (c *checker) wholeBeside() bool {
	return c.opts.Mode != ModePlain && !c.opts.LoopOnly && c.opts.Backend.Capabilities().Rounds
}

// external reports whether the backend declares itself an external
// checker (ESBMC, CBMC: each check a process of its own). The probe and
// the search's budgets depend on it.
func (c *checker) external() bool {
	return c.opts.Backend.Capabilities().External
}

func (c *checker) explicitOptions() explicit.Options {
	eo := searchOptions(race)
	if c.opts.Explicit != nil {
		eo = *c.opts.Explicit
	}
	// Beside an external checker the search races on loop-free programs
	// too (an interleaving-exploring checker can take minutes where the
	// search takes seconds), with raceExternal's budgets; beside the
	// built-in backend the encoding answers those fast
	// (docs/bench/explicit-on).
	if c.external() {
		eo.LoopFree = true
		if c.opts.Explicit == nil {
			x := searchOptions(raceExternal)
			eo.Share, eo.Max, eo.Bytes = x.Share, x.Max, x.Bytes
		}
	}
	eo.Logger = c.log.Named("explicit")
	return eo
}

// searchBeyond looks for a violation of p (q: with only the checked
// property) beyond the bounds after the bounded TRUE in rep, which took
// elapsed of CPU time (Beyond): for twice that CPU time within the
// table's limits (beyond; opts.BeyondMax the most); the backend only when
// elapsed is at most half of that. A violation found replaces the TRUE
// (judged, so replayed on p, like any other).
func (c *checker) searchBeyond(ctx context.Context, rep *Report, p, q *program.Program, elapsed time.Duration) {
	limit := min(c.opts.BeyondMax, max(beyond.Min, 2*elapsed))
	if left, ok := budget.Left(ctx); ok {
		limit = min(limit, time.Duration(float64(left)*beyond.Share))
	}
	if limit <= 0 {
		return
	}
	// a deeper check costs more than the one within the bounds: when that
	// took more than half the budget, only the explicit search runs
	noBackend := elapsed > limit/2
	if noBackend && (c.opts.NoExplicit || !explicit.Applies(q)) {
		return
	}
	bctx, cancel := budget.WithLimit(ctx, "the search beyond the bounds", limit)
	defer cancel()
	res, how, found, failed := Beyond(bctx, q, BeyondOptions{Backend: c.opts.Backend, Bounds: c.opts.Bounds, NoExplicit: c.opts.NoExplicit, NoBackend: noBackend, Logger: c.log.Named("beyond")})
	switch {
	case found && res.Verdict == backend.Unsafe:
		frep := c.newReport(p)
		frep.Loop, frep.FoundBeyond = rep.Loop, how
		c.judge(ctx, frep, p, res, nil)
		frep.decidedBy(ByBeyond)
		if frep.Verdict == backend.Unsafe {
			*rep = *frep
			return
		}
		c.log.Error("the violation found beyond the bounds is not a FALSE", "reason", frep.Reason)
	case found:
		// every run explored, loops unbounded: a proof of the program's
		// assertions (with unwinding assertions the bounded check showed
		// that no run reaches a loop or recursion bound; another bound, of
		// the threads, cut runs: that is why the search ran)
		rep.Proof = true
		rep.ProofBy = "every run explored beyond the bounds (" + how + ")"
		rep.SearchedBeyond = ""
		rep.decidedBy(ByBeyond)
		return
	}
	used := budget.Used(bctx).Seconds()
	if failed != nil {
		// not the budget's end: the verdict says what stopped the search
		c.log.Warn("the search beyond the bounds failed", "error", failed)
		rep.SearchedBeyond = fmt.Sprintf("no violation found beyond the bounds: the search stopped after %.1fs of CPU time: %v", used, failed)
		return
	}
	rep.SearchedBeyond = fmt.Sprintf("no violation found beyond the bounds in %.1fs of CPU time", used)
}

func (r *Report) unknown(err error) {
	r.Verdict = backend.Unknown
	r.Err = err
	r.Reason = err.Error()
}

// judge fills rep from the result of a check of p (or of a program whose
// runs are runs of p). It is the one place where an answer becomes a
// verdict (design.md §5): a violation becomes FALSE only with a run
// replayed on p that draws no opaque value.
func (c *checker) judge(ctx context.Context, rep *Report, p *program.Program, res backend.Result, err error) {
	rep.Result = res
	if err != nil {
		switch {
		case errors.Is(ctx.Err(), context.Canceled):
			// the caller stopped the check (a signal): not a timeout
			err = &program.Error{Kind: program.Interrupted, Err: context.Cause(ctx)}
		case ctx.Err() != nil && program.KindOf(err) == 0:
			err = program.Errorf(program.Timeout, "%v", ctx.Err())
		}
		rep.unknown(err)
		return
	}
	switch res.Verdict {
	case backend.Safe:
		rep.Verdict = backend.Safe
		// a check that cut no run (Complete) proves the program: its
		// unwinding assertions hold whether or not they were asked for
		rep.Proof = res.Proof || res.Complete
		rep.Bounds = res.Bounds
		if rep.Proof {
			rep.ProofBy = "unwinding assertions hold for " + res.Bounds.String()
		}
	case backend.Unsafe:
		run, prop, opaque, err := interp.Judge(p, res.Run)
		if err != nil {
			rep.unknown(fmt.Errorf("backend %s: %w", c.opts.Backend.Name(), err))
			return
		}
		rep.Run = run
		if len(opaque) > 0 {
			rep.Reason = program.OpaqueReason + ": " + strings.Join(opaque, ", ")
			return
		}
		rep.Verdict = backend.Unsafe
		rep.Property = prop
		if res.Bounds.Unwind > 0 && res.Bounds.String() != rep.Bounds.String() && rep.FoundBeyond == "" {
			b := res.Bounds
			rep.FoundWithin = &b
		}
	default:
		if errors.Is(ctx.Err(), context.Canceled) {
			rep.unknown(&program.Error{Kind: program.Interrupted, Err: context.Cause(ctx)})
			return
		}
		rep.Reason = res.Reason
		if rep.Reason == "" {
			rep.Reason = "backend gave no verdict"
		}
	}
}

// wrap is the backend every engine of the check calls: be's Check,
// abandoned with a Timeout error when it does not return within
// opts.Grace after its context is done, and, with explicit, followed by
// the search behind a counterexample that cannot be followed
// (searchUnfollowable) when be declares such counterexamples. It keeps
// be's capabilities (backend.Wrap).
func (c *checker) wrap(be backend.Backend, explicit bool) backend.Backend {
	search := explicit && be.Capabilities().Unfollowable
	return backend.Wrap(be, func(ctx context.Context, p *program.Program, b backend.Bounds) (backend.Result, error) {
		return graceful(ctx, c.opts.Grace, be.Name(), func() (backend.Result, error) {
			res, err := be.Check(ctx, p, b)
			if search && err != nil && errors.Is(err, backend.ErrUnfollowable) && ctx.Err() == nil {
				return c.searchUnfollowable(ctx, be.Name(), p, b, res, err)
			}
			return res, err
		})
	})
}

// graceful runs check (a backend's, named name) and returns its answer,
// or a Timeout error when it does not return within grace after ctx is
// done; a panic in it is its answer's error.
func graceful(ctx context.Context, grace time.Duration, name string, check func() (backend.Result, error)) (backend.Result, error) {
	type ret struct {
		res backend.Result
		err error
	}
	ch := make(chan ret, 1)
	go func() {
		defer budget.Enter(ctx)()
		var r ret
		defer func() {
			if x := recover(); x != nil { // the backend's bug: its answer is the error
				r = ret{err: program.PanicError(x)}
			}
			ch <- r
		}()
		r.res, r.err = check()
	}()
	select {
	case r := <-ch:
		return r.res, r.err
	case <-ctx.Done():
	}
	select {
	case r := <-ch:
		return r.res, r.err
	case <-time.After(grace):
		return backend.Result{}, program.Errorf(program.Timeout, "%v (backend %s did not stop within %v)", ctx.Err(), name, grace)
	}
}

// CheckedProperties returns the ids of the properties a check of p within
// b checks: its assertions (program.Properties), then, with unwinding
// assertions, its unwinding properties (program.Unwindings).
func CheckedProperties(p *program.Program, b backend.Bounds) []string {
	ids := program.Properties(p)
	if b.UnwindingAssertions {
		for _, u := range program.Unwindings(p) {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// CheckedPropertyDetails is CheckedProperties with what each one checks,
// for listings (--show-properties, ** Results:).
func CheckedPropertyDetails(p *program.Program, b backend.Bounds) []program.PropertyDetail {
	ds := program.PropertyDetails(p)
	if b.UnwindingAssertions {
		ds = append(ds, program.UnwindingDetails(p)...)
	}
	return ds
}

// Properties is the answer of CheckEach: one Report per property of the
// program, in CheckedProperties order, and the verdict over all of them.
type Properties struct {
	// Verdict is Unsafe if any property is violated, Safe if every one
	// holds, otherwise Unknown.
	Verdict backend.Verdict
	IDs     []string
	Reports []*Report
}

// CheckEach checks every property of p separately (Check with
// opts.Property set to each: its assertions, and with unwinding
// assertions its unwinding properties, CheckedProperties), up to jobs at a time
// (jobs < 1: one). Only
// infrastructure failures (a backend crash, an internal error) cancel the
// checks not yet done, which are then Unknown; a violated property is a
// result.
func CheckEach(ctx context.Context, p *program.Program, opts CheckOptions, jobs int) *Properties {
	ids := CheckedProperties(p, opts.CheckedBounds())
	out := &Properties{IDs: ids, Reports: make([]*Report, len(ids))}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, jobs))
	for i, id := range ids {
		g.Go(func() error {
			one := opts
			one.Property = id
			if one.Logger != nil {
				one.Logger = one.Logger.With("property", id)
			}
			r := Check(gctx, p, one)
			out.Reports[i] = r
			if k := program.KindOf(r.Err); k == program.Crash || k == program.Internal {
				return fmt.Errorf("%s: %w", id, r.Err)
			}
			return nil
		})
	}
	groupErr := g.Wait()
	allSafe, anyFalse := true, false
	for i, r := range out.Reports {
		if r == nil { // not started: cancelled by another property's failure
			r = &Report{Verdict: backend.Unknown, Program: p, Bounds: opts.Bounds, Reason: fmt.Sprintf("not checked: %v", groupErr)}
			out.Reports[i] = r
		}
		if r.Property == "" {
			r.Property = ids[i]
		}
		anyFalse = anyFalse || r.Verdict == backend.Unsafe
		allSafe = allSafe && r.Verdict == backend.Safe
	}
	switch {
	case anyFalse:
		out.Verdict = backend.Unsafe
	case allSafe:
		out.Verdict = backend.Safe
	}
	return out
}

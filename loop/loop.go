package loop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// Options configure Verify. A numeric option left 0 has the meaning its
// field states (Normalize gives the defaults); DefaultOptions are the
// defaults of every option, cegpv.DefaultCheckOptions' too.
type Options struct {
	Backend   backend.Backend
	Bounds    backend.Bounds
	Heuristic depgraph.Heuristic // nil: the paper's (depgraph.Paper)
	// Property: check only this property ("" = all): an assertion
	// (without unwinding assertions, which are properties of their own),
	// or an unwinding property (program.Unwindings: unwinding assertions
	// on for it alone).
	Property string
	// MaxIterations bounds the spurious counterexamples excluded at one
	// abstraction level before the kept set is widened (0: the default,
	// DefaultMaxIterations).
	MaxIterations int
	// MaxChecks bounds the backend calls of the whole run (0: the
	// default, DefaultMaxChecks); when it is exhausted the answer is
	// UNKNOWN with that reason.
	MaxChecks int
	Dump      string // directory for every program and backend log, or ""
	// MaxKeptShare: a level whose kept set has at least this share of the
	// program's variables is replaced by the last level (every variable,
	// one check of the program itself): such an abstraction costs about
	// as much to check as the program. 0: the default,
	// DefaultMaxKeptShare; 1 or more: never.
	MaxKeptShare float64
	// Relax is how many times a forced check of the original program that
	// fails is repeated with the atoms of its unsat core dropped, looking
	// for a real violation near the spurious one (incremental backends;
	// every core found also refines the abstraction). 0 (or negative):
	// none, the paper's loop; DefaultRelax is the default.
	Relax int
	// NoIncremental makes the loop use the code-to-code reconstruction and
	// refinement even when the backend is incremental (for comparisons).
	NoIncremental bool
	// Refinement selects how spurious counterexamples are removed:
	// "monitor" (or ""): the order-only reconstruction with the trie
	// monitor of package refine, which removes every abstract run with a
	// spurious visible label sequence (design.md §3.2), or its incremental
	// form on an incremental backend; "observer": the values-and-order
	// reconstruction with the paper's observer/controller (package
	// observer), which removes exactly the spurious runs. The observer
	// always uses the code-to-code loop.
	Refinement string
	// NoDeepening runs the loop at the bounds only, without first looking
	// for violations at smaller unwindings (see Verify).
	NoDeepening bool
	// Search, when set, races the explicit-state search (loop-free
	// programs included) beside every check of a reconstructed program by
	// the code-to-code strategies: a program forced to follow a
	// counterexample's order has few interleavings (docs/bench/esbmc-wmm).
	// cegpv.Check sets it unless NoExplicit.
	Search *explicit.Options
	// NoGeneralise turns off the generalisation of spurious
	// counterexamples by the monitor strategy (generalise.go): each one
	// is then excluded over the whole visible set, as a sequence, and the
	// explicit search never runs on the program itself from the loop.
	// Generalisation needs the explicit search (Search).
	NoGeneralise bool
	// WholeBeside: the caller checks the program itself at Bounds beside
	// the loop (cegpv.Check in mode cegpv under --rounds), so the run at
	// the bounds does not repeat that check at its last level (every
	// variable kept, or nearly every one: MaxKeptShare): it ends there
	// UNKNOWN with ReasonWholeBeside, leaving both cores to the check
	// beside it. The deepening's shallow runs still check the program
	// itself at their smaller unwindings.
	WholeBeside bool
	// Sanity runs program.Check on every program a pass of the loop
	// produces (slice, refine, observer, reconstruct); a violated
	// invariant ends the run with an internal error naming the pass (as
	// the compiler's ssa checks after each pass).
	Sanity bool
	Logger hclog.Logger

	// hooks are set by the tests only (export_test.go).
	hooks testHooks
}

// testHooks change the loop for its tests; no other code sets them.
type testHooks struct {
	// noLimit leaves out the generalisation's search on the program
	// itself, so that ddmin runs on loop-free programs too.
	noLimit bool
	// acceptUnproven makes the generalisation accept every candidate
	// without a search: unsound, the tests' mutation check.
	acceptUnproven bool
}

// The defaults of Options (DefaultOptions).
const (
	DefaultMaxIterations = 4
	DefaultMaxChecks     = 1000
	DefaultMaxKeptShare  = 0.8
	DefaultRelax         = 8
)

// DefaultOptions are the loop's defaults; Backend and Bounds are left to
// the caller.
func DefaultOptions() Options {
	return Options{Heuristic: depgraph.Paper{}, MaxIterations: DefaultMaxIterations, MaxChecks: DefaultMaxChecks,
		MaxKeptShare: DefaultMaxKeptShare, Relax: DefaultRelax, Refinement: Refinements[0]}
}

// Normalize gives the options left 0 whose 0 means the default their
// defaults and checks the rest: the one normalisation of the loop's
// options (cegpv.Check's normalisation calls it, Verify again, which then
// changes nothing).
func (o *Options) Normalize() error {
	d := DefaultOptions()
	if o.MaxIterations <= 0 {
		o.MaxIterations = d.MaxIterations
	}
	if o.MaxChecks <= 0 {
		o.MaxChecks = d.MaxChecks
	}
	if o.MaxKeptShare <= 0 {
		o.MaxKeptShare = d.MaxKeptShare
	}
	o.Relax = max(0, o.Relax)
	if o.Heuristic == nil {
		o.Heuristic = d.Heuristic
	}
	switch o.Refinement {
	case "", "monitor", "observer":
	default:
		return program.Errorf(program.Unsupported, "unknown refinement %q (%s)", o.Refinement, strings.Join(Refinements, " or "))
	}
	return nil
}

// Refinements are the accepted values of Options.Refinement.
var Refinements = []string{"monitor", "observer"}

// Iteration records one round of the loop.
type Iteration struct {
	// Unwind is the unwinding of the run the iteration belongs to: a
	// shallow run of the deepening, or the run at the bounds.
	Unwind      int           `json:"unwind"`
	Level       int           `json:"level"`
	Iteration   int           `json:"iteration"`
	Kept        int           `json:"kept_vars"`
	Instrs      int           `json:"abstract_instrs"`
	Abstract    string        `json:"abstract_verdict"`
	Reconstruct string        `json:"reconstruct_verdict,omitempty"`
	BackendTime time.Duration `json:"backend_time_ns"` // both checks of the iteration
	// AbstractTime is the check of the (refined) abstraction,
	// ReconstructTime the check of the counterexample on the original
	// program (0 when there was none).
	AbstractTime    time.Duration `json:"abstract_time_ns"`
	ReconstructTime time.Duration `json:"reconstruct_time_ns,omitempty"`
	// Generalisation is what the generalisation of the iteration's
	// spurious counterexample did (monitor strategy), or nil.
	Generalisation *Generalisation `json:"generalisation,omitempty"`
}

// Result is the answer of Verify.
type Result struct {
	backend.Result                // Verdict, Reason, Proof, Bounds; Run is a run of the original program
	Kept           []depgraph.Var // V0 of the last level
	// Iterations are every iteration of the loop, the deepening's shallow
	// runs first (Iteration.Unwind tells them apart).
	Iterations []Iteration
	Levels     int // abstraction levels of the last run
	// KeptSets are the kept sets of every level entered, the deepening's
	// first.
	KeptSets []KeptSet
	Checks   int // backend calls, the deepening's included
	// Unwinding: the verdict comes from the check of the unwinding
	// properties on the whole program after the loop (Verify).
	Unwinding bool
	// BySearch: the verdict is the explicit-state search's on the program
	// itself (the generalisation's limit case, generalise.go).
	BySearch bool
}

// KeptSet is the set of variables an abstraction level keeps.
type KeptSet struct {
	Unwind    int    `json:"unwind"`
	Level     int    `json:"level"`
	Heuristic string `json:"heuristic"` // WholeProgram for the whole program
	// Of is the number of variables of the program.
	Of   int            `json:"of"`
	Kept []depgraph.Var `json:"kept"`
}

// Verify runs the CEGPV loop on p. A violated property is a Result with
// Verdict Unsafe; errors are infrastructure failures (backend crash,
// unsupported input, timeout) and come with an Unknown result whose Reason
// says what happened.
//
// With unwinding assertions (Bounds.UnwindingAssertions) the loop checks
// the assertions, within the bounds, and when its answer is Safe but cut
// some run, the backend checks the unwinding properties on the whole
// program (unwinding): the loop's abstractions and refinements (the
// observer's controller, a monitor) have loops and runs of their own, so
// an abstract run reaching a bound says little about the program; a check
// of an unwinding property alone (Property) is that check only.
func Verify(ctx context.Context, p *program.Program, opts Options) (Result, error) {
	b, err := PropertyBounds(p, opts.Property, opts.Bounds)
	if err != nil {
		return Result{Result: backend.Result{Reason: err.Error()}}, &program.Error{Kind: program.Unsupported, Err: err}
	}
	opts.Bounds = b
	sel, err := SelectProperty(p, opts.Property)
	if err != nil {
		return Result{Result: backend.Result{Reason: err.Error()}}, err
	}
	return VerifySelected(ctx, p, sel, opts)
}

// VerifySelected is Verify for a caller that has selected the checked
// property itself (cegpv.Check does, once per program): sel is
// SelectProperty(p, opts.Property) and opts.Bounds are PropertyBounds's.
func VerifySelected(ctx context.Context, p, sel *program.Program, opts Options) (_ Result, err error) {
	defer program.Recover(&err)
	uwa := opts.Bounds // the bounds of the unwinding check
	opts.Bounds.UnwindingAssertions, opts.Bounds.UnwindingOnly = false, ""
	v := &verifier{p: p, work: sel, opts: opts, log: opts.Logger, uwa: uwa}
	if v.log == nil {
		v.log = hclog.NewNullLogger()
	}
	if err := v.opts.Normalize(); err != nil {
		return Result{Result: backend.Result{Reason: err.Error()}}, err
	}
	if opts.Property != "" {
		if err := SanityCheck(opts.Sanity, "the property's selection", sel); err != nil {
			return Result{Result: backend.Result{Reason: err.Error()}}, err
		}
	}
	if program.IsUnwinding(opts.Property) {
		return v.unwinding(ctx, Result{}), nil
	}
	res, err := v.loop(ctx)
	if err == nil && res.Verdict == backend.Safe && uwa.UnwindingAssertions && !res.Complete {
		res = v.unwinding(ctx, res)
	}
	return res, err
}

// SelectProperty is p with only the property prop checked
// (program.OnlyProperty), p itself when prop is "" (every property); a
// property p does not have is Unsupported.
func SelectProperty(p *program.Program, prop string) (*program.Program, error) {
	if prop == "" {
		return p, nil
	}
	w, err := program.OnlyProperty(p, prop)
	if err != nil {
		return nil, &program.Error{Kind: program.Unsupported, Err: err}
	}
	return w, nil
}

// unwinding checks the unwinding properties of p (Verify) with the backend
// on the whole program, its assertions assumed (program.AssumeAssertions:
// a run ends where one fails), after the loop's answer res (Safe, or the
// zero Result when only an unwinding property is checked).
func (v *verifier) unwinding(ctx context.Context, res Result) Result {
	q := program.AssumeAssertions(v.p)
	v.checks++
	res.Checks++
	res.Unwinding = true
	start := time.Now()
	r, err := v.opts.Backend.Check(ctx, q, v.uwa)
	v.log.Debug("unwinding assertions on the whole program", "verdict", r.Verdict, "time", time.Since(start), "error", err)
	loopSafe := res.Verdict == backend.Safe
	switch {
	case err != nil || r.Verdict == backend.Unknown:
		why := r.Reason
		if err != nil {
			why = err.Error()
		}
		if loopSafe {
			why = fmt.Sprintf("no assertion fails within %s (the CEGPV loop), but the check of the unwinding assertions (the backend on the whole program) gives no verdict: %s", res.Bounds, why)
		}
		res.Result = backend.Result{Verdict: backend.Unknown, Reason: why, Bounds: v.uwa, Stats: r.Stats}
	case r.Verdict == backend.Unsafe:
		c, err := v.confirm(r.Run, r)
		if err != nil {
			res.Result = backend.Result{Verdict: backend.Unknown, Reason: "the unwinding assertions: " + err.Error(), Bounds: v.uwa, Stats: r.Stats}
			break
		}
		res.Result = c.Result
	default:
		res.Result = r
	}
	return res
}

// loop is the CEGPV loop: deepening, then the run at the bounds.
func (v *verifier) loop(ctx context.Context) (Result, error) {
	if !v.opts.NoDeepening && v.opts.Bounds.Unwind > 1 && v.work.Bounded() {
		res, done, kept := v.deepen(ctx)
		if done {
			return res, nil
		}
		v.minKept = kept
	}
	res, err := v.run(ctx)
	if v.instP != nil {
		v.instP.Close()
	}
	res.Iterations, res.Checks, res.Levels, res.KeptSets = v.iters, v.deepChecks+v.checks, v.level+1, v.sets
	if err != nil {
		res.Verdict = backend.Unknown
		res.Run = nil
		if res.Reason == "" {
			res.Reason = err.Error()
		}
	}
	return res, err
}

// deepen is iterative deepening for bugs, as in the built-in backend but
// shallower: the whole loop runs at unwind 1 and 2 (below Bounds.Unwind)
// first, each run with at most DeepenShare of the CPU time left, and the first
// violation found is the answer (it is a run of the original program,
// replayed like any other, found at smaller bounds). A Safe run says
// nothing about deeper runs; an Unknown one ends the deepening. The
// iterations, kept sets and checks of the shallow runs are counted in the
// answer, whatever it is. The check at the bounds follows when no shallow
// run found a violation (done is false); v then holds only those counts,
// and kept is the size of the kept set with which the last shallow run
// proved its bounds safe (0 if none did).
//
// The run at the bounds starts at that kept set (run skips narrower
// levels): every run of the abstraction at a smaller unwinding is one at
// the bounds, so the spurious counterexamples that made the shallow run
// widen its narrower kept sets are there again. The kept sets only steer
// the search, so skipping some is sound; Safe at a narrower level is just
// as final as at a wider one.
//
// It stops at unwind 2: a CEGPV run refines the abstraction of each
// unwinding anew, so deeper shallow runs cost as much as the run at the
// bounds (docs/measurements.md, Why the defaults).
func (v *verifier) deepen(ctx context.Context) (res Result, done bool, kept int) {
	var iters []Iteration
	var sets []KeptSet
	checks := 0
	for k := 1; k < min(v.opts.Bounds.Unwind, 3); k++ {
		sctx, cancel := budget.WithShare(ctx, "a shallow run of the deepening", DeepenShare, 0)
		w := &verifier{p: v.p, work: v.work, opts: v.opts, log: v.log.With("unwind", k), shallow: true}
		w.opts.Bounds = w.opts.Bounds.WithUnwind(k) // (per-loop bounds at most k too)
		res, err := w.run(sctx)
		cancel()
		if w.instP != nil {
			w.instP.Close()
		}
		iters = append(iters, w.iters...)
		sets = append(sets, w.sets...)
		checks += w.checks
		v.log.Debug("deepening", "unwind", k, "verdict", res.Verdict, "error", err)
		if err != nil || res.Verdict == backend.Unknown {
			break
		}
		if res.Verdict == backend.Unsafe {
			res.Iterations, res.Checks, res.Levels, res.KeptSets = iters, checks, w.level+1, sets
			return res, true, 0
		}
		kept = len(res.Kept)
	}
	// the run at the bounds reports the shallow runs' iterations, kept
	// sets and checks before its own (MaxChecks counts its own)
	v.iters, v.sets, v.deepChecks = iters, sets, checks
	return Result{}, false, kept
}

// DeepenShare is the share of the CPU time left (budget.Left) one shallow
// run of deepen may use.
const DeepenShare = 0.125

type verifier struct {
	p      *program.Program // the original program: counterexamples are replayed on it
	work   *program.Program // p, or p with only the checked property
	opts   Options          // Bounds without unwinding assertions: the loop checks the assertions
	uwa    backend.Bounds   // the bounds asked for, of the check of the unwinding properties (unwinding)
	log    hclog.Logger
	iters  []Iteration
	sets   []KeptSet // the kept set of every level entered
	checks int
	// deepChecks are the backend calls of the deepening's shallow runs
	deepChecks int
	level      int
	instP      backend.Instance // the original program, encoded once, for forced checks
	// minKept: run skips the levels that keep fewer variables (see deepen)
	minKept int
	// shallow: a run of the deepening, below the bounds
	shallow bool
	// limitTried: the generalisation's search on the program itself has
	// run (once per run); explorable caches whether the search applies
	limitTried bool
	explorable *bool
	// sources: every label's source line, for the dumps (Sources)
	sources map[program.Label]string
}

// levels returns the heuristics of the successive abstraction levels: the
// chosen one, then its ladder (depgraph.Levels: the heuristic's own
// widening when it is a depgraph.Ladder, then cone), ending with every
// variable.
func (v *verifier) levels() []depgraph.Heuristic {
	return append(depgraph.Levels(v.opts.Heuristic), everyVar{})
}

// everyVar keeps every variable: the last level, where A is P.
type everyVar struct{}

// WholeProgram is the heuristic name of a level that keeps every
// variable (KeptSet.Heuristic).
const WholeProgram = "all"

func (everyVar) Name() string { return WholeProgram }
func (everyVar) Choose(g *depgraph.Graph, _ []depgraph.Var) []depgraph.Var {
	return append([]depgraph.Var(nil), g.Vars...)
}

func (v *verifier) run(ctx context.Context) (Result, error) {
	p := v.work
	g := depgraph.Build(p)
	prev := -1
	for _, h := range v.levels() {
		v0 := depgraph.Choose(g, h, v.opts.Property)
		if len(v0) <= prev {
			continue // no wider than the previous level
		}
		if len(v0) < v.minKept && len(v0) < len(g.Vars) {
			v.log.Debug("abstraction level skipped: narrower than the one the deepening ended at", "heuristic", h.Name(), "kept", len(v0), "min_kept", v.minKept)
			continue
		}
		prev = len(v0)
		full := len(v0) == len(g.Vars)
		if !full && float64(len(v0)) >= v.opts.MaxKeptShare*float64(len(g.Vars)) {
			v.log.Debug("abstraction keeps nearly every variable: checking the program itself", "heuristic", h.Name(), "kept", len(v0), "of", len(g.Vars))
			v0, full = append([]depgraph.Var(nil), g.Vars...), true
		}
		if full && v.opts.WholeBeside && !v.shallow {
			v.log.Debug("the last level is the program itself, checked beside the loop: the loop ends", "level", v.level)
			return Result{Result: backend.Result{Verdict: backend.Unknown, Reason: ReasonWholeBeside}}, nil
		}
		v.log.Info("abstraction level", "level", v.level, "heuristic", h.Name(), "kept", len(v0), "of", len(g.Vars))
		name := h.Name()
		if full {
			name = WholeProgram
		}
		v.sets = append(v.sets, KeptSet{Unwind: v.opts.Bounds.Unwind, Level: v.level, Heuristic: name, Of: len(g.Vars), Kept: v0})
		if v.opts.Dump != "" {
			v.dumpText(fmt.Sprintf("L%d-kept.txt", v.level), keptText(v.sets[len(v.sets)-1], g))
		}
		s, err := v.strategy(ctx, g, v0, full)
		if err != nil {
			return Result{Kept: v0}, err
		}
		res, done, err := v.refineLevel(ctx, s, full)
		s.close()
		if err != nil || done {
			res.Kept = v0
			return res, err
		}
		v.level++
	}
	return Result{}, program.Errorf(program.Internal, "no abstraction level decided (the last level keeps every variable)")
}

// ReasonWholeBeside is the reason of the loop's UNKNOWN at its last level
// under Options.WholeBeside.
const ReasonWholeBeside = "the loop reached the program itself, which the check beside it checks"

// fromBackend is the loop's answer r of the backend.
func fromBackend(r backend.Result) Result { return Result{Result: r} }

// exhausted says whether the loop must stop before its next iteration: the
// context is done (an error) or the check budget is spent (UNKNOWN with
// that reason).
func (v *verifier) exhausted(ctx context.Context) (Result, bool, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, true, program.Errorf(program.Timeout, "%v", err)
	}
	if v.checks >= v.opts.MaxChecks {
		return Result{Result: backend.Result{Reason: fmt.Sprintf("budget of %d backend checks exhausted", v.opts.MaxChecks)}}, true, nil
	}
	return Result{}, false, nil
}

func verdictWord(r backend.Result, err error) string {
	if err != nil {
		return "ERROR"
	}
	return r.Verdict.String()
}

func size(p *program.Program) int {
	n := 0
	for _, f := range p.Funcs {
		n += len(f.Body)
	}
	return n
}

// check runs the backend once, with the dump and the budget accounting.
func (v *verifier) check(ctx context.Context, q *program.Program, name string) (backend.Result, error) {
	v.checks++
	start := time.Now()
	r, err := v.opts.Backend.Check(ctx, q, v.opts.Bounds)
	if r.Stats.Total == 0 {
		r.Stats.Total = time.Since(start)
	}
	v.log.Debug("backend check", "name", name, "verdict", r.Verdict.String(), "time", time.Since(start), "error", err)
	if v.opts.Dump != "" && r.Log != "" {
		if err := os.WriteFile(v.dumpPath(name+".log"), []byte(r.Log), 0o644); err != nil {
			v.log.Warn("dump", "file", name+".log", "error", err)
		}
	}
	if err == nil && r.Verdict == backend.Unsafe && r.Run == nil {
		err = program.Errorf(program.Internal, "backend %s reported a violation without a run", v.opts.Backend.Name())
	}
	return r, err
}

// confirm replays a run on the original program (soundness rule 1, by
// interp.Judge, as the verdict's judge does every answer).
func (v *verifier) confirm(run *program.Run, from backend.Result) (Result, error) {
	replayed, prop, opaque, err := interp.Judge(v.p, run)
	if err != nil {
		return Result{}, err
	}
	if len(opaque) > 0 {
		// The run draws values the model over-approximates (results of
		// external functions): it is a run of the model, maybe not of the C
		// program, so no FALSE can be claimed on it.
		return Result{Result: backend.Result{Verdict: backend.Unknown, Bounds: from.Bounds, Stats: from.Stats,
			Reason: program.OpaqueReason + ": " + strings.Join(opaque, ", ")}}, nil
	}
	if v.opts.Property != "" && prop != v.opts.Property {
		return Result{}, program.Errorf(program.Internal, "counterexample violates %s, not the checked property %s", prop, v.opts.Property)
	}
	return Result{Result: backend.Result{Verdict: backend.Unsafe, Run: replayed, Bounds: from.Bounds, Stats: from.Stats}}, nil
}

// blockersText is the dump of one spurious counterexample of the
// incremental loop: its visible steps and the blockers excluded for it.
func blockersText(seq []string, blks []backend.Blocker) string {
	var b strings.Builder
	b.WriteString("# visible steps of the spurious counterexample\n")
	for _, k := range seq {
		b.WriteString(k + "\n")
	}
	for i, blk := range blks {
		fmt.Fprintf(&b, "# blocker %d (no run of the original program satisfies all of these)\n", i+1)
		for _, a := range blk {
			b.WriteString(a.String() + "\n")
		}
	}
	return b.String()
}

// sane checks q, the output of pass, when Options.Sanity is on.
func (v *verifier) sane(pass string, q *program.Program) error {
	return SanityCheck(v.opts.Sanity, fmt.Sprintf("%s (unwind %d, level %d)", pass, v.opts.Bounds.Unwind, v.level), q)
}

// SanityCheck is Options.Sanity: when on, program.Check on q, the output
// of pass; a violated invariant is an internal error naming the pass.
func SanityCheck(on bool, pass string, q *program.Program) error {
	if !on {
		return nil
	}
	if err := program.Check(q); err != nil {
		return program.Errorf(program.Internal, "sanity check after %s: %v", pass, err)
	}
	return nil
}

// dumpPath is where the dump named name goes: every name carries the
// unwinding of its run, so the deepening's runs and the run at the bounds
// never overwrite each other's files (u1-L0-abstract.c, u5-L0-I2-refined.c).
func (v *verifier) dumpPath(name string) string {
	return filepath.Join(v.opts.Dump, fmt.Sprintf("u%d-%s", v.opts.Bounds.Unwind, name))
}

func (v *verifier) dumpText(name, text string) {
	if v.opts.Dump == "" {
		return
	}
	if err := os.MkdirAll(v.opts.Dump, 0o755); err != nil {
		v.log.Warn("dump", "error", err)
		return
	}
	if v.sources == nil {
		v.sources = Sources(v.p)
		if err := os.WriteFile(filepath.Join(v.opts.Dump, "sources.txt"), []byte(sourcesText(v.p, v.sources)), 0o644); err != nil {
			v.log.Warn("dump", "file", "sources.txt", "error", err)
		}
	}
	if err := os.WriteFile(v.dumpPath(name), []byte(annotate(text, v.sources)), 0o644); err != nil {
		v.log.Warn("dump", "file", name, "error", err)
	}
}

func (v *verifier) dump(name string, q *program.Program) {
	if v.opts.Dump == "" {
		return
	}
	if err := os.MkdirAll(v.opts.Dump, 0o755); err != nil {
		v.log.Warn("dump", "error", err)
		return
	}
	f, err := os.Create(v.dumpPath(name))
	if err != nil {
		v.log.Warn("dump", "error", err)
		return
	}
	defer f.Close()
	if _, err := program.Print(f, q); err != nil {
		v.log.Warn("dump", "file", name, "error", err)
	}
}

// PropertyBounds returns the bounds of a check of property prop of p
// (Options.Property): for an unwinding property, unwinding assertions on
// for it alone (Bounds.UnwindingOnly); for an assertion, none (the
// unwinding properties are properties of their own, checked apart); for
// all properties (""), b.
func PropertyBounds(p *program.Program, prop string, b backend.Bounds) (backend.Bounds, error) {
	switch {
	case prop == "":
	case program.IsUnwinding(prop):
		u, ok := program.UnwindingByID(p, prop)
		if !ok {
			_, err := program.OnlyProperty(p, prop) // its error lists the ids
			return b, err
		}
		b.UnwindingAssertions, b.UnwindingOnly = true, u.Key()
	default:
		b.UnwindingAssertions, b.UnwindingOnly = false, ""
	}
	return b, nil
}

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/smt"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// verifyFlags are the flags of `cegpv verify`, in CBMC's spirit.
type verifyFlags struct {
	commonFlags
	backend      string
	solver       string
	mode         string
	unwind       int
	unwindAsrt   bool
	threads      int
	contexts     int
	timeout      time.Duration
	jsonOut      bool
	heuristic    string
	maxIter      int
	maxKeptShare float64
	dump         string
	property     string
	each         bool
	jobs         int
	relax        int
	refinement   string
	noDeepen     bool
	explicit     bool
	beyond       time.Duration
	trace        string
}

func (v *verifyFlags) register(fs *flag.FlagSet) {
	v.commonFlags.register(fs)
	fs.StringVar(&v.backend, "backend", "builtin", "model checker: builtin")
	fs.StringVar(&v.solver, "solver", "z3", "SMT solver command for the builtin backend (z3, cvc5, boolector, or a full command line)")
	fs.StringVar(&v.mode, "mode", "cegpv", "cegpv: counter-example guided program verification; plain: the backend alone on the whole program")
	fs.StringVar(&v.heuristic, "heuristic", "paper", "variables the first abstraction keeps: paper, stepsK, cone, keep:x,y")
	fs.IntVar(&v.maxIter, "max-iterations", 4, "spurious counterexamples excluded per abstraction level before it is widened")
	fs.Float64Var(&v.maxKeptShare, "max-kept-share", 0.8, "an abstraction keeping at least this share of the variables is skipped for a check of the whole program (1: never)")
	fs.IntVar(&v.relax, "relax", 8, "after a spurious counterexample, retry the original program this many times with the core of the failed forced check dropped (built-in backend)")
	fs.StringVar(&v.refinement, "refinement", "monitor", "how spurious counterexamples are removed: monitor (order-only reconstruction, trie monitor of label sequences) or observer (values-and-order reconstruction, the paper's observer/controller)")
	fs.StringVar(&v.dump, "dump", "", "directory for every abstract, reconstructed and refined program and the backend logs")
	fs.BoolVar(&v.each, "each-property", false, "check every property separately (in parallel with -j)")
	fs.IntVar(&v.jobs, "j", 2, "parallel checks for --each-property")
	fs.StringVar(&v.property, "property", "", "check only this property (ids as in 'cegpv show', e.g. main.assertion.1)")
	fs.IntVar(&v.unwind, "unwind", 5, "loop unwinding and recursion bound")
	fs.BoolVar(&v.unwindAsrt, "unwinding-assertions", false, "check that the unwinding bound suffices (a TRUE is then a proof)")
	fs.IntVar(&v.threads, "threads", 0, "thread instances per pthread_create in a loop (0: as many as the unwinding allows)")
	fs.IntVar(&v.contexts, "context-bound", 0, "context-switch bound for backends that have one (0: none); the built-in backend explores every interleaving and states no context bound")
	fs.DurationVar(&v.timeout, "timeout", 0, "time limit for the whole check, e.g. 60s (0: none)")
	fs.BoolVar(&v.jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&v.noDeepen, "no-deepening", false, "check at the bounds only, without first looking for violations at smaller unwindings")
	fs.DurationVar(&v.beyond, "beyond", 20*time.Second, "after a bounded TRUE whose bounds cut some runs, look for a violation beyond the bounds (the backend at 4x the unwinding, an explicit-state search with loops unbounded) for at most this long: twice the time the check took, at least 15s, at most half the time left; a violation found is a real run, replayed (0: off)")
	fs.StringVar(&v.trace, "trace", traceSource, "how the text output lists a counterexample: source (the source lines executed, with the values stored in program variables) or steps (every step of the program model, temporaries included)")
	fs.BoolVar(&v.explicit, "explicit", true, "builtin backend: on programs with loops and finite nondeterminism, also run an exhaustive explicit-state search beside the SMT encoding; the first verdict wins (--explicit=false: the encoding alone)")
}

func (v *verifyFlags) bounds() backend.Bounds {
	return backend.Bounds{Unwind: v.unwind, UnwindingAssertions: v.unwindAsrt, Threads: v.threads, Contexts: v.contexts, Timeout: v.timeout}
}

// relaxOpt maps --relax (0: none) to cegpv.Options.Relax (0: default).
func relaxOpt(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// solverArgv turns --solver into a command line.
func solverArgv(s string) []string {
	switch s {
	case "", "z3":
		return smt.DefaultArgv
	case "cvc5":
		return []string{"cvc5", "--incremental", "--lang", "smt2", "--produce-models"}
	case "boolector":
		return []string{"boolector", "--smt2", "-i", "-m"}
	}
	return strings.Fields(s)
}

// outcome is what verify reports, in text or JSON.
type outcome struct {
	File     string `json:"file"`
	Verdict  string `json:"verdict"` // TRUE, FALSE, UNKNOWN
	Property string `json:"property,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Proof    bool   `json:"proof"`
	Bounds   string `json:"bounds"`
	// FoundWithin states the smaller bounds within which the backend
	// found the violation (iterative deepening), when they differ.
	FoundWithin string `json:"found_within,omitempty"`
	// FoundBeyond says how a violation beyond the bounds was found (see
	// cegpv.Beyond); Beyond, for a TRUE, how long the search beyond the
	// bounds ran without finding one.
	FoundBeyond string       `json:"found_beyond,omitempty"`
	Beyond      string       `json:"beyond,omitempty"`
	Mode        string       `json:"mode"`
	Backend     string       `json:"backend"`
	Trace       []traceStep  `json:"trace,omitempty"`
	Stats       outcomeStats `json:"stats"`
	CEGPV       *cegpvStats  `json:"cegpv,omitempty"`
	// ChildrenRSSKB is the peak resident set of the largest child process
	// (the SMT solver), for cegpv bench's memory column.
	ChildrenRSSKB int64 `json:"children_peak_rss_kb"`
	result        backend.Result
	prog          *program.Program
	err           error
	elapsed       time.Duration
}

// another returns a new UNKNOWN outcome of the same check (file, mode,
// backend, bounds, program), for a second answer that may replace o.
func (o *outcome) another() *outcome {
	return &outcome{File: o.File, Mode: o.Mode, Backend: o.Backend, Bounds: o.Bounds, Verdict: "UNKNOWN", prog: o.prog}
}

type cegpvStats struct {
	Levels     int               `json:"levels"`
	Checks     int               `json:"backend_checks"`
	Kept       []string          `json:"kept"`
	Iterations []cegpv.Iteration `json:"iterations"`
}

type outcomeStats struct {
	Events       int     `json:"events"`
	States       int     `json:"explicit_states,omitempty"`
	SMTVars      int     `json:"smt_vars"`
	SMTAsserts   int     `json:"smt_assertions"`
	FormulaBytes int     `json:"formula_bytes"`
	EncodeSec    float64 `json:"encode_seconds"`
	SolverSec    float64 `json:"solver_seconds"`
	TotalSec     float64 `json:"total_seconds"`
}

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("verify", stderr)
	var vf verifyFlags
	vf.register(fs)
	file, code := oneFile(fs, args, stderr)
	if code >= 0 {
		return code
	}
	if !slices.Contains(traceStyles, vf.trace) {
		fmt.Fprintf(stderr, "cegpv verify: unknown trace style %q (%s)\n", vf.trace, strings.Join(traceStyles, " or "))
		return exitUsage
	}
	if !slices.Contains(cegpv.Refinements, vf.refinement) {
		fmt.Fprintf(stderr, "cegpv verify: unknown refinement %q (%s)\n", vf.refinement, strings.Join(cegpv.Refinements, " or "))
		return exitUsage
	}
	log := vf.logger(stderr)
	if vf.each {
		return verifyEach(ctx, file, &vf, vf.jobs, log, stdout)
	}
	o := verify(ctx, file, &vf, log)
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		o.ChildrenRSSKB = ru.Maxrss
	}
	if vf.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(o)
	} else {
		writeText(stdout, o, vf.trace)
	}
	switch o.Verdict {
	case "TRUE":
		return exitSafe
	case "FALSE":
		return exitUnsafe
	}
	if o.err != nil && program.KindOf(o.err) == program.Unsupported {
		return exitUnsupported
	}
	return exitUnknown
}

// verify runs one check and never fails: every problem becomes UNKNOWN with
// the reason.
func verify(ctx context.Context, file string, vf *verifyFlags, log hclog.Logger) *outcome {
	start := time.Now()
	o := &outcome{File: file, Mode: vf.mode, Backend: vf.backend, Bounds: vf.bounds().String(), Verdict: "UNKNOWN"}
	defer func() { o.elapsed = time.Since(start); o.Stats.TotalSec = o.elapsed.Seconds() }()
	unknown := func(err error) *outcome {
		o.err = err
		o.Reason = err.Error()
		return o
	}
	p, err := load(file, &vf.commonFlags, log)
	if err != nil {
		return unknown(err)
	}
	o.prog = p
	be, err := newBackend(vf, log)
	if err != nil {
		return unknown(err)
	}
	if vf.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, vf.timeout)
		defer cancel()
	}
	h, herr := depgraph.Lookup(vf.heuristic)
	if vf.mode == "cegpv" && herr != nil {
		return unknown(herr)
	}
	// checkMode runs the chosen mode on q (p, or p with its opaque draws
	// cut).
	checkMode := func(ctx context.Context, q *program.Program) (backend.Result, *cegpvStats, error) {
		switch vf.mode {
		case "plain":
			if vf.property != "" {
				var err error
				if q, err = program.OnlyProperty(q, vf.property); err != nil {
					return backend.Result{}, nil, err
				}
			}
			res, err := be.Check(ctx, q, vf.bounds())
			return res, nil, err
		case "cegpv":
			cr, err := cegpv.Verify(ctx, q, cegpv.Options{Backend: be, Bounds: vf.bounds(), Heuristic: h, Property: vf.property, NoDeepening: vf.noDeepen, NoExplicit: !vf.explicit,
				MaxIterations: vf.maxIter, MaxKeptShare: vf.maxKeptShare, Relax: relaxOpt(vf.relax), Dump: vf.dump, Refinement: vf.refinement, Logger: log.Named("cegpv")})
			cs := &cegpvStats{Levels: cr.Levels, Checks: cr.Checks, Iterations: cr.Iterations}
			for _, k := range cr.Kept {
				cs.Kept = append(cs.Kept, string(k))
			}
			return cr.Result, cs, err
		}
		return backend.Result{}, nil, fmt.Errorf("unknown mode %q (cegpv or plain)", vf.mode)
	}
	t0 := time.Now()
	// When p draws opaque values (results of library functions whose
	// effect is over-approximated), a counterexample that draws one is
	// no FALSE. The program with every instruction that draws an opaque
	// value cut (assume(0), same label) has only the runs of p that draw
	// none, so a violation it has is a FALSE of p (replayed on p); it is
	// checked first, with half the time, since it is smaller (twostage_3:
	// the thread counts that sscanf would set are constants there), then
	// p itself.
	qSafe := false
	if q, n := program.WithoutOpaque(p); n > 0 {
		log.Debug("the program draws opaque values; checking its runs without them first", "cut", n)
		qctx, cancel := backend.WithShare(ctx, 0.5)
		o2 := o.another()
		res2, cs2, err2 := checkMode(qctx, q)
		cancel()
		o2.CEGPV = cs2
		judge(ctx, o2, p, be, res2, err2)
		if o2.Verdict == "FALSE" {
			*o = *o2
			return o
		}
		qSafe = err2 == nil && res2.Verdict == backend.Safe
	}
	res, cs, err := checkMode(ctx, p)
	o.CEGPV = cs
	judge(ctx, o, p, be, res, err)
	if o.Verdict == "UNKNOWN" && strings.HasPrefix(o.Reason, program.OpaqueReason) && qSafe {
		o.Reason += " (none avoids them within the bounds)"
	}
	if o.Verdict == "TRUE" && !res.Proof && !res.Complete && vf.beyond > 0 {
		beyond(ctx, o, p, be, vf, time.Since(t0), log)
	}
	return o
}

// beyond looks for a violation of p beyond the bounds after the bounded
// TRUE in o, which took elapsed (cegpv.Beyond): for twice that time, at
// least 15s, at most --beyond and at most half the time left; the backend
// only when elapsed is at most half of that. A violation found replaces
// the TRUE (judged, so replayed on p, like any other).
func beyond(ctx context.Context, o *outcome, p *program.Program, be backend.Backend, vf *verifyFlags, elapsed time.Duration, log hclog.Logger) {
	budget := min(vf.beyond, max(15*time.Second, 2*elapsed))
	if dl, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(dl)/2)
	}
	if budget <= 0 {
		return
	}
	if vf.property != "" {
		var err error
		if p, err = program.OnlyProperty(p, vf.property); err != nil {
			return
		}
	}
	// a deeper check costs more than the one within the bounds: when that
	// took more than half the budget, only the explicit search runs
	noBackend := elapsed > budget/2
	if noBackend && (!vf.explicit || !explicit.Applies(p)) {
		return
	}
	bctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	start := time.Now()
	res, how, found := cegpv.Beyond(bctx, p, cegpv.BeyondOptions{Backend: be, Bounds: vf.bounds(), NoExplicit: !vf.explicit, NoBackend: noBackend, Logger: log.Named("beyond")})
	switch {
	case found && res.Verdict == backend.Unsafe:
		o2 := o.another()
		o2.CEGPV, o2.FoundBeyond = o.CEGPV, how
		judge(ctx, o2, o.prog, be, res, nil)
		if o2.Verdict == "FALSE" {
			*o = *o2
			return
		}
		log.Error("the violation found beyond the bounds is not a FALSE", "reason", o2.Reason)
	case found:
		o.Proof = res.Proof
		o.Beyond = "every run explored: " + how
		return
	}
	o.Beyond = fmt.Sprintf("no violation found beyond the bounds in %.1fs", time.Since(start).Seconds())
}

// judge fills o from the result of a check of p (or of a program whose
// runs are runs of p): a violation becomes FALSE only with a run replayed
// on p that draws no opaque value.
func judge(ctx context.Context, o *outcome, p *program.Program, be backend.Backend, res backend.Result, err error) {
	o.result = res
	o.Stats = outcomeStats{Events: res.Stats.Events, States: res.Stats.States, SMTVars: res.Stats.Vars, SMTAsserts: res.Stats.Clauses,
		FormulaBytes: res.Stats.FormulaB, EncodeSec: res.Stats.EncodeTime.Seconds(), SolverSec: res.Stats.SolverTime.Seconds()}
	unknown := func(err error) {
		o.err = err
		o.Reason = err.Error()
	}
	if err != nil {
		if ctx.Err() != nil && program.KindOf(err) == 0 {
			err = program.Errorf(program.Timeout, "%v", ctx.Err())
		}
		unknown(err)
		return
	}
	switch res.Verdict {
	case backend.Safe:
		o.Verdict = "TRUE"
		o.Proof = res.Proof
		o.Bounds = res.Bounds.String()
	case backend.Unsafe:
		// Soundness rule 1: the counterexample is replayed on the original
		// program before it is printed.
		if res.Run == nil {
			unknown(program.Errorf(program.Internal, "backend %s reported a violation without a run", be.Name()))
			return
		}
		out, err := interp.Replay(p, res.Run)
		if err != nil {
			unknown(program.Errorf(program.Internal, "counterexample does not replay on %s: %v", o.File, err))
			return
		}
		if out.Status != interp.Violated {
			unknown(program.Errorf(program.Internal, "counterexample replays on %s without violating a property", o.File))
			return
		}
		if len(out.Opaque) > 0 {
			o.Reason = program.OpaqueReason + ": " + strings.Join(out.Opaque, ", ")
			o.Trace = traceOf(p, out.Run)
			return
		}
		o.Verdict = "FALSE"
		o.Property = out.Prop
		o.Trace = traceOf(p, out.Run)
		if res.Bounds.Unwind > 0 && res.Bounds.String() != o.Bounds && o.FoundBeyond == "" {
			o.FoundWithin = res.Bounds.String()
		}
	default:
		reason := res.Reason
		if reason == "" {
			reason = "backend gave no verdict"
		}
		o.Reason = reason
	}
}

func newBackend(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
	mk, ok := backends[vf.backend]
	if !ok {
		var names []string
		for n := range backends {
			names = append(names, n)
		}
		return nil, fmt.Errorf("unknown backend %q (available: %s)", vf.backend, strings.Join(names, ", "))
	}
	be, err := mk(vf, log.Named(vf.backend))
	if err != nil {
		return nil, err
	}
	if inc, ok := be.(backend.Incremental); ok {
		return gracefulInc{graceful{be}, inc}, nil
	}
	return graceful{be}, nil
}

// gracefulInc is graceful for an incremental backend: it keeps Open
// visible so that the controller takes the incremental path.
type gracefulInc struct {
	graceful
	inc backend.Incremental
}

func (g gracefulInc) Open(ctx context.Context, p *program.Program, b backend.Bounds) (backend.Instance, error) {
	return g.inc.Open(ctx, p, b)
}

// graceful wraps a backend so that one that does not return soon after its
// context is cancelled is abandoned with a Timeout error.
type graceful struct{ backend.Backend }

func (g graceful) Check(ctx context.Context, p *program.Program, b backend.Bounds) (backend.Result, error) {
	return checkWithGrace(ctx, g.Backend, p, b, 5*time.Second)
}

// backends maps --backend names to constructors.
var backends = map[string]func(*verifyFlags, hclog.Logger) (backend.Backend, error){}

func writeText(w io.Writer, o *outcome, traceStyle string) {
	fmt.Fprintf(w, "cegpv: %s (mode %s, backend %s, %s)\n", o.File, o.Mode, o.Backend, o.Bounds)
	if len(o.Trace) > 0 {
		writeTrace(w, o, traceStyle)
	}
	switch o.Verdict {
	case "TRUE":
		kind := "bounded: no violation within " + o.Bounds
		if o.Proof {
			kind = "proof: unwinding assertions hold for " + o.Bounds
		}
		fmt.Fprintf(w, "\nVERIFICATION SUCCESSFUL\nTRUE (%s)\n", kind)
		if o.Beyond != "" {
			fmt.Fprintf(w, "(%s)\n", o.Beyond)
		}
	case "FALSE":
		fmt.Fprintf(w, "\nVERIFICATION FAILED\nFALSE(unreach-call) property %s\n", o.Property)
		if o.FoundWithin != "" {
			fmt.Fprintf(w, "(found within %s)\n", o.FoundWithin)
		}
		if o.FoundBeyond != "" {
			fmt.Fprintf(w, "(found beyond %s: %s)\n", o.Bounds, o.FoundBeyond)
		}
	default:
		fmt.Fprintf(w, "\nUNKNOWN: %s\n", o.Reason)
	}
	if c := o.CEGPV; c != nil {
		spurious := 0
		for _, it := range c.Iterations {
			if it.Reconstruct == "SAFE" {
				spurious++
			}
		}
		// the kept temporaries of lowered expressions are counted, not named
		temps := tempLocations(o.prog)
		var named []string
		for _, k := range c.Kept {
			if !temps.has(k) {
				named = append(named, k)
			}
		}
		kept := strings.Join(named, ", ")
		if n := len(c.Kept) - len(named); n > 0 {
			kept += fmt.Sprintf(" and %d temporar%s", n, map[bool]string{true: "y", false: "ies"}[n == 1])
		}
		fmt.Fprintf(w, "cegpv: %d abstraction level(s), %d iteration(s), %d spurious counterexample(s), %d backend check(s); last level kept %d variable(s): %s\n",
			c.Levels, len(c.Iterations), spurious, c.Checks, len(c.Kept), kept)
	}
	s := o.Stats
	if s.States > 0 && s.Events == 0 {
		fmt.Fprintf(w, "stats: explicit-state search, %d states, search %.2fs, total %.2fs\n", s.States, s.SolverSec, s.TotalSec)
		return
	}
	fmt.Fprintf(w, "stats: %d events, %d SMT assertions, %d bytes of formula, encode %.2fs, solver %.2fs, total %.2fs\n",
		s.Events, s.SMTAsserts, s.FormulaBytes, s.EncodeSec, s.SolverSec, s.TotalSec)
}

// checkWithGrace runs be.Check and, should the backend fail to return within
// grace after ctx is done, gives up on it with a Timeout error so that a
// verdict (UNKNOWN) is still printed.
func checkWithGrace(ctx context.Context, be backend.Backend, p *program.Program, b backend.Bounds, grace time.Duration) (backend.Result, error) {
	type ret struct {
		res backend.Result
		err error
	}
	ch := make(chan ret, 1)
	go func() {
		res, err := be.Check(ctx, p, b)
		ch <- ret{res, err}
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
		return backend.Result{}, program.Errorf(program.Timeout, "%v (backend %s did not stop within %v)", ctx.Err(), be.Name(), grace)
	}
}

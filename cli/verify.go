package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/external"
	"cegpv.dev/cegpv/backend/smt"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/lazyseq"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/overflow"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/report"
	"cegpv.dev/cegpv/svcomp"
)

// verifyFlags are the flags of `cegpv verify`, in CBMC's spirit.
type verifyFlags struct {
	commonFlags
	backend       string
	solver        string
	beyondSolver  string
	mode          string
	unwind        int
	unwindAsrt    bool
	unwindSet     string
	unwindSetList []backend.LoopBound // unwindSet parsed, by validate
	incremental   bool
	threads       int
	maxThreads    int
	contexts      int
	rounds        int
	roundsBeside  int
	timeout       time.Duration
	memlimit      int // MB, 0: none
	jsonOut       bool
	heuristic     string
	maxIter       int
	maxKeptShare  float64
	dump          string
	property      string
	each          bool
	showProps     bool
	jobs          int
	relax         int
	refinement    string
	noDeepen      bool
	noGeneralise  bool
	sanity        bool
	explicit      bool
	loopOnly      bool
	beyond        time.Duration
	probe         time.Duration
	trace         string
	html          string
	propertyFile  string
	witness       string
	version       bool
	esbmcPath     string
	esbmcSolver   string
	cbmcPath      string
	overflow      bool
}

// register defines the flags, their defaults the library's
// (cegpv.DefaultCheckOptions).
func (v *verifyFlags) register(fs *pflag.FlagSet) {
	d := cegpv.DefaultCheckOptions()
	v.commonFlags.register(fs)
	fs.StringVar(&v.backend, "backend", "builtin", "model checker: builtin, esbmc or cbmc")
	fs.StringVar(&v.esbmcPath, "esbmc", "", "the esbmc binary for --backend esbmc (default: esbmc on PATH, else next to cegpv)")
	fs.StringVar(&v.esbmcSolver, "esbmc-solver", "", "the SMT solver ESBMC runs, as its flag without the dashes: boolector (the default: ESBMC 8.4's own, bitwuzla, takes seconds to build a counterexample of a large program), bitwuzla, z3, cvc5, ...")
	fs.StringVar(&v.cbmcPath, "cbmc", "", "the cbmc binary for --backend cbmc (default: cbmc on PATH, else next to cegpv)")
	fs.StringVar(&v.solver, "solver", "z3", "SMT solver of the builtin backend: a preset (z3, yices, cvc5) or a command line, words split as by a shell")
	fs.StringVar(&v.beyondSolver, "beyond-solver", "", "SMT solver of the builtin backend's checks beyond the bounds (--beyond) and of programs without threads (--rounds), as --solver (default: yices when installed, else --solver)")
	fs.StringVar(&v.mode, "mode", d.Mode, "cegpv: counter-example guided program verification; plain: the backend alone on the whole program")
	fs.StringVar(&v.heuristic, "heuristic", d.Heuristic.Name(), "variables the first abstraction keeps: paper, stepsK, cone, keep:x,y")
	fs.IntVar(&v.maxIter, "max-iterations", d.MaxIterations, "spurious counterexamples excluded per abstraction level before it is widened")
	fs.Float64Var(&v.maxKeptShare, "max-kept-share", d.MaxKeptShare, "an abstraction keeping at least this share of the variables is skipped for a check of the whole program (1: never)")
	fs.IntVar(&v.relax, "relax", d.Relax, "after a spurious counterexample, retry the original program this many times with the core of the failed forced check dropped (built-in backend)")
	fs.StringVar(&v.refinement, "refinement", d.Refinement, "how spurious counterexamples are removed: monitor (order-only reconstruction, trie monitor of label sequences) or observer (values-and-order reconstruction, the paper's observer/controller)")
	fs.StringVar(&v.dump, "dump", "", "directory (created; when it exists and is not empty, the first of DIR.1, DIR.2, ... that does not or is empty: never overwritten) for every program a backend check was given (check-N.c, as the checker read it) with its log (check-N.log), and, in mode cegpv, every abstract, reconstructed and refined program, the kept set of every level (uU-LN-kept.txt), the blockers of every spurious counterexample with the source line beside each label, and every label with its file:line and source text (sources.txt)")
	fs.BoolVar(&v.showProps, "show-properties", false, "list the properties (assertions, and with --unwinding-assertions the unwinding properties of loops and recursive calls) with their ids, file:line and function, as CBMC's --show-properties, and exit")
	fs.BoolVar(&v.each, "each-property", false, "check every property separately (in parallel with -j)")
	fs.IntVarP(&v.jobs, "jobs", "j", 2, "parallel checks for --each-property")
	fs.BoolVar(&v.overflow, "signed-overflow-check", false, "also check every signed +, -, *, /, %, unary - and << for overflow, as CBMC and ESBMC do: one property per operation, <func>.overflow.<k> (--show-properties lists them)")
	fs.StringVar(&v.property, "property", "", "check only this property (ids as in --show-properties: main.assertion.1; an unwinding property such as main.unwind.0 is checked with unwinding assertions, for it alone)")
	fs.IntVar(&v.unwind, "unwind", d.Bounds.Unwind, "loop unwinding and recursion bound")
	fs.StringVar(&v.unwindSet, "unwindset", "", "bounds of their own for some loops and recursive functions, as CBMC's: L:k,... with L a loop id (main.0 for the loop of property main.unwind.0, --show-properties with --unwinding-assertions lists them) or a function's name for its recursive calls (f for f.recursion); the others keep --unwind (ESBMC and CBMC get the largest bound for every loop)")
	fs.BoolVar(&v.incremental, "incremental-bmc", false, "deepen the loops whose bound a run reaches, as ESBMC's option: with unwinding assertions (on with it), after a FALSE of a loop's unwinding property check again with that loop's bound doubled (--unwindset), until a proof, a FALSE of an assertion or the end of --timeout (UNKNOWN naming the last bound a run reached)")
	fs.BoolVar(&v.unwindAsrt, "unwinding-assertions", false, "check that the unwinding bound suffices, as CBMC: a run that takes a loop's back edge --unwind times, or calls a function with --unwind activations, violates that loop's or function's unwinding property (<func>.unwind.<k>, <func>.recursion): FALSE with its run; a TRUE is then a proof")
	fs.IntVar(&v.threads, "threads", 0, "thread instances per pthread_create in a loop (0: as many as the unwinding allows)")
	fs.IntVar(&v.maxThreads, "max-threads", d.Bounds.MaxThreads, "threads in one run, main included (the built-in backend and the explicit-state search cut runs there; a TRUE that cut one says \"at most N threads in a run\")")
	fs.IntVar(&v.rounds, "rounds", 0, "round-bounded mode: check the lazy sequentialisation of the program with R round-robin rounds over its threads (a TRUE then holds within R rounds; 0: off)")
	fs.IntVar(&v.roundsBeside, "rounds-beside", cegpv.DefaultRoundsBeside, "mode cegpv, programs with threads: once the mode has used 5s of CPU time (the probe's), ESBMC (when installed: --esbmc, on PATH or beside cegpv) also checks the program's lazy sequentialisation with R rounds; its FALSE is replayed and answers, its TRUE holds within R rounds and answers only when the mode ends without a verdict (0: off; under --rounds: off)")
	fs.IntVar(&v.contexts, "context-bound", 0, "context-switch bound for backends that have one (0: none); the built-in backend explores every interleaving and states no context bound")
	fs.IntVar(&v.memlimit, "memlimit", 0, "memory limit in MB for the whole check, cegpv and its solvers and checkers together (their resident sets, summed every 100 ms): past it they are killed and the verdict is UNKNOWN (out of memory); 0: none")
	secondsVar(fs, &v.timeout, "timeout", 0, "time limit for the whole check in seconds, as CBMC and ESBMC (30), or a duration (30s, 2m); 0: none")
	fs.BoolVar(&v.jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&v.sanity, "sanity", false, "check the program model's invariants after every pass of the loop (slice, refine, observer, reconstruct); a violation is an internal error naming the pass")
	fs.BoolVar(&v.noDeepen, "no-deepening", false, "check at the bounds only, without first looking for violations at smaller unwindings")
	fs.BoolVar(&v.noGeneralise, "no-generalise", false, "exclude each spurious counterexample as it is (its whole sequence of visible steps), without first generalising it to fewer labels with the explicit-state search (monitor refinement over a backend that is not incremental)")
	secondsVar(fs, &v.beyond, "beyond", d.BeyondMax, "after a bounded TRUE whose bounds cut some runs, look for a violation beyond the bounds (the backend at 4x the unwinding, an explicit-state search with loops unbounded) for at most this long: twice the time the check took, at least 15s, at most half the time left; a violation found is a real run, replayed (0: off)")
	secondsVar(fs, &v.probe, "probe", d.Probe, "mode cegpv over the builtin backend: first check the whole program alone for at most this long, and start the loop only when that has no verdict (0: off, the loop from the start; under --rounds the whole program's check races the loop instead)")
	fs.StringVar(&v.trace, "trace", report.TraceSource, "how the text output lists a counterexample: source (the source lines executed, with the values stored and returned and the shared values read, each with where it was stored) or steps (every step of the program model, temporaries and every read included); --trace alone is --trace=steps")
	fs.Lookup("trace").NoOptDefVal = report.TraceSteps
	fs.StringVar(&v.propertyFile, "propertyfile", "", "SV-COMP property file (.prp): unreach-call (__VERIFIER_error or reach_error) is checked; any other property is UNKNOWN (exit 7)")
	fs.StringVar(&v.witness, "witness", "", "also write an SV-COMP witness to this file: a violation witness for FALSE (GraphML 1.0 for .graphml, YAML 2.0 for .yml/.yaml), a correctness witness for TRUE (GraphML or a YAML 2.0 invariant_set, by the same suffixes)")
	fs.BoolVar(&v.version, "version", false, "print the version and exit")
	fs.MarkHidden("version")
	fs.StringVar(&v.html, "html", "", "also write the verdict as a self-contained HTML page to this file: the counterexample with one column per thread, the violated property, the CEGPV summary")
	fs.BoolVar(&v.explicit, "explicit", !d.NoExplicit, "on programs with loops and finite nondeterminism, also run an exhaustive explicit-state search beside the backend; the first verdict wins; and look for a violation the backend reports but whose trace cannot be followed (CBMC 5.4) with the same search (--explicit=false: the backend alone)")
	fs.BoolVar(&v.loopOnly, "loop-only", false, "the CEGPV loop alone, to measure the algorithm itself (docs/benchmarking.md): --mode cegpv --probe 0 --explicit=false --beyond 0, over any backend; a verdict another engine decides (the backend alone after a counterexample the loop cannot follow) is UNKNOWN, so every TRUE and FALSE is the loop's")
	grouped(fs, groupInput, "propertyfile", "property", "signed-overflow-check", "show-properties")
	grouped(fs, groupEngine, "mode", "backend", "solver", "beyond-solver", "esbmc", "esbmc-solver", "cbmc", "explicit", "loop-only", "rounds", "rounds-beside", "each-property", "jobs")
	grouped(fs, groupBounds, "unwind", "unwindset", "unwinding-assertions", "incremental-bmc", "threads", "max-threads", "context-bound", "timeout", "memlimit", "beyond", "probe", "no-deepening")
	grouped(fs, groupLoop, "heuristic", "refinement", "max-iterations", "max-kept-share", "relax", "no-generalise", "sanity", "dump")
	grouped(fs, groupOutput, "trace", "json", "html", "witness")
}

// validate rejects flag values that name nothing or bound nothing: a
// usage error, before any work.
func (v *verifyFlags) validate() error {
	oneOf := func(flag, val string, allowed []string) error {
		if slices.Contains(allowed, val) {
			return nil
		}
		return fmt.Errorf("unknown %s %q (%s)", flag, val, strings.Join(allowed, ", "))
	}
	var names []string
	for n := range backends {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, err := range []error{
		oneOf("--trace", v.trace, report.TraceStyles),
		oneOf("--refinement", v.refinement, loop.Refinements),
		oneOf("--mode", v.mode, cegpv.Modes),
		oneOf("--backend", v.backend, names),
	} {
		if err != nil {
			return err
		}
	}
	if _, err := depgraph.Lookup(v.heuristic); err != nil {
		return fmt.Errorf("--heuristic: %v", err)
	}
	if err := v.loopOnlyFlags(); err != nil {
		return err
	}
	if v.each && v.html != "" {
		return fmt.Errorf("--each-property with --html: the page shows one property's result; check that property with --property ID --html FILE")
	}
	if v.each && v.witness != "" {
		return fmt.Errorf("--each-property with --witness: a witness is about one property; check that property with --property ID --witness FILE")
	}
	if _, err := v.dataModel(); err != nil {
		return err
	}
	if v.unwindSet != "" {
		set, err := backend.ParseUnwindSet(v.unwindSet)
		if err != nil {
			return fmt.Errorf("--unwindset %v", err)
		}
		v.unwindSetList = set
	}
	if err := v.available(); err != nil {
		return err
	}
	switch {
	case v.unwind < 1:
		return fmt.Errorf("--unwind %d: want at least 1", v.unwind)
	case v.threads < 0:
		return fmt.Errorf("--threads %d: want 0 (as the unwinding) or more", v.threads)
	case v.maxThreads < 1:
		return fmt.Errorf("--max-threads %d: want at least 1 (main)", v.maxThreads)
	case v.rounds < 0:
		return fmt.Errorf("--rounds %d: want 0 (off) or more", v.rounds)
	case v.roundsBeside < 0:
		return fmt.Errorf("--rounds-beside %d: want 0 (off) or more", v.roundsBeside)
	case v.rounds > 0 && v.unwindAsrt:
		return fmt.Errorf("--rounds %d with --unwinding-assertions: the round-bounded sequentialisation does not check unwinding assertions", v.rounds)
	case v.rounds > 0 && v.incremental:
		return fmt.Errorf("--rounds %d with --incremental-bmc: the round-bounded sequentialisation does not check unwinding assertions", v.rounds)
	case v.rounds > 0 && v.unwindSet != "":
		return fmt.Errorf("--rounds %d with --unwindset: the round-bounded sequentialisation has one unwinding for every loop", v.rounds)
	case v.contexts < 0:
		return fmt.Errorf("--context-bound %d: want 0 (none) or more", v.contexts)
	case v.timeout < 0:
		return fmt.Errorf("--timeout %v: want 0 (none) or a positive duration", v.timeout)
	case v.memlimit < 0:
		return fmt.Errorf("--memlimit %d: want 0 (none) or a number of MB", v.memlimit)
	case v.beyond < 0:
		return fmt.Errorf("--beyond %v: want 0 (off) or a positive duration", v.beyond)
	case v.probe < 0:
		return fmt.Errorf("--probe %v: want 0 (off) or a positive duration", v.probe)
	case v.jobs < 1:
		return fmt.Errorf("-j %d: want at least 1", v.jobs)
	case v.maxIter < 0:
		return fmt.Errorf("--max-iterations %d: want 0 (the default) or more", v.maxIter)
	case v.maxKeptShare < 0:
		return fmt.Errorf("--max-kept-share %v: want a share between 0 and 1", v.maxKeptShare)
	}
	return nil
}

// available checks that the programs the flags name can be run: the
// solvers of the builtin backend, the checker of an external one.
func (v *verifyFlags) available() error {
	switch v.backend {
	case "builtin":
		for _, s := range []struct{ flag, spec string }{{"--solver", v.solver}, {"--beyond-solver", v.beyondSolver}} {
			if s.spec == "" {
				continue
			}
			argv, err := smt.Command(s.spec)
			if err != nil {
				return fmt.Errorf("%s: %v", s.flag, err)
			}
			if !smt.Available(argv) {
				return fmt.Errorf("%s %s: %s not found on PATH nor beside cegpv (presets: %s; make deps installs them)", s.flag, s.spec, argv[0], strings.Join(smt.PresetNames(), ", "))
			}
		}
	case "esbmc", "cbmc":
		path := map[string]string{"esbmc": v.esbmcPath, "cbmc": v.cbmcPath}[v.backend]
		if _, err := external.Lookup(v.backend, path); err != nil {
			how := map[string]string{"esbmc": "make deps installs it", "cbmc": "build it from its source"}[v.backend]
			if path != "" {
				return fmt.Errorf("--%s %s: no such program", v.backend, path)
			}
			return fmt.Errorf("--backend %s: %s not found on PATH nor beside cegpv (%s, or name it with --%s PATH)", v.backend, v.backend, how, v.backend)
		}
	}
	return nil
}

// bounds are the flags' bounds (validate parsed --unwindset).
func (v *verifyFlags) bounds() backend.Bounds {
	return backend.Bounds{Unwind: v.unwind, UnwindSet: v.unwindSetList, UnwindingAssertions: v.unwindAsrt, Threads: v.threads, MaxThreads: v.maxThreads, Contexts: v.contexts, Timeout: v.timeout, MemoryMB: v.memlimit}
}

// checkedBounds are the bounds a check with these flags checks within
// (cegpv.CheckOptions.CheckedBounds: --incremental-bmc turns unwinding
// assertions on).
func (v *verifyFlags) checkedBounds() backend.Bounds {
	o := cegpv.CheckOptions{IncrementalBMC: v.incremental}
	o.Bounds = v.bounds()
	return o.CheckedBounds()
}

func newVerifyCmd(c *cli) *cobra.Command {
	var vf verifyFlags
	cmd := command("verify [flags] FILE.c|TASK.yml", "check",
		"check the assertions of a C program or an SV-COMP task ('cegpv FILE.c' is the same)",
		`Checks the assertions (assert, __VERIFIER_assert, reach_error) of FILE.c, or of
the C file of an SV-COMP task definition TASK.yml (format 2.0: its data model
and its unreach-call property). The last line of the output is the verdict in
SV-COMP's words: TRUE (...), FALSE(unreach-call) property ID or UNKNOWN: reason.
'cegpv FILE.c' is 'cegpv verify FILE.c'. Every flag is in docs/verifying.md.

Exit codes (as CBMC): 0 TRUE, 10 FALSE, 5 UNKNOWN, 6 input rejected (a C
parse error too), 7 unsupported property, 1 usage.`)
	vf.register(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		code, err := runVerify(c, &vf, args)
		c.code = code
		return err
	}
	return cmd
}

func runVerify(c *cli, vf *verifyFlags, args []string) (int, error) {
	ctx, stdout, stderr := c.ctx, c.stdout, c.stderr
	if vf.version {
		fmt.Fprintln(stdout, svcomp.Version())
		return 0, nil
	}
	file, err := oneFile(args, "FILE.c or TASK.yml")
	if err != nil {
		return exitUsage, err
	}
	if err := vf.validate(); err != nil {
		return exitUsage, usageError{err}
	}
	if vf.dump != "" {
		dir, err := freshDir(vf.dump)
		if err != nil {
			fmt.Fprintf(stderr, "cegpv: --dump: %v\n", err)
			return exitUsage, nil
		}
		if dir != vf.dump {
			fmt.Fprintf(stderr, "cegpv: --dump %s exists: dumping into %s\n", vf.dump, dir)
		}
		vf.dump = dir
	}
	if svcomp.IsTaskFile(file) {
		c, code := vf.fromTask(file, stdout)
		if code >= 0 {
			return code, nil
		}
		file = c
	}
	var prop *svcomp.Property
	if vf.propertyFile != "" {
		var err error
		if prop, err = svcomp.ReadPropertyFile(vf.propertyFile); err != nil {
			fmt.Fprintf(stdout, "cegpv: %s\n\nUNKNOWN: %v\n", file, err)
			return exitUnsupported, nil
		}
		if !prop.Supported() {
			fmt.Fprintf(stdout, "cegpv: %s\n\nUNKNOWN: unsupported property %s (cegpv checks unreach-call)\n", file, prop.Name)
			return exitUnsupportedProperty, nil
		}
	}
	if vf.showProps {
		return showProperties(ctx, file, vf, stdout, stderr), nil
	}
	logw := stderr
	var stop func()
	if vf.verbose > 0 { // a status line below the log (elapsed, time left)
		logw, stop = verifyProgress(stderr, file, vf.timeout)
	}
	log := vf.logger(logw)
	outs := vf.outputs(stdout, prop)
	if vf.each {
		code, err := verifyEach(ctx, file, vf, vf.jobs, log, outs)
		if stop != nil {
			stop()
		}
		return code, err
	}
	o := verify(ctx, file, vf, log)
	if stop != nil {
		stop()
	}
	var ue usageError
	if errors.As(o.Err, &ue) {
		return exitUsage, ue
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		o.ChildrenRSSKB = ru.Maxrss
	}
	writeOutputs(outs, o, stderr)
	switch o.Verdict {
	case "TRUE":
		return exitSafe, nil
	case "FALSE":
		return exitUnsafe, nil
	}
	return exitCodeFor(o.Err), nil
}

// verify runs one check and never fails: every problem becomes UNKNOWN with
// the reason. The verdict is the library's (cegpv.Check); this only loads
// the file, builds the backend and turns the report into an outcome.
func verify(ctx context.Context, file string, vf *verifyFlags, log hclog.Logger) *report.Outcome {
	start := time.Now()
	o := vf.outcome(file)
	defer func() { o.Elapsed = time.Since(start); o.Stats.TotalSec = o.Elapsed.Seconds() }()
	unknown := func(err error) *report.Outcome {
		o.Err = err
		o.Reason = err.Error()
		return o
	}
	if vf.timeout > 0 { // the time limit covers the front end too
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, vf.timeout)
		defer cancel()
	}
	if vf.memlimit > 0 { // so does the memory limit
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		w := proc.WatchMemory(os.Getpid(), int64(vf.memlimit)<<20, true, func(int64) { cancel(errors.New("memory limit")) })
		defer func() {
			w.Stop()
			cancel(nil)
			if w.Exceeded() && o.Verdict != "TRUE" && o.Verdict != "FALSE" { // (a verdict reached stands)
				o.Verdict, o.Err = "UNKNOWN", program.Errorf(program.Memout, "%s", w.Reason())
				o.Reason = o.Err.Error()
			}
		}()
	}
	p, err := vf.load(ctx, file, log)
	if err != nil {
		return unknown(err)
	}
	if err := vf.checkProgram(p); err != nil {
		return unknown(usageError{err})
	}
	o.Program = p
	opts, err := vf.checkOptions(log)
	if err != nil {
		return unknown(err)
	}
	rep := cegpv.Check(ctx, p, opts)
	o.Fill(rep)
	return o
}

// freshDir creates the directory dir, or, when it exists and is not
// empty, the first of dir.1, dir.2, ... that does not exist or is empty:
// a dump never overwrites another.
func freshDir(dir string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return "", err
	}
	for n := 0; ; n++ {
		d := dir
		if n > 0 {
			d = fmt.Sprintf("%s.%d", filepath.Clean(dir), n)
		}
		err := os.Mkdir(d, 0o755)
		if err == nil {
			return d, nil
		}
		if !os.IsExist(err) {
			return "", err
		}
		if ents, err := os.ReadDir(d); err == nil && len(ents) == 0 {
			return d, nil // empty: nothing to overwrite
		}
	}
}

// loopOnlyFlags rejects the flags that contradict --loop-only (the
// library's CheckOptions.LoopOnly: --mode cegpv --probe 0 --explicit=false
// --beyond 0) or that make an engine other than the loop decide: the unwinding
// properties are checked on the whole program after the loop, and
// --each-property's verdict is not one run of the loop.
func (v *verifyFlags) loopOnlyFlags() error {
	if !v.loopOnly {
		return nil
	}
	changed := func(name string) bool { return v.fs != nil && v.fs.Changed(name) }
	switch {
	case v.mode != cegpv.ModeCEGPV:
		return fmt.Errorf("--loop-only with --mode %s: the loop is mode cegpv", v.mode)
	case changed("probe") && v.probe > 0:
		return fmt.Errorf("--loop-only with --probe %v: the probe is the backend alone on the whole program (--probe 0)", v.probe)
	case changed("explicit") && v.explicit:
		return fmt.Errorf("--loop-only with --explicit: the explicit-state search races the loop (--explicit=false)")
	case changed("beyond") && v.beyond > 0:
		return fmt.Errorf("--loop-only with --beyond %v: the search beyond the bounds is not the loop (--beyond 0)", v.beyond)
	case v.incremental:
		return fmt.Errorf("--loop-only with --incremental-bmc: the unwinding properties are checked on the whole program after the loop, not by it")
	case v.unwindAsrt:
		return fmt.Errorf("--loop-only with --unwinding-assertions: the unwinding properties are checked on the whole program after the loop, not by it")
	case v.each:
		return fmt.Errorf("--loop-only with --each-property: check one property at a time (--property ID)")
	}
	return nil
}

// checkProgram rejects the flags that name something the program does
// not have (--heuristic keep:x with no variable x), before any check.
func (vf *verifyFlags) checkProgram(p *program.Program) error {
	if _, err := backend.ResolveUnwindSet(p, vf.bounds()); err != nil {
		return err
	}
	if vf.mode != cegpv.ModeCEGPV {
		return nil
	}
	return checkKeep(p, vf.heuristic, "--heuristic")
}

// checkKeep says which variable of a keep:x,y heuristic the program lacks.
func checkKeep(p *program.Program, heuristic, flag string) error {
	h, err := depgraph.Lookup(heuristic)
	if err != nil || !strings.HasPrefix(heuristic, "keep:") {
		return err
	}
	g := depgraph.Build(p)
	for _, v := range h.Choose(g, nil) {
		if _, ok := g.Group[v]; !ok {
			return fmt.Errorf("%s %s: no variable %q in %s (locals are func::name)", flag, heuristic, v, p.File)
		}
	}
	return nil
}

// load reads and lowers file, with the signed-overflow checks when
// --signed-overflow-check is set.
func (vf *verifyFlags) load(ctx context.Context, file string, log hclog.Logger) (*program.Program, error) {
	p, err := load(ctx, file, &vf.commonFlags, log)
	if err != nil || !vf.overflow {
		return p, err
	}
	q, _ := overflow.Add(p)
	return q, nil
}

// outcome is the UNKNOWN outcome of checking file with these flags, before
// the check fills it.
func (vf *verifyFlags) outcome(file string) *report.Outcome {
	model, _ := vf.dataModel() // checked by validate
	return &report.Outcome{File: file, Verdict: "UNKNOWN", Mode: vf.mode, Backend: vf.backend, DataModel: string(model), Bounds: vf.checkedBounds().String()}
}

// checkOptions turns the flags into the library's options: its defaults
// (cegpv.DefaultCheckOptions) with the flags' values, each 0 meaning what
// it means there.
func (vf *verifyFlags) checkOptions(log hclog.Logger) (cegpv.CheckOptions, error) {
	be, err := newBackend(vf, log)
	if err != nil {
		return cegpv.CheckOptions{}, err
	}
	if vf.rounds > 0 {
		be = lazyseq.Backend{Inner: be, Rounds: vf.rounds, Logger: log.Named("lazyseq")}
	}
	h, err := depgraph.Lookup(vf.heuristic)
	if vf.mode == cegpv.ModeCEGPV && err != nil {
		return cegpv.CheckOptions{}, err
	}
	o := cegpv.DefaultCheckOptions()
	o.Backend, o.Bounds, o.Heuristic, o.Property, o.Logger = be, vf.bounds(), h, vf.property, log
	o.NoDeepening, o.NoGeneralise, o.Dump, o.Refinement, o.Sanity = vf.noDeepen, vf.noGeneralise, vf.dump, vf.refinement, vf.sanity
	o.MaxIterations, o.MaxKeptShare, o.Relax = vf.maxIter, vf.maxKeptShare, vf.relax
	o.Mode, o.BeyondMax, o.Probe, o.NoExplicit, o.LoopOnly = vf.mode, vf.beyond, vf.probe, !vf.explicit, vf.loopOnly
	o.IncrementalBMC = vf.incremental
	if vf.roundsBeside > 0 && vf.rounds == 0 {
		// the library decides where it races (CheckOptions.RoundsBeside);
		// here only whether ESBMC is there
		if _, err := external.Lookup("esbmc", vf.esbmcPath); err == nil {
			inner, err := backends["esbmc"](vf, log.Named("rounds-beside"))
			if err != nil {
				return cegpv.CheckOptions{}, err
			}
			o.RoundsBeside = lazyseq.Backend{Inner: inner, Rounds: vf.roundsBeside, Logger: log.Named("rounds-beside")}
			if vf.dump != "" { // its sequentialised C and ESBMC's log, apart from the mode's checks
				o.RoundsBeside = backend.Dumped(o.RoundsBeside, filepath.Join(vf.dump, "rounds-beside"), func(err error) { log.Warn("dump", "error", err) })
			}
		} else {
			log.Debug("no check of the sequentialisation beside the mode", "reason", err)
		}
	}
	return o, nil
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
	if vf.dump != "" { // every check's program and log, in every mode
		be = backend.Dumped(be, vf.dump, func(err error) { log.Warn("dump", "error", err) })
	}
	return be, nil
}

// backends maps --backend names to constructors.
var backends = map[string]func(*verifyFlags, hclog.Logger) (backend.Backend, error){}

// showProperties lists the properties of file (--show-properties), in
// CBMC's words, or as JSON.
func showProperties(ctx context.Context, file string, vf *verifyFlags, stdout, stderr io.Writer) int {
	p, err := vf.load(ctx, file, vf.logger(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv verify: %v\n", err)
		return exitCodeFor(err)
	}
	props := cegpv.CheckedPropertyDetails(p, vf.checkedBounds())
	if vf.jsonOut {
		type prop struct {
			program.PropertyDetail
			File string `json:"file"`
			Line int    `json:"line"`
		}
		out := []prop{}
		for _, d := range props {
			out = append(out, prop{d, d.Pos.File, d.Pos.Line})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return 0
	}
	for _, d := range props {
		fmt.Fprintf(stdout, "Property %s:\n  file %s line %d function %s\n  %s\n\n", d.ID, d.Pos.File, d.Pos.Line, d.Func, d.Text)
	}
	return 0
}

// fromTask reads an SV-COMP task definition (format 2.0) given to verify:
// its one C file is checked, with the task's data model unless a flag set
// one, and, unless --propertyfile names one, its unreach-call property
// (its first property when it has none: reported as not checked). code
// is an exit code when the task cannot be checked, -1 otherwise.
func (vf *verifyFlags) fromTask(task string, stdout io.Writer) (cfile string, code int) {
	t, err := svcomp.ReadTask(task)
	if err != nil {
		fmt.Fprintf(stdout, "cegpv: %s\n\nUNKNOWN: %v\n", task, err)
		return "", exitUnsupported
	}
	if len(t.InputFiles) != 1 {
		fmt.Fprintf(stdout, "cegpv: %s\n\nUNKNOWN: unsupported input: the task has %d input files; cegpv checks one C file\n", task, len(t.InputFiles))
		return "", exitUnsupported
	}
	if !vf.modelSet() {
		vf.model = string(t.DataModel)
	}
	if vf.propertyFile == "" {
		if tp := t.Checked(); tp != nil {
			vf.propertyFile = tp.File
		} else if len(t.Properties) > 0 {
			vf.propertyFile = t.Properties[0].File
		}
	}
	return t.InputFiles[0], -1
}

package interp

import (
	"cegpv.dev/cegpv/internal/machine"
	"errors"
	"fmt"
	"sort"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Status is how an execution ended.
type Status int

const (
	// Completed: Replay executed every step of the run (without a final
	// assertion failure); Simulate: every thread ended.
	Completed Status = iota
	// Violated: an assertion failed (the last step of the run).
	Violated
	// Errored: an execution error (invalid memory access, ...) ended the
	// execution; see Outcome.Err.
	Errored
	// Deadlock: Simulate: no thread can move and some have not ended.
	Deadlock
	// StepLimit: Simulate: SimOptions.MaxSteps steps were executed.
	StepLimit
	// Bounded: Simulate: the remaining threads were stopped at the
	// unwinding or recursion bound (and the others ended or are blocked).
	Bounded
)

func (s Status) String() string {
	switch s {
	case Completed:
		return "completed"
	case Violated:
		return "violated"
	case Errored:
		return "execution error"
	case Deadlock:
		return "deadlock"
	case StepLimit:
		return "step limit"
	case Bounded:
		return "bounded"
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// Failure is a failed assertion.
type Failure struct {
	Step   int // index in the run
	Thread int
	Label  program.Label
	Prop   string
	Msg    string
}

// Outcome is the result of an execution.
type Outcome struct {
	Status Status
	// Prop, Label and Step identify the failed assertion when Status is
	// Violated (Step is its index in Run.Steps); Step is -1 otherwise.
	Prop  string
	Label program.Label
	Step  int
	// Failures lists every failed assertion of the execution in order.
	// Replay continues past a failed assertion that is not the last step
	// (as backends that check one property at a time may do); Simulate
	// stops at the first one.
	Failures []Failure
	// Err is the execution error when Status is Errored.
	Err *machine.ExecError
	// Run is the run as executed, with every step's Assigned filled in
	// (and, for Simulate, every Nondet value drawn). Run.Violated is set
	// when Status is Violated.
	Run *program.Run
	// Diffs lists, for Replay, where the Assigned writes given in the run
	// differ from the executed ones (informational: the verdict does not
	// depend on them).
	Diffs []string
	// Final holds the contents of the globals and live heap blocks at the
	// end, by location name.
	Final map[string]program.Value
	// Threads is the number of threads created, main included.
	Threads int
	// Opaque lists the opaque values the run drew: for every executed step
	// whose instruction has a program.Nondet with Origin != "" among its
	// operands, "f at file:line" (f the Origin, the position the
	// instruction's), without duplicates, in the order of first occurrence.
	// Such a value over-approximates what an external function returns (or
	// whether it returns), so a violation found by a run with a non-empty
	// Opaque may not be a behaviour of the real program: it must not be
	// reported as FALSE on trust.
	Opaque []string
}

// opaqueDraws computes Outcome.Opaque for the steps of a run of p.
func opaqueDraws(ix *program.LabelIndex, steps []program.Step) []string {
	var out []string
	seen := map[string]bool{}
	done := map[program.Label]bool{}
	for _, s := range steps {
		if done[s.Label] {
			continue
		}
		done[s.Label] = true
		in := ix.Instr[s.Label]
		if in == nil {
			continue
		}
		for _, e := range in.Operands() {
			for _, o := range program.Opaque(e) {
				d := o + " at " + in.Pos.String()
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// Divergence says where and why a run does not replay.
type Divergence struct {
	Step   int
	Thread int
	Label  program.Label
	Reason string
}

func (d *Divergence) Error() string {
	return fmt.Sprintf("run does not replay: step %d (thread %d, %s): %s", d.Step, d.Thread, d.Label, d.Reason)
}

func diverge(step int, s program.Step, format string, args ...any) error {
	return &program.Error{Kind: program.Internal, Err: &Divergence{Step: step, Thread: s.Thread, Label: s.Label, Reason: fmt.Sprintf(format, args...)}}
}

// AsDivergence returns the Divergence inside err, if any.
func AsDivergence(err error) *Divergence {
	var d *Divergence
	if errors.As(err, &d) {
		return d
	}
	return nil
}

// replaySource hands out a step's Nondet values; missing ones are 0.
type replaySource struct {
	m    *machine.Machine
	t    *machine.Thread
	vals []program.Value
	used int
	err  error
}

func (s *replaySource) Next(t *program.Type) program.Value {
	i := s.used
	s.used++
	if i >= len(s.vals) {
		return program.Value{}
	}
	v, err := s.m.Internal(s.vals[i], s.t)
	if err != nil && s.err == nil {
		s.err = fmt.Errorf("nondet value %d: %v", i, err)
	}
	return v
}

// Judge replays a counterexample on p (soundness rule 1), the one
// replay-and-confirm of every engine's answer: it returns the
// replayed run, the violated property and the opaque values the run draws
// (rule 6: a run that draws any is no FALSE). An error (kind Internal)
// means run is not a violating run of p.
func Judge(p *program.Program, run *program.Run) (replayed *program.Run, prop string, opaque []string, err error) {
	if run == nil {
		return nil, "", nil, program.Errorf(program.Internal, "a violation was reported without a run")
	}
	out, err := Replay(p, run)
	if err != nil {
		return nil, "", nil, program.Errorf(program.Internal, "counterexample does not replay on the program: %v", err)
	}
	if out.Status != Violated {
		return nil, "", nil, program.Errorf(program.Internal, "counterexample replays without violating a property")
	}
	return out.Run, out.Prop, out.Opaque, nil
}

// Confirm is Judge for a run that must be a FALSE: the replayed run when
// it violates a property and draws no opaque value; otherwise an error
// says why not.
func Confirm(p *program.Program, run *program.Run) (_ *program.Run, err error) {
	defer program.Recover(&err)
	replayed, _, opaque, err := Judge(p, run)
	switch {
	case err != nil:
		return nil, err
	case len(opaque) > 0:
		return nil, fmt.Errorf("the run draws opaque values: %s", strings.Join(opaque, ", "))
	}
	return replayed, nil
}

// Replay executes run on p step by step. Each step must name the current
// instruction of its thread, and the step must be enabled: the thread
// exists and has not ended, no other thread is inside an atomic section,
// and the instruction is not blocked (a false assume, a held lock, a join
// of a thread that has not ended). Nondet values are taken from
// Step.Nondet (missing ones are 0; surplus ones are an error). A
// multi-target goto takes the target named by the thread's next step.
//
// When run.Violated is set the last step must be an Assert with that Prop
// whose condition is false. When it is an unwinding property
// (program.IsUnwinding), the run is replayed within the unwinding bound
// run.Unwind and run.UnwindSet (machine.Unwinder: every step but the last within it) and its
// last step must be refused at the bound: the back edge of a loop taken
// once more than the bound allows, or a call of a function that has
// run.Unwind activations on the thread's stack; the Outcome's Prop is the
// unwinding property of that loop or of the calling function in p (a
// translation of p may number its loops otherwise). Any deviation is
// returned as an error of kind
// program.Internal wrapping a *Divergence that gives the step index, label
// and reason; the Outcome is then nil.
//
// An execution error at the last step is reported in the Outcome (Status
// Errored); before the last step, or in a run that claims a violation, it
// is a divergence.
func Replay(p *program.Program, run *program.Run) (_ *Outcome, err error) {
	defer program.Recover(&err)
	return replay(p, run, nil, nil)
}

// replay is Replay; snap, when not nil, is called with the machine before
// each step and once after the last one (Configs); ob, when not nil,
// records the accesses of each step (Observe).
func replay(p *program.Program, run *program.Run, snap func(m *machine.Machine), ob *observer) (*Outcome, error) {
	if run == nil {
		return nil, program.Errorf(program.Internal, "replay of a nil run")
	}
	m, err := machine.New(p)
	if err != nil {
		return nil, err
	}
	if ob != nil {
		ob.start(m)
	}
	ix := program.NewIndex(p)
	out := &Outcome{Step: -1, Run: &program.Run{Steps: make([]program.Step, 0, len(run.Steps))}}
	last := len(run.Steps) - 1
	var unw *machine.Unwinder
	bound := "" // the bound the last step reaches (a run that ends at one)
	if program.IsUnwinding(run.Violated) {
		if run.Unwind < 1 {
			return nil, diverge(max(last, 0), program.Step{}, "the run claims a violation of the unwinding property %s but states no unwinding bound", run.Violated)
		}
		unw = machine.NewUnwinder(p, run.Unwind)
		unw.Set = run.UnwindSet
	}
	for i, s := range run.Steps {
		if snap != nil {
			snap(m)
		}
		if ix.Instr[s.Label] == nil {
			return nil, diverge(i, s, "no instruction has label %q", s.Label)
		}
		if s.Thread < 0 || s.Thread >= len(m.Threads) {
			return nil, diverge(i, s, "thread %d does not exist (%d threads created so far)", s.Thread, len(m.Threads))
		}
		t := m.Threads[s.Thread]
		if t.Ended {
			return nil, diverge(i, s, "thread %d has already ended", s.Thread)
		}
		cur := t.Current()
		if cur == nil || cur.Label != s.Label {
			at := "nowhere"
			if cur != nil {
				at = fmt.Sprintf("%s (%s)", cur.Label, cur)
			}
			return nil, diverge(i, s, "thread %d is at %s, the run says %s (%s)", s.Thread, at, s.Label, ix.Instr[s.Label])
		}
		if u := m.AtomicHolder(t); u != nil {
			return nil, diverge(i, s, "thread %d is inside an atomic section (at %s), no other thread may run", u.ID, labelOf(u))
		}
		if unw != nil {
			if why := unw.Call(m, t, cur); why != "" {
				if i != last {
					return nil, diverge(i, s, "the step is beyond the bounds: %s", why)
				}
				if len(s.Nondet) > 0 {
					return nil, diverge(i, s, "the call refused at the bound draws nothing, the run gives %d values", len(s.Nondet))
				}
				bound = why
				out.Run.Steps = append(out.Run.Steps, program.Step{Thread: s.Thread, Label: s.Label})
				break
			}
		}
		src := &replaySource{m: m, t: t, vals: s.Nondet}
		if ob != nil {
			ob.step, ob.thread, ob.spawn = i, s.Thread, cur.Op == program.OpSpawn
		}
		pick := func(targets []program.Label) program.Label {
			for _, n := range run.Steps[i+1:] {
				if n.Thread == s.Thread {
					for _, tg := range targets {
						if tg == n.Label {
							return tg
						}
					}
					break
				}
			}
			return targets[0]
		}
		hooks := machine.Hooks{Pick: pick}
		if unw != nil {
			hooks.BackEdge = unw.BackEdge
		}
		res, err := m.Exec(t, src, hooks)
		if src.err != nil {
			return nil, diverge(i, s, "%v", src.err)
		}
		if err != nil {
			var ee *machine.ExecError
			if !errors.As(err, &ee) {
				return nil, program.Errorf(program.Internal, "replay step %d (%s): %v", i, s.Label, err)
			}
			ee.Step = i
			if run.Violated != "" || i != len(run.Steps)-1 {
				return nil, diverge(i, s, "execution error: %s", ee.Msg)
			}
			out.Status, out.Err = Errored, ee
			out.Run.Steps = append(out.Run.Steps, program.Step{Thread: s.Thread, Label: s.Label, Nondet: s.Nondet})
			break
		}
		if src.used < len(s.Nondet) {
			return nil, diverge(i, s, "the step draws %d nondet values, the run gives %d", src.used, len(s.Nondet))
		}
		if res.Blocked != "" {
			if unw != nil && i == last && machine.AtBound(res.Blocked) {
				bound = res.Blocked
				out.Run.Steps = append(out.Run.Steps, program.Step{Thread: s.Thread, Label: s.Label, Nondet: s.Nondet})
				break
			}
			return nil, diverge(i, s, "the step is not enabled: %s", res.Blocked)
		}
		if unw != nil {
			unw.Left(t)
		}
		if ob != nil {
			ob.Returned[i] = res.Returned
		}
		if s.Assigned != nil {
			out.Diffs = append(out.Diffs, diffWrites(i, s, s.Assigned, res.Writes)...)
		}
		out.Run.Steps = append(out.Run.Steps, program.Step{Thread: s.Thread, Label: s.Label, Nondet: s.Nondet, Assigned: res.Writes})
		if res.Failed {
			out.Failures = append(out.Failures, Failure{Step: i, Thread: s.Thread, Label: s.Label, Prop: cur.Prop, Msg: cur.Msg})
		}
	}
	if snap != nil {
		snap(m)
	}
	out.Final = m.Final()
	out.Threads = len(m.Threads)
	out.Opaque = opaqueDraws(ix, out.Run.Steps)
	if unw != nil {
		if err := atBound(out, m, run, bound); err != nil {
			return nil, err
		}
		return out, nil
	}
	var lastFail *Failure
	if n := len(out.Failures); n > 0 && out.Failures[n-1].Step == last {
		lastFail = &out.Failures[n-1]
	}
	if run.Violated != "" {
		if last < 0 {
			return nil, diverge(0, program.Step{}, "the run is empty but claims a violation of %s", run.Violated)
		}
		s := run.Steps[last]
		in := ix.Instr[s.Label]
		switch {
		case in.Op != program.OpAssert:
			return nil, diverge(last, s, "the run claims a violation of %s but its last step is not an assertion (%s)", run.Violated, in)
		case in.Prop != run.Violated:
			return nil, diverge(last, s, "the run claims a violation of %s but its last step is assertion %s", run.Violated, in.Prop)
		case lastFail == nil:
			return nil, diverge(last, s, "the run claims a violation of %s but the assertion %s holds here", run.Violated, program.ExprString(in.Rhs))
		}
	}
	if lastFail != nil && out.Status != Errored {
		out.Status = Violated
		out.Prop, out.Label, out.Step = lastFail.Prop, lastFail.Label, lastFail.Step
		out.Run.Violated = lastFail.Prop
	}
	return out, nil
}

// atBound completes the Outcome of a run that claims a violation of an
// unwinding property: its last step must have reached a bound (bound, the
// reason it was refused); the property is that of the loop whose back
// edge it is, or of the function making the call.
func atBound(out *Outcome, m *machine.Machine, run *program.Run, bound string) error {
	last := len(run.Steps) - 1
	if last < 0 {
		return diverge(0, program.Step{}, "the run is empty but claims a violation of %s", run.Violated)
	}
	s := run.Steps[last]
	if bound == "" {
		return diverge(last, s, "the run claims a violation of the unwinding property %s but its last step reaches no bound of unwind %d", run.Violated, run.Unwind)
	}
	fr := m.Threads[s.Thread].Top()
	prop := program.LoopID(fr.Fn, fr.PC)
	if strings.HasPrefix(bound, machine.RecursionBound) {
		prop = program.RecursionID(fr.Fn.Name)
	}
	out.Failures = append(out.Failures, Failure{Step: last, Thread: s.Thread, Label: s.Label, Prop: prop, Msg: bound})
	out.Status, out.Prop, out.Label, out.Step = Violated, prop, s.Label, last
	out.Run.Violated, out.Run.Unwind, out.Run.UnwindSet = prop, run.Unwind, run.UnwindSet
	return nil
}

func labelOf(t *machine.Thread) program.Label {
	if in := t.Current(); in != nil {
		return in.Label
	}
	return "(end)"
}

// diffWrites compares the writes a run claims with the executed ones.
func diffWrites(i int, s program.Step, claimed, got []program.Write) []string {
	want := map[string]string{}
	for _, w := range claimed {
		want[w.Loc] = w.Val.String()
	}
	have := map[string]string{}
	for _, w := range got {
		have[w.Loc] = w.Val.String()
	}
	var out []string
	for _, k := range sortedKeys(want) {
		if h, ok := have[k]; !ok {
			out = append(out, fmt.Sprintf("step %d (%s): the run writes %s = %s, the execution does not write it", i, s.Label, k, want[k]))
		} else if h != want[k] {
			out = append(out, fmt.Sprintf("step %d (%s): the run writes %s = %s, the execution %s", i, s.Label, k, want[k], h))
		}
	}
	for _, k := range sortedKeys(have) {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("step %d (%s): the execution writes %s = %s, the run does not say", i, s.Label, k, have[k]))
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Format renders a run per thread step for reports: one line per step.
func Format(p *program.Program, run *program.Run) string {
	ix := program.NewIndex(p)
	var b strings.Builder
	for i, s := range run.Steps {
		text := "?"
		if in := ix.Instr[s.Label]; in != nil {
			text = in.String()
		}
		fmt.Fprintf(&b, "%4d  T%d  %-14s %s", i, s.Thread, s.Label, text)
		if len(s.Assigned) > 0 {
			var ws []string
			for _, w := range s.Assigned {
				ws = append(ws, w.Loc+"="+w.Val.String())
			}
			fmt.Fprintf(&b, "   [%s]", strings.Join(ws, ", "))
		}
		b.WriteByte('\n')
	}
	if run.Violated != "" {
		fmt.Fprintf(&b, "violated: %s\n", run.Violated)
	}
	return b.String()
}

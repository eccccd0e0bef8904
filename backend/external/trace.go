package external

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// State is one state of a checker's counterexample: the thread, the source
// position and the assignment it shows (Lhs empty: none).
type State struct {
	Thread int
	File   string
	Line   int // 0: no location
	Lhs    string
	Value  string // as printed, without the binary part
}

// Trace is a parsed counterexample.
type Trace struct {
	States []State
	// Violation is the failed assertion's location (Lhs empty), nil when
	// the output has no counterexample.
	Violation *State
	Property  string // the checker's property id, if it gives one
	Comment   string // the violated property's comment ("assertion x == 2")
}

// IntValue parses a scalar value as a checker prints it: a decimal integer
// (possibly followed by a binary part in parentheses, dropped), TRUE or
// FALSE.
func IntValue(s string) (program.Value, bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " ("); i >= 0 {
		s = s[:i]
	}
	switch s {
	case "TRUE", "true":
		return program.IntValue(1), true
	case "FALSE", "false":
		return program.IntValue(0), true
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return program.IntValue(v), true
	}
	if v, err := strconv.ParseUint(s, 10, 64); err == nil {
		return program.IntValue(int64(v)), true
	}
	// ESBMC prints some values of unsigned 64-bit types in hexadecimal
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		if v, err := strconv.ParseUint(h, 16, 64); err == nil {
			return program.IntValue(int64(v)), true
		}
	}
	return program.Value{}, false
}

// probeOf returns the line and index of a probe variable name.
func probeOf(lhs string) (line, k int, ok bool) {
	rest, found := strings.CutPrefix(lhs, "__cegpv_nd_")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rest, "_")
	if !found {
		return 0, 0, false
	}
	line, err1 := strconv.Atoi(a)
	k, err2 := strconv.Atoi(b)
	return line, k, err1 == nil && err2 == nil
}

// readOf returns the line of a read probe's name (ReadName).
func readOf(lhs string) (line int, ok bool) {
	rest, found := strings.CutPrefix(lhs, "__cegpv_rd_")
	if !found {
		return 0, false
	}
	line, err := strconv.Atoi(rest)
	return line, err == nil
}

// probed reports whether the instruction at l shows a state of its own in
// a trace before it runs: its nondet probes or its read probe.
func (f *follower) probed(l program.Label) bool {
	line := f.lineOf(l)
	return len(f.pr.Probes[line]) > 0 || f.pr.Reads[line]
}

// maxAdvance bounds the steps one thread takes to reach a trace state.
const maxAdvance = 1 << 16

// MapTrace executes p (the program printed as pr) along the trace tr of a
// checker named tool and returns the run, which ends in the assertion
// failure the trace reports. Any failure to follow the trace is an error
// of kind BadOutput.
func MapTrace(tool string, p *program.Program, pr *Printed, tr *Trace) (*program.Run, error) {
	return mapTrace(tool, p, pr, tr, 0)
}

// MapUnwinding is MapTrace for a failed unwinding assertion at bound
// unwind: the trace leads to the back edge of a loop (or a recursive call,
// for a recursion unwinding assertion) at the violation's line, where the
// run ends with that step refused at the bound (program.Run.Unwind); the
// run replays as a violation of the loop's (or calling function's)
// unwinding property. The checker's counting is not assumed to be cegpv's:
// the run ends at the first arrival there that replays as reaching the
// bound.
func MapUnwinding(tool string, p *program.Program, pr *Printed, tr *Trace, unwind int) (*program.Run, error) {
	return mapTrace(tool, p, pr, tr, max(unwind, 1))
}

func mapTrace(tool string, p *program.Program, pr *Printed, tr *Trace, unwind int) (*program.Run, error) {
	if tr == nil || tr.Violation == nil {
		return nil, program.Errorf(program.BadOutput, "%s: the output reports a violation but holds no counterexample", tool)
	}
	// a violation that is not at an assertion of the program is garbage,
	// not a trace with steps missing: no search stands in for it
	if l, ok := pr.Lines[tr.Violation.Line]; !ok || filepath.Base(tr.Violation.File) != filepath.Base(pr.File) {
		return nil, program.Errorf(program.BadOutput, "%s: the violated property at %s:%d is not an instruction of the printed program", tool, tr.Violation.File, tr.Violation.Line)
	} else if why := notAt(program.NewIndex(p), l, unwind); why != "" {
		return nil, program.Errorf(program.BadOutput, "%s: the violated property at line %d is not %s (%s)", tool, tr.Violation.Line, why, tr.Comment)
	}
	// the readings of a trace, tried in turn (each run found is replayed):
	// eager runs a thread's invisible steps right after its states;
	// repeats reads a store through a pointer shown several times in a row
	// (lhs and value alike) as one store: ESBMC 8.4 prints one state per
	// element the pointer may reach (four `stack[__tmp_0] = 0` for one
	// store into a 4-element array, pthread/stack_false)
	var first error
	for _, how := range []reading{{}, {eager: true}, {repeats: true}, {eager: true, repeats: true}} {
		run, err := follow(p, pr, tr, how, unwind)
		if err == nil {
			return run, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, program.Errorf(program.BadOutput, "%s: its counterexample cannot be followed on the program: %w: %v", tool, ErrUnfollowable, first)
}

// ErrUnfollowable is in the error of MapTrace when the trace does not
// lead to the violation on the program (CBMC 5.4, for one, prints no step
// of a thread other than main): backend.ErrUnfollowable, which
// cegpv.Check answers with the explicit-state search.
var ErrUnfollowable = backend.ErrUnfollowable

// reading is one way of following a trace (mapTrace tries them in turn).
type reading struct{ eager, repeats bool }

type ndVal struct {
	line, k int
	v       program.Value
}

type follower struct {
	p      *program.Program
	pr     *Printed
	ix     *program.LabelIndex
	st     *interp.Stepper
	queue  map[int][]ndVal // per thread, probe values in trace order
	last   map[int]program.Label
	stored map[int]bool            // the last execution's assignment state was seen
	seenK  map[int]map[int]bool    // probes seen of the last execution
	called map[int][]program.Label // Call labels executed, per thread
	lines  map[program.Label]int
	shown  map[int]State // the last state shown of each thread's last execution
	reading
}

func (f *follower) inFile(s State) (program.Label, bool) {
	if s.Line <= 0 || filepath.Base(s.File) != filepath.Base(f.pr.File) {
		return "", false
	}
	l, ok := f.pr.Lines[s.Line]
	return l, ok
}

// notAt says what the instruction at l should be and is not: an
// assertion (unwind 0), or a loop's back edge or a call.
func notAt(ix *program.LabelIndex, l program.Label, unwind int) string {
	in := ix.Instr[l]
	switch {
	case unwind == 0 && (in == nil || in.Op != program.OpAssert):
		return "an assertion"
	case unwind > 0 && (in == nil || in.Op != program.OpCall && ix.Func[l].LoopHead(ix.Pos[l]) < 0):
		return "a loop's back edge or a call"
	}
	return ""
}

func follow(p *program.Program, pr *Printed, tr *Trace, how reading, unwind int) (*program.Run, error) {
	st, err := interp.NewStepper(p)
	if err != nil {
		return nil, err
	}
	f := &follower{p: p, pr: pr, ix: program.NewIndex(p), st: st, queue: map[int][]ndVal{},
		last: map[int]program.Label{}, stored: map[int]bool{}, seenK: map[int]map[int]bool{}, called: map[int][]program.Label{}, reading: how, lines: map[program.Label]int{}, shown: map[int]State{}}
	for line, l := range pr.Lines {
		f.lines[l] = line
	}
	for _, s := range tr.States {
		if line, k, ok := probeOf(s.Lhs); ok && line == s.Line {
			// (a state elsewhere is the probe's declaration)
			v, ok := IntValue(s.Value)
			if !ok {
				return nil, fmt.Errorf("thread %d line %d: cannot read the value %q of %s", s.Thread, s.Line, s.Value, s.Lhs)
			}
			f.queue[s.Thread] = append(f.queue[s.Thread], ndVal{line, k, v})
		}
	}
	for i, s := range tr.States {
		lab, ok := f.inFile(s)
		if !ok {
			continue
		}
		if err := f.state(s, lab); err != nil {
			return nil, fmt.Errorf("trace state %d (thread %d, line %d): %v", i, s.Thread, s.Line, err)
		}
	}
	v := *tr.Violation
	lab, ok := f.inFile(v)
	if !ok {
		return nil, fmt.Errorf("the violated property at %s:%d is not an instruction of the printed program", v.File, v.Line)
	}
	if why := notAt(f.ix, lab, unwind); why != "" {
		return nil, fmt.Errorf("the violated property at line %d is not %s (%s)", v.Line, why, tr.Comment)
	}
	if unwind > 0 {
		return f.toBound(v.Thread, lab, unwind)
	}
	if err := f.advance(v.Thread, lab, nil); err != nil {
		return nil, fmt.Errorf("violation (thread %d, line %d): %v", v.Thread, v.Line, err)
	}
	run := f.st.Run()
	if run.Violated == "" {
		return nil, fmt.Errorf("the assertion at line %d (thread %d) holds on the run the trace leads to (%d steps: %v)", v.Line, v.Thread, len(run.Steps), run.Steps)
	}
	out, err := interp.Replay(p, run)
	if err != nil {
		return nil, err
	}
	if out.Status != interp.Violated {
		return nil, fmt.Errorf("the run replays to %s, not a violation", out.Status)
	}
	return out.Run, nil
}

// toBound steps thread t to lab, a back edge or a call, where the run
// reaches the unwinding bound unwind: at each arrival it tries the run so
// far ended by that step refused at the bound (interp.Replay decides),
// and otherwise executes it and goes on.
func (f *follower) toBound(t int, lab program.Label, unwind int) (*program.Run, error) {
	in := f.ix.Instr[lab]
	claim := program.LoopID(f.ix.Func[lab], f.ix.Pos[lab])
	if in.Op == program.OpCall {
		claim = program.RecursionID(f.ix.Func[lab].Name)
	}
	var last error
	for arrivals := 0; arrivals <= unwind; arrivals++ {
		if err := f.advanceTo(t, lab); err != nil {
			return nil, err
		}
		q0 := f.queue[t]
		var nd []program.Value
		if in.Op == program.OpGoto {
			var err error
			if nd, err = f.take(t, f.lineOf(lab)); err != nil {
				return nil, err
			}
		}
		run := f.st.Run()
		run = &program.Run{Steps: append(append([]program.Step(nil), run.Steps...), program.Step{Thread: t, Label: lab, Nondet: nd}), Violated: claim, Unwind: unwind}
		out, err := interp.Replay(f.p, run)
		if err == nil && out.Status == interp.Violated {
			return out.Run, nil
		}
		last = err
		f.queue[t] = q0
		if err := f.execWaiting(t, lab, nil); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("thread %d does not reach the bound %d at %s: %v", t, unwind, lab, last)
}

// advanceTo steps thread t until its next instruction is lab.
func (f *follower) advanceTo(t int, lab program.Label) error {
	if err := f.ensureThread(t); err != nil {
		return err
	}
	for i := 0; i < maxAdvance; i++ {
		cur := f.st.Next(t)
		switch cur {
		case "":
			return fmt.Errorf("thread %d has ended before reaching %s", t, lab)
		case lab:
			return nil
		}
		if err := f.execWaiting(t, cur, nil); err != nil {
			return err
		}
	}
	return fmt.Errorf("thread %d does not reach %s within %d steps", t, lab, maxAdvance)
}

// state accounts for one trace state at an instruction.
func (f *follower) state(s State, lab program.Label) error {
	t := s.Thread
	in := f.ix.Instr[lab]
	if line, _, ok := probeOf(s.Lhs); ok && line != s.Line {
		return nil // a probe's declaration
	}
	if line, ok := readOf(s.Lhs); ok {
		if line != s.Line || !f.pr.Reads[line] {
			return nil // its declaration
		}
		// the guard was evaluated here, between the other threads'
		// states around it
		if err := f.advance(t, lab, nil); err != nil {
			return err
		}
		if f.eager {
			f.runInvisible(t)
		}
		return nil
	}
	if f.last[t] == lab {
		if _, k, ok := probeOf(s.Lhs); ok {
			if !f.seenK[t][k] {
				f.seenK[t][k] = true
				return nil
			}
		} else if !f.stored[t] {
			f.stored[t] = true
			f.shown[t] = s
			return nil
		} else if f.repeats && f.shown[t] == s && writesThrough(in) {
			return nil // the same store shown once more
		}
	}
	if in.Op == program.OpCall && in.Lhs != nil && !isProbe(s.Lhs) {
		// the store of a call's result shows at the call's line after the callee returned
		if cs := f.called[t]; len(cs) > 0 && cs[len(cs)-1] == lab {
			if li := f.ix.Instr[f.last[t]]; li != nil && li.Op == program.OpReturn {
				f.called[t] = cs[:len(cs)-1]
				return nil
			}
			// the callee's last steps show no state (its returns, a
			// label; ESBMC: push's `return 0` after a call of its own
			// in pthread/stack_false)
		}
		// (a call whose result state was read as its own execution's
		// stays on the stack above: finished with the outer one)
		if i := slices.Index(f.called[t], lab); i >= 0 {
			if g := f.finishCall(t, lab); g != nil {
				*f = *g
				f.called[t] = f.called[t][:i]
				return nil
			}
		}
	}
	if err := f.advance(t, lab, &s); err != nil {
		return err
	}
	if _, k, ok := probeOf(s.Lhs); ok {
		f.seenK[t][k] = true
	} else {
		f.stored[t] = true
		f.shown[t] = s
	}
	if f.eager {
		f.runInvisible(t)
	}
	return nil
}

// finishCall runs thread t, on a copy, through steps that show no state
// in a trace until the call at lab has returned (its Return executed and
// the instruction after lab next); it returns the copy, or nil.
func (f *follower) finishCall(t int, lab program.Label) *follower {
	fn, pos := f.ix.Func[lab], f.ix.Pos[lab]
	if pos+1 >= len(fn.Body) {
		return nil
	}
	after := fn.Body[pos+1].Label
	g, err := f.clone()
	if err != nil {
		return nil
	}
	for i := 0; i < maxAdvance; i++ {
		if li := g.ix.Instr[g.last[t]]; li != nil && li.Op == program.OpReturn && g.st.Next(t) == after {
			return g
		}
		l := g.st.Next(t)
		in := g.ix.Instr[l]
		if in == nil || g.probed(l) {
			return nil
		}
		switch in.Op {
		case program.OpGoto, program.OpSkip, program.OpReturn, program.OpAtomicEnd, program.OpUnlock:
		default:
			return nil
		}
		if g.exec(t, l, nil) != nil {
			return nil
		}
	}
	return nil
}

func hasThreadID(e program.Expr) bool {
	found := false
	program.Walk(e, func(x program.Expr) bool {
		_, ok := x.(*program.ThreadID)
		found = found || ok
		return !found
	})
	return found
}

// writesThrough reports whether in stores through a pointer or into an
// element (its lvalue is not a whole variable).
func writesThrough(in *program.Instr) bool {
	if in == nil || in.Lhs == nil {
		return false
	}
	_, plain := in.Lhs.(*program.Ref)
	return !plain
}

func isProbe(lhs string) bool { _, _, ok := probeOf(lhs); return ok }

// runInvisible executes thread t's next instructions while they show no
// state in a trace (branches, assumptions, locks) and can run.
func (f *follower) runInvisible(t int) {
	for i := 0; i < maxAdvance; i++ {
		l := f.st.Next(t)
		in := f.ix.Instr[l]
		if in == nil || !f.st.Enabled(t) {
			return
		}
		switch {
		case in.Op == program.OpGoto, in.Op == program.OpSkip, in.Op == program.OpAssume, in.Op == program.OpLock, in.Op == program.OpUnlock,
			in.Op == program.OpAtomicBegin, in.Op == program.OpAtomicEnd, in.Op == program.OpReturn, in.Op == program.OpExit:
			// (a return stores, if at all, into the caller's lvalue: the
			// trace shows that store at the call's line, after the return)
		case in.Op == program.OpJoin && f.privateStore(t, in):
		default:
			return
		}
		if f.probed(l) {
			return
		}
		if f.exec(t, l, nil) != nil {
			return
		}
	}
}

func (f *follower) lineOf(l program.Label) int { return f.lines[l] }

// unblock lets other threads take steps that show no state in a trace
// (a thread stopped at its last state may still have to leave an atomic
// section, release a lock or end before t can go on). It reports whether
// some thread moved. A goto with a read probe waits for its state, unless
// lenient: a checker shows none for a guard it folded to a constant, and
// a thread past its last state may still have to pass one (the replay
// checks whatever placement results).
func (f *follower) unblock(t int, lenient bool) bool {
	// a thread inside an atomic section must leave it first: the trace
	// shows t's step after it, so the section ended before
	for u := 0; u < f.st.Threads(); u++ {
		if u == t || !f.st.Enabled(u) || f.st.Enabled(t) {
			continue
		}
		moved := false
		for i := 0; i < maxAdvance && f.st.Enabled(u) && !f.st.Enabled(t); i++ {
			l := f.st.Next(u)
			if l == "" || f.exec(u, l, nil) != nil {
				break
			}
			moved = true
		}
		if moved {
			return true
		}
	}
	moved := false
	for u := 0; u < f.st.Threads(); u++ {
		if u == t {
			continue
		}
		for i := 0; i < maxAdvance && f.st.Enabled(u); i++ {
			l := f.st.Next(u)
			in := f.ix.Instr[l]
			if in == nil {
				break
			}
			switch {
			case in.Op == program.OpJoin && !f.privateStore(u, in): // stores the result into shared memory: a write like any other
				i = maxAdvance
				continue
			case in.Op == program.OpGoto, in.Op == program.OpSkip, in.Op == program.OpAssume, in.Op == program.OpLock, in.Op == program.OpUnlock,
				in.Op == program.OpAtomicBegin, in.Op == program.OpAtomicEnd, in.Op == program.OpReturn, in.Op == program.OpJoin, in.Op == program.OpExit:
			case in.Op == program.OpCall && in.Lhs == nil:
				// binds only the callee's parameters, which ESBMC's
				// sliced trace leaves out when nothing reads them (a
				// call of a function that ends the thread with
				// pthread_exit, which a join waits for)
			case in.Op == program.OpAssign && hasThreadID(in.Rhs):
				// ESBMC 8.4's trace does not show the store of
				// pthread_self()'s result (a library call's return); its
				// value is the thread's id, whatever the trace
			default:
				i = maxAdvance
				continue
			}
			if len(f.pr.Probes[f.lineOf(l)]) > 0 || f.pr.Reads[f.lineOf(l)] && !lenient || f.exec(u, l, nil) != nil {
				break
			}
			moved = true
			if f.st.Enabled(t) && in.Op != program.OpGoto && in.Op != program.OpSkip {
				return true
			}
		}
	}
	return moved
}

// advance steps thread t until it has executed lab (with the trace state
// s there).
func (f *follower) advance(t int, lab program.Label, s *State) error {
	if err := f.advanceTo(t, lab); err != nil {
		return err
	}
	return f.execWaiting(t, lab, s)
}

// execWaiting executes cur in thread t, letting the other threads take
// invisible steps first while it is blocked (unblock).
func (f *follower) execWaiting(t int, cur program.Label, s *State) error {
	err := f.exec(t, cur, s)
	for tries := 0; err != nil && errors.Is(err, interp.ErrBlocked) && tries < 64; tries++ {
		if !f.unblock(t, false) && !f.unblock(t, true) {
			break
		}
		err = f.exec(t, cur, s)
	}
	return err
}

// ensureThread makes thread t exist: threads are numbered by creation, so
// the next Spawn executed creates it; the creator is found by trying each
// thread in turn on a copy of the execution so far.
func (f *follower) ensureThread(t int) error {
	for f.st.Threads() <= t {
		n := f.st.Threads()
		found := false
		for u := 0; u < n && !found; u++ {
			trial, err := f.clone()
			if err != nil {
				return err
			}
			if trial.runToSpawn(u) {
				*f = *trial
				found = true
			}
		}
		if !found {
			return fmt.Errorf("no thread can create thread %d", n)
		}
	}
	return nil
}

func (f *follower) runToSpawn(u int) bool {
	for i := 0; i < maxAdvance; i++ {
		cur := f.st.Next(u)
		in := f.ix.Instr[cur]
		if in == nil {
			return false
		}
		if f.exec(u, cur, nil) != nil {
			return false
		}
		if in.Op == program.OpSpawn {
			return true
		}
	}
	return false
}

// clone re-executes the steps so far on a new Stepper.
func (f *follower) clone() (*follower, error) {
	st, err := interp.NewStepper(f.p)
	if err != nil {
		return nil, err
	}
	steps := f.st.Run().Steps
	for i, s := range steps {
		target := program.Label("")
		if in := f.ix.Instr[s.Label]; in != nil && in.Op == program.OpGoto && len(in.Targets) > 1 {
			target = nextOf(steps[i+1:], s.Thread)
		}
		if err := st.Step(program.Step{Thread: s.Thread, Label: s.Label, Nondet: s.Nondet}, target); err != nil {
			return nil, err
		}
	}
	g := *f
	g.st = st
	g.queue = map[int][]ndVal{}
	for k, v := range f.queue {
		g.queue[k] = append([]ndVal(nil), v...)
	}
	g.last, g.stored, g.shown, g.seenK, g.called = copyMap(f.last), copyMap(f.stored), copyMap(f.shown), map[int]map[int]bool{}, map[int][]program.Label{}
	for k, v := range f.seenK {
		g.seenK[k] = copyMap(v)
	}
	for k, v := range f.called {
		g.called[k] = append([]program.Label(nil), v...)
	}
	return &g, nil
}

func copyMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func nextOf(steps []program.Step, t int) program.Label {
	for _, s := range steps {
		if s.Thread == t {
			return s.Label
		}
	}
	return ""
}

// exec executes thread t's current instruction cur, drawing its
// nondeterministic values from the probes (or, for a Decl, the value
// the trace state s shows).
func (f *follower) exec(t int, cur program.Label, s *State) (err error) {
	in := f.ix.Instr[cur]
	line := f.lineOf(cur)
	var nd []program.Value
	target := program.Label("")
	q0 := f.queue[t]
	defer func() {
		if err != nil {
			f.queue[t] = q0 // nothing was executed
		}
	}()
	if probes := f.pr.Probes[line]; len(probes) > 0 {
		if nd, err = f.take(t, line); err != nil {
			return err
		}
		if f.pr.Switch[line] {
			sel := nd[len(nd)-1]
			nd = nd[:len(nd)-1]
			i := int(sel.Bits)
			if sel.Bits < 0 || sel.Bits >= int64(len(in.Targets)-1) {
				i = len(in.Targets) - 1
			}
			target = in.Targets[i]
		}
	} else if in.Op == program.OpDecl && s != nil {
		if v, ok := IntValue(s.Value); ok {
			nd = []program.Value{v}
		}
	}
	if !f.st.Enabled(t) {
		return fmt.Errorf("thread %d at %s: %w", t, cur, interp.ErrBlocked)
	}
	if err = f.st.Step(program.Step{Thread: t, Label: cur, Nondet: nd}, target); err != nil {
		return err
	}
	f.last[t] = cur
	f.stored[t] = false
	f.seenK[t] = map[int]bool{}
	if in.Op == program.OpCall && in.Lhs != nil {
		f.called[t] = append(f.called[t], cur)
	}
	return nil
}

// take takes the values of the probes of line from thread t's queue.
func (f *follower) take(t, line int) ([]program.Value, error) {
	var nd []program.Value
	q := f.queue[t]
	for k := range f.pr.Probes[line] {
		if len(q) == 0 || q[0].line != line || q[0].k != k {
			return nil, fmt.Errorf("thread %d at line %d: the trace gives no value for nondet %d", t, line, k)
		}
		nd = append(nd, q[0].v)
		q = q[1:]
	}
	f.queue[t] = q
	return nd, nil
}

// privateStore reports whether in (of thread t) stores nothing, or only
// into a local of its function whose address is never taken: a store no
// other thread can see, so running it early changes no other step.
func (f *follower) privateStore(t int, in *program.Instr) bool {
	if in.Lhs == nil {
		return true
	}
	r, ok := in.Lhs.(*program.Ref)
	if !ok || !r.Local {
		return false
	}
	fn := f.ix.Func[f.st.Next(t)]
	if fn == nil {
		return false
	}
	v := fn.Var(r.Name)
	return v != nil && !v.AddrTaken
}

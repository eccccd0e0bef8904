package interp

import (
	"cegpv.dev/cegpv/internal/machine"
	"errors"
	"math/rand"

	"cegpv.dev/cegpv/program"
)

// SimOptions configures Simulate.
type SimOptions struct {
	Seed int64
	// MaxSteps bounds the length of the execution (default 10000).
	MaxSteps int
	// ContextSwitchProb is the probability of switching to another
	// (random) enabled thread before a step; the current thread is also
	// left when it cannot move.
	ContextSwitchProb float64
	// NondetRange: integer nondet values are drawn from [-R, R] ([0, 2R]
	// for unsigned types) half of the time, the rest from boundary values
	// (0, ±1, min, max, ...) and uniformly random bit patterns. Default 16.
	NondetRange int64
	// Unwind, when > 0, stops a thread that would take the back edge (a
	// jump to an instruction at or before the goto) of a loop more than
	// Unwind-1 times per entry into the loop, or call a function that has
	// Unwind activations on its stack, so that the execution stays within
	// the bounds of a BMC run with unwind Unwind (docs/conventions.md
	// "Bounds": as in CBMC, the body of a loop runs at most Unwind times,
	// and a loop that iterates n times needs unwind n+1 to be left).
	Unwind int
	// UnwindSet gives loops and recursive calls a bound of their own in
	// place of Unwind, by program.Unwinding.Key (--unwindset; only with
	// Unwind > 0).
	UnwindSet map[string]int
	// AssumeRetries is how often an assume with nondet operands is
	// re-drawn before its thread counts as blocked (default 20).
	AssumeRetries int
}

type randSource struct {
	rng   *rand.Rand
	rng64 int64
	drawn []program.Value
	m     *machine.Machine
}

func (s *randSource) Next(t *program.Type) program.Value {
	v := s.value(t)
	s.drawn = append(s.drawn, s.m.External(v))
	return v
}

func (s *randSource) value(t *program.Type) program.Value {
	switch t.Kind {
	case program.Bool:
		return program.Value{Bits: int64(s.rng.Intn(2))}
	case program.Int:
	case program.Pointer, program.Mutex, program.Cond, program.Function, program.Void:
		return program.Value{}
	default:
		return program.Value{}
	}
	w := t.Bits()
	var v int64
	switch r := s.rng.Intn(10); {
	case r < 5:
		R := s.rng64
		if t.Signed {
			v = s.rng.Int63n(2*R+1) - R
		} else {
			v = s.rng.Int63n(2*R + 1)
		}
	case r < 7:
		var min, max int64
		if t.Signed {
			min, max = -1<<(w-1), 1<<(w-1)-1
		} else {
			min, max = 0, -1 // all ones
			if w < 64 {
				max = 1<<w - 1
			}
		}
		cands := []int64{0, 1, -1, min, max, min + 1, max - 1, 2}
		v = cands[s.rng.Intn(len(cands))]
	default:
		v = int64(s.rng.Uint64())
	}
	return program.Value{Bits: program.Normalize(t, v)}
}

// Simulate runs p once with a random scheduler and random nondet values
// drawn from a math/rand source seeded with opts.Seed. The returned
// Outcome's Run replays with Replay (and ends with the failing assertion
// when Status is Violated). Simulate stops at the first failed assertion,
// the first execution error, a deadlock, or the step limit.
func Simulate(p *program.Program, opts SimOptions) (_ *Outcome, err error) {
	defer program.Recover(&err)
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 10000
	}
	if opts.NondetRange <= 0 {
		opts.NondetRange = 16
	}
	if opts.AssumeRetries <= 0 {
		opts.AssumeRetries = 20
	}
	m, err := machine.New(p)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewSource(opts.Seed))
	unw := machine.NewUnwinder(p, opts.Unwind)
	unw.Set = opts.UnwindSet
	out := &Outcome{Step: -1, Run: &program.Run{}}
	cur := 0
	finish := func(st Status) (*Outcome, error) {
		out.Status = st
		out.Final = m.Final()
		out.Threads = len(m.Threads)
		out.Opaque = opaqueDraws(program.NewIndex(p), out.Run.Steps)
		return out, nil
	}
	rounds := 0
	for len(out.Run.Steps) < opts.MaxSteps {
		// every round executes a step or stops a thread
		if rounds++; rounds > opts.MaxSteps+len(m.Threads)+16 {
			return nil, program.Errorf(program.Internal, "simulate: no progress after %d scheduling rounds", rounds)
		}
		// candidates: live, not stopped; only the atomic owner if any
		var cands []*machine.Thread
		for _, t := range m.Threads {
			if !t.Ended && t.Stopped == "" {
				cands = append(cands, t)
			}
		}
		if len(cands) == 0 {
			for _, t := range m.Threads {
				if t.Stopped != "" {
					return finish(Bounded)
				}
			}
			return finish(Completed)
		}
		for _, t := range m.Threads {
			if !t.Ended && t.Atomic > 0 {
				if t.Stopped != "" {
					return finish(Bounded)
				}
				cands = []*machine.Thread{t}
				break
			}
		}
		// order: the current thread first, unless we switch: then the
		// other threads first, in random order
		rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		for i, t := range cands {
			if t.ID == cur {
				if rng.Float64() >= opts.ContextSwitchProb {
					cands[0], cands[i] = cands[i], cands[0]
				} else {
					cands = append(append(cands[:i:i], cands[i+1:]...), t)
				}
				break
			}
		}
		moved := false
		for _, t := range cands {
			in := t.Current()
			tries := 1
			if in.Op == program.OpAssume && program.HasNondet(in.Rhs) ||
				(in.Op == program.OpAssign || in.Op == program.OpDecl) && nextIsAssume(t) {
				tries = opts.AssumeRetries
			}
			if opts.Unwind > 0 {
				if why := unw.Call(m, t, in); why != "" {
					t.Stopped = why
					continue
				}
			}
			for k := 0; k < tries; k++ {
				src := &randSource{rng: rng, rng64: opts.NondetRange, m: m}
				h := machine.Hooks{
					Pick: func(targets []program.Label) program.Label { return targets[rng.Intn(len(targets))] },
				}
				if opts.Unwind > 0 {
					h.BackEdge = unw.BackEdge
				}
				idx := len(out.Run.Steps)
				fr, pc := t.Top(), t.Top().PC
				res, err := m.Exec(t, src, h)
				if err != nil {
					var ee *machine.ExecError
					if !errors.As(err, &ee) {
						return nil, err
					}
					ee.Step = idx
					out.Err = ee
					out.Run.Steps = append(out.Run.Steps, program.Step{Thread: t.ID, Label: in.Label, Nondet: src.drawn})
					return finish(Errored)
				}
				if res.Blocked != "" {
					if opts.Unwind > 0 && in.Op == program.OpGoto {
						t.Stopped = res.Blocked
						break
					}
					continue
				}
				// Look ahead: a nondet value that the next assume of the
				// thread rejects is drawn again (the step is undone).
				if k < tries-1 && len(src.drawn) > 0 && (in.Op == program.OpAssign || in.Op == program.OpDecl) &&
					!t.Ended && t.Top() == fr && fr.PC == pc+1 && assumeFails(m, t) {
					for j := len(res.Undo) - 1; j >= 0; j-- {
						u := res.Undo[j]
						u.Obj.Writable()[u.Off] = u.Old
					}
					fr.PC = pc
					continue
				}
				out.Run.Steps = append(out.Run.Steps, program.Step{Thread: t.ID, Label: in.Label, Nondet: src.drawn, Assigned: res.Writes})
				unw.Left(t)
				cur = t.ID
				moved = true
				if res.Failed {
					out.Failures = append(out.Failures, Failure{Step: idx, Thread: t.ID, Label: in.Label, Prop: in.Prop, Msg: in.Msg})
					out.Prop, out.Label, out.Step = in.Prop, in.Label, idx
					out.Run.Violated = in.Prop
					return finish(Violated)
				}
				break
			}
			if moved {
				break
			}
		}
		if !moved {
			stoppedAny := false
			for _, t := range m.Threads {
				if t.Stopped != "" {
					stoppedAny = true
				}
			}
			progress := false
			for _, t := range cands {
				if t.Stopped != "" {
					progress = true // a thread was stopped in this round: look again
				}
			}
			if progress {
				continue
			}
			if stoppedAny {
				return finish(Bounded)
			}
			return finish(Deadlock)
		}
	}
	return finish(StepLimit)
}

// nextIsAssume reports whether the instruction after t's current one is an
// assume without nondet operands.
func nextIsAssume(t *machine.Thread) bool {
	fr := t.Top()
	if fr == nil || fr.PC+1 >= len(fr.Fn.Body) {
		return false
	}
	in := fr.Fn.Body[fr.PC+1]
	return in.Op == program.OpAssume && !program.HasNondet(in.Rhs)
}

// assumeFails reports whether t's current instruction is an assume whose
// condition is false now (an evaluation error counts as not failing: the
// step will report it when it runs).
func assumeFails(m *machine.Machine, t *machine.Thread) bool {
	in := t.Current()
	if in == nil || in.Op != program.OpAssume || program.HasNondet(in.Rhs) {
		return false
	}
	v, err := m.Eval(t, in.Rhs)
	return err == nil && !machine.Truth(v)
}

package interp

import (
	"cegpv.dev/cegpv/internal/machine"
	"errors"
	"fmt"

	"cegpv.dev/cegpv/program"
)

// Stepper executes a program one step at a time, for callers that build a
// run step by step (tests that look for a run of one program matching a
// run of another). Its steps have the semantics of Replay's.
type Stepper struct {
	p      *program.Program
	m      *machine.Machine
	ix     *program.LabelIndex
	run    *program.Run
	failed bool
}

// ErrBlocked is returned (wrapped) by Stepper.Step when the step is not
// enabled; the state is then unchanged.
var ErrBlocked = errors.New("step not enabled")

// NewStepper starts an execution of p.
func NewStepper(p *program.Program) (*Stepper, error) {
	m, err := machine.New(p)
	if err != nil {
		return nil, err
	}
	return &Stepper{p: p, m: m, ix: program.NewIndex(p), run: &program.Run{}}, nil
}

// Next returns the label of the instruction thread t executes next, or ""
// when t does not exist or has ended.
func (s *Stepper) Next(t int) program.Label {
	if t < 0 || t >= len(s.m.Threads) {
		return ""
	}
	if in := s.m.Threads[t].Current(); in != nil {
		return in.Label
	}
	return ""
}

// Threads returns the number of threads created so far.
func (s *Stepper) Threads() int { return len(s.m.Threads) }

// Enabled reports whether thread t may run now as far as atomic sections
// go (it exists, has not ended, and no other thread is inside one).
func (s *Stepper) Enabled(t int) bool {
	if t < 0 || t >= len(s.m.Threads) || s.m.Threads[t].Ended {
		return false
	}
	return s.m.AtomicOwner(s.m.Threads[t]) == nil
}

// Step executes st (its thread's current instruction, with st.Nondet);
// target chooses the target of a multi-target goto ("" for the first).
// A step that is not enabled returns an error wrapping ErrBlocked and
// changes nothing; any other error (a wrong label, an execution error)
// leaves the Stepper unusable.
func (s *Stepper) Step(st program.Step, target program.Label) error {
	if s.failed {
		return fmt.Errorf("stepper: an earlier step failed")
	}
	if !s.Enabled(st.Thread) {
		return fmt.Errorf("thread %d cannot run: %w", st.Thread, ErrBlocked)
	}
	t := s.m.Threads[st.Thread]
	if cur := t.Current(); cur == nil || cur.Label != st.Label {
		return fmt.Errorf("thread %d is at %s, not %s", st.Thread, labelOf(t), st.Label)
	}
	src := &replaySource{m: s.m, t: t, vals: st.Nondet}
	pick := func(targets []program.Label) program.Label {
		for _, tg := range targets {
			if tg == target {
				return tg
			}
		}
		return targets[0]
	}
	res, err := s.m.Exec(t, src, machine.Hooks{Pick: pick})
	if err == nil && src.err != nil {
		err = src.err
	}
	if err != nil {
		s.failed = true
		return err
	}
	if res.Blocked != "" {
		return fmt.Errorf("%s: %w", res.Blocked, ErrBlocked)
	}
	s.run.Steps = append(s.run.Steps, program.Step{Thread: st.Thread, Label: st.Label, Nondet: st.Nondet, Assigned: res.Writes})
	if res.Failed {
		s.run.Violated = propAt(s.ix, st.Label)
	} else {
		s.run.Violated = ""
	}
	return nil
}

// Run returns the steps executed so far (Violated is set when the last
// one failed an assertion).
func (s *Stepper) Run() *program.Run { return s.run }

// Config returns the current configuration (see Configs).
func (s *Stepper) Config() *Config { return snapshot(s.m) }

// propAt is the property of the instruction labelled l ("" if none).
func propAt(ix *program.LabelIndex, l program.Label) string {
	if in := ix.Instr[l]; in != nil {
		return in.Prop
	}
	return ""
}

package interp

import (
	"cegpv.dev/cegpv/overflow"
	"cegpv.dev/cegpv/program"
)

// Overflow is a step of a run that overflows a signed operation (undefined
// behaviour in C), found by Overflows.
type Overflow struct {
	Step int    // index in the run
	Prop string // the check's property in overflow.Add(p)
	Msg  string // "arithmetic overflow on signed + in x + 1"
}

// Overflows returns the steps of run, a run of p, whose instruction
// overflows a signed operation, whatever property the run violates: the
// run is replayed on overflow.Add(p), each step preceded by the steps its
// checks add there (the values it draws go to the temporaries that take
// them), and every check that fails is one. A program that has overflow
// properties already (--signed-overflow-check) has none to report: they
// are properties of their own.
func Overflows(p *program.Program, run *program.Run) ([]Overflow, error) {
	for _, pr := range program.Properties(p) {
		if program.PropKind(pr) == overflow.Kind {
			return nil, nil
		}
	}
	q, layout := overflow.Add(p)
	if len(layout) == 0 {
		return nil, nil
	}
	ix := program.NewIndex(q)
	var steps []program.Step
	var orig []int // index in run of each step of steps
	for i, s := range run.Steps {
		lay, ok := layout[s.Label]
		if !ok {
			steps, orig = append(steps, program.Step{Thread: s.Thread, Label: s.Label, Nondet: s.Nondet}), append(orig, i)
			continue
		}
		if len(s.Nondet) < lay.Hoisted {
			return nil, program.Errorf(program.Internal, "overflows: step %d (%s) draws %d values, its checks hoist %d", i, s.Label, len(s.Nondet), lay.Hoisted)
		}
		for j, l := range lay.Labels {
			st := program.Step{Thread: s.Thread, Label: l}
			switch in := ix.Instr[l]; {
			case j < 2*lay.Hoisted && in.Op == program.OpDecl:
				st.Nondet = []program.Value{{}} // a fresh scalar's contents, overwritten at once
			case j < 2*lay.Hoisted:
				st.Nondet = []program.Value{s.Nondet[j/2]}
			}
			steps, orig = append(steps, st), append(orig, i)
		}
		steps = append(steps, program.Step{Thread: s.Thread, Label: s.Label, Nondet: s.Nondet[lay.Hoisted:]})
		orig = append(orig, i)
	}
	out, err := Replay(q, &program.Run{Steps: steps})
	if err != nil {
		return nil, err
	}
	var res []Overflow
	for _, f := range out.Failures {
		if program.PropKind(f.Prop) == overflow.Kind {
			res = append(res, Overflow{Step: orig[f.Step], Prop: f.Prop, Msg: f.Msg})
		}
	}
	return res, nil
}

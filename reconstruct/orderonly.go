package reconstruct

import (
	"fmt"

	"cegpv.dev/cegpv/program"
)

// Names of the monitor's globals (made unique with a suffix when the program
// already uses them).
const (
	CntName = "__cegpv_cnt"
	SeqName = "__cegpv_seq"
)

// OrderOnly is the order-only reconstruction (design.md §6, "combining
// counterexamples"): P1 is a copy of p, with all its variables, plus a
// monitor that forces the visible label sequence of run, a run of the
// abstraction a = slice.Abstract(p, ...). See OrderOnlySeq.
func OrderOnly(p, a *program.Program, run *program.Run) (*program.Program, *Map, error) {
	if err := sameLabels(p, a); err != nil {
		return nil, nil, err
	}
	vis := program.Visible(a)
	return OrderOnlySeq(p, vis, program.Project(run, vis))
}

// OrderOnlySeq builds P1 = p plus a monitor that forces the label sequence
// seq on the steps of p at visible labels; the steps at other labels run
// freely, in the order their threads allow. The monitor is linear code:
//
//	int __cegpv_cnt = 0;                     // visible steps done so far
//	int __cegpv_seq[N+1] = {id(seq[0]), ..., id(seq[N-1]), 0};
//
// and before every instruction at a visible label l that occurs in seq
// (label ids count from 1 in order of first occurrence):
//
//	__VERIFIER_assume(__cegpv_seq[__cegpv_cnt] == id(l));
//	__cegpv_cnt = __cegpv_cnt + 1;
//
// inside an atomic section with the instruction as Instrument describes (the
// sentinel 0 at index N makes every check fail once seq is complete, so cnt
// never leaves the table). A visible instruction whose label does not occur
// in seq is preceded by __VERIFIER_assume(0): it cannot run.
//
// Lemma 2 (order-only form): Map.Run maps every run of P1 to a run of p
// whose visible steps were accepted by the monitor in the order of a prefix
// of seq (Map.Visible gives that order; see Map.Visible for the Call, Spawn,
// Return, Exit and atomic-section steps, which may run after steps of other
// threads that follow them in seq); and every run of p whose visible label
// sequence is a prefix of seq is, with the monitor steps inserted
// (Map.Lift), a run of P1. So P1 safe implies that no run of p with
// visible label sequence seq (or a prefix of it) violates an assertion, and
// an unsafe P1 yields, through Map.Run, a run of p that violates one.
func OrderOnlySeq(p *program.Program, visible map[program.Label]bool, seq []program.Label) (*program.Program, *Map, error) {
	ix := program.NewIndex(p)
	ids := map[program.Label]int64{}
	var elems []program.Expr
	for _, l := range seq {
		if ix.Instr[l] == nil {
			return nil, nil, program.Errorf(program.Internal, "reconstruct: label %s of the run is not in %s", l, p.File)
		}
		if !visible[l] {
			return nil, nil, program.Errorf(program.Internal, "reconstruct: label %s of the sequence is not visible", l)
		}
		if _, ok := ids[l]; !ok {
			ids[l] = int64(len(ids) + 1)
		}
		elems = append(elems, program.IntConst(program.IntT, ids[l]))
	}
	elems = append(elems, program.IntConst(program.IntT, 0))
	p1 := program.Clone(p)
	cntName := FreshGlobal(p1, CntName)
	seqName := FreshGlobal(p1, SeqName)
	seqT := program.ArrayOf(program.IntT, int64(len(elems)))
	cnt := &program.Ref{Name: cntName, T: program.IntT}
	tab := &program.Ref{Name: seqName, T: seqT}
	check := func(in *program.Instr) ([]*program.Instr, error) {
		id, ok := ids[in.Label]
		if !ok {
			return []*program.Instr{{Op: program.OpAssume, Rhs: program.False, Msg: "cegpv: not in the run"}}, nil
		}
		cur := &program.Index{X: tab, I: cnt, T: program.IntT}
		return []*program.Instr{
			{Op: program.OpAssume, Rhs: eq(cur, program.IntConst(program.IntT, id)), Msg: fmt.Sprintf("cegpv: %s is next", in.Label)},
			{Op: program.OpAssign, Lhs: cnt, Rhs: add1(cnt)},
		}, nil
	}
	m, err := Instrument(p1, visible, check)
	if err != nil {
		return nil, nil, err
	}
	p1.Globals = append(p1.Globals,
		&program.Var{Name: cntName, Type: program.IntT, Init: program.IntConst(program.IntT, 0)},
		&program.Var{Name: seqName, Type: seqT, Init: &program.Compound{T: seqT, Elems: elems}},
	)
	return p1, m, nil
}

func eq(x, y program.Expr) program.Expr {
	return &program.Binary{Op: program.Eq, X: x, Y: y, T: program.IntT}
}

func add1(x program.Expr) program.Expr {
	return &program.Binary{Op: program.Add, X: x, Y: program.IntConst(program.IntT, 1), T: program.IntT}
}

// sameLabels checks that a has the labels of p (an abstraction keeps every
// label).
func sameLabels(p, a *program.Program) error {
	ip := program.NewIndex(p)
	for _, f := range a.Funcs {
		for _, in := range f.Body {
			if ip.Instr[in.Label] == nil {
				return program.Errorf(program.Internal, "reconstruct: label %s of the abstraction is not in the program", in.Label)
			}
		}
	}
	return nil
}

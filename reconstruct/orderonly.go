package reconstruct

import (
	"fmt"

	"cegpv.dev/cegpv/program"
)

// CntName names the monitor's counter (made unique with a suffix when the
// program already uses it).
const CntName = "__cegpv_cnt"

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
//
// and before every instruction at a visible label l that occurs in seq at
// positions i1, ..., im:
//
//	__VERIFIER_assume(__cegpv_cnt == i1 || ... || __cegpv_cnt == im);
//	__cegpv_cnt = __cegpv_cnt + 1;
//
// inside an atomic section with the instruction as Instrument describes
// (once seq is complete, cnt is N and every check fails). A visible
// instruction whose label does not occur in seq is preceded by
// __VERIFIER_assume(0): it cannot run. The positions are constants rather
// than a table read at cnt (seq[cnt] == l), which a checker pays for with a
// bounds check per read and an array theory: ESBMC 8.4 on mix018_pso's first
// reconstruction under --rounds 3 took over 60 s with the table, 17 s with
// the positions (docs/bench/rounds).
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
	p1, m, _, err := orderOnlySeq(p, visible, seq)
	return p1, m, err
}

// orderOnlySeq is OrderOnlySeq, with the monitor's counter.
func orderOnlySeq(p *program.Program, visible map[program.Label]bool, seq []program.Label) (*program.Program, *Map, *program.Ref, error) {
	ix := program.NewIndex(p)
	at := map[program.Label][]int64{} // the positions of each label in seq
	for i, l := range seq {
		if ix.Instr[l] == nil {
			return nil, nil, nil, program.Errorf(program.Internal, "reconstruct: label %s of the run is not in %s", l, p.File)
		}
		if !visible[l] {
			return nil, nil, nil, program.Errorf(program.Internal, "reconstruct: label %s of the sequence is not visible", l)
		}
		at[l] = append(at[l], int64(i))
	}
	p1 := program.Clone(p)
	cntName := FreshGlobal(p1, CntName)
	cnt := &program.Ref{Name: cntName, T: program.IntT}
	check := func(in *program.Instr) ([]*program.Instr, error) {
		pos, ok := at[in.Label]
		if !ok {
			return []*program.Instr{{Op: program.OpAssume, Rhs: program.False, Msg: "cegpv: not in the run"}}, nil
		}
		var next program.Expr
		for _, i := range pos {
			e := eq(cnt, program.IntConst(program.IntT, i))
			if next == nil {
				next = e
			} else {
				next = &program.Binary{Op: program.LOr, X: next, Y: e, T: program.IntT}
			}
		}
		return []*program.Instr{
			{Op: program.OpAssume, Rhs: next, Msg: fmt.Sprintf("cegpv: %s is next", in.Label)},
			{Op: program.OpAssign, Lhs: cnt, Rhs: add1(cnt)},
		}, nil
	}
	m, err := Instrument(p1, visible, check)
	if err != nil {
		return nil, nil, nil, err
	}
	p1.Globals = append(p1.Globals,
		&program.Var{Name: cntName, Type: program.IntT, Init: program.IntConst(program.IntT, 0)})
	return p1, m, cnt, nil
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

package refine

import (
	"fmt"
	"sort"

	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/reconstruct"
)

// Map maps runs of the refined program A' back to runs of A (it drops the
// monitor's steps); see reconstruct.Map.
type Map = reconstruct.Map

// MonName is the name of the monitor's state variable (made unique with a
// suffix when the program already uses it).
const MonName = "__cegpv_mon"

// trie is the prefix tree of the excluded sequences: node 0 is the root,
// nodes are numbered in order of creation; dead = len(nodes).
type trie struct {
	next []map[program.Label]int
	end  []bool
}

func (t *trie) node() int {
	t.next = append(t.next, map[program.Label]int{})
	t.end = append(t.end, false)
	return len(t.next) - 1
}

// Exclude returns A' = a plus a monitor that removes the runs whose visible
// label sequence (the labels l with visible[l], in order) is one of the
// spurious sequences, each of which ends at an Assert that failed.
//
// The monitor is the trie of the sequences: a global state
// `int __cegpv_mon = 0` (0 is the root, D = number of trie nodes is the dead
// state, reached once the run has left the trie) and, before every visible
// instruction at label l, atomically with it where its op allows (see
// reconstruct.Instrument),
//
//	__cegpv_mon = __cegpv_mon == a1 ? b1 : __cegpv_mon == a2 ? b2 : ... : D;
//
// over the trie edges a_i -l-> b_i labelled l only (a label on no edge gives
// `__cegpv_mon = D`), so the monitor's size is linear in the trie. An Assert
// at label l whose update can reach the end e_1, ..., e_k of a spurious
// sequence becomes, in the same atomic section,
//
//	assert(c || __cegpv_mon == e_1 || ... || __cegpv_mon == e_k);
//
// so that a run whose visible sequence is a spurious one cannot fail there,
// while its continuations, in which the assertion held, are kept. (Cutting
// the run with an assume at that point, as a first sketch of this monitor
// did, also removes every run that passes the assertion with that history
// and goes on to a real violation later: unsound, since the reconstruction
// only showed that no run of P violates an assertion along the spurious
// sequence or a prefix of it.) The Nondet values of the rewritten Assert are
// drawn in the same order as before (c's come first).
//
// Lemma 3: Map.Run maps every run of A' to a run of A, and a violation of A'
// to a violation of A whose visible label sequence, in the order the monitor
// accepted it (Map.Visible), is not excluded; every run of A whose visible
// sequence is not excluded is, with the monitor steps inserted (Map.Lift), a
// run of A' with the same verdict. Caveat (see reconstruct.Map.Visible): a
// Call, Spawn, Return, Exit, AtomicBegin or AtomicEnd step may run after
// steps of other threads that the monitor accepted after it, so the label
// order of Map.Run's result can differ from Map.Visible's in the position of
// such steps; the controller should key spurious sequences by Map.Visible.
func Exclude(a *program.Program, visible map[program.Label]bool, spurious [][]program.Label) (*program.Program, *Map, error) {
	return exclude(a, visible, spurious, false)
}

// exclude is Exclude; cutAtEnd selects the unsound first sketch (an assume
// that cuts every run at the end of a spurious sequence), kept for the
// tests' mutation check.
func exclude(a *program.Program, visible map[program.Label]bool, spurious [][]program.Label, cutAtEnd bool) (*program.Program, *Map, error) {
	ix := program.NewIndex(a)
	t := &trie{}
	t.node()
	for _, seq := range spurious {
		if len(seq) == 0 {
			return nil, nil, program.Errorf(program.Internal, "refine: empty spurious sequence")
		}
		last := ix.Instr[seq[len(seq)-1]]
		if last == nil || last.Op != program.OpAssert {
			return nil, nil, program.Errorf(program.Internal, "refine: spurious sequence does not end at an assertion (%s)", seq[len(seq)-1])
		}
		n := 0
		for _, l := range seq {
			if ix.Instr[l] == nil || !visible[l] {
				return nil, nil, program.Errorf(program.Internal, "refine: label %s of a spurious sequence is not a visible label of the program", l)
			}
			nx, ok := t.next[n][l]
			if !ok {
				nx = t.node()
				t.next[n][l] = nx
			}
			n = nx
		}
		t.end[n] = true
	}
	dead := int64(len(t.next))
	// edges by label
	type edge struct{ from, to int }
	edges := map[program.Label][]edge{}
	for from, nx := range t.next {
		for l, to := range nx {
			edges[l] = append(edges[l], edge{from, to})
		}
	}
	for _, es := range edges {
		sort.Slice(es, func(i, j int) bool { return es[i].from < es[j].from })
	}
	ap := program.Clone(a)
	name := reconstruct.FreshGlobal(ap, MonName)
	mon := &program.Ref{Name: name, T: program.IntT}
	c := func(v int64) program.Expr { return program.IntConst(program.IntT, v) }
	check := func(in *program.Instr) ([]*program.Instr, error) {
		es := edges[in.Label]
		var rhs program.Expr = c(dead)
		for i := len(es) - 1; i >= 0; i-- {
			rhs = &program.CondExpr{C: eq(mon, c(int64(es[i].from))), X: c(int64(es[i].to)), Y: rhs, T: program.IntT}
		}
		upd := &program.Instr{Op: program.OpAssign, Lhs: mon, Rhs: rhs, Msg: fmt.Sprintf("cegpv monitor: %s", in.Label)}
		if in.Op == program.OpAssert && cutAtEnd {
			var cut program.Expr = program.True
			for _, e := range es {
				if t.end[e.to] {
					cut = &program.Binary{Op: program.LAnd, X: cut, Y: &program.Binary{Op: program.Ne, X: mon, Y: c(int64(e.to)), T: program.IntT}, T: program.IntT}
				}
			}
			return []*program.Instr{upd, {Op: program.OpAssume, Rhs: cut}}, nil
		}
		if in.Op == program.OpAssert {
			cond := in.Rhs
			for _, e := range es {
				if t.end[e.to] {
					cond = &program.Binary{Op: program.LOr, X: cond, Y: eq(mon, c(int64(e.to))), T: program.IntT}
				}
			}
			in.Rhs = cond
		}
		return []*program.Instr{upd}, nil
	}
	m, err := reconstruct.Instrument(ap, visible, check)
	if err != nil {
		return nil, nil, err
	}
	ap.Globals = append(ap.Globals, &program.Var{Name: name, Type: program.IntT, Init: c(0)})
	return ap, m, nil
}

func eq(x, y program.Expr) program.Expr {
	return &program.Binary{Op: program.Eq, X: x, Y: y, T: program.IntT}
}

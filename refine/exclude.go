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
// spurious sequences, each of which ends at an Assert that failed. It is
// ExcludePatterns with every pattern over the one label set visible.
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
	return exclude(a, samePatterns(visible, spurious), false)
}

// samePatterns returns the patterns of the sequences seqs, all over the
// label set visible.
func samePatterns(visible map[program.Label]bool, seqs [][]program.Label) []Pattern {
	ps := make([]Pattern, len(seqs))
	for i, s := range seqs {
		ps[i] = Pattern{Labels: visible, Seq: s}
	}
	return ps
}

// A Pattern is an excluded counterexample with its own visible label set:
// ExcludePatterns removes the runs whose projection onto Labels (the steps
// at labels l with Labels[l], in order), up to and including a failed
// assertion, is Seq. Seq is a sequence over Labels ending at an Assert.
type Pattern struct {
	Labels map[program.Label]bool
	Seq    []program.Label
}

// ExcludePatterns returns A' = a plus monitors that remove the runs that
// violate an assertion where their projection onto the label set W of a
// pattern (W, s) is s: Exclude's construction, with one trie monitor per
// distinct label set (the patterns over the same set share one), each
// advanced only by the steps at labels of its own set. The monitors are the
// globals __cegpv_mon (the first set, in the order of patterns),
// __cegpv_mon1, __cegpv_mon2, ...; every instruction at a label of some set
// is instrumented (reconstruct.Instrument over the union of the sets), its
// check made of the updates of the monitors whose set has its label, in
// the order of the monitors. An Assert at l becomes
//
//	assert(c || m_1 == e_1 || ... || m_k == e_k);
//
// over every monitor m_i and end e_i of one of its patterns that the
// monitor's update at l can reach, so a violation there is removed when any
// pattern matches, and only then (never an assume cut; see Exclude).
//
// Lemma 3 (patterns): Map.Run maps every run of A' to a run of A, and a
// violation of A' to a violation of A such that for no pattern (W, s) the
// projection onto W of the sequence the monitors accepted (Map.Visible,
// over the union of the sets) is s; every run of A that no pattern matches
// at its violation, or that violates nothing, is, with the monitor steps
// inserted (Map.Lift), a run of A' with the same verdict. Map.Visible
// reports only the instrumented labels; Map.VisibleIn adds the steps at the
// other labels of a wider set in the order they ran.
func ExcludePatterns(a *program.Program, patterns []Pattern) (*program.Program, *Map, error) {
	return exclude(a, patterns, false)
}

// exclude is ExcludePatterns; cutAtEnd selects the unsound first sketch (an
// assume that cuts every run at the end of an excluded sequence), kept for
// the tests' mutation check.
func exclude(a *program.Program, patterns []Pattern, cutAtEnd bool) (*program.Program, *Map, error) {
	ix := program.NewIndex(a)
	// one monitor per distinct label set, in order of first appearance
	type monitor struct {
		labels map[program.Label]bool
		t      *trie
		name   string
		edges  map[program.Label][]edge
	}
	var mons []*monitor
	byKey := map[string]*monitor{}
	union := map[program.Label]bool{}
	for _, pt := range patterns {
		seq := pt.Seq
		if len(seq) == 0 {
			return nil, nil, program.Errorf(program.Internal, "refine: empty spurious sequence")
		}
		last := ix.Instr[seq[len(seq)-1]]
		if last == nil || last.Op != program.OpAssert {
			return nil, nil, program.Errorf(program.Internal, "refine: spurious sequence does not end at an assertion (%s)", seq[len(seq)-1])
		}
		k := program.LabelSetKey(pt.Labels)
		mon := byKey[k]
		if mon == nil {
			mon = &monitor{labels: pt.Labels, t: &trie{}}
			mon.t.node()
			byKey[k] = mon
			mons = append(mons, mon)
			for l, ok := range pt.Labels {
				if ok {
					union[l] = true
				}
			}
		}
		t := mon.t
		n := 0
		for _, l := range seq {
			if ix.Instr[l] == nil || !pt.Labels[l] {
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
	for l := range union {
		if ix.Instr[l] == nil {
			return nil, nil, program.Errorf(program.Internal, "refine: visible label %s is not a label of the program", l)
		}
	}
	ap := program.Clone(a)
	c := func(v int64) program.Expr { return program.IntConst(program.IntT, v) }
	for i, mon := range mons {
		// edges by label
		mon.edges = map[program.Label][]edge{}
		for from, nx := range mon.t.next {
			for l, to := range nx {
				mon.edges[l] = append(mon.edges[l], edge{from, to})
			}
		}
		for _, es := range mon.edges {
			sort.Slice(es, func(i, j int) bool { return es[i].from < es[j].from })
		}
		base := MonName
		if i > 0 {
			base = fmt.Sprintf("%s%d", MonName, i)
		}
		mon.name = reconstruct.FreshGlobal(ap, base)
		// (declared now, so that the next monitor's name differs)
		ap.Globals = append(ap.Globals, &program.Var{Name: mon.name, Type: program.IntT, Init: c(0)})
	}
	check := func(in *program.Instr) ([]*program.Instr, error) {
		var out []*program.Instr
		var cut program.Expr = program.True
		cond := in.Rhs
		for _, mon := range mons {
			if !mon.labels[in.Label] {
				continue
			}
			ref := &program.Ref{Name: mon.name, T: program.IntT}
			es := mon.edges[in.Label]
			var rhs program.Expr = c(int64(len(mon.t.next))) // the dead state
			for i := len(es) - 1; i >= 0; i-- {
				rhs = &program.CondExpr{C: eq(ref, c(int64(es[i].from))), X: c(int64(es[i].to)), Y: rhs, T: program.IntT}
			}
			out = append(out, &program.Instr{Op: program.OpAssign, Lhs: ref, Rhs: rhs, Msg: fmt.Sprintf("cegpv monitor: %s", in.Label)})
			if in.Op != program.OpAssert {
				continue
			}
			for _, e := range es {
				if !mon.t.end[e.to] {
					continue
				}
				if cutAtEnd {
					cut = &program.Binary{Op: program.LAnd, X: cut, Y: &program.Binary{Op: program.Ne, X: ref, Y: c(int64(e.to)), T: program.IntT}, T: program.IntT}
				} else {
					cond = &program.Binary{Op: program.LOr, X: cond, Y: eq(ref, c(int64(e.to))), T: program.IntT}
				}
			}
		}
		if in.Op == program.OpAssert {
			if cutAtEnd {
				out = append(out, &program.Instr{Op: program.OpAssume, Rhs: cut})
			} else {
				in.Rhs = cond
			}
		}
		return out, nil
	}
	m, err := reconstruct.Instrument(ap, union, check)
	if err != nil {
		return nil, nil, err
	}
	return ap, m, nil
}

type edge struct{ from, to int }

func eq(x, y program.Expr) program.Expr {
	return &program.Binary{Op: program.Eq, X: x, Y: y, T: program.IntT}
}

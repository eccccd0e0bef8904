package program

// Visibility of the steps of an abstraction (design.md §3): the labels
// whose order reconstruction forces and refinement excludes. Defined on
// the model, next to Instr.Sliced, so that every stage (reconstruct,
// refine, observer, the controller) and the backends' incremental
// encodings agree on it without importing each other.

import (
	"sort"
	"strings"
)

// Visible returns the visible labels of the abstraction a: every label whose
// instruction is not a Skip produced by slicing (slice.Abstract turns the
// instructions that only touch sliced variables into Skips marked Sliced). The visible projection of a run of a is the
// subsequence of its steps at visible labels; reconstruction forces its label
// sequence and refinement excludes it.
func Visible(a *Program) map[Label]bool {
	vis := map[Label]bool{}
	for _, f := range a.Funcs {
		for _, in := range f.Body {
			if !in.Sliced {
				vis[in.Label] = true
			}
		}
	}
	return vis
}

// Project returns the labels of the steps of run at visible labels, in order.
func Project(run *Run, visible map[Label]bool) []Label {
	var out []Label
	for _, s := range run.Steps {
		if visible[s.Label] {
			out = append(out, s.Label)
		}
	}
	return out
}

// LabelSetKey is a canonical key of a label set (the labels l with s[l],
// sorted, joined by spaces): refinement keys its monitors by it and the
// generalisation its tried candidates.
func LabelSetKey(s map[Label]bool) string {
	var ls []string
	for l, ok := range s {
		if ok {
			ls = append(ls, string(l))
		}
	}
	sort.Strings(ls)
	return strings.Join(ls, " ")
}

// SharedVisible returns a smaller visible set for the abstraction a: the
// labels whose instruction in a accesses shared memory (a global, a
// dereference, an address-taken local), is an assertion, or synchronises
// threads (Lock, Unlock, Spawn, Join). Steps that only touch thread-local
// state or sliced variables then float freely: reconstruction explores every
// placement of them and refinement excludes every abstract run with the same
// order of shared steps, so one spurious counterexample removes all its
// local reorderings at once.
//
// Any visible set is sound as long as reconstruction (OrderOnlySeq) and
// refinement (refine.Exclude) use the same one: P1 contains every run of P
// whose projection onto the set is the sequence, and exclusion removes
// exactly the abstract runs with that projection.
func SharedVisible(a *Program) map[Label]bool {
	vis := map[Label]bool{}
	for _, f := range a.Funcs {
		for _, in := range f.Body {
			if in.Sliced {
				continue
			}
			switch in.Op {
			case OpAssert, OpLock, OpUnlock, OpSpawn, OpJoin:
				vis[in.Label] = true
				continue
			}
			for _, e := range in.Operands() {
				if SharedAccess(f, e, true) {
					vis[in.Label] = true
					break
				}
			}
		}
	}
	return vis
}

// SharedAccess reports whether evaluating e (an expression of f) touches
// memory another thread may access: a global, a dereference, or a local of
// f whose address is taken (or that f does not declare). With addrs false
// the address of a variable (&v) is not an access: it reads nothing. The
// one notion of shared access of the visible sets, lazyseq's switch points
// and the external checkers' read probes.
func SharedAccess(f *Func, e Expr, addrs bool) bool {
	shared := false
	Walk(e, func(x Expr) bool {
		switch x := x.(type) {
		case *AddrOf:
			if _, ok := x.X.(*Ref); ok && !addrs {
				return false
			}
		case *Ref:
			if v := f.Var(x.Name); !x.Local || v == nil || v.AddrTaken {
				shared = true
			}
		case *Deref:
			shared = true
		}
		return !shared
	})
	return shared
}

package reconstruct

import (
	"strings"

	"cegpv.dev/cegpv/program"
)

// Visible returns the visible labels of the abstraction a: every label whose
// instruction is not a Skip produced by slicing (slice.Abstract turns the
// instructions that only touch sliced variables into Skip with a Msg that
// starts with "sliced"). The visible projection of a run of a is the
// subsequence of its steps at visible labels; reconstruction forces its label
// sequence and refinement excludes it.
func Visible(a *program.Program) map[program.Label]bool {
	vis := map[program.Label]bool{}
	for _, f := range a.Funcs {
		for _, in := range f.Body {
			if !IsSliced(in) {
				vis[in.Label] = true
			}
		}
	}
	return vis
}

// IsSliced reports whether in is a Skip produced by slicing.
func IsSliced(in *program.Instr) bool {
	return in.Op == program.OpSkip && strings.HasPrefix(in.Msg, "sliced")
}

// Project returns the labels of the steps of run at visible labels, in order.
func Project(run *program.Run, visible map[program.Label]bool) []program.Label {
	var out []program.Label
	for _, s := range run.Steps {
		if visible[s.Label] {
			out = append(out, s.Label)
		}
	}
	return out
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
func SharedVisible(a *program.Program) map[program.Label]bool {
	vis := map[program.Label]bool{}
	for _, f := range a.Funcs {
		addr := map[string]bool{}
		for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			addr[v.Name] = v.AddrTaken
		}
		for _, in := range f.Body {
			if IsSliced(in) {
				continue
			}
			switch in.Op {
			case program.OpAssert, program.OpLock, program.OpUnlock, program.OpSpawn, program.OpJoin:
				vis[in.Label] = true
				continue
			}
			shared := false
			for _, e := range in.Operands() {
				program.Walk(e, func(x program.Expr) bool {
					switch x := x.(type) {
					case *program.Ref:
						if !x.Local || addr[x.Name] {
							shared = true
						}
					case *program.Deref:
						shared = true
					}
					return !shared
				})
			}
			if shared {
				vis[in.Label] = true
			}
		}
	}
	return vis
}

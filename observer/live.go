package observer

import (
	"cegpv.dev/cegpv/analysis"
	"cegpv.dev/cegpv/program"
)

// live reports whether local name of function fn may be read after
// position pc (analysis.LiveLocals over A': a dead local's value cannot
// influence the rest of the run, so G_R does not distinguish
// configurations that differ only there, a declaration's indeterminate
// value being the common case, and the controllers restore it as 0).
func (b *builder) live(fn string, pc int, name string) bool {
	lv, ok := b.lv[fn]
	if !ok {
		f := b.a.Func(fn)
		if f == nil {
			return true
		}
		lv = &liveVars{live: analysis.LiveLocals(f, b.takenAddrs()), idx: map[string]int{}}
		for i, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			lv.idx[v.Name] = i
		}
		b.lv[fn] = lv
	}
	if pc < 0 || pc >= len(lv.live) {
		return true
	}
	i, ok := lv.idx[name]
	return ok && lv.live[pc][i]
}

// liveVars is analysis.LiveLocals of one function, by variable name.
type liveVars struct {
	live [][]bool
	idx  map[string]int
}

// liveFrame is live for an activation of fn standing at pc; suspended
// activations (below the innermost one) wait for a call at pc-1 to return,
// which first stores into the call's lhs: a local stored there whole is
// dead until then.
func (b *builder) liveFrame(fn string, pc int, name string, suspended bool) bool {
	if suspended {
		if f := b.a.Func(fn); f != nil && pc >= 1 && pc <= len(f.Body) {
			if in := f.Body[pc-1]; in.Op == program.OpCall {
				if r, ok := in.Lhs.(*program.Ref); ok && r.Local && r.Name == name && !b.takenAddr(fn, name) {
					return false
				}
			}
		}
	}
	return b.live(fn, pc, name)
}

// takenAddrs is analysis.TakenAddrs of A', computed once.
func (b *builder) takenAddrs() map[string]bool {
	if b.addrs == nil {
		b.addrs = analysis.TakenAddrs(b.a)
	}
	return b.addrs
}

// takenAddr reports whether the address of local name of fn is taken.
func (b *builder) takenAddr(fn, name string) bool { return b.takenAddrs()[fn+"::"+name] }

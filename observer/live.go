package observer

import "cegpv.dev/cegpv/program"

// liveness returns, for each position i of f's body (and len(f.Body), the
// end), the locals and parameters of f whose value may be read before it
// is overwritten when the thread is about to execute instruction i.
// Locals whose address is taken are always live. A dead local's value
// cannot influence the rest of the run, so G_R does not distinguish
// configurations that differ only there (a declaration's indeterminate
// value is the common case) and the controllers restore it as 0.
func liveness(f *program.Func) []map[string]bool {
	n := len(f.Body)
	addr := addrTaken(f)
	type gk struct {
		gen  map[string]bool
		kill string
	}
	eff := make([]gk, n)
	succ := make([][]int, n)
	for i, in := range f.Body {
		g := map[string]bool{}
		use := func(e program.Expr) {
			program.Walk(e, func(x program.Expr) bool {
				if r, ok := x.(*program.Ref); ok && r.Local {
					g[r.Name] = true
				}
				return true
			})
		}
		kill := ""
		if in.Lhs != nil {
			if r, ok := in.Lhs.(*program.Ref); ok && r.Local && (in.Op == program.OpAssign || in.Op == program.OpCall || in.Op == program.OpSpawn) {
				kill = r.Name
			} else {
				// a partial store: the object stays live, its index and
				// pointer subexpressions are read
				x := in.Lhs
				for {
					switch y := x.(type) {
					case *program.Index:
						use(y.I)
						x = y.X
						continue
					case *program.FieldSel:
						x = y.X
						continue
					case *program.Ref:
					default:
						use(x)
					}
					break
				}
			}
		}
		for _, e := range []program.Expr{in.Rhs, in.Func} {
			use(e)
		}
		for _, e := range in.Args {
			use(e)
		}
		if in.Op == program.OpDecl {
			kill = in.Var
		}
		eff[i] = gk{gen: g, kill: kill}
		switch in.Op {
		case program.OpReturn, program.OpExit:
		case program.OpGoto:
			for _, t := range in.Targets {
				if j := f.Index(t); j >= 0 {
					succ[i] = append(succ[i], j)
				}
			}
			if in.Rhs != nil || len(in.Targets) == 0 {
				succ[i] = append(succ[i], i+1)
			}
		default:
			succ[i] = append(succ[i], i+1)
		}
	}
	live := make([]map[string]bool, n+1)
	for i := range live {
		live[i] = map[string]bool{}
		for a := range addr {
			live[i][a] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			out := map[string]bool{}
			for _, j := range succ[i] {
				for v := range live[j] {
					out[v] = true
				}
			}
			if eff[i].kill != "" && !addr[eff[i].kill] {
				delete(out, eff[i].kill)
			}
			for v := range eff[i].gen {
				out[v] = true
			}
			if len(out) != len(live[i]) {
				live[i] = out
				changed = true
				continue
			}
			for v := range out {
				if !live[i][v] {
					live[i] = out
					changed = true
					break
				}
			}
		}
	}
	return live
}

// live reports whether local name of function fn may be read after
// position pc.
func (b *builder) live(fn string, pc int, name string) bool {
	lv, ok := b.lv[fn]
	if !ok {
		f := b.a.Func(fn)
		if f == nil {
			return true
		}
		lv = liveness(f)
		b.lv[fn] = lv
	}
	if pc < 0 || pc >= len(lv) {
		return true
	}
	return lv[pc][name]
}

// addrTaken returns the locals of f whose address the body takes (an
// AddrOf of the variable or of a part of it). Var.AddrTaken is set by the
// front end for any & in the source, also for pthread_create(&h, ...),
// which the model does without an address.
func addrTaken(f *program.Func) map[string]bool {
	out := map[string]bool{}
	for _, in := range f.Body {
		for _, e := range in.Operands() {
			program.Walk(e, func(x program.Expr) bool {
				a, ok := x.(*program.AddrOf)
				if !ok {
					return true
				}
				if r := program.BaseRef(a.X); r != nil && r.Local {
					out[r.Name] = true
				}
				return true
			})
		}
	}
	return out
}

// liveFrame is live for an activation of fn standing at pc; suspended
// activations (below the innermost one) wait for a call at pc-1 to return,
// which first stores into the call's lhs: a local stored there whole is
// dead until then.
func (b *builder) liveFrame(fn string, pc int, name string, suspended bool) bool {
	if suspended {
		if f := b.a.Func(fn); f != nil && pc >= 1 && pc <= len(f.Body) {
			if in := f.Body[pc-1]; in.Op == program.OpCall {
				if r, ok := in.Lhs.(*program.Ref); ok && r.Local && r.Name == name && !addrTaken(f)[name] {
					return false
				}
			}
		}
	}
	return b.live(fn, pc, name)
}

package analysis

import "cegpv.dev/cegpv/program"

// LiveLocals returns, for each instruction index pc of f (and len(f.Body)),
// which of f's variables (its Params, then its Locals) are live on entry
// to pc: some path from pc reads the variable before storing it as a whole
// or declaring it again (a store into an element or field is not a read
// of the variable). A variable whose address is taken is always live, to
// the end of f and after it (a read through a pointer is not seen, and
// main's locals outlive main). Successors are runSuccs': a failing
// assert(0) ends the run. The explicit search leaves the dead ones out of
// its states, and the observer restores them as 0: two states that differ
// only in them have the same futures.
func LiveLocals(f *program.Func, taken map[string]bool) [][]bool {
	vars := append(append([]*program.Var(nil), f.Params...), f.Locals...)
	idx := make(map[string]int, len(vars))
	for i, v := range vars {
		idx[v.Name] = i
	}
	n := len(f.Body)
	succ := runSuccs(f)
	live := make([][]bool, n+1)
	for pc := range live {
		live[pc] = make([]bool, len(vars))
		for i, v := range vars {
			if taken[f.Name+"::"+v.Name] {
				live[pc][i] = true
			}
		}
	}
	uses := make([][]int, n)
	def := make([]int, n)
	for pc, in := range f.Body {
		def[pc] = -1
		switch in.Op {
		case program.OpDecl:
			if i, ok := idx[in.Var]; ok {
				def[pc] = i
			}
		case program.OpAssign, program.OpCall, program.OpSpawn:
			if r, ok := in.Lhs.(*program.Ref); ok && r.Local {
				def[pc] = idx[r.Name]
			}
		}
		use := func(e program.Expr) {
			program.Walk(e, func(x program.Expr) bool {
				if r, ok := x.(*program.Ref); ok && r.Local {
					if i, ok := idx[r.Name]; ok {
						uses[pc] = append(uses[pc], i)
					}
				}
				return true
			})
		}
		for _, e := range in.Operands() {
			if e != in.Lhs {
				use(e)
				continue
			}
			if def[pc] >= 0 {
				continue // a whole store reads nothing
			}
			// a partial store (an element or field of a local, or
			// through a pointer) reads its indexes and pointers, not the
			// object it stores into, which stays as live as it was
			x := e
		walk:
			for {
				switch y := x.(type) {
				case *program.Index:
					use(y.I)
					x = y.X
				case *program.FieldSel:
					x = y.X
				case *program.Ref:
					break walk
				default:
					use(x)
					break walk
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for pc := n - 1; pc >= 0; pc-- {
			for i := range vars {
				if live[pc][i] {
					continue
				}
				l := false
				if i != def[pc] {
					for _, s := range succ[pc] {
						if live[s][i] {
							l = true
							break
						}
					}
				}
				if l {
					live[pc][i] = true
					changed = true
				}
			}
			for _, i := range uses[pc] {
				if !live[pc][i] {
					live[pc][i] = true
					changed = true
				}
			}
		}
	}
	return live
}

// runSuccs is f.Succs() for the analyses of the explicit search: an
// assertion whose condition is the constant 0 (the lowering of
// __VERIFIER_error) ends every run that reaches it, so it has no
// successors.
func runSuccs(f *program.Func) [][]int {
	succ := f.Succs()
	for i, in := range f.Body {
		if in.Op == program.OpAssert {
			if c, ok := program.StripCasts(in.Rhs).(*program.Const); ok && c.V == 0 {
				succ[i] = nil
			}
		}
	}
	return succ
}

// mustForward solves a forward must-analysis of one fact over f's run
// successors (runSuccs). It returns, for each instruction index and for
// len(f.Body) (the exit), 0 when no path from the entry gets there, 2 when
// the fact holds there on every path, 1 otherwise. The fact holds at the
// entry when entry is set; step says whether it holds after instruction pc
// from whether it holds before.
func mustForward(f *program.Func, entry bool, step func(pc int, holds bool) bool) []int8 {
	n := len(f.Body)
	state := make([]int8, n+1)
	val := func(b bool) int8 {
		if b {
			return 2
		}
		return 1
	}
	state[0] = val(entry)
	if n == 0 {
		return state
	}
	succ := runSuccs(f)
	work := []int{0}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		out := val(step(pc, state[pc] == 2))
		for _, s := range succ[pc] {
			if state[s] == 0 || state[s] == 2 && out == 1 {
				state[s] = out
				if s < n {
					work = append(work, s)
				}
			}
		}
	}
	return state
}

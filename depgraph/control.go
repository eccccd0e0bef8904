package depgraph

import "cegpv.dev/cegpv/program"

// controlDeps returns, for each instruction of f, the indices of the
// instructions it is control dependent on: conditional Gotos (Ferrante,
// Ottenstein, Warren: j controls i when i post-dominates a successor of j but
// not j itself) and blocking instructions (Assume, Lock, Join), which
// control every instruction reachable from them.
func controlDeps(f *program.Func) [][]int {
	n := len(f.Body)
	exit := n
	succ := make([][]int, n+1)
	for i, in := range f.Body {
		switch in.Op {
		case program.OpGoto:
			for _, t := range in.Targets {
				if k := f.Index(t); k >= 0 {
					succ[i] = append(succ[i], k)
				}
			}
			if in.Rhs != nil || len(in.Targets) > 1 {
				succ[i] = append(succ[i], i+1)
			}
		case program.OpReturn, program.OpExit:
			succ[i] = []int{exit}
		default:
			succ[i] = []int{i + 1}
		}
	}
	pd := postDominators(succ, exit)
	deps := make([][]int, n)
	add := func(i, j int) {
		if i < n {
			if l := deps[i]; len(l) == 0 || l[len(l)-1] != j {
				deps[i] = append(deps[i], j)
			}
		}
	}
	for j, in := range f.Body {
		switch in.Op {
		case program.OpGoto:
			if len(succ[j]) < 2 {
				continue
			}
			for _, s := range succ[j] {
				// walk s up the post-dominator tree until ipdom(j)
				for x := s; x != pd[j] && x >= 0 && x != exit; x = pd[x] {
					add(x, j)
					if x == j {
						break
					}
				}
			}
		case program.OpAssume, program.OpLock, program.OpJoin:
			seen := make([]bool, n+1)
			stack := append([]int(nil), succ[j]...)
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if x >= n || seen[x] {
					continue
				}
				seen[x] = true
				add(x, j)
				stack = append(stack, succ[x]...)
			}
		}
	}
	return deps
}

// postDominators returns the immediate post-dominator of each node (exit's
// is -1; nodes that cannot reach exit get -1), by the iterative algorithm of
// Cooper, Harvey and Kennedy on the reversed graph.
func postDominators(succ [][]int, exit int) []int {
	n := len(succ)
	pred := make([][]int, n) // predecessors in the reversed graph = successors
	rpred := make([][]int, n)
	for i, ss := range succ {
		for _, s := range ss {
			if s < n {
				rpred[s] = append(rpred[s], i)
			}
		}
	}
	_ = pred
	// reverse post-order of the reversed graph from exit
	order := []int{}
	seen := make([]bool, n)
	var dfs func(int)
	dfs = func(v int) {
		seen[v] = true
		for _, p := range rpred[v] {
			if !seen[p] {
				dfs(p)
			}
		}
		order = append(order, v)
	}
	dfs(exit)
	po := make([]int, n)
	for i := range po {
		po[i] = -1
	}
	for i, v := range order {
		po[v] = i
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for po[a] < po[b] {
				a = idom[a]
			}
			for po[b] < po[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 1; k >= 0; k-- {
			v := order[k]
			if v == exit {
				continue
			}
			nd := -1
			for _, s := range succ[v] { // predecessors in the reversed graph
				if s >= n || idom[s] == -1 {
					continue
				}
				if nd == -1 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if nd != -1 && idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	idom[exit] = -1
	return idom
}

package depgraph

import (
	"slices"
	"sort"

	"cegpv.dev/cegpv/program"
)

func uniqInts(xs []int) []int {
	sort.Ints(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// controlDeps returns, for each instruction of f, the indices of the
// branching instructions it is directly control dependent on (Ferrante,
// Ottenstein, Warren: i depends on j when j has a successor s such that i
// post-dominates s, or is s, and i does not strictly post-dominate j).
func controlDeps(f *program.Func) [][]int {
	return cdOfCFG(f.Succs())
}

// cdOfCFG computes control dependences on a CFG whose last node is the
// exit. Nodes from which the exit is unreachable (infinite loops) get a
// virtual edge to the exit, from the highest-numbered node of each such
// region (for a loop in C order, the back edge at its bottom), so that
// branches inside them are handled like those of terminating loops.
func cdOfCFG(succ [][]int) [][]int {
	n := len(succ) - 1 // exit
	aug := make([][]int, len(succ))
	for i := range succ {
		aug[i] = append([]int(nil), succ[i]...)
	}
	for {
		reach := reachesExit(aug, n)
		last := -1
		for i := n - 1; i >= 0; i-- {
			if !reach[i] {
				last = i
				break
			}
		}
		if last < 0 {
			break
		}
		aug[last] = append(aug[last], n)
	}
	pd := postDominators(aug, n)
	deps := make([][]int, n)
	for j := 0; j < n; j++ {
		if len(aug[j]) < 2 {
			continue
		}
		for _, s := range aug[j] {
			// walk s up the post-dominator tree until ipdom(j)
			for x := s; x != pd[j] && x >= 0 && x != n; x = pd[x] {
				deps[x] = append(deps[x], j)
				if x == j {
					break
				}
			}
		}
	}
	for i := range deps {
		deps[i] = uniqInts(deps[i])
	}
	return deps
}

func reachesExit(succ [][]int, exit int) []bool {
	pred := make([][]int, len(succ))
	for i, ss := range succ {
		for _, s := range ss {
			pred[s] = append(pred[s], i)
		}
	}
	seen := make([]bool, len(succ))
	stack := []int{exit}
	seen[exit] = true
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range pred[x] {
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return seen
}

// blockingDeps returns, for each instruction, the blocking instructions
// (Assume, Lock, Join, a call that may not return) from which it is
// reachable: whether it runs depends on what those instructions read.
func blockingDeps(f *program.Func, blocking func(*program.Instr) bool) [][]int {
	succ := f.Succs()
	n := len(f.Body)
	deps := make([][]int, n)
	for j, in := range f.Body {
		if !blocking(in) {
			continue
		}
		seen := make([]bool, n+1)
		stack := append([]int(nil), succ[j]...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x >= n || seen[x] {
				continue
			}
			seen[x] = true
			deps[x] = append(deps[x], j)
			stack = append(stack, succ[x]...)
		}
	}
	return deps
}

func mergeDeps(a, b [][]int) [][]int {
	out := make([][]int, len(a))
	for i := range a {
		out[i] = uniqInts(append(append([]int(nil), a[i]...), b[i]...))
	}
	return out
}

// transitive closes a dependence relation: when i depends on j and j on k,
// i depends on k (whether the branch at j runs decides whether i runs).
func transitive(deps [][]int) [][]int {
	n := len(deps)
	out := make([][]int, n)
	for i := range deps {
		seen := make([]bool, n)
		stack := append([]int(nil), deps[i]...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[x] {
				continue
			}
			seen[x] = true
			out[i] = append(out[i], x)
			stack = append(stack, deps[x]...)
		}
		out[i] = uniqInts(out[i])
	}
	return out
}

// postDominators returns the immediate post-dominator of each node (exit's
// is -1; nodes that cannot reach exit get -1), by the iterative algorithm of
// Cooper, Harvey and Kennedy on the reversed graph.
func postDominators(succ [][]int, exit int) []int {
	n := len(succ)
	rpred := make([][]int, n) // predecessors in the CFG: successors in the reversed graph
	for i, ss := range succ {
		for _, s := range ss {
			rpred[s] = append(rpred[s], i)
		}
	}
	// post-order of a DFS of the reversed graph from exit
	var order []int
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
				if idom[s] == -1 {
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

// loopComponents returns, for each node of the CFG succ, the id of the
// cycle it lies on (its strongly connected component when that has a
// cycle), or -1 when it lies on none (Tarjan's algorithm).
func loopComponents(succ [][]int) []int {
	n := len(succ)
	index, low, comp := make([]int, n), make([]int, n), make([]int, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	onStack := make([]bool, n)
	var stack []int
	next, ncomp := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succ[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var members []int
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			members = append(members, w)
			if w == v {
				break
			}
		}
		if len(members) > 1 || slices.Contains(succ[v], v) {
			for _, w := range members {
				comp[w] = ncomp
			}
			ncomp++
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}

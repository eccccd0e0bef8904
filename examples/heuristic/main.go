// Command heuristic is cegpv with one more slicing heuristic and its own
// widening ladder, registered from Go without editing cegpv: the whole
// command line (verify, bench, depgraph, slice) finds it by name.
//
//	go build -o heuristic ./examples/heuristic
//	./heuristic bench --loop-only --heuristics paper,shared1 -j 1 MANIFEST
//
// shared1 keeps the variables of the property and, one step behind them,
// only those threads share (globals and heap blocks; a local is kept
// only through front-end temporaries, which cost no step); when its
// abstraction is too coarse the loop widens to steps2, then steps4 (then
// cone and the whole program, as every ladder ends).
//
// guards keeps what the paper's heuristic keeps and every variable the
// guards of those variables depend on, transitively along control edges
// (a guard, an assume, a lock; depgraph.Control): the flags and turns of
// a hand-written mutual exclusion, which the paper's one step leaves to
// refinement, without the data behind them; its ladder is steps2,
// steps4.
//
// smallcone keeps the whole cone of influence when it has at most 16
// variables, else what the paper's heuristic keeps, with the paper's
// ladder (steps1, steps2, steps4): on a small program the checks of an
// abstraction cost about as much as the program's own, so a narrow slice
// saves little and its spurious counterexamples cost iterations; on a
// large one the slice is what pays. The bound, 16, was fixed before the
// experiment of docs/bench/heuristics (the pilot's programs have 9 to 12
// variables, pthread-wmm's and the drivers' 28 to 172).
package main

import (
	"os"
	"strings"

	"cegpv.dev/cegpv/cli"
	"cegpv.dev/cegpv/depgraph"
)

// shared1 is the heuristic: see the package comment.
type shared1 struct{}

func (shared1) Name() string { return "shared1" }

func (shared1) Choose(g *depgraph.Graph, target []depgraph.Var) []depgraph.Var {
	var keep []depgraph.Var
	for v, d := range g.Distances(target, 1) {
		if d == 0 || !strings.Contains(string(v), "::") {
			keep = append(keep, v)
		}
	}
	return keep // depgraph.Choose closes it under alias groups
}

// guards is the second heuristic: see the package comment.
type guards struct{}

func (guards) Name() string { return "guards" }

func (guards) Choose(g *depgraph.Graph, target []depgraph.Var) []depgraph.Var {
	keep := map[depgraph.Var]bool{}
	work := depgraph.Paper{}.Choose(g, target)
	for _, v := range work {
		keep[v] = true
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range g.Pred(v) {
			if g.In[v][p]&depgraph.Control != 0 && !keep[p] {
				keep[p] = true
				work = append(work, p)
			}
		}
	}
	out := make([]depgraph.Var, 0, len(keep))
	for v := range keep {
		out = append(out, v)
	}
	return out
}

// smallcone is the third heuristic: see the package comment.
type smallcone struct{ max int }

func (smallcone) Name() string { return "smallcone" }

func (h smallcone) Choose(g *depgraph.Graph, target []depgraph.Var) []depgraph.Var {
	if c := (depgraph.Cone{}).Choose(g, target); len(c) <= h.max {
		return c
	}
	return depgraph.Paper{}.Choose(g, target)
}

func main() {
	var reg cli.Registry
	reg.Heuristic(shared1{}, depgraph.Steps{K: 2}, depgraph.Steps{K: 4})
	reg.Heuristic(guards{}, depgraph.Steps{K: 2}, depgraph.Steps{K: 4})
	reg.Heuristic(smallcone{max: 16}, depgraph.Steps{K: 1}, depgraph.Steps{K: 2}, depgraph.Steps{K: 4})
	os.Exit(cli.Main(os.Args[1:], &reg))
}

package cegpv_test

import (
	"context"
	"fmt"
	"os"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/loop"
)

// A Go program gets the verdict `cegpv verify` prints, with the same
// defaults: cegpv.Check decides it (replay, opaque values, the search
// beyond the bounds), the command line only prints it.
func ExampleCheck() {
	const file = "testdata/progs/lazy_counter_unsafe.c"
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := frontend.Lower(file, src, frontend.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := cegpv.DefaultCheckOptions() // the command line's defaults
	opts.Backend = builtin.New(builtin.Options{})
	rep := cegpv.Check(context.Background(), p, opts)
	fmt.Println(rep.Verdict.SVCOMP(), rep.Property)
	if rep.FoundWithin != nil {
		fmt.Println("found within", rep.FoundWithin)
	}
	last := rep.Run.Steps[len(rep.Run.Steps)-1]
	fmt.Println("the run ends at", last.Label)
	// Output:
	// FALSE main.assertion.1
	// found within unwind 1
	// the run ends at main.6
}

// assertionOnly is a slicing heuristic: it keeps the variables the
// assertion reads and nothing behind them, leaving the rest to refinement
// and to the wider levels.
type assertionOnly struct{}

func (assertionOnly) Name() string { return "assertion-only" }

func (assertionOnly) Choose(g *depgraph.Graph, target []depgraph.Var) []depgraph.Var {
	return target // Choose adds the joins and locks every abstraction keeps
}

// A researcher's heuristic is registered with depgraph.Register, found by
// name with depgraph.Lookup (as --heuristic and bench's --heuristics
// do) and run by cegpv.Check; the report's KeptSets list the variables
// every abstraction level kept (the deepening's shallow runs first, here
// turned off) and Iterations every iteration. For `cegpv bench
// --heuristics paper,assertion-only`, run the command line from your own
// program with it registered, cli.Main(args, reg) (examples/heuristic):
// bench runs `self verify` as a child process.
func Example_registerHeuristic() {
	if err := depgraph.Register(assertionOnly{}); err != nil {
		fmt.Println(err)
		return
	}
	h, err := depgraph.Lookup("assertion-only")
	if err != nil {
		fmt.Println(err)
		return
	}
	const src = `#include <pthread.h>
#include <assert.h>
int counter, unrelated;
void *worker(void *arg) { counter++; unrelated = 7; return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, 0, worker, 0);
	pthread_create(&t2, 0, worker, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	assert(counter == 2);
	return 0;
}
`
	p, err := frontend.Lower("lost_update.c", []byte(src), frontend.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{
		Options: loop.Options{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 2}, Heuristic: h, NoDeepening: true},
		// Probe 0: the loop from the start, without first checking the whole program
	})
	fmt.Println(rep.Verdict.SVCOMP(), rep.Property)
	for _, ks := range rep.Loop.KeptSets {
		fmt.Printf("unwind %d level %d (%s): %d of %d variables: %s\n", ks.Unwind, ks.Level, ks.Heuristic, len(ks.Kept), ks.Of, depgraph.JoinVars(ks.Kept))
	}
	for _, it := range rep.Loop.Iterations {
		fmt.Printf("level %d iteration %d: abstraction %s, reconstruction %s\n", it.Level, it.Iteration, it.Abstract, it.Reconstruct)
	}
	// Output:
	// FALSE main.assertion.1
	// unwind 2 level 0 (assertion-only): 3 of 6 variables: counter, main::t1, main::t2
	// level 0 iteration 0: abstraction UNSAFE, reconstruction UNSAFE
}

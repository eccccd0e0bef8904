// Package refine removes spurious runs from an abstraction (design.md §1,
// "Refinement", and §3.2): Exclude(A, visible, R) returns A' whose runs are
// those of A except the ones whose visible label sequence is in R (the
// paper's Lemma 3), as a trie monitor that any backend can check, with
// Map.Run mapping runs of A' back to runs of A.
//
// The monitor removes every run with an excluded label sequence, so it is
// sound only together with the order-only reconstruction
// (reconstruct.OrderOnly), which proves that no run of P follows such a
// sequence to a violation. After the values-and-order reconstruction only
// the one run π may be removed, which needs the paper's observer/controller.
//
// # The observer/controller construction (not built yet)
//
// The paper's refinement (Fig. 12/13) would fit here as a second
// constructor, say Observe(A, R []*program.Run) (*program.Program, *Map,
// error), with R the spurious runs including their V0 values: build the
// prefix tree G_R of the runs (nodes = prefixes, each with the V0 values and
// every thread's program counter there); add an observer thread that runs
// first, picks a node v of G_R, sets V0 to v's values, picks the thread whose
// next step leaves the tree (for a nondet assignment: a value different from
// every value the tree already has there) and publishes each thread's resume
// label through a shared `label` variable and a `flag`; give each thread a
// controller prologue that waits for `flag` and jumps (a multi-target Goto
// guarded by `label == k`) to its resume label, which needs a resume point
// before every visible instruction, in the style of reconstruct.Instrument.
// Its Map.Run would drop the observer's and the controllers' steps and
// prepend the prefix of the tree node (a run of A up to v) to the rest, so
// that the result is again a run of A outside R. The monitor of this
// package and the observer share Instrument's placement rules and the Map
// type.
package refine

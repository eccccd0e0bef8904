// Package refine removes spurious runs from an abstraction (design.md §1,
// "Refinement", and §3.2): Exclude(A, visible, R) returns A' whose runs are
// those of A except the ones whose visible label sequence is in R (the
// paper's Lemma 3), as a trie monitor that any backend can check, with
// Map.Run mapping runs of A' back to runs of A. ExcludePatterns is the
// general form: each excluded pattern (W, s) carries its own label set W
// and removes the violations whose projection onto W is s, one trie
// monitor per distinct W (Exclude is the case of one W for all); the
// CEGPV loop excludes such patterns after generalising a spurious sequence
// (loop/generalise.go).
//
// The monitor removes every run with an excluded label sequence, so it is
// sound only together with the order-only reconstruction
// (reconstruct.OrderOnly), which proves that no run of P follows such a
// sequence to a violation. After the values-and-order reconstruction only
// the one run π may be removed, which needs the paper's observer/controller.
//
// # The observer/controller construction
//
// The paper's refinement (Fig. 12/13), which removes exactly the spurious
// runs (with their values) and pairs with the values-and-order
// reconstruction, is package observer (observer.Refine); its doc compares
// the two constructions. loop.Options.Refinement chooses between them.
package refine

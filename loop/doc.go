// Package loop is the CEGPV loop of counter-example guided program
// verification (Abdulla, Atig, Diep): it slices a program to a few
// variables, asks a backend about the abstraction, checks every abstract
// counterexample against the original program by reconstruction, and
// refines the abstraction by excluding the counterexamples that turned out
// spurious. It is one engine of the verdict's portfolio (the module root,
// cegpv.Check), which it never imports.
//
// The loop implemented by Verify (docs/design.md §1, the order-only
// variant):
//
//	V0 := heuristic(P)                    (closed under alias groups, never empty)
//	loop over abstraction levels:
//	  A := slice(P, V0); R := {}
//	  repeat up to MaxIterations times:
//	    r := backend(A minus the runs whose visible label sequence is in R)
//	    SAFE    → SAFE (for the bounds of the check)
//	    UNKNOWN → UNKNOWN(reason)
//	    π := r's run mapped back to A
//	    P1 := P forced to follow π's visible label sequence
//	    s := backend(P1)
//	    UNSAFE  → the run mapped back to P, replayed on P → UNSAFE
//	    UNKNOWN → UNKNOWN(reason)
//	    SAFE    → R := R ∪ {labels(π)}   (no run of P has them)
//	  V0 := the next level's kept set (depgraph.Levels; the last keeps every variable)
//
// Around it: shallow runs at unwind 1 and 2 first (deepen); a level
// keeping at least MaxKeptShare of the variables is the last one; before
// labels(π) is added to R the code-to-code loop generalises it to fewer
// labels, each candidate proven by the explicit-state search
// (generalise.go). Over an incremental backend the same loop runs on two
// live solvers, and R gains unsat cores (blockers), relaxed up to Relax
// times to find a real violation near π. How an abstraction is checked, a
// counterexample reconstructed and a spurious one excluded is a strategy
// (strategy.go): the code-to-code monitor, its incremental form, the
// paper's observer. docs/cegpv-loop.md has the details.
//
// Soundness (docs/design.md §5): A over-approximates P (Lemma 1) and
// excluding a label sequence that no run of P has keeps it so (Lemmas 2
// and 3), so SAFE for A' is SAFE for P under the same bounds; every UNSAFE
// is a run of the original program confirmed by interp.Judge before it is
// returned; a reconstruction that errors or times out makes the answer
// UNKNOWN, never "spurious".
package loop

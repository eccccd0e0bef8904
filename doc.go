// Package cegpv decides verdicts. The algorithm runs in two packages:
// package loop is the CEGPV loop, one engine; this package is the verdict,
// the portfolio of engines around it and the judge of every answer.
//
// Check (and CheckEach, per property) runs the engines of a check: the
// mode (the CEGPV loop, or the backend alone in mode plain), the probe,
// the explicit-state search raced beside the mode, the search behind a
// counterexample that cannot be followed, the check of the runs without
// opaque draws, and the search beyond the bounds (Beyond). Which engine
// runs, when and for how much CPU time is one table, Budgets (engines.go,
// shown in docs/verifying.md); every budget is CPU time (internal/budget),
// --timeout the only wall-clock limit.
//
// Invariants (docs/design.md §5): a FALSE only with a run of the program
// replayed by interp.Judge that draws no opaque value; a TRUE states its
// bounds and whether it is a proof; everything else is UNKNOWN with its
// reason. Report.DecidedBy names the engine of every TRUE and FALSE.
// DefaultCheckOptions are the library's defaults and the command line's.
package cegpv

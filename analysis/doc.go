// Package analysis holds the static analyses of a program that the
// explicit-state search (interp.Explore) relies on for its reductions and
// its finite nondeterminism: value domains of nondeterministic draws
// (Domains, with the relevance and truth-variable analyses behind it),
// address-taken variables (TakenAddrs), locals whose address stays with
// their thread (AnalyseEscapes), live locals (LiveLocals), globals
// protected by locks (AnalyseLocks) and private steps (Privacy).
//
// Invariants: every analysis reads a program.Program and nothing else (no
// interpreter state), never modifies it, and is conservative in the
// direction its consumer's soundness needs: a domain covers every
// behaviour of its draw or Domains fails; a variable reported dead is never
// read before being overwritten; a step reported private commutes with
// every step of the other threads; a global reported protected is only
// accessed with its lock held. Variables are keyed "<func>::<name>" for
// locals and by name for globals (VarKey).
//
// The CEGPV stages have analyses of the same names with other meanings
// (backend/builtin counts every global array as address-taken; the
// observer's liveness is per activation and treats dead values as 0): they
// are not merged here, because unifying them changes verdict-relevant
// behaviour and must be measured on the bench first.
package analysis

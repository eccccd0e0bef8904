// Package analysis holds the static analyses of a program that the
// explicit-state search (explicit.Explore) and the observer rely on for its reductions and
// its finite nondeterminism: value domains of nondeterministic draws
// (Domains, with the relevance and truth-variable analyses behind it),
// address-taken variables (TakenAddrs), locals whose address stays with
// their thread (AnalyseEscapes), live locals (LiveLocals), globals
// protected by locks (AnalyseLocks), private steps (Privacy) and the
// globals one thread instance alone accesses (ThreadPrivate, which the
// built-in encoding keeps like that thread's locals).
//
// Invariants: every analysis reads a program.Program and nothing else (no
// interpreter state), never modifies it, and is conservative in the
// direction its consumer's soundness needs: a domain covers every
// behaviour of its draw or Domains fails; a variable reported dead is never
// read before being overwritten; a step reported private commutes with
// every step of the other threads; a global reported protected is only
// accessed with its lock held; a global reported thread-private is
// accessed by one thread instance only, in every run. Variables are keyed "<func>::<name>" for
// locals and by name for globals (VarKey).
//
// They are the only copies: the observer's liveness (which locals its
// controllers may restore as 0) is LiveLocals over the abstract program,
// and the built-in encoding's addressable globals are TakenAddrs' globals
// plus the arrays it indexes (an encoding decision of its own, stated
// there). Lock analyses elsewhere are not copies of AnalyseLocks: the
// encoding's lock handling (backend/builtin/locks.go) tracks the locks
// held along symbolic paths to merge states, a different question from
// which globals a lock protects on every path.
package analysis

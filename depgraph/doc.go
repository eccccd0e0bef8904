// Package depgraph builds the variable dependency graph of a program and
// chooses the variables an abstraction keeps (the paper's V0).
//
// Nodes are variables at the granularity of whole C objects: globals by
// name ("x"), locals as "<func>::<name>", heap blocks by allocation site
// ("heap@<label>"). There is an edge y → x whenever a value of y can flow
// into x:
//
//   - data: y is read by an expression whose value is stored into x, or y is
//     used to compute the address written (array index, pointer);
//   - control: y is read by a guard (Goto, Assume, or the mutex of a Lock)
//     that an assignment to x is control dependent on (post-dominator based,
//     within the function; a call or spawn writes everything its callee may
//     write, transitively);
//   - call: arguments flow into parameters and returned values into the
//     call's result location, including the argument of pthread_create.
//
// Aliasing is handled by grouping: a flow-insensitive, unification-based
// points-to analysis (Steensgaard) puts every pointer and everything it may
// point to into one Group. A slice keeps or removes a whole group, never
// part of one, which is what design.md §5 rule 4 asks for: no write that may
// reach a kept variable is dropped.
//
// Invariants: Build never modifies its input; Vars and every adjacency list
// are sorted, so printing is deterministic; every variable belongs to
// exactly one group; the closure of a Choose result under Groups is taken by
// Choose itself, so a heuristic's result is always a union of groups and is
// never empty for a program that has variables.
package depgraph

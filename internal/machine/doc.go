// Package machine is the concrete state and the single step of an execution
// of a program of package program, with the semantics stated in
// program/doc.go. Package interp drives it along given and random runs
// (Replay, Simulate); package explicit searches its state space (Explore).
// It is internal: its fields are exported for those two drivers only.
//
// Memory is a set of objects (globals, the parameters and locals of each
// activation, heap blocks), each a flat sequence of scalar cells laid out by
// program.Type.Cells. A pointer is an object and a cell offset. Accessing a
// cell outside its object, through NULL or an integer address, through a
// dangling pointer (a freed heap block or a returned activation), or
// indexing an array out of its bounds is an execution error: the execution
// stops there and the error is reported as such, never as a property
// violation.
//
// Choices that C leaves open are fixed as follows (backends must agree for
// their runs to replay):
//   - The lvalue receiving a call's result is evaluated when the Call step
//     executes (its Nondet values are drawn by the Call step); the Return
//     step of the callee stores into it and records that store.
//   - A function whose body ends without a Return returns implicitly right
//     after its last instruction executes (no step of its own), storing 0
//     into the caller's lvalue if any.
//   - Params of a called or spawned function are stored by the Call/Spawn
//     step and recorded as its writes ("<func>::<param>").
//   - Decl and Alloc record the initial contents of every cell as writes.
//   - A Nondet of aggregate type draws one value that fills every cell.
//   - The locals of main stay valid after main has returned (other threads
//     continue and may still use them); those of other threads and of
//     returned calls become dangling.
//
// Invariants: a step either executes and returns its effect (writes, draws,
// the undo records of the cells it stored) or is blocked and changes
// nothing; an execution error is an *ExecError, never a panic out of Exec;
// a Clone shares cells with its source until either writes them
// (copy-on-write), so a state is never written after it was cloned.
package machine

// Package observer removes spurious runs from an abstraction by the
// observer/controller construction of Abdulla, Atig and Diep,
// "Counter-Example Guided Program Verification" (§5.3, Fig. 12/13), as a
// code-to-code translation on the program model (design.md §1,
// "Refinement").
//
// Refine(A, visible, R) returns a program A' and a Map. A is an abstraction
// (slice.Abstract), visible its visible labels (program.Visible: every
// other label is a Skip left by slicing), and R the spurious runs of A
// found so far, each with the values of the kept variables at every step.
// A' behaves like A except that the runs of R can no longer happen: every
// run of A' is a run of A that leaves the prefix tree of R, and every such
// run of A is (up to the observer's and controllers' steps) a run of A'.
// Refine never modifies A.
//
// # The prefix tree G_R
//
// Every run of R is replayed on A (interp.Configs), which gives the
// configuration before and after each step: the program counter and call
// stack of every thread, every global, every local of every activation,
// the atomic sections each thread is in. A step is tree-visible when it is
// at a visible label, or when it changes its thread's frames (the sliced
// skip after which a thread ends). Its identity in the tree is its thread,
// its label and its effect: the cells whose value it changes, the thread's
// control state after it, whether it failed an assertion, the number of
// threads. G_R is the trie of the tree-visible step identities of the runs
// of R; a node v is a sequence of such steps, a prefix of some run of R.
//
// Two abstractions make the tree coarser than the runs, both sound because
// the reconstruction that found the runs spurious covers them:
//
//   - Invisible steps are sliced skips: no effect, no branching. Where they
//     run does not change a run's visible behaviour, and the
//     reconstruction forces only the order of the visible labels. Each node
//     stands for the lazy configuration in which every thread sits right
//     after its last tree-visible step, as if it had run none of the
//     invisible steps that follow (state.pc; state.prefix is a run of A
//     that reaches it).
//   - A local that is dead where its thread stands (liveness: every path
//     from there overwrites it before reading it) is left out of the
//     identities, so the indeterminate value of a declaration does not
//     make two runs different. The controllers restore dead locals as 0.
//
// # Exits
//
// An exit of G_R is a node v and a thread t such that t's next
// tree-visible step from v can have an outcome that is not a child of v
// (classify). Let e be that step (after t's invisible pending steps).
//
//   - If another thread is inside an atomic section at v, t cannot move:
//     no exit.
//   - If v or one of its ancestors was reached by a failed assertion, no
//     exit: no run of P follows a run of R to that failure (that is what
//     the reconstruction showed), so nothing that extends it is a run of P.
//   - If t has no child at v, every outcome of e leaves the tree: the exit
//     copies e unconstrained.
//   - Otherwise e must be nondeterministic, and the exit allows only its
//     other outcomes: an assignment or declaration whose stored values
//     differ from every child's (the cells of the stored object are
//     compared, spec.watch/spec.forbid), the other branches of a goto with
//     a nondeterministic guard or several targets, the other outcome
//     (pass or fail) of an assertion. A nondeterministic assume has only
//     one outcome (it passes), and a store into a local that is dead after
//     it has only one up to dead values: no exit.
//
// # The observer and the controllers
//
// A' is A with these changes (emit):
//
//   - main starts with the observer. It chooses an exit x (a
//     nondeterministic int, assumed in range: Map reads this choice),
//     restores main's locals (from tables indexed by main's row), then,
//     from tables indexed by x, every global cell whose value differs from
//     its initial one somewhere, locks the mutexes held at x's node, and
//     creates the threads of the node in the order of their ids (so that
//     thread ids and the handles stored in variables agree): before each
//     pthread_create it writes the thread's row into the shared variable
//     `__cegpv_label` and waits until the thread has read it (the
//     thread writes 0 back); a thread that has ended at the node ends at
//     once, and the observer joins it. Then it sets `__cegpv_flag`.
//   - Every function that runs as a thread at a node of G_R (and main)
//     gets a controller prologue. The thread reads `__cegpv_label`: 0
//     means a thread created after the observer (or an ordinary call), and
//     the function runs from its first instruction. Otherwise it restores
//     its parameters and locals from its row, waits for `__cegpv_flag`, and
//     then either waits for `__cegpv_go` and jumps to its resume label (a
//     chain of `if (pc[row] == k) goto l_k`), or, for the deviating thread
//     t, runs the deviation block of e.
//   - A deviation block restores t's atomic sections (t may be inside its
//     own), opens a section of its own when t was in none, sets
//     `__cegpv_go`, runs a copy of e (same operands, so it draws the same
//     nondeterministic values), cuts the outcomes that are children of the
//     node (`assume` on the stored values; a dead end for an excluded
//     branch; an `assume(c)` copy for an assertion that must pass; for a
//     return of a value, the value is computed into a local and checked
//     before the return), closes its section and jumps to the instruction
//     after e. Inside the section no other thread moves, so e is the first
//     step after the node, and the others resume only after it: every run
//     of A' leaves G_R at its exit. A deviating call of a function that is
//     not atomic passes row -1, and the callee's controller closes the
//     section first thing; a deviating return from a called function
//     leaves the section open across the return, and the call that rebuilt
//     the frame closes it (`__cegpv_open`).
//   - Call stacks: a function that is the innermost or an intermediate
//     activation of some thread at some node gets a row parameter (every
//     call of A passes 0: run from the first instruction). The controller
//     of the activation below makes the call again (zero arguments, the
//     same result location) with the callee's row; the callee's
//     controller restores its locals and continues (waits, deviates, or
//     makes the next call). The callee's return comes back to the
//     rebuilding call, which jumps to the instruction after the original
//     call. Calls of atomic functions are sections again, as at the node.
//   - Locals of functions with a controller are declared at the top of
//     the body (the controller assigns them before their declaration would
//     come in the printed C); each original `decl x` becomes one
//     nondeterministic assignment per cell, the first keeping the
//     declaration's label (an atomic section around them when x's address
//     is taken).
//
// Program counters and call stacks, locals, globals, lock states, thread
// ids and the atomic sections the deviating thread is in are restored. Loop iteration
// counts are not: a thread resumed inside a loop may iterate the loop's
// full unwinding bound again, so A' within a bound contains the image of
// every run of A within it (and some longer ones), but a bounded check of
// A' cannot show that the bound suffices for A: a SAFE answer after an
// observer refinement is never reported as a proof.
//
// # Map
//
// Map.Run maps a run of A' to a run of A: it reads the exit x the observer
// chose, starts with the run of A to x's node (state.prefix) and the
// deviating thread's invisible steps before e, then takes the run's steps
// after the choice, dropping the observer's and controllers' steps, giving
// the copy of e the label of e, and merging the per-cell steps of a
// declaration into one Decl step. Thread ids and nondeterministic values
// are kept.
//
// Lemma 3 (tested by lemma_test.go on random runs): every run of A' maps
// to a run of A, with the same verdict; once the deviating step and its
// check have run, the mapped run leaves G_R at the chosen exit, so it is
// not a run of R nor a prefix of one (up to the placement of invisible
// steps and the values of dead locals). A run cut by the check (a copy
// whose outcome is a child, which then blocks inside the section) maps to
// a prefix of a run of R without a violation. Conversely every run of A
// that leaves G_R is the image of a run of A' with the same verdict.
//
// # Comparison with the monitor of package refine
//
// refine.Exclude (design.md §3.2) adds a trie monitor over visible label
// sequences and removes every run of A whose visible label sequence is
// spurious, whatever its values. That is sound only after the order-only
// reconstruction, which shows that no run of P has the sequence; it is
// linear in R and keeps A's control flow, so backends see the same loops.
// The observer removes exactly the runs of R (up to invisible steps and
// dead values), which is what the values-and-order reconstruction
// (reconstruct.ValuesAndOrder) shows to be spurious: a run of P with the
// same labels but other values of the replaced variables may still be
// real. It needs more iterations when many runs share a label sequence,
// and its A' is larger (tables of every node's state, a controller per
// thread function), but it does not need the stronger order-only proof.
// loop.Options.Refinement selects the pair.
//
// # Restrictions
//
// Refine returns an error of kind program.Unsupported, naming the
// construct, rather than an unsound program when
//
//   - a thread is in a recursive call at a node (a function twice on its
//     stack), or a function that is active above some thread's start
//     function at a node is also a start function, main, spawned, or used
//     as a function pointer (it cannot get the row parameter), or the call
//     to rebuild has a parameter of aggregate type or stores its result
//     through a nondeterministic location;
//   - heap blocks have been allocated before a node, or a restored cell
//     holds a pointer to the heap or to a local of another thread or
//     activation (only globals, main's locals, the activation's own locals
//     and functions can be named again);
//   - a deviation would need a constraint the construction does not
//     express: several outcomes of a call, spawn, join, lock or unlock
//     (nondeterministic operands), a store through a pointer chosen
//     nondeterministically, a return value stored other than into a local
//     of the caller, a call through a function pointer, an allocation;
//   - a controller function has locals or cells of mutex or condition
//     type to redeclare or compare, or a thread runs an atomic function.
//
// The controller treats Unsupported as "this abstraction cannot be
// refined" and widens the kept set. Backends may reject A' where they
// accept A: the built-in backend does not let paths in different atomic
// sections meet, so a thread resumed inside its own atomic section (the
// deviation jumps into the middle of it) makes the check Unsupported; the
// controller widens then too.
package observer

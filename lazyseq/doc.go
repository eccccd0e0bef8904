// Package lazyseq produces the round-bounded sequentialisation of a
// program: a sequential program whose runs simulate every round-robin
// schedule of at most R rounds over the program's thread instances (lazy
// sequentialisation after Inverso, Tomasco, Fischer, La Torre, Parlato,
// "Bounded model checking of multi-threaded C programs via lazy
// sequentialization", CAV 2014), and the Map that turns a run of that
// program back into a run of the original one.
//
// # Thread instances
//
// Instance 0 is main. Every Spawn site gets a fixed number of instances:
// one for a site of main outside every loop, Options.Threads (the
// "threads" bound) for any other site (inside a loop, or in a function
// that several instances may run). A Spawn executed when all instances of
// its site are taken is cut (assume(0)): the thread bound is stated with
// every verdict. Instances are ordered: main, then the sites in the order
// in which a breadth-first walk from main meets them, each site's
// instances in creation order; the sites of an instance are those of its
// start routine and of every function its calls may reach. A Spawn
// through a pointer has a site per possible start routine (the functions
// of the pointer's type whose address is taken).
//
// # The sequential program
//
// Each instance i becomes a function __ls_thread_i without parameters or
// locals: the parameters and locals of its start function become globals
// (__ls_i_<name>) that keep their values between rounds, and a global
// program counter __ls_pc_i records where it stopped. Its body holds every
// instruction of the start function (and of its callees, inlined), each
// visible one preceded by a context-switch point k: when no atomic section
// is open, the function may (nondeterministically) switch out there. The
// choice is one value per context, as Lazy-CSeq's: the function draws
// __ls_stop as it starts, and a point k outside its loops switches out
// when k >= __ls_stop; a point inside a loop, which a run may pass
// several times, draws a choice of its own. Resuming and switching out
// are Lazy-CSeq's guarded skips: control jumps from each point's skip
// test to the next point's, forward only, while __ls_pc_i is above the
// point's number: at entry, up to the point where the instance stopped;
// after a switch at point k, which stores k + MaxInstrs, past the last
// point, where the function stores k and returns (a loop's back edge,
// the only way back to a point below __ls_pc_i, sets it to -1). A checker
// thus carries one pending branch at a time, and the points write no
// state but __ls_pc_i at a switch. A Decl whose local the next
// instruction overwrites draws no value (the front end's temporaries),
// and main's instructions that run before any thread exists (none of its
// Spawns, nor a call that may spawn, leads to them) have no point: a
// switch there would end a round in which nothing else runs. Nor has an
// instruction inside a closed atomic section (straight-line code from an
// AtomicBegin to its AtomicEnd, entered and left only there: the
// refinement monitor's bracket), whose point no run could take; such a
// section does not count into __ls_atomic either.
// The new main calls, for
// round 1..R and each instance in order, the instance's function when it
// has been created and has not ended. Lock and Unlock are kept (in a
// sequential program Lock is assume(*m == 0); *m = 1: a blocked thread
// cannot pass it in this round, and the run where it switched out just
// before is also simulated); Join(t) is assume(the instance with id t has
// ended); atomic sections (AtomicBegin/End) count into __ls_atomic, which
// disables the switch points. Thread ids follow program.Step: the k-th
// Spawn executed gets id k (the global __ls_nthreads).
//
// # Calls
//
// Calls are inlined, per call site, instance and recursion depth: the
// parameters and locals of each inlined activation become globals of
// their own (__ls_<i>_<func>_<name>); the Call's step evaluates where the
// result goes (the address of an Lhs other than a variable), the callee
// and the arguments into the parameters; a Return of a callee stores its
// result and jumps back (falling off the end stores 0, as the
// interpreter). A call of a function that already has Options.Unwind
// activations on the instance's stack is cut (assume(0)): recursion is
// bounded by the unwinding, as in every engine. A call through a pointer
// dispatches over the functions of the pointer's type whose address is
// taken; a pointer to none (null, a function of another type) fails an
// assertion of its own, whose run does not replay on the input (UNKNOWN,
// as the interpreter's execution error): never a run cut silently. The
// functions used as values stay in the output as stubs, so that a pointer
// compares with their addresses. A call of a __VERIFIER_atomic_*
// function counts into __ls_atomic until it returns (and has no switch
// points inside); Exit in a callee ends the instance as Return in its
// start routine does. Thread-local storage and the pthread API beyond
// threads and mutexes need nothing more: the front end lowers them onto
// locals, parameters, int cells, atomic sections and calls. The output
// is at most MaxInstrs instructions, else Unsupported naming the limit.
//
// Loops stay loops: the sequential checker unwinds each instance's
// function at each of its R call sites, so a loop runs up to the
// unwinding bound in every round, which covers every run in which it runs
// at most that often in total.
//
// # Invariants
//
//   - Every run of the output is, through the Map, a run of the input with
//     at most R round-robin rounds over its thread instances, and every
//     such run of the input within the unwinding and thread bounds is the
//     image of a run of the output that violates the same assertion. A
//     check of the output is therefore bounded by the rounds (a Safe answer
//     is never a proof; see Backend).
//   - Map.Run maps a run of the output to a run of the input (thread ids,
//     labels of the input and the nondeterministic values drawn in the
//     order of program.Step). The caller must replay it on the input with
//     interp.Replay (cegpv.Check does for every Unsafe answer): only a
//     replayed run is a counterexample.
//   - The input is not modified. What the translation does not take
//     (main with parameters, a Join id drawn nondeterministically, a
//     call's Lhs or a handle at a place drawn nondeterministically) is
//     Unsupported, naming file:line and the construct. A thread's result
//     drawn nondeterministically (pthread-wmm's return of a nondet
//     pointer) is a step that draws, as any assignment.
//   - A nondeterministic pointer of a run of the output (an uninitialised
//     pointer) that points to an object only the output has maps to null.
package lazyseq

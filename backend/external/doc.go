// Package external runs an external model checker (ESBMC, CBMC) on a
// program.Program and maps the checker's counterexample back to a
// program.Run.
//
// It produces two things: a printed copy of the program (Print: the C text
// of program.Print, its line map, and a probe per nondeterministic value, see
// below) and a run of the program from a parsed checker trace (MapTrace).
// Exec runs the checker process.
//
// Invariants:
//   - Exec starts the checker in its own process group; cancelling ctx or
//     reaching the time limit kills the whole group; the output kept is
//     bounded (MaxOutput per stream, the rest dropped and said so).
//   - Printed.Remove deletes the temporary directory; callers defer it, so
//     it is removed on every path.
//   - Probes: every __VERIFIER_nondet_T() call that stands for a Nondet
//     operand of an instruction is printed as (__cegpv_nd_<line>_<k> =
//     __VERIFIER_nondet_T()), with __cegpv_nd_<line>_<k> a local of the
//     function declared on the line of its opening brace, so the checker's
//     trace shows every nondeterministic value drawn (also in branch guards
//     and assumptions, where the checker shows no assignment), and no line
//     moves: the line map stays that of program.Print.
//   - Read probes: in a program with threads, the guard of a goto that
//     reads shared memory is printed as (__cegpv_rd_<line> = (guard)), so
//     that the trace shows when the guard was read, between which stores
//     of the other threads (a trace shows stores, never reads); no line
//     moves.
//   - MapTrace never guesses: it executes the program with interp.Stepper,
//     each thread advanced to the line of each trace state in trace order,
//     with the probed nondeterministic values; a trace that does not lead to
//     the reported assertion failing (or cannot be followed) is an error of
//     kind BadOutput, so the verdict is UNKNOWN, never FALSE and never a
//     Safe. The run returned replays with interp.Replay.
//   - When the trace cannot be followed (ErrUnfollowable, which is
//     backend.ErrUnfollowable: CBMC 5.4 prints no step of any thread but
//     main), Job.Check returns an Unknown result and that BadOutput error,
//     and does nothing more: looking for the violation another way is a
//     verdict policy, cegpv.Check's (it runs the explicit-state search on
//     the same program within the same bounds; see searchUnfollowable in the
//     module root), so a Go caller of cegpv.Check and the command line get
//     the same verdict.
//   - Thread numbering: the checkers number threads by creation, main 0,
//     like program.Step.Thread.
package external

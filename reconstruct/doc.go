// Package reconstruct builds, from a program P, its abstraction A (made by
// slice.Abstract, with the same labels) and a run π of A, the program P1 of
// the refinement loop (design.md §1, "Reconstruction map"): P1
// under-approximates P along π (the paper's Lemma 2), and Map.Run turns a
// run of P1 back into a run of P, which the caller replays with
// interp.Replay before believing it.
//
// # Visible labels
//
// A label is visible when A's instruction there is not a Skip produced by
// slicing (Visible). The visible projection of π (Project) is what
// reconstruction forces and refinement (package refine) excludes; the
// sliced steps are invisible and run wherever their thread's program order
// lets them (the paper's copies guarded by cnt).
//
// # Order-only reconstruction (OrderOnly, OrderOnlySeq)
//
// P1 = P, with all its variables, plus a monitor forcing the visible label
// sequence of π: a counter __cegpv_cnt checked against the positions of each label; see
// OrderOnlySeq. P1 safe proves that no run of P has π's visible label
// sequence (or a prefix of it) and violates an assertion, which is what
// lets refine.Exclude remove every run of A with that sequence.
//
// # The monitor code (Instrument)
//
// Both this package and refine insert their monitor with Instrument: the
// monitor's instructions run in one atomic section with the visible
// instruction they guard wherever that is possible, and in a section of
// their own right before it for Call, Spawn, Return, Exit, Lock and Unlock
// (Map.Deferred). For the latter, a step of P1 may come after steps of other
// threads that the monitor accepted after it: Map.Visible gives the order the
// monitor accepted, Map.Run the order the steps ran (always a real run).
// Every added instruction gets a fresh label "l.a", "l.b", ... derived from
// the label l it guards; every original label keeps naming its original
// instruction, and gotos to l are retargeted to the first instruction added
// before l.
//
// # Values-and-order reconstruction (ValuesAndOrder)
//
// The paper's [[.]]co: the scalar global V0 variables are replaced by
// their values along π; see ValuesAndOrder for what it supports.
//
// # Restrictions
//
//   - The check of a deferred instruction is not atomic with it (above).
//   - A function called from inside an atomic section gets the monitor's own
//     atomic sections in its body, which nests sections at run time; the
//     interpreter and the built-in backend accept that, CBMC rejects it
//     ("nesting of atomic sections"), which makes such a check UNKNOWN,
//     never a wrong verdict.
//   - Every visible conditional goto gets a fresh int local __cegpv_br<k>.
package reconstruct

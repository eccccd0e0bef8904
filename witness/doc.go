// Package witness writes SV-COMP verification witnesses (GraphML 1.0, format of
// sosy-lab/sv-witnesses README-GraphML.md, and YAML 2.0) from cegpv's results.
//
// A violation witness is built from a replayed run (program.Run): one edge per
// executed step whose source line lies in the input file, with the thread (threadId),
// thread creation (createThread), function entry and return (enterFunction,
// returnFrom) and the values of nondeterministic assignments to variables
// (assumption "x == v;" with assumption.scope), ending in the violation node.
// Branch directions (control) are not written: the front end's goto guards are not
// the source conditions, and a wrong direction would mislead a validator; a validator
// finds the direction from the assumptions and lines.
//
// Read parses violation witnesses of other tools (GraphML 1.0 and YAML 2.0)
// into a Guide: the program hash and the waypoints in order, the target
// last, for package validate.
//
// A correctness witness states no invariants: cegpv's proofs are bounded and
// state no loop invariants. In GraphML (Correctness) it is one entry node (the
// trivial invariant `1`); in YAML 2.0 (CorrectnessYAML) one invariant_set entry
// with the task's metadata and an empty content list.
package witness

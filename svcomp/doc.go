// Package svcomp reads SV-COMP's input formats: property files (.prp) and task
// definitions (.yml, format 2.0).
//
// Only the reachability property (unreach-call) is supported by cegpv, in both of its
// spellings: SV-COMP 2015's `CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )` and
// today's `... call(reach_error()) ...`. Other properties (valid-memsafety, no-overflow,
// termination, no-data-race, def-behavior, ...) are recognised and named, with
// Supported false, so that a caller answers UNKNOWN "unsupported property ..." rather than a
// verdict about a property it did not check.
//
// The package depends only on program/ (for the data model).
package svcomp

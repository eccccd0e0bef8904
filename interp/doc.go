// Package interp executes programs of package program concretely, with the
// semantics stated in program/doc.go: it replays runs produced by backends
// (Replay), which is how every UNSAFE verdict is confirmed before it is
// reported, and it produces random executions (Simulate) for tests that
// compare the symbolic backends with concrete behaviour.
//
// The state and the step of an execution are package internal/machine's
// (memory model, the choices C leaves open, the atomic-section semantics),
// shared with the explicit-state search of package explicit; interp drives
// the machine along a given run (Replay, Configs, Stepper) or a random one
// (Simulate).
package interp

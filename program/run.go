package program

import (
	"fmt"
	"strings"
)

// Value is the value of one scalar cell: an integer (Bits, sign-extended
// for signed types as in Const.V), or a pointer to byte Off of object Obj
// (Obj empty with Bits 0 is NULL). Function pointers have Obj "fn:<name>".
type Value struct {
	Bits int64
	Obj  string
	Off  int64
}

// Int returns an integer value.
func IntValue(v int64) Value { return Value{Bits: v} }

// IsPtr reports whether v points into an object.
func (v Value) IsPtr() bool { return v.Obj != "" }

func (v Value) String() string {
	if v.Obj == "" {
		return fmt.Sprint(v.Bits)
	}
	if strings.HasPrefix(v.Obj, "fn:") {
		return "&" + v.Obj[3:]
	}
	if v.Off == 0 {
		return "&" + v.Obj
	}
	return fmt.Sprintf("&%s+%d", v.Obj, v.Off)
}

// Write records a value stored by a step: Loc is the object's name followed
// by Type.CellPath of the cell, e.g. "x", "a[2]", "worker::i", "heap#1.next".
// Objects are named: globals by their name; locals "<func>::<name>"; heap
// blocks "heap#<n>" for the n-th Alloc or Realloc executed in the run (from 1).
type Write struct {
	Loc string
	Val Value
}

// Step is one executed instruction.
type Step struct {
	Thread int   // 0 is main; k is the thread created by the k-th Spawn of the run
	Label  Label // the instruction executed
	// Nondet holds the values drawn by the step: first one per Nondet node of
	// its operands (Instr.Operands, each walked in pre-order, including
	// nodes in branches that are not evaluated), then for Decl, Alloc and
	// Realloc the initial contents, one per cell (for Realloc also for the
	// cells that take the old block's values). Missing trailing values are taken as 0.
	Nondet   []Value
	Assigned []Write // the stores the step made, for reports and reconstruction
}

// Run is a finite execution: the paper's c0·l1·c1·…·lm·cm with the
// configurations given by the stores of each step.
type Run struct {
	Steps []Step
	// Violated is the Prop of the failed assertion when the run ends in a
	// property violation (the last step is that Assert), else empty; or
	// the id of an unwinding property (IsUnwinding) when the run ends by
	// reaching an unwinding bound: its last step is the back edge or the
	// call that would exceed the bound Unwind, which is not executed.
	Violated string
	Unwind   int
	// UnwindSet, when not nil, gives the loops and recursive functions
	// whose bound is not Unwind theirs, by Unwinding.Key (--unwindset).
	UnwindSet map[string]int
}

// BoundOf returns the bound of the loop or recursive function with that
// key (Unwinding.Key) in the bounds the run was found within.
func (r *Run) BoundOf(key string) int {
	if b, ok := r.UnwindSet[key]; ok {
		return b
	}
	return r.Unwind
}

// Labels returns the label sequence of r.
func (r *Run) Labels() []Label {
	out := make([]Label, len(r.Steps))
	for i, s := range r.Steps {
		out[i] = s.Label
	}
	return out
}

// Threads returns the thread ids occurring in r, ascending.
func (r *Run) Threads() []int {
	max := -1
	for _, s := range r.Steps {
		if s.Thread > max {
			max = s.Thread
		}
	}
	seen := make([]bool, max+1)
	for _, s := range r.Steps {
		seen[s.Thread] = true
	}
	var out []int
	for i, ok := range seen {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

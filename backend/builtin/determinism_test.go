package builtin

import (
	"context"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// The formula of a program is a function of the program: encoding it twice
// gives the same text (map iteration order must not leak into names or
// the order of definitions), so that verdicts, counterexamples and times
// are reproducible.
func TestEncodingDeterministic(t *testing.T) {
	for _, pr := range incProgs(t) {
		p := lowerProg(t, pr)
		b := backend.Bounds{Unwind: max(pr.Unwind, 2)}
		var first string
		for i := 0; i < 4; i++ {
			e, _, err := encodeProgram(context.Background(), p, b, true, false, redAll)
			if err != nil {
				t.Fatalf("%s: %v", pr.Name, err)
			}
			if i == 0 {
				first = e.out.String()
			} else if e.out.String() != first {
				t.Fatalf("%s: encoding %d differs from the first", pr.Name, i)
			}
		}
	}
}

// An encoding over the memory budget stops with a Memout error (the
// verdict is then UNKNOWN), not by exhausting the machine.
func TestEncodingMemout(t *testing.T) {
	prs := incProgs(t)
	old := MaxFormulaBytes
	MaxFormulaBytes = 1 << 10
	defer func() { MaxFormulaBytes = old }()
	p := lowerProg(t, prs[len(prs)-1])
	_, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 3}, true, false, redAll)
	if program.KindOf(err) != program.Memout {
		t.Fatalf("got %v, want an out-of-memory error", err)
	}
}

// A context bound is not applied (every interleaving is explored), and the
// result says so by stating no context bound.
func TestNoContextBound(t *testing.T) {
	p := lower(t, "one", oneSeq)
	r, err := New(Options{}).Check(context.Background(), p, backend.Bounds{Unwind: 2, Contexts: 1})
	if err != nil || r.Verdict != backend.Unsafe {
		t.Fatalf("%v %v", r.Verdict, err)
	}
	if r.Bounds.Contexts != 0 {
		t.Errorf("result claims context bound %d", r.Bounds.Contexts)
	}
}

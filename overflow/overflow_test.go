package overflow_test

import (
	"testing"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/overflow"
	"cegpv.dev/cegpv/program"
)

// A goto into an instruction with checks lands on its first check, and a
// run of the program through that jump reports the overflow there.
func TestGotoLandsOnChecks(t *testing.T) {
	p, err := frontend.Lower("g.c", []byte("int x = 2147483647, y;\nint main(void) {\n  int v = x;\n  if (v > 0) goto L;\n  v = 0;\nL:\n  y = v + 1;\n  return 0;\n}\n"), frontend.Options{Model: program.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	// jump past the label's skip, straight to the addition (front ends
	// other than cegpv's may target any instruction)
	f := p.Func("main")
	var skip, add program.Label
	for i, in := range f.Body {
		if in.Op == program.OpSkip {
			skip, add = in.Label, f.Body[i+1].Label
			f.Body = append(f.Body[:i:i], f.Body[i+1:]...)
			break
		}
	}
	for _, in := range f.Body {
		for i, tg := range in.Targets {
			if tg == skip {
				in.Targets[i] = add
			}
		}
	}
	if err := program.Check(p); err != nil {
		t.Fatal(err)
	}
	q, lay := overflow.Add(p)
	if err := program.Check(q); err != nil {
		t.Fatal(err)
	}
	first := lay[add].Labels[0]
	jumps := 0
	for _, in := range q.Func("main").Body {
		for _, tg := range in.Targets {
			if tg == add {
				t.Errorf("%s still jumps to %s, past its checks", in.Label, add)
			}
			if tg == first {
				jumps++
			}
		}
	}
	if jumps != 1 {
		t.Errorf("%d jumps to the check %s, want 1", jumps, first)
	}
	out, err := interp.Simulate(p, interp.SimOptions{})
	if err != nil || out.Status != interp.Completed {
		t.Fatalf("simulate: %v %v", out.Status, err)
	}
	ovs, err := interp.Overflows(p, out.Run)
	if err != nil || len(ovs) != 1 || out.Run.Steps[ovs[0].Step].Label != add || ovs[0].Prop != "main.overflow.1" {
		t.Errorf("overflows %+v, %v; want one at %s", ovs, err, add)
	}
}

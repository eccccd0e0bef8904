package interp

import (
	"testing"

	"cegpv.dev/cegpv/frontend"
)

// TestOpaque: a violation that depends on an external function's result
// reports the opaque draw (atoi: strlen, once opaque here, is the C library
// model's loop since 981a801); genuine nondet inputs are not reported.
func TestOpaque(t *testing.T) {
	src := `#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
	int k = __VERIFIER_nondet_int();
	if (k == 3) __VERIFIER_error();
	if (atoi("12") != 12) __VERIFIER_error();
	return 0;
}
`
	p, err := frontend.Lower("input.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sawGenuine, sawOpaque := false, false
	for seed := int64(0); seed < 500 && !(sawGenuine && sawOpaque); seed++ {
		out, err := Simulate(p, SimOptions{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != Violated {
			continue
		}
		rep, err := Replay(p, out.Run)
		if err != nil {
			t.Fatal(err)
		}
		switch out.Prop {
		case "main.assertion.1":
			sawGenuine = true
			if len(out.Opaque) != 0 || len(rep.Opaque) != 0 {
				t.Errorf("genuine violation reports opaque draws %v / %v", out.Opaque, rep.Opaque)
			}
		case "main.assertion.2":
			sawOpaque = true
			want := "atoi at input.c:7"
			if len(out.Opaque) != 1 || out.Opaque[0] != want || len(rep.Opaque) != 1 || rep.Opaque[0] != want {
				t.Errorf("Opaque = %v (replay %v), want [%s]", out.Opaque, rep.Opaque, want)
			}
		}
	}
	if !sawGenuine || !sawOpaque {
		t.Errorf("simulation found genuine=%v opaque=%v violations", sawGenuine, sawOpaque)
	}
}

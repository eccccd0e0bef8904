package loop_test

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// Options.WholeBeside: the run at the bounds ends UNKNOWN where its level
// is the program itself (left to the caller's check beside the loop); the
// deepening's shallow runs still check the program at unwind 1 and 2.
// With MaxKeptShare near 0 every level is the program itself (each kept
// set has at least that share of the variables). The program is safe: y
// is 0 before the loop and 2 after each iteration.
func TestWholeBeside(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	src := "int x, y;\nint main(void) {\n  for (int i = 0; i < 2; i++) { x = 1; y = x + 1; }\n  __VERIFIER_assert(y == 2 || y == 0);\n  return 0;\n}\n" +
		"void __VERIFIER_assert(int c) { if (!c) { __VERIFIER_error(); } }\n"
	src = "extern void __VERIFIER_error(void);\nvoid __VERIFIER_assert(int c);\n" + src
	p, err := frontend.Lower("wb.c", []byte(src), frontend.Options{Model: program.LP64})
	if err != nil {
		t.Fatal(err)
	}
	opts := loop.Options{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 3}, MaxKeptShare: 0.01, Sanity: true}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := loop.Verify(ctx, p, opts)
	if err != nil || res.Verdict != backend.Safe {
		t.Fatalf("without WholeBeside: %v (%s), %v: want TRUE", res.Verdict, res.Reason, err)
	}
	all := res.Checks
	opts.WholeBeside = true
	res, err = loop.Verify(ctx, p, opts)
	if err != nil || res.Verdict != backend.Unknown || res.Reason != loop.ReasonWholeBeside {
		t.Fatalf("with WholeBeside: %v (%s), %v: want UNKNOWN, %q", res.Verdict, res.Reason, err, loop.ReasonWholeBeside)
	}
	if res.Checks != all-1 || res.Checks < 2 {
		t.Errorf("with WholeBeside %d checks, without %d: want the shallow runs' checks, one fewer", res.Checks, all)
	}
}

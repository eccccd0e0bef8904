package observer

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

// The program of testdata/observer/nondet_value.txtar: thread t's only
// visible step is its return, and main fails when its nondet value is 3.
const fiveSrc = `
#include <pthread.h>
#include <assert.h>
int x = 0;
int y = 0;
void *t(void *arg) {
  y = y + 3;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  x = y + 2;
  assert(x != 5);
  pthread_join(h, 0);
  return 0;
}
`

// With the built-in backend: A' keeps every violation of A that R does not
// contain, and loses A's violations exactly when R contains all of them.
// A's violating runs (up to invisible steps) are main drawing 3, with t's
// return at one of five places; R takes the first n of them.
func TestBuiltinExactRemoval(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	p := lemmatest.Lower(t, "five.c", []byte(fiveSrc))
	a, _, err := slice.Abstract(p, depgraph.Build(p), []depgraph.Var{"x", "main::h", "main::__tmp_0"})
	if err != nil {
		t.Fatal(err)
	}
	mainSteps := []program.Step{{Label: "main.0"}, {Label: "main.1"}, {Label: "main.2"}, {Label: "main.3", Nondet: []program.Value{{Bits: 3}}}, {Label: "main.4"}, {Label: "main.5"}}
	tSteps := []program.Step{{Thread: 1, Label: "t.0"}, {Thread: 1, Label: "t.1"}, {Thread: 1, Label: "t.2"}, {Thread: 1, Label: "t.3"}}
	var all []*program.Run
	for at := 2; at <= 6; at++ { // t runs after main's step at-1 (6: t has not returned)
		r := &program.Run{Violated: "main.assertion.1"}
		for i, s := range mainSteps {
			if i == at && at < 6 {
				r.Steps = append(r.Steps, tSteps...)
			}
			r.Steps = append(r.Steps, s)
		}
		out, err := interp.Replay(a, r)
		if err != nil || out.Status != interp.Violated {
			t.Fatalf("variant %d does not replay as a violation: %v", at, err)
		}
		all = append(all, out.Run)
	}
	be := builtin.New(builtin.Options{})
	vis := program.Visible(a)
	for n := 1; n <= len(all); n++ {
		b, err := refine(a, vis, all[:n])
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		res, err := be.Check(ctx, b.ap, backend.Bounds{Unwind: 2})
		cancel()
		if err != nil {
			t.Fatalf("R = %d runs: %v", n, err)
		}
		t.Logf("R = %d runs: %d exits, A' %v", n, len(b.exits), res.Verdict)
		if n < len(all) {
			if res.Verdict != backend.Unsafe {
				t.Fatalf("R = %d of %d violating runs: A' is %v, want UNSAFE", n, len(all), res.Verdict)
			}
			r := b.m.Run(res.Run)
			out, err := interp.Replay(a, r)
			if err != nil || out.Status != interp.Violated {
				t.Fatalf("R = %d: the backend's run does not map to a violation of A: %v", n, err)
			}
			if _, leave, _, err := b.walk(out.Run); err != nil || leave < 0 {
				t.Fatalf("R = %d: the backend's violation is a run of R (%v)", n, err)
			}
		} else if res.Verdict != backend.Safe {
			t.Fatalf("R = all %d violating runs: A' is %v, want SAFE", n, res.Verdict)
		}
	}
	// the same check catches an observer that does not constrain the
	// deviating step
	b, err := refine(a, vis, all)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range b.ap.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpAssume && in.Msg == "cegpv: the value differs from every child of the node" {
				in.Rhs = program.True
			}
		}
	}
	res, err := be.Check(context.Background(), b.ap, backend.Bounds{Unwind: 2})
	if err != nil || res.Verdict != backend.Unsafe {
		t.Fatalf("unconstrained observer: %v %v, want UNSAFE", res.Verdict, err)
	}
}

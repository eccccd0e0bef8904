package interp

import (
	"strings"
	"testing"

	"cegpv.dev/cegpv/frontend"
	P "cegpv.dev/cegpv/program"
)

// unwindSrc has a loop with a continue (two back edges, two loops as CBMC
// numbers them), a second loop and a recursive function.
const unwindSrc = `int x;
int f(int n) { if (n <= 0) return 0; return f(n - 1) + 1; }
int main(void) {
  int i = 0;
  while (i < 3) {
    i++;
    if (x) continue;
    x = 0;
  }
  for (int j = 0; j < 2; j++) x++;
  return f(4);
}
`

func lowerUnwind(t *testing.T) *P.Program {
	t.Helper()
	p, err := frontend.Lower("unwind.c", []byte(unwindSrc), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// stepsTo runs main alone from the start, taking every step, until the
// next instruction is at label want for the n-th time (n from 1), and
// returns the steps before it.
func stepsTo(t *testing.T, p *P.Program, want P.Label, n int) []P.Step {
	t.Helper()
	st, err := NewStepper(p)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for i := 0; i < 1000; i++ {
		l := st.Next(0)
		if l == want {
			if seen++; seen == n {
				return st.Run().Steps
			}
		}
		if err := st.Step(P.Step{Thread: 0, Label: l}, ""); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("%s not reached %d times", want, n)
	return nil
}

func TestUnwindingProperties(t *testing.T) {
	p := lowerUnwind(t)
	var got []string
	for _, u := range P.Unwindings(p) {
		got = append(got, u.ID+"@"+string(u.Label)+":"+u.Text)
	}
	want := "f.recursion@:recursion unwinding assertion main.unwind.0@main.6:unwinding assertion loop 0 main.unwind.1@main.9:unwinding assertion loop 1 main.unwind.2@main.19:unwinding assertion loop 2"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, id := range []string{"main.unwind.0", "f.recursion", "main.unwind.12"} {
		if !P.IsUnwinding(id) {
			t.Errorf("%s is an unwinding property id", id)
		}
	}
	for _, id := range []string{"main.assertion.1", "main.unwind.", "main.unwind.x", ".recursion", "main.recursion.1"} {
		if P.IsUnwinding(id) {
			t.Errorf("%s is no unwinding property id", id)
		}
	}
}

// TestReplayUnwinding: a run that ends at a back edge taken once more than
// the bound allows replays as a violation of that loop's property; one
// that ends earlier, or goes beyond a bound before its end, does not.
func TestReplayUnwinding(t *testing.T) {
	p := lowerUnwind(t)
	u, ok := P.UnwindingByID(p, "main.unwind.1")
	if !ok {
		t.Fatal("no main.unwind.1")
	}
	back := u.Label
	// unwind 2: the back edge may be taken once; the run that reaches it
	// the second time (x is 0: no continue) ends at the bound
	steps := stepsTo(t, p, back, 2)
	run := &P.Run{Steps: append(steps, P.Step{Thread: 0, Label: back}), Violated: "main.unwind.1", Unwind: 2}
	out, err := Replay(p, run)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != Violated || out.Prop != "main.unwind.1" || out.Run.Unwind != 2 || out.Run.Violated != "main.unwind.1" {
		t.Fatalf("status %v prop %q unwind %d", out.Status, out.Prop, out.Run.Unwind)
	}
	if _, err := Confirm(p, run); err != nil {
		t.Errorf("Confirm: %v", err)
	}
	// the property replayed is the loop's, whatever the run claims
	run.Violated = "main.unwind.0"
	if out, err := Replay(p, run); err != nil || out.Prop != "main.unwind.1" {
		t.Errorf("claimed main.unwind.0: %v, %v", out, err)
	}
	// at unwind 3 the same run ends before the bound
	run.Unwind = 3
	if _, err := Replay(p, run); err == nil || !strings.Contains(err.Error(), "reaches no bound") {
		t.Errorf("unwind 3: %v", err)
	}
	// a run going on past the bound diverges at the back edge
	steps3 := stepsTo(t, p, back, 3)
	run3 := &P.Run{Steps: append(steps3, P.Step{Thread: 0, Label: back}), Violated: "main.unwind.1", Unwind: 2}
	if _, err := Replay(p, run3); err == nil || AsDivergence(err) == nil || !strings.Contains(err.Error(), "not enabled: unwinding bound 2") {
		t.Errorf("beyond the bound: %v", err)
	}
	if out, err := Replay(p, &P.Run{Steps: run3.Steps, Violated: "main.unwind.1", Unwind: 3}); err != nil || out.Prop != "main.unwind.1" {
		t.Errorf("unwind 3, third back edge: %v, %v", out, err)
	}
	// no bound stated
	if _, err := Replay(p, &P.Run{Steps: run.Steps, Violated: "main.unwind.1"}); err == nil {
		t.Error("a run without a bound replays as an unwinding violation")
	}
}

// TestReplayRecursion: the call that would make a fifth activation of f
// (at unwind 4, which the loops need) ends a run violating f.recursion (f
// makes the call).
func TestReplayRecursion(t *testing.T) {
	p := lowerUnwind(t)
	var call P.Label
	for _, in := range p.Func("f").Body {
		if in.Op == P.OpCall {
			call = in.Label
		}
	}
	steps := stepsTo(t, p, call, 4) // main calls f(4); f(4) calls f(3), …, f(1) calls f(0): the fifth
	run := &P.Run{Steps: append(steps, P.Step{Thread: 0, Label: call}), Violated: "f.recursion", Unwind: 4}
	out, err := Replay(p, run)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != Violated || out.Prop != "f.recursion" {
		t.Fatalf("status %v prop %q", out.Status, out.Prop)
	}
	run.Unwind = 5
	if _, err := Replay(p, run); err == nil {
		t.Error("unwind 5: the call is within the bound")
	}
}

package interp_test

import (
	"errors"
	"testing"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

const snapSrc = `
#include <pthread.h>
int x = 0;
int *p = 0;
void *t(void *a) { int y = 1; x = y + 1; return 0; }
int main(void) {
  pthread_t h;
  int z = 3;
  p = &z;
  pthread_create(&h, 0, t, &z);
  pthread_join(h, 0);
  return 0;
}
`

// Configs gives the configuration before every step and after the last:
// program counters, frames, qualified pointers to locals, ended threads.
func TestConfigs(t *testing.T) {
	p, err := frontend.Lower("snap.c", []byte(snapSrc), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := interp.Simulate(p, interp.SimOptions{Seed: 1, ContextSwitchProb: 0})
	if err != nil || out.Status != interp.Completed {
		t.Fatalf("simulate: %v %v", out.Status, err)
	}
	cs, o, err := interp.Configs(p, out.Run)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != interp.Completed || len(cs) != len(out.Run.Steps)+1 {
		t.Fatalf("status %v, %d configs for %d steps", o.Status, len(cs), len(out.Run.Steps))
	}
	ix := program.NewIndex(p)
	for i, s := range out.Run.Steps {
		th := cs[i].Threads[s.Thread]
		if th.Ended || th.Top() == nil {
			t.Fatalf("step %d: thread %d has ended", i, s.Thread)
		}
		if fr := th.Top(); fr.Func != ix.Func[s.Label].Name || fr.PC != ix.Pos[s.Label] {
			t.Fatalf("step %d (%s): config says %s pc %d", i, s.Label, fr.Func, fr.PC)
		}
	}
	last := cs[len(cs)-1]
	if len(last.Threads) != 2 || !last.Threads[0].Ended || !last.Threads[1].Ended {
		t.Fatalf("final threads %+v, want two ended ones", last.Threads)
	}
	if got := last.Globals["x"][0].Bits; got != 2 {
		t.Errorf("x = %d, want 2", got)
	}
	if got := last.Globals["p"][0].Obj; got != "main::z@0.0" {
		t.Errorf("p points to %q, want main::z@0.0", got)
	}
	if got := last.MainVars["z"]; len(got) != 1 || got[0].Bits != 3 {
		t.Errorf("main's z after main returned: %v", got)
	}
	// while the thread runs, its parameter points to main's z
	found := false
	for _, c := range cs {
		if len(c.Threads) == 2 && !c.Threads[1].Ended {
			if a := c.Threads[1].Frames[0].Vars["a"]; len(a) == 1 && a[0].Obj == "main::z@0.0" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no configuration shows the thread's argument pointing to main::z@0.0")
	}
}

// The Stepper executes a run step by step like Replay, and refuses a
// blocked step without changing anything.
func TestStepper(t *testing.T) {
	p, err := frontend.Lower("snap.c", []byte(snapSrc), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := interp.Simulate(p, interp.SimOptions{Seed: 3, ContextSwitchProb: 0.5})
	if err != nil || out.Status != interp.Completed {
		t.Fatalf("simulate: %v %v", out.Status, err)
	}
	s, err := interp.NewStepper(p)
	if err != nil {
		t.Fatal(err)
	}
	ix := program.NewIndex(p)
	blocked := 0
	for i, st := range out.Run.Steps {
		if ix.Instr[st.Label].Op == program.OpJoin && s.Threads() > 1 && !s.Config().Threads[1].Ended {
			t.Fatalf("step %d: join before the thread ended in a simulated run", i)
		}
		// try the join early: it must be refused while thread 1 runs
		if st.Thread == 1 && s.Next(0) != "" && ix.Instr[s.Next(0)].Op == program.OpJoin {
			err := s.Step(program.Step{Thread: 0, Label: s.Next(0)}, "")
			if err == nil || !errors.Is(err, interp.ErrBlocked) {
				t.Fatalf("step %d: early join: %v, want blocked", i, err)
			}
			blocked++
		}
		if s.Next(st.Thread) != st.Label {
			t.Fatalf("step %d: thread %d at %s, run says %s", i, st.Thread, s.Next(st.Thread), st.Label)
		}
		if err := s.Step(st, ""); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if _, err := interp.Replay(p, s.Run()); err != nil {
		t.Fatalf("the stepped run does not replay: %v", err)
	}
	t.Logf("%d early joins refused", blocked)
}

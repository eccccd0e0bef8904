package interp

import (
	"testing"

	"cegpv.dev/cegpv/frontend"
	P "cegpv.dev/cegpv/program"
)

// The lost update: both workers read the initial 0 of counter (By -1), the
// assertion reads the store of the worker that wrote last, and each worker
// returns 0. (Unsafe: gcc -pthread runs lose the update rarely, but the
// interleaving read-read-write-write is a run of the C program.)
func TestObserveLostUpdate(t *testing.T) {
	src := `#include <pthread.h>
#include <assert.h>
int counter;
void *worker(void *arg) {
	int tmp = counter;
	counter = tmp + 1;
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(counter == 2);
	return 0;
}
`
	p, err := frontend.Lower("lost.c", []byte(src), frontend.Options{Model: P.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed < 500; seed++ {
		out, err := Simulate(p, SimOptions{Seed: seed, ContextSwitchProb: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != Violated {
			continue
		}
		ob, err := Observe(p, out.Run)
		if err != nil {
			t.Fatal(err)
		}
		if v := ob.Initial["counter"]; v != (P.Value{}) || len(ob.Initial) != 1 {
			t.Errorf("initial values %v, want counter=0 only", ob.Initial)
		}
		initial, returns := map[int]bool{}, 0
		var last Read
		for i, rs := range ob.Reads {
			for _, r := range rs {
				if r.Loc != "counter" {
					continue
				}
				if !r.Shared {
					t.Errorf("step %d: read of counter not shared", i)
				}
				if r.By < 0 {
					if r.Val != (P.Value{}) {
						t.Errorf("step %d: initial read of counter gives %v", i, r.Val)
					}
					initial[out.Run.Steps[i].Thread] = true
				}
				last = r
			}
			if v := ob.Returned[i]; v != nil {
				returns++
			}
		}
		if !initial[1] || !initial[2] || len(initial) != 2 {
			t.Errorf("threads that read the initial counter: %v, want 1 and 2", initial)
		}
		if last.By < 0 || last.Val.Bits != 1 || out.Run.Steps[last.By].Thread == 0 {
			t.Errorf("the assertion reads %+v, want 1 stored by a worker", last)
		}
		if returns != 2 { // both workers (main stops at its assertion)
			t.Errorf("%d returns, want 2", returns)
		}
		return
	}
	t.Fatal("no violating run in 500 seeds")
}

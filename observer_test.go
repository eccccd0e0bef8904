package cegpv_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// The controller with the paper's pairing, values-and-order reconstruction
// and observer refinement, in the code-to-code loop, on programs of
// testdata/progs whose first abstraction has spurious counterexamples:
// every verdict is the expected one, every UNSAFE run replays on the
// original program, and a SAFE after a refinement is not claimed as a
// proof.
func TestObserverRefinement(t *testing.T) {
	needZ3(t)
	want := map[string]bool{ // name → has spurious counterexamples on the way
		"paper_fig2.c":           true,
		"join_order_safe.c":      true,
		"four_switches_unsafe.c": false,
		"magic_value_unsafe.c":   false,
		"lazy_counter_unsafe.c":  false,
		"state_machine_unsafe.c": false,
		"wraparound_safe.c":      false,
	}
	be := builtin.New(builtin.Options{})
	found := 0
	for _, pr := range progs(t) {
		spurious, ok := want[pr.Name]
		if !ok {
			continue
		}
		found++
		t.Run(pr.Name, func(t *testing.T) {
			p := lower(t, pr.Path, pr.Src)
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			res, err := loop.Verify(ctx, p, loop.Options{Sanity: true, Backend: be, Bounds: backend.Bounds{Unwind: pr.Unwind, UnwindingAssertions: true},
				Refinement: "observer", NoIncremental: true})
			if err != nil {
				t.Fatalf("verify: %v (%s)", err, res.Reason)
			}
			exp := backend.Safe
			if pr.Expect == "unsafe" {
				exp = backend.Unsafe
			}
			if res.Verdict != exp {
				t.Fatalf("verdict %v, want %v (%s)", res.Verdict, exp, res.Reason)
			}
			// spurious counterexamples: n in all, last at the final level
			// (a wider level starts again from its unrefined abstraction,
			// so only last forbids a proof)
			n, last := 0, 0
			for _, it := range res.Iterations {
				if it.Reconstruct == "SAFE" {
					n++
					if it.Level == res.Levels-1 {
						last++
					}
				}
			}
			if spurious && n == 0 {
				t.Errorf("no spurious counterexample on the way: the refinement was not exercised (%+v)", res.Iterations)
			}
			if res.Verdict == backend.Unsafe {
				out, err := interp.Replay(p, res.Run)
				if err != nil || out.Status != interp.Violated {
					t.Fatalf("reported run does not replay as a violation: %v", err)
				}
			}
			if res.Verdict == backend.Safe && last > 0 && res.Proof {
				t.Errorf("SAFE after an observer refinement claimed as a proof")
			}
			t.Logf("%d levels, %d iterations (%d spurious), %d checks", res.Levels, len(res.Iterations), n, res.Checks)
		})
	}
	if found != len(want) {
		t.Fatalf("found %d of the %d programs in testdata/progs", found, len(want))
	}
}

func TestUnknownRefinement(t *testing.T) {
	p := lower(t, "racy.c", []byte(racy))
	res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: &simBackend{}, Refinement: "trie"})
	if res.Verdict != backend.Unknown || program.KindOf(err) != program.Unsupported || !strings.Contains(err.Error(), "observer") {
		t.Fatalf("verdict %v, err %v; want UNKNOWN naming the refinements", res.Verdict, err)
	}
}

// The observer refinement with a backend that finds violations by
// simulation: the loop excludes spurious runs and reports the real bug
// with a run that replays.
func TestObserverRefinementSim(t *testing.T) {
	p := lower(t, "racy.c", []byte(racy))
	res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: &simBackend{}, Bounds: backend.Bounds{Unwind: 2}, Refinement: "observer"})
	if err != nil || res.Verdict != backend.Unsafe {
		t.Fatalf("verdict %v, err %v; want UNSAFE", res.Verdict, err)
	}
	out, err := interp.Replay(p, res.Run)
	if err != nil || out.Status != interp.Violated {
		t.Fatalf("reported run does not replay as a violation: %v", err)
	}
}

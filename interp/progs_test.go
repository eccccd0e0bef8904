package interp

import (
	"strings"
	"testing"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	P "cegpv.dev/cegpv/program"
)

// TestProgs lowers every testdata/progs program and simulates it under many
// seeds: a safe program never fails an assertion (nor hits an execution
// error), an unsafe one fails under at least one seed unless it is marked
// `// interp: hard`, and every failure found replays with Replay.
func TestProgs(t *testing.T) {
	progs, err := testenv.Progs("..")
	if err != nil {
		t.Fatal(err)
	}
	seeds := 2000
	if testing.Short() {
		seeds = 200
	}
	probs := []float64{0.1, 0.3, 0.5, 0.9}
	for _, h := range progs {
		t.Run(strings.TrimSuffix(h.Name, ".c"), func(t *testing.T) {
			p, err := frontend.Lower(h.Path, h.Src, frontend.Options{Model: h.Model})
			if err != nil {
				if P.KindOf(err) == P.Unsupported {
					t.Skipf("front end does not support this program yet: %v", err)
				}
				t.Fatalf("Lower: %v", err)
			}
			if err := P.Check(p); err != nil {
				t.Fatalf("Check: %v", err)
			}
			found, replayed := 0, 0
			statuses := map[Status]int{}
			for seed := 0; seed < seeds; seed++ {
				opts := SimOptions{
					Seed:              int64(seed),
					MaxSteps:          3000,
					ContextSwitchProb: probs[seed%len(probs)],
					Unwind:            h.Unwind,
				}
				if seed%2 == 1 {
					opts.NondetRange = 4
				}
				out, err := Simulate(p, opts)
				if err != nil {
					t.Fatalf("seed %d: Simulate: %v", seed, err)
				}
				statuses[out.Status]++
				switch out.Status {
				case Errored:
					t.Fatalf("seed %d: execution error: %v\n%s", seed, out.Err, Format(p, out.Run))
				case Violated:
					found++
					if h.Expect == "safe" {
						t.Fatalf("seed %d: assertion %s fails in a safe program:\n%s", seed, out.Prop, Format(p, out.Run))
					}
				}
				// every violation, and a sample of the other runs, replays
				if out.Status == Violated && replayed < 50 || seed < 20 {
					replayed++
					r, err := Replay(p, out.Run)
					if err != nil {
						t.Fatalf("seed %d: the simulated run does not replay: %v\n%s", seed, err, Format(p, out.Run))
					}
					if (r.Status == Violated) != (out.Status == Violated) || r.Prop != out.Prop || len(r.Diffs) > 0 {
						t.Fatalf("seed %d: replay gives %v %s (diffs %v), simulation %v %s", seed, r.Status, r.Prop, r.Diffs, out.Status, out.Prop)
					}
				}
			}
			t.Logf("%s: %d/%d seeds violate; statuses %v", h.Expect, found, seeds, statuses)
			if h.Expect == "unsafe" && found == 0 {
				if h.Hard {
					t.Logf("marked `interp: hard`: random simulation is not expected to find this bug")
				} else {
					t.Errorf("no seed of %d finds the bug of an unsafe program", seeds)
				}
			}
		})
	}
}

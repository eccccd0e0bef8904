package lazyseq

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/progen"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// roundsOf returns the round-robin rounds a run of p needs when thread k
// is instance k (true of progen's programs: main creates its threads at
// its top level, in order): a new round begins at each context whose
// thread does not come after the previous context's.
func roundsOf(r *program.Run) int {
	rounds, last := 1, -1
	for _, s := range r.Steps {
		if s.Thread == last {
			continue
		}
		if s.Thread < last {
			rounds++
		}
		last = s.Thread
	}
	return rounds
}

// TestDifferential checks the translation's two invariants against the
// interpreter on programs of progen (Generate, and GenerateCalls with
// calls, calls through pointers, recursion, atomic functions and
// pthread_exit in a callee), at 2 rounds, unwind 3:
//
//   - every run of the output is a run of the input: random executions of
//     the output (interp.Simulate), mapped by Map.Run, replay on the input,
//     and violate an assertion of the input exactly when they violate one
//     (the same);
//   - every run of the input within the rounds is the image of a run of the
//     output: when a random execution of the input violates an assertion
//     within 2 rounds, the built-in backend finds a violation of the output,
//     and its run, mapped back, replays as a violation on the input.
func TestDifferential(t *testing.T) {
	const rounds, unwind = 2, 3
	n := 6
	if testing.Short() {
		n = 3
	}
	gens := map[string]func(int64) string{"plain": progen.Generate, "calls": progen.GenerateCalls}
	for _, name := range []string{"plain", "calls"} {
		for seed := int64(1); seed <= int64(n); seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				src := gens[name](seed)
				p, err := frontend.Lower("gen.c", []byte(src), frontend.Options{})
				if err != nil {
					t.Fatalf("lower: %v\n%s", err, src)
				}
				q, m, err := Sequentialize(p, Options{Rounds: rounds, Threads: 1, Unwind: unwind})
				if err != nil {
					t.Fatalf("Sequentialize: %v\n%s", err, src)
				}
				// Runs of the output are runs of the input.
				for s := int64(0); s < 200; s++ {
					out, err := interp.Simulate(q, interp.SimOptions{Seed: s, Unwind: unwind, NondetRange: 4})
					if err != nil {
						t.Fatalf("simulate the output: %v", err)
					}
					if out.Status == interp.Errored {
						t.Fatalf("seed %d: the output errs: %v", s, out.Err)
					}
					run, err := m.Run(out.Run)
					if err != nil {
						t.Fatalf("seed %d: map: %v", s, err)
					}
					rep, err := interp.Replay(p, run)
					if err != nil {
						t.Fatalf("seed %d: the mapped run does not replay: %v\n%s", s, err, src)
					}
					if (out.Status == interp.Violated) != (rep.Status == interp.Violated) || rep.Prop != out.Prop {
						t.Fatalf("seed %d: output %v %s, mapped run replays %v %s", s, out.Status, out.Prop, rep.Status, rep.Prop)
					}
				}
				// Violations of the input within the rounds are found.
				var witness *program.Run
				for s := int64(0); s < 300 && witness == nil; s++ {
					out, err := interp.Simulate(p, interp.SimOptions{Seed: s, Unwind: unwind, NondetRange: 4, ContextSwitchProb: []float64{0.05, 0.2, 0.5}[s%3]})
					if err != nil {
						t.Fatalf("simulate the input: %v", err)
					}
					if out.Status == interp.Violated && roundsOf(out.Run) <= rounds {
						witness = out.Run
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				res, err := builtin.New(builtin.Options{}).Check(ctx, q, backend.Bounds{Unwind: unwind})
				if err != nil {
					t.Fatalf("check the output: %v", err)
				}
				switch res.Verdict {
				case backend.Unsafe:
					run, err := m.Run(res.Run)
					if err != nil {
						t.Fatalf("map: %v", err)
					}
					rep, err := interp.Replay(p, run)
					if err != nil || rep.Status != interp.Violated {
						t.Fatalf("the backend's run does not replay as a violation: %v %v\n%s", rep, err, src)
					}
				case backend.Safe:
					if witness != nil {
						t.Fatalf("SAFE, but a run of the input violates %s within %d rounds: %v\n%s", witness.Violated, rounds, witness.Steps, src)
					}
				default:
					t.Fatalf("%v: %s", res.Verdict, res.Reason)
				}
				t.Logf("%v (a violation within the rounds simulated: %v)", res.Verdict, witness != nil)
			})
		}
	}
}

package lazyseq

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/cbmc"
	"cegpv.dev/cegpv/backend/esbmc"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
)

// liveProgs are the testdata/progs programs checked over the external
// checkers behind the sequentialisation, with their rounds.
var liveProgs = map[string]int{
	"lazy_counter_unsafe.c":         3,
	"calls_unsafe.c":                3, // calls through pointers, recursion, an atomic function, pthread_exit in a callee
	"calls_safe.c":                  2,
	"thread_result_nondet_unsafe.c": 2, // results drawn nondeterministically, as pthread-wmm's
	"argv_dash_unsafe.c":            1, // the command line's characters, drawn before any thread (no switch point)
	"atomic_section_unsafe.c":       2, // closed atomic sections (no switch point inside)
}

// TestExternal checks the sequentialisation of liveProgs with ESBMC and
// CBMC (skipped with a message when absent): the checker's trace of the
// sequential program is followed there, mapped back and replayed on the
// original program as a violation of the same property; a safe program
// is Safe, bounded and naming its rounds.
func TestExternal(t *testing.T) {
	progs, err := testenv.Progs(testenv.ModuleRoot())
	if err != nil {
		t.Fatal(err)
	}
	checkers := map[string]func(t *testing.T) backend.Backend{
		"esbmc": func(t *testing.T) backend.Backend {
			return esbmc.New(esbmc.Options{Path: testenv.Tool(t, "esbmc", "CEGPV_ESBMC")})
		},
		"cbmc": func(t *testing.T) backend.Backend {
			return cbmc.New(cbmc.Options{Path: testenv.Tool(t, "cbmc", "CEGPV_CBMC")})
		},
	}
	for _, name := range []string{"esbmc", "cbmc"} {
		t.Run(name, func(t *testing.T) {
			inner := checkers[name](t)
			for _, pr := range progs {
				rounds, ok := liveProgs[pr.Name]
				if !ok {
					continue
				}
				t.Run(pr.Name, func(t *testing.T) {
					p, err := frontend.Lower(filepath.Base(pr.Path), pr.Src, frontend.Options{Model: pr.Model})
					if err != nil {
						t.Fatal(err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
					defer cancel()
					res, err := Backend{Inner: inner, Rounds: rounds}.Check(ctx, p, backend.Bounds{Unwind: pr.Unwind, Threads: 2, Timeout: 120 * time.Second})
					if err != nil {
						t.Fatalf("%v", err)
					}
					if res.Bounds.Rounds != rounds || res.Proof || res.Complete {
						t.Errorf("bounds %v proof %v complete %v: want %d rounds, bounded", res.Bounds, res.Proof, res.Complete, rounds)
					}
					want := map[string]backend.Verdict{"safe": backend.Safe, "unsafe": backend.Unsafe}[pr.Expect]
					if res.Verdict != want {
						t.Fatalf("%v (%s), want %v", res.Verdict, res.Reason, want)
					}
					if res.Verdict == backend.Unsafe {
						out, err := interp.Replay(p, res.Run)
						if err != nil || out.Status != interp.Violated || out.Prop != res.Run.Violated {
							t.Fatalf("the mapped run does not replay as a violation of %s: %v %v", res.Run.Violated, out, err)
						}
					}
				})
			}
		})
	}
}

package esbmc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// TestLiveProgs runs ESBMC on every testdata/progs program (printed by
// cegpv) and checks the verdict against the header; every Unsafe run must
// replay. Programs ESBMC cannot decide within the time limit are logged.
func TestLiveProgs(t *testing.T) {
	if os.Getenv("CEGPV_PROGS") == "" {
		t.Skip("set CEGPV_PROGS=all (or a name part) to run ESBMC on every testdata/progs program")
	}
	bin := testenv.Tool(t, "esbmc", "CEGPV_ESBMC")
	progs, err := testenv.Progs(testenv.ModuleRoot())
	if err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("CEGPV_PROGS")
	be := New(Options{Path: bin})
	for _, pg := range progs {
		if only != "all" && !strings.Contains(pg.Name, only) {
			continue
		}
		t.Run(strings.TrimSuffix(pg.Name, ".c"), func(t *testing.T) {
			p, err := frontend.Lower(filepath.Base(pg.Path), pg.Src, frontend.Options{Model: pg.Model})
			if err != nil {
				t.Skipf("front end: %v", err)
			}
			res, err := be.Check(context.Background(), p, backend.Bounds{Unwind: pg.Unwind, Timeout: 60 * time.Second})
			if err != nil {
				t.Logf("UNKNOWN: %v", err)
				return
			}
			t.Logf("%s %s", res.Verdict, res.Reason)
			switch res.Verdict {
			case backend.Unsafe:
				if pg.Expect == "safe" {
					t.Errorf("Unsafe on a safe program")
				}
				out, err := interp.Replay(p, res.Run)
				if err != nil || out.Status != interp.Violated {
					t.Errorf("run does not replay: %v", err)
				}
			case backend.Safe:
				if pg.Expect == "unsafe" {
					t.Logf("MISSED: Safe (bounded) on an unsafe program")
				}
			}
		})
	}
}

// TestLiveUnwinding runs ESBMC with unwinding assertions on the
// testdata/progs programs with unwinding expectations (`// unwinding:`
// header lines): a failing bound is ESBMC's "unwinding assertion loop N"
// (or "recursion unwinding assertion"), followed to the bound into a run
// that replays as a violation of one of the expected unwinding
// properties; where they hold, ESBMC's answer is a proof, or a timeout
// within 30 s (locked_counter_safe at unwind 3 takes ESBMC 100 s: its
// interleavings), but at least one proof is checked. Each failing property
// checked alone (UnwindingOnly) fails too.
func TestLiveUnwinding(t *testing.T) {
	bin := testenv.Tool(t, "esbmc", "CEGPV_ESBMC")
	progs, err := testenv.Progs(testenv.ModuleRoot())
	if err != nil {
		t.Fatal(err)
	}
	be := New(Options{Path: bin})
	n, proofs := 0, 0
	for _, pg := range progs {
		for _, u := range pg.Unwinding {
			n++
			t.Run(fmt.Sprintf("%s/unwind%d", strings.TrimSuffix(pg.Name, ".c"), u.Unwind), func(t *testing.T) {
				p, err := frontend.Lower(filepath.Base(pg.Path), pg.Src, frontend.Options{})
				if err != nil {
					t.Fatal(err)
				}
				b := backend.Bounds{Unwind: u.Unwind, UnwindingAssertions: true, Timeout: 2 * time.Minute}
				if len(u.Fails) == 0 {
					b.Timeout = 30 * time.Second
				}
				res, err := be.Check(context.Background(), p, b)
				if len(u.Fails) == 0 && program.KindOf(err) == program.Timeout {
					t.Logf("no proof within %v: %v", b.Timeout, err)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(u.Fails) == 0 {
					if res.Verdict != backend.Safe || !res.Proof {
						t.Fatalf("%v (%s) proof %v; want a proof", res.Verdict, res.Reason, res.Proof)
					}
					proofs++
					return
				}
				if res.Verdict != backend.Unsafe {
					t.Fatalf("%v (%s); want a violation of one of %v", res.Verdict, res.Reason, u.Fails)
				}
				out, err := interp.Replay(p, res.Run)
				if err != nil || out.Status != interp.Violated || !slices.Contains(u.Fails, out.Prop) {
					t.Fatalf("the run replays to %v, %v; want a violation of one of %v", out, err, u.Fails)
				}
				t.Logf("%s: %d steps", out.Prop, len(res.Run.Steps))
				uu, _ := program.UnwindingByID(p, out.Prop)
				b.UnwindingOnly = uu.Key()
				if res, err := be.Check(context.Background(), p, b); err != nil || res.Verdict != backend.Unsafe || res.Run.Violated != out.Prop {
					t.Errorf("%s alone: %v (%s), %v", out.Prop, res.Verdict, res.Reason, err)
				}
			})
		}
	}
	if n == 0 || proofs == 0 {
		t.Fatalf("%d programs with unwinding expectations, %d proofs checked", n, proofs)
	}
}

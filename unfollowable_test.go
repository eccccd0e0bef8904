package cegpv_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/cbmc"
	"cegpv.dev/cegpv/backend/external"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// mainOnlyChecker is an external checker (external.Job over /bin/true)
// that reports main's first assertion violated, whatever the program,
// with a trace as CBMC 5.4 prints one for a concurrent program: no step of
// any thread but main. It cannot be followed (backend.ErrUnfollowable).
type mainOnlyChecker struct{}

func (mainOnlyChecker) Name() string { return "mainonly" }
func (mainOnlyChecker) Capabilities() backend.Capabilities {
	return backend.Capabilities{External: true, Unfollowable: true}
}

func (mainOnlyChecker) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	j := external.Job{Tool: "true", Path: "/bin/true", Interpret: func(pr *external.Printed, _ *external.Output, res backend.Result) (backend.Result, error) {
		var tr *external.Trace
		for line, l := range pr.Lines {
			if in := program.NewIndex(p).Instr[l]; in != nil && in.Op == program.OpAssert && strings.HasPrefix(string(l), "main.") {
				tr = &external.Trace{Violation: &external.State{File: pr.File, Line: line}, Comment: "assertion"}
				break
			}
		}
		if tr == nil { // main has no assertion here (an abstraction that sliced it away)
			return external.Safe(bd, res), nil
		}
		return external.Violation("mainonly", p, pr, tr, bd, res)
	}}
	return j.Check(ctx, p, bd)
}

// TestExternalUnfollowable: a checker's violation whose trace cannot be
// followed is answered by Check with the explicit-state search, in both
// modes: a violation found is a FALSE replayed on the original program; no
// violation is a TRUE only when the search explored every run; a search
// cut by the bounds leaves UNKNOWN with the reason, as does NoExplicit.
// When the loop ends on an abstraction the search cannot run (sliced),
// the program itself is checked.
func TestExternalUnfollowable(t *testing.T) {
	const race = `#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`
	const locked = `#include <pthread.h>
#include <assert.h>
int c; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); int t = c; c = t + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`
	// safe, but a loop the unwinding cuts: the search is not complete
	const looping = `#include <pthread.h>
#include <assert.h>
int c; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { for (int i = 0; i < 3; i++) { pthread_mutex_lock(&m); int t = c; c = t + 1; pthread_mutex_unlock(&m); } return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c <= 6); return 0; }`
	// the abstraction keeping only x reads y as an unbounded nondet int:
	// the search does not apply to it, so the loop ends on the abstract
	// counterexample and the backend alone checks the program, with the
	// search behind it
	const sliced = `#include <pthread.h>
#include <assert.h>
int x, y;
void *w(void *a) { y = 1; x = y; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); assert(x == 1); return 0; }`
	slicedBug := strings.Replace(sliced, "x == 1", "x == 0", 1)
	// the race of the explicit search beside the mode must not answer:
	// the verdicts here come from the search behind the backend
	late := cegpv.RaceSearch
	late.Delay = time.Hour
	for _, c := range []struct {
		name, src  string
		noExplicit bool
		want       backend.Verdict
		reason     string
	}{
		{"race", race, false, backend.Unsafe, ""},
		{"locked", locked, false, backend.Safe, ""},
		{"looping", looping, false, backend.Unknown, "does not explore every run"},
		{"race-noexplicit", race, true, backend.Unknown, "cannot be followed"},
		{"sliced", sliced, false, backend.Safe, ""},
		{"sliced-bug", slicedBug, false, backend.Unsafe, ""},
	} {
		for _, mode := range cegpv.Modes {
			t.Run(c.name+"/"+mode, func(t *testing.T) {
				p := lower(t, c.name+".c", []byte(c.src))
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: mainOnlyChecker{}, Bounds: backend.Bounds{Unwind: 2}, Heuristic: depgraph.Keep{Vars: []depgraph.Var{"x"}}},
					Mode: mode, NoExplicit: c.noExplicit, Explicit: &late})
				if rep.Verdict != c.want {
					t.Fatalf("%v (%s), want %v", rep.Verdict, rep.Reason, c.want)
				}
				switch c.want {
				case backend.Unsafe:
					if out, err := interp.Replay(p, rep.Run); err != nil || out.Status != interp.Violated {
						t.Fatalf("the run does not replay on the program: %v", err)
					}
					if rep.Result.Stats.States == 0 {
						t.Errorf("the violation was not found by the search")
					}
				case backend.Safe:
					if !rep.Result.Complete {
						t.Errorf("TRUE from a search that did not explore every run")
					}
				case backend.Unknown:
					if !errors.Is(rep.Err, backend.ErrUnfollowable) || !strings.Contains(rep.Reason, c.reason) {
						t.Errorf("reason %q (error %v), want the unfollowable error saying %q", rep.Reason, rep.Err, c.reason)
					}
				}
			})
		}
	}
}

// TestUnfollowableAfterRace: in plain mode the checker's unfollowable
// answer comes before the search beside it starts (Delay an hour) and the
// race leaves it to that search (its share is the unfollowable one's):
// Check runs the search behind the counterexample after the race (its
// answer, as behind any check, is the backend's).
func TestUnfollowableAfterRace(t *testing.T) {
	p := lower(t, "race.c", []byte(`#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`))
	eo := explicit.Options{Delay: time.Hour, Share: 1, Max: time.Minute, Bytes: 128 << 20, LoopFree: true}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: mainOnlyChecker{}, Bounds: backend.Bounds{Unwind: 2}},
		Mode: cegpv.ModePlain, Explicit: &eo})
	if rep.Verdict != backend.Unsafe || rep.Result.Stats.States == 0 {
		t.Fatalf("%v (%s, %d states), want FALSE found by the search", rep.Verdict, rep.Reason, rep.Result.Stats.States)
	}
	if out, err := interp.Replay(p, rep.Run); err != nil || out.Status != interp.Violated {
		t.Fatalf("the run does not replay on the program: %v", err)
	}
}

// TestExternalCBMCLive: a live CBMC (CEGPV_CBMC, cbmc on PATH or bin/cbmc)
// through Check, in both modes: lazy_counter and peterson_broken FALSE
// (CBMC 5.4's traces of them cannot be followed: the search finds the
// violation), locked_counter never FALSE.
func TestExternalCBMCLive(t *testing.T) {
	bin := testenv.Tool(t, "cbmc", "CEGPV_CBMC")
	for _, name := range []string{"lazy_counter_unsafe.c", "peterson_broken_unsafe.c", "locked_counter_safe.c"} {
		src, err := os.ReadFile(filepath.Join("testdata", "progs", name))
		if err != nil {
			t.Fatal(err)
		}
		p := lower(t, name, src)
		for _, mode := range cegpv.Modes {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: cbmc.New(cbmc.Options{Path: bin}), Bounds: backend.Bounds{Unwind: 3}},
				Mode: mode})
			cancel()
			unsafe := strings.HasSuffix(name, "_unsafe.c")
			switch {
			case unsafe && rep.Verdict != backend.Unsafe:
				t.Errorf("%s %s: %v (%s), want FALSE", mode, name, rep.Verdict, rep.Reason)
			case !unsafe && rep.Verdict == backend.Unsafe:
				t.Errorf("%s %s: FALSE on a safe program", mode, name)
			}
			t.Logf("%s %s: %v %s", mode, name, rep.Verdict, rep.Reason)
		}
	}
}

package cegpv_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// TestExplicitBeside: Check races the explicit-state search beside the
// backend (here with no delay) on the explorable testdata programs with
// loops, in both modes; the verdict is the expected one whichever engine
// answers, and the search answers some of them.
func TestExplicitBeside(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	eo := explicit.Defaults
	eo.Delay = 0
	for _, mode := range cegpv.Modes {
		byExplicit := 0
		for _, pr := range progs(t) {
			p := lower(t, pr.Path, pr.Src)
			if !explicit.Applies(p) || interp.Explorable(p) != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: cegpv.Options{Sanity: true, Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: pr.Unwind}},
				Mode: mode, Explicit: &eo, Beyond: -1})
			cancel()
			if got := map[backend.Verdict]string{backend.Safe: "safe", backend.Unsafe: "unsafe"}[rep.Verdict]; got != pr.Expect {
				t.Errorf("%s %s: %v (%s), want %s", mode, pr.Name, rep.Verdict, rep.Reason, pr.Expect)
			}
			if rep.Result.Stats.States > 0 {
				byExplicit++
			}
		}
		if byExplicit == 0 {
			t.Errorf("%s: the explicit search answered no program", mode)
		}
		t.Logf("%s: %d programs answered by the explicit search", mode, byExplicit)
	}
}

// panicBackend is a backend with a bug.
type panicBackend struct{}

func (panicBackend) Name() string { return "panicky" }
func (panicBackend) Check(context.Context, *program.Program, backend.Bounds) (backend.Result, error) {
	var s []int
	_ = s[3] // index out of range
	return backend.Result{}, nil
}

// A panic inside an engine is an UNKNOWN naming where it happened, in both
// modes, never a crash.
func TestCheckContainsPanics(t *testing.T) {
	p := lower(t, "x.c", []byte("#include <assert.h>\nint g;\nint main(void) { g = 1; assert(g == 1); return 0; }\n"))
	for _, mode := range cegpv.Modes {
		rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{Options: cegpv.Options{Sanity: true, Backend: panicBackend{}, Bounds: backend.Bounds{Unwind: 2}}, Mode: mode, NoExplicit: true})
		if rep.Verdict != backend.Unknown || program.KindOf(rep.Err) != program.Internal || !strings.Contains(rep.Reason, "panic at check_test.go:") {
			t.Errorf("%s: %v %q (%v), want UNKNOWN: internal error: panic at check_test.go:…", mode, rep.Verdict, rep.Reason, rep.Err)
		}
	}
}

// unfollowableBackend answers like CBMC 5.4 on a concurrent program: a
// violation whose trace has no step of the other threads, so it cannot be
// followed (backend.ErrUnfollowable), whatever the program.
type unfollowableBackend struct{}

func (unfollowableBackend) Name() string { return "unfollowable" }
func (unfollowableBackend) Check(context.Context, *program.Program, backend.Bounds) (backend.Result, error) {
	return backend.Result{Verdict: backend.Unknown}, program.Errorf(program.BadOutput, "fake: its counterexample cannot be followed on the program: %w", backend.ErrUnfollowable)
}

// A backend's violation whose trace cannot be followed is looked for with
// the explicit-state search, by the library (it was the external
// backends' own policy): the search finds the race's violation (a FALSE,
// replayed), and none in the locked program, whose answer stays UNKNOWN
// (never TRUE on the backend's word, never FALSE on the trace's).
func TestUnfollowableTraceSearch(t *testing.T) {
	for _, c := range []struct {
		name, src string
		unsafe    bool
	}{
		{"race", `#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`, true},
		{"locked", `#include <pthread.h>
#include <assert.h>
int c; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); int t = c; c = t + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`, false},
	} {
		p := lower(t, c.name+".c", []byte(c.src))
		for _, mode := range cegpv.Modes {
			rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{Options: cegpv.Options{Sanity: true, Backend: unfollowableBackend{}, Bounds: backend.Bounds{Unwind: 2}}, Mode: mode, NoExplicit: true})
			t.Logf("%s %s: %v %s", c.name, mode, rep.Verdict, rep.Reason)
			switch {
			case rep.Verdict == backend.Safe:
				t.Errorf("%s %s: TRUE on a backend that only reports violations", c.name, mode)
			case !c.unsafe && (rep.Verdict != backend.Unknown || !errors.Is(rep.Err, backend.ErrUnfollowable)):
				t.Errorf("%s %s: %v (%v), want UNKNOWN with the unfollowable error", c.name, mode, rep.Verdict, rep.Err)
			case !c.unsafe && mode == cegpv.ModePlain && !strings.Contains(rep.Reason, "finds no violation"):
				t.Errorf("%s %s: reason %q, want the search's finding", c.name, mode, rep.Reason)
			case c.unsafe && mode == cegpv.ModePlain && rep.Verdict != backend.Unsafe:
				t.Errorf("%s %s: %v (%v), want FALSE from the search", c.name, mode, rep.Verdict, rep.Err)
			case rep.Verdict == backend.Unsafe:
				if out, err := interp.Replay(p, rep.Run); err != nil || out.Status != interp.Violated {
					t.Errorf("%s %s: the FALSE's run does not replay: %v", c.name, mode, err)
				}
			}
		}
	}
}

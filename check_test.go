package cegpv_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/lazyseq"
	"cegpv.dev/cegpv/loop"
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
	eo := cegpv.RaceSearch
	eo.Delay = 0
	for _, mode := range cegpv.Modes {
		byExplicit := 0
		for _, pr := range progs(t) {
			p := lower(t, pr.Path, pr.Src)
			if !explicit.Applies(p) || explicit.Explorable(p) != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: pr.Unwind}},
				Mode: mode, Explicit: &eo})
			cancel()
			if got := map[backend.Verdict]string{backend.Safe: "safe", backend.Unsafe: "unsafe"}[rep.Verdict]; got != pr.Expect {
				t.Errorf("%s %s: %v (%s), want %s", mode, pr.Name, rep.Verdict, rep.Reason, pr.Expect)
			}
			if rep.DecidedBy == cegpv.BySearch {
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

func (panicBackend) Name() string                       { return "panicky" }
func (panicBackend) Capabilities() backend.Capabilities { return backend.Capabilities{External: true} }
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
		rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: panicBackend{}, Bounds: backend.Bounds{Unwind: 2}}, Mode: mode, NoExplicit: true})
		if rep.Verdict != backend.Unknown || program.KindOf(rep.Err) != program.Internal || !strings.Contains(rep.Reason, "panic at check_test.go:") {
			t.Errorf("%s: %v %q (%v), want UNKNOWN: internal error: panic at check_test.go:…", mode, rep.Verdict, rep.Reason, rep.Err)
		}
	}
}

// stuckBackend is an external checker that never answers (ESBMC on a
// loop-free program with many interleavings): it waits for its context.
type stuckBackend struct{}

func (stuckBackend) Name() string                       { return "stuck" }
func (stuckBackend) Capabilities() backend.Capabilities { return backend.Capabilities{External: true} }
func (stuckBackend) Check(ctx context.Context, _ *program.Program, b backend.Bounds) (backend.Result, error) {
	<-ctx.Done()
	return backend.Result{Verdict: backend.Unknown, Reason: "timeout", Bounds: b}, &program.Error{Kind: program.Timeout, Err: ctx.Err()}
}

// TestExplicitBesideExternal: beside a backend that is not incremental,
// Check races the explicit-state search on loop-free programs too, in both
// modes, so a checker that does not answer leaves the verdict to the
// search (issue 16: ESBMC's first abstract check that does not end).
func TestExplicitBesideExternal(t *testing.T) {
	eo := cegpv.RaceSearch
	eo.Delay = 0
	for _, c := range []struct {
		src  string
		want backend.Verdict
	}{
		{`#include <pthread.h>
int x;
void *w(void *a) { x = x + 1; return 0; }
int main(void) { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0);
  pthread_join(t1, 0); pthread_join(t2, 0); assert(x == 2); return 0; }`, backend.Unsafe},
		{`#include <pthread.h>
int x; pthread_mutex_t m;
void *w(void *a) { pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0);
  pthread_join(t1, 0); pthread_join(t2, 0); assert(x == 2); return 0; }`, backend.Safe},
	} {
		p := lower(t, "lf.c", []byte(c.src))
		if p.Bounded() {
			t.Fatal("the program has loops; the test is about loop-free ones")
		}
		for _, mode := range cegpv.Modes {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: stuckBackend{}, Bounds: backend.Bounds{Unwind: 2}},
				Mode: mode, Explicit: &eo})
			cancel()
			if rep.Verdict != c.want {
				t.Errorf("%s: %v (%s), want %v from the search", mode, rep.Verdict, rep.Reason, c.want)
			}
		}
	}
}

// TestProbe: in mode cegpv over the built-in backend, Check first gives
// the backend the whole program for CheckOptions.Probe; the loop decides
// when the probe is off or has no verdict in its time, and no probe runs
// beside an external checker (there the loop is the point).
func TestProbe(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	src, err := os.ReadFile("testdata/progs/lazy_counter_unsafe.c")
	if err != nil {
		t.Fatal(err)
	}
	p := lower(t, "lazy_counter_unsafe.c", src)
	for _, c := range []struct {
		name  string
		probe time.Duration
		be    backend.Backend
		by    string
	}{
		{"default", cegpv.DefaultProbe, builtin.New(builtin.Options{}), cegpv.ByProbe},
		{"zero", 0, builtin.New(builtin.Options{}), cegpv.ByLoop},
		{"off", -1, builtin.New(builtin.Options{}), cegpv.ByLoop},
		{"too short", time.Nanosecond, builtin.New(builtin.Options{}), cegpv.ByLoop},
		{"external", cegpv.DefaultProbe, notIncremental{builtin.New(builtin.Options{})}, cegpv.ByLoop},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: c.be, Bounds: backend.Bounds{Unwind: 3}},
				Probe: c.probe, NoExplicit: true})
			if rep.Verdict != backend.Unsafe {
				t.Fatalf("%v (%s), want FALSE", rep.Verdict, rep.Reason)
			}
			if rep.DecidedBy != c.by {
				t.Errorf("decided by %q, want %q", rep.DecidedBy, c.by)
			}
			if (rep.Loop != nil) != (c.by == cegpv.ByLoop) {
				t.Errorf("loop statistics %v with the verdict decided by %q", rep.Loop, rep.DecidedBy)
			}
		})
	}
}

// TestWholeBesideRounds: in mode cegpv over an external checker under
// --rounds, the checker's check of the whole program races the loop
// (engines.go, wholeBeside; TestWholeBeside says when it does not).
func TestWholeBesideRounds(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	p := lower(t, "race.c", []byte(`#include <pthread.h>
#include <assert.h>
int c, d;
void *w(void *a) { int t = c; c = t + 1; d = d + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`))
	be := &wholeCounter{be: lazyseq.Backend{Inner: builtin.New(builtin.Options{}), Rounds: 3}, whole: p}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: be, Bounds: backend.Bounds{Unwind: 2}}, NoExplicit: true})
	if rep.Verdict != backend.Unsafe {
		t.Fatalf("%v by %q (%s), want FALSE", rep.Verdict, rep.DecidedBy, rep.Reason)
	}
	if n := be.wholeChecks.Load(); n == 0 {
		t.Errorf("no check of the whole program")
	}
	if rep.DecidedBy != cegpv.ByLoop && rep.DecidedBy != cegpv.ByWhole {
		t.Errorf("decided by %q", rep.DecidedBy)
	}
	// the built-in backend under --rounds: neither incremental nor
	// external, and the race (not the probe) runs over it
	lz := lazyseq.Backend{Inner: builtin.New(builtin.Options{}), Rounds: 3}
	if caps := lz.Capabilities(); caps.Incremental || caps.External || !caps.Rounds {
		t.Fatalf("capabilities %+v, want rounds, neither incremental nor external", caps)
	}
	rep = cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: lz, Bounds: backend.Bounds{Unwind: 2}},
		Probe: cegpv.DefaultProbe, NoExplicit: true})
	if rep.Verdict != backend.Unsafe || (rep.DecidedBy != cegpv.ByLoop && rep.DecidedBy != cegpv.ByWhole) {
		t.Fatalf("builtin under rounds: %v by %q (%s), want FALSE by the loop or the whole program's check", rep.Verdict, rep.DecidedBy, rep.Reason)
	}
}

// TestWholeBesideOnce: under --rounds the loop leaves the check of the
// program itself at the bounds to the check beside it
// (loop.Options.WholeBeside): on a program whose every abstraction keeps
// nearly every variable, the whole program is checked once at the bounds,
// and that check decides. The program is safe: both threads increment c
// under the lock, so main reads 2 after joining them.
func TestWholeBesideOnce(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	p := lower(t, "locked.c", []byte(`#include <pthread.h>
#include <assert.h>
int c; pthread_mutex_t m;
void *w(void *a) { pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_mutex_init(&m, 0); pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`))
	be := &wholeCounter{be: lazyseq.Backend{Inner: builtin.New(builtin.Options{}), Rounds: 2}, whole: p, at: 2}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: be, Bounds: backend.Bounds{Unwind: 2}}, NoExplicit: true})
	if rep.Verdict != backend.Safe || rep.DecidedBy != cegpv.ByWhole {
		t.Fatalf("%v by %q (%s), want TRUE by the whole program's check", rep.Verdict, rep.DecidedBy, rep.Reason)
	}
	if n := be.wholeChecks.Load(); n != 1 {
		t.Errorf("the whole program checked %d times at unwind 2, want once", n)
	}
	// without a verdict from either, the whole program's answer is the
	// mode's, not the loop's early end
	be.unknown = "the checker gave up"
	rep = cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: be, Bounds: backend.Bounds{Unwind: 2}}, NoExplicit: true})
	if rep.Verdict != backend.Unknown || !strings.Contains(rep.Reason, be.unknown) {
		t.Errorf("%v (%s), want UNKNOWN with the whole program's reason %q", rep.Verdict, rep.Reason, be.unknown)
	}
}

// wholeCounter stands for an external checker under --rounds and counts
// its checks of the whole program (a program with whole's labels and
// variables: the property's copy of it).
type wholeCounter struct {
	be    backend.Backend
	whole *program.Program
	at    int // count only the checks at this unwinding (0: all)
	// unknown, when set, is the reason of an UNKNOWN for each counted check
	unknown     string
	wholeChecks atomic.Int32
}

func (w *wholeCounter) Name() string { return w.be.Name() }
func (w *wholeCounter) Capabilities() backend.Capabilities {
	return backend.Capabilities{External: true, Rounds: true}
}
func (w *wholeCounter) Check(ctx context.Context, p *program.Program, b backend.Bounds) (backend.Result, error) {
	if show(p) == show(w.whole) && (w.at == 0 || b.Unwind == w.at) {
		w.wholeChecks.Add(1)
		if w.unknown != "" {
			return backend.Result{Verdict: backend.Unknown, Reason: w.unknown, Bounds: b}, nil
		}
	}
	return w.be.Check(ctx, p, b)
}

func show(p *program.Program) string {
	var b strings.Builder
	program.Show(&b, p)
	return b.String()
}

// notIncremental stands for an external checker: it declares itself
// external and not incremental.
type notIncremental struct{ be backend.Backend }

func (n notIncremental) Name() string { return n.be.Name() }
func (n notIncremental) Capabilities() backend.Capabilities {
	return backend.Capabilities{External: true}
}
func (n notIncremental) Check(ctx context.Context, p *program.Program, b backend.Bounds) (backend.Result, error) {
	return n.be.Check(ctx, p, b)
}

// CheckedBounds: --incremental-bmc checks unwinding assertions, whatever
// Bounds says; otherwise Bounds stand.
func TestCheckedBounds(t *testing.T) {
	o := cegpv.DefaultCheckOptions()
	if o.CheckedBounds().UnwindingAssertions {
		t.Error("the defaults check unwinding assertions")
	}
	o.IncrementalBMC = true
	if b := o.CheckedBounds(); !b.UnwindingAssertions || b.Unwind != o.Bounds.Unwind {
		t.Errorf("IncrementalBMC: %+v", b)
	}
	if o.Bounds.UnwindingAssertions {
		t.Error("CheckedBounds changed the options")
	}
}

package cegpv_test

import (
	"context"
	"os/exec"
	"sync/atomic"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/internal/budget"
	"cegpv.dev/cegpv/lazyseq"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// slowBackend is a mode's backend that first computes for spin of CPU
// time (on the thread the check meters) and then asks be, or, with be
// nil, computes until its context is done and has no verdict.
type slowBackend struct {
	be   backend.Backend
	spin time.Duration
}

func (s slowBackend) Name() string                       { return "slow" }
func (s slowBackend) Capabilities() backend.Capabilities { return backend.Capabilities{} }
func (s slowBackend) Check(ctx context.Context, p *program.Program, b backend.Bounds) (backend.Result, error) {
	start := budget.Used(ctx)
	for ctx.Err() == nil && (s.be == nil || budget.Used(ctx)-start < s.spin) {
	}
	if s.be == nil || ctx.Err() != nil {
		return backend.Result{}, ctx.Err()
	}
	return s.be.Check(ctx, p, b)
}

// counted counts the checks of be.
type counted struct {
	be     backend.Backend
	checks atomic.Int32
}

func (c *counted) Name() string                       { return c.be.Name() }
func (c *counted) Capabilities() backend.Capabilities { return c.be.Capabilities() }
func (c *counted) Check(ctx context.Context, p *program.Program, b backend.Bounds) (backend.Result, error) {
	c.checks.Add(1)
	return c.be.Check(ctx, p, b)
}

// Three programs whose truth is argued beside them.
const (
	// safeThreads: each worker adds 1 under the lock and main asserts
	// after joining both: c is 2 in every run, within any bounds.
	safeThreads = `#include <pthread.h>
#include <assert.h>
int c; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`
	// racyThreads: main reads c, the worker reads it, adds 1 and ends,
	// and main writes its own c + 1 back: c ends 1 (main, the worker,
	// main: 2 round-robin rounds).
	racyThreads = `#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, 0);
  int t = c; c = t + 1; pthread_join(a, 0); assert(c == 2); return 0; }`
	// handshake: main and the thread take turns (main sets a, the thread
	// answers in b, twice), and main then fails its assertion: every run
	// that ends does so, and in every one main runs, then the thread,
	// main, the thread, main again: five contexts, three round-robin
	// rounds (main is first in each), so 2 rounds miss it.
	handshake = `#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_assume(int);
int a, b;
void *t(void *x) { __VERIFIER_assume(a == 1); b = 1; __VERIFIER_assume(a == 2); b = 2; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0);
  a = 1; __VERIFIER_assume(b == 1); a = 2; __VERIFIER_assume(b == 2); assert(0); return 0; }`
)

// TestRoundsBeside: the checker of the sequentialisation beside the mode
// (CheckOptions.RoundsBeside) answers with its FALSE, replayed, and with
// its TRUE, bounded by its rounds, only when the mode has no verdict; a
// verdict of the mode wins over a TRUE it had before; it runs only in
// mode cegpv on programs with threads.
func TestRoundsBeside(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	bi := builtin.New(builtin.Options{})
	check := func(t *testing.T, src string, mode string, be backend.Backend, rounds *counted) *cegpv.Report {
		t.Helper()
		p := lower(t, "beside.c", []byte(src))
		o := cegpv.CheckOptions{Options: loop.Options{Backend: be, Bounds: backend.Bounds{Unwind: 2, Timeout: 4 * time.Second}},
			Mode: mode, NoExplicit: true, Probe: 10 * time.Second, RoundsBeside: rounds, RoundsBesideAfter: 100 * time.Millisecond}
		return cegpv.Check(context.Background(), p, o)
	}
	seq := func() *counted { return &counted{be: lazyseq.Backend{Inner: bi, Rounds: 2}} }

	t.Run("true when the mode has none", func(t *testing.T) {
		r := seq()
		rep := check(t, safeThreads, cegpv.ModeCEGPV, slowBackend{}, r)
		if rep.Verdict != backend.Safe || rep.DecidedBy != cegpv.ByRounds {
			t.Fatalf("%v by %q (%s), want TRUE by %q", rep.Verdict, rep.DecidedBy, rep.Reason, cegpv.ByRounds)
		}
		if rep.Proof || rep.Bounds.Rounds != 2 {
			t.Errorf("proof %v, bounds %s: want a TRUE within 2 rounds, not a proof", rep.Proof, rep.Bounds)
		}
		if rep.Loop != nil {
			t.Errorf("the loop's statistics %+v reported with the sequentialisation's TRUE", rep.Loop)
		}
	})
	t.Run("false replayed", func(t *testing.T) {
		rep := check(t, racyThreads, cegpv.ModeCEGPV, slowBackend{}, seq())
		if rep.Verdict != backend.Unsafe || rep.DecidedBy != cegpv.ByRounds || rep.Run == nil {
			t.Fatalf("%v by %q (%s), want FALSE by %q with its run", rep.Verdict, rep.DecidedBy, rep.Reason, cegpv.ByRounds)
		}
	})
	t.Run("the mode's false over an earlier true", func(t *testing.T) {
		r := seq()
		rep := check(t, handshake, cegpv.ModeCEGPV, slowBackend{be: bi, spin: time.Second}, r)
		if rep.Verdict != backend.Unsafe || rep.DecidedBy == cegpv.ByRounds {
			t.Fatalf("%v by %q (%s), want FALSE by the mode (the bug needs 3 rounds)", rep.Verdict, rep.DecidedBy, rep.Reason)
		}
		if r.checks.Load() == 0 {
			t.Errorf("the sequentialisation was not checked beside the mode")
		}
	})
	t.Run("not without threads", func(t *testing.T) {
		r := seq()
		rep := check(t, `#include <assert.h>
int main(void) { int x = 1; assert(x == 1); return 0; }`, cegpv.ModeCEGPV, slowBackend{}, r)
		if rep.Verdict != backend.Unknown || r.checks.Load() != 0 {
			t.Errorf("%v by %q, %d checks beside: want UNKNOWN (the mode's time limit) and none", rep.Verdict, rep.DecidedBy, r.checks.Load())
		}
	})
	t.Run("not in plain mode", func(t *testing.T) {
		r := seq()
		rep := check(t, safeThreads, cegpv.ModePlain, slowBackend{}, r)
		if rep.Verdict != backend.Unknown || r.checks.Load() != 0 {
			t.Errorf("%v by %q, %d checks beside: want UNKNOWN and none", rep.Verdict, rep.DecidedBy, r.checks.Load())
		}
	})
}

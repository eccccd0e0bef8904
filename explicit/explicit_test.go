package explicit

import (
	"context"
	"testing"
	"time"

	"cegpv.dev/cegpv/internal/lowertest"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// Two threads increment a counter under a mutex, twice each: safe, with
// loops and no nondeterminism, so the search applies.
const locked = `
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int c;
void *w(void *a) { for (int i = 0; i < 2; i++) { pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); } return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 4); return 0; }
`

func lower(t *testing.T, src string) *program.Program { return lowertest.C(t, "x.c", src) }

func id(r backend.Result) backend.Result { return r }
func known(r backend.Result) bool        { return r.Verdict != backend.Unknown }

// defaults are budgets of the search as cegpv's table gives them beside
// the mode.
var defaults = Options{Delay: time.Second, Share: 1.0 / 3, Max: 30 * time.Second, Bytes: 128 << 20}

func fast() Options          { o := defaults; o.Delay = 0; return o }
func bounds() backend.Bounds { return backend.Bounds{Unwind: 3} }
func never(ctx context.Context) (backend.Result, error) {
	<-ctx.Done()
	return backend.Result{Verdict: backend.Unknown, Reason: "cancelled"}, ctx.Err()
}

// The search answers when the other engine does not, and Race returns
// only after the other engine has stopped.
func TestRaceSearchWins(t *testing.T) {
	p := lower(t, locked)
	if !Applies(p) {
		t.Fatal("the search does not apply")
	}
	stopped := false
	res, err := Race(context.Background(), p, bounds(), fast(), func(ctx context.Context) (backend.Result, error) {
		r, err := never(ctx)
		stopped = true
		return r, err
	}, id, known)
	if err != nil || res.Verdict != backend.Safe || res.Stats.States == 0 {
		t.Fatalf("%v %v (%d states), want SAFE by the search", res.Verdict, err, res.Stats.States)
	}
	if !stopped {
		t.Error("Race returned before the other engine stopped")
	}
}

// The other engine's verdict wins when it comes first.
func TestRacePrimaryWins(t *testing.T) {
	p := lower(t, locked)
	o := defaults
	o.Delay = time.Hour
	res, err := Race(context.Background(), p, bounds(), o, func(ctx context.Context) (backend.Result, error) {
		return backend.Result{Verdict: backend.Safe, Reason: "primary"}, nil
	}, id, known)
	if err != nil || res.Reason != "primary" {
		t.Fatalf("%+v %v, want the primary's answer", res, err)
	}
}

// An answer that wrap makes unknown is no answer: the other engine decides.
func TestRaceUnconfirmed(t *testing.T) {
	p := lower(t, locked)
	res, err := Race(context.Background(), p, bounds(), fast(), func(ctx context.Context) (backend.Result, error) {
		time.Sleep(500 * time.Millisecond)
		return backend.Result{Verdict: backend.Unsafe, Reason: "primary"}, nil
	}, func(backend.Result) backend.Result { return backend.Result{} }, known)
	if err != nil || res.Reason != "primary" {
		t.Fatalf("%+v %v, want the primary's answer", res, err)
	}
}

// Loop-free programs are left to the other engine.
func TestAppliesLoopFree(t *testing.T) {
	p := lower(t, "int g; int main(void) { g = 1; __VERIFIER_assert(g == 1); return 0; }\nvoid __VERIFIER_assert(int);")
	if Applies(p) {
		t.Error("the search applies to a loop-free program")
	}
}

// Beyond explores every run of a program whose loops end (a complete
// answer) and finds a bug deeper than the bounds.
func TestBeyond(t *testing.T) {
	res, how, done := Beyond(context.Background(), lower(t, locked), backend.Bounds{Unwind: 1}, defaults)
	if !done || res.Verdict != backend.Safe || !res.Complete || res.Proof {
		t.Errorf("locked: %v complete %v proof %v (%s, done %v), want a complete Safe, no proof without unwinding assertions", res.Verdict, res.Complete, res.Proof, how, done)
	}
	deep := lower(t, "int g; int main(void) { for (int i = 0; i < 40; i++) g++; __VERIFIER_assert(g != 40); return 0; }\nvoid __VERIFIER_assert(int c) { if (!c) { ERROR: __VERIFIER_error(); } }\nvoid __VERIFIER_error(void);")
	res, how, done = Beyond(context.Background(), deep, backend.Bounds{Unwind: 3}, defaults)
	if !done || res.Verdict != backend.Unsafe || res.Run == nil {
		t.Errorf("deep: %v (%s, done %v), want Unsafe", res.Verdict, how, done)
	}
}

package cegpv_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/interp"
)

// Beyond finds bugs that lie beyond the bounds, by either engine, and
// leaves programs without loops alone.
func TestBeyond(t *testing.T) {
	needZ3(t)
	cases := []struct {
		name, src string
		how       string // substring of how; "" = nothing found
		verdict   backend.Verdict
		backend   bool // the backend alone (NoExplicit)
	}{
		// n's range is too wide for the explicit search: the backend at
		// deeper unwindings (4, 6, 9, 14 beyond unwind 3) finds the bug,
		// which needs unwind 8, at 9
		{"backend", `
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int g;
int main(void) { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 0 && n < 1000);
  for (int i = 0; i < n; i++) g++; assert(g != 7); return 0; }`, "builtin within unwind 9", backend.Unsafe, false},
		// fifty threads in turn, no preemption: the explicit search
		{"explicit", `
#include <pthread.h>
int x;
void *check(void *a) { assert(x < 50); return 0; }
void *w(void *a) { int t = x; x = t + 1; return 0; }
int main(void) { pthread_t c, h; pthread_create(&c, 0, check, 0); for (int i = 0; i < 50; i++) pthread_create(&h, 0, w, 0); return 0; }`,
			"explicit-state search", backend.Unsafe, false},
		{"every run", `
#include <pthread.h>
int x;
void *w(void *a) { while (1) { x = 1 - x; } return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); assert(x <= 1); return 0; }`, "every run", backend.Safe, false},
		// sigma (SV-COMP's pthread/sigma_false with 4 threads): at unwind
		// 4 the last thread may write one past the array (Unknown), the
		// violation that avoids it needs unwind 5, and the backend goes on
		// past the invalid access to find it at its next step, 6
		{"past an invalid access", `
#include <pthread.h>
int array[4];
int array_index;
pthread_t t[4];
void *thread(void *arg) { array[array_index] = 1; return 0; }
int main(void) {
  int tid, sum;
  for (tid = 0; tid < 4; tid++) { pthread_create(&t[tid], 0, thread, 0); array_index++; }
  for (tid = 0; tid < 4; tid++) pthread_join(t[tid], 0);
  for (tid = sum = 0; tid < 4; tid++) sum += array[tid];
  assert(sum == 4);
  return 0;
}`, "builtin within unwind 6", backend.Unsafe, true},
		// 2000 threads created by a loop whose exit is a constant (as
		// SV-COMP's goblint-regression 28-race_reach tasks create 10000):
		// a thread may be preempted between its two stores, and main reads
		// 1; the loop runs to its end past the bound, the threads it
		// creates past it never run, and main's read follows: found by
		// the first step, with one thread per pthread_create
		{"threads that never run", `
#include <pthread.h>
int g;
pthread_mutex_t m;
void *w(void *a) { pthread_mutex_lock(&m); g = 1; g = 0; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t ids[2000];
  for (int i = 0; i < 2000; i++) pthread_create(&ids[i], 0, w, 0);
  assert(g == 0);
  for (int i = 0; i < 2000; i++) pthread_join(ids[i], 0);
  return 0;
}`, "within unwind 4, threads 1 (loops that branch only on constants run to their end, threads created past the bounds never run)", backend.Unsafe, true},
		{"loop-free", `int g; int main(void) { g = 1; assert(g == 1); return 0; }`, "", backend.Unknown, false},
	}
	// without the backend, a bug only it finds stays unfound
	t.Run("no backend", func(t *testing.T) {
		p := lower(t, "backend.c", []byte(cases[0].src))
		res, how, found, _ := cegpv.Beyond(context.Background(), p, cegpv.BeyondOptions{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 3}, NoBackend: true})
		if found {
			t.Fatalf("found %v (%s) without the backend", res.Verdict, how)
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lower(t, c.name+".c", []byte(c.src))
			limit := 60 * time.Second
			if c.how == "" {
				limit = 5 * time.Second // nothing to find: do not wait long
			}
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			bounds := backend.Bounds{Unwind: 3}
			res, how, found, _ := cegpv.Beyond(ctx, p, cegpv.BeyondOptions{Backend: builtin.New(builtin.Options{}), Bounds: bounds, NoExplicit: c.backend})
			if c.how == "" {
				if found {
					t.Fatalf("found %v (%s), want nothing", res.Verdict, how)
				}
				return
			}
			if !found || res.Verdict != c.verdict || !strings.Contains(how, c.how) {
				t.Fatalf("found %v: %v (%s), want %v by %q", found, res.Verdict, how, c.verdict, c.how)
			}
			if res.Verdict == backend.Safe && !res.Complete {
				t.Error("a Safe answer beyond the bounds that is not complete")
			}
			if res.Run != nil {
				if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
					t.Errorf("the violation does not replay: %v", err)
				}
			}
		})
	}
}

// A search beyond the bounds that stops for another reason than its
// budget (here a solver that answers nonsense) says why: the bounded TRUE
// must not read as if the search had run its course.
func TestBeyondFailed(t *testing.T) {
	needZ3(t)
	p := lower(t, "failed.c", []byte(`
extern int __VERIFIER_nondet_int(void);
int g;
int main(void) { int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) g++; assert(g != 7); return 0; }`))
	b := builtin.New(builtin.Options{BeyondSolver: []string{"sh", "-c", "while read l; do echo nonsense; done"}})
	_, _, found, failed := cegpv.Beyond(context.Background(), p, cegpv.BeyondOptions{Backend: b, Bounds: backend.Bounds{Unwind: 3}, NoExplicit: true})
	if found || failed == nil || !strings.Contains(failed.Error(), "nonsense") {
		t.Fatalf("found %v, failed %v; want the solver's answer named", found, failed)
	}
	// a search that ends without a bug, or at its deadline, did not fail
	safe := lower(t, "safe.c", []byte(`
extern int __VERIFIER_nondet_int(void);
int g;
int main(void) { int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) g++; assert(g >= 0); return 0; }`))
	for _, limit := range []time.Duration{time.Minute, time.Nanosecond} {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		_, _, found, failed = cegpv.Beyond(ctx, safe, cegpv.BeyondOptions{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 3}, NoExplicit: true})
		cancel()
		if found || failed != nil {
			t.Fatalf("within %v: found %v, failed %v; want nothing found and no failure", limit, found, failed)
		}
	}
}

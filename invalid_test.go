package cegpv_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// invalidAccess are programs in which some run reaches a step the model
// rejects (an invalid access: out of bounds, null, freed, a comparison of
// pointers into different objects) beside an assertion that holds and
// reads none of the variables involved. The model's verdict is UNKNOWN
// (the step is undefined in C; gcc runs decide nothing), so an abstraction
// that slices the step away must not turn it into TRUE: every such run of
// the program must map to a run of the abstraction that fails too.
var invalidAccess = map[string]string{
	"oob_write": `
int a[2]; int x;
int main(void) { int i = 3; a[i] = 1; x = 1; assert(x == 1); return 0; }`,
	"oob_write_loop": `
int a[2]; int x;
int main(void) { for (int i = 0; i <= 2; i++) a[i] = 0; x = 1; assert(x == 1); return 0; }`,
	"oob_read_into_unused": `
int a[2]; int x;
int main(void) { int i = __VERIFIER_nondet_int(); int y = a[i]; x = 1; assert(x == 1); return 0; }`,
	"oob_read_beside_sliced": `
int a[2]; int x, z;
int main(void) { int i = 2; x = a[i] + z; z = 1; assert(z == 1); return 0; }`,
	"oob_in_guard": `
int a[2]; int x;
int main(void) { int i = 5; if (a[i] > 0) x = 2; x = 1; assert(x == 1); return 0; }`,
	"oob_in_sliced_argument": `
int a[2]; int x;
void f(int v) { }
int main(void) { int i = 7; f(a[i]); x = 1; assert(x == 1); return 0; }`,
	"oob_in_unused_return": `
int a[2]; int x; int i = 9;
int g(void) { return a[i]; }
int main(void) { g(); x = 1; assert(x == 1); return 0; }`,
	"null_deref_in_thread": `
#include <pthread.h>
int x; int v;
void *t(void *arg) { int *p = arg; *p = 1; return 0; }
int main(void) { pthread_t h; int *q = 0; if (__VERIFIER_nondet_int()) q = &v;
  pthread_create(&h, 0, t, q); pthread_join(h, 0); x = 1; assert(x == 1); return 0; }`,
	"use_after_free": `
#include <stdlib.h>
int x;
int main(void) { int *p = malloc(sizeof(int)); free(p); *p = 1; x = 1; assert(x == 1); return 0; }`,
	"double_free": `
#include <stdlib.h>
int x;
int main(void) { int *p = malloc(sizeof(int)); free(p); free(p); x = 1; assert(x == 1); return 0; }`,
	"realloc_after_free": `
#include <stdlib.h>
int x;
int main(void) { int *p = malloc(sizeof(int)); free(p); p = realloc(p, 2 * sizeof(int)); x = 1; assert(x == 1); return 0; }`,
	"realloc_of_global": `
#include <stdlib.h>
int x; int g[2];
int main(void) { int *p = g; p = realloc(p, 4 * sizeof(int)); x = 1; assert(x == 1); return 0; }`,
	"use_after_realloc": `
#include <stdlib.h>
int x;
int main(void) { int *p = malloc(sizeof(int)); int *q = realloc(p, 2 * sizeof(int)); *p = 1; x = 1; assert(x == 1); return 0; }`,
	"realloc_printed_null": `
extern void *__cegpv_realloc(void *, unsigned long);
int x;
int main(void) { int *p = 0; p = __cegpv_realloc(p, 2 * sizeof(int)); x = 1; assert(x == 1); return 0; }`,
	"realloc_other_type": `
#include <stdlib.h>
int x;
int main(void) { char *p = malloc(8); int *q = realloc(p, 2 * sizeof(int)); x = 1; assert(x == 1); return 0; }`,
	"compare_different_objects": `
int x; char b, c; int r;
int main(void) { char *p = &b, *q = &c; r = p < q; x = 1; assert(x == 1); return 0; }`,
}

// validAccess are their counterparts without an invalid step (the same
// shapes with the index, pointer or guard that keeps every access valid);
// each assertion holds in every run (truth: the argument beside each
// program; there is no undefined behaviour). Keeping what decides a
// checked step must leave the loop able to prove them.
var validAccess = map[string]string{
	// i ranges over 0..1 only
	"loop_in_bounds": `
int a[2]; int x;
int main(void) { for (int i = 0; i < 2; i++) a[i] = i; x = 1; assert(x == 1); return 0; }`,
	// the guard admits 0 and 1 only
	"guarded_index": `
int a[2]; int x;
int main(void) { int n = __VERIFIER_nondet_int(); if (n >= 0 && n < 2) a[n] = 1; x = 1; assert(x == 1); return 0; }`,
	// the old pointer is the live block's start
	"realloc_grow": `
#include <stdlib.h>
int x;
int main(void) { int *p = malloc(sizeof(int)); *p = 2; int *q = realloc(p, 2 * sizeof(int)); q[1] = *q; x = 1; assert(x == 1); return 0; }`,
	// the thread's argument is always &v
	"thread_deref": `
#include <pthread.h>
int x; int v;
void *t(void *arg) { int *p = arg; *p = 1; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, &v); pthread_join(h, 0); x = 1; assert(x == 1); return 0; }`,
}

func lowerInvalid(t *testing.T, name, src string) *program.Program {
	t.Helper()
	full := "#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n" + src
	p, err := frontend.Lower(name+".c", []byte(full), frontend.Options{Model: program.LP64})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSlicedInvalidAccess: the CEGPV loop, at every abstraction level it
// starts from (the paper's heuristic, steps0, and only the assertion's
// variable), never answers TRUE on a program with a reachable invalid
// access, and the plain BMC answers UNKNOWN (the reference). Before the
// fix every program of invalidAccess was TRUE in the loop (the access
// was sliced away with the variables it touches).
func TestSlicedInvalidAccess(t *testing.T) {
	needZ3(t)
	bd := backend.Bounds{Unwind: 4, Threads: 3}
	heuristics := []depgraph.Heuristic{depgraph.Paper{}, depgraph.Steps{K: 0}, depgraph.Keep{Vars: []depgraph.Var{"x"}}}
	for name, src := range invalidAccess {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := lowerInvalid(t, name, src)
			be := builtin.New(builtin.Options{})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if r, err := be.Check(ctx, p, bd); err != nil || r.Verdict != backend.Unknown {
				t.Fatalf("plain: %v (%s) %v, want UNKNOWN (an invalid access)", r.Verdict, r.Reason, err)
			}
			for _, h := range heuristics {
				rep := checkLoop(ctx, p, be, bd, h)
				if rep.Verdict != backend.Unknown {
					t.Errorf("cegpv from %s: %v (%s), want UNKNOWN (an invalid access)", h.Name(), rep.Verdict, rep.Reason)
				}
			}
		})
	}
	for name, src := range validAccess {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := lowerInvalid(t, name, src)
			be := builtin.New(builtin.Options{})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			for _, h := range heuristics {
				rep := checkLoop(ctx, p, be, bd, h)
				if rep.Verdict != backend.Safe {
					t.Errorf("cegpv from %s: %v (%s), want TRUE", h.Name(), rep.Verdict, rep.Reason)
				}
			}
		})
	}
}

// checkLoop runs the CEGPV loop alone (no probe, no explicit search, no
// search beyond the bounds) from heuristic h.
func checkLoop(ctx context.Context, p *program.Program, be backend.Backend, bd backend.Bounds, h depgraph.Heuristic) *cegpv.Report {
	rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: be, Bounds: bd, Heuristic: h},
		Mode: cegpv.ModeCEGPV, NoExplicit: true})
	if rep.Err != nil && rep.Reason == "" {
		rep.Reason = fmt.Sprint(rep.Err)
	}
	return rep
}

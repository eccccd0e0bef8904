package explicit

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cegpv.dev/cegpv/internal/lowertest"

	"cegpv.dev/cegpv/interp"

	"cegpv.dev/cegpv/analysis"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	P "cegpv.dev/cegpv/program"
)

func lowerC(t *testing.T, name, src string) *P.Program { return lowertest.C(t, name, src) }

// TestExploreProgs runs the explicit-state search on every testdata/progs
// program whose nondeterminism is finite: the verdict must be the one the
// header states, and every violation must replay.
func TestExploreProgs(t *testing.T) {
	explored := 0
	progs, err := testenv.Progs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range progs {
		file := h.Path
		p, err := frontend.Lower(file, h.Src, frontend.Options{Model: h.Model})
		if err != nil {
			continue
		}
		res, err := Explore(context.Background(), p, ExploreOptions{Unwind: h.Unwind, Threads: h.Threads})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		name := filepath.Base(file)
		switch res.Status {
		case Inconclusive:
			t.Logf("%s: not explored: %s", name, res.Reason)
			continue
		case ViolationFound:
			if h.Expect == "safe" {
				t.Errorf("%s: safe, but Explore finds a violation:\n%s", name, interp.Format(p, res.Run))
			}
			out, err := interp.Replay(p, res.Run)
			if err != nil || out.Status != interp.Violated {
				t.Errorf("%s: the violation does not replay: %v", name, err)
			}
		case NoViolation:
			if h.Expect == "unsafe" {
				t.Errorf("%s: unsafe, but Explore finds no violation in %d states", name, res.States)
			}
		}
		explored++
		t.Logf("%s: %v after %d states (complete %v)", name, res.Status, res.States, res.Complete)
	}
	if explored < 15 {
		t.Errorf("only %d programs explored; the domain analysis rejects too much", explored)
	}
}

// TestDomains checks which draws get a finite domain, on small programs
// that each isolate one rule (and one way to break it).
func TestDomains(t *testing.T) {
	const head = "extern int __VERIFIER_nondet_int(void);\nextern unsigned __VERIFIER_nondet_uint(void);\nextern void __VERIFIER_assume(int);\nint g, h, a[4], *gp;\n" +
		"void set(int *p) { *p = 1; }\nvoid setvia(int *p) { set(p); }\nvoid peek(int *p, int x) { if (*p) g = x; *p = x; }\nvoid leak(int *p) { gp = p; }\n"
	cases := []struct {
		name, body string
		want       string // "" = explorable; else a substring of the reason
		dom        []int64
	}{
		{"truth", "if (__VERIFIER_nondet_int()) g = 1;", "", []int64{0, 1}},
		{"not", "g = !__VERIFIER_nondet_int();", "", []int64{0, 1}},
		{"eq0", "if (__VERIFIER_nondet_int() == 0 && g) h = 1;", "", []int64{0, 1}},
		{"arith in cond", "if (__VERIFIER_nondet_int() > 3) g = 1;", "computed with", nil},
		{"stored relevant", "g = __VERIFIER_nondet_int(); assert(g != 7);", "computed with", nil},
		{"stored irrelevant", "h = __VERIFIER_nondet_int() + 1; assert(g == 0);", "", []int64{0}},
		{"index", "a[__VERIFIER_nondet_int() != 0] = 1;", "", []int64{0, 1}},
		{"index value", "a[__VERIFIER_nondet_int()] = 1;", "computed with", nil},
		{"irrelevant but index flows", "h = __VERIFIER_nondet_int(); a[h] = 1;", "computed with", nil},
		{"divisor", "h = __VERIFIER_nondet_int(); g = 8 / h;", "computed with", nil},
		{"range", "int v = __VERIFIER_nondet_int(); __VERIFIER_assume(v >= 1 && v < 4); g = v; assert(g != 3);", "", []int64{1, 2, 3}},
		{"range mirrored", "int v = __VERIFIER_nondet_int(); __VERIFIER_assume(2 > v && v >= -1); g = v; assert(g != 1);", "", []int64{-1, 0, 1}},
		{"range too wide", "int v = __VERIFIER_nondet_int(); __VERIFIER_assume(v >= 0 && v < 1000); g = v; assert(g != 3);", "computed with", nil},
		{"range one-sided", "int v = __VERIFIER_nondet_int(); __VERIFIER_assume(v >= 0); g = v; assert(g != 3);", "computed with", nil},
		{"range not next", "int v = __VERIFIER_nondet_int(); g = v; __VERIFIER_assume(v >= 0 && v < 2); assert(g != 3);", "computed with", nil},
		{"decl assigned", "int v; v = g; assert(v == 0);", "", []int64{0}},
		{"decl read", "int v; if (g) v = 1; assert(v == 2);", "may be read", nil},
		{"decl tested", "int v; if (g) v = 1; assert(v == 0);", "", []int64{0, 1}},
		{"truth variable", "h = __VERIFIER_nondet_int(); g = h; if (g) assert(0);", "", []int64{0, 1}},
		{"out parameter", "int v; set(&v); assert(v == 1);", "", []int64{0}},
		{"out parameter passed on", "int v; setvia(&v); assert(v == 1);", "", []int64{0}},
		{"out parameter read first", "int v; peek(&v, 1); assert(v == 1);", "may be read", nil},
		{"out parameter on one path", "int v; if (g) set(&v); assert(v == 1);", "may be read", nil},
		{"address leaves the thread", "int v; leak(&v); set(&v); assert(v == 1);", "may be read", nil},
		{"decl range", "int v; __VERIFIER_assume(v >= 0 && v < 3); g = v; assert(g != 2);", "", []int64{0, 1, 2}},
		{"switch", "int v = __VERIFIER_nondet_int(); switch (v) { case 3: g = 1; break; case 5: g = 2; } assert(g != 2);", "", []int64{3, 5, 0}},
		{"switch with zero", "int v = __VERIFIER_nondet_int(); if (v != 0 && v != 1) g = 2; assert(g != 2);", "", []int64{0, 1, 2}},
		{"switch value used", "int v = __VERIFIER_nondet_int(); switch (v) { case 3: g = 1; } g = v; assert(g != 2);", "computed with", nil},
		{"truth variable computed with", "h = __VERIFIER_nondet_int(); g = h; if (g + 1) assert(0);", "computed with", nil},
		{"compared", "int v = __VERIFIER_nondet_int(); if (v > 5 && v <= 7) g = 1; assert(v != 9);", "", []int64{4, 5, 6, 7, 8, 9, 10}},
		{"compared adjacent", "int v = __VERIFIER_nondet_int(); __VERIFIER_assume(v >= 1); if (v < 2) g = 1;", "", []int64{0, 1, 2, 3}},
		{"compared at the edges", "int v = __VERIFIER_nondet_int(); if (v > 2147483647 || v < -2147483647 - 1) g = 1;", "", []int64{-2147483648, -2147483647, 2147483647}},
		{"compared unsigned", "unsigned v = __VERIFIER_nondet_uint(); if (v < 3u) g = 1; if (v == 0u) h = 1;", "", []int64{0, 1, 3, 4}},
		{"compared and used", "int v = __VERIFIER_nondet_int(); if (v > 5) g = v;", "computed with", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lowerC(t, c.name+".c", head+"int main(void) {\n"+c.body+"\nreturn 0;\n}\n")
			doms, err := analysis.Domains(p)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("want an error with %q, got %v", c.want, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("not explorable: %v", err)
			}
			for _, in := range p.Func("main").Body {
				if in.Op == P.OpDecl {
					continue
				}
				if d, ok := doms[in]; ok {
					if !slices.Equal(d, c.dom) {
						t.Errorf("%s: domain %v, want %v", in, d, c.dom)
					}
					return
				}
			}
			if strings.HasPrefix(c.body, "int v;") {
				for _, in := range p.Func("main").Body {
					if d, ok := doms[in]; ok && in.Op == P.OpDecl && in.Var == "v" {
						if !slices.Equal(d, c.dom) {
							t.Errorf("decl: domain %v, want %v", d, c.dom)
						}
						return
					}
				}
			}
			t.Errorf("no instruction got a domain")
		})
	}
}

// TestExploreVerdicts checks the search itself on programs whose verdict
// depends on the enumerated values, the reductions and the bounds.
// casSrc and casMain: threads spawned in a loop increment value by
// compare-and-swap with an out parameter (a kept local, see escape.go).
const casSrc = `
#include <pthread.h>
unsigned value;
void __VERIFIER_atomic_CAS(unsigned *v, unsigned e, unsigned u, unsigned *r) { if (*v == e) { *v = u; *r = 1; } else { *r = 0; } }
void *w(void *a) { unsigned v, r; do { v = value; __VERIFIER_atomic_CAS(&value, v, v + 1, &r); } while (r == 0); `
const casMain = `
int main(void) { pthread_t t; while (1) pthread_create(&t, 0, w, 0); return 0; }`

func TestExploreVerdicts(t *testing.T) {
	cases := []struct {
		name, src string
		unwind    int
		want      ExploreStatus
		complete  bool
	}{
		{"range value fails", `
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int g;
int main(void) { int v = __VERIFIER_nondet_int(); __VERIFIER_assume(v >= 0 && v < 5); g = v; assert(g != 4); return 0; }`, 3, ViolationFound, false},
		{"range value holds", `
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int g;
int main(void) { int v = __VERIFIER_nondet_int(); __VERIFIER_assume(v >= 0 && v < 4); g = v; assert(g != 4); return 0; }`, 3, NoViolation, true},
		{"nondet branch", `
extern int __VERIFIER_nondet_int(void);
int g;
int main(void) { if (__VERIFIER_nondet_int()) g = 1; assert(g == 0); return 0; }`, 3, ViolationFound, false},
		{"indirect calls nest as deep as the program says", `
int g;
void f12(void) { g = 1; }
void f0(void);
void f1(void);
void f2(void);
void f3(void);
void f4(void);
void f5(void);
void f6(void);
void f7(void);
void f8(void);
void f9(void);
void f10(void);
void f11(void);
void f0(void) { void (*p)(void) = f1; p(); }
void f1(void) { void (*p)(void) = f2; p(); }
void f2(void) { void (*p)(void) = f3; p(); }
void f3(void) { void (*p)(void) = f4; p(); }
void f4(void) { void (*p)(void) = f5; p(); }
void f5(void) { void (*p)(void) = f6; p(); }
void f6(void) { void (*p)(void) = f7; p(); }
void f7(void) { void (*p)(void) = f8; p(); }
void f8(void) { void (*p)(void) = f9; p(); }
void f9(void) { void (*p)(void) = f10; p(); }
void f10(void) { void (*p)(void) = f11; p(); }
void f11(void) { void (*p)(void) = f12; p(); }
int main(void) { void (*p)(void) = f0; p(); assert(g == 0); return 0; }`, 2, ViolationFound, false},
		{"CAS out parameter, symmetric threads", casSrc + "assert(value != 3); return 0; }" + casMain, 4, ViolationFound, false},
		{"CAS out parameter holds", casSrc + "assert(value <= 4); return 0; }" + casMain, 4, NoViolation, false},
		{"lost update through a function pointer in a global", `
#include <pthread.h>
int g;
void set(int *p) { *p = *p + 1; }
void (*fp)(int *) = set;
void *w(void *a) { fp(&g); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(g == 2); return 0; }`, 3, ViolationFound, false},
		{"switch on a nondet value", `
extern int __VERIFIER_nondet_int(void);
int g;
int main(void) { int v = __VERIFIER_nondet_int(); switch (v) { case 7: g = 1; break; case 9: g = 2; break; default: g = 3; } assert(g != 2); return 0; }`, 3, ViolationFound, false},
		{"interleaving", `
#include <pthread.h>
int x;
void *w(void *a) { int t = x; x = t + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }`, 3, ViolationFound, false},
		{"locked", `
#include <pthread.h>
int x; pthread_mutex_t m;
void *w(void *a) { pthread_mutex_lock(&m); int t = x; x = t + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }`, 3, NoViolation, true},
		{"symmetric spawns", `
#include <pthread.h>
int x;
void *w(void *a) { int t = x; x = t + 1; return 0; }
int main(void) { pthread_t h; while (1) { pthread_create(&h, 0, w, 0); if (x > 2) break; } assert(x <= 4); return 0; }`, 4, NoViolation, false},
		// pthread_self tells the threads apart: the state where thread 2
		// has set x (and thread 1 has not started) is not the state where
		// thread 1 has, and only from it does thread 1 fail
		{"thread ids break symmetry", `
#include <pthread.h>
int x;
void *w(void *a) { if (pthread_self() == 1 && x == 1) assert(0); x = 1; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, w, 0); pthread_create(&h, 0, w, 0); return 0; }`, 3, ViolationFound, false},
		{"deep loop beyond bound", `
int g;
int main(void) { int i; for (i = 0; i < 5; i++) g++; assert(g != 5); return 0; }`, 5, NoViolation, false},
		{"loop within bound", `
int g;
int main(void) { int i; for (i = 0; i < 4; i++) g++; assert(g != 4); return 0; }`, 5, ViolationFound, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lowerC(t, strings.ReplaceAll(c.name, " ", "_")+".c", c.src)
			checkExplore(t, p, ExploreOptions{Unwind: c.unwind}, c.want, c.complete)
		})
	}
}

// checkExplore runs Explore on p and checks its status, its completeness
// (NoViolation) and that its violation replays.
func checkExplore(t *testing.T, p *P.Program, opts ExploreOptions, want ExploreStatus, complete bool) {
	t.Helper()
	res, err := Explore(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != want {
		t.Fatalf("status %v (%s), want %v", res.Status, res.Reason, want)
	}
	if res.Status == NoViolation && res.Complete != complete {
		t.Errorf("complete %v, want %v", res.Complete, complete)
	}
	if res.Run != nil {
		if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
			t.Errorf("the violation does not replay: %v", err)
		}
	}
}

// Explore with loops unbounded and with preemptions bounded (the search
// beyond the bounds, explicit.Beyond).
func TestExploreBeyond(t *testing.T) {
	const spinner = `
#include <pthread.h>
int x;
void *spin(void *a) { int l = 0; while (1) { l = 1 - l; } return 0; }
void *w(void *a) { x = 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, spin, 0); pthread_create(&b, 0, w, 0); assert(x == 0); return 0; }`
	// a bug after three preemptions: main stops after the spawn, w
	// after x = 1, main after its first read
	const threePreemptions = `
#include <pthread.h>
int x;
void *w(void *a) { x = 1; x = 2; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); int r1 = x; int r2 = x; assert(!(r1 == 1 && r2 == 2)); return 0; }`
	cases := []struct {
		name      string
		src       string
		unbounded bool
		pre       int // -1: preemptions not bounded
		want      ExploreStatus
		complete  bool
	}{
		{"bug beyond the unwinding", `
int g;
int main(void) { int i; for (i = 0; i < 9; i++) g++; assert(g != 9); return 0; }`, true, -1, ViolationFound, false},
		{"infinite loop, finite states, explored completely", `
#include <pthread.h>
int x;
void *w(void *a) { while (1) { x = 1 - x; } return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); assert(x <= 1); return 0; }`, true, -1, NoViolation, true},
		// the private spinning of one thread closes a cycle: the proviso
		// must let the other threads run there
		{"cycle proviso", spinner, true, -1, ViolationFound, false},
		{"cycle proviso, preemptions bounded", spinner, true, 1, ViolationFound, false},
		// fkp2013's pattern: every thread runs to its end in turn
		{"no preemption needed", `
#include <pthread.h>
int x;
void *check(void *a) { assert(x < 6); return 0; }
void *w(void *a) { int t = x; x = t + 1; return 0; }
int main(void) { pthread_t c, h; pthread_create(&c, 0, check, 0); for (int i = 0; i < 6; i++) pthread_create(&h, 0, w, 0); return 0; }`, true, 0, ViolationFound, false},
		{"two preemptions are not enough", threePreemptions, true, 2, NoViolation, false},
		{"three preemptions are", threePreemptions, true, 3, ViolationFound, false},
		{"unbounded preemptions", threePreemptions, true, -1, ViolationFound, false},
		{"argc compared with a constant", `
int g;
int main(int argc, char **argv) { int i; for (i = 0; i < 3; i++) g++; assert(g != 3); return 0; }`, true, -1, ViolationFound, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lowerC(t, strings.ReplaceAll(c.name, " ", "_")+".c", c.src)
			opts := ExploreOptions{Unwind: 2, Unbounded: c.unbounded, BoundPreemptions: c.pre >= 0, Preemptions: c.pre}
			checkExplore(t, p, opts, c.want, c.complete)
		})
	}
}

// TestExploreHeapBudget: a search whose states outgrow the heap budget
// gives up with the reason, instead of taking the machine's memory (the
// states on the path of a spawn loop with loops unbounded).
func TestExploreHeapBudget(t *testing.T) {
	p := lowerC(t, "spawn_forever.c", `
#include <pthread.h>
int r;
void *w(void *a) { r = r + 1; return 0; }
int main(void) { pthread_t t; while (1) pthread_create(&t, 0, w, 0); return 0; }`)
	res, err := Explore(context.Background(), p, ExploreOptions{Unbounded: true, MaxHeap: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Inconclusive || !strings.Contains(res.Reason, "heap exceeds") {
		t.Fatalf("status %v, reason %q; want Inconclusive, heap exceeded", res.Status, res.Reason)
	}
}

// A run cut at MaxThreads (a limit of the search, not a bound the caller
// gave) is reported in ThreadCap, so that a Safe answer can state it; one
// cut at Threads (the caller's bound) is not.
func TestExploreThreadCap(t *testing.T) {
	p := lowerC(t, "cap.c", `#include <pthread.h>
#include <assert.h>
int n;
void *w(void *a) { return 0; }
int main(void) {
  pthread_t h;
  for (int i = 0; i < 4; i++) pthread_create(&h, 0, w, 0);
  n = 1;
  assert(n == 1);
  return 0;
}
`)
	for _, tc := range []struct {
		opts ExploreOptions
		cap  int
	}{
		{ExploreOptions{Unwind: 5, MaxThreads: 3}, 3},
		{ExploreOptions{Unwind: 5, Threads: 2, MaxThreads: 64}, 0},
		{ExploreOptions{Unwind: 5, MaxThreads: 64}, 0},
	} {
		res, err := Explore(context.Background(), p, tc.opts)
		if err != nil || res.Status != NoViolation || res.ThreadCap != tc.cap {
			t.Errorf("%+v: %v %+v, want no violation with thread cap %d", tc.opts, err, res, tc.cap)
		}
	}
}

// Check cuts runs at the caller's Bounds.MaxThreads and states it.
func TestCheckMaxThreads(t *testing.T) {
	p := lowerC(t, "cap.c", `#include <pthread.h>
#include <assert.h>
int n;
void *w(void *a) { n++; return 0; }
int main(void) {
  pthread_t h;
  for (int i = 0; i < 4; i++) pthread_create(&h, 0, w, 0);
  return 0;
}
`)
	for _, tc := range []struct{ max, cap int }{{3, 3}, {0, 0}, {5, 0}} {
		res, done := Check(context.Background(), p, backend.Bounds{Unwind: 5, MaxThreads: tc.max}, defaults)
		if !done || res.Verdict != backend.Safe || res.Bounds.ThreadCap != tc.cap {
			t.Errorf("max %d: %v %v, bounds %q; want SAFE with thread cap %d", tc.max, done, res.Verdict, res.Bounds, tc.cap)
		}
	}
}

// A nondet local that is never read, in a function whose loop compares
// another variable with <, has the one-value domain; its analysis used to
// index an empty constant list (a panic seen on a pthread-ext stack task,
// reached from explicit.Applies).
func TestExplorableUnreadNondet(t *testing.T) {
	p := lowerC(t, "unread.c", `#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g;
void *t(void *a) {
  int i;
  int unused = __VERIFIER_nondet_int();
  for (i = 0; i < 3; i++) g++;
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); assert(g <= 3); return 0; }
`)
	if err := Explorable(p); err != nil {
		t.Fatalf("Explorable: %v", err)
	}
	res, err := Explore(context.Background(), p, ExploreOptions{Unwind: 5})
	if err != nil || res.Status != NoViolation {
		t.Fatalf("Explore: %v %+v, want no violation", err, res)
	}
}

// TestExploreDomainFirstValue: the search must try the first value of
// every draw's domain. It drew 0 in a step's first run, where the choice
// vector does not exist yet, and the odometer then started after dom[0]:
// a domain {2} (from assume(k == 2)) was never tried, and the search
// answered "no violation, complete" on this unsafe program (found on
// 2026-11-24; the search's Safe answers were not trusted until the fix).
func TestExploreDomainFirstValue(t *testing.T) {
	cases := map[string]string{
		"assume equal": `#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int a[800]; int top;
void *w(void *x) { int i; for (i = 0; i < 3; i++) { int t = top; a[t] = t + 1; top = t + 1; } return 0; }
int main() { pthread_t t1; pthread_create(&t1, 0, w, 0); int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k == 2); assert(a[k] != 3); return 0; }`,
		// the compared-with-constants domain starts at the smallest gap
		"compared": `#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main() { int k = __VERIFIER_nondet_int(); if (k < -5) assert(0); return 0; }`,
		"range from one": `#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int a[3] = {7, 0, 0};
int main() { int k = __VERIFIER_nondet_int(); __VERIFIER_assume(k >= 1 && k < 3); a[k] = 1; assert(a[1] == 0); return 0; }`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			p := lowerC(t, "first.c", src)
			res, err := Explore(context.Background(), p, ExploreOptions{Unwind: 4})
			if err != nil || res.Status != ViolationFound {
				t.Fatalf("Explore: %v %+v, want a violation", err, res)
			}
			if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
				t.Fatalf("the violation does not replay: %v", err)
			}
		})
	}
}

// TestExploreUnwinding checks the testdata/progs programs with unwinding
// expectations (`// unwinding:` header lines) with unwinding assertions:
// a bound reached is a violation of one of the expected unwinding
// properties whose run replays as such; where they hold, the search finds
// none and covers every run.
func TestExploreUnwinding(t *testing.T) {
	progs, err := testenv.Progs("..")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range progs {
		for _, u := range h.Unwinding {
			n++
			t.Run(fmt.Sprintf("%s/unwind%d", strings.TrimSuffix(h.Name, ".c"), u.Unwind), func(t *testing.T) {
				p := lowerC(t, h.Path, string(h.Src))
				res, err := Explore(context.Background(), p, ExploreOptions{Unwind: u.Unwind, Threads: h.Threads, UnwindingAssertions: true})
				if err != nil {
					t.Fatal(err)
				}
				if len(u.Fails) == 0 {
					if res.Status != NoViolation || !res.Complete {
						t.Fatalf("%v (complete %v, %s), want no violation, every run explored", res.Status, res.Complete, res.Reason)
					}
					return
				}
				if res.Status != ViolationFound {
					t.Fatalf("%v (%s), want a violation of one of %v", res.Status, res.Reason, u.Fails)
				}
				out, err := interp.Replay(p, res.Run)
				if err != nil {
					t.Fatal(err)
				}
				if out.Status != interp.Violated || !slices.Contains(u.Fails, out.Prop) || res.Run.Violated != out.Prop {
					t.Fatalf("replays to %v %s (the search says %s), want one of %v", out.Status, out.Prop, res.Run.Violated, u.Fails)
				}
				// the same property alone; the others cut runs
				want, _ := P.UnwindingByID(p, out.Prop)
				res, err = Explore(context.Background(), p, ExploreOptions{Unwind: u.Unwind, Threads: h.Threads, UnwindingAssertions: true, UnwindingOnly: want.Key()})
				if err != nil || res.Status != ViolationFound || res.Run.Violated != out.Prop {
					t.Fatalf("%s alone: %v, %v", out.Prop, res, err)
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no program with unwinding expectations")
	}
}

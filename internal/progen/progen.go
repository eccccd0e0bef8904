// Package progen generates small random concurrent C programs in the
// SV-COMP dialect, for property tests that compare the backends, the
// interpreter and the CEGPV loop on the same inputs.
//
// Every program has a few int globals, a mutex, two or three threads and
// assertions in main and in the threads; statements are assignments with
// arithmetic on globals, locals and nondet inputs, conditionals, bounded
// loops, mutex-protected and atomic regions and assumptions. The same seed
// always gives the same program.
//
// GenerateGuarded adds a global s that the program touches only while it
// holds the mutex (and assertions inside locked regions), for tests of
// reductions that rely on lock discipline.
//
// GenerateDomains adds nondet inputs whose possible values do not start at
// zero (assume(v == 2), assume(v >= 1 && v < 4), a switch-like chain of
// comparisons with constants) and a global array indexed by such inputs,
// for tests of the explicit-state search's finite domains.
//
// GenerateResults makes the threads end with a result (the address of a
// global, chosen by conditions, returned or passed to pthread_exit) that
// main receives through pthread_join and tests in its assertion, for tests
// of thread results.
//
// GenerateCalls adds functions that the threads and main call: with
// parameters, locals and results, through a pointer chosen at run time, a
// bounded recursion, an atomic function (__VERIFIER_atomic_*) and one that
// may call pthread_exit, for tests of translations that inline calls.
package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Generate returns the C text of the program for seed.
func Generate(seed int64) string {
	g := &gen{r: rand.New(rand.NewSource(seed))}
	return g.program()
}

// GenerateGuarded returns the C text of the guarded program for seed: one
// more global, s, accessed only inside pthread_mutex_lock(&m) regions.
func GenerateGuarded(seed int64) string {
	g := &gen{r: rand.New(rand.NewSource(seed)), guarded: true}
	return g.program()
}

// GenerateDomains returns the C text of the program for seed with the
// statements of Generate and nondet inputs of non-zero-based domains (see
// the package comment).
func GenerateDomains(seed int64) string {
	g := &gen{r: rand.New(rand.NewSource(seed)), domains: true}
	return g.program()
}

// GenerateResults returns the C text of the program for seed with thread
// results (see the package comment).
func GenerateResults(seed int64) string {
	g := &gen{r: rand.New(rand.NewSource(seed)), results: true}
	return g.program()
}

// GenerateCalls returns the C text of the program for seed with function
// calls (see the package comment).
func GenerateCalls(seed int64) string {
	g := &gen{r: rand.New(rand.NewSource(seed)), calls: true}
	return g.program()
}

type gen struct {
	r       *rand.Rand
	calls   bool     // GenerateCalls: helper functions called by the threads
	results bool     // GenerateResults: threads return addresses that main joins
	domains bool     // GenerateDomains: a[], ranged inputs
	ranged  []string // locals known to lie in [0, 4)
	b       strings.Builder
	globals []string
	locals  []string
	depth   int
	nlocal  int
	guarded bool // s exists
	locked  int  // nesting of locked regions being emitted
}

// inLock reports, in guarded mode, whether to use s here (a draw only
// inside locked regions, so that Generate's programs stay as they were).
func (g *gen) inLock(n int) bool {
	return g.guarded && g.locked > 0 && g.r.Intn(n) == 0
}

func (g *gen) p(format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", g.depth))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *gen) program() string {
	ng := 2 + g.r.Intn(3)
	for i := 0; i < ng; i++ {
		g.globals = append(g.globals, fmt.Sprintf("g%d", i))
	}
	g.p("#include <pthread.h>")
	g.p("#include <assert.h>")
	g.p("extern int __VERIFIER_nondet_int(void);")
	g.p("extern void __VERIFIER_assume(int);")
	for _, v := range g.globals {
		g.p("int %s = %d;", v, g.r.Intn(3))
	}
	if g.guarded {
		g.p("int s = %d;", g.r.Intn(3))
	}
	if g.domains {
		g.p("int a[4] = {%d, %d, %d, %d};", g.r.Intn(3), g.r.Intn(3), g.r.Intn(3), g.r.Intn(3))
	}
	g.p("pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;")
	if g.calls {
		g.helpers()
	}
	nt := 2 + g.r.Intn(2)
	for t := 0; t < nt; t++ {
		g.p("void *t%d(void *arg) {", t)
		g.depth++
		g.locals, g.ranged = nil, nil
		g.block(2 + g.r.Intn(4))
		if g.r.Intn(3) == 0 {
			g.p("assert(%s);", g.cond())
		}
		if g.results {
			if g.r.Intn(2) == 0 {
				g.p("if (%s) pthread_exit(&%s);", g.cond(), g.global())
			}
			if g.r.Intn(2) == 0 {
				g.p("if (%s) return &%s;", g.cond(), g.global())
			}
			g.p("return &%s;", g.global())
		} else {
			g.p("return 0;")
		}
		g.depth--
		g.p("}")
	}
	g.p("int main(void) {")
	g.depth++
	g.locals, g.ranged = nil, nil
	for t := 0; t < nt; t++ {
		g.p("pthread_t h%d;", t)
		if g.results {
			g.p("void *r%d = 0;", t)
		}
	}
	for t := 0; t < nt; t++ {
		g.p("pthread_create(&h%d, 0, t%d, 0);", t, t)
	}
	if g.r.Intn(2) == 0 {
		g.block(1 + g.r.Intn(2))
	}
	var joined []int
	for t := 0; t < nt; t++ {
		if g.r.Intn(4) != 0 {
			if g.results {
				g.p("pthread_join(h%d, &r%d);", t, t)
				joined = append(joined, t)
			} else {
				g.p("pthread_join(h%d, 0);", t)
			}
		}
	}
	if len(joined) > 0 {
		t := joined[g.r.Intn(len(joined))]
		switch g.r.Intn(3) {
		case 0:
			g.p("assert(r%d != &%s || %s);", t, g.global(), g.cond())
		case 1:
			g.p("assert(*(int *)r%d != %d || %s);", t, g.r.Intn(3), g.cond())
		default:
			g.p("assert(r%d == &%s);", t, g.global())
		}
	} else {
		g.p("assert(%s);", g.cond())
	}
	g.p("return 0;")
	g.depth--
	g.p("}")
	return g.b.String()
}

func (g *gen) block(n int) {
	for i := 0; i < n; i++ {
		g.stmt()
	}
}

// scoped emits n statements in a nested C block: locals declared there are
// not used after it.
func (g *gen) scoped(n int) {
	saved, savedR := len(g.locals), len(g.ranged)
	g.depth++
	g.block(n)
	g.depth--
	g.locals, g.ranged = g.locals[:saved], g.ranged[:savedR]
}

func (g *gen) lvalue() string {
	if g.inLock(3) {
		return "s"
	}
	if len(g.locals) > 0 && g.r.Intn(4) == 0 {
		return g.locals[g.r.Intn(len(g.locals))]
	}
	return g.globals[g.r.Intn(len(g.globals))]
}

func (g *gen) atom() string {
	if g.inLock(4) {
		return "s"
	}
	if g.domains && len(g.ranged) > 0 && g.r.Intn(5) == 0 {
		return "a[" + g.ranged[g.r.Intn(len(g.ranged))] + "]"
	}
	switch k := g.r.Intn(6); {
	case k < 2:
		return fmt.Sprint(g.r.Intn(4))
	case k < 4 || len(g.locals) == 0:
		return g.globals[g.r.Intn(len(g.globals))]
	default:
		return g.locals[g.r.Intn(len(g.locals))]
	}
}

func (g *gen) expr() string {
	switch g.r.Intn(4) {
	case 0:
		return g.atom()
	case 1:
		return g.atom() + " + " + g.atom()
	case 2:
		return g.atom() + " - " + g.atom()
	}
	return g.atom() + " * " + fmt.Sprint(1+g.r.Intn(2))
}

func (g *gen) cond() string {
	ops := []string{"==", "!=", "<", "<=", ">"}
	c := g.atom() + " " + ops[g.r.Intn(len(ops))] + " " + g.atom()
	if g.r.Intn(4) == 0 {
		c += []string{" && ", " || "}[g.r.Intn(2)] + g.atom() + " " + ops[g.r.Intn(len(ops))] + " " + g.atom()
	}
	return c
}

func (g *gen) stmt() {
	if g.guarded && g.locked == 0 && g.depth < 3 && g.r.Intn(3) == 0 {
		g.lockedRegion()
		return
	}
	if g.domains && g.r.Intn(3) == 0 {
		g.domainStmt()
		return
	}
	if g.calls && g.r.Intn(3) == 0 {
		g.callStmt()
		return
	}
	switch k := g.r.Intn(12); {
	case k < 4:
		g.p("%s = %s;", g.lvalue(), g.expr())
	case k == 4:
		v := fmt.Sprintf("l%d", g.nlocal)
		g.nlocal++
		g.p("int %s = __VERIFIER_nondet_int();", v)
		g.p("__VERIFIER_assume(%s >= 0 && %s < %d);", v, v, 2+g.r.Intn(3))
		g.locals = append(g.locals, v)
	case k == 5:
		v := fmt.Sprintf("l%d", g.nlocal)
		g.nlocal++
		g.p("int %s = %s;", v, g.globals[g.r.Intn(len(g.globals))])
		g.locals = append(g.locals, v)
	case k == 6 && g.depth < 3:
		g.p("if (%s) {", g.cond())
		g.scoped(1 + g.r.Intn(2))
		if g.r.Intn(2) == 0 {
			g.p("} else {")
			g.scoped(1)
		}
		g.p("}")
	case k == 7 && g.depth < 3 && !(g.guarded && g.locked > 0):
		g.lockedRegion()
	case k == 8 && g.depth < 3:
		g.p("__VERIFIER_atomic_begin();")
		g.block(1 + g.r.Intn(2))
		g.p("__VERIFIER_atomic_end();")
	case k == 9 && g.depth < 3:
		v := fmt.Sprintf("i%d", g.nlocal)
		g.nlocal++
		g.p("for (int %s = 0; %s < %d; %s++) {", v, v, 1+g.r.Intn(2), v)
		g.depth++
		g.p("%s = %s + 1;", g.lvalue(), g.atom())
		g.depth--
		g.p("}")
	case k == 10:
		g.p("__VERIFIER_assume(%s);", g.cond())
	default:
		g.p("%s = %s + 1;", g.globals[g.r.Intn(len(g.globals))], g.globals[g.r.Intn(len(g.globals))])
	}
}

func (g *gen) lockedRegion() {
	g.p("pthread_mutex_lock(&m);")
	g.locked++
	g.block(1 + g.r.Intn(2))
	if g.inLock(2) {
		g.p("assert(%s);", g.cond())
	}
	g.locked--
	g.p("pthread_mutex_unlock(&m);")
}

// domainStmt emits an input of a domain that does not start at zero, a
// switch-like chain on an input, or a store into a[] at a ranged input.
func (g *gen) domainStmt() {
	v := fmt.Sprintf("d%d", g.nlocal)
	g.nlocal++
	switch k := g.r.Intn(4); {
	case k == 0:
		c := 1 + g.r.Intn(3)
		g.p("int %s = __VERIFIER_nondet_int();", v)
		g.p("__VERIFIER_assume(%s == %d);", v, c)
		g.locals = append(g.locals, v)
		g.ranged = append(g.ranged, v)
	case k == 1:
		lo := 1 + g.r.Intn(2)
		g.p("int %s = __VERIFIER_nondet_int();", v)
		g.p("__VERIFIER_assume(%s >= %d && %s < 4);", v, lo, v)
		g.locals = append(g.locals, v)
		g.ranged = append(g.ranged, v)
	case k == 2:
		// read only in comparisons with constants
		g.p("int %s = __VERIFIER_nondet_int();", v)
		g.p("if (%s == %d) { %s = %s; } else if (%s < %d) { %s = %s; }", v, 2+g.r.Intn(5), g.lvalue(), g.atom(), v, -1-g.r.Intn(4), g.lvalue(), g.atom())
	default:
		if len(g.ranged) == 0 {
			g.p("%s = %s;", g.lvalue(), g.expr())
			return
		}
		g.p("a[%s] = %s;", g.ranged[g.r.Intn(len(g.ranged))], g.expr())
	}
}

// global returns the name of a random global.
func (g *gen) global() string { return g.globals[g.r.Intn(len(g.globals))] }

// helpers emits the functions of GenerateCalls: add (a result computed
// from its parameter, a local and a global, which it also writes), bump (a
// global through a pointer parameter), sub (another int (int), the other
// target of the pointer), down (recursion: down(n) makes n+1 activations),
// __VERIFIER_atomic_swap (an atomic read-modify-write) and quit (may call
// pthread_exit).
func (g *gen) helpers() {
	g.locals, g.ranged = nil, nil
	g.p("int add(int x) {")
	g.depth++
	g.p("int y = x + %s;", g.global())
	g.p("%s = y;", g.global())
	g.p("return y;")
	g.depth--
	g.p("}")
	g.p("void bump(int *q) { *q = *q + 1; }")
	g.p("int sub(int x) { return x - %s; }", g.global())
	g.p("int down(int n) {")
	g.depth++
	g.p("if (n <= 0) return %s;", g.global())
	g.p("return down(n - 1) + 1;")
	g.depth--
	g.p("}")
	g.p("int __VERIFIER_atomic_swap(int v) { int old = %s; %s = v; return old; }", g.globals[0], g.globals[0])
	g.p("void quit(int c) { if (c > %d) pthread_exit(0); }", g.r.Intn(3))
}

// callStmt emits a call of one of the helpers.
func (g *gen) callStmt() {
	v := fmt.Sprintf("c%d", g.nlocal)
	g.nlocal++
	switch g.r.Intn(6) {
	case 0:
		g.p("int %s = add(%s);", v, g.expr())
		g.locals = append(g.locals, v)
	case 1:
		g.p("bump(&%s);", g.global())
	case 2:
		g.p("int (*%s)(int) = %s ? add : sub;", v, g.cond())
		g.p("%s = %s(%s);", g.lvalue(), v, g.atom())
	case 3:
		g.p("%s = down(%d);", g.lvalue(), g.r.Intn(3))
	case 4:
		g.p("%s = __VERIFIER_atomic_swap(%s);", g.lvalue(), g.expr())
	default:
		g.p("quit(%s);", g.atom())
	}
}

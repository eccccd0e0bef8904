package observer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// The Lemma 3 tests take, for programs of testdata/progs and the programs
// below, a few abstractions A and a set R of runs of A (from
// interp.Simulate, violating ones first), build A' = Refine(A, R) and check
//
//	soundness: for every exit x of G_R, runs of A' in which the observer
//	    chooses x (interp.Simulate on A' with the choice fixed) replay on
//	    A', map (Map.Run) to runs of A that replay on A with the same
//	    verdict, and once the copy of the deviating step has run, the
//	    mapped run leaves G_R at x's node through x's thread: it is not a
//	    run of R (nor a prefix of one);
//	completeness: every run of A that leaves G_R (random runs of A) is the
//	    image of a run of A' (lift builds it step by step, running the
//	    observer and controllers whenever they can move), with the same
//	    verdict; the runs of A that stay in G_R are the runs the refinement
//	    removes.

const (
	rSeeds   = 60 // runs of A from which R is drawn
	maxR     = 3
	aSeeds   = 40 // runs of A for completeness
	apSeeds  = 2  // runs of A' per exit
	simSteps = 600
)

// extra programs exercising the restored state: locals of several
// threads, pointers to main's locals, arrays, nondet stores, locks,
// atomic sections, assertions in threads.
var extra = map[string]string{
	"calls.c": `
#include <pthread.h>
#include <assert.h>
int x = 0;
int seen = 0;
void inc(int d) {
  int t = x;
  x = t + d;
}
int get(void) {
  return x;
}
void *w(void *arg) {
  inc(1);
  seen = get();
  inc(2);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 6);
  return 0;
}
`,
	"locals.c": `
#include <pthread.h>
#include <assert.h>
int g = 0;
int a[3];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *arg) {
  int *p = (int *)arg;
  int v = *p;
  int i = __VERIFIER_nondet_int();
  pthread_mutex_lock(&m);
  if (i >= 0 && i < 3) a[i] = v;
  g = g + v;
  pthread_mutex_unlock(&m);
  assert(g != 5);
  return 0;
}
int main(void) {
  pthread_t t[2];
  int one = 1, two = 2;
  pthread_create(&t[0], 0, w, &one);
  pthread_create(&t[1], 0, w, &two);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  assert(a[0] + a[1] + a[2] <= 3);
  return 0;
}
`,
	"atomic.c": `
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x = 0, y = 0;
void *t(void *arg) {
  int r;
  __VERIFIER_atomic_begin();
  r = x;
  x = r + __VERIFIER_nondet_int() % 2;
  __VERIFIER_atomic_end();
  y = y + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  assert(x < 2 || y == 2);
  pthread_join(b, 0);
  return 0;
}
`,
}

type lemmaCase struct {
	name string
	ab   lemmatest.Abstraction
	R    []*program.Run
}

func sim(p *program.Program, seed int64) (*interp.Outcome, error) {
	return interp.Simulate(p, interp.SimOptions{Seed: seed, MaxSteps: simSteps, Unwind: 3, ContextSwitchProb: 0.3})
}

// lemmaCases returns the programs, abstractions and spurious sets of the
// tests.
func lemmaCases(t *testing.T) []lemmaCase {
	var progs []*program.Program
	for _, file := range lemmatest.ProgFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, lemmatest.Lower(t, filepath.Base(file), src))
	}
	for _, name := range []string{"locals.c", "atomic.c", "calls.c"} {
		progs = append(progs, lemmatest.Lower(t, name, []byte(extra[name])))
	}
	var out []lemmaCase
	for _, p := range progs {
		for _, ab := range lemmatest.Abstractions(t, p) {
			var viol, other []*program.Run
			for seed := int64(1); seed <= rSeeds && len(viol) < maxR; seed++ {
				o, err := sim(ab.A, seed)
				if err != nil {
					t.Fatal(err)
				}
				switch o.Status {
				case interp.Violated:
					viol = append(viol, o.Run)
				case interp.Completed:
					if len(other) < maxR {
						other = append(other, o.Run)
					}
				}
			}
			R := append(viol, other...)
			if len(R) > maxR {
				R = R[:maxR]
			}
			if len(R) > 0 {
				out = append(out, lemmaCase{name: p.File + " " + ab.Name, ab: ab, R: R})
			}
		}
	}
	return out
}

type counts struct {
	cases, unsupported, exits, apRuns, passedCopy, sound, complRuns, compl, stays int
}

// fixExit returns a copy of A' in which the observer always chooses exit x.
func fixExit(ap *program.Program, m *Map, x int) *program.Program {
	q := program.Clone(ap)
	for _, f := range q.Funcs {
		for _, in := range f.Body {
			if in.Label == m.choice {
				in.Rhs = program.IntConst(program.IntT, int64(x))
			}
		}
	}
	return q
}

// soundness checks every exit of b; it returns the number of failures.
func soundness(t *testing.T, c lemmaCase, b *builder, n *counts, report bool) int {
	fails := 0
	fail := func(format string, args ...any) {
		fails++
		if report {
			t.Errorf("%s: "+format, append([]any{c.name}, args...)...)
		}
	}
	a, ap, m := c.ab.A, b.ap, b.m
	for x := range b.exits {
		if fails > 0 {
			break
		}
		n.exits++
		q := fixExit(ap, m, x)
		ex := b.exits[x]
		for seed := int64(1); seed <= apSeeds; seed++ {
			o, err := interp.Simulate(q, interp.SimOptions{Seed: seed, MaxSteps: 3000, Unwind: 3, ContextSwitchProb: 0.4})
			if err != nil {
				t.Fatalf("%s: simulate A': %v", c.name, err)
			}
			n.apRuns++
			if _, err := interp.Replay(q, o.Run); err != nil {
				fail("exit %d seed %d: run of A' does not replay on A': %v", x, seed, err)
				continue
			}
			r := m.Run(o.Run)
			ro, err := interp.Replay(a, r)
			if err != nil {
				fail("exit %d seed %d: mapped run does not replay on A: %v\n%s", x, seed, err, interp.Format(a, r))
				continue
			}
			if (ro.Status == interp.Violated) != (o.Status == interp.Violated) {
				fail("exit %d seed %d: verdict %v on A', %v on A", x, seed, o.Status, ro.Status)
			}
			// copied: the copy of the deviating step ran; cut: nothing but
			// the controller's check of it ran after it (the check blocked)
			copied, cut := false, false
			for _, s := range o.Run.Steps {
				if _, ok := m.copyOf[s.Label]; ok && !copied {
					copied, cut = true, true
					continue
				}
				if copied && (s.Thread != ex.t || !m.added[s.Label] || m.cont[s.Label] != "") {
					cut = false
				}
			}
			nd, leave, ri, err := b.walk(r)
			if err != nil {
				t.Fatalf("%s: walk: %v", c.name, err)
			}
			if !copied {
				if leave >= 0 && nd.depth < ex.n.depth {
					fail("exit %d seed %d: before the deviating step the run leaves the tree above the node", x, seed)
				}
				continue
			}
			n.passedCopy++
			switch {
			case leave < 0 && cut && o.Status != interp.Violated:
				// a copy whose outcome is a child of the node: the check
				// after it blocks, the run ends inside the tree without a
				// violation
			case leave < 0:
				fail("exit %d seed %d: the mapped run stays in the tree (violated: %v)\n%s", x, seed, o.Status == interp.Violated, interp.Format(a, r))
			case nd != ex.n || ri.run.Steps[leave].Thread != ex.t:
				fail("exit %d seed %d: the mapped run leaves the tree at node %d thread %d, not at the exit's node %d thread %d",
					x, seed, nd.id, ri.run.Steps[leave].Thread, ex.n.id, ex.t)
			default:
				n.sound++
			}
		}
	}
	return fails
}

// completeness lifts random runs of A that leave the tree; it returns the
// number of failures.
func completeness(t *testing.T, c lemmaCase, b *builder, n *counts, report bool) int {
	fails := 0
	for seed := int64(1); seed <= aSeeds && fails == 0; seed++ {
		o, err := sim(c.ab.A, seed+1000)
		if err != nil {
			t.Fatal(err)
		}
		if o.Status == interp.Errored {
			continue
		}
		_, leave, _, err := b.walk(o.Run)
		if err != nil {
			t.Fatalf("%s: walk: %v", c.name, err)
		}
		if leave < 0 {
			n.stays++
			continue
		}
		n.complRuns++
		lr, err := b.lift(o.Run)
		if err == nil {
			var lo *interp.Outcome
			lo, err = interp.Replay(b.ap, lr)
			if err == nil && (lo.Status == interp.Violated) != (o.Status == interp.Violated) {
				err = fmt.Errorf("verdict %v on A, %v on A'", o.Status, lo.Status)
			}
		}
		if err != nil {
			fails++
			if report {
				t.Errorf("%s seed %d: a run of A that leaves the tree is not in A': %v\n%s", c.name, seed, err, interp.Format(c.ab.A, o.Run))
			}
			continue
		}
		n.compl++
	}
	return fails
}

var (
	casesOnce sync.Once
	cases     []lemmaCase
)

// lemma3 runs the checks on every stride-th case.
func lemma3(t *testing.T, mutate func(*builder), report bool, stride int) (soundFails, complFails int, n counts) {
	casesOnce.Do(func() { cases = lemmaCases(t) })
	for i, c := range cases {
		if i%stride != 0 {
			continue
		}
		vis := program.Visible(c.ab.A)
		b, err := refine(c.ab.A, vis, c.R)
		if program.KindOf(err) == program.Unsupported {
			n.unsupported++
			t.Logf("%s: %v", c.name, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n.cases++
		if mutate != nil {
			mutate(b)
		} else if err := program.Check(b.ap); err != nil {
			t.Fatalf("%s: Check(A'): %v", c.name, err)
		}
		soundFails += soundness(t, c, b, &n, report)
		complFails += completeness(t, c, b, &n, report)
	}
	return
}

func TestLemma3(t *testing.T) {
	_, _, n := lemma3(t, nil, true, 1)
	t.Logf("%+v", n)
	if n.cases == 0 || n.passedCopy == 0 || n.compl == 0 {
		t.Fatalf("vacuous: %+v", n)
	}
	if n.unsupported > n.cases {
		t.Errorf("most cases unsupported: %+v", n)
	}
}

// TestLemma3Mutants checks that the checks catch an observer that does not
// constrain the deviating step (its outcomes may stay in the tree) and one
// that offers fewer exits than there are.
func TestLemma3Mutants(t *testing.T) {
	unconstrained := func(b *builder) {
		for _, f := range b.ap.Funcs {
			for _, in := range f.Body {
				if in.Op == program.OpAssume && (strings.Contains(in.Msg, "differs from every child") || strings.Contains(in.Msg, "stays in the tree") || strings.Contains(in.Msg, "holds here in the tree")) {
					in.Rhs = program.True
				}
			}
		}
	}
	s, _, _ := lemma3(t, unconstrained, false, 3)
	if s == 0 {
		t.Errorf("an observer that does not constrain the deviating step was not caught")
	}
	fewer := func(b *builder) {
		for _, f := range b.ap.Funcs {
			for _, in := range f.Body {
				if in.Op == program.OpAssume && strings.Contains(in.Msg, "one of the exits") {
					in.Rhs = &program.Binary{Op: program.Lt, X: &program.Ref{Name: "__cegpv_exit", Local: true, T: program.IntT}, Y: program.IntConst(program.IntT, int64(len(b.exits)/2)), T: program.IntT}
				}
			}
		}
	}
	_, c, _ := lemma3(t, fewer, false, 3)
	if c == 0 {
		t.Errorf("an observer that drops half of the exits was not caught")
	}
}

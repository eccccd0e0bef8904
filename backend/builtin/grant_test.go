package builtin

import (
	"context"
	"fmt"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// TestGrant checks which loops run past their bound beyond the bounds
// (grant), and that the threads they create are dormant (dormantSpawn):
// only single-path iterations whose exit test is a constant, and only
// beyond the bounds (Bounds.DeepenFrom).
func TestGrant(t *testing.T) {
	const spawnLoop = `
int g;
void *w(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t ids[300];
  for (int i = 0; i < 300; i++) pthread_create(&ids[i], 0, w, 0);
  assert(g == 0);
  return 0;
}`
	for _, tc := range []struct {
		name, src        string
		beyond           bool
		granted, dormant int  // exactly
		all              bool // the encoding covers every run
	}{
		// 300 back edges at unwind 3: 2 within the bound, 298 granted;
		// the threads of the 297 iterations they start are dormant
		{"spawn loop beyond", spawnLoop, true, 298, 297, false},
		{"spawn loop within the bounds", spawnLoop, false, 0, 0, false},
		{"constant loop", `
int main(void) { int s = 0; for (int i = 0; i < 100; i++) s += i; assert(s != 4950); return 0; }`, true, 98, 0, true},
		{"break on a constant", `
int main(void) { int i = 0; for (;;) { if (i >= 50) break; i++; } assert(i != 50); return 0; }`, true, 48, 0, true},
		// the exit depends on input: each iteration forks
		{"input bound", `
int main(void) { int n = __VERIFIER_nondet_int(); int s = 0; for (int i = 0; i < n; i++) s++; assert(s < 100); return 0; }`, true, 0, 0, false},
		// no exit test at all: an endless loop stays cut at the bound
		{"endless", `
int g;
int main(void) { while (1) { g++; } return 0; }`, true, 0, 0, false},
		// the exit depends on another thread: a busy wait
		{"shared exit", `
int flag, n;
void *w(void *a) { flag = 1; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, w, 0); while (!flag) n++; return 0; }`, true, 0, 0, false},
		// a join may block: a loop of joins is not a single path
		{"join loop", `
void *w(void *a) { return 0; }
int main(void) {
  pthread_t ids[40];
  for (int i = 0; i < 40; i++) pthread_create(&ids[i], 0, w, 0);
  for (int i = 0; i < 40; i++) pthread_join(ids[i], 0);
  return 0;
}`, true, 38, 37, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := lower(t, "grant", tc.src)
			b := backend.Bounds{Unwind: 3}
			if tc.beyond {
				b.DeepenFrom = 3
			}
			e, _, err := encodeProgram(context.Background(), p, b, true, false, redAll)
			if err != nil {
				t.Fatal(err)
			}
			if e.granted != tc.granted || e.dormant != tc.dormant || e.coversAll() != tc.all {
				t.Errorf("granted %d iterations, %d dormant threads, every run %v; want %d, %d, %v",
					e.granted, e.dormant, e.coversAll(), tc.granted, tc.dormant, tc.all)
			}
		})
	}
}

// TestDormantRuns checks the runs through dormant threads end to end: the
// violation past a loop of 300 thread creations is found beyond the bounds
// and replays on the program (thread ids as the interpreter numbers them),
// while within the bounds the check is Safe and cut.
func TestDormantRuns(t *testing.T) {
	needZ3(t)
	// a thread may be preempted between its two stores: main then reads 1
	p := lower(t, "dormant", `
int g;
pthread_mutex_t m;
void *w(void *a) { pthread_mutex_lock(&m); g = 1; g = 0; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t ids[300];
  for (int i = 0; i < 300; i++) pthread_create(&ids[i], 0, w, 0);
  assert(g == 0);
  for (int i = 0; i < 300; i++) pthread_join(ids[i], 0);
  return 0;
}`)
	if res := check(t, p, backend.Bounds{Unwind: 3}); res.Verdict != backend.Safe || res.Complete {
		t.Fatalf("within unwind 3: %v (complete %v), want a Safe answer that is cut", res.Verdict, res.Complete)
	}
	res := check(t, p, backend.Bounds{Unwind: 5, DeepenFrom: 4})
	if res.Verdict != backend.Unsafe {
		t.Fatalf("beyond the bounds: %v %s, want Unsafe", res.Verdict, res.Reason)
	}
	spawns := map[program.Label]int{}
	for _, st := range res.Run.Steps {
		spawns[st.Label]++
	}
	if n := spawns["main.7"]; n != 300 {
		t.Errorf("the run creates %d threads at main.7, want 300", n)
	}
	if res.Reason == "" {
		t.Error("an Unsafe run past the unwinding does not say so")
	}
}

// TestPrivateGlobals checks that a global one thread alone accesses is
// kept as that thread's local (analysis.ThreadPrivate) and that verdicts
// over it are those of the program: t's loop counter p has no events, i
// is shared; t makes at most 3 increments, racing with main's store of 10,
// so i may be 11 and is never more than 13.
func TestPrivateGlobals(t *testing.T) {
	needZ3(t)
	const src = `
int p, i;
void *t(void *a) { for (p = 0; p < 3; p++) i++; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); i = 10; assert(%s); return 0; }`
	for _, tc := range []struct {
		cond string
		want backend.Verdict
	}{{"i != 11", backend.Unsafe}, {"i <= 13", backend.Safe}} {
		p := lower(t, "private", fmt.Sprintf(src, tc.cond))
		e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 5}, true, false, redAll)
		if err != nil {
			t.Fatal(err)
		}
		if e.globals["p"].shared || !e.globals["i"].shared {
			t.Errorf("p shared %v, i shared %v; want false, true", e.globals["p"].shared, e.globals["i"].shared)
		}
		if res := check(t, p, backend.Bounds{Unwind: 5}); res.Verdict != tc.want {
			t.Errorf("assert(%s): %v, want %v", tc.cond, res.Verdict, tc.want)
		}
	}
}

// TestDeepenSteps checks the unwindings the deepening checks: one at a
// time below the bounds, half again as deep each time beyond them.
func TestDeepenSteps(t *testing.T) {
	for _, tc := range []struct {
		b    backend.Bounds
		want string
	}{
		{backend.Bounds{Unwind: 5}, "[1 2 3 4]"},
		{backend.Bounds{Unwind: 1}, "[]"},
		{backend.Bounds{Unwind: 20, DeepenFrom: 6}, "[6 9 14 21]"},
		{backend.Bounds{Unwind: 12, DeepenFrom: 4}, "[4 6 9 14]"},
		{backend.Bounds{Unwind: 4, DeepenFrom: 4}, "[4]"},
	} {
		if got := fmt.Sprint(deepenSteps(tc.b)); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.b, got, tc.want)
		}
	}
}

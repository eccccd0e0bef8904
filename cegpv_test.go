package cegpv_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// lowerFile lowers src in the data model its header names (testenv.ModelOf),
// the host's by default.
func lowerFile(name string, src []byte) (*program.Program, error) {
	return frontend.Lower(name, src, frontend.Options{Model: testenv.ModelOf(src)})
}

func lower(t *testing.T, name string, src []byte) *program.Program {
	t.Helper()
	p, err := lowerFile(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func progs(t *testing.T) []testenv.Prog {
	t.Helper()
	ps, err := testenv.Progs(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 15 {
		t.Fatalf("only %d programs in testdata/progs", len(ps))
	}
	return ps
}

// simBackend finds violations by random simulation: its Unsafe answers are
// real runs, its Safe answers mean only "none found". It lets the
// controller's UNSAFE and UNKNOWN paths be tested without a solver.
type simBackend struct {
	calls int
	fail  map[int]error // call number (from 1) → error to return
	seeds int
}

func (b *simBackend) Name() string                     { return "sim" }
func (*simBackend) Capabilities() backend.Capabilities { return backend.Capabilities{External: true} }

func (b *simBackend) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	b.calls++
	if err := b.fail[b.calls]; err != nil {
		return backend.Result{}, err
	}
	n := b.seeds
	if n == 0 {
		n = 300
	}
	for seed := int64(0); seed < int64(n); seed++ {
		out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, Unwind: bd.Unwind, ContextSwitchProb: 0.3})
		if err != nil {
			continue
		}
		if out.Status == interp.Violated {
			return backend.Result{Verdict: backend.Unsafe, Run: out.Run, Bounds: bd}, nil
		}
	}
	return backend.Result{Verdict: backend.Safe, Bounds: bd}, nil
}

// liar claims a violation with a run that does not violate anything.
type liar struct{}

func (liar) Name() string                       { return "liar" }
func (liar) Capabilities() backend.Capabilities { return backend.Capabilities{External: true} }
func (liar) Check(ctx context.Context, p *program.Program, bd backend.Bounds) (backend.Result, error) {
	out, err := interp.Simulate(p, interp.SimOptions{Seed: 1, Unwind: bd.Unwind})
	if err != nil {
		return backend.Result{}, err
	}
	run := out.Run
	run.Violated = "main.assertion.1"
	return backend.Result{Verdict: backend.Unsafe, Run: run, Bounds: bd}, nil
}

const racy = `
#include <pthread.h>
#include <assert.h>
int x = 0, y = 0;
void *t(void *a) { y = 1; int r = x; x = r + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
`

// Soundness rule 1: a backend's claimed violation that does not replay is
// never reported as UNSAFE.
func TestLyingBackendIsUnknown(t *testing.T) {
	p := lower(t, "racy.c", []byte(racy))
	for _, h := range []depgraph.Heuristic{depgraph.Paper{}, depgraph.Cone{}} {
		res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: liar{}, Bounds: backend.Bounds{Unwind: 2}, Heuristic: h})
		if res.Verdict != backend.Unknown || err == nil {
			t.Fatalf("%s: verdict %v, err %v; want UNKNOWN with an error", h.Name(), res.Verdict, err)
		}
		if program.KindOf(err) != program.Internal {
			t.Errorf("%s: error kind %v, want internal: %v", h.Name(), program.KindOf(err), err)
		}
	}
}

// Soundness rule 3: when the check of a reconstructed program fails, the
// answer is UNKNOWN, never "spurious" (and so never SAFE).
func TestReconstructionErrorIsUnknown(t *testing.T) {
	p := lower(t, "racy.c", []byte(racy))
	crash := program.Errorf(program.Crash, "solver died")
	b := &simBackend{fail: map[int]error{2: crash}}
	res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: b, Bounds: backend.Bounds{Unwind: 2}, Heuristic: depgraph.Keep{Vars: []depgraph.Var{"x"}}})
	if !errors.Is(err, crash) || res.Verdict != backend.Unknown {
		t.Fatalf("verdict %v, err %v; want UNKNOWN caused by the crash", res.Verdict, err)
	}
	if b.calls != 2 {
		t.Fatalf("%d backend calls, want 2 (abstract, reconstruct)", b.calls)
	}
	if !strings.Contains(res.Reason, "solver died") {
		t.Errorf("reason %q does not say why", res.Reason)
	}
}

// The UNSAFE path with a backend that finds real runs: the reported run
// replays on the original program.
func TestUnsafeRunReplays(t *testing.T) {
	p := lower(t, "racy.c", []byte(racy))
	res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: &simBackend{}, Bounds: backend.Bounds{Unwind: 2}, Heuristic: depgraph.Keep{Vars: []depgraph.Var{"x"}}})
	if err != nil || res.Verdict != backend.Unsafe {
		t.Fatalf("verdict %v, err %v; want UNSAFE", res.Verdict, err)
	}
	out, err := interp.Replay(p, res.Run)
	if err != nil || out.Status != interp.Violated {
		t.Fatalf("reported run does not replay as a violation: %v %v", out, err)
	}
}

func TestCancelledIsUnknown(t *testing.T) {
	p := lower(t, "racy.c", []byte(racy))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := loop.Verify(ctx, p, loop.Options{Sanity: true, Backend: &simBackend{}, Bounds: backend.Bounds{Unwind: 2}})
	if res.Verdict != backend.Unknown || program.KindOf(err) != program.Timeout {
		t.Fatalf("verdict %v, err %v; want UNKNOWN (timeout)", res.Verdict, err)
	}
}

func TestUnknownProperty(t *testing.T) {
	p := lower(t, "racy.c", []byte(racy))
	res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: &simBackend{}, Property: "main.assertion.9"})
	if res.Verdict != backend.Unknown || err == nil || !strings.Contains(err.Error(), "main.assertion.1") {
		t.Fatalf("verdict %v, err %v; want UNKNOWN naming the existing properties", res.Verdict, err)
	}
}

func needZ3(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed (make deps installs it)")
	}
}

// Every hand-written program gets its expected verdict from cegpv and from
// the plain backend, and the two agree.
func TestProgsCEGPVAgreesWithPlain(t *testing.T) {
	needZ3(t)
	be := builtin.New(builtin.Options{})
	for _, pr := range progs(t) {
		t.Run(pr.Name, func(t *testing.T) {
			t.Parallel()
			p := lower(t, pr.Path, pr.Src)
			bd := backend.Bounds{Unwind: pr.Unwind}
			want := backend.Safe
			if pr.Expect == "unsafe" {
				want = backend.Unsafe
			}
			ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
			defer cancel()
			plain, err := be.Check(ctx, p, bd)
			if err != nil && program.KindOf(err) != program.Timeout {
				t.Fatalf("plain: %v", err)
			}
			ctx2, cancel2 := context.WithTimeout(context.Background(), 40*time.Second)
			defer cancel2()
			res, err := loop.Verify(ctx2, p, loop.Options{Sanity: true, Backend: be, Bounds: bd})
			if err != nil && program.KindOf(err) != program.Timeout {
				t.Fatalf("cegpv: %v", err)
			}
			// A timeout is UNKNOWN, which is never wrong; any verdict given
			// must be the expected one.
			for _, v := range []backend.Verdict{plain.Verdict, res.Verdict} {
				if v != backend.Unknown && v != want {
					t.Fatalf("plain %v, cegpv %v, want %v", plain.Verdict, res.Verdict, want)
				}
			}
			if plain.Verdict == backend.Unknown || res.Verdict == backend.Unknown {
				t.Logf("UNKNOWN within 40 s: plain %v (%s), cegpv %v (%s)", plain.Verdict, plain.Reason, res.Verdict, res.Reason)
			}
			if res.Verdict == backend.Unsafe {
				out, err := interp.Replay(p, res.Run)
				if err != nil || out.Status != interp.Violated {
					t.Fatalf("cegpv's run does not replay: %v", err)
				}
			}
			t.Logf("%d levels, %d iterations, %d checks", res.Levels, len(res.Iterations), res.Checks)
		})
	}
}

// The paper's motivating example: the first abstraction keeps {t1, t2, x},
// its first counterexample is spurious, and after refinement the real bug is
// reported with a trace that replays.
func TestPaperFig2(t *testing.T) {
	needZ3(t)
	fig, p := paperFig2(t)
	g := depgraph.Build(p)
	var v0 []depgraph.Var // without the front end's temporaries
	for _, v := range depgraph.Choose(g, depgraph.Paper{}, "") {
		if !depgraph.IsTemp(v) {
			v0 = append(v0, v)
		}
	}
	if got := depgraph.JoinVars(v0); got != "main::t1, main::t2, x" {
		t.Errorf("first abstraction keeps %s, want main::t1, main::t2, x", got)
	}
	// the paper's loop: no relaxation of the forced check (Relax 0)
	res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: fig.Unwind}})
	if err != nil || res.Verdict != backend.Unsafe {
		t.Fatalf("verdict %v, err %v; want UNSAFE", res.Verdict, err)
	}
	if len(res.Iterations) < 2 || res.Iterations[0].Reconstruct != "SAFE" {
		t.Fatalf("iterations %+v: want a spurious first counterexample", res.Iterations)
	}
	last := res.Iterations[len(res.Iterations)-1]
	if last.Reconstruct != "UNSAFE" && !(last.Abstract == "UNSAFE" && last.Reconstruct == "") {
		t.Fatalf("last iteration %+v does not report the real bug", last)
	}
	out, err := interp.Replay(p, res.Run)
	if err != nil || out.Status != interp.Violated {
		t.Fatalf("final trace does not replay: %v", err)
	}
	t.Logf("%d iterations over %d levels", len(res.Iterations), res.Levels)
	for _, it := range res.Iterations {
		if it.AbstractTime <= 0 || it.BackendTime != it.AbstractTime+it.ReconstructTime || (it.ReconstructTime > 0) != (it.Reconstruct != "") {
			t.Errorf("iteration %+v: times do not add up", it)
		}
	}

	// with relaxation (the default), the forced check of the spurious
	// counterexample fails and its relaxation finds the real bug at once
	res, err = loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: fig.Unwind}, Relax: loop.DefaultRelax})
	if err != nil || res.Verdict != backend.Unsafe || len(res.Iterations) != 1 {
		t.Fatalf("relaxed: verdict %v, err %v, iterations %+v; want UNSAFE in one iteration", res.Verdict, err, res.Iterations)
	}
	if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
		t.Fatalf("relaxed: final trace does not replay: %v", err)
	}
}

// --dump writes the abstraction and, per spurious counterexample of the
// incremental loop, its visible steps and blockers; with the code-to-code
// loop, every abstract, refined and reconstructed program, all of which
// re-parse.
func TestDump(t *testing.T) {
	needZ3(t)
	fig, p := paperFig2(t)
	for _, noInc := range []bool{false, true} {
		dir := t.TempDir()
		res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}),
			Bounds: backend.Bounds{Unwind: fig.Unwind}, NoIncremental: noInc, Dump: dir})
		if err != nil || res.Verdict != backend.Unsafe {
			t.Fatalf("no-incremental=%v: %v %v", noInc, res.Verdict, err)
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range ents {
			if e.Name() == "sources.txt" {
				continue // every label's source line, of every run (loop.Sources)
			}
			// every name carries its run's unwinding (the deepening's
			// runs and the run at the bounds never share a file)
			u, rest, ok := strings.Cut(e.Name(), "-")
			if _, err := strconv.Atoi(strings.TrimPrefix(u, "u")); !ok || !strings.HasPrefix(u, "u") || err != nil {
				t.Errorf("dumped %s: no unwind prefix", e.Name())
			}
			names = append(names, rest)
			if strings.HasSuffix(e.Name(), ".c") {
				src, _ := os.ReadFile(filepath.Join(dir, e.Name()))
				if _, err := frontend.Lower(e.Name(), src, frontend.Options{}); err != nil {
					t.Errorf("dumped %s does not re-parse: %v", e.Name(), err)
				}
			}
		}
		want := []string{"L0-abstract.c", "L0-I0-blockers.txt", "L0-kept.txt"}
		if noInc {
			want = []string{"L0-abstract.c", "L0-I0-refined.c", "L0-I0-reconstructed.c", "L0-I1-refined.c", "L0-kept.txt"}
		}
		if _, err := os.Stat(filepath.Join(dir, "sources.txt")); err != nil {
			t.Errorf("no-incremental=%v: %v", noInc, err)
		}
		for _, w := range want {
			if !slices.Contains(names, w) {
				t.Errorf("no-incremental=%v: %s not dumped (got %v)", noInc, w, names)
			}
		}
	}
}

// paperFig2 returns testdata/progs/paper_fig2.c, lowered.
func paperFig2(t *testing.T) (testenv.Prog, *program.Program) {
	t.Helper()
	for _, pr := range progs(t) {
		if pr.Name == "paper_fig2.c" {
			return pr, lower(t, pr.Path, pr.Src)
		}
	}
	t.Fatal("testdata/progs/paper_fig2.c missing")
	return testenv.Prog{}, nil
}

// TestDeepening: the loop looks for violations at smaller unwindings
// first. A bug reachable at unwind 1 is reported with those bounds (the
// run replays on the program); NoDeepening finds it at the bounds asked
// for; a safe program gets its verdict at the full bounds.
func TestDeepening(t *testing.T) {
	needZ3(t)
	const unsafe = `
#include <pthread.h>
int x, y;
void *w(void *a) { int i; for (i = 0; i < 3; i++) { int t = x; x = t + 1; } return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, w, 0); int t = x; x = t + 1; assert(x != 1); return 0; }`
	p, err := lowerSrc(unsafe)
	if err != nil {
		t.Fatal(err)
	}
	be := builtin.New(builtin.Options{})
	for _, noDeep := range []bool{false, true} {
		res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: be, Bounds: backend.Bounds{Unwind: 4}, NoDeepening: noDeep})
		if err != nil || res.Verdict != backend.Unsafe {
			t.Fatalf("no-deepening=%v: %v %v", noDeep, res.Verdict, err)
		}
		if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
			t.Fatalf("no-deepening=%v: the run does not replay: %v", noDeep, err)
		}
		want := 1
		if noDeep {
			want = 4
		}
		if res.Bounds.Unwind != want {
			t.Errorf("no-deepening=%v: found within unwind %d, want %d", noDeep, res.Bounds.Unwind, want)
		}
	}
	safe := strings.Replace(unsafe, "assert(x != 1)", "assert(x >= 1)", 1)
	q, err := lowerSrc(safe)
	if err != nil {
		t.Fatal(err)
	}
	res, err := loop.Verify(context.Background(), q, loop.Options{Sanity: true, Backend: be, Bounds: backend.Bounds{Unwind: 4}})
	if err != nil || res.Verdict != backend.Safe || res.Bounds.Unwind != 4 {
		t.Fatalf("safe program: %v within %v, %v", res.Verdict, res.Bounds, err)
	}
}

// TestDeepeningCarriesKeptSet: when the deepening's shallow runs end safe
// at a wider kept set (the narrower ones ran out of iterations on spurious
// counterexamples), the run at the bounds starts at that kept set instead
// of going through the narrower ones again; without deepening it starts at
// the heuristic's own choice. The verdict is the same.
func TestDeepeningCarriesKeptSet(t *testing.T) {
	needZ3(t)
	p, err := lowerSrc(`
#include <pthread.h>
int x, y, z, u, v, s;
void *w(void *a) { int i; for (i = 0; i < 1; i++) u++; y = x; z = y; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, w, 0); x = 0; u = 1; v = u; s = v; pthread_join(h, 0); assert(z == 0); return 0; }`)
	if err != nil {
		t.Fatal(err)
	}
	first := map[bool]int{}
	for _, noDeep := range []bool{true, false} {
		res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}),
			Bounds: backend.Bounds{Unwind: 4}, MaxIterations: 1, NoDeepening: noDeep})
		if err != nil || res.Verdict != backend.Safe || res.Bounds.Unwind != 4 {
			t.Fatalf("no-deepening=%v: %v within %v, %v", noDeep, res.Verdict, res.Bounds, err)
		}
		if len(res.Iterations) == 0 {
			t.Fatalf("no-deepening=%v: no iterations", noDeep)
		}
		// the deepening's iterations come first (unwind 1 and 2), then
		// those of the run at the bounds; every level's kept set is
		// reported
		first[noDeep] = -1
		unwinds := map[int]bool{}
		for _, it := range res.Iterations {
			unwinds[it.Unwind] = true
			if it.Unwind == 4 && first[noDeep] < 0 {
				first[noDeep] = it.Kept
			}
			found := false
			for _, ks := range res.KeptSets {
				found = found || (ks.Unwind == it.Unwind && ks.Level == it.Level && len(ks.Kept) == it.Kept)
			}
			if !found {
				t.Errorf("no-deepening=%v: iteration %+v has no kept set in %+v", noDeep, it, res.KeptSets)
			}
		}
		if want := map[bool]int{true: 1, false: 3}[noDeep]; len(unwinds) != want || !unwinds[4] {
			t.Errorf("no-deepening=%v: iterations at unwindings %v, want %d of them", noDeep, unwinds, want)
		}
		if last := res.Iterations[len(res.Iterations)-1].Kept; last != len(res.Kept) {
			t.Errorf("no-deepening=%v: last iteration keeps %d, result %d", noDeep, last, len(res.Kept))
		}
	}
	if first[true] >= first[false] {
		t.Errorf("the run at the bounds starts keeping %d variables after deepening, %d without: want more after", first[false], first[true])
	}
}

// TestMaxKeptShare: a level that keeps at least MaxKeptShare of the
// variables is replaced by one check of the whole program; below it, the
// loop starts at the heuristic's choice. Same verdict either way.
func TestMaxKeptShare(t *testing.T) {
	needZ3(t)
	fig, p := paperFig2(t)
	all := len(depgraph.Build(p).Vars)
	for _, share := range []float64{0, 0.01} {
		res, err := loop.Verify(context.Background(), p, loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}),
			Bounds: backend.Bounds{Unwind: fig.Unwind}, MaxKeptShare: share})
		if err != nil || res.Verdict != backend.Unsafe {
			t.Fatalf("share %v: verdict %v, err %v; want UNSAFE", share, res.Verdict, err)
		}
		if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
			t.Fatalf("share %v: the run does not replay: %v", share, err)
		}
		first := res.Iterations[0]
		if share == 0 && first.Kept >= all {
			t.Errorf("default share: the first level keeps all %d variables, want the paper's few", all)
		}
		if share > 0 && (first.Kept != all || len(res.Iterations) != 1 || res.Checks != 1 || first.Reconstruct != "") {
			t.Errorf("share %v: iterations %+v, %d checks; want one check of the program with all %d variables", share, res.Iterations, res.Checks, all)
		}
	}
}

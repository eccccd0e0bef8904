package cegpv_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// lowerIncremental lowers testdata/incremental/name (each program says
// beside it why its verdict is the one expected: gcc runs or an argument).
func lowerIncremental(t *testing.T, name string) *program.Program {
	t.Helper()
	path := filepath.Join("testdata", "incremental", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lower(t, path, src)
}

// replaysTo checks that rep's run replays on p to a violation of its
// property.
func replaysTo(t *testing.T, p *program.Program, rep *cegpv.Report) {
	t.Helper()
	out, err := interp.Replay(p, rep.Run)
	if err != nil || out.Status != interp.Violated || out.Prop != rep.Property {
		t.Fatalf("the run of %s does not replay to it: %v %v", rep.Property, out, err)
	}
}

// TestIncrementalBMC: CheckOptions.IncrementalBMC (--incremental-bmc)
// doubles the bound of a loop whose unwinding assertion fails until a
// proof (loops of constant bound 12, from unwind 5: 10, then 20), a
// violation of an assertion (at the loop's 10th iteration: bound 10), or
// the end of the time (an infinite loop: UNKNOWN naming the last bound a
// run reached), in both modes.
func TestIncrementalBMC(t *testing.T) {
	needZ3(t)
	for _, mode := range []string{cegpv.ModePlain, cegpv.ModeCEGPV} {
		opts := func(timeout time.Duration) cegpv.CheckOptions {
			o := cegpv.DefaultCheckOptions()
			o.Backend = builtin.New(builtin.Options{})
			o.Sanity = true
			o.Mode = mode
			o.IncrementalBMC = true
			o.Bounds.Timeout = timeout
			return o
		}
		t.Run(mode+"/const12", func(t *testing.T) {
			rep := cegpv.Check(context.Background(), lowerIncremental(t, "const12_safe.c"), opts(120*time.Second))
			want := "unwind 5, unwindset main.0:20,worker.0:20"
			if rep.Verdict != backend.Safe || !rep.Proof || rep.Bounds.String() != want || rep.ProofBy != "unwinding assertions hold for "+want {
				t.Fatalf("%v proof %v by %q, bounds %s (%s); want a proof for %s", rep.Verdict, rep.Proof, rep.ProofBy, rep.Bounds, rep.Reason, want)
			}
		})
		t.Run(mode+"/bug9", func(t *testing.T) {
			p := lowerIncremental(t, "bug9_unsafe.c")
			rep := cegpv.Check(context.Background(), p, opts(120*time.Second))
			if rep.Verdict != backend.Unsafe || rep.Property != "worker.assertion.1" {
				t.Fatalf("%v %s (%s); want FALSE of worker.assertion.1", rep.Verdict, rep.Property, rep.Reason)
			}
			replaysTo(t, p, rep)
			if b := rep.Bounds.UnwindOf(rep.Bounds.UnwindSet[0].Key); len(rep.Bounds.UnwindSet) != 1 || rep.Bounds.UnwindSet[0].ID != "worker.0" || b != 10 {
				t.Errorf("bounds %s, want worker.0 at 10", rep.Bounds)
			}
		})
		t.Run(mode+"/forever", func(t *testing.T) {
			start := time.Now()
			rep := cegpv.Check(context.Background(), lowerIncremental(t, "forever.c"), opts(4*time.Second))
			if rep.Verdict != backend.Unknown || !strings.HasPrefix(rep.Reason, "incremental BMC: a run reaches unwind ") || !strings.Contains(rep.Reason, " of main.0 (unwinding assertion loop 0 of main (line 13))") {
				t.Fatalf("%v %s (%s); want UNKNOWN naming the last bound of main.0", rep.Verdict, rep.Property, rep.Reason)
			}
			if took := time.Since(start); took > 4*time.Second+cegpv.DefaultGrace+2*time.Second {
				t.Errorf("took %v with a timeout of 4s", took)
			}
			t.Log(rep.Reason)
		})
	}
}

// TestUnwindSet: per-loop bounds (Bounds.UnwindSet, --unwindset) in the
// built-in backend, the explicit-state search and the replay: a bound
// that covers the loop gives a proof stating it, one below it a FALSE of
// that loop's unwinding property that replays at that bound; a bug
// beyond --unwind is found within the loop's own bound (no search
// beyond the bounds); a recursive function's bound likewise; an id that
// names no loop is Unsupported.
func TestUnwindSet(t *testing.T) {
	needZ3(t)
	check := func(t *testing.T, p *program.Program, b backend.Bounds, mode string, noExplicit bool) *cegpv.Report {
		o := cegpv.DefaultCheckOptions()
		o.Backend, o.Sanity, o.Mode, o.NoExplicit, o.BeyondMax = builtin.New(builtin.Options{}), true, mode, noExplicit, 0
		b.Timeout = 120 * time.Second
		o.Bounds = b
		return cegpv.Check(context.Background(), p, o)
	}
	set := func(s string) []backend.LoopBound {
		l, err := backend.ParseUnwindSet(s)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	two := lowerIncremental(t, "two_loops_safe.c")
	for _, mode := range []string{cegpv.ModePlain, cegpv.ModeCEGPV} {
		rep := check(t, two, backend.Bounds{Unwind: 4, UnwindSet: set("main.0:13"), UnwindingAssertions: true}, mode, false)
		if rep.Verdict != backend.Safe || !rep.Proof || rep.ProofBy != "unwinding assertions hold for unwind 4, unwindset main.0:13" {
			t.Errorf("%s: %v proof %v by %q (%s)", mode, rep.Verdict, rep.Proof, rep.ProofBy, rep.Reason)
		}
		rep = check(t, two, backend.Bounds{Unwind: 4, UnwindSet: set("main.unwind.0:12"), UnwindingAssertions: true}, mode, false)
		if rep.Verdict != backend.Unsafe || rep.Property != "main.unwind.0" || rep.Run.Unwind != 4 || rep.Run.BoundOf(program.Unwindings(two)[0].Key()) != 12 {
			t.Fatalf("%s: %v %s (%s); want FALSE of main.unwind.0 at its bound 12", mode, rep.Verdict, rep.Property, rep.Reason)
		}
		replaysTo(t, two, rep)
		// the loop's bound 12 covers the second loop's 3 iterations
		// only with its own bound: main.1 at 3 fails
		rep = check(t, two, backend.Bounds{Unwind: 13, UnwindSet: set("main.1:3"), UnwindingAssertions: true}, mode, true)
		if rep.Verdict != backend.Unsafe || rep.Property != "main.unwind.1" {
			t.Fatalf("%s: %v %s (%s); want FALSE of main.unwind.1", mode, rep.Verdict, rep.Property, rep.Reason)
		}
		replaysTo(t, two, rep)
	}
	// a recursive function's own bound (its id is the function's name):
	// f has 7 activations at most
	rec := lowerIncremental(t, "recursion_safe.c")
	for _, mode := range []string{cegpv.ModePlain, cegpv.ModeCEGPV} {
		rep := check(t, rec, backend.Bounds{Unwind: 3, UnwindSet: set("f:7"), UnwindingAssertions: true}, mode, false)
		if rep.Verdict != backend.Safe || !rep.Proof || rep.ProofBy != "unwinding assertions hold for unwind 3, unwindset f:7" {
			t.Errorf("%s: f:7: %v proof %v by %q (%s)", mode, rep.Verdict, rep.Proof, rep.ProofBy, rep.Reason)
		}
		rep = check(t, rec, backend.Bounds{Unwind: 3, UnwindSet: set("f:6"), UnwindingAssertions: true}, mode, true)
		if rep.Verdict != backend.Unsafe || rep.Property != "f.recursion" {
			t.Fatalf("%s: f:6: %v %s (%s); want FALSE of f.recursion", mode, rep.Verdict, rep.Property, rep.Reason)
		}
		replaysTo(t, rec, rep)
	}
	bug := lowerIncremental(t, "bug9_unsafe.c")
	if rep := check(t, bug, backend.Bounds{Unwind: 5}, cegpv.ModePlain, true); rep.Verdict != backend.Safe || rep.Proof {
		t.Errorf("unwind 5: %v proof %v (%s); want a bounded TRUE", rep.Verdict, rep.Proof, rep.Reason)
	}
	for _, mode := range []string{cegpv.ModePlain, cegpv.ModeCEGPV} {
		rep := check(t, bug, backend.Bounds{Unwind: 5, UnwindSet: set("worker.0:10")}, mode, true)
		if rep.Verdict != backend.Unsafe || rep.Property != "worker.assertion.1" {
			t.Fatalf("%s: %v %s (%s); want FALSE of worker.assertion.1 within worker.0's bound 10", mode, rep.Verdict, rep.Property, rep.Reason)
		}
		replaysTo(t, bug, rep)
	}
	if rep := check(t, two, backend.Bounds{Unwind: 4, UnwindSet: set("main.2:13")}, cegpv.ModePlain, true); rep.Verdict != backend.Unknown || program.KindOf(rep.Err) != program.Unsupported || !strings.Contains(rep.Reason, "its loops: main.0, main.1") {
		t.Errorf("an unknown loop: %v (%s)", rep.Verdict, rep.Reason)
	}
	// the explicit-state search alone
	b, err := backend.ResolveUnwindSet(two, backend.Bounds{Unwind: 4, UnwindSet: set("main.0:13"), UnwindingAssertions: true})
	if err != nil {
		t.Fatal(err)
	}
	search := explicit.Backend{Options: explicit.Options{Share: 1}}
	if res, err := search.Check(context.Background(), two, b); err != nil || res.Verdict != backend.Safe || !res.Proof {
		t.Errorf("the search with main.0:13: %v %v proof %v (%s)", err, res.Verdict, res.Proof, res.Reason)
	}
	b.UnwindSet[0].Bound = 12
	res, err := search.Check(context.Background(), two, b)
	if err != nil || res.Verdict != backend.Unsafe || res.Run.Violated != "main.unwind.0" {
		t.Fatalf("the search with main.0:12: %v %v (%s)", err, res.Verdict, res.Reason)
	}
	if out, err := interp.Replay(two, res.Run); err != nil || out.Prop != "main.unwind.0" {
		t.Errorf("the search's run: %v %v", out, err)
	}
}

// TestParseUnwindSet: CBMC's --unwindset syntax, with the unwinding
// property's ids accepted too.
func TestParseUnwindSet(t *testing.T) {
	got, err := backend.ParseUnwindSet("main.0:12, main.unwind.1:3,f:2,g.recursion:4")
	if err != nil || backend.UnwindSetString(got) != "main.0:12,main.1:3,f:2,g:4" {
		t.Errorf("%v %v", got, err)
	}
	for _, bad := range []string{"", "main.0", "main.0:", "main.0:0", "main.0:x", ":3", "main.0:3,main.unwind.0:4"} {
		if _, err := backend.ParseUnwindSet(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	b := backend.Bounds{Unwind: 5, UnwindSet: []backend.LoopBound{{ID: "main.0", Key: "main.3", Bound: 12}}}
	if b.UnwindOf("main.3") != 12 || b.UnwindOf("main.9") != 5 || b.MaxUnwind() != 12 || backend.Uniform(b).String() != "unwind 12" ||
		b.WithUnwind(2).String() != "unwind 2" || b.Scaled(4).String() != "unwind 20, unwindset main.0:48" {
		t.Errorf("%s: %d %d %d %s %s %s", b, b.UnwindOf("main.3"), b.UnwindOf("main.9"), b.MaxUnwind(), backend.Uniform(b), b.WithUnwind(2), b.Scaled(4))
	}
}

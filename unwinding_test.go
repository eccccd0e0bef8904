package cegpv_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// TestUnwindingAssertions checks the testdata/progs programs with
// unwinding expectations (`// unwinding:` header lines) with
// cegpv.Check and unwinding assertions, in plain mode with the explicit
// search beside the backend, and in cegpv mode without the probe and the
// search (so that the CEGPV loop and the check of the unwinding properties
// after it decide): a failing
// bound is a FALSE of one of the expected unwinding properties whose run
// replays on the program as reaching that bound; where they hold, the
// answer is a proof because the unwinding assertions hold.
func TestUnwindingAssertions(t *testing.T) {
	needZ3(t)
	type cfg struct {
		mode     string
		probe    time.Duration
		explicit bool
	}
	cfgs := []cfg{{cegpv.ModePlain, 0, true}, {cegpv.ModeCEGPV, -1, false}}
	n := 0
	for _, pr := range progs(t) {
		for _, u := range pr.Unwinding {
			for _, c := range cfgs {
				n++
				name := fmt.Sprintf("%s/unwind%d/%s-probe%v-explicit%v", strings.TrimSuffix(pr.Name, ".c"), u.Unwind, c.mode, c.probe >= 0, c.explicit)
				t.Run(name, func(t *testing.T) {
					p := lower(t, pr.Path, pr.Src)
					ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
					defer cancel()
					rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}),
						Bounds: backend.Bounds{Unwind: u.Unwind, Threads: pr.Threads, UnwindingAssertions: true}},
						Mode: c.mode, Probe: c.probe, NoExplicit: !c.explicit})
					checkUnwindingReport(t, p, rep, u.Fails, u.Unwind)
				})
			}
		}
	}
	if n == 0 {
		t.Fatal("no program with unwinding expectations")
	}
}

// checkUnwindingReport checks a report against an expectation: a FALSE
// of one of fails (replayed, ending at the bound unwind), or, fails
// empty, a proof by the unwinding assertions.
func checkUnwindingReport(t *testing.T, p *program.Program, rep *cegpv.Report, fails []string, unwind int) {
	t.Helper()
	if len(fails) == 0 {
		if rep.Verdict != backend.Safe || !rep.Proof || !strings.HasPrefix(rep.ProofBy, "unwinding assertions hold for unwind") {
			t.Fatalf("%v (%s), proof %v by %q; want a proof by the unwinding assertions", rep.Verdict, rep.Reason, rep.Proof, rep.ProofBy)
		}
		return
	}
	if rep.Verdict != backend.Unsafe || !slices.Contains(fails, rep.Property) {
		t.Fatalf("%v %s (%s); want FALSE for one of %v", rep.Verdict, rep.Property, rep.Reason, fails)
	}
	out, err := interp.Replay(p, rep.Run)
	if err != nil || out.Status != interp.Violated || out.Prop != rep.Property || rep.Run.Unwind != unwind {
		t.Fatalf("the run does not replay to %s at unwind %d: %v %v (unwind %d)", rep.Property, unwind, out, err, rep.Run.Unwind)
	}
	t.Logf("%s by %s: %d steps", rep.Property, rep.DecidedBy, len(rep.Run.Steps))
}

// TestUnwindingProperty: each unwinding property checked alone (Property,
// in both modes and with CheckEach) gets its own verdict; the assertions
// checked alone are not violated by reaching a bound; without unwinding
// assertions the same program is a bounded TRUE.
func TestUnwindingProperty(t *testing.T) {
	needZ3(t)
	var pr = progs(t)[0]
	for _, q := range progs(t) {
		if q.Name == "locked_counter_safe.c" {
			pr = q
		}
	}
	p := lower(t, pr.Path, pr.Src)
	opts := func(uwa bool, prop string) cegpv.CheckOptions {
		return cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}), Property: prop,
			Bounds: backend.Bounds{Unwind: 2, Threads: pr.Threads, UnwindingAssertions: uwa}}}
	}
	ctx := context.Background()
	if got := cegpv.CheckedProperties(p, backend.Bounds{UnwindingAssertions: true}); strings.Join(got, " ") != "main.assertion.1 worker.unwind.0" {
		t.Errorf("properties %v", got)
	}
	for _, mode := range cegpv.Modes {
		o := opts(false, "worker.unwind.0") // the property turns unwinding assertions on for itself
		o.Mode = mode
		checkUnwindingReport(t, p, cegpv.Check(ctx, p, o), []string{"worker.unwind.0"}, 2)
		o = opts(true, "main.assertion.1")
		o.Mode = mode
		if rep := cegpv.Check(ctx, p, o); rep.Verdict != backend.Safe || rep.Proof {
			t.Errorf("%s: main.assertion.1 alone: %v (%s) proof %v; want a bounded TRUE", mode, rep.Verdict, rep.Reason, rep.Proof)
		}
	}
	if rep := cegpv.Check(ctx, p, opts(false, "")); rep.Verdict != backend.Safe || rep.Proof {
		t.Errorf("without unwinding assertions: %v (%s) proof %v; want a bounded TRUE", rep.Verdict, rep.Reason, rep.Proof)
	}
	if rep := cegpv.Check(ctx, p, opts(true, "worker.unwind.7")); rep.Verdict != backend.Unknown || !strings.Contains(rep.Reason, "worker.unwind.0") {
		t.Errorf("an unknown unwinding property: %v (%s)", rep.Verdict, rep.Reason)
	}
	each := cegpv.CheckEach(ctx, p, opts(true, ""), 2)
	if each.Verdict != backend.Unsafe || strings.Join(each.IDs, " ") != "main.assertion.1 worker.unwind.0" {
		t.Fatalf("each: %v %v", each.Verdict, each.IDs)
	}
	if r := each.Reports[0]; r.Verdict != backend.Safe {
		t.Errorf("each: main.assertion.1 %v (%s)", r.Verdict, r.Reason)
	}
	checkUnwindingReport(t, p, each.Reports[1], []string{"worker.unwind.0"}, 2)
}

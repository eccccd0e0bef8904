package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/witness"
)

// unwindingReport is the verdict on testdata/progs/locked_counter_safe.c
// at unwind 2 with unwinding assertions: the worker's loop (two
// iterations) reaches its bound; the run is the explicit search's
// (deterministic), replayed as every FALSE is.
func unwindingReport(t *testing.T) *cegpv.Report {
	t.Helper()
	file := "../testdata/progs/locked_counter_safe.c"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.Lower(file, src, frontend.Options{Model: program.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	xr, err := explicit.Explore(context.Background(), p, explicit.ExploreOptions{Unwind: 2, Threads: 2, UnwindingAssertions: true})
	if err != nil || xr.Status != explicit.ViolationFound {
		t.Fatalf("%v %v", xr, err)
	}
	run, err := interp.Confirm(p, xr.Run)
	if err != nil {
		t.Fatal(err)
	}
	return &cegpv.Report{Verdict: backend.Unsafe, Property: run.Violated, Run: run, Program: p,
		Bounds: backend.Bounds{Unwind: 2, Threads: 2, UnwindingAssertions: true}, DecidedBy: cegpv.BySearch,
		Result: backend.Result{Stats: backend.Stats{States: xr.States}}}
}

// TestUnwindingOutputs: a FALSE of an unwinding property names the loop
// and its line, ends in FALSE(unwinding-assertion) with the property, and
// its trace ends at the loop's back edge (golden text and JSON); the page
// says which loop reaches its bound; no violation witness is written
// for it (an error naming the property); --each-property's results list
// the unwinding property with its line (CBMC's ** Results:).
func TestUnwindingOutputs(t *testing.T) {
	rep := unwindingReport(t)
	o := &Outcome{File: "../testdata/progs/locked_counter_safe.c", Mode: "plain", Backend: "builtin", Program: rep.Program}
	o.Fill(rep)
	if o.Property != "worker.unwind.0" || o.Description != "unwinding assertion loop 0 of worker (line 16)" {
		t.Fatalf("property %s: %q", o.Property, o.Description)
	}
	var text, js bytes.Buffer
	if err := (Text{W: &text}).Write(o); err != nil {
		t.Fatal(err)
	}
	if err := (JSON{W: &js}).Write(o); err != nil {
		t.Fatal(err)
	}
	golden(t, "unwinding.golden.txt", text.Bytes())
	golden(t, "unwinding.golden.json", js.Bytes())
	last := o.Trace[len(o.Trace)-1]
	if last.Label != "worker.10" || last.Line != 16 || !strings.HasPrefix(last.Statement, "goto") {
		t.Errorf("the trace ends at %+v, not at the loop's back edge", last)
	}
	var page bytes.Buffer
	if err := WriteCex(&page, &Cex{File: o.File, Verdict: o.Verdict, Property: o.Property, Bounds: o.Bounds, Program: o.Program, Steps: o.Trace}); err != nil {
		t.Fatal(err)
	}
	if props := wellFormed(t, page.Bytes(), "prop"); len(props) != 1 || !strings.Contains(props[0], "worker.unwind.0 violated: unwinding assertion loop 0 of worker (line 16), a run reaches unwind 2") {
		t.Errorf("page: %q", props)
	}
	if !strings.Contains(page.String(), "FALSE(unwinding-assertion)") {
		t.Error("the page's verdict is not FALSE(unwinding-assertion)")
	}
	path := filepath.Join(t.TempDir(), "w.graphml")
	info := witness.Info{Specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )", Producer: "cegpv test", Model: program.ILP32}
	if err := (Witness{Path: path, Info: info}).Write(o); err == nil || !strings.Contains(err.Error(), "worker.unwind.0 is an unwinding assertion") {
		t.Errorf("witness: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a witness was written")
	}
	var each bytes.Buffer
	safe := &Outcome{Property: "main.assertion.1", Verdict: "TRUE", Program: o.Program}
	Text{W: &each}.WriteEach(&Properties{Verdict: "FALSE", Properties: []*Outcome{safe, o}})
	if !strings.Contains(each.String(), "** Results:\n[main.assertion.1] line 30 assertion counter == 4: SUCCESS\n[worker.unwind.0] line 16 unwinding assertion loop 0: FAILURE\n\n** 1 of 2 failed") {
		t.Errorf("each property:\n%s", each.String())
	}
}

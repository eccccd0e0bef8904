package external

import (
	"errors"
	"strings"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

const guardSrc = `#include <assert.h>
int __VERIFIER_nondet_int(void);
int x;
int main(void) {
  if (__VERIFIER_nondet_int() > 5) x = 1;
  assert(x == 0);
  return 0;
}
`

// TestProbes: nondet values get probes on their own line; no line moves.
func TestProbes(t *testing.T) {
	p, err := frontend.Lower("g.c", []byte(guardSrc), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Print(p, t.TempDir(), "prog.c", PrintOptions{InlineAtomic: true})
	if err != nil {
		t.Fatal(err)
	}
	var plain strings.Builder
	lm, _ := program.Print(&plain, p)
	a, b := strings.Split(plain.String(), "\n"), strings.Split(string(pr.Text), "\n")
	if len(a) != len(b) || len(lm) != len(pr.Lines) {
		t.Fatalf("lines moved: %d vs %d", len(a), len(b))
	}
	if len(pr.Probes) != 1 {
		t.Fatalf("probes %v", pr.Probes)
	}
	for line, vars := range pr.Probes {
		if !strings.Contains(b[line-1], "("+vars[0]+" = __VERIFIER_nondet_int())") {
			t.Errorf("line %d: %q", line, b[line-1])
		}
		// a trace drawing 7 takes the branch, x = 1, the assertion fails
		tr := &Trace{States: []State{{Thread: 0, File: "prog.c", Line: line, Lhs: vars[0], Value: "7"}},
			Violation: &State{Thread: 0, File: "prog.c", Line: assertLine(t, p, pr)}}
		run, err := MapTrace("fake", p, pr, tr)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := interp.Replay(p, run); err != nil || out.Status != interp.Violated {
			t.Errorf("replay: %v", err)
		}
		// drawing 3 does not lead to the failure: BadOutput, never a run
		tr.States[0].Value = "3"
		if _, err := MapTrace("fake", p, pr, tr); program.KindOf(err) != program.BadOutput || !strings.Contains(err.Error(), "fake") {
			t.Errorf("got %v, want a BadOutput naming the tool", err)
		}
	}
	if err := pr.Remove(); err != nil {
		t.Error(err)
	}
}

func assertLine(t *testing.T, p *program.Program, pr *Printed) int {
	ix := program.NewIndex(p)
	for line, l := range pr.Lines {
		if ix.Instr[l].Op == program.OpAssert {
			return line
		}
	}
	t.Fatal("no assertion")
	return 0
}

func TestIntValue(t *testing.T) {
	for s, want := range map[string]int64{"-1412567295 (10101011 11001101 11101111 00000001)": -1412567295, "TRUE": 1, "4294967295": 4294967295, "0": 0, "0xFFFFFFFFFFFFFFFF": -1, "0x10": 16} {
		if v, ok := IntValue(s); !ok || v.Bits != want {
			t.Errorf("%q: %v %v", s, v, ok)
		}
	}
	if _, ok := IntValue("&x"); ok {
		t.Error("&x read as an integer")
	}
}

// TestNullHandle: a pthread_create with a null handle gets a local handle
// (ESBMC's pthread_create writes through it); no line moves.
func TestNullHandle(t *testing.T) {
	src := `#include <pthread.h>
void *w(void *a) { return 0; }
int main(void) { pthread_create(0, 0, w, 0); return 0; }
`
	p, err := frontend.Lower("h.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Print(p, t.TempDir(), "prog.c", PrintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Remove()
	txt := string(pr.Text)
	if !strings.Contains(txt, "pthread_create(&__cegpv_handle, ") || !strings.Contains(txt, "{ pthread_t __cegpv_handle;") || strings.Contains(txt, "pthread_create(0, ") {
		t.Errorf("printed:\n%s", txt)
	}
	var plain strings.Builder
	program.Print(&plain, p)
	if strings.Count(plain.String(), "\n") != strings.Count(txt, "\n") {
		t.Error("lines moved")
	}
}

const loopSrc = `int __VERIFIER_nondet_int(void);
int f(int n) { if (n <= 0) return 0; return f(n - 1); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n) i++;
  return f(2);
}
`

// TestViolationUnwinding: a checker's failed unwinding assertion (its
// comment and the back edge's or the call's line, as ESBMC and CBMC give
// them) is followed to the bound into an Unsafe result for the unwinding
// property, with the trace's value of n; a trace that leads no thread to
// the bound is BadOutput (unfollowable); another loop than the one
// selected is Unknown; without unwinding assertions it is BadOutput.
func TestViolationUnwinding(t *testing.T) {
	p, err := frontend.Lower("l.c", []byte(loopSrc), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Print(p, t.TempDir(), "prog.c", PrintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Remove()
	u, _ := program.UnwindingByID(p, "main.unwind.0")
	lineOf := func(l program.Label) int {
		for line, x := range pr.Lines {
			if x == l {
				return line
			}
		}
		t.Fatalf("%s not printed", l)
		return 0
	}
	var probe State
	for line, vars := range pr.Probes {
		probe = State{Thread: 0, File: "prog.c", Line: line, Lhs: vars[0]}
	}
	bd := func(only string) backend.Bounds {
		return backend.Bounds{Unwind: 2, UnwindingAssertions: true, UnwindingOnly: only}
	}
	loopTrace := func(n string) *Trace {
		s := probe
		s.Value = n
		return &Trace{States: []State{s}, Violation: &State{Thread: 0, File: "prog.c", Line: lineOf(u.Label)}, Comment: "unwinding assertion loop 0"}
	}
	res, err := Violation("fake", p, pr, loopTrace("5"), bd(""), backend.Result{})
	if err != nil || res.Verdict != backend.Unsafe || res.Run.Violated != "main.unwind.0" || res.Run.Unwind != 2 {
		t.Fatalf("loop: %v %v", res, err)
	}
	if out, err := interp.Replay(p, res.Run); err != nil || out.Prop != "main.unwind.0" {
		t.Errorf("replay: %v %v", out, err)
	}
	// n = 1: the loop ends before its bound
	if _, err := Violation("fake", p, pr, loopTrace("1"), bd(""), backend.Result{}); program.KindOf(err) != program.BadOutput || !errors.Is(err, ErrUnfollowable) {
		t.Errorf("n = 1: %v, want an unfollowable trace", err)
	}
	if res, err := Violation("fake", p, pr, loopTrace("5"), bd("f.recursion"), backend.Result{}); err != nil || res.Verdict != backend.Unknown || !strings.Contains(res.Reason, "not the one checked") {
		t.Errorf("another property selected: %v %v", res, err)
	}
	if _, err := Violation("fake", p, pr, loopTrace("5"), backend.Bounds{Unwind: 2}, backend.Result{}); program.KindOf(err) != program.BadOutput {
		t.Errorf("without unwinding assertions: %v", err)
	}
	// recursion: f(2) calls f(1) (two activations), f(1) calls f(0): the
	// third at unwind 2, reported at the call's line
	var call program.Label
	for _, in := range p.Func("f").Body {
		if in.Op == program.OpCall {
			call = in.Label
		}
	}
	tr := loopTrace("0")
	tr.Violation.Line, tr.Comment = lineOf(call), "recursion unwinding assertion"
	res, err = Violation("fake", p, pr, tr, bd(""), backend.Result{})
	if err != nil || res.Verdict != backend.Unsafe || res.Run.Violated != "f.recursion" {
		t.Fatalf("recursion: %v %v", res, err)
	}
}

// TestReadProbes: in a program with threads, a goto whose guard reads
// shared memory prints its guard into a read probe (no line moves), and
// the probe's trace state places the branch between the other thread's
// stores: main reads x while the worker has it at 1, so the error is
// reached; followed without that state, the branch would run at the
// violation, after x is back at 0, and the trace could not be followed.
// A program without threads gets no read probe.
func TestReadProbes(t *testing.T) {
	const src = `#include <pthread.h>
extern void reach_error(void);
int x;
void *w(void *a) { x = 1; x = 0; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  if (x == 1) reach_error();
  return 0;
}
`
	p, err := frontend.Lower("r.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Print(p, t.TempDir(), "prog.c", PrintOptions{InlineAtomic: true})
	if err != nil {
		t.Fatal(err)
	}
	var plain strings.Builder
	program.Print(&plain, p)
	text := strings.Split(string(pr.Text), "\n")
	if n := len(strings.Split(plain.String(), "\n")); n != len(text) {
		t.Fatalf("lines moved: %d vs %d", n, len(text))
	}
	if len(pr.Reads) != 1 {
		t.Fatalf("read probes on lines %v, want one (main's guard)", pr.Reads)
	}
	var rd int
	for line := range pr.Reads {
		rd = line
	}
	if !strings.Contains(text[rd-1], "if (("+ReadName(rd)+" = (") {
		t.Fatalf("line %d: %q", rd, text[rd-1])
	}
	lineOf := func(s string) int {
		for i, l := range text {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("no line %q", s)
		return 0
	}
	set, reset := lineOf("x = 1;"), lineOf("x = 0;")
	states := []State{
		{Thread: 1, File: "prog.c", Line: set, Lhs: "x", Value: "1"},
		{Thread: 0, File: "prog.c", Line: rd, Lhs: ReadName(rd), Value: "0"},
		{Thread: 1, File: "prog.c", Line: reset, Lhs: "x", Value: "0"},
	}
	tr := &Trace{States: states, Violation: &State{Thread: 0, File: "prog.c", Line: assertLine(t, p, pr)}}
	run, err := MapTrace("fake", p, pr, tr)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := interp.Replay(p, run); err != nil || out.Status != interp.Violated {
		t.Errorf("replay: %v", err)
	}
	// the same trace without the probe's state cannot be followed
	tr.States = []State{states[0], states[2]}
	if _, err := MapTrace("fake", p, pr, tr); program.KindOf(err) != program.BadOutput {
		t.Errorf("without the read probe's state: %v, want BadOutput", err)
	}

	q, err := frontend.Lower("g.c", []byte(guardSrc), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pq, err := Print(q, t.TempDir(), "prog.c", PrintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pq.Reads) != 0 || strings.Contains(string(pq.Text), "__cegpv_rd_") {
		t.Errorf("a program without threads got read probes: %v", pq.Reads)
	}
}

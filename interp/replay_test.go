package interp

import (
	"strings"
	"testing"

	P "cegpv.dev/cegpv/program"
)

type variant int

const (
	plain variant = iota
	locked
	atomicSection
	atomicFunc
)

// counterProgram: two workers increment cnt (tmp = cnt; cnt = tmp + 1),
// main joins both and asserts cnt == 2.
func counterProgram(t *testing.T, v variant) *P.Program {
	globals := []*P.Var{{Name: "cnt", Type: P.IntT}, {Name: "m", Type: P.MutexType}}
	w := newFunc("worker", voidp, &P.Var{Name: "arg", Type: voidp})
	var inc *fb
	if v == atomicFunc {
		inc = newFunc("__VERIFIER_atomic_inc", P.VoidType)
		inc.f.Atomic = true
		tmp := inc.local("t", P.IntT)
		inc.assign(tmp, g("cnt", P.IntT))
		inc.assign(g("cnt", P.IntT), bin(P.Add, tmp, ci(1)))
		inc.ret(nil)
	}
	tmp := w.local("tmp", P.IntT) // worker.0
	switch v {
	case locked:
		w.op(P.OpLock, addr(g("m", P.MutexType))) // worker.1
	case atomicSection:
		w.add(&P.Instr{Op: P.OpAtomicBegin})
	}
	if v == atomicFunc {
		w.add(&P.Instr{Op: P.OpCall, Func: fref(inc.f)})
	} else {
		w.assign(tmp, g("cnt", P.IntT))
		w.assign(g("cnt", P.IntT), bin(P.Add, tmp, ci(1)))
	}
	switch v {
	case locked:
		w.op(P.OpUnlock, addr(g("m", P.MutexType)))
	case atomicSection:
		w.add(&P.Instr{Op: P.OpAtomicEnd})
	}
	w.ret(nullp(voidp))

	m := newFunc("main", P.IntT)
	h1 := m.local("h1", P.IntT)                  // main.0
	h2 := m.local("h2", P.IntT)                  // main.1
	m.spawn(h1, w.f, nullp(voidp))               // main.2
	m.spawn(h2, w.f, nullp(voidp))               // main.3
	m.op(P.OpJoin, h1)                           // main.4
	m.op(P.OpJoin, h2)                           // main.5
	m.assert(bin(P.Eq, g("cnt", P.IntT), ci(2))) // main.6
	m.ret(ci(0))                                 // main.7
	fs := []*fb{w, m}
	if inc != nil {
		fs = append([]*fb{inc}, fs...)
	}
	return prog(t, globals, fs...)
}

var lostUpdate = steps("0:main.0", "0:main.1", "0:main.2", "0:main.3",
	"1:worker.0", "1:worker.1", "2:worker.0", "2:worker.1", "1:worker.2", "1:worker.3",
	"2:worker.2", "2:worker.3", "0:main.4", "0:main.5", "0:main.6")

func TestReplayLostUpdate(t *testing.T) {
	p := counterProgram(t, plain)
	run := &P.Run{Steps: lostUpdate, Violated: "main.assertion.1"}
	out, err := Replay(p, run)
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if out.Status != Violated || out.Prop != "main.assertion.1" || out.Step != len(lostUpdate)-1 {
		t.Fatalf("outcome %v %s at %d, want violated main.assertion.1 at %d", out.Status, out.Prop, out.Step, len(lostUpdate)-1)
	}
	if out.Run.Violated != "main.assertion.1" {
		t.Errorf("Run.Violated = %q", out.Run.Violated)
	}
	// writes are filled in with the naming conventions
	checks := []struct {
		step int
		loc  string
		val  int64
	}{
		{2, "main::h1", 1}, {3, "main::h2", 2}, {2, "worker::arg", 0},
		{5, "worker::tmp", 0}, {7, "worker::tmp", 0}, {8, "cnt", 1}, {10, "cnt", 1},
	}
	for _, c := range checks {
		v, ok := findWrite(out.Run.Steps[c.step], c.loc)
		if !ok || v.Bits != c.val || v.Obj != "" {
			t.Errorf("step %d: write %s = %v (found %v), want %d; writes %v", c.step, c.loc, v, ok, c.val, out.Run.Steps[c.step].Assigned)
		}
	}
	if out.Final["cnt"].Bits != 1 {
		t.Errorf("final cnt = %v", out.Final["cnt"])
	}
	// the replayed run replays again, with no write differences
	again, err := Replay(p, out.Run)
	if err != nil {
		t.Fatalf("replay of the replayed run: %v", err)
	}
	if len(again.Diffs) != 0 {
		t.Errorf("diffs on the executed run: %v", again.Diffs)
	}
}

func TestReplayWrongRuns(t *testing.T) {
	p := counterProgram(t, plain)
	sequential := steps("0:main.0", "0:main.1", "0:main.2", "0:main.3",
		"1:worker.0", "1:worker.1", "1:worker.2", "1:worker.3",
		"2:worker.0", "2:worker.1", "2:worker.2", "2:worker.3", "0:main.4", "0:main.5", "0:main.6")
	cases := []struct {
		name  string
		run   *P.Run
		step  int
		words []string
	}{
		{"assertion holds", &P.Run{Steps: sequential, Violated: "main.assertion.1"}, 14, []string{"assertion", "holds"}},
		{"wrong label", &P.Run{Steps: steps("0:main.0", "0:main.2")}, 1, []string{"thread 0 is at main.1"}},
		{"no such thread", &P.Run{Steps: steps("0:main.0", "1:worker.0")}, 1, []string{"thread 1 does not exist"}},
		{"unknown label", &P.Run{Steps: steps("0:main.0", "0:nowhere.1")}, 1, []string{"no instruction has label"}},
		{"join too early", &P.Run{Steps: steps("0:main.0", "0:main.1", "0:main.2", "0:main.3", "0:main.4")}, 4, []string{"not enabled", "has not ended"}},
		{"wrong prop", &P.Run{Steps: lostUpdate, Violated: "main.assertion.7"}, 14, []string{"main.assertion.7"}},
		{"not ending in assert", &P.Run{Steps: lostUpdate[:14], Violated: "main.assertion.1"}, 13, []string{"not an assertion"}},
		{"surplus nondet", &P.Run{Steps: []P.Step{{Thread: 0, Label: "main.0", Nondet: []P.Value{{Bits: 1}, {Bits: 2}}}}}, 0, []string{"draws 1 nondet values, the run gives 2"}},
		{"ended thread", &P.Run{Steps: append(append([]P.Step(nil), sequential[:8]...), steps("1:worker.3")...)}, 8, []string{"already ended"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Replay(p, c.run)
			if err == nil {
				t.Fatalf("Replay accepted a wrong run; outcome %v", out.Status)
			}
			if P.KindOf(err) != P.Internal {
				t.Errorf("error kind %v, want Internal", P.KindOf(err))
			}
			d := AsDivergence(err)
			if d == nil {
				t.Fatalf("no Divergence in %v", err)
			}
			if d.Step != c.step {
				t.Errorf("divergence at step %d, want %d: %v", d.Step, c.step, err)
			}
			for _, w := range c.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// the sequential run without the claim replays and completes with cnt == 2
	out, err := Replay(p, &P.Run{Steps: sequential})
	if err != nil || out.Status != Completed || out.Final["cnt"].Bits != 2 {
		t.Fatalf("sequential run: %v %+v", err, out)
	}
}

func TestReplayAtomicityAndLocks(t *testing.T) {
	// atomic section: worker.1 atomic_begin, worker.2 tmp=cnt, worker.3 cnt=..., worker.4 atomic_end
	p := counterProgram(t, atomicSection)
	pre := steps("0:main.0", "0:main.1", "0:main.2", "0:main.3", "1:worker.0", "1:worker.1", "1:worker.2")
	_, err := Replay(p, &P.Run{Steps: append(append([]P.Step(nil), pre...), steps("2:worker.0")...)})
	if d := AsDivergence(err); d == nil || d.Step != 7 || !strings.Contains(d.Reason, "atomic section") {
		t.Errorf("interleaving into an atomic section: %v", err)
	}
	_, err = Replay(p, &P.Run{Steps: append(append([]P.Step(nil), pre...), steps("0:main.4")...)})
	if d := AsDivergence(err); d == nil || d.Step != 7 || !strings.Contains(d.Reason, "atomic section") {
		t.Errorf("main running during an atomic section: %v", err)
	}
	ok := append(append([]P.Step(nil), pre...), steps("1:worker.3", "1:worker.4", "2:worker.0")...)
	if _, err := Replay(p, &P.Run{Steps: ok}); err != nil {
		t.Errorf("run after the section ended: %v", err)
	}

	// atomic function: the call runs without interruption until it returns
	p = counterProgram(t, atomicFunc)
	pre = steps("0:main.0", "0:main.1", "0:main.2", "0:main.3", "1:worker.0", "1:worker.1", "1:__VERIFIER_atomic_inc.0", "1:__VERIFIER_atomic_inc.1")
	_, err = Replay(p, &P.Run{Steps: append(append([]P.Step(nil), pre...), steps("2:worker.0")...)})
	if d := AsDivergence(err); d == nil || d.Step != 8 || !strings.Contains(d.Reason, "atomic section") {
		t.Errorf("interleaving into an atomic function: %v", err)
	}
	ok = append(append([]P.Step(nil), pre...), steps("1:__VERIFIER_atomic_inc.2", "1:__VERIFIER_atomic_inc.3", "2:worker.0", "1:worker.2")...)
	if _, err := Replay(p, &P.Run{Steps: ok}); err != nil {
		t.Errorf("run after the atomic call returned: %v", err)
	}

	// locks: worker.1 lock, worker.2..3 increment, worker.4 unlock
	p = counterProgram(t, locked)
	pre = steps("0:main.0", "0:main.1", "0:main.2", "0:main.3", "1:worker.0", "1:worker.1", "1:worker.2", "2:worker.0")
	_, err = Replay(p, &P.Run{Steps: append(append([]P.Step(nil), pre...), steps("2:worker.1")...)})
	if d := AsDivergence(err); d == nil || d.Step != 8 || !strings.Contains(d.Reason, "is held") {
		t.Errorf("lock of a held mutex: %v", err)
	}
	ok = append(append([]P.Step(nil), pre...), steps("1:worker.3", "1:worker.4", "2:worker.1")...)
	out, err := Replay(p, &P.Run{Steps: ok})
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	if v, found := findWrite(out.Run.Steps[len(ok)-1], "m"); !found || v.Bits != 1 {
		t.Errorf("lock step writes %v", out.Run.Steps[len(ok)-1].Assigned)
	}
}

func TestSimulateCounter(t *testing.T) {
	for _, v := range []variant{plain, locked, atomicSection, atomicFunc} {
		p := counterProgram(t, v)
		found := 0
		for seed := int64(0); seed < 300; seed++ {
			out, err := Simulate(p, SimOptions{Seed: seed, ContextSwitchProb: 0.5})
			if err != nil {
				t.Fatal(err)
			}
			switch out.Status {
			case Violated:
				found++
				r, err := Replay(p, out.Run)
				if err != nil {
					t.Fatalf("variant %d seed %d: simulated run does not replay: %v", v, seed, err)
				}
				if r.Status != Violated || len(r.Diffs) != 0 {
					t.Fatalf("variant %d seed %d: replay %v diffs %v", v, seed, r.Status, r.Diffs)
				}
			case Completed:
				if out.Final["cnt"].Bits != 2 {
					t.Fatalf("completed with cnt = %v", out.Final["cnt"])
				}
				if _, err := Replay(p, out.Run); err != nil {
					t.Fatalf("completed run does not replay: %v", err)
				}
			default:
				t.Fatalf("variant %d seed %d: status %v", v, seed, out.Status)
			}
		}
		if v == plain && found == 0 {
			t.Error("no seed found the lost update")
		}
		if v != plain && found > 0 {
			t.Errorf("variant %d: %d seeds violate a protected counter", v, found)
		}
	}
}

// memProgram exercises heap, pointers through a thread argument, structs,
// arrays, and the execution errors.
func memProgram(t *testing.T, bug string) *P.Program {
	node := &P.Type{Kind: P.Struct, Name: "node", Size: 8}
	nodep := P.PointerTo(node, ptrSize)
	node.Fields = []P.Field{{Name: "val", Type: P.IntT}, {Name: "next", Type: nodep}}
	P.LayOut(node)
	arr := P.ArrayOf(P.IntT, 3)
	globals := []*P.Var{{Name: "a", Type: arr}, {Name: "idx", Type: P.IntT, Init: ci(1)}}

	w := newFunc("worker", voidp, &P.Var{Name: "arg", Type: voidp})
	n := w.local("n", nodep)                                          // worker.0
	w.assign(n, cast(l("arg", voidp), nodep))                         // worker.1
	val := &P.FieldSel{X: deref(n), Name: "val", Field: 0, T: P.IntT} //
	w.assign(val, bin(P.Add, val, ci(10)))                            // worker.2
	w.ret(nullp(voidp))                                               // worker.3

	m := newFunc("main", P.IntT)
	h := m.local("h", P.IntT)                                                                                                      // main.0
	p := m.local("p", nodep)                                                                                                       // main.1
	m.add(&P.Instr{Op: P.OpAlloc, Lhs: p, Rhs: ci(1)})                                                                             // main.2
	m.assign(&P.FieldSel{X: deref(p), Name: "val", Field: 0, T: P.IntT}, ci(5))                                                    // main.3
	m.assign(&P.FieldSel{X: deref(p), Name: "next", Field: 1, T: nodep}, nullp(nodep))                                             // main.4
	m.spawn(h, w.f, cast(p, voidp))                                                                                                // main.5
	m.op(P.OpJoin, h)                                                                                                              // main.6
	m.assign(&P.Index{X: g("a", arr), I: g("idx", P.IntT), T: P.IntT}, &P.FieldSel{X: deref(p), Name: "val", Field: 0, T: P.IntT}) // main.7
	switch bug {
	case "":
		m.op(P.OpFree, p) // main.8
		m.assert(bin(P.Eq, &P.Index{X: g("a", arr), I: ci(1), T: P.IntT}, ci(15)))
	case "uaf":
		m.op(P.OpFree, p)
		m.assert(bin(P.Eq, &P.FieldSel{X: deref(p), Name: "val", Field: 0, T: P.IntT}, ci(15)))
	case "null":
		m.assign(p, &P.FieldSel{X: deref(p), Name: "next", Field: 1, T: nodep})
		m.assert(bin(P.Eq, &P.FieldSel{X: deref(p), Name: "val", Field: 0, T: P.IntT}, ci(15)))
	case "index":
		m.assign(g("idx", P.IntT), ci(3))
		m.assert(bin(P.Eq, &P.Index{X: g("a", arr), I: g("idx", P.IntT), T: P.IntT}, ci(15)))
	case "double":
		m.op(P.OpFree, p)
		m.op(P.OpFree, p)
	}
	m.ret(ci(0))
	return prog(t, globals, w, m)
}

func TestHeapAndErrors(t *testing.T) {
	base := steps("0:main.0", "0:main.1", "0:main.2", "0:main.3", "0:main.4", "0:main.5",
		"1:worker.0", "1:worker.1", "1:worker.2", "1:worker.3", "0:main.6", "0:main.7", "0:main.8", "0:main.9")
	out, err := Replay(memProgram(t, ""), &P.Run{Steps: base})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != Completed || out.Final["a[1]"].Bits != 15 {
		t.Fatalf("status %v, a[1] = %v", out.Status, out.Final["a[1]"])
	}
	if v, ok := findWrite(out.Run.Steps[2], "main::p"); !ok || v.Obj != "heap#1" || v.Off != 0 {
		t.Errorf("alloc writes %v", out.Run.Steps[2].Assigned)
	}
	if v, ok := findWrite(out.Run.Steps[8], "heap#1.val"); !ok || v.Bits != 15 {
		t.Errorf("worker writes %v", out.Run.Steps[8].Assigned)
	}
	if v, ok := findWrite(out.Run.Steps[5], "worker::arg"); !ok || v.Obj != "heap#1" {
		t.Errorf("spawn writes %v", out.Run.Steps[5].Assigned)
	}
	if v, ok := findWrite(out.Run.Steps[11], "a[1]"); !ok || v.Bits != 15 {
		t.Errorf("main.7 writes %v", out.Run.Steps[11].Assigned)
	}

	for _, bug := range []string{"uaf", "null", "index", "double"} {
		p := memProgram(t, bug)
		run := &P.Run{Steps: base[:len(base)-1]}
		run.Steps = append(run.Steps, steps("0:main.9")...)
		out, err := Replay(p, run)
		if err != nil {
			t.Fatalf("%s: %v", bug, err)
		}
		if out.Status != Errored || out.Err == nil || out.Err.Step != len(run.Steps)-1 {
			t.Fatalf("%s: status %v err %v", bug, out.Status, out.Err)
		}
		t.Logf("%s: %v", bug, out.Err)
		// claiming a violation there is a divergence, not a confirmed bug
		if bug != "double" {
			run.Violated = "main.assertion.1"
			if _, err := Replay(p, run); AsDivergence(err) == nil || !strings.Contains(err.Error(), "execution error") {
				t.Errorf("%s: claimed violation over an execution error: %v", bug, err)
			}
		}
		// Simulate reports it as an execution error too
		s, err := Simulate(p, SimOptions{Seed: 1})
		if err != nil || s.Status != Errored {
			t.Errorf("%s: Simulate gives %v, %v", bug, s.Status, err)
		}
	}
}

func TestNondetAndMultiGoto(t *testing.T) {
	// main: x = nondet_int(); y = nondet_uchar() + (x > 0 ? 1 : nondet)
	//       if (x == 0x7a3f19c2) goto {L1, L2} ; L1: skip; assert(x != 0x7a3f19c2); L2: skip; return
	uc := P.UCharType
	m := newFunc("main", P.IntT)
	x := m.local("x", P.IntT)                              // main.0
	y := m.local("y", P.IntT)                              // main.1
	m.assign(x, &P.Nondet{T: P.IntT})                      // main.2
	m.assign(y, bin(P.Add, cast(&P.Nondet{T: uc}, P.IntT), // main.3
		&P.CondExpr{C: bin(P.Gt, x, ci(0)), X: ci(1), Y: &P.Nondet{T: P.IntT}, T: P.IntT}))
	m.add(&P.Instr{Op: P.OpGoto, Rhs: bin(P.Eq, x, ci(0x7a3f19c2)), Targets: []P.Label{"main.l1", "main.l2"}}) // main.4
	m.add(&P.Instr{Op: P.OpReturn, Rhs: ci(0)})                                                                // main.5
	m.add(&P.Instr{Op: P.OpSkip, Label: "main.l1"})
	m.assert(bin(P.Ne, x, ci(0x7a3f19c2)))
	m.add(&P.Instr{Op: P.OpSkip, Label: "main.l2"})
	m.ret(ci(0))
	p := prog(t, nil, m)

	run := &P.Run{Steps: []P.Step{
		{Thread: 0, Label: "main.0", Nondet: []P.Value{{Bits: 99}}},
		{Thread: 0, Label: "main.1"},
		{Thread: 0, Label: "main.2", Nondet: []P.Value{{Bits: 0x7a3f19c2}}},
		{Thread: 0, Label: "main.3", Nondet: []P.Value{{Bits: 300}, {Bits: 7}}}, // 300 truncates to 44; the unevaluated branch's nondet is still drawn
		{Thread: 0, Label: "main.4"},
		{Thread: 0, Label: "main.l1"},
		{Thread: 0, Label: "main.7"},
	}, Violated: "main.assertion.1"}
	out, err := Replay(p, run)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := findWrite(out.Run.Steps[0], "main::x"); v.Bits != 99 {
		t.Errorf("decl writes %v", out.Run.Steps[0].Assigned)
	}
	if v, _ := findWrite(out.Run.Steps[1], "main::y"); v.Bits != 0 {
		t.Errorf("decl with missing nondet writes %v", out.Run.Steps[1].Assigned)
	}
	if v, _ := findWrite(out.Run.Steps[3], "main::y"); v.Bits != 45 {
		t.Errorf("y = %v, want 45", v)
	}
	// the other target, named by the next step, is taken just as well
	run2 := &P.Run{Steps: append(append([]P.Step(nil), run.Steps[:5]...), steps("0:main.l2", "0:main.9")...)}
	if _, err := Replay(p, run2); err != nil {
		t.Errorf("goto to the second target: %v", err)
	}
	// with another value the goto falls through
	run3 := &P.Run{Steps: append([]P.Step(nil), run.Steps[:5]...)}
	run3.Steps[2] = P.Step{Thread: 0, Label: "main.2", Nondet: []P.Value{{Bits: 0x7a3f19c3}}}
	run3.Steps = append(run3.Steps, steps("0:main.l1")...)
	if _, err := Replay(p, run3); AsDivergence(err) == nil || AsDivergence(err).Step != 5 {
		t.Errorf("goto not taken but run jumps: %v", err)
	}
	// random simulation does not find the one value (that is what BMC is for)
	for seed := int64(0); seed < 200; seed++ {
		out, err := Simulate(p, SimOptions{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status == Violated {
			t.Fatalf("seed %d found the magic value?", seed)
		}
		if _, err := Replay(p, out.Run); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

func TestSimulateUnwind(t *testing.T) {
	// main: x = 0; head: x = x + 1; goto head (back edge)
	m := newFunc("main", P.IntT)
	m.assign(g("x", P.IntT), ci(0))
	m.add(&P.Instr{Op: P.OpSkip, Label: "main.head"})
	m.assign(g("x", P.IntT), bin(P.Add, g("x", P.IntT), ci(1)))
	m.add(&P.Instr{Op: P.OpGoto, Targets: []P.Label{"main.head"}})
	p := prog(t, []*P.Var{{Name: "x", Type: P.IntT}}, m)
	out, err := Simulate(p, SimOptions{Seed: 1, Unwind: 3})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != Bounded || out.Final["x"].Bits != 3 {
		t.Errorf("status %v, x = %v; want bounded with x = 3 (the body runs 3 times, 2 back edges, as in CBMC)", out.Status, out.Final["x"])
	}
	out, err = Simulate(p, SimOptions{Seed: 1, MaxSteps: 100})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StepLimit || len(out.Run.Steps) != 100 {
		t.Errorf("status %v after %d steps", out.Status, len(out.Run.Steps))
	}
	if _, err := Replay(p, out.Run); err != nil {
		t.Error(err)
	}
}

// A thread that has entered an atomic section and executed nothing in it
// (here it waits at its opening assume, the SV-COMP lock idiom) has in
// effect not entered yet: Replay lets the other threads run, until it
// executes its first inner step.
func TestReplayEnteredAtomicSection(t *testing.T) {
	acq := newFunc("__VERIFIER_atomic_acquire", P.VoidType)
	acq.f.Atomic = true
	acq.add(&P.Instr{Op: P.OpAssume, Rhs: bin(P.Eq, g("m", P.IntT), ci(0))}) // acq.0
	acq.assign(g("m", P.IntT), ci(1))                                        // acq.1
	acq.ret(nil)                                                             // acq.2
	w := newFunc("w", voidp, &P.Var{Name: "arg", Type: voidp})
	w.add(&P.Instr{Op: P.OpCall, Func: fref(acq.f)}) // w.0
	w.assign(g("x", P.IntT), ci(1))                  // w.1
	w.ret(nullp(voidp))                              // w.2
	m := newFunc("main", P.IntT)
	h := m.local("h", P.IntT)                  // main.0
	m.spawn(h, w.f, nullp(voidp))              // main.1
	m.assign(g("y", P.IntT), ci(1))            // main.2
	m.assign(g("m", P.IntT), ci(0))            // main.3
	m.assert(bin(P.Eq, g("x", P.IntT), ci(0))) // main.4
	m.ret(ci(0))
	globals := []*P.Var{{Name: "m", Type: P.IntT, Init: ci(1)}, {Name: "x", Type: P.IntT}, {Name: "y", Type: P.IntT}}
	p := prog(t, globals, acq, w, m)
	// thread 1 enters and waits (m == 1); main runs and releases; thread 1
	// goes on
	ok := steps("0:main.0", "0:main.1", "1:w.0", "0:main.2", "0:main.3",
		"1:__VERIFIER_atomic_acquire.0", "1:__VERIFIER_atomic_acquire.1", "1:__VERIFIER_atomic_acquire.2", "1:w.1", "0:main.4")
	out, err := Replay(p, &P.Run{Steps: ok, Violated: "main.assertion.1"})
	if err != nil || out.Status != Violated {
		t.Fatalf("run with a thread waiting to enter: %v %+v", err, out)
	}
	// thread 1 enters and never goes on within the run
	if _, err := Replay(p, &P.Run{Steps: steps("0:main.0", "0:main.1", "1:w.0", "0:main.2", "0:main.3", "0:main.4")}); err != nil {
		t.Errorf("run with a thread that entered and stays: %v", err)
	}
	// once it has executed its opening assume it holds the section
	bad := steps("0:main.0", "0:main.1", "0:main.2", "0:main.3", "1:w.0", "1:__VERIFIER_atomic_acquire.0", "0:main.4")
	if _, err := Replay(p, &P.Run{Steps: bad}); AsDivergence(err) == nil || !strings.Contains(err.Error(), "atomic section") {
		t.Errorf("interleaving after the opening assume: %v", err)
	}
}

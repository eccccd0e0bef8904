package reconstruct

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// The Lemma 2 tests take runs r of P from interp.Simulate, use r as the
// abstract run π (an abstraction keeps every label, so the run of A that
// follows r has r's label sequence and, on the kept variables, r's values),
// build P1 from it and check
//
//	(a) completeness: r with the monitor steps inserted (Map.Lift) replays
//	    on P1, with the same verdict;
//	(b) soundness: random runs of P1 replay on P1, map with Map.Run to runs
//	    of P that replay on P, and the monitor accepted a prefix of π's
//	    visible label sequence, in the order of the mapped run for every
//	    step that runs inside the monitor's section.
//
// Random runs of P1 come from interp.Simulate on a variant of P1 in which
// each monitor check is also waited for (an assume) before its atomic
// section: otherwise a thread that enters the section out of turn blocks
// there and the simulation ends in a deadlock. The waiting steps are dropped
// before the run is replayed on P1 itself.

const (
	piSeeds   = 4  // runs of P per abstraction
	p1Seeds   = 12 // runs of P1 per π
	simSteps  = 600
	p1MaxStep = 3000
)

// prewait returns a copy of p1 in which every monitor check assume (the
// instruction after the section's AtomicBegin) is preceded by a copy of it,
// and the set of labels of those copies.
func prewait(p1 *program.Program, m *Map) (*program.Program, map[program.Label]bool) {
	q := program.Clone(p1)
	ix := program.NewIndex(q)
	used := map[program.Label]bool{}
	for l := range ix.Instr {
		used[l] = true
	}
	waits := map[program.Label]bool{}
	retarget := map[program.Label]program.Label{}
	ins := map[program.Label]*program.Instr{} // AtomicBegin label → wait to insert before it
	for l, pre := range m.before {
		var at, chk program.Label // insert a copy of chk before at
		switch {
		case m.shape[l] == afterBegin && len(m.after[l]) > 0:
			at, chk = l, m.after[l][0]
		case len(pre) >= 2 && ix.Instr[pre[0]].Op == program.OpAtomicBegin:
			at, chk = pre[0], pre[1]
		default:
			continue
		}
		if ix.Instr[chk].Op != program.OpAssume {
			continue
		}
		w := *ix.Instr[chk]
		w.Label = program.Fresh(q, string(at)+".wait", used)
		w.Msg = "test: wait for the monitor"
		waits[w.Label] = true
		retarget[at] = w.Label
		ins[at] = &w
	}
	for _, f := range q.Funcs {
		var body []*program.Instr
		for _, in := range f.Body {
			if w := ins[in.Label]; w != nil {
				body = append(body, w)
			}
			body = append(body, in)
		}
		f.Body = body
		for _, in := range f.Body {
			for i, t := range in.Targets {
				if n, ok := retarget[t]; ok {
					in.Targets[i] = n
				}
			}
		}
	}
	return q, waits
}

func dropSteps(r *program.Run, drop map[program.Label]bool) *program.Run {
	out := &program.Run{Violated: r.Violated}
	for _, s := range r.Steps {
		if !drop[s.Label] {
			out.Steps = append(out.Steps, s)
		}
	}
	return out
}

// soundness simulates P1 once and checks (b); complete reports whether the
// monitor accepted all of π.
func soundness(p, p1 *program.Program, m *Map, vis map[program.Label]bool, pi []program.Label, seed int64) (complete bool, err error) {
	pw, waits := prewait(p1, m)
	out, err := interp.Simulate(pw, interp.SimOptions{Seed: seed, MaxSteps: p1MaxStep, ContextSwitchProb: 0.4})
	if err != nil {
		return false, fmt.Errorf("simulate P1: %v", err)
	}
	r1 := dropSteps(out.Run, waits)
	if _, err := interp.Replay(p1, r1); err != nil {
		return false, fmt.Errorf("run of P1 does not replay on P1: %v", err)
	}
	r := m.Run(r1)
	if _, err := interp.Replay(p, r); err != nil {
		return false, fmt.Errorf("mapped run does not replay on P: %v\n%s", err, interp.Format(p, r))
	}
	acc := m.Visible(r1)
	if !isPrefix(acc, pi) {
		return false, fmt.Errorf("monitor accepted %s\nnot a prefix of π = %s", labelsString(acc), labelsString(pi))
	}
	// The last accepted step may not have run: its instruction blocked
	// inside the monitor's section (a join, an assume), which ends the run;
	// or the last AtomicBegin ran and its check (inside the section it
	// opened) blocked.
	a, b := inSection(m, program.Project(r, vis)), inSection(m, acc)
	okEnd := len(b) == len(a)+1 && isPrefix(a, b) ||
		len(a) == len(b)+1 && isPrefix(b, a) && m.shape[a[len(a)-1]] == afterBegin
	if !equal(a, b) && !okEnd {
		return false, fmt.Errorf("visible steps of the mapped run %s\ndiffer from the accepted order %s", labelsString(a), labelsString(b))
	}
	return len(acc) == len(pi), nil
}

// inSection keeps the labels whose instruction runs inside the monitor's
// section (everything but the deferred ops).
func inSection(m *Map, ls []program.Label) []program.Label {
	var out []program.Label
	for _, l := range ls {
		if !m.Deferred(l) {
			out = append(out, l)
		}
	}
	return out
}

func equal(a, b []program.Label) bool { return len(a) == len(b) && isPrefix(a, b) }

// completeness checks (a) for the P-run r.
func completeness(p1 *program.Program, m *Map, r *program.Run) error {
	lr := m.Lift(r)
	o, err := interp.Replay(p1, lr)
	if err != nil {
		return fmt.Errorf("lifted run does not replay on P1: %v", err)
	}
	if (r.Violated != "") != (o.Status == interp.Violated) {
		return fmt.Errorf("verdicts differ: run violated %q, lifted run %v", r.Violated, o.Status)
	}
	return nil
}

type builder func(p, a *program.Program, r *program.Run, kept []string) (*program.Program, *Map, error)

func orderOnly(p, a *program.Program, r *program.Run, _ []string) (*program.Program, *Map, error) {
	return OrderOnly(p, a, r)
}

// lemma2 runs the checks over testdata/progs and returns the number of
// failures of (a) and (b) and of complete P1 runs; mutate, when set, breaks
// P1 before the checks.
func lemma2(t *testing.T, build builder, mutate func(p1 *program.Program, pi []program.Label), report bool) (failA, failB, complete, total int) {
	return lemma2Vis(t, program.Visible, build, mutate, report)
}

// lemma2Vis is lemma2 for a reconstruction that forces the order of the
// labels visibleOf(A).
func lemma2Vis(t *testing.T, visibleOf func(*program.Program) map[program.Label]bool, build builder, mutate func(p1 *program.Program, pi []program.Label), report bool) (failA, failB, complete, total int) {
	for _, file := range progFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p := lower(t, filepath.Base(file), src)
		for _, ab := range abstractions(t, p) {
			vis := visibleOf(ab.A)
			var kept []string
			for _, v := range ab.Kept {
				kept = append(kept, string(v))
			}
			for seed := int64(1); seed <= piSeeds; seed++ {
				out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, MaxSteps: simSteps, Unwind: 3, ContextSwitchProb: 0.3})
				if err != nil {
					t.Fatalf("%s: simulate: %v", file, err)
				}
				r := out.Run
				if out.Status == interp.Errored || out.Status == interp.StepLimit {
					continue
				}
				pi := program.Project(r, vis)
				p1, m, err := build(p, ab.A, r, kept)
				if err != nil {
					if program.KindOf(err) == program.Unsupported {
						continue
					}
					t.Fatalf("%s %s seed %d: %v", file, ab.Name, seed, err)
				}
				if mutate != nil {
					mutate(p1, pi)
				} else if err := program.Check(p1); err != nil {
					t.Fatalf("%s %s: Check(P1): %v", file, ab.Name, err)
				}
				if err := completeness(p1, m, r); err != nil {
					failA++
					if report {
						t.Errorf("%s %s seed %d: (a) %v", filepath.Base(file), ab.Name, seed, err)
					}
				}
				for s := int64(1); s <= p1Seeds; s++ {
					total++
					c, err := soundness(p, p1, m, vis, pi, s)
					if err != nil {
						failB++
						if report {
							t.Errorf("%s %s seed %d/%d: (b) %v", filepath.Base(file), ab.Name, seed, s, err)
						}
						break
					}
					if c {
						complete++
					}
				}
			}
		}
	}
	return
}

func TestLemma2OrderOnly(t *testing.T) {
	_, _, complete, total := lemma2(t, orderOnly, nil, true)
	t.Logf("%d of %d random runs of P1 followed all of π", complete, total)
	if complete == 0 {
		t.Errorf("no random run of P1 followed π to its end: the soundness check is vacuous")
	}
}

// TestLemma2OrderOnlyMutants checks that the Lemma 2 checks catch broken
// monitors: one that never checks the label (unsound) and one that forces
// a wrong sequence (incomplete).
func TestLemma2OrderOnlyMutants(t *testing.T) {
	noCheck := func(p1 *program.Program, _ []program.Label) {
		for _, f := range p1.Funcs {
			for _, in := range f.Body {
				if in.Op == program.OpAssume && strings.HasPrefix(in.Msg, "cegpv:") {
					in.Rhs = program.True
				}
			}
		}
	}
	_, failB, _, _ := lemma2(t, orderOnly, noCheck, false)
	if failB == 0 {
		t.Errorf("a monitor that never checks was not caught by the soundness check")
	}
	// forcing the sequence with its last two distinct labels swapped
	swapped := func(p, a *program.Program, r *program.Run, _ []string) (*program.Program, *Map, error) {
		vis := program.Visible(a)
		pi := program.Project(r, vis)
		for i := len(pi) - 1; i > 0; i-- {
			if pi[i] != pi[i-1] {
				pi[i], pi[i-1] = pi[i-1], pi[i]
				break
			}
		}
		return OrderOnlySeq(p, vis, pi)
	}
	failA, _, _, _ := lemma2(t, swapped, func(*program.Program, []program.Label) {}, false)
	if failA == 0 {
		t.Errorf("a monitor forcing a wrong sequence was not caught by the completeness check")
	}
}

func TestLemma2ValuesAndOrder(t *testing.T) {
	_, _, complete, total := lemma2(t, ValuesAndOrder, nil, true)
	t.Logf("%d of %d random runs of P1 followed all of π", complete, total)
	if complete == 0 {
		t.Errorf("no random run of P1 followed π to its end: the soundness check is vacuous")
	}
}

// TestLemma2ValuesAndOrderMutant checks that a reconstruction whose value
// tables do not constrain the writes (every rewritten `x = e` becomes
// assume(1)) is caught.
func TestLemma2ValuesAndOrderMutant(t *testing.T) {
	loose := func(p1 *program.Program, _ []program.Label) {
		for _, f := range p1.Funcs {
			for _, in := range f.Body {
				if in.Op == program.OpAssume && strings.Contains(in.Msg, "as in the run") {
					in.Rhs = program.True
				}
			}
		}
	}
	_, failB, _, _ := lemma2(t, ValuesAndOrder, loose, false)
	if failB == 0 {
		t.Errorf("unconstrained value tables were not caught by the soundness check")
	}
}

// The values-and-order reconstruction over the shared steps only
// (ValuesAndOrderSeq with SharedVisible, what the controller pairs with the
// observer refinement).
func TestLemma2ValuesAndOrderShared(t *testing.T) {
	shared := func(p, a *program.Program, r *program.Run, kept []string) (*program.Program, *Map, error) {
		return ValuesAndOrderSeq(p, program.SharedVisible(a), r, kept)
	}
	_, _, complete, total := lemma2Vis(t, program.SharedVisible, shared, nil, true)
	t.Logf("%d of %d random runs of P1 followed all of π", complete, total)
	if complete == 0 {
		t.Errorf("no random run of P1 followed π to its end: the soundness check is vacuous")
	}
	loose := func(p1 *program.Program, _ []program.Label) {
		for _, f := range p1.Funcs {
			for _, in := range f.Body {
				if in.Op == program.OpAssume && strings.Contains(in.Msg, "as in the run") {
					in.Rhs = program.True
				}
			}
		}
	}
	if _, failB, _, _ := lemma2Vis(t, program.SharedVisible, shared, loose, false); failB == 0 {
		t.Errorf("unconstrained value tables were not caught by the soundness check")
	}
}

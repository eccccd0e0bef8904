package refine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// The Lemma 3 tests take, for every program of testdata/progs and a few
// abstractions A of it, a set R of visible label sequences of runs of A
// (from interp.Simulate): the sequences of violating runs, and prefixes of
// other runs up to an assertion that held. They build A' = Exclude(A, R)
// and check
//
//	soundness: random runs of A' replay on A', map (Map.Run) to runs of A
//	    that replay on A; a violation of A' is a violation of A whose
//	    visible sequence, in the order the monitor accepted it
//	    (Map.Visible), is not in R, and the steps that run in one section
//	    with their check come in the same order in the mapped run;
//	exclusion: a violating run of A whose sequence is in R does not
//	    replay as a violation on A' (Map.Lift);
//	completeness: every other run of A replays on A' with the same verdict.

const (
	rSeeds   = 40 // runs of A from which R is drawn
	aSeeds   = 40 // runs of A for completeness
	apSeeds  = 40 // runs of A' for soundness
	simSteps = 600
	maxSeqs  = 4
)

func key(ls []program.Label) string { return labelsString(ls) }

func sim(p *program.Program, seed int64) (*interp.Outcome, error) {
	return interp.Simulate(p, interp.SimOptions{Seed: seed, MaxSteps: simSteps, Unwind: 3, ContextSwitchProb: 0.3})
}

// spuriousSet draws R from runs of a.
func spuriousSet(t *testing.T, a *program.Program, vis map[program.Label]bool) ([][]program.Label, map[string]bool) {
	ix := program.NewIndex(a)
	var R [][]program.Label
	in := map[string]bool{}
	addSeq := func(s []program.Label) {
		if len(R) < maxSeqs && !in[key(s)] {
			in[key(s)] = true
			R = append(R, s)
		}
	}
	for seed := int64(1); seed <= rSeeds && len(R) < maxSeqs; seed++ {
		out, err := sim(a, seed)
		if err != nil {
			t.Fatal(err)
		}
		seq := program.Project(out.Run, vis)
		if out.Status == interp.Violated {
			addSeq(seq)
			continue
		}
		if seed%3 != 0 {
			continue
		}
		// a prefix ending at an assertion that held
		for i := len(seq) - 1; i >= 0; i-- {
			if ix.Instr[seq[i]].Op == program.OpAssert {
				addSeq(append([]program.Label(nil), seq[:i+1]...))
				break
			}
		}
	}
	return R, in
}

type result struct{ sound, excl, compl int }

func lemma3(t *testing.T, build func(a *program.Program, vis map[program.Label]bool, R [][]program.Label) (*program.Program, *Map, error), mutate func(*program.Program), report bool) (res result, nR int) {
	fail := func(counter *int, format string, args ...any) {
		*counter++
		if report {
			t.Errorf(format, args...)
		}
	}
	for _, file := range progFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(file)
		p := lower(t, name, src)
		for _, ab := range abstractions(t, p) {
			a := ab.A
			vis := program.Visible(a)
			R, inR := spuriousSet(t, a, vis)
			if len(R) == 0 {
				continue
			}
			nR += len(R)
			ap, m, err := build(a, vis, R)
			if err != nil {
				t.Fatalf("%s %s: %v", name, ab.Name, err)
			}
			if mutate != nil {
				mutate(ap)
			} else if err := program.Check(ap); err != nil {
				t.Fatalf("%s %s: Check(A'): %v", name, ab.Name, err)
			}
			// soundness
			for seed := int64(1); seed <= apSeeds; seed++ {
				out, err := sim(ap, seed)
				if err != nil {
					t.Fatalf("%s: simulate A': %v", name, err)
				}
				if _, err := interp.Replay(ap, out.Run); err != nil {
					fail(&res.sound, "%s %s seed %d: run of A' does not replay: %v", name, ab.Name, seed, err)
					continue
				}
				r := m.Run(out.Run)
				o, err := interp.Replay(a, r)
				if err != nil {
					fail(&res.sound, "%s %s seed %d: mapped run does not replay on A: %v", name, ab.Name, seed, err)
					continue
				}
				acc := m.Visible(out.Run)
				if out.Status == interp.Violated {
					if o.Status != interp.Violated {
						fail(&res.sound, "%s %s seed %d: violation of A' maps to a run of A without violation", name, ab.Name, seed)
					}
					if inR[key(acc)] {
						fail(&res.sound, "%s %s seed %d: violation of A' along an excluded sequence %s", name, ab.Name, seed, key(acc))
					}
				}
				x, y := inSection(m, program.Project(r, vis)), inSection(m, acc)
				if !(key(x) == key(y) || len(y) == len(x)+1 && strings.HasPrefix(key(y), key(x))) {
					fail(&res.sound, "%s %s seed %d: mapped order %s differs from the accepted order %s", name, ab.Name, seed, key(x), key(y))
				}
			}
			// exclusion and completeness, on runs of A
			check := func(r *program.Run, seed int64) {
				seq := program.Project(r, vis)
				lr := m.Lift(r)
				o, err := interp.Replay(ap, lr)
				if r.Violated != "" && inR[key(seq)] {
					if err == nil && o.Status == interp.Violated {
						fail(&res.excl, "%s %s seed %d: excluded violation %s survives in A'", name, ab.Name, seed, key(seq))
					}
					return
				}
				if err != nil {
					fail(&res.compl, "%s %s seed %d: run of A (sequence %s) does not replay on A': %v", name, ab.Name, seed, key(seq), err)
					return
				}
				if (r.Violated != "") != (o.Status == interp.Violated) {
					fail(&res.compl, "%s %s seed %d: verdict differs on A'", name, ab.Name, seed)
				}
			}
			for seed := int64(1); seed <= rSeeds+aSeeds; seed++ {
				out, err := sim(a, seed)
				if err != nil {
					t.Fatal(err)
				}
				if out.Status == interp.Errored {
					continue
				}
				check(out.Run, seed)
			}
		}
	}
	return res, nR
}

func inSection(m *Map, ls []program.Label) []program.Label {
	var out []program.Label
	for _, l := range ls {
		if !m.Deferred(l) {
			out = append(out, l)
		}
	}
	return out
}

func TestLemma3(t *testing.T) {
	res, nR := lemma3(t, Exclude, nil, true)
	t.Logf("%d excluded sequences; failures %+v", nR, res)
	if nR == 0 {
		t.Fatal("no excluded sequences: the test is vacuous")
	}
}

// TestLemma3Mutants checks that the Lemma 3 checks catch a monitor that
// never cuts (soundness/exclusion) and the first sketch that cuts every run
// at the end of an excluded sequence, even when the assertion holds there
// (completeness).
func TestLemma3Mutants(t *testing.T) {
	neverCut := func(ap *program.Program) {
		for _, f := range ap.Funcs {
			for _, in := range f.Body {
				if in.Op != program.OpAssert {
					continue
				}
				for {
					b, ok := in.Rhs.(*program.Binary)
					if !ok || b.Op != program.LOr {
						break
					}
					if r, ok := b.Y.(*program.Binary); !ok || r.Op != program.Eq || !strings.HasPrefix(fmt.Sprint(program.ExprString(r.X)), MonName) {
						break
					}
					in.Rhs = b.X
				}
			}
		}
	}
	res, _ := lemma3(t, Exclude, neverCut, false)
	if res.excl == 0 {
		t.Errorf("a monitor that never cuts was not caught")
	}
	cut := func(a *program.Program, vis map[program.Label]bool, R [][]program.Label) (*program.Program, *Map, error) {
		return exclude(a, vis, R, true)
	}
	res, _ = lemma3(t, cut, func(*program.Program) {}, false)
	if res.compl == 0 {
		t.Errorf("a monitor that cuts at the end of excluded sequences was not caught")
	}
}

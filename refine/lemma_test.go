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

// builder makes A' from A and the patterns to exclude (vis is A's visible
// set, which every pattern's label set is part of).
type builder func(a *program.Program, vis map[program.Label]bool, ps []Pattern) (*program.Program, *Map, error)

// excludeAll is Exclude as a builder: every pattern is over vis.
func excludeAll(a *program.Program, vis map[program.Label]bool, ps []Pattern) (*program.Program, *Map, error) {
	var R [][]program.Label
	for _, p := range ps {
		R = append(R, p.Seq)
	}
	return Exclude(a, vis, R)
}

func excludePatterns(a *program.Program, _ map[program.Label]bool, ps []Pattern) (*program.Program, *Map, error) {
	return ExcludePatterns(a, ps)
}

// sameSet makes one pattern over vis of each sequence (Exclude's case).
func sameSet(vis map[program.Label]bool, R [][]program.Label) []Pattern { return samePatterns(vis, R) }

// severalSets makes the i-th pattern over its own label set: the full
// visible set for the first sequence, and for the others a part of the
// labels of the sequence (every label whose first occurrence in it has
// an index that is not 1 modulo i+1), always with its final assertion,
// so that the patterns have different label sets, some of them small
// (a pattern over fewer labels matches more runs).
func severalSets(vis map[program.Label]bool, R [][]program.Label) []Pattern {
	return sets(vis, R, true)
}

// partialSets is severalSets without the full visible set: the monitors
// see only part of the visible labels.
func partialSets(vis map[program.Label]bool, R [][]program.Label) []Pattern {
	return sets(vis, R, false)
}

func sets(vis map[program.Label]bool, R [][]program.Label, full bool) []Pattern {
	var ps []Pattern
	for i, seq := range R {
		if i == 0 && full {
			ps = append(ps, Pattern{Labels: vis, Seq: seq})
			continue
		}
		w := map[program.Label]bool{seq[len(seq)-1]: true}
		seen := map[program.Label]bool{}
		k := 0
		for _, l := range seq {
			if seen[l] {
				continue
			}
			seen[l] = true
			if k%(i+1) != 1 {
				w[l] = true
			}
			k++
		}
		ps = append(ps, Pattern{Labels: w, Seq: program.Project(&program.Run{Steps: steps(seq)}, w)})
	}
	return ps
}

func steps(seq []program.Label) []program.Step {
	out := make([]program.Step, len(seq))
	for i, l := range seq {
		out[i] = program.Step{Label: l}
	}
	return out
}

// matches reports whether one of ps matches the visible sequence seq (over a
// superset of every pattern's labels) at its end, the failed assertion: the
// last label is one of the pattern's, and the projection onto the
// pattern's labels is the pattern's sequence.
func matches(ps []Pattern, seq []program.Label) bool {
	if len(seq) == 0 {
		return false
	}
	for _, p := range ps {
		if p.Labels[seq[len(seq)-1]] && key(program.Project(&program.Run{Steps: steps(seq)}, p.Labels)) == key(p.Seq) {
			return true
		}
	}
	return false
}

func lemma3(t *testing.T, mk func(vis map[program.Label]bool, R [][]program.Label) []Pattern, build builder, mutate func(*program.Program), report bool) (res result, nR int) {
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
			R, _ := spuriousSet(t, a, vis)
			if len(R) == 0 {
				continue
			}
			nR += len(R)
			ps := mk(vis, R)
			union := map[program.Label]bool{}
			for _, p := range ps {
				for l := range p.Labels {
					union[l] = true
				}
			}
			ap, m, err := build(a, vis, ps)
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
				// acc: the accepted order of the instrumented labels; vis:
				// with the other visible steps in run order (VisibleIn)
				acc := m.Visible(out.Run)
				viSeq := m.VisibleIn(out.Run, vis)
				if out.Status == interp.Violated {
					if o.Status != interp.Violated {
						fail(&res.sound, "%s %s seed %d: violation of A' maps to a run of A without violation", name, ab.Name, seed)
					}
					if matches(ps, viSeq) {
						fail(&res.sound, "%s %s seed %d: violation of A' along an excluded sequence %s", name, ab.Name, seed, key(viSeq))
					}
				}
				vi := &program.Run{Steps: steps(viSeq)}
				rest := map[program.Label]bool{}
				for l := range vis {
					rest[l] = !union[l]
				}
				if key(program.Project(vi, union)) != key(acc) || key(program.Project(vi, rest)) != key(program.Project(r, rest)) {
					fail(&res.sound, "%s %s seed %d: VisibleIn %s is not the accepted order %s with the other visible steps", name, ab.Name, seed, key(program.Project(vi, vis)), key(acc))
				}
				x, y := inSection(m, program.Project(r, union)), inSection(m, acc)
				if !(key(x) == key(y) || len(y) == len(x)+1 && strings.HasPrefix(key(y), key(x))) {
					fail(&res.sound, "%s %s seed %d: mapped order %s differs from the accepted order %s", name, ab.Name, seed, key(x), key(y))
				}
			}
			// exclusion and completeness, on runs of A
			check := func(r *program.Run, seed int64) {
				seq := program.Project(r, vis)
				lr := m.Lift(r)
				o, err := interp.Replay(ap, lr)
				if r.Violated != "" && matches(ps, seq) {
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
	res, nR := lemma3(t, sameSet, excludeAll, nil, true)
	t.Logf("%d excluded sequences; failures %+v", nR, res)
	if nR == 0 {
		t.Fatal("no excluded sequences: the test is vacuous")
	}
}

// TestLemma3Patterns is Lemma 3 for ExcludePatterns with patterns over
// different label sets (severalSets): one trie monitor per set.
func TestLemma3Patterns(t *testing.T) {
	for _, mk := range []func(map[program.Label]bool, [][]program.Label) []Pattern{severalSets, partialSets} {
		res, nR := lemma3(t, mk, excludePatterns, nil, true)
		t.Logf("%d excluded patterns; failures %+v", nR, res)
		if nR == 0 {
			t.Fatal("no excluded patterns: the test is vacuous")
		}
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
	cut := func(a *program.Program, _ map[program.Label]bool, ps []Pattern) (*program.Program, *Map, error) {
		return exclude(a, ps, true)
	}
	for _, c := range []struct {
		name string
		mk   func(map[program.Label]bool, [][]program.Label) []Pattern
	}{{"one set", sameSet}, {"several sets", severalSets}} {
		res, _ := lemma3(t, c.mk, excludePatterns, neverCut, false)
		if res.excl == 0 {
			t.Errorf("%s: a monitor that never cuts was not caught", c.name)
		}
		res, _ = lemma3(t, c.mk, cut, func(*program.Program) {}, false)
		if res.compl == 0 {
			t.Errorf("%s: a monitor that cuts at the end of excluded sequences was not caught", c.name)
		}
	}
}

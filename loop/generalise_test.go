package loop_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/backend/esbmc"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/internal/lowertest"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// genRun is one configuration of the generalisation test.
type genRun struct {
	name           string
	noGen, noLimit bool
}

var genRuns = []genRun{{"without", true, false}, {"ddmin", false, true}, {"with", false, false}}

// raceSearch are the search's budgets as cegpv.Check sets them beside the
// mode (its table's race, cegpv.RaceSearch).
var raceSearch = explicit.Options{Delay: time.Second, Share: 1.0 / 3, Max: 30 * time.Second, Bytes: 128 << 20}

// verifyGen runs the code-to-code monitor loop on p with the explicit
// search (as Check would set it) in configuration g.
func verifyGen(t *testing.T, be backend.Backend, p *program.Program, bd backend.Bounds, g genRun, limit time.Duration) loop.Result {
	t.Helper()
	eo := raceSearch
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	o := loop.Options{Sanity: true, Backend: be, Bounds: bd, NoIncremental: true, Search: &eo, NoGeneralise: g.noGen}
	if g.noLimit {
		o = loop.WithoutLimit(o)
	}
	res, err := loop.Verify(ctx, p, o)
	if err != nil && program.KindOf(err) != program.Timeout {
		t.Fatalf("%s: %v", g.name, err)
	}
	if res.Verdict == backend.Unsafe {
		if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
			t.Fatalf("%s: the run does not replay: %v", g.name, err)
		}
	}
	return res
}

// generalised counts the iterations whose pattern has fewer labels than
// the visible set, and the limit case's answers.
func generalised(res loop.Result) (smaller, limit int, text string) {
	var b strings.Builder
	for _, it := range res.Iterations {
		g := it.Generalisation
		if g == nil {
			continue
		}
		if g.Pattern < g.Visible {
			smaller++
		}
		if g.Limit != "" {
			limit++
		}
		fmt.Fprintf(&b, " [L%d I%d: %d→%d of %d labels, %d attempts, %s%s]", it.Level, it.Iteration, g.Labels, g.Pattern, g.Visible, g.Attempts, g.Stopped, g.Limit)
	}
	return smaller, limit, b.String()
}

// z3Progs returns the testdata/progs programs, skipping the test when z3
// is missing.
func z3Progs(t *testing.T) []testenv.Prog {
	t.Helper()
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed (make deps installs it)")
	}
	progs, err := testenv.Progs("..")
	if err != nil {
		t.Fatal(err)
	}
	return progs
}

// TestGeneraliseKeepsVerdicts runs the monitor strategy (the built-in
// backend, NoIncremental) on every testdata/progs program without
// generalisation, with it but without the limit case (so that ddmin runs
// on loop-free programs too) and with both: every verdict given is the
// expected one, and the verdicts agree where none is UNKNOWN (a timeout).
// The generalisation must fire (a pattern smaller than the visible set) on
// some program, and the limit case must answer on some.
func TestGeneraliseKeepsVerdicts(t *testing.T) {
	progs := z3Progs(t)
	be := builtin.New(builtin.Options{})
	fired, limits := 0, 0
	for _, pr := range progs {
		t.Run(strings.TrimSuffix(pr.Name, ".c"), func(t *testing.T) {
			p := lowertest.CModel(t, pr.Model, pr.Path, string(pr.Src))
			want := backend.Safe
			if pr.Expect == "unsafe" {
				want = backend.Unsafe
			}
			bd := backend.Bounds{Unwind: pr.Unwind, Threads: pr.Threads}
			var got []backend.Verdict
			for _, g := range genRuns {
				res := verifyGen(t, be, p, bd, g, 60*time.Second)
				if res.Verdict != backend.Unknown && res.Verdict != want {
					t.Fatalf("%s: %v, want %v", g.name, res.Verdict, want)
				}
				n, l, text := generalised(res)
				fired += n
				limits += l
				if g.noGen && (n > 0 || l > 0) {
					t.Fatalf("NoGeneralise, and still generalised:%s", text)
				}
				t.Logf("%s: %v %s; %d iterations%s", g.name, res.Verdict, res.Reason, len(res.Iterations), text)
				got = append(got, res.Verdict)
			}
			for _, v := range got[1:] {
				if v != backend.Unknown && got[0] != backend.Unknown && v != got[0] {
					t.Fatalf("verdicts differ: %v", got)
				}
			}
		})
	}
	t.Logf("%d generalised patterns, %d limit-case answers", fired, limits)
	if fired == 0 {
		t.Errorf("the generalisation never excluded a pattern smaller than the visible set: the test is vacuous")
	}
	if limits == 0 {
		t.Errorf("the limit case never ran: the test is vacuous")
	}
}

// TestGeneraliseUnprovenIsCaught checks that TestGeneraliseKeepsVerdicts
// can fail: a generalisation that accepts its candidates without a proof
// (so excludes the pattern of the failed assertion alone) reports some
// unsafe program SAFE.
func TestGeneraliseUnprovenIsCaught(t *testing.T) {
	progs := z3Progs(t)
	be := builtin.New(builtin.Options{})
	for _, pr := range progs {
		if pr.Expect != "unsafe" {
			continue
		}
		p := lowertest.CModel(t, pr.Model, pr.Path, string(pr.Src))
		eo := raceSearch
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		o := loop.Options{Backend: be, Bounds: backend.Bounds{Unwind: pr.Unwind, Threads: pr.Threads}, NoIncremental: true, Search: &eo}
		res, _ := loop.Verify(ctx, p, loop.AcceptingUnproven(loop.WithoutLimit(o)))
		cancel()
		if res.Verdict == backend.Safe {
			t.Logf("%s: SAFE with unproven patterns (caught)", pr.Name)
			return
		}
	}
	t.Errorf("accepting unproven generalisations gave no wrong verdict: the verdict checks cannot catch an unsound generalisation")
}

// TestGeneraliseESBMC is the same comparison over ESBMC on a few
// programs, when bin/esbmc is there (make pytools).
func TestGeneraliseESBMC(t *testing.T) {
	bin := testenv.Tool(t, "esbmc", "CEGPV_ESBMC")
	if testing.Short() {
		t.Skip("-short: ESBMC runs skipped")
	}
	be := esbmc.New(esbmc.Options{Path: bin})
	progs, err := testenv.Progs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range progs {
		switch pr.Name {
		case "paper_fig2.c", "join_order_safe.c", "locked_counter_safe.c", "lazy_counter_unsafe.c":
		default:
			continue
		}
		t.Run(strings.TrimSuffix(pr.Name, ".c"), func(t *testing.T) {
			p := lowertest.CModel(t, pr.Model, filepath.Base(pr.Path), string(pr.Src))
			want := backend.Safe
			if pr.Expect == "unsafe" {
				want = backend.Unsafe
			}
			// through Check, which answers a counterexample ESBMC's trace
			// cannot be followed on (backend.ErrUnfollowable)
			bd := backend.Bounds{Unwind: pr.Unwind, Threads: pr.Threads, Timeout: 120 * time.Second}
			var got []backend.Verdict
			for _, g := range genRuns {
				o := loop.Options{Sanity: true, Backend: be, Bounds: bd, NoGeneralise: g.noGen}
				if g.noLimit {
					o = loop.WithoutLimit(o)
				}
				rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{Options: o})
				if rep.Verdict != backend.Unknown && rep.Verdict != want {
					t.Fatalf("%s: %v, want %v", g.name, rep.Verdict, want)
				}
				if rep.Err != nil && program.KindOf(rep.Err) != program.Timeout {
					t.Fatalf("%s: %v", g.name, rep.Err)
				}
				text := ""
				if rep.Loop != nil {
					_, _, text = generalised(*rep.Loop)
				}
				t.Logf("%s: %v %s%s", g.name, rep.Verdict, rep.Reason, text)
				got = append(got, rep.Verdict)
			}
			for _, v := range got[1:] {
				if v != backend.Unknown && got[0] != backend.Unknown && v != got[0] {
					t.Fatalf("verdicts differ: %v", got)
				}
			}
		})
	}
}

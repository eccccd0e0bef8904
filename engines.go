package cegpv

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/loop"
)

// Budget is one engine of the verdict portfolio with its CPU-time budget
// (package budget: every budget is CPU time, of the check's total, the
// --timeout value): the engine starts after the engine beside which it
// runs used Delay; it may use Share of the CPU time left (0: no share of
// its own), at least Min and at most Max (0: no such limit).
type Budget struct {
	Engine string // what the engine is, as docs/verifying.md names it
	By     string // what Report.DecidedBy says of its verdicts ("": it decides none itself)
	Starts string // when it starts
	Delay  time.Duration
	Share  float64
	Min    time.Duration
	Max    time.Duration
	// Bytes bounds the explicit-state search's store of visited states
	// (0: not a search).
	Bytes int
}

// The table of engines and budgets: every engine a check may run, with
// its share, its limits and its start, in one place (docs/verifying.md,
// Budgets, says the same; TestBudgets checks both; why these values:
// docs/measurements.md, Why the defaults). Check reads its budgets here;
// the loop's own (deepening, generalisation) are the loop's constants,
// listed here.
var (
	// withoutOpaque: Check first checks the program's runs that draw no
	// opaque value, with half of the time.
	withoutOpaque = Budget{Engine: "the check of the program without its opaque draws", Starts: "first", Share: 0.5}
	// probe: the backend alone on the whole program before the loop (cegpv
	// mode over a backend that is not external).
	probe = Budget{Engine: "the probe (cegpv mode, a backend that is not external, no --rounds)", By: ByProbe, Starts: "first", Max: DefaultProbe}
	// mode: the CEGPV loop or the backend alone, with whatever is left.
	mode = Budget{Engine: "the mode (the CEGPV loop or the backend alone)", By: ByLoop + ", " + ByBackend + " or " + ByUnwinding, Starts: "after the probe", Share: 1}
	// wholeBeside: in mode cegpv under --rounds, the backend on the whole
	// program's sequentialisation races the loop instead of the probe
	// (checker.wholeBeside); a checker of a sequential program often
	// answers the whole program as fast as one check of the loop.
	wholeBeside = Budget{Engine: "the backend on the whole program beside the loop (cegpv mode under --rounds)", By: ByWhole, Starts: "beside the loop", Share: 1}
	// loopBeside: the loop beside that check stops after Max of its own
	// CPU time: under --rounds 2 over ESBMC its wins came within 5 s of
	// its CPU on the 86 pthread tasks and on sv-comp-new, and past them it
	// only slowed the whole program's check, the two checkers sharing the
	// machine (by about 20%: docs/bench/s26-whole-once).
	loopBeside = Budget{Engine: "the CEGPV loop beside the whole program's check (cegpv mode under --rounds)", By: ByLoop, Starts: "beside the whole program's check", Share: 1, Max: 10 * time.Second}
	// race: the explicit-state search beside the mode, on programs with
	// loops.
	race = Budget{Engine: "the explicit-state search beside the mode", By: BySearch, Starts: "beside the mode",
		Delay: time.Second, Share: 1.0 / 3, Max: 30 * time.Second, Bytes: 128 << 20}
	// raceExternal: the same beside an external checker, loop-free
	// programs too: the checker uses one core, the search the other.
	raceExternal = Budget{Engine: "the explicit-state search beside an external checker", By: BySearch, Starts: "beside the mode",
		Delay: time.Second, Share: 1, Max: 10 * time.Minute, Bytes: 512 << 20}
	// roundsBeside: in mode cegpv, a checker of the round-bounded
	// sequentialisation beside the mode (CheckOptions.RoundsBeside), once
	// the mode used Delay, the probe's time (what the probe does not
	// decide goes on to the long engines): where the mode decides within
	// it the checker costs nothing; past it the stack families,
	// 44_Solaris and fk2012, which the default configuration leaves at its
	// time limit, are TRUE within 2 rounds over ESBMC in 17-49 s
	// (docs/bench/s25-rounds-beside: from 10 s, 44_Solaris's answer came
	// at the time limit).
	roundsBeside = Budget{Engine: "a checker of the round-bounded sequentialisation beside the mode (cegpv mode, programs with threads; its TRUE answers only when the mode has no verdict)", By: ByRounds, Starts: "beside the mode",
		Delay: DefaultProbe, Share: 1}
	// reconstruction: the search beside a reconstruction's check (the
	// loop's code-to-code strategies), with race's budgets.
	reconstruction = Budget{Engine: "the explicit-state search beside a reconstruction", Starts: "beside a reconstruction's check",
		Share: race.Share, Max: race.Max, Bytes: race.Bytes}
	deepening = Budget{Engine: "a shallow run of the loop's deepening", Starts: "first, in the loop", Share: loop.DeepenShare}
	// generalisation of one spurious counterexample: each of at most
	// loop.GeneraliseAttempts searches has loop.AttemptShare of it.
	generalisation = Budget{Engine: "the generalisation of one spurious counterexample", Starts: "after its reconstruction",
		Share: loop.GeneraliseShare, Max: loop.GeneraliseMax}
	limitCase = Budget{Engine: "the generalisation's limit case, the search on the program itself", By: BySearch, Starts: "once per run of the loop",
		Share: loop.LimitShare, Max: loop.LimitMax}
	// unfollowable: the search behind a counterexample a checker cannot
	// follow (searchUnfollowable); no Max with a deadline. Its answer is
	// that check's: DecidedBy names the engine that asked for it.
	unfollowable = Budget{Engine: "the search behind a counterexample that cannot be followed", By: "as the check it answers", Starts: "after the checker's answer", Share: 0.5}
	// beyond: after a bounded TRUE that cut runs, twice the CPU time the
	// check took, within Min and Max (--beyond) and Share of the time left.
	beyond = Budget{Engine: "the search beyond the bounds", By: ByBeyond, Starts: "after a bounded TRUE",
		Share: 0.5, Min: 15 * time.Second, Max: DefaultBeyondMax}
	// incrementalRound: --incremental-bmc's check again with a loop's
	// bound doubled, after a FALSE of its unwinding property; the whole
	// check, with all that is left (its engines take their shares of it).
	incrementalRound = Budget{Engine: "a deeper check of incremental BMC (--incremental-bmc)", By: "as the check it repeats", Starts: "after a FALSE of an unwinding property", Share: 1}
)

// Budgets lists the table in the order a check meets its engines.
var Budgets = []Budget{withoutOpaque, probe, mode, wholeBeside, loopBeside, race, raceExternal, roundsBeside, reconstruction, deepening, generalisation, limitCase, unfollowable, beyond, incrementalRound}

// DefaultProbe and DefaultBeyondMax are the table's probe and beyond
// limits, DefaultCheckOptions' Probe and BeyondMax (0 there is off).
const (
	DefaultProbe     = 5 * time.Second
	DefaultBeyondMax = 20 * time.Second
)

// WriteBudgets writes the table as docs/verifying.md shows it (Markdown;
// TestBudgets checks that the page holds exactly this).
func WriteBudgets(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| engine | starts | after | share of the time left | at least | at most | decides as |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, e := range Budgets {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", e.Engine, e.Starts, dur(e.Delay), fraction(e.Share), dur(e.Min), dur(e.Max), orDash(e.By))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func dur(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return d.String()
}

// fraction writes a share as a fraction with a small denominator.
func fraction(s float64) string {
	switch {
	case s == 0:
		return "-"
	case s == 1:
		return "all"
	}
	for d := 2; d <= 16; d++ {
		if n := s * float64(d); math.Abs(n-math.Round(n)) < 1e-9 {
			return fmt.Sprintf("%d/%d", int(math.Round(n)), d)
		}
	}
	return fmt.Sprintf("%.3g", s)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// searchOptions are the explicit-state search's options for b.
func searchOptions(b Budget) explicit.Options {
	return explicit.Options{Delay: b.Delay, Share: b.Share, Max: b.Max, Bytes: b.Bytes}
}

package cegpv_test

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/interp"
)

// TestExplicitBeside: Check races the explicit-state search beside the
// backend (here with no delay) on the explorable testdata programs with
// loops, in both modes; the verdict is the expected one whichever engine
// answers, and the search answers some of them.
func TestExplicitBeside(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	eo := explicit.Defaults
	eo.Delay = 0
	for _, mode := range cegpv.Modes {
		byExplicit := 0
		for _, pr := range progs(t) {
			p := lower(t, pr.Path, pr.Src)
			if !explicit.Applies(p) || interp.Explorable(p) != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Options: cegpv.Options{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: pr.Unwind}},
				Mode: mode, Explicit: &eo, Beyond: -1})
			cancel()
			if got := map[backend.Verdict]string{backend.Safe: "safe", backend.Unsafe: "unsafe"}[rep.Verdict]; got != pr.Expect {
				t.Errorf("%s %s: %v (%s), want %s", mode, pr.Name, rep.Verdict, rep.Reason, pr.Expect)
			}
			if rep.Result.Stats.States > 0 {
				byExplicit++
			}
		}
		if byExplicit == 0 {
			t.Errorf("%s: the explicit search answered no program", mode)
		}
		t.Logf("%s: %d programs answered by the explicit search", mode, byExplicit)
	}
}

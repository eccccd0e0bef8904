package cegpv

import (
	"context"
	"errors"
	"strings"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// loopOnly turns a verdict another engine decided into UNKNOWN and
// leaves the loop's and UNKNOWN alone (CheckOptions.LoopOnly).
func TestLoopOnlyVerdict(t *testing.T) {
	run := &program.Run{}
	for _, by := range []string{ByBackend, ByProbe, ByWhole, BySearch, ByBeyond, ByUnwinding} {
		rep := &Report{Verdict: backend.Unsafe, Property: "main.assertion.1", Run: run, DecidedBy: by}
		loopOnly(rep)
		if rep.Verdict != backend.Unknown || rep.Run != nil || rep.DecidedBy != "" || !strings.Contains(rep.Reason, "loop only") {
			t.Errorf("decided by %s: %+v", by, rep)
		}
	}
	rep := &Report{Verdict: backend.Safe, DecidedBy: ByLoop}
	if loopOnly(rep); rep.Verdict != backend.Safe {
		t.Errorf("the loop's TRUE became %v", rep.Verdict)
	}
	rep = &Report{Verdict: backend.Unknown, Reason: "timeout", Err: errors.New("x")}
	if loopOnly(rep); rep.Reason != "timeout" {
		t.Errorf("an UNKNOWN's reason became %q", rep.Reason)
	}
}

// TestWholeBeside: the whole program's check races the loop only in mode
// cegpv, not loop-only, under --rounds (over any backend).
func TestWholeBeside(t *testing.T) {
	for _, c := range []struct {
		mode             string
		loopOnly         bool
		external, rounds bool
		want             bool
	}{
		{ModeCEGPV, false, true, true, true},
		{"", false, true, true, true},
		{ModePlain, false, true, true, false},
		{ModeCEGPV, true, true, true, false},
		{ModeCEGPV, false, false, true, true},
		{ModeCEGPV, false, true, false, false},
	} {
		ch := &checker{opts: CheckOptions{Mode: c.mode, LoopOnly: c.loopOnly}}
		ch.opts.Backend = capsOnly{backend.Capabilities{External: c.external, Rounds: c.rounds}}
		if got := ch.wholeBeside(); got != c.want {
			t.Errorf("%+v: wholeBeside %v", c, got)
		}
	}
}

type capsOnly struct{ caps backend.Capabilities }

func (c capsOnly) Name() string                       { return "caps" }
func (c capsOnly) Capabilities() backend.Capabilities { return c.caps }
func (c capsOnly) Check(context.Context, *program.Program, backend.Bounds) (backend.Result, error) {
	return backend.Result{}, errors.New("not a checker")
}

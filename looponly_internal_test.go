package cegpv

import (
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
	for _, by := range []string{ByBackend, ByProbe, BySearch, ByBeyond, ByUnwinding} {
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

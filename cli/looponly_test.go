package cli

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// --loop-only: every TRUE and FALSE is the loop's, on a safe and an
// unsafe program; the flags that contradict it are usage errors.
func TestLoopOnly(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	for _, c := range []struct{ file, verdict string }{
		{"../testdata/progs/lazy_counter_unsafe.c", "FALSE"},
		{"../testdata/progs/locked_counter_safe.c", "TRUE"},
	} {
		code, out, errs := cliRun(t, "verify", "--loop-only", "--json", "--unwind", "3", c.file)
		var o struct {
			Verdict   string `json:"verdict"`
			DecidedBy string `json:"decided_by"`
		}
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("%s: exit %d: %v\n%s%s", c.file, code, err, out, errs)
		}
		if !strings.HasPrefix(o.Verdict, c.verdict) || o.DecidedBy != cegpv.ByLoop {
			t.Errorf("%s: verdict %q decided by %q, want %s by the loop", c.file, o.Verdict, o.DecidedBy, c.verdict)
		}
	}
	for _, bad := range [][]string{
		{"--mode", "plain"}, {"--probe", "3"}, {"--explicit"}, {"--beyond", "5"},
		{"--unwinding-assertions"}, {"--each-property"},
	} {
		args := append(append([]string{"verify", "--loop-only"}, bad...), "../testdata/progs/lazy_counter_unsafe.c")
		if code, _, errs := cliRun(t, args...); code != exitUsage || !strings.Contains(errs, "--loop-only with") {
			t.Errorf("%v: exit %d, want a usage error: %s", bad, code, errs)
		}
	}
}

// loopOnly turns a verdict another engine decided into UNKNOWN and
// leaves the loop's and UNKNOWN alone.
func TestLoopOnlyVerdict(t *testing.T) {
	run := &program.Run{}
	for _, by := range []string{cegpv.ByBackend, cegpv.ByProbe, cegpv.BySearch, cegpv.ByBeyond, cegpv.ByUnwinding} {
		rep := &cegpv.Report{Verdict: backend.Unsafe, Property: "main.assertion.1", Run: run, DecidedBy: by}
		loopOnly(rep)
		if rep.Verdict != backend.Unknown || rep.Run != nil || rep.DecidedBy != "" || !strings.Contains(rep.Reason, "--loop-only") {
			t.Errorf("decided by %s: %+v", by, rep)
		}
	}
	rep := &cegpv.Report{Verdict: backend.Safe, DecidedBy: cegpv.ByLoop}
	if loopOnly(rep); rep.Verdict != backend.Safe {
		t.Errorf("the loop's TRUE became %v", rep.Verdict)
	}
	rep = &cegpv.Report{Verdict: backend.Unknown, Reason: "timeout", Err: errors.New("x")}
	if loopOnly(rep); rep.Reason != "timeout" {
		t.Errorf("an UNKNOWN's reason became %q", rep.Reason)
	}
}

package cli

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"cegpv.dev/cegpv"
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

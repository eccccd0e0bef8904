package cli

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// The --refinement flag of verify: the observer pairing finds the bug of
// the paper's example, an unknown value is a usage error.
func TestVerifyRefinementFlag(t *testing.T) {
	const file = "../testdata/progs/paper_fig2.c"
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--refinement", "nonsense", file}, &out, &errb); code != exitUsage {
		t.Errorf("--refinement nonsense: exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(errb.String(), "unknown --refinement \"nonsense\"") {
		t.Errorf("stderr does not name the problem:\n%s", errb.String())
	}
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	out.Reset()
	errb.Reset()
	code := run(context.Background(), []string{"verify", "--probe", "0", "--sanity", "--refinement", "observer", "--unwind", "3", file}, &out, &errb)
	if code != exitUnsafe || !strings.Contains(out.String(), "FALSE(unreach-call)") || !strings.Contains(out.String(), "spurious counterexample") {
		t.Errorf("--refinement observer: exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, exitUnsafe, out.String(), errb.String())
	}
}

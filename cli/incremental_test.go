package cli

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// verify --unwindset and --incremental-bmc: a bad --unwindset, or one
// naming no loop of the program, is a usage error (exit 1) naming what
// is wrong; so are the flags' contradictions (--rounds, --loop-only);
// a bound per loop is stated in the verdict; --incremental-bmc proves a
// loop of constant bound 12 from --unwind 5 and names the bound it
// stopped at when the time runs out.
func TestVerifyUnwindSet(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	dir := "../testdata/incremental/"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--unwindset", "main.0"}, exitUsage, "--unwindset \"main.0\": want LOOP:BOUND, as main.0:12"},
		{[]string{"--unwindset", "main.0:0"}, exitUsage, "--unwindset \"main.0:0\": the bound \"0\" is not a number of at least 1"},
		{[]string{"--unwindset", "main.0:3,main.unwind.0:4"}, exitUsage, "loop main.0 has two bounds"},
		{[]string{"--unwindset", "main.7:3"}, exitUsage, "--unwindset: no loop or recursive function \"main.7\" in ../testdata/incremental/two_loops_safe.c (its loops: main.0, main.1)"},
		{[]string{"--unwindset", "main.0:3", "--rounds", "2"}, exitUsage, "--rounds 2 with --unwindset"},
		{[]string{"--incremental-bmc", "--loop-only"}, exitUsage, "--loop-only with --incremental-bmc"},
		{[]string{"--incremental-bmc", "--rounds", "2"}, exitUsage, "--rounds 2 with --incremental-bmc"},
		{[]string{"--unwinding-assertions", "--unwind", "4", "--unwindset", "main.0:13"}, exitSafe, "\nTRUE (proof: unwinding assertions hold for unwind 4, unwindset main.0:13)\n"},
		{[]string{"--unwinding-assertions", "--unwind", "4", "--unwindset", "main.0:12"}, exitUnsafe, "(unwinding assertion loop 0 of main (line 11): a run reaches unwind 12 (unwind 4, unwindset main.0:12))\n\nVERIFICATION FAILED\nFALSE(unwinding-assertion) property main.unwind.0\n"},
		{[]string{"--incremental-bmc", "--unwind", "4"}, exitSafe, "\nTRUE (proof: unwinding assertions hold for unwind 4, unwindset main.0:16)\n"},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"verify", "--sanity"}, tc.args...), dir+"two_loops_safe.c")
		code := run(context.Background(), args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
			t.Errorf("%v: exit %d, want %d and %q; stdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, tc.want, out.String(), errb.String())
		}
	}
	for _, tc := range []struct {
		file string
		args []string
		code int
		want string
	}{
		{"const12_safe.c", nil, exitSafe, "\nTRUE (proof: unwinding assertions hold for unwind 5, unwindset main.0:20,worker.0:20)\n"},
		{"bug9_unsafe.c", nil, exitUnsafe, "\nFALSE(unreach-call) property worker.assertion.1\n"},
		{"forever.c", []string{"--timeout", "3"}, exitUnknown, "\nUNKNOWN: incremental BMC: a run reaches unwind "},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"verify", "--incremental-bmc"}, tc.args...), dir+tc.file)
		code := run(context.Background(), args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s %v: exit %d, want %d and %q; stdout:\n%s\nstderr:\n%s", tc.file, tc.args, code, tc.code, tc.want, out.String(), errb.String())
		}
	}
}

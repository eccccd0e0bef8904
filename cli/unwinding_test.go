package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// verify --unwinding-assertions as CBMC: a loop whose bound is reached is
// a FALSE of its unwinding property (exit 10) naming the loop, in both
// modes; the bound that suffices gives a proof (exit 0); the properties
// are listed with the flag (text and JSON); --each-property checks them
// too; --rounds does not combine with the flag (usage error).
func TestVerifyUnwindingAssertions(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	f := "../testdata/progs/locked_counter_safe.c"
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--mode", "plain", "--unwind", "2"}, exitUnsafe, []string{"(unwinding assertion loop 0 of worker (line 16): a run reaches unwind 2)\n\nVERIFICATION FAILED\nFALSE(unwinding-assertion) property worker.unwind.0\n"}},
		{[]string{"--mode", "cegpv", "--probe", "0", "--unwind", "2"}, exitUnsafe, []string{"\nFALSE(unwinding-assertion) property worker.unwind.0\n"}},
		{[]string{"--unwind", "3"}, exitSafe, []string{"\nTRUE (proof: unwinding assertions hold for unwind 3)\n"}},
		{[]string{"--unwind", "2", "--json"}, exitUnsafe, []string{`"property": "worker.unwind.0"`, `"description": "unwinding assertion loop 0 of worker (line 16)"`}},
		{[]string{"--unwind", "2", "--each-property"}, exitUnsafe, []string{"[main.assertion.1] line 30 assertion counter == 4: SUCCESS\n[worker.unwind.0] line 16 unwinding assertion loop 0: FAILURE\n\n** 1 of 2 failed"}},
		{[]string{"--show-properties"}, 0, []string{"Property worker.unwind.0:\n  file " + f + " line 16 function worker\n  unwinding assertion loop 0\n"}},
		{[]string{"--rounds", "2"}, exitUsage, []string{"--rounds 2 with --unwinding-assertions"}},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"verify", "--sanity", "--unwinding-assertions"}, tc.args...), f)
		code := run(context.Background(), args, &out, &errb)
		for _, w := range tc.want {
			if code != tc.code || !strings.Contains(out.String()+errb.String(), w) {
				t.Errorf("%v: exit %d, want %d and %q; stdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, w, out.String(), errb.String())
			}
		}
	}
	// without the flag: no unwinding property listed, a bounded TRUE
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--show-properties", "--json", f}, &out, &errb); code != 0 || strings.Contains(out.String(), "unwind") {
		t.Errorf("--show-properties without the flag: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"verify", "--show-properties", "--json", "--unwinding-assertions", f}, &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var props []struct{ ID, Function, Description string }
	if err := json.Unmarshal(out.Bytes(), &props); err != nil || len(props) != 2 || props[1].ID != "worker.unwind.0" || props[1].Description != "unwinding assertion loop 0" {
		t.Errorf("%v %+v", err, props)
	}
	// --incremental-bmc checks them too (cegpv.CheckOptions.CheckedBounds)
	out.Reset()
	if code := run(context.Background(), []string{"verify", "--show-properties", "--json", "--incremental-bmc", f}, &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	props = nil
	if err := json.Unmarshal(out.Bytes(), &props); err != nil || len(props) != 2 || props[1].ID != "worker.unwind.0" {
		t.Errorf("--incremental-bmc: %v %+v", err, props)
	}
	out.Reset()
	if code := run(context.Background(), []string{"verify", "--unwind", "2", "--beyond", "0", f}, &out, &errb); code != exitSafe || !strings.HasSuffix(out.String(), "TRUE (bounded: no violation within unwind 2)\n") {
		t.Errorf("without the flag: exit %d\n%s", code, out.String())
	}
}

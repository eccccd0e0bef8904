package cli

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// --signed-overflow-check adds a property per signed operation: listed by
// --show-properties, and a violation is FALSE(no-overflow). Without it the
// program holds (its one assertion-free run overflows: gcc
// -fsanitize=signed-integer-overflow when k == 3, testdata/overflow).
func TestSignedOverflowFlag(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	const f = "../testdata/overflow/progs/neg_unsafe.c"
	var out, errb bytes.Buffer
	run(context.Background(), []string{"verify", "--show-properties", "--signed-overflow-check", f}, &out, &errb)
	if !strings.Contains(out.String(), "Property negate.overflow.1:") || !strings.Contains(out.String(), "arithmetic overflow on signed unary minus in ") {
		t.Errorf("--show-properties:\n%s%s", out.String(), errb.String())
	}
	out.Reset()
	code := run(context.Background(), []string{"verify", "--unwind", "2", "--signed-overflow-check", f}, &out, &errb)
	if code != exitUnsafe || !strings.HasSuffix(out.String(), "\nFALSE(no-overflow) property negate.overflow.1\n") {
		t.Errorf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"verify", "--unwind", "2", f}, &out, &errb); code != exitSafe {
		t.Errorf("without the checks: exit %d:\n%s%s", code, out.String(), errb.String())
	}
}

package cli

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// validate confirms the witness verify writes for a FALSE (both formats):
// FALSE(unreach-call) as the last line, exit 10; a missing --witness is a
// usage error.
func TestValidateOwnWitness(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed (make deps installs it)")
	}
	f := "../testdata/progs/lazy_counter_unsafe.c"
	for _, ext := range []string{".graphml", ".yml"} {
		w := filepath.Join(t.TempDir(), "w"+ext)
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"verify", "--unwind", "3", "--witness", w, f}, &out, &errb); code != exitUnsafe {
			t.Fatalf("verify: exit %d\n%s%s", code, out.String(), errb.String())
		}
		out.Reset()
		code := run(context.Background(), []string{"validate", "--unwind", "3", "--witness", w, f}, &out, &errb)
		if code != exitUnsafe || !strings.HasSuffix(out.String(), "FALSE(unreach-call) property main.assertion.1\n") {
			t.Errorf("validate %s: exit %d\n%s%s", ext, code, out.String(), errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"validate", f}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--witness") {
		t.Errorf("no --witness: exit %d, %s", code, errb.String())
	}
}

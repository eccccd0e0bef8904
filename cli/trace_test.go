package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The default text counterexample lists source lines with the values of
// program variables: one row per line a thread executes (the steps of a
// lowered expression folded into it), no temporaries, the source text
// itself; --trace steps lists every step of the model, temporaries
// included.
func TestVerifyTraceStyles(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	f := filepath.Join(t.TempDir(), "race.c")
	src := `#include <pthread.h>
#include <assert.h>
int x, y;
void *t(void *a) {
	x = y + 1 > 0 && y < 5 ? 2 : 3;
	return 0;
}
int main(void) {
	pthread_t h;
	pthread_create(&h, 0, t, 0);
	y = 7;
	pthread_join(h, 0);
	assert(x != 2);
	return 0;
}
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	verify := func(args ...string) string {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"verify", "--timeout", "60s"}, append(args, f)...), &out, &errb)
		if code != exitUnsafe {
			t.Fatalf("verify %v: exit %d, want %d\n%s%s", args, code, exitUnsafe, out.String(), errb.String())
		}
		return out.String()
	}
	for _, mode := range []string{"plain", "cegpv"} {
		out := verify("--mode", mode)
		// the listing ends before the summary lines (the verdict comes last)
		end := strings.Index(out, "\nstats: ")
		if i := strings.Index(out, "\ncegpv: "); i >= 0 && i < end {
			end = i
		}
		trace := out[:end]
		if strings.Contains(trace, "__tmp") {
			t.Errorf("%s: source trace shows temporaries:\n%s", mode, out)
		}
		// the thread's assignment is one row, with its function, source
		// text and the value it stored, and the row of the assertion ends
		// the listing, with the value it read and where it was stored
		row := regexp.MustCompile(`(?m)^ +\d+ +1:t +5 +t +x = y \+ 1 > 0 && y < 5 \? 2 : 3; +x=2$`)
		if n := len(row.FindAllString(trace, -1)); n != 1 {
			t.Errorf("%s: want one row for line 5 with x=2, got %d:\n%s", mode, n, out)
		}
		rows := strings.Split(strings.TrimSpace(trace), "\n")
		if !regexp.MustCompile(`^ +reads x=2 \(stored at step \d+ by 1:t line 5\)$`).MatchString(rows[len(rows)-1]) {
			t.Errorf("%s: the assertion's read of x is not shown as stored by 1:t on line 5:\n%s", mode, out)
		}
		if last := rows[len(rows)-2]; !strings.Contains(last, "0:main") || !strings.Contains(last, "13") || !strings.Contains(last, "assert(x != 2);") {
			t.Errorf("%s: last row is %q, want main's assertion on line 13", mode, last)
		}
		if !regexp.MustCompile(`Counterexample \(\d+ source lines executed, \d+ steps`).MatchString(out) {
			t.Errorf("%s: header missing:\n%s", mode, out)
		}
	}
	steps := verify("--mode", "plain", "--trace", "steps")
	if !strings.Contains(steps, "t::__tmp_") || !regexp.MustCompile(`Counterexample \(\d+ steps\)`).MatchString(steps) {
		t.Errorf("--trace steps does not list the model's steps:\n%s", steps)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--trace", "lines", f}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), `unknown --trace "lines"`) {
		t.Errorf("--trace lines: exit %d, stderr %q", code, errb.String())
	}
}

package cegpv_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/overflow"
	"cegpv.dev/cegpv/program"
)

// TestSignedOverflow checks the programs of testdata/overflow/progs with
// the signed-overflow checks (overflow.Add, --signed-overflow-check), in
// both modes: FALSE at an overflow property exactly for those whose header
// says "expect: overflow". The headers are decided by gcc
// -fsanitize=signed-integer-overflow,shift, -m32 and -m64, over every
// choice of their nondet values (0..3 each, "nondet: N" of them), and are
// decided again here when gcc can build the programs. Without the checks
// every program holds (none has a failing assertion).
func TestSignedOverflow(t *testing.T) {
	needZ3(t)
	files, err := filepath.Glob("testdata/overflow/progs/*.c")
	if err != nil || len(files) < 5 {
		t.Fatalf("testdata/overflow/progs: %d programs, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Contains(string(src), "// expect: overflow\n")
			if !want && !strings.Contains(string(src), "// expect: no overflow\n") {
				t.Fatal("no expect header")
			}
			if got, ok := gccOverflows(t, f, src); ok && got != want {
				t.Fatalf("gcc: overflow %v, the header says %v", got, want)
			}
			p, err := lowerFile(f, src)
			if err != nil {
				t.Fatal(err)
			}
			q, _ := overflow.Add(p)
			for _, mode := range cegpv.Modes {
				for _, c := range []struct {
					p     *program.Program
					wantV backend.Verdict
				}{{q, map[bool]backend.Verdict{true: backend.Unsafe, false: backend.Safe}[want]}, {p, backend.Safe}} {
					ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
					rep := cegpv.Check(ctx, c.p, cegpv.CheckOptions{Options: loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}),
						Bounds: backend.Bounds{Unwind: 3}}, Mode: mode})
					cancel()
					if rep.Verdict != c.wantV || (rep.Verdict == backend.Unsafe && program.PropKind(rep.Property) != overflow.Kind) {
						t.Errorf("%s, checks %v: %v %s (%s), want %v", mode, c.p == q, rep.Verdict, rep.Property, rep.Reason, c.wantV)
					}
				}
			}
		})
	}
}

// gccOverflows compiles f with gcc -fsanitize=signed-integer-overflow,shift
// (-m32 and -m64) and runs it on every choice of its nondet values (0..3
// each, as many as its "nondet: N" header says, taken in call order from
// $K); ok is false when gcc cannot build it.
func gccOverflows(t *testing.T, f string, src []byte) (overflows, ok bool) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		return false, false
	}
	n := 0
	for _, l := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(l, "// nondet: "); ok {
			n, _ = strconv.Atoi(rest)
		}
	}
	dir := t.TempDir()
	stub := filepath.Join(dir, "stub.c")
	os.WriteFile(stub, []byte(`#include <stdlib.h>
static int calls;
int __VERIFIER_nondet_int(void) {
  const char *s = getenv("K");
  for (int i = calls++; s && *s && i > 0; s++)
    if (*s == ',') i--;
  return s && *s ? atoi(s) : 0;
}
void __VERIFIER_assume(int c) { if (!c) exit(0); }
`), 0o644)
	abs, _ := filepath.Abs(f)
	for _, m := range []string{"-m32", "-m64"} {
		bin := filepath.Join(dir, "prog"+m)
		if out, err := exec.Command("gcc", m, "-pthread", "-w", "-fsanitize=signed-integer-overflow,shift", "-fno-sanitize-recover=all", "-o", bin, abs, stub).CombinedOutput(); err != nil {
			t.Logf("gcc %s cannot build %s (%v): %s", m, f, err, out)
			return false, false
		}
		for c := 0; c < 1<<(2*n); c++ {
			var ks []string
			for i := 0; i < n; i++ {
				ks = append(ks, strconv.Itoa(c>>(2*i)&3))
			}
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), "K="+strings.Join(ks, ","))
			out, err := cmd.CombinedOutput()
			if strings.Contains(string(out), "runtime error") {
				return true, true
			}
			if err != nil {
				t.Fatalf("%s K=%s: %v: %s", m, strings.Join(ks, ","), err, out)
			}
		}
	}
	return false, true
}

// A counterexample of an assertion whose run overflows a signed operation
// says so at that step (Report.Overflows), and only there. The program
// overflows in every run (INT_MAX - 1 + 2; gcc -fsanitize=signed-integer-
// overflow reports it, -m32 and -m64), and the assertion then fails.
func TestOverflowInTrace(t *testing.T) {
	needZ3(t)
	src := `#include <pthread.h>
#include <assert.h>
#include <limits.h>
int x = INT_MAX - 1, y;
void *t(void *a) { y = x + 2; return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  int z = y / 2 - 1;
  assert(y > 0);
  return 0;
}
`
	p := lower(t, "ub.c", []byte(src))
	for _, mode := range cegpv.Modes {
		rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{Options: loop.Options{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 2}}, Mode: mode})
		if rep.Verdict != backend.Unsafe || rep.Property != "main.assertion.1" {
			t.Fatalf("%s: %v %s (%s)", mode, rep.Verdict, rep.Property, rep.Reason)
		}
		var got []string
		ix := program.NewIndex(p)
		for _, o := range rep.Overflows {
			got = append(got, fmt.Sprintf("%d:%s", ix.Instr[rep.Run.Steps[o.Step].Label].Pos.Line, o.Msg))
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "5:arithmetic overflow on signed + in ") {
			t.Errorf("%s: overflows %q, want the addition of line 5", mode, got)
		}
		q, _ := overflow.Add(p)
		rep = cegpv.Check(context.Background(), q, cegpv.CheckOptions{Options: loop.Options{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 2}}, Mode: mode})
		if rep.Verdict != backend.Unsafe || len(rep.Overflows) != 0 {
			t.Errorf("%s, with the checks: %v %s, %d overflows noted (they are properties)", mode, rep.Verdict, rep.Property, len(rep.Overflows))
		}
	}
}

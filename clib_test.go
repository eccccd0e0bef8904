package cegpv_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// gccHarness gives a test program compiled by gcc the SV-COMP library:
// __VERIFIER_nondet_* draw random values, half of the time one of the
// edge values of the type (0, 1, -1, the extremes), so that a few hundred
// runs meet the boundaries a bug hides behind; __VERIFIER_assume ends a
// run that fails it as a success.
const gccHarness = `
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static pthread_mutex_t cg_m = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long cg_s;
static unsigned long long cg_bits(void) {
	pthread_mutex_lock(&cg_m);
	if (cg_s == 0) cg_s = ((unsigned long long)getpid() << 32) ^ (unsigned long long)time(0) ^ (unsigned long long)clock() ^ 0x9e3779b97f4a7c15ULL;
	cg_s ^= cg_s << 13; cg_s ^= cg_s >> 7; cg_s ^= cg_s << 17;
	unsigned long long r = cg_s;
	pthread_mutex_unlock(&cg_m);
	return r;
}
static const long long cg_edge[] = {0, 1, 2, -1, -2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
	0x7fffffffLL, 0x80000000LL, 0xffffffffLL, 0x7fffffffffffffffLL, (long long)0x8000000000000000ULL};
static unsigned long long cg_draw(void) {
	unsigned long long b = cg_bits();
	if (b & 1) return (unsigned long long)cg_edge[(b >> 1) % (sizeof cg_edge / sizeof cg_edge[0])];
	return cg_bits();
}
#define CG_NONDET(name, T) T __VERIFIER_nondet_##name(void) { return (T)cg_draw(); }
CG_NONDET(bool, _Bool)
CG_NONDET(char, char)
CG_NONDET(uchar, unsigned char)
CG_NONDET(short, short)
CG_NONDET(ushort, unsigned short)
CG_NONDET(int, int)
CG_NONDET(uint, unsigned int)
CG_NONDET(long, long)
CG_NONDET(ulong, unsigned long)
CG_NONDET(longlong, long long)
CG_NONDET(ulonglong, unsigned long long)
CG_NONDET(size_t, size_t)
CG_NONDET(u32, unsigned int)
CG_NONDET(pointer, void *)
CG_NONDET(unsigned, unsigned int)
CG_NONDET(loff_t, long long)
CG_NONDET(sector_t, unsigned long long)
CG_NONDET(pchar, char *)
void __VERIFIER_assume(int c) { if (!c) exit(0); }
`

// gccFails compiles src with gcc -pthread in the data model of flag (-m32
// or -m64) with gccHarness and runs it n times (until the first failure
// with stopAtFirst); it returns how many runs
// violated an assertion (glibc's assert, which reach_error and
// __assert_fail share, reports "Assertion ... failed"); a run that ends in
// abort, exit or a trap is not a violation, as in SV-COMP.
func gccFails(t *testing.T, dir, name string, src []byte, flag string, n int, stopAtFirst bool) int {
	t.Helper()
	prog := filepath.Join(dir, name+".c")
	harness := filepath.Join(dir, "harness.c")
	exe := filepath.Join(dir, name+flag)
	if err := os.WriteFile(prog, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(harness, []byte(gccHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("gcc", "-pthread", flag, "-O0", "-w", "-o", exe, prog, harness).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: gcc %s: %v\n%s", name, flag, err, out)
	}
	fails := 0
	for range n {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, exe)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		cancel()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("%s: running %s: %v", name, exe, err)
		}
		if err != nil && strings.Contains(stderr.String(), "Assertion") {
			fails++
			if stopAtFirst {
				break
			}
		}
	}
	return fails
}

// TestCLibraryAgainstGCC checks the programs of testdata/clib, one per
// construct of the C library, the GCC builtins and the SV-COMP library
// that the front end models (issue 30): the header's expectation is first
// confirmed by gcc -pthread -m32 and -m64 (an unsafe program fails in
// some run, a safe one in none of them), then cegpv must give that verdict
// in both data models in plain mode, and in ILP32 in cegpv mode.
func TestCLibraryAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	needZ3(t)
	ps, err := testenv.ProgsIn(filepath.Join("testdata", "clib"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// a safe program runs this often; an unsafe one until its first failing
	// run, at most 500 times (each unsafe program fails in at least 1 of 16
	// runs: missing it 500 times has probability below 1e-14)
	runs := 80
	if testing.Short() {
		runs = 30
	}
	for _, pr := range ps {
		t.Run(strings.TrimSuffix(pr.Name, ".c"), func(t *testing.T) {
			base := strings.TrimSuffix(pr.Name, ".c")
			for _, flag := range []string{"-m32", "-m64"} {
				n := runs
				if pr.Expect == "unsafe" {
					n = 500
				}
				fails := gccFails(t, dir, base, pr.Src, flag, n, pr.Expect == "unsafe")
				if (fails > 0) != (pr.Expect == "unsafe") {
					t.Fatalf("gcc %s: %d of %d runs failed, but the program says it is %s", flag, fails, n, pr.Expect)
				}
			}
			want := backend.Safe
			if pr.Expect == "unsafe" {
				want = backend.Unsafe
			}
			for _, model := range []program.DataModel{program.ILP32, program.LP64} {
				p, err := frontend.Lower(pr.Name, pr.Src, frontend.Options{Model: model})
				if err != nil {
					t.Fatalf("%s: %v", model, err)
				}
				modes := []string{cegpv.ModePlain}
				if model == program.ILP32 {
					modes = append(modes, cegpv.ModeCEGPV) // the loop over the same backend: one data model is enough
				}
				for _, mode := range modes {
					ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
					rep := cegpv.Check(ctx, p, cegpv.CheckOptions{Mode: mode, Options: loop.Options{
						Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: pr.Unwind}}})
					cancel()
					if rep.Verdict != want {
						t.Errorf("%s, mode %s: %s (%s), want %s", model, mode, rep.Verdict, reason(rep), want)
					}
				}
			}
		})
	}
}

func reason(r *cegpv.Report) string {
	if r.Err != nil {
		return r.Err.Error()
	}
	return fmt.Sprint(r.Reason)
}

// TestBuiltinUndefinedIsUnknown checks that a violation that needs the
// result of __builtin_clz(0) or __builtin_ctz(0) (undefined in GCC: the
// x86 instruction leaves it undefined, so no run decides it) is UNKNOWN,
// never FALSE, and that a property holding for every result is TRUE.
func TestBuiltinUndefinedIsUnknown(t *testing.T) {
	needZ3(t)
	const src = `#include <assert.h>
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  int c = __builtin_%s(x);
  assert(%s);
  return 0;
}`
	for _, tc := range []struct {
		f, cond string
		want    backend.Verdict
	}{
		{"clz", "x != 0 || c != 5", backend.Unknown},
		{"ctz", "x != 0 || c != 5", backend.Unknown},
		{"clz", "x == 0 || c < 32", backend.Safe},
		{"ctz", "c != 7 || (x & 0xff) == 0x80", backend.Unknown}, // holds for every x != 0
	} {
		p := lower(t, tc.f+".c", []byte(fmt.Sprintf(src, tc.f, tc.cond)))
		rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{Mode: cegpv.ModePlain, Options: loop.Options{
			Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 2}}})
		if rep.Verdict != tc.want {
			t.Errorf("%s, assert(%s): %s (%s), want %s", tc.f, tc.cond, rep.Verdict, reason(rep), tc.want)
		}
		if rep.Verdict == backend.Unknown && !strings.Contains(reason(rep), "__builtin_"+tc.f+"(0)") {
			t.Errorf("%s, assert(%s): UNKNOWN for another reason: %s", tc.f, tc.cond, reason(rep))
		}
	}
}

// TestMallocMayFail checks frontend.Options.MallocMayFail: malloc and
// calloc return a null pointer in some run only with it (C11 7.22.3: a
// null pointer when the space cannot be allocated; gcc runs cannot
// decide it, the option says whether the model includes it), so a
// program that uses the block unchecked is TRUE without it and FALSE with
// it, and one that checks it is TRUE in both.
func TestMallocMayFail(t *testing.T) {
	needZ3(t)
	const unchecked = `#include <stdlib.h>
#include <assert.h>
int main(void) {
  int *p = malloc(sizeof(int));
  int *q = calloc(2, sizeof(int));
  assert(p != 0 && q != 0);
  *p = q[1];
  return *p;
}`
	const checked = `#include <stdlib.h>
#include <assert.h>
int *g;
int main(void) {
  g = malloc(2 * sizeof(int));
  if (g == 0)
    return 1;
  g[1] = 3;
  assert(g[1] == 3);
  free(g);
  return 0;
}`
	for _, tc := range []struct {
		src     string
		mayFail bool
		want    backend.Verdict
	}{
		{unchecked, false, backend.Safe},
		{unchecked, true, backend.Unsafe},
		{checked, false, backend.Safe},
		{checked, true, backend.Safe},
	} {
		p, err := frontend.Lower("malloc.c", []byte(tc.src), frontend.Options{MallocMayFail: tc.mayFail})
		if err != nil {
			t.Fatal(err)
		}
		rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{Mode: cegpv.ModePlain, Options: loop.Options{
			Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 2}}})
		if rep.Verdict != tc.want {
			t.Errorf("may fail %v:\n%s\n%s (%s), want %s", tc.mayFail, tc.src, rep.Verdict, reason(rep), tc.want)
		}
	}
}

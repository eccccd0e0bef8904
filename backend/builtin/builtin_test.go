package builtin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/internal/lowertest"

	"cegpv.dev/cegpv/internal/testenv"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

func needZ3(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
}

const header = `
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
`

func lower(t testing.TB, name, src string) *program.Program {
	t.Helper()
	return lowertest.C(t, name+".c", header+src)
}

func check(t testing.TB, p *program.Program, b backend.Bounds) backend.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	res, err := New(Options{}).Check(ctx, p, b)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	if res.Verdict == backend.Unsafe {
		out, err := interp.Replay(p, res.Run)
		if err != nil || out.Status != interp.Violated {
			t.Fatalf("unsafe run does not replay: %v %v", err, out)
		}
	}
	return res
}

type ctest struct {
	name   string
	src    string
	want   backend.Verdict
	unwind int
	uwa    bool   // unwinding assertions
	proof  bool   // want Proof (with uwa)
	reason string // a substring of the reason of an UNKNOWN
	prop   string // the violated property of an UNSAFE, if given
}

func runCTests(t *testing.T, tests []ctest) {
	needZ3(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := lower(t, tc.name, tc.src)
			u := tc.unwind
			if u == 0 {
				u = 3
			}
			res := check(t, p, backend.Bounds{Unwind: u, UnwindingAssertions: tc.uwa})
			if res.Verdict != tc.want {
				t.Fatalf("verdict %v (%s), want %v", res.Verdict, res.Reason, tc.want)
			}
			if !strings.Contains(res.Reason, tc.reason) {
				t.Fatalf("reason %q, want one about %q", res.Reason, tc.reason)
			}
			if tc.uwa && res.Verdict == backend.Safe && res.Proof != tc.proof {
				t.Fatalf("proof = %v, want %v", res.Proof, tc.proof)
			}
			if res.Verdict == backend.Unsafe {
				if tc.prop != "" && res.Run.Violated != tc.prop {
					t.Fatalf("violates %s, want %s", res.Run.Violated, tc.prop)
				}
				t.Logf("run of %d steps, %d events, solver %v", len(res.Run.Steps), res.Stats.Events, res.Stats.SolverTime)
			}
		})
	}
}

func TestSequential(t *testing.T) {
	runCTests(t, []ctest{
		{name: "wrap_unsafe", want: backend.Unsafe, src: `
int main() { unsigned char c = 255; c = c + 1; assert(c != 0); return 0; }`},
		{name: "wrap_safe", want: backend.Safe, src: `
int main() { unsigned char c = 255; c = c + 1; assert(c == 0); return 0; }`},
		{name: "signed_unsigned_unsafe", want: backend.Unsafe, src: `
int main() { int a = -1; unsigned int b = 1; assert(a < b); return 0; }`},
		{name: "signed_unsigned_safe", want: backend.Safe, src: `
int main() { int a = -1; int b = 1; unsigned int c = 1; assert(a < b); assert((unsigned int)a > c); return 0; }`},
		{name: "division_safe", want: backend.Safe, src: `
int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 0 && x < 1000);
  assert(x / 7 * 7 + x % 7 == x); assert(-7 / 2 == -3); assert(-7 % 2 == -1); return 0; }`},
		{name: "division_unsafe", want: backend.Unsafe, src: `
int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > -10 && x < 10);
  assert(x / 2 * 2 == x); return 0; }`},
		{name: "shift_safe", want: backend.Safe, src: `
int main() { int m = -8; unsigned int u = 0x80000000u; assert((m >> 1) == -4); assert((u >> 31) == 1);
  unsigned int s = __VERIFIER_nondet_uint(); __VERIFIER_assume(s < 32); assert(((1u << s) >> s) == 1); return 0; }`},
		{name: "shift_unsafe", want: backend.Unsafe, src: `
int main() { int s = __VERIFIER_nondet_int(); __VERIFIER_assume(s >= 0 && s < 40); int v = 1 << s; assert(v != 0); return 0; }`},
		{name: "magic_unsafe", want: backend.Unsafe, src: `
int main() { unsigned int x = __VERIFIER_nondet_uint(); if (x * 3u + 7u == 0xdeadbeefu) { assert(0); } return 0; }`},
		{name: "magic_safe", want: backend.Safe, src: `
int main() { unsigned int x = __VERIFIER_nondet_uint(); if (x == 0xdeadbeefu) { assert(x + 1u == 0xdeadbef0u); } return 0; }`},
		{name: "array_symidx_unsafe", want: backend.Unsafe, src: `
int a[4];
int main() { int i = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < 4); a[i] = 5; assert(a[2] != 5); return 0; }`},
		{name: "array_symidx_safe", want: backend.Safe, src: `
int a[4];
int main() { int i = __VERIFIER_nondet_int(); __VERIFIER_assume(i >= 0 && i < 4); a[i] = 5; assert(a[i] == 5); assert(a[0] == 0 || i == 0); return 0; }`},
		{name: "struct_unsafe", want: backend.Unsafe, src: `
struct s { int a; int b; } g;
int main() { struct s l; l.a = 1; l.b = 2; g = l; assert(g.b == 1); return 0; }`},
		{name: "struct_safe", want: backend.Safe, src: `
struct s { int a; int b; } g;
int main() { struct s l; l.a = 1; l.b = 2; g = l; assert(g.b == 2 && g.a == 1); return 0; }`},
		{name: "pointer_unsafe", want: backend.Unsafe, src: `
int x, y;
int main() { int *p = __VERIFIER_nondet_int() ? &x : &y; *p = 3; assert(x == 0); return 0; }`},
		{name: "pointer_safe", want: backend.Safe, src: `
int x, y;
int main() { int *p = __VERIFIER_nondet_int() ? &x : &y; *p = 3; assert(x == 3 || y == 3); assert(x + y == 3); return 0; }`},
		{name: "loop_unsafe", want: backend.Unsafe, unwind: 5, src: `
int main() { int i = 0; int s = 0; while (i < 3) { s = s + i; i = i + 1; } assert(s != 3); return 0; }`},
		{name: "loop_unwinding_unsafe", want: backend.Unsafe, unwind: 2, uwa: true, prop: "main.unwind.0", src: `
int main() { int i = 0; while (i < 10) { i = i + 1; } assert(i == 10); return 0; }`},
		{name: "loop_bounded_safe", want: backend.Safe, unwind: 2, src: `
int main() { int i = 0; while (i < 10) { i = i + 1; } assert(i == 10); return 0; }`},
		{name: "loop_proof_safe", want: backend.Safe, unwind: 4, uwa: true, proof: true, src: `
int main() { int i = 0; while (i < 3) { i = i + 1; } assert(i == 3); return 0; }`},
		{name: "call_unsafe", want: backend.Unsafe, src: `
int f(int x) { return x + 1; }
int main() { int y = f(2); assert(y == 4); return 0; }`},
		{name: "recursion_safe", want: backend.Safe, unwind: 5, src: `
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main() { assert(fact(4) == 24); return 0; }`},
	})
}

func TestConcurrent(t *testing.T) {
	runCTests(t, []ctest{
		{name: "race_unsafe", want: backend.Unsafe, src: `
int x;
void *t(void *a) { int l = x; x = l + 1; return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }`},
		{name: "mutex_safe", want: backend.Safe, src: `
int x; pthread_mutex_t m;
void *t(void *a) { pthread_mutex_lock(&m); int l = x; x = l + 1; pthread_mutex_unlock(&m); return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }`},
		{name: "atomic_safe", want: backend.Safe, src: `
int x;
void *t(void *a) { __VERIFIER_atomic_begin(); int l = x; x = l + 1; __VERIFIER_atomic_end(); return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }`},
		{name: "join_missing_unsafe", want: backend.Unsafe, src: `
int x;
void *t(void *a) { x = 1; return 0; }
int main() { pthread_t a; pthread_create(&a, 0, t, 0); assert(x == 1); return 0; }`},
		{name: "join_safe", want: backend.Safe, src: `
int x;
void *t(void *a) { x = 1; return 0; }
int main() { pthread_t a; pthread_create(&a, 0, t, 0); pthread_join(a, 0); assert(x == 1); return 0; }`},
		{name: "prefix_unsafe", want: backend.Unsafe, src: `
void *t(void *a) { assert(0); return 0; }
int main() { pthread_t a; pthread_create(&a, 0, t, 0); __VERIFIER_assume(0); return 0; }`},
		{name: "blocked_lock_unsafe", want: backend.Unsafe, src: `
pthread_mutex_t m; int x;
void *t(void *a) { pthread_mutex_lock(&m); x = 1; return 0; }
void *u(void *a) { pthread_mutex_lock(&m); return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, u, 0); assert(x == 0); return 0; }`},
		{name: "blocked_lock_safe", want: backend.Safe, src: `
pthread_mutex_t m; int x;
void *t(void *a) { pthread_mutex_lock(&m); x = 1; return 0; }
void *u(void *a) { pthread_mutex_lock(&m); assert(x == 0); return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, u, 0); return 0; }`},
		{name: "spawn_loop_unsafe", want: backend.Unsafe, src: `
int c;
void *t(void *a) { __VERIFIER_atomic_begin(); c = c + 1; __VERIFIER_atomic_end(); return 0; }
int main() { pthread_t h[3]; int i; for (i = 0; i < 3; i++) pthread_create(&h[i], 0, t, 0);
  for (i = 0; i < 3; i++) pthread_join(h[i], 0); assert(c != 3); return 0; }`, unwind: 4},
		{name: "spawn_loop_safe", want: backend.Safe, src: `
int c;
void *t(void *a) { __VERIFIER_atomic_begin(); c = c + 1; __VERIFIER_atomic_end(); return 0; }
int main() { pthread_t h[3]; int i; for (i = 0; i < 3; i++) pthread_create(&h[i], 0, t, 0);
  for (i = 0; i < 3; i++) pthread_join(h[i], 0); assert(c == 3); return 0; }`, unwind: 4},
		{name: "array_cells_unsafe", want: backend.Unsafe, src: `
int a[2];
void *t(void *p) { a[1] = 7; return 0; }
int main() { pthread_t h; pthread_create(&h, 0, t, 0); a[0] = 3; pthread_join(h, 0); assert(a[0] != 3 || a[1] != 7); return 0; }`},
		{name: "array_cells_safe", want: backend.Safe, src: `
int a[2];
void *t(void *p) { a[1] = 7; return 0; }
int main() { pthread_t h; pthread_create(&h, 0, t, 0); a[0] = 3; pthread_join(h, 0); assert(a[0] == 3 && a[1] == 7); return 0; }`},
		{name: "heap_unsafe", want: backend.Unsafe, src: `
#include <stdlib.h>
#include <stdio.h>
int *p;
void *t(void *a) { *p = 5; return 0; }
int main() { pthread_t h; p = malloc(sizeof(int)); *p = 1; pthread_create(&h, 0, t, 0); assert(*p == 1); return 0; }`},
		{name: "heap_safe", want: backend.Safe, src: `
#include <stdlib.h>
#include <stdio.h>
int *p;
void *t(void *a) { *p = 5; return 0; }
int main() { pthread_t h; p = malloc(sizeof(int)); *p = 1; pthread_create(&h, 0, t, 0); pthread_join(h, 0); assert(*p == 5); return 0; }`},
		{name: "context_switches_unsafe", want: backend.Unsafe, src: `
int s;
void *t1(void *a) { s = 1; if (s == 2) { s = 3; if (s == 4) { s = 5; } } return 0; }
void *t2(void *a) { if (s == 1) { s = 2; if (s == 3) { s = 4; if (s == 5) assert(0); } } return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }`},
		{name: "context_switches_safe", want: backend.Safe, src: `
int s;
void *t1(void *a) { s = 1; if (s == 2) { s = 3; if (s == 4) { s = 5; } } return 0; }
void *t2(void *a) { if (s == 1) { s = 2; if (s == 3) { s = 4; if (s == 6) assert(0); } } return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }`},
	})
}

func TestCancel(t *testing.T) {
	needZ3(t)
	p := lower(t, "cancel", `
int main() { unsigned int x = __VERIFIER_nondet_uint(), y = __VERIFIER_nondet_uint();
  __VERIFIER_assume(x > 1 && y > 1 && x < 65536 && y < 65536); assert(x * y != 2147483647u * 2u + 1u - 4u); return 0; }`)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := New(Options{}).Check(ctx, p, backend.Bounds{Unwind: 1})
	if err != nil && program.KindOf(err) != program.Timeout {
		t.Fatalf("got %v, want nil or a Timeout", err)
	}
	if err != nil && !strings.Contains(err.Error(), "timeout") && !strings.Contains(err.Error(), "context") {
		t.Logf("error: %v", err)
	}
}

func TestProgs(t *testing.T) {
	needZ3(t)
	files, _ := filepath.Glob("../../testdata/progs/*.c")
	if len(files) == 0 {
		t.Skip("no testdata/progs")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, b, p, err := progFile(t, f)
			if err != nil {
				t.Skipf("frontend: %v", err)
			}
			// any UNKNOWN, timeout included, fails: every testdata
			// program gets its expected verdict
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := New(Options{}).Check(ctx, p, b)
			if err != nil {
				t.Fatalf("%s: %v", want, err)
			}
			t.Logf("%v %s (%v, %d events)", res.Verdict, res.Reason, res.Stats.Total, res.Stats.Events)
			switch {
			case want == "safe" && res.Verdict == backend.Unsafe, want == "unsafe" && res.Verdict == backend.Safe && res.Proof:
				t.Fatalf("WRONG: %v, expected %s", res.Verdict, want)
			case want == "unsafe" && res.Verdict == backend.Safe:
				// the header's bounds contain the bug
				t.Fatalf("MISSED: %v within %+v, expected %s", res.Verdict, b, want)
			case want == "unsafe" && res.Verdict != backend.Unsafe, want == "safe" && res.Verdict != backend.Safe:
				t.Fatalf("verdict %v (%s), expected %s", res.Verdict, res.Reason, want)
			}
		})
	}
}

// progFile reads a testdata program: its expected verdict and bounds (from
// its header) and its lowering (err: the front end's error).
func progFile(t *testing.T, f string) (string, backend.Bounds, *program.Program, error) {
	t.Helper()
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	want, b := expectations(string(src))
	p, err := lowerTimeout(f, testenv.ModelOf(src), 20*time.Second)
	return want, b, p, err
}

func expectations(src string) (string, backend.Bounds) {
	b := backend.Bounds{Unwind: 3}
	want := ""
	for _, line := range strings.Split(src, "\n")[:min(10, strings.Count(src, "\n"))] {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "// expect:"); ok {
			want = strings.TrimSpace(rest)
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "// bounds:"); ok {
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				n, _ := strconv.Atoi(v)
				switch k {
				case "unwind":
					b.Unwind = n
				case "threads":
					b.Threads = n
				}
			}
		}
	}
	return want, b
}

// TestLockRegions checks the collapsing of lock regions: when every access
// to the shared data holds the lock, each region becomes one block.
func TestLockRegions(t *testing.T) {
	needZ3(t)
	const prog = `
int x, y; pthread_mutex_t m;
void *t(void *a) { pthread_mutex_lock(&m); int l = x; x = l + 1; y = y + l; pthread_mutex_unlock(&m); return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_mutex_lock(&m); int v = x; int w = y; pthread_mutex_unlock(&m); assert(%s); return 0; }`
	for _, tc := range []struct {
		cond string
		want backend.Verdict
	}{
		{"v <= 2 && (v != 2 || w == 1)", backend.Safe},
		{"v != 2", backend.Unsafe},
		{"v != 1", backend.Unsafe},
		{"w != 1", backend.Unsafe},
	} {
		p := lower(t, "regions", fmt.Sprintf(prog, tc.cond))
		e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 2}, true, false, redAll)
		if err != nil {
			t.Fatal(err)
		}
		if e.collapse == nil {
			t.Fatalf("the mutex regions were not collapsed")
		}
		res := check(t, p, backend.Bounds{Unwind: 2})
		if res.Verdict != tc.want {
			t.Errorf("assert(%s): %v, want %v", tc.cond, res.Verdict, tc.want)
		}
	}
	// an access outside the lock disables the collapsing
	p := lower(t, "regions_racy", `
int x; pthread_mutex_t m;
void *t(void *a) { pthread_mutex_lock(&m); int l = x; x = l + 1; pthread_mutex_unlock(&m); return 0; }
int main() { pthread_t a; pthread_create(&a, 0, t, 0); int l = x; x = l + 5; pthread_join(a, 0); assert(x != 1); return 0; }`)
	e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 2}, true, false, redAll)
	if err != nil {
		t.Fatal(err)
	}
	if e.collapse != nil {
		t.Fatalf("collapsed regions of a racy lock")
	}
	if res := check(t, p, backend.Bounds{Unwind: 2}); res.Verdict != backend.Unsafe {
		t.Errorf("racy: %v, want UNSAFE", res.Verdict)
	}
}

// TestHandBuilt checks a program built with the program API (no front end):
// main spawns worker, which fails an assertion on a nondet value that must
// be exactly 0x12345678, while main blocks on assume(0).
func TestHandBuilt(t *testing.T) {
	needZ3(t)
	i32 := program.IntT
	vp := program.PointerTo(program.VoidType, 4)
	worker := &program.Func{Name: "worker", Result: vp, Params: []*program.Var{{Name: "arg", Type: vp}},
		Locals: []*program.Var{{Name: "v", Type: i32}}}
	worker.Body = []*program.Instr{
		{Label: "worker.0", Op: program.OpDecl, Var: "v"},
		{Label: "worker.1", Op: program.OpAssign, Lhs: &program.Ref{Name: "v", Local: true, T: i32}, Rhs: &program.Nondet{T: i32}},
		{Label: "worker.2", Op: program.OpAssign, Lhs: &program.Ref{Name: "g", T: i32}, Rhs: &program.Ref{Name: "v", Local: true, T: i32}},
		{Label: "worker.3", Op: program.OpAssert, Prop: "worker.assertion.1", Rhs: &program.Binary{Op: program.Ne,
			X: &program.Ref{Name: "v", Local: true, T: i32}, Y: program.IntConst(i32, 0x12345678), T: i32}},
		{Label: "worker.4", Op: program.OpReturn, Rhs: &program.Const{T: vp}},
	}
	main := &program.Func{Name: "main", Result: i32}
	main.Body = []*program.Instr{
		{Label: "main.0", Op: program.OpSpawn, Func: &program.FuncRef{Name: "worker", T: worker.Type()}, Args: []program.Expr{&program.Const{T: vp}}},
		{Label: "main.1", Op: program.OpAssume, Rhs: program.False},
		{Label: "main.2", Op: program.OpReturn, Rhs: program.IntConst(i32, 0)},
	}
	p := &program.Program{Model: program.ILP32, Globals: []*program.Var{{Name: "g", Type: i32}}, Funcs: []*program.Func{main, worker}}
	if err := program.Check(p); err != nil {
		t.Fatal(err)
	}
	res := check(t, p, backend.Bounds{Unwind: 1})
	if res.Verdict != backend.Unsafe {
		t.Fatalf("%v, want UNSAFE", res.Verdict)
	}
	var got program.Value
	for _, s := range res.Run.Steps {
		if s.Label == "worker.1" {
			got = s.Nondet[0]
		}
	}
	if got.Bits != 0x12345678 {
		t.Errorf("nondet value %v, want 0x12345678", got)
	}
}

// BenchmarkEncode measures the encoding (symbolic execution and
// concurrency constraints, no solving) of sv-comp15 tasks.
func BenchmarkEncode(b *testing.B) {
	m := testenv.FindSVCOMP15()
	if m == "" {
		b.Skip("../shared/bench/sv-comp15 not found")
	}
	dir := filepath.Dir(m)
	for _, f := range []string{"pthread-wmm/mix000_power.oepc_false-unreach-call.c", "pthread-ext/01_inc_true-unreach-call.c"} {
		b.Run(filepath.Base(f), func(b *testing.B) {
			p, err := lowerTimeout(filepath.Join(dir, f), program.ILP32, 30*time.Second) // the 2015 set is ILP32
			if err != nil {
				b.Skipf("front end: %v", err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 5}, true, false, redAll)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(e.events)), "events")
				b.ReportMetric(float64(e.out.Len()), "bytes")
			}
		})
	}
}

// TestRacyRegions checks collapsing of regions with one racy access.
func TestRacyRegions(t *testing.T) {
	needZ3(t)
	const prog = `
int c, f; pthread_mutex_t m;
void *t(void *a) { pthread_mutex_lock(&m); int l = c; c = l + 1; f = l + 1; pthread_mutex_unlock(&m); return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  int v = f; assert(%s); return 0; }`
	for _, tc := range []struct {
		cond string
		want backend.Verdict
	}{
		{"v <= 2 && v >= 0", backend.Safe},
		{"v != 2", backend.Unsafe},
		{"v != 1", backend.Unsafe},
	} {
		p := lower(t, "racy_regions", fmt.Sprintf(prog, tc.cond))
		e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 2}, true, false, redAll)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.collapseRegs) != 2 {
			t.Errorf("collapsed regions %v, want both", e.collapseRegs)
		}
		res := check(t, p, backend.Bounds{Unwind: 2})
		if res.Verdict != tc.want {
			t.Errorf("assert(%s): %v, want %v", tc.cond, res.Verdict, tc.want)
		}
	}
}

// A pointer of unknown target read in main may designate a block of
// run-time length that a thread allocates later in the encoding order: the
// second encoding pass meets it as an object of the first pass, and its
// cell count must be a term of the current formula (heapCount), not the
// first pass's (which made z3 fail with "unknown constant").
func TestHeapCountForwardReference(t *testing.T) {
	needZ3(t)
	const src = `
int *p;
void *w(void *a) { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > 0 && n < 4);
  int *b = malloc(n * sizeof(int)); %s return 0; }
int main() { pthread_t x; pthread_create(&x, 0, w, 0); int *q = p;
  if (q) { int v = q[0]; assert(v == 1); } return 0; }`
	for _, tc := range []struct {
		body string
		want backend.Verdict
	}{
		{"b[0] = 1; p = b;", backend.Safe},
		{"p = b; b[0] = 1;", backend.Unsafe}, // main may read the block before the store
	} {
		p := lower(t, "heapfwd", fmt.Sprintf(src, tc.body))
		res := check(t, p, backend.Bounds{Unwind: 2})
		if res.Verdict != tc.want {
			t.Errorf("%s: %v (%s), want %v", tc.body, res.Verdict, res.Reason, tc.want)
		}
	}
}

// TestUnwindingProgs checks the testdata/progs programs with unwinding
// expectations (`// unwinding:` header lines) with unwinding assertions,
// with and without the deepening: a failing one is Unsafe for one of the
// expected unwinding properties with a run that replays as reaching its
// bound (check replays every Unsafe run); one that holds is a proof. Each
// failing property checked alone (UnwindingOnly) fails too.
func TestUnwindingProgs(t *testing.T) {
	needZ3(t)
	progs, err := testenv.Progs("../..")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range progs {
		for _, u := range h.Unwinding {
			n++
			t.Run(fmt.Sprintf("%s/unwind%d", strings.TrimSuffix(h.Name, ".c"), u.Unwind), func(t *testing.T) {
				p := lowertest.C(t, h.Path, string(h.Src))
				b := backend.Bounds{Unwind: u.Unwind, Threads: h.Threads, UnwindingAssertions: true}
				for _, noDeep := range []bool{false, true} {
					ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
					res, err := New(Options{NoDeepening: noDeep}).Check(ctx, p, b)
					cancel()
					if err != nil {
						t.Fatal(err)
					}
					if len(u.Fails) == 0 {
						if res.Verdict != backend.Safe || !res.Proof || !res.Complete {
							t.Fatalf("no deepening %v: %v (%s), proof %v; want a proof", noDeep, res.Verdict, res.Reason, res.Proof)
						}
						continue
					}
					if res.Verdict != backend.Unsafe {
						t.Fatalf("no deepening %v: %v (%s), want a violation of one of %v", noDeep, res.Verdict, res.Reason, u.Fails)
					}
					out, err := interp.Replay(p, res.Run)
					if err != nil || out.Status != interp.Violated || !slices.Contains(u.Fails, out.Prop) || res.Run.Unwind != u.Unwind {
						t.Fatalf("the run replays to %v, %v (unwind %d), want a violation of one of %v", out, err, res.Run.Unwind, u.Fails)
					}
					last := res.Run.Steps[len(res.Run.Steps)-1]
					t.Logf("%s: %d steps, ends at %s (thread %d)", out.Prop, len(res.Run.Steps), last.Label, last.Thread)
				}
				for _, id := range u.Fails {
					pu, ok := program.UnwindingByID(p, id)
					if !ok {
						t.Fatalf("no property %s", id)
					}
					b1 := b
					b1.UnwindingOnly = pu.Key()
					res := check(t, p, b1)
					if res.Verdict != backend.Unsafe || res.Run.Violated != id {
						t.Errorf("%s alone: %v (%s)", id, res.Verdict, res.Reason)
					}
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no program with unwinding expectations")
	}
}

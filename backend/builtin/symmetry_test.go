package builtin

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
)

// TestSymmetry checks that the ordering of symmetric thread instances
// applies where it should and keeps every verdict: on each testdata program
// whose encoding orders a group, the verdicts with and without the
// ordering agree, and agree with the expected one when definite.
func TestSymmetry(t *testing.T) {
	needZ3(t)
	files, _ := filepath.Glob("../../testdata/progs/*.c")
	if len(files) == 0 {
		t.Skip("no testdata/progs")
	}
	ordered := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		want, b, p, err := progFile(t, f)
		if err != nil {
			continue
		}
		e, _, err := encodeProgram(context.Background(), p, b, true, false, redAll)
		if err != nil {
			continue
		}
		e.symmetry()
		if e.symGroups == 0 {
			continue
		}
		ordered[name] = true
		t.Run(name, func(t *testing.T) {
			var got [2]backend.Verdict
			for i, noSym := range []bool{false, true} {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				res, err := New(Options{NoSymmetry: noSym}).Check(ctx, p, b)
				cancel()
				if err != nil {
					t.Fatalf("NoSymmetry=%v: %v", noSym, err)
				}
				got[i] = res.Verdict
			}
			if got[0] != got[1] {
				t.Fatalf("with the symmetry ordering %v, without %v", got[0], got[1])
			}
			if (want == "safe") != (got[0] == backend.Safe) {
				t.Fatalf("%v, expected %s", got[0], want)
			}
		})
	}
	for _, name := range []string{"symmetric_roles_unsafe.c", "symmetric_roles_safe.c", "user_lock_param_unsafe.c", "user_lock_param_safe.c"} {
		if !ordered[name] {
			t.Errorf("%s: no symmetric group ordered", name)
		}
	}
	// no ordering when the handle is read (here by a join)
	p := lower(t, "sym_join", `
int x;
void *w(void *a) { x = x + 1; return 0; }
int main() { pthread_t t[2]; int i; for (i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  pthread_join(t[0], 0); return 0; }`)
	e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 3}, true, false, redAll)
	if err != nil {
		t.Fatal(err)
	}
	if e.symmetry(); e.symGroups != 0 {
		t.Errorf("ordered instances whose handles are read")
	}
	// nor when a thread reads its id: in the model the second instance
	// (id 2) may set x before the first (id 1) reads it, a run the
	// ordering of symmetric instances (first blocks in creation order)
	// would exclude
	p = lower(t, "sym_self", `
int x;
void *w(void *a) { if (pthread_self() == 2) x = 1; else assert(x == 0); return 0; }
int main() { pthread_t t; int i; for (i = 0; i < 2; i++) pthread_create(&t, 0, w, 0); return 0; }`)
	e, _, err = encodeProgram(context.Background(), p, backend.Bounds{Unwind: 3}, true, false, redAll)
	if err != nil {
		t.Fatal(err)
	}
	if e.symmetry(); e.symGroups != 0 {
		t.Errorf("ordered instances that read their thread ids")
	}
	if res := check(t, p, backend.Bounds{Unwind: 3}); res.Verdict != backend.Unsafe {
		t.Errorf("sym_self: %v, want UNSAFE (the later instance writes first)", res.Verdict)
	}
}

// TestLockFuncParam checks the recognition of atomic lock functions on a
// pointer parameter, and that a path ending in assert(0) with a lock held
// does not disqualify the lock.
func TestLockFuncParam(t *testing.T) {
	needZ3(t)
	for _, name := range []string{"user_lock_param_unsafe.c", "user_lock_param_safe.c"} {
		f := filepath.Join("../../testdata/progs", name)
		p, err := lowerTimeout(f, "", 20*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 3}, true, false, redAll)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.lockFn) != 2 || len(e.lockSeen) != 2 {
			t.Errorf("%s: lock functions %v, locks seen %v; want acquire and release on mutexa and mutexb", name, e.lockFn, e.lockSeen)
		}
		for l, bad := range e.lockBad {
			if bad {
				t.Errorf("%s: lock %v disqualified", name, l)
			}
		}
	}
}

// TestVarIndexCap checks the cap on the cells of a large array modelled for
// variable indices: within the cap the verdicts are exact, and a run that
// reaches a cell beyond it gives UNKNOWN, never a verdict.
func TestVarIndexCap(t *testing.T) {
	const prog = `
int a[800]; int top;
void *w(void *x) { int i; for (i = 0; i < 3; i++) { int t = top; a[t] = t + 1; top = t + 1; } return 0; }
int main() { pthread_t t1; pthread_create(&t1, 0, w, 0); int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k && k < %s); assert(%s); return 0; }`
	runCTests(t, []ctest{
		{name: "cap_safe", src: fmt.Sprintf(prog, "800", "a[k] == 0 || a[k] == k + 1"), want: backend.Unknown, unwind: 4, reason: "variable index of 64 or more"},
		{name: "cap_safe_small", src: fmt.Sprintf(prog, "40", "a[k] == 0 || a[k] == k + 1"), want: backend.Safe, unwind: 4},
		{name: "cap_unsafe", src: fmt.Sprintf(prog, "40", "a[k] != 3"), want: backend.Unsafe, unwind: 4},
		{name: "cap_const", src: fmt.Sprintf(prog, "1", "a[700] == 0"), want: backend.Safe, unwind: 4},
	})
}

// TestLockFuncShapes checks which atomic functions are taken for lock
// operations.
func TestLockFuncShapes(t *testing.T) {
	for _, tc := range []struct {
		body string
		kind int // 0: not a lock function
	}{
		{"void __VERIFIER_atomic_f(void) { __VERIFIER_assume(L == 0); L = 1; }", lockAcquire},
		{"void __VERIFIER_atomic_f(void) { L = 0; }", lockRelease},
		{"void __VERIFIER_atomic_f(void) { __VERIFIER_assume(M == 0); L = 1; }", 0}, // waits on another variable
		{"void __VERIFIER_atomic_f(int *m) { __VERIFIER_assume(*m == 0); *m = 1; }", lockAcquire},
		{"void __VERIFIER_atomic_f(int *m) { __VERIFIER_assume(*m == 1); *m = 0; }", lockRelease},
		{"void __VERIFIER_atomic_f(int *m) { __VERIFIER_assume(L == 0); *m = 1; }", 0},
		{"void __VERIFIER_atomic_f(int *m) { *m = 1; }", 0},           // acquire without waiting
		{"void f(int *m) { __VERIFIER_assume(*m == 0); *m = 1; }", 0}, // not atomic
	} {
		// main calls the function: one no run can reach is not lowered
		call := "__VERIFIER_atomic_f"
		if strings.HasPrefix(tc.body, "void f(") {
			call = "f"
		}
		if strings.Contains(tc.body, "int *m") {
			call += "(&M)"
		} else {
			call += "()"
		}
		p := lower(t, "lockfn", "int L, M;\n"+tc.body+"\nint main() { "+call+"; return 0; }")
		e := newEnc(p, backend.Bounds{Unwind: 1}, true)
		e.initObjects()
		got := e.lockFuncs()
		if lf, ok := got["__VERIFIER_atomic_f"]; ok != (tc.kind != 0) || ok && lf.kind != tc.kind {
			t.Errorf("%s: %v, want kind %d", tc.body, got, tc.kind)
		}
	}
}

package cegpv_test

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/progen"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// TestArithmeticAgainstGCC compares the integer semantics of the whole
// pipeline with gcc's on generated programs (progen.GenerateArith: every
// integer type, the usual arithmetic conversions, casts, shifts, guarded
// division, no undefined behaviour). gcc computes each global's final
// value; the interpreter must compute the same, and the symbolic encoding
// must prove the program that asserts those values and refute the one
// that asserts one of them wrong. Every engine shares the front end, so
// only a compiler can tell whether a conversion is lowered right.
func TestArithmeticAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	needZ3(t)
	n := nSeeds(30)
	be := builtin.New(builtin.Options{NoDeepening: true})
	dir := t.TempDir()
	for seed := int64(1); seed <= int64(n); seed++ {
		a := progen.GenerateArith(seed)
		want := gccGlobals(t, dir, seed, a)
		p, err := frontend.Lower("arith.c", []byte(keepGlobals(a)), frontend.Options{Model: program.LP64})
		if err != nil {
			t.Fatalf("seed %d: lower: %v\n%s", seed, err, a.Src)
		}
		out, err := interp.Simulate(p, interp.SimOptions{})
		if err != nil || out.Status != interp.Completed {
			t.Fatalf("seed %d: interpreter: %v %v\n%s", seed, out.Status, err, a.Src)
		}
		bad := false
		for i, g := range a.Globals {
			if got := out.Final[g].Bits; got != want[i] {
				t.Errorf("seed %d: interpreter %s = %d, gcc %d", seed, g, got, want[i])
				bad = true
			}
		}
		if bad {
			t.Logf("seed %d:\n%s", seed, a.Src)
			continue
		}
		// the encoding: the values hold, and a wrong one is refuted
		for _, wrong := range []bool{false, true} {
			src := assertFinal(a, want, seed, wrong)
			q, err := frontend.Lower("arith.c", []byte(src), frontend.Options{Model: program.LP64})
			if err != nil {
				t.Fatalf("seed %d: lower: %v\n%s", seed, err, src)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			r, err := be.Check(ctx, q, backend.Bounds{Unwind: 1})
			cancel()
			wantV := backend.Safe
			if wrong {
				wantV = backend.Unsafe
			}
			if err != nil || r.Verdict != wantV {
				t.Errorf("seed %d (a wrong value asserted: %v): builtin %v %v, want %v\n%s", seed, wrong, r.Verdict, err, wantV, src)
			}
		}
	}
}

// assertFinal returns a's source with an assertion before main's return
// that the globals have the values want (gcc's), one of them changed when
// wrong.
func assertFinal(a progen.Arith, want []int64, seed int64, wrong bool) string {
	var conds []string
	for i, g := range a.Globals {
		v := want[i]
		if wrong && i == int(seed)%len(a.Globals) {
			v ^= 1
		}
		conds = append(conds, fmt.Sprintf("(long long)%s == %s", g, llConst(v)))
	}
	k := strings.LastIndex(a.Src, "  return 0;\n}") // main is last
	return "#include <assert.h>\n" + a.Src[:k] + "  assert(" + strings.Join(conds, " && ") + ");\n" + a.Src[k:]
}

// keepGlobals returns a's source with main naming every global (v = v;
// before its return, no effect): a global no reachable code names is not
// lowered, and the interpreter reports the final value of every global.
func keepGlobals(a progen.Arith) string {
	var b strings.Builder
	for _, g := range a.Globals {
		fmt.Fprintf(&b, "  %s = %s;\n", g, g)
	}
	k := strings.LastIndex(a.Src, "  return 0;\n}") // main is last
	return a.Src[:k] + b.String() + a.Src[k:]
}

// llConst is v as a C long long constant (the most negative one has no
// literal).
func llConst(v int64) string {
	if v == -1<<63 {
		return "(-9223372036854775807LL - 1)"
	}
	return strconv.FormatInt(v, 10) + "LL"
}

// gccGlobals compiles a with gcc (LP64, or the data model of flags such
// as -m32) and returns the final values of its globals, each converted to
// long long.
func gccGlobals(t *testing.T, dir string, seed int64, a progen.Arith, flags ...string) []int64 {
	t.Helper()
	var pr strings.Builder
	for _, g := range a.Globals {
		fmt.Fprintf(&pr, "  printf(\"%%lld\\n\", (long long)%s);\n", g)
	}
	src := "#include <stdio.h>\n#define main prog_main\n" + a.Src + "#undef main\nint main(void) {\n  prog_main();\n" + pr.String() + "  return 0;\n}\n"
	b, err := progen.CompileRun(dir, fmt.Sprintf("arith%d%s.c", seed, strings.Join(flags, "")), src, flags...)
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, src)
	}
	var out []int64
	for _, l := range strings.Fields(string(b)) {
		v, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if len(out) != len(a.Globals) {
		t.Fatalf("seed %d: gcc printed %d values for %d globals", seed, len(out), len(a.Globals))
	}
	return out
}

// TestAtomicsAgainstGCC checks the model of _Atomic read-modify-writes
// against gcc -pthread: generated programs whose threads update _Atomic
// globals by commutative read-modify-writes end with the same values in
// every schedule, so one gcc run decides them. The plain built-in BMC and
// the CEGPV loop must prove the assertion of those values and refute one
// with a value changed (a model that dropped _Atomic, as cegpv once did,
// loses updates and refutes the true assertion).
func TestAtomicsAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	needZ3(t)
	n := nSeeds(8)
	be := builtin.New(builtin.Options{})
	dir := t.TempDir()
	for seed := int64(1); seed <= int64(n); seed++ {
		a := progen.GenerateAtomics(seed)
		want := gccGlobals(t, dir, seed, a)
		for _, wrong := range []bool{false, true} {
			src := assertFinal(a, want, seed, wrong)
			p, err := frontend.Lower("atomics.c", []byte(src), frontend.Options{Model: program.LP64})
			if err != nil {
				t.Fatalf("seed %d: lower: %v\n%s", seed, err, src)
			}
			wantV := backend.Safe
			if wrong {
				wantV = backend.Unsafe
			}
			bd := backend.Bounds{Unwind: 1}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			r, err := be.Check(ctx, p, bd)
			cancel()
			if err != nil || r.Verdict != wantV {
				t.Errorf("seed %d (a wrong value asserted: %v): plain %v %v, want %v\n%s", seed, wrong, r.Verdict, err, wantV, src)
			}
			ctx, cancel = context.WithTimeout(context.Background(), 60*time.Second)
			c, err := loop.Verify(ctx, p, loop.Options{Sanity: true, Backend: be, Bounds: bd})
			cancel()
			if err != nil || c.Verdict != wantV {
				t.Errorf("seed %d (a wrong value asserted: %v): cegpv %v %v, want %v\n%s", seed, wrong, c.Verdict, err, wantV, src)
			}
		}
	}
}

package interp

import (
	"testing"

	P "cegpv.dev/cegpv/program"
)

// evalIn runs "r = e" in main and returns r's final value.
func evalIn(t *testing.T, e P.Expr) int64 {
	t.Helper()
	m := newFunc("main", P.IntT)
	m.assign(g("r", e.Type()), e)
	m.ret(ci(0))
	p := prog(t, []*P.Var{{Name: "r", Type: e.Type()}}, m)
	out, err := Replay(p, &P.Run{Steps: steps("0:main.0", "0:main.1")})
	if err != nil {
		t.Fatalf("%s: %v", P.ExprString(e), err)
	}
	if out.Status != Completed {
		t.Fatalf("%s: %v %v", P.ExprString(e), out.Status, out.Err)
	}
	return out.Final["r"].Bits
}

func TestIntegerSemantics(t *testing.T) {
	var (
		I   = P.IntT
		U   = P.UIntType
		C   = P.CharType
		UC  = P.UCharType
		S   = P.ShortType
		LL  = P.LLongType
		ULL = P.ULLongType
		B   = P.BoolType
	)
	k := func(t *P.Type, v int64) P.Expr { return ct(t, v) }
	b := func(op P.BinOp, x, y P.Expr) P.Expr { return bin(op, x, y) }
	const intMin, intMax = -1 << 31, 1<<31 - 1
	cases := []struct {
		e    P.Expr
		want int64
	}{
		// wrap-around
		{b(P.Add, k(I, intMax), k(I, 1)), intMin},
		{b(P.Sub, k(U, 0), k(U, 1)), 4294967295},
		{b(P.Add, k(UC, 255), k(UC, 1)), 0},
		{b(P.Add, k(C, 127), k(C, 1)), -128},
		{b(P.Mul, k(I, 65536), k(I, 65536)), 0},
		{b(P.Mul, k(S, 300), k(S, 300)), 90000 - 65536},
		{b(P.Add, k(ULL, -1), k(ULL, 1)), 0},
		{&P.Unary{Op: P.Neg, X: k(I, intMin), T: I}, intMin},
		{&P.Unary{Op: P.BitNot, X: k(U, 0), T: U}, 4294967295},
		{&P.Unary{Op: P.BitNot, X: k(UC, 0), T: UC}, 255},
		{&P.Unary{Op: P.Not, X: k(I, 7), T: I}, 0},
		// signed vs unsigned comparison
		{b(P.Gt, k(U, -1), k(U, 1)), 1},
		{b(P.Gt, k(I, -1), k(I, 1)), 0},
		{b(P.Lt, k(ULL, -1), k(ULL, 0)), 0},
		{b(P.Lt, k(LL, -1), k(LL, 0)), 1},
		{b(P.Ge, k(UC, 200), k(UC, 100)), 1},
		{b(P.Ge, k(C, -56), k(C, 100)), 0},
		// division and remainder, SMT-LIB by zero
		{b(P.Div, k(U, 7), k(U, 0)), 4294967295},
		{b(P.Div, k(I, 7), k(I, 0)), -1},
		{b(P.Div, k(I, -7), k(I, 0)), 1},
		{b(P.Div, k(UC, 7), k(UC, 0)), 255},
		{b(P.Div, k(ULL, 7), k(ULL, 0)), -1},
		{b(P.Rem, k(I, 7), k(I, 0)), 7},
		{b(P.Rem, k(I, -7), k(I, 0)), -7},
		{b(P.Rem, k(U, 9), k(U, 0)), 9},
		{b(P.Div, k(I, intMin), k(I, -1)), intMin},
		{b(P.Rem, k(I, intMin), k(I, -1)), 0},
		{b(P.Div, k(LL, -1<<63), k(LL, -1)), -1 << 63},
		{b(P.Div, k(I, -7), k(I, 2)), -3},
		{b(P.Rem, k(I, -7), k(I, 2)), -1},
		{b(P.Rem, k(I, 7), k(I, -2)), 1},
		{b(P.Div, k(U, 4294967295), k(U, 2)), 2147483647},
		{b(P.Rem, k(ULL, -1), k(ULL, 10)), 5}, // 18446744073709551615 % 10
		{b(P.Div, k(ULL, -2), k(ULL, 3)), 6148914691236517204},
		// shifts
		{b(P.Shl, k(I, 1), k(I, 31)), intMin},
		{b(P.Shl, k(I, 1), k(I, 32)), 0},
		{b(P.Shl, k(U, 1), k(I, -1)), 0},
		{b(P.Shr, k(I, -8), k(I, 1)), -4},
		{b(P.Shr, k(I, -8), k(I, 40)), -1},
		{b(P.Shr, k(I, 8), k(I, 40)), 0},
		{b(P.Shr, k(U, 0x80000000), k(I, 31)), 1},
		{b(P.Shr, k(U, 0x80000000), k(U, 32)), 0},
		{b(P.Shr, k(ULL, -1), k(I, 63)), 1},
		{b(P.Shr, k(LL, -1<<63), k(I, 63)), -1},
		{b(P.Shl, k(UC, 0x81), k(I, 1)), 2},
		{b(P.Shl, k(LL, 1), k(ULL, 64)), 0},
		// casts
		{cast(k(I, 300), UC), 44},
		{cast(k(I, 200), C), -56},
		{cast(k(UC, 255), I), 255},
		{cast(k(C, -1), I), -1},
		{cast(k(C, -1), U), 4294967295},
		{cast(k(I, -1), ULL), -1},
		{cast(k(U, 4294967295), LL), 4294967295},
		{cast(k(I, 256), B), 1},
		{cast(k(I, 0), B), 0},
		{cast(k(LL, 0x123456789), I), 0x23456789},
		{cast(k(ULL, -1), S), -1},
		// logical operators
		{b(P.LAnd, k(I, 2), k(I, 3)), 1},
		{b(P.LOr, k(I, 0), k(I, 0)), 0},
		{&P.CondExpr{C: k(I, 0), X: k(I, 1), Y: k(I, 2), T: I}, 2},
		{b(P.Xor, k(U, 0xff00ff00), k(U, 0x0ff00ff0)), 0xf0f0f0f0},
	}
	for _, c := range cases {
		if got := evalIn(t, c.e); got != c.want {
			t.Errorf("%s (type %s) = %d, want %d", P.ExprString(c.e), c.e.Type(), got, c.want)
		}
	}
}

func TestPointerSemantics(t *testing.T) {
	arr := P.ArrayOf(P.IntT, 4)
	m := newFunc("main", P.IntT)
	p := m.local("p", intp)                                                         // main.0
	q := m.local("q", intp)                                                         // main.1
	m.assign(p, addr(&P.Index{X: g("a", arr), I: ci(1), T: P.IntT}))                // main.2
	m.assign(q, bin(P.Add, p, ci(2)))                                               // main.3
	m.assign(deref(q), ci(9))                                                       // main.4: a[3] = 9
	m.assign(g("d", P.IntT), &P.Binary{Op: P.Sub, X: q, Y: p, T: P.IntT})           // main.5: 2
	m.assign(g("e", P.IntT), bin(P.Lt, p, q))                                       // main.6: 1
	m.assign(g("f", P.IntT), bin(P.Eq, addr(g("x", P.IntT)), addr(g("y", P.IntT)))) // main.7: 0
	m.assign(q, bin(P.Add, q, ci(1)))                                               // main.8: one past the end: fine
	m.assign(deref(q), ci(1))                                                       // main.9: out of bounds
	m.ret(ci(0))
	pr := prog(t, []*P.Var{{Name: "a", Type: arr}, {Name: "d", Type: P.IntT}, {Name: "e", Type: P.IntT},
		{Name: "f", Type: P.IntT, Init: ci(5)}, {Name: "x", Type: P.IntT}, {Name: "y", Type: P.IntT}}, m)
	run := &P.Run{Steps: steps("0:main.0", "0:main.1", "0:main.2", "0:main.3", "0:main.4", "0:main.5", "0:main.6", "0:main.7", "0:main.8", "0:main.9")}
	out, err := Replay(pr, run)
	if err != nil {
		t.Fatal(err)
	}
	if out.Final["a[3]"].Bits != 9 || out.Final["d"].Bits != 2 || out.Final["e"].Bits != 1 || out.Final["f"].Bits != 0 {
		t.Errorf("final %v", out.Final)
	}
	if v, _ := findWrite(out.Run.Steps[3], "main::q"); v.Obj != "a" || v.Off != 12 {
		t.Errorf("q = %v, want &a+12 (bytes)", v)
	}
	if out.Status != Errored || out.Err.Step != 9 {
		t.Errorf("status %v err %v, want an out-of-bounds error at step 9", out.Status, out.Err)
	}
}

package overflow_test

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// TestExact checks the conditions of every operation on int and long long
// against math/big, on the values at and around the limits: a program
// computes each operation once, interp.Overflows replays its run on the
// program with the checks, and the steps it reports must be exactly the
// operations whose result does not fit (for <<, CBMC's definition: a
// positive value shifted by 0..width whose result needs the sign bit).
func TestExact(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		bits uint
	}{{"int", 32}, {"long long", 64}} {
		t.Run(tc.typ, func(t *testing.T) {
			max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), tc.bits-1), big.NewInt(1))
			min := new(big.Int).Neg(new(big.Int).Add(max, big.NewInt(1)))
			lit := func(v *big.Int) string {
				suffix := ""
				if tc.bits == 64 {
					suffix = "LL"
				}
				if v.Cmp(min) == 0 {
					return fmt.Sprintf("(%s%s - 1)", new(big.Int).Neg(max), suffix)
				}
				return v.String() + suffix
			}
			var vals []*big.Int
			for _, d := range []int64{0, 1, 2, 3} {
				vals = append(vals, new(big.Int).Sub(max, big.NewInt(d)), new(big.Int).Add(min, big.NewInt(d)))
			}
			half := new(big.Int).Rsh(max, 1)
			root := new(big.Int).Sqrt(max)
			for _, v := range []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(-1), big.NewInt(2), big.NewInt(-2), half, new(big.Int).Neg(half), root, new(big.Int).Add(root, big.NewInt(1)), new(big.Int).Neg(root)} {
				vals = append(vals, v)
			}
			var src strings.Builder
			fmt.Fprintf(&src, "%s r;\nint main(void) {\n  %s x, y; int d;\n", tc.typ, tc.typ)
			want := map[int]bool{} // source line -> overflows
			line := 4
			emit := func(stmt string, over bool) {
				src.WriteString("  " + stmt + "\n")
				want[line] = over
				line++
			}
			fits := func(v *big.Int) bool { return v.Cmp(min) >= 0 && v.Cmp(max) <= 0 }
			for _, a := range vals {
				for _, b := range vals {
					src.WriteString(fmt.Sprintf("  x = %s; y = %s;\n", lit(a), lit(b)))
					line++
					emit("r = x + y;", !fits(new(big.Int).Add(a, b)))
					emit("r = x - y;", !fits(new(big.Int).Sub(a, b)))
					emit("r = x * y;", !fits(new(big.Int).Mul(a, b)))
					if b.Sign() != 0 {
						q := new(big.Int).Quo(a, b)
						emit("r = x / y;", !fits(q))
						emit("r = x % y;", !fits(q))
					}
				}
				src.WriteString(fmt.Sprintf("  x = %s;\n", lit(a)))
				line++
				emit("r = -x;", !fits(new(big.Int).Neg(a)))
				for _, s := range []int64{-1, 0, 1, int64(tc.bits) - 2, int64(tc.bits) - 1, int64(tc.bits), int64(tc.bits) + 1} {
					over := a.Sign() > 0 && s >= 0 && s <= int64(tc.bits) && !fits(new(big.Int).Lsh(a, uint(s)))
					emit(fmt.Sprintf("d = %d; r = x << d;", s), over)
				}
			}
			src.WriteString("  return 0;\n}\n")
			p, err := frontend.Lower("exact.c", []byte(src.String()), frontend.Options{Model: program.ILP32})
			if err != nil {
				t.Fatal(err)
			}
			out, err := interp.Simulate(p, interp.SimOptions{})
			if err != nil || out.Status != interp.Completed {
				t.Fatalf("simulate: %v %v", out.Status, err)
			}
			ovs, err := interp.Overflows(p, out.Run)
			if err != nil {
				t.Fatal(err)
			}
			ix := program.NewIndex(p)
			got := map[int]bool{}
			for _, o := range ovs {
				got[ix.Instr[out.Run.Steps[o.Step].Label].Pos.Line] = true
			}
			lines := strings.Split(src.String(), "\n")
			n := 0
			for l, over := range want {
				if got[l] != over {
					t.Errorf("line %d %q: overflow reported %v, want %v", l, lines[l-1], got[l], over)
				}
				if over {
					n++
				}
			}
			if n == 0 || n == len(want) {
				t.Fatalf("%d of %d operations overflow: the values miss a side", n, len(want))
			}
			t.Logf("%d operations, %d overflow", len(want), n)
		})
	}
}

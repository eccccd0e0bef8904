package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Arith is a sequential program of integer arithmetic over globals of
// every integer type, for differential tests against a C compiler: the
// final value of each global (Globals) must be what gcc computes.
type Arith struct {
	Src     string   // the C translation unit, main included
	Globals []string // the globals, in declaration order
	Unwind  int      // the unwinding its loops need to end (0: no loop)
}

// arithTypes are the integer types of the globals (LP64 and ILP32 alike
// give each a fixed meaning with gcc).
var arithTypes = []string{"signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "long long", "unsigned long long", "_Bool"}

// GenerateArith returns the arithmetic program for seed. Its expressions
// avoid C's undefined behaviour, so that every compiler must agree on the
// result: +, - and * are done in unsigned types (signed operands are
// converted first; the conversion back to a signed type is gcc's
// wrap-around, implementation-defined but fixed), division and remainder
// are guarded against zero and INT_MIN / -1, shift amounts are masked
// below the width of the promoted left operand and left shifts take an
// unsigned operand. Comparisons, casts, ?:, !, ~, &, |, ^, && and || mix
// signed and unsigned operands of every width (the usual arithmetic
// conversions are what the test is about).
func GenerateArith(seed int64) Arith {
	g := &arithGen{r: rand.New(rand.NewSource(seed))}
	var b strings.Builder
	var a Arith
	n := 4 + g.r.Intn(4)
	for i := 0; i < n; i++ {
		t := arithTypes[g.r.Intn(len(arithTypes))]
		name := fmt.Sprintf("v%d", i)
		g.vars = append(g.vars, arithVar{name, t})
		a.Globals = append(a.Globals, name)
		fmt.Fprintf(&b, "%s %s = %s;\n", t, name, g.constant())
	}
	b.WriteString("int main(void) {\n")
	for i := 0; i < 6+g.r.Intn(6); i++ {
		v := g.vars[g.r.Intn(len(g.vars))]
		fmt.Fprintf(&b, "  %s = %s;\n", v.name, g.expr(3))
	}
	b.WriteString("  return 0;\n}\n")
	a.Src = b.String()
	return a
}

type arithVar struct{ name, typ string }

type arithGen struct {
	r    *rand.Rand
	vars []arithVar
}

func (g *arithGen) constant() string {
	cs := []string{"0", "1", "-1", "2", "7", "-5", "100", "127", "-128", "255", "256", "32767", "-32768", "65535", "2147483647", "(-2147483647 - 1)", "4294967295u", "0x7fffffffffffffffLL", "(-0x7fffffffffffffffLL - 1)", "0xffffffffffffffffULL", "0x80u", "0x8000u", "12345"}
	return cs[g.r.Intn(len(cs))]
}

func (g *arithGen) atom() string {
	if g.r.Intn(3) == 0 {
		return g.constant()
	}
	return g.vars[g.r.Intn(len(g.vars))].name
}

func (g *arithGen) expr(d int) string {
	if d == 0 || g.r.Intn(4) == 0 {
		return g.atom()
	}
	x, y := g.expr(d-1), g.expr(d-1)
	ut := []string{"unsigned", "unsigned long long", "unsigned char", "unsigned short"}[g.r.Intn(4)]
	switch g.r.Intn(14) {
	case 0, 1:
		op := []string{"+", "-", "*"}[g.r.Intn(3)]
		if ut == "unsigned char" || ut == "unsigned short" {
			ut = "unsigned" // (narrower types promote to int, where * can overflow)
		}
		return fmt.Sprintf("((%s)(%s) %s (%s)(%s))", ut, x, op, ut, y)
	case 2:
		// signed division: no zero divisor, no INT_MIN / -1 (in either width)
		t := []string{"int", "long long"}[g.r.Intn(2)]
		op := []string{"/", "%"}[g.r.Intn(2)]
		return fmt.Sprintf("((%s)(%s) != 0 && (%s)(%s) != -1 ? (%s)(%s) %s (%s)(%s) : 3)", t, y, t, y, t, x, op, t, y)
	case 3:
		op := []string{"/", "%"}[g.r.Intn(2)]
		return fmt.Sprintf("((%s)(%s) != 0 ? (%s)(%s) %s (%s)(%s) : 5)", ut, y, ut, x, op, ut, y)
	case 4:
		// the promoted left operand is int/unsigned (32 bits) or 64 bits
		if g.r.Intn(2) == 0 {
			return fmt.Sprintf("((unsigned)(%s) << ((%s) & 31))", x, y)
		}
		return fmt.Sprintf("((unsigned long long)(%s) << ((%s) & 63))", x, y)
	case 5:
		// right shifts of signed values are arithmetic with gcc
		t := []string{"int", "unsigned", "long long", "unsigned long long", "signed char"}[g.r.Intn(5)]
		mask := 31
		if strings.Contains(t, "long") {
			mask = 63
		}
		return fmt.Sprintf("((%s)(%s) >> ((%s) & %d))", t, x, y, mask)
	case 6:
		op := []string{"<", "<=", ">", ">=", "==", "!="}[g.r.Intn(6)]
		return fmt.Sprintf("(%s %s %s)", x, op, y)
	case 7:
		op := []string{"&", "|", "^"}[g.r.Intn(3)]
		return fmt.Sprintf("(%s %s %s)", x, op, y)
	case 8:
		return fmt.Sprintf("(~(%s)(%s))", ut, x)
	case 9:
		return fmt.Sprintf("(!%s)", x)
	case 10:
		op := []string{"&&", "||"}[g.r.Intn(2)]
		return fmt.Sprintf("(%s %s %s)", x, op, y)
	case 11:
		return fmt.Sprintf("(%s ? %s : %s)", g.expr(d-1), x, y)
	case 12:
		return fmt.Sprintf("((%s)(%s))", arithTypes[g.r.Intn(len(arithTypes))], x)
	}
	// unary minus in an unsigned type
	return fmt.Sprintf("(-(%s)(%s))", ut, x)
}

// GenerateAtomics returns a concurrent program whose threads update _Atomic
// globals only by read-modify-writes of one commutative family each (++,
// --, += and -= on some; ^= on others) with values computed from private
// locals, and whose main joins every thread. Every schedule gives the same
// final values, so a single gcc -pthread run decides them: a model that
// lost an atomic update (an increment that read a stale value) would
// compute others. Globals lists the _Atomic globals.
func GenerateAtomics(seed int64) Arith {
	r := rand.New(rand.NewSource(seed))
	types := []string{"int", "unsigned char", "long long", "unsigned"}
	var b strings.Builder
	var a Arith
	b.WriteString("#include <pthread.h>\n")
	n := 1 + r.Intn(3)
	xor := make([]bool, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("c%d", i)
		a.Globals = append(a.Globals, name)
		xor[i] = r.Intn(3) == 0
		fmt.Fprintf(&b, "_Atomic %s %s = %d;\n", types[r.Intn(len(types))], name, r.Intn(300)-50)
	}
	nt := 2 + r.Intn(2)
	for t := 0; t < nt; t++ {
		fmt.Fprintf(&b, "void *t%d(void *arg) {\n  int l = %d;\n", t, r.Intn(7)-3)
		for k := 0; k < 1+r.Intn(4); k++ {
			i := r.Intn(n)
			c := a.Globals[i]
			if r.Intn(3) == 0 {
				fmt.Fprintf(&b, "  l = l * %d + %d;\n", r.Intn(3)+1, r.Intn(5))
			}
			if xor[i] {
				fmt.Fprintf(&b, "  %s ^= l + %d;\n", c, r.Intn(256))
				continue
			}
			switch r.Intn(5) {
			case 0:
				fmt.Fprintf(&b, "  %s++;\n", c)
			case 1:
				fmt.Fprintf(&b, "  --%s;\n", c)
			case 2:
				fmt.Fprintf(&b, "  %s += %d;\n", c, r.Intn(200))
			case 3:
				fmt.Fprintf(&b, "  %s -= l;\n", c)
			default:
				fmt.Fprintf(&b, "  %s += l * %d;\n", c, r.Intn(9)-4)
			}
		}
		b.WriteString("  return 0;\n}\n")
	}
	b.WriteString("int main(void) {\n")
	for t := 0; t < nt; t++ {
		fmt.Fprintf(&b, "  pthread_t h%d;\n", t)
	}
	for t := 0; t < nt; t++ {
		fmt.Fprintf(&b, "  pthread_create(&h%d, 0, t%d, 0);\n", t, t)
	}
	for t := 0; t < nt; t++ {
		fmt.Fprintf(&b, "  pthread_join(h%d, 0);\n", t)
	}
	b.WriteString("  return 0;\n}\n")
	a.Src = b.String()
	return a
}

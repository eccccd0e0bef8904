package builtin

import (
	"fmt"
	"strconv"
	"strings"
)

// term is an SMT-LIB2 term with its sort: a bit-vector of width w, or Bool
// (w == 0). Constants are folded in Go so that unwinding with concrete loop
// counters prunes infeasible paths before anything reaches the solver.
type term struct {
	s string
	w int
	c bool   // constant
	v uint64 // constant value (masked to w bits; 0/1 for Bool)
}

var (
	tTrue  = &term{s: "true", c: true, v: 1}
	tFalse = &term{s: "false", c: true}
)

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return (uint64(1) << uint(w)) - 1
}

func sext(v uint64, w int) int64 {
	if w >= 64 {
		return int64(v)
	}
	s := uint(64 - w)
	return int64(v<<s) >> s
}

func bvc(w int, v uint64) *term {
	v &= mask(w)
	return &term{s: "(_ bv" + strconv.FormatUint(v, 10) + " " + strconv.Itoa(w) + ")", w: w, c: true, v: v}
}

func boolc(b bool) *term {
	if b {
		return tTrue
	}
	return tFalse
}

func sortOf(w int) string {
	if w == 0 {
		return "Bool"
	}
	return "(_ BitVec " + strconv.Itoa(w) + ")"
}

func isTrue(t *term) bool  { return t.c && t.w == 0 && t.v == 1 }
func isFalse(t *term) bool { return t.c && t.w == 0 && t.v == 0 }

func app(w int, op string, args ...*term) *term {
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(op)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(a.s)
	}
	b.WriteByte(')')
	return &term{s: b.String(), w: w}
}

func not(a *term) *term {
	if a.c {
		return boolc(a.v == 0)
	}
	if strings.HasPrefix(a.s, "(not ") {
		return &term{s: a.s[5 : len(a.s)-1]}
	}
	return app(0, "not", a)
}

func and(args ...*term) *term {
	var keep []*term
	seen := map[string]bool{}
	for _, a := range args {
		if isFalse(a) {
			return tFalse
		}
		if isTrue(a) || seen[a.s] {
			continue
		}
		seen[a.s] = true
		keep = append(keep, a)
	}
	switch len(keep) {
	case 0:
		return tTrue
	case 1:
		return keep[0]
	}
	return app(0, "and", keep...)
}

func or(args ...*term) *term {
	var keep []*term
	seen := map[string]bool{}
	for _, a := range args {
		if isTrue(a) {
			return tTrue
		}
		if isFalse(a) || seen[a.s] {
			continue
		}
		seen[a.s] = true
		keep = append(keep, a)
	}
	switch len(keep) {
	case 0:
		return tFalse
	case 1:
		return keep[0]
	}
	return app(0, "or", keep...)
}

func implies(a, b *term) *term { return or(not(a), b) }

func ite(c, a, b *term) *term {
	if c.c {
		if c.v != 0 {
			return a
		}
		return b
	}
	if a.s == b.s {
		return a
	}
	if a.w == 0 {
		switch {
		case isTrue(a) && isFalse(b):
			return c
		case isFalse(a) && isTrue(b):
			return not(c)
		case isTrue(a):
			return or(c, b)
		case isFalse(a):
			return and(not(c), b)
		case isTrue(b):
			return or(not(c), a)
		case isFalse(b):
			return and(c, a)
		}
	}
	return app(a.w, "ite", c, a, b)
}

func eq(a, b *term) *term {
	if a.w != b.w {
		panic(fmt.Sprintf("eq of widths %d and %d: %s %s", a.w, b.w, a.s, b.s))
	}
	if a.c && b.c {
		return boolc(a.v == b.v)
	}
	if a.s == b.s {
		return tTrue
	}
	if a.w == 0 {
		switch {
		case isTrue(a):
			return b
		case isTrue(b):
			return a
		case isFalse(a):
			return not(b)
		case isFalse(b):
			return not(a)
		}
	}
	return app(0, "=", a, b)
}

// bin applies a bit-vector operation of SMT-LIB name op.
func bin(op string, a, b *term) *term {
	if a.w != b.w || a.w == 0 {
		panic(fmt.Sprintf("%s of widths %d and %d", op, a.w, b.w))
	}
	w := a.w
	if a.c && b.c {
		x, y := a.v, b.v
		switch op {
		case "bvadd":
			return bvc(w, x+y)
		case "bvsub":
			return bvc(w, x-y)
		case "bvmul":
			return bvc(w, x*y)
		case "bvand":
			return bvc(w, x&y)
		case "bvor":
			return bvc(w, x|y)
		case "bvxor":
			return bvc(w, x^y)
		case "bvshl":
			if y >= uint64(w) {
				return bvc(w, 0)
			}
			return bvc(w, x<<y)
		case "bvlshr":
			if y >= uint64(w) {
				return bvc(w, 0)
			}
			return bvc(w, x>>y)
		case "bvashr":
			if y >= uint64(w) {
				y = uint64(w - 1)
			}
			return bvc(w, uint64(sext(x, w)>>y))
		case "bvudiv":
			if y == 0 {
				return bvc(w, mask(w))
			}
			return bvc(w, x/y)
		case "bvurem":
			if y == 0 {
				return bvc(w, x)
			}
			return bvc(w, x%y)
		case "bvsdiv", "bvsrem":
			sx, sy := sext(x, w), sext(y, w)
			if y == 0 || (sy == -1 && uint64(sx) == uint64(1)<<uint(w-1)|^mask(w)) || (sy == -1 && w == 64 && sx == -1<<63) {
				break // leave the corner cases to the solver
			}
			if op == "bvsdiv" {
				return bvc(w, uint64(sx/sy))
			}
			return bvc(w, uint64(sx%sy))
		}
	}
	// algebraic identities
	switch op {
	case "bvadd", "bvor", "bvxor":
		if a.c && a.v == 0 {
			return b
		}
		if b.c && b.v == 0 {
			return a
		}
	case "bvsub", "bvshl", "bvlshr", "bvashr":
		if b.c && b.v == 0 {
			return a
		}
	case "bvmul":
		if a.c && a.v == 1 {
			return b
		}
		if b.c && b.v == 1 {
			return a
		}
		if (a.c && a.v == 0) || (b.c && b.v == 0) {
			return bvc(w, 0)
		}
	case "bvand":
		if (a.c && a.v == 0) || (b.c && b.v == 0) {
			return bvc(w, 0)
		}
	}
	return app(w, op, a, b)
}

// cmp applies a bit-vector comparison.
func cmp(op string, a, b *term) *term {
	if a.w != b.w || a.w == 0 {
		panic(fmt.Sprintf("%s of widths %d and %d", op, a.w, b.w))
	}
	if a.c && b.c {
		x, y := a.v, b.v
		sx, sy := sext(x, a.w), sext(y, a.w)
		switch op {
		case "bvult":
			return boolc(x < y)
		case "bvule":
			return boolc(x <= y)
		case "bvugt":
			return boolc(x > y)
		case "bvuge":
			return boolc(x >= y)
		case "bvslt":
			return boolc(sx < sy)
		case "bvsle":
			return boolc(sx <= sy)
		case "bvsgt":
			return boolc(sx > sy)
		case "bvsge":
			return boolc(sx >= sy)
		}
	}
	if a.s == b.s {
		switch op {
		case "bvule", "bvuge", "bvsle", "bvsge":
			return tTrue
		default:
			return tFalse
		}
	}
	return app(0, op, a, b)
}

// resize truncates or extends a to width w.
func resize(a *term, w int, signed bool) *term {
	if a.w == w {
		return a
	}
	if a.c {
		if signed && a.w < w {
			return bvc(w, uint64(sext(a.v, a.w)))
		}
		return bvc(w, a.v)
	}
	if a.w > w {
		return &term{s: fmt.Sprintf("((_ extract %d 0) %s)", w-1, a.s), w: w}
	}
	op := "zero_extend"
	if signed {
		op = "sign_extend"
	}
	return &term{s: fmt.Sprintf("((_ %s %d) %s)", op, w-a.w, a.s), w: w}
}

// boolToBV returns ite(b, 1, 0) of width w.
func boolToBV(b *term, w int) *term { return ite(b, bvc(w, 1), bvc(w, 0)) }

// nonzero returns a != 0.
func nonzero(a *term) *term {
	if a.w == 0 {
		return a
	}
	return not(eq(a, bvc(a.w, 0)))
}

// Package overflow adds signed-overflow properties to a program, as CBMC's
// and ESBMC's --signed-overflow-check do: before every instruction, one
// assertion per signed arithmetic operation it evaluates, true exactly when
// the operation's result is representable in its type (C leaves it
// undefined otherwise). Every engine then checks them as ordinary
// assertions, with property ids "<func>.overflow.<k>".
//
// The operations and their conditions are CBMC's (goto_check_c.cpp,
// integer_overflow_check): +, - and * whose mathematical result does not fit
// the type; unary - of the minimum; / and % of the minimum by -1 (C11
// 6.5.5p6 leaves both undefined; CBMC checks only /); << of a positive
// value by a distance in 0..width whose result needs the sign bit or more
// (C99/C11: no shift into the sign bit). A negative left operand of <<, a
// negative distance or one beyond the width are other undefined behaviours,
// not overflows. Conversions and unsigned arithmetic are not checked, nor
// the constant expressions the front end folds (as gcc -ftrapv).
//
// The conditions are exact in the model's bit-vector arithmetic: an
// operation on a type narrower than 64 bits is computed again in 64 bits,
// one on 64 bits is tested with signs and divisions that cannot overflow.
// An operation evaluated only under a condition (the right operand of &&
// and ||, a branch of ?:) is checked under it.
package overflow

import (
	"fmt"
	"math"

	"cegpv.dev/cegpv/program"
)

// Kind is the middle component of the property ids of overflow checks.
const Kind = program.OverflowKind

// Check is the check of one signed operation of an instruction.
type Check struct {
	Cond program.Expr // holds when the operation is not evaluated or its result is representable
	Msg  string       // e.g. "arithmetic overflow on signed + in x + y"
}

// Checks returns the checks of the signed operations instruction in
// evaluates, in evaluation order (operands before their operation). An
// overflow assertion has none.
func Checks(in *program.Instr) []Check {
	if in.Op == program.OpAssert && program.PropKind(in.Prop) == Kind {
		return nil
	}
	var out []Check
	for _, e := range in.Operands() {
		walk(e, nil, &out)
	}
	return out
}

// walk appends the checks of e, evaluated when every guard holds.
func walk(e program.Expr, guards []program.Expr, out *[]Check) {
	switch x := e.(type) {
	case *program.Binary:
		walk(x.X, guards, out)
		switch x.Op {
		case program.LAnd:
			walk(x.Y, append(guards[:len(guards):len(guards)], x.X), out)
			return
		case program.LOr:
			walk(x.Y, append(guards[:len(guards):len(guards)], not(x.X)), out)
			return
		}
		walk(x.Y, guards, out)
		if c := binaryOK(x); c != nil {
			*out = append(*out, check(guards, c, x))
		}
	case *program.Unary:
		walk(x.X, guards, out)
		if x.Op == program.Neg && signed(x.T) {
			*out = append(*out, check(guards, cmp(program.Ne, x.X, minOf(x.T)), x))
		}
	case *program.CondExpr:
		walk(x.C, guards, out)
		walk(x.X, append(guards[:len(guards):len(guards)], x.C), out)
		walk(x.Y, append(guards[:len(guards):len(guards)], not(x.C)), out)
	case *program.Cast:
		walk(x.X, guards, out)
	case *program.Index:
		walk(x.X, guards, out)
		walk(x.I, guards, out)
	case *program.FieldSel:
		walk(x.X, guards, out)
	case *program.Deref:
		walk(x.X, guards, out)
	case *program.AddrOf:
		walk(x.X, guards, out)
	case *program.Compound:
		for _, el := range x.Elems {
			walk(el, guards, out)
		}
	}
}

// check is the check of operation e with condition ok under guards.
func check(guards []program.Expr, ok program.Expr, e program.Expr) Check {
	for i := len(guards) - 1; i >= 0; i-- {
		ok = or(not(guards[i]), ok)
	}
	return Check{Cond: ok, Msg: fmt.Sprintf("arithmetic overflow on signed %s in %s", opName(e), program.ExprString(e))}
}

func opName(e program.Expr) string {
	switch x := e.(type) {
	case *program.Unary:
		return "unary minus"
	case *program.Binary:
		switch x.Op {
		case program.Div:
			return "division"
		case program.Rem:
			return "remainder"
		case program.Shl:
			return "shl"
		}
		return program.BinOpString(x.Op)
	}
	return "operation"
}

func signed(t *program.Type) bool { return t.Kind == program.Int && t.Signed }

// binaryOK returns the condition under which the signed operation b does
// not overflow, or nil when b cannot overflow (another operator, unsigned,
// pointers).
func binaryOK(b *program.Binary) program.Expr {
	t := b.T
	if !signed(t) {
		return nil
	}
	x, y := b.X, b.Y
	switch b.Op {
	case program.Add, program.Sub, program.Mul:
		if t.Size < 8 {
			w := program.IntType(8, true)
			r := &program.Binary{Op: b.Op, X: widen(x, w), Y: widen(y, w), T: w}
			return and(cmp(program.Ge, r, program.IntConst(w, minInt(t))), cmp(program.Le, r, program.IntConst(w, maxInt(t))))
		}
		return not(overflow64(b.Op, x, y, t))
	case program.Div, program.Rem:
		return or(cmp(program.Ne, x, minOf(t)), cmp(program.Ne, y, program.IntConst(t, -1)))
	case program.Shl:
		// CBMC: no overflow for a negative value, a negative distance, a
		// distance beyond the width or a zero value; otherwise the value
		// must stay below the sign bit: x <= MAX >> d (nothing for d ==
		// width, where the shift of MAX is not evaluated).
		d := b.Y
		dt := d.Type()
		wd := program.IntConst(dt, int64(t.Bits()))
		ok := []program.Expr{cmp(program.Lt, x, program.IntConst(t, 0))}
		if signed(dt) {
			ok = append(ok, cmp(program.Lt, d, program.IntConst(dt, 0)))
		}
		limit := &program.CondExpr{C: cmp(program.Eq, d, wd), X: program.IntConst(t, 0),
			Y: &program.Binary{Op: program.Shr, X: maxOf(t), Y: d, T: t}, T: t}
		ok = append(ok, cmp(program.Gt, d, wd), cmp(program.Eq, x, program.IntConst(t, 0)), cmp(program.Le, x, limit))
		r := ok[len(ok)-1]
		for i := len(ok) - 2; i >= 0; i-- {
			r = or(ok[i], r)
		}
		return r
	}
	return nil
}

// overflow64 is the condition under which x op y overflows the 64-bit
// signed type t, with operations that do not overflow where they are
// evaluated (C's && and ?: in printed C; the model wraps, harmlessly).
func overflow64(op program.BinOp, x, y program.Expr, t *program.Type) program.Expr {
	zero := program.IntConst(t, 0)
	gt0 := func(e program.Expr) program.Expr { return cmp(program.Gt, e, zero) }
	lt0 := func(e program.Expr) program.Expr { return cmp(program.Lt, e, zero) }
	arith := func(op program.BinOp, a, b program.Expr) program.Expr {
		return &program.Binary{Op: op, X: a, Y: b, T: t}
	}
	mx, mn := maxOf(t), minOf(t)
	switch op {
	case program.Add: // y > 0 && x > MAX - y || y < 0 && x < MIN - y
		return or(and(gt0(y), cmp(program.Gt, x, arith(program.Sub, mx, y))),
			and(lt0(y), cmp(program.Lt, x, arith(program.Sub, mn, y))))
	case program.Sub: // y < 0 && x > MAX + y || y > 0 && x < MIN + y
		return or(and(lt0(y), cmp(program.Gt, x, arith(program.Add, mx, y))),
			and(gt0(y), cmp(program.Lt, x, arith(program.Add, mn, y))))
	}
	// Mul: by the signs, against the quotients (C division truncates)
	return or(
		or(and(and(gt0(x), gt0(y)), cmp(program.Gt, x, arith(program.Div, mx, y))),
			and(and(gt0(x), lt0(y)), cmp(program.Lt, y, arith(program.Div, mn, x)))),
		or(and(and(lt0(x), gt0(y)), cmp(program.Lt, x, arith(program.Div, mn, y))),
			and(and(lt0(x), lt0(y)), cmp(program.Lt, x, arith(program.Div, mx, y)))))
}

// widen converts e to the wider type w (a constant stays a constant).
func widen(e program.Expr, w *program.Type) program.Expr {
	if c, ok := e.(*program.Const); ok {
		return program.IntConst(w, c.V)
	}
	return &program.Cast{X: e, T: w}
}

func minInt(t *program.Type) int64 { return math.MinInt64 >> (64 - t.Bits()) }
func maxInt(t *program.Type) int64 { return math.MaxInt64 >> (64 - t.Bits()) }

func minOf(t *program.Type) program.Expr { return program.IntConst(t, minInt(t)) }
func maxOf(t *program.Type) program.Expr { return program.IntConst(t, maxInt(t)) }

func cmp(op program.BinOp, x, y program.Expr) program.Expr {
	return &program.Binary{Op: op, X: x, Y: y, T: program.IntT}
}

func and(x, y program.Expr) program.Expr {
	return &program.Binary{Op: program.LAnd, X: x, Y: y, T: program.IntT}
}

func or(x, y program.Expr) program.Expr {
	return &program.Binary{Op: program.LOr, X: x, Y: y, T: program.IntT}
}

// not is the negation of the condition x (!!c is c as a condition).
func not(x program.Expr) program.Expr {
	if u, ok := x.(*program.Unary); ok && u.Op == program.Not {
		return u.X
	}
	return &program.Unary{Op: program.Not, X: x, T: program.IntT}
}

// Layout is what Add put before one instruction: Hoisted pairs of a
// temporary's declaration and its assignment of one Nondet value of the
// instruction (in the order the instruction drew them), then the
// assertions, then the instruction.
type Layout struct {
	Hoisted int
	Labels  []program.Label // 2*Hoisted declarations and assignments, then the assertions
}

// Add returns a copy of p with the checks of every instruction as
// assertions before it ("<func>.overflow.<k>", k from 1 in body order per
// function, Msg the check's), and where each went (by the instruction's
// label). An instruction that draws Nondet values and has checks first
// draws them into temporaries, so that the assertions and the instruction
// see the same values; a goto to an instruction with checks jumps to the
// first instruction put before it. p itself is not changed; a program that
// has overflow properties already is returned as a copy.
func Add(p *program.Program) (*program.Program, map[program.Label]Layout) {
	q := program.Clone(p)
	layout := map[program.Label]Layout{}
	for _, pr := range program.Properties(p) {
		if program.PropKind(pr) == Kind {
			return q, layout
		}
	}
	used := map[program.Label]bool{}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			used[in.Label] = true
		}
	}
	for _, f := range q.Funcs {
		k, tmp := 0, 0
		var body []*program.Instr
		for _, in := range f.Body {
			cs := Checks(in)
			if len(cs) == 0 {
				body = append(body, in)
				continue
			}
			var lay Layout
			fresh := func() program.Label {
				l := program.Fresh(q, string(in.Label), used)
				lay.Labels = append(lay.Labels, l)
				return l
			}
			if hasNondet(in) {
				hoist := func(e program.Expr) program.Expr {
					return program.Rewrite(e, func(x program.Expr) program.Expr {
						nd, ok := x.(*program.Nondet)
						if !ok {
							return x
						}
						v := tempVar(q, f, &tmp, nd.T, in.Pos)
						r := &program.Ref{Name: v.Name, Local: true, T: v.Type}
						body = append(body,
							&program.Instr{Label: fresh(), Op: program.OpDecl, Var: v.Name, Pos: in.Pos},
							&program.Instr{Label: fresh(), Op: program.OpAssign, Lhs: r, Rhs: nd, Pos: in.Pos})
						lay.Hoisted++
						return r
					})
				}
				in.Lhs, in.Rhs, in.Func = hoist(in.Lhs), hoist(in.Rhs), hoist(in.Func)
				for i, a := range in.Args {
					in.Args[i] = hoist(a)
				}
				cs = Checks(in)
			}
			for _, c := range cs {
				k++
				body = append(body, &program.Instr{Label: fresh(), Op: program.OpAssert, Rhs: c.Cond,
					Prop: fmt.Sprintf("%s.%s.%d", f.Name, Kind, k), Msg: c.Msg, Pos: in.Pos})
			}
			layout[in.Label] = lay
			body = append(body, in)
		}
		f.Body = body
	}
	// a jump to an instruction with checks lands on the first one put before it
	for _, f := range q.Funcs {
		for _, in := range f.Body {
			for i, t := range in.Targets {
				if lay, ok := layout[t]; ok {
					in.Targets[i] = lay.Labels[0]
				}
			}
		}
	}
	return q, layout
}

func hasNondet(in *program.Instr) bool {
	for _, e := range in.Operands() {
		if program.HasNondet(e) {
			return true
		}
	}
	return false
}

// tempVar adds a temporary local of type t to f, named apart from its
// other locals and parameters and from the globals of q.
func tempVar(q *program.Program, f *program.Func, n *int, t *program.Type, pos program.Pos) *program.Var {
	for {
		name := fmt.Sprintf("__ovf_%d", *n)
		*n++
		if f.Var(name) == nil && q.Global(name) == nil {
			v := &program.Var{Name: name, Type: t, Temp: true, Pos: pos}
			f.Locals = append(f.Locals, v)
			return v
		}
	}
}

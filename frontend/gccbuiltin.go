package frontend

import (
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// GCC builtins that headers and real code use (issue 30), each lowered to
// what it computes, exactly:
//
//   - __builtin_bswap16/32/64: shifts and masks.
//   - __builtin_popcount, __builtin_parity, __builtin_ffs, __builtin_clz,
//     __builtin_ctz and their l/ll forms: bit arithmetic on the argument
//     (popcount is the sum of its bits). clz and ctz of 0 are undefined in
//     GCC (the x86 instruction leaves its result undefined): their result
//     for 0 is an opaque value (program.Nondet with an Origin), so a
//     violation that needs it is UNKNOWN, never FALSE, and a TRUE covers
//     every value the hardware could give.
//   - __builtin_expect(e, c) is e; __builtin_constant_p and
//     __builtin_offsetof are integer constants folded by the C parser
//     (constant_p: 1 for an integer constant expression, else 0, as gcc -O0
//     and CBMC).
//   - __builtin_unreachable(): reaching it is undefined behaviour (C23
//     7.21.1); it is lowered like abort(), assume(0): a run that reaches it
//     is not a run of the model. This is a residual assumption of the
//     model, as in CBMC and ESBMC: the program does not reach it.
//     __builtin_trap() ends the program (SIGILL): assume(0) too.
//   - The __sync_* and __atomic_* families are atomic read-modify-writes:
//     the pointer and the operands are evaluated first, then the read and
//     the write happen in one atomic section (AtomicBegin/AtomicEnd), so
//     that no other thread runs between them. The model is sequentially
//     consistent: __sync_* are full barriers and __atomic_* with
//     __ATOMIC_SEQ_CST are exact; fences (__sync_synchronize,
//     __atomic_thread_fence, __atomic_signal_fence) are no-ops. A weaker
//     memory order (relaxed, acquire, release, ...) allows behaviours no
//     sequentially consistent run has: it is rejected, as is a memory
//     order that is not a constant. A weak compare-exchange may fail
//     spuriously (a genuine nondeterministic choice).
//     Arithmetic read-modify-writes on pointers (not scaled by the size of
//     the pointee, unlike C arithmetic) are rejected.
//   - __builtin_<f> for a C library function f the front end models is
//     that function (libAlias).

// libAlias maps the __builtin_ forms of library functions to the
// functions whose models they share.
var libAlias = map[string]string{
	"__builtin_abort": "abort", "__builtin_exit": "exit", "__builtin_free": "free",
	"__builtin_memcpy": "memcpy", "__builtin_memset": "memset", "__builtin_strcpy": "strcpy",
	"__builtin_strncpy": "strncpy", "__builtin_strlen": "strlen", "__builtin_strcmp": "strcmp",
	"__builtin_strncmp": "strncmp", "__builtin_memcmp": "memcmp", "__builtin_printf": "printf",
	"__builtin_fprintf": "fprintf", "__builtin_puts": "puts", "__builtin_putchar": "putchar",
}

// memory orders of the __atomic builtins (the values of __ATOMIC_*)
const atomicSeqCst = 5

var atomicOrderNames = []string{"__ATOMIC_RELAXED", "__ATOMIC_CONSUME", "__ATOMIC_ACQUIRE", "__ATOMIC_RELEASE", "__ATOMIC_ACQ_REL", "__ATOMIC_SEQ_CST"}

// rmwOps are the operations of the fetch-and-op builtins.
var rmwOps = map[string]program.BinOp{
	"add": program.Add, "sub": program.Sub, "or": program.Or, "and": program.And, "xor": program.Xor,
	"nand": program.And, // ~(old & v)
}

// gccBuiltin lowers a call of a GCC builtin; ok is false when name is not
// one the front end models.
func (fl *funcLowerer) gccBuiltin(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) (r program.Expr, ok bool) {
	l := fl.l
	need := func(n int) {
		if len(as) != n {
			l.fail(x, "%s called with %d arguments, want %d", name, len(as), n)
		}
	}
	switch name {
	case "__builtin_expect":
		need(2)
		v := fl.rval(as[0])
		fl.effect(as[1])
		return v, true
	case "__builtin_expect_with_probability":
		need(3)
		v := fl.rval(as[0])
		fl.effect(as[1])
		fl.effect(as[2])
		return v, true
	case "__builtin_unreachable", "__builtin_trap":
		need(0)
		in := fl.newInstr(program.OpAssume)
		in.Rhs = program.IntConst(program.IntT, 0)
		in.Msg = name
		fl.emit(in)
		return nil, true
	case "__builtin_bswap16", "__builtin_bswap32", "__builtin_bswap64":
		need(1)
		size := map[string]int64{"__builtin_bswap16": 2, "__builtin_bswap32": 4, "__builtin_bswap64": 8}[name]
		return fl.bswap(x, as[0], size), true
	case "__sync_synchronize", "__atomic_thread_fence", "__atomic_signal_fence":
		for _, a := range as {
			fl.effect(a)
		}
		return nil, true
	}
	if f, w, ok := bitBuiltin(name, l.model.PtrSize()); ok {
		need(1)
		return fl.bitOp(x, f, w, as[0]), true
	}
	if strings.HasPrefix(name, "__sync_") || strings.HasPrefix(name, "__atomic_") {
		return fl.atomicBuiltin(x, name, as, want)
	}
	return nil, false
}

// stableValue returns v, or a local temporary holding it when v reads
// memory or draws a value (so that v can be used several times).
func (fl *funcLowerer) stableValue(v program.Expr) program.Expr {
	if _, ok := v.(*program.Const); ok || isStableLocal(fl, v) {
		return v
	}
	t := fl.tmp(v.Type())
	fl.assign(t, v)
	return t
}

// bswap lowers __builtin_bswap<8*size>(a): the bytes of a in reverse
// order.
func (fl *funcLowerer) bswap(x cc.Node, a cc.ExpressionNode, size int64) program.Expr {
	ut := program.IntType(size, false)
	wt := ut
	if size < 4 {
		wt = program.UIntType // computed without the integer promotions' sign
	}
	v := fl.stableValue(fl.convert(fl.rvalTo(a, ut), wt, true))
	var r program.Expr
	for i := int64(0); i < size; i++ {
		b := fl.binary(x, program.And, fl.binary(x, program.Shr, v, program.IntConst(program.IntT, 8*i)), program.IntConst(wt, 0xff))
		b = fl.binary(x, program.Shl, b, program.IntConst(program.IntT, 8*(size-1-i)))
		if r == nil {
			r = b
		} else {
			r = fl.binary(x, program.Or, r, b)
		}
	}
	return fl.convert(r, ut, true)
}

// bitBuiltin recognises the bit-counting builtins: the function (popcount,
// parity, ffs, clz, ctz) and the width of the argument in bytes.
func bitBuiltin(name string, ptrSize int64) (f string, width int64, ok bool) {
	for _, f := range []string{"popcount", "parity", "ffs", "clz", "ctz"} {
		rest, found := strings.CutPrefix(name, "__builtin_"+f)
		if !found {
			continue
		}
		switch rest {
		case "":
			return f, 4, true
		case "l":
			return f, ptrSize, true
		case "ll":
			return f, 8, true
		}
	}
	return "", 0, false
}

// popcount returns the number of bits set in the stable unsigned value v,
// an int: the bits are added in fields of 2, 4 and 8 bits (each field
// holds the count of its bits), then the bytes are added; a few adders,
// where a sum of the bits one by one makes a chain the solver finds hard.
func (fl *funcLowerer) popcount(x cc.Node, v program.Expr) program.Expr {
	ut := v.Type()
	w := ut.Size * 8
	mask := func(b uint64) program.Expr { // the byte b repeated over the width
		m := uint64(0)
		for i := int64(0); i < ut.Size; i++ {
			m = m<<8 | b
		}
		return program.IntConst(ut, int64(m))
	}
	sh := func(e program.Expr, k int64) program.Expr {
		return fl.binary(x, program.Shr, e, program.IntConst(program.IntT, k))
	}
	and := func(a, b program.Expr) program.Expr { return fl.binary(x, program.And, a, b) }
	add := func(a, b program.Expr) program.Expr { return fl.binary(x, program.Add, a, b) }
	set := func(e program.Expr) program.Expr {
		t := fl.tmp(ut)
		fl.assign(t, fl.convert(e, ut, true))
		return t
	}
	t := set(fl.binary(x, program.Sub, v, and(sh(v, 1), mask(0x55))))
	t = set(add(and(t, mask(0x33)), and(sh(t, 2), mask(0x33))))
	t = set(and(add(t, sh(t, 4)), mask(0x0f)))
	for k := int64(8); k < w; k *= 2 {
		t = set(add(t, sh(t, k)))
	}
	return fl.convert(and(t, program.IntConst(ut, 0x7f)), program.IntT, true)
}

// bitOp lowers popcount, parity, ffs, clz and ctz of a (width bytes,
// unsigned; ffs takes a signed argument of that width).
func (fl *funcLowerer) bitOp(x *cc.PostfixExpression, f string, width int64, a cc.ExpressionNode) program.Expr {
	ut := program.IntType(width, false)
	argT := ut
	if f == "ffs" {
		argT = program.IntType(width, true)
	}
	v := fl.stableValue(fl.convert(fl.rvalTo(a, argT), ut, true))
	one := program.IntConst(ut, 1)
	switch f {
	case "popcount":
		return fl.popcount(x, v)
	case "parity":
		return fl.binary(x, program.And, fl.popcount(x, v), program.IntConst(program.IntT, 1))
	case "ffs":
		// ffs(0) = 0; else 1 + the index of the lowest set bit, which is the
		// number of bits of (v & -v) - 1 (the bits below it)
		low := fl.binary(x, program.Sub, fl.binary(x, program.And, v, &program.Unary{Op: program.Neg, X: v, T: ut}), one)
		cnt := fl.binary(x, program.Add, fl.popcount(x, fl.stableValue(low)), program.IntConst(program.IntT, 1))
		return &program.CondExpr{C: fl.binary(x, program.Eq, v, program.IntConst(ut, 0)), X: program.IntConst(program.IntT, 0), Y: cnt, T: program.IntT}
	}
	// clz, ctz: undefined for 0 (an opaque result); else computed.
	r := fl.tmp(program.IntT)
	zero, done := fl.newLabel(), fl.newLabel()
	fl.jump(zero, fl.binary(x, program.Eq, v, program.IntConst(ut, 0)))
	var cnt program.Expr
	if f == "ctz" {
		// the bits below the lowest set bit: ~v & (v - 1)
		low := fl.binary(x, program.And, &program.Unary{Op: program.BitNot, X: v, T: ut}, fl.binary(x, program.Sub, v, one))
		cnt = fl.popcount(x, fl.stableValue(fl.convert(low, ut, true)))
	} else {
		// smear the highest set bit downwards; the leading zeros are the
		// bits left clear
		s := fl.tmp(ut)
		fl.assign(s, v)
		for k := int64(1); k < width*8; k *= 2 {
			fl.assign(s, fl.convert(fl.binary(x, program.Or, s, fl.binary(x, program.Shr, s, program.IntConst(program.IntT, k))), ut, true))
		}
		cnt = fl.binary(x, program.Sub, program.IntConst(program.IntT, width*8), fl.popcount(x, s))
	}
	fl.assign(r, cnt)
	fl.jump(done, nil)
	fl.place(zero)
	name, _ := directName(x.PostfixExpression)
	fl.assign(r, &program.Nondet{T: program.IntT, Origin: name + "(0)"})
	fl.place(done)
	return r
}

// memOrder checks a memory-order argument of an __atomic builtin: a
// constant, sequentially consistent.
func (fl *funcLowerer) memOrder(x cc.Node, name string, a cc.ExpressionNode) {
	k, ok := intValue(a.Value())
	if !ok {
		fl.l.fail(x, "%s with a memory order that is not a constant", name)
	}
	if k != atomicSeqCst {
		what := "an unknown memory order"
		if k >= 0 && k < int64(len(atomicOrderNames)) {
			what = atomicOrderNames[k]
		}
		fl.l.fail(x, "%s with %s: weaker than sequential consistency, the model's memory model (only __ATOMIC_SEQ_CST is modelled)", name, what)
	}
}

// atomicTarget evaluates the pointer argument of an atomic builtin: a
// stable pointer to a scalar object; arith says the object takes part in
// arithmetic (integers only).
func (fl *funcLowerer) atomicTarget(x cc.Node, name string, a cc.ExpressionNode, arith bool) (p program.Expr, elem *program.Type) {
	p = fl.rval(a)
	pt := p.Type()
	if pt.Kind != program.Pointer || !pt.Elem.IsScalar() || pt.Elem.Kind == program.Mutex || pt.Elem.Kind == program.Cond {
		fl.l.fail(x, "%s of %s (type %s), not a pointer to an integer or pointer object", name, sourceText(a), pt)
	}
	if arith && !pt.Elem.IsInteger() {
		fl.l.fail(x, "%s on a pointer object (%s): the builtins add bytes to pointers, not elements as C does; not modelled", name, pt.Elem)
	}
	return fl.stablePtr(p), pt.Elem
}

// atomicBuiltin lowers the __sync_* and __atomic_* builtins.
func (fl *funcLowerer) atomicBuiltin(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) (program.Expr, bool) {
	l := fl.l
	need := func(n int) {
		if len(as) != n {
			l.fail(x, "%s called with %d arguments, want %d", name, len(as), n)
		}
	}
	operand := func(a cc.ExpressionNode, t *program.Type) program.Expr {
		return fl.stableValue(fl.rvalTo(a, t))
	}
	begin := func() { fl.emitOp(program.OpAtomicBegin, nil, nil) }
	end := func() { fl.emitOp(program.OpAtomicEnd, nil, nil) }
	// rmw: old = *p; *p = f(old), atomically; returns old and the new value
	rmw := func(p program.Expr, elem *program.Type, f func(old program.Expr) program.Expr) (old, nv program.Expr) {
		o := fl.tmp(elem)
		n := fl.tmp(elem)
		begin()
		fl.assign(o, fl.deref(x, p))
		fl.assign(n, fl.convert(f(o), elem, true))
		fl.assign(fl.deref(x, p), n)
		end()
		return o, n
	}
	// cas: old = *p; ok = old == e (and, when weak, a free choice); if ok
	// *p = d; atomically; returns old and ok
	cas := func(p program.Expr, elem *program.Type, e, d program.Expr, weak bool) (old, okv program.Expr) {
		o := fl.tmp(elem)
		okT := fl.tmp(program.IntT)
		skip := fl.newLabel()
		begin()
		fl.assign(o, fl.deref(x, p))
		c := fl.binary(x, program.Eq, o, e)
		if weak {
			// a weak compare-exchange may fail spuriously
			c = fl.binary(x, program.LAnd, c, &program.Nondet{T: program.BoolType})
		}
		fl.assign(okT, c)
		fl.jump(skip, fl.binary(x, program.Eq, okT, program.IntConst(program.IntT, 0)))
		fl.assign(fl.deref(x, p), d)
		fl.place(skip)
		end()
		return o, okT
	}
	result := func(v program.Expr) (program.Expr, bool) {
		if !want {
			return nil, true
		}
		return v, true
	}

	// fetchOp lowers the arithmetic read-modify-writes: rest is the name
	// without its family prefix, pre and post the spellings of "fetch
	// first" and "operate first", n the argument count, orders the index
	// of the first memory-order argument (n: none)
	fetchOp := func(rest, pre, post string, n, orders int) (program.Expr, bool, bool) {
		op, first := strings.CutPrefix(rest, pre)
		if !first {
			var ok bool
			if op, ok = strings.CutSuffix(rest, post); !ok {
				return nil, false, false
			}
		}
		bop, ok := rmwOps[op]
		if !ok {
			return nil, false, false
		}
		need(n)
		for _, a := range as[orders:] {
			fl.memOrder(x, name, a)
		}
		p, elem := fl.atomicTarget(x, name, as[0], true)
		v := operand(as[1], elem)
		old, nv := rmw(p, elem, fl.rmwFunc(x, op, bop, v))
		if first {
			e, ok := result(old)
			return e, ok, true
		}
		e, ok := result(nv)
		return e, ok, true
	}
	if rest, ok := strings.CutPrefix(name, "__sync_"); ok {
		if e, ok, done := fetchOp(rest, "fetch_and_", "_and_fetch", 2, 2); done {
			return e, ok
		}
		switch rest {
		case "bool_compare_and_swap", "val_compare_and_swap":
			need(3)
			p, elem := fl.atomicTarget(x, name, as[0], false)
			e := operand(as[1], elem)
			d := operand(as[2], elem)
			old, okv := cas(p, elem, e, d, false)
			if rest == "bool_compare_and_swap" {
				return result(fl.convert(okv, program.BoolType, true))
			}
			return result(old)
		case "lock_test_and_set":
			need(2)
			p, elem := fl.atomicTarget(x, name, as[0], false)
			v := operand(as[1], elem)
			old, _ := rmw(p, elem, func(program.Expr) program.Expr { return v })
			return result(old)
		case "lock_release":
			need(1)
			p, elem := fl.atomicTarget(x, name, as[0], false)
			fl.assign(fl.deref(x, p), program.IntConst(elem, 0))
			return nil, true
		}
		return nil, false
	}

	rest := strings.TrimPrefix(name, "__atomic_")
	orders := func(from int) {
		for _, a := range as[from:] {
			fl.memOrder(x, name, a)
		}
	}
	if e, ok, done := fetchOp(rest, "fetch_", "_fetch", 3, 2); done {
		return e, ok
	}
	// through returns the object a pointer argument points to, of type elem
	through := func(a cc.ExpressionNode, elem *program.Type) program.Expr {
		q := fl.rval(a)
		if qt := q.Type(); qt.Kind != program.Pointer || !sameType(qt.Elem, elem) {
			l.fail(x, "%s: %s (type %s) does not point to a %s", name, sourceText(a), qt, elem)
		}
		return fl.deref(x, fl.stablePtr(q))
	}
	switch rest {
	case "load_n":
		need(2)
		orders(1)
		p, elem := fl.atomicTarget(x, name, as[0], false)
		v := fl.tmp(elem)
		fl.assign(v, fl.deref(x, p)) // one access: atomic
		return result(v)
	case "load":
		need(3)
		orders(2)
		p, elem := fl.atomicTarget(x, name, as[0], false)
		ret := through(as[1], elem)
		v := fl.tmp(elem)
		fl.assign(v, fl.deref(x, p))
		fl.assign(ret, v)
		return nil, true
	case "store_n", "store":
		need(3)
		orders(2)
		p, elem := fl.atomicTarget(x, name, as[0], false)
		var v program.Expr
		if rest == "store_n" {
			v = operand(as[1], elem)
		} else {
			v = fl.stableValue(through(as[1], elem))
		}
		fl.assign(fl.deref(x, p), v) // one access: atomic
		return nil, true
	case "exchange_n":
		need(3)
		orders(2)
		p, elem := fl.atomicTarget(x, name, as[0], false)
		v := operand(as[1], elem)
		old, _ := rmw(p, elem, func(program.Expr) program.Expr { return v })
		return result(old)
	case "exchange":
		need(4)
		orders(3)
		p, elem := fl.atomicTarget(x, name, as[0], false)
		v := fl.stableValue(through(as[1], elem))
		ret := through(as[2], elem)
		old, _ := rmw(p, elem, func(program.Expr) program.Expr { return v })
		fl.assign(ret, old)
		return nil, true
	case "compare_exchange_n", "compare_exchange":
		need(6)
		orders(4)
		p, elem := fl.atomicTarget(x, name, as[0], false)
		exp := through(as[1], elem)
		var d program.Expr
		if rest == "compare_exchange_n" {
			d = operand(as[2], elem)
		} else {
			d = fl.stableValue(through(as[2], elem))
		}
		weak := true
		if k, ok := intValue(as[3].Value()); ok && k == 0 {
			weak = false
		} else {
			fl.effect(as[3])
		}
		e := fl.stableValue(exp)
		old, okv := cas(p, elem, e, d, weak)
		// on failure the current value is written to *expected, after the
		// atomic operation
		skip := fl.newLabel()
		fl.jump(skip, fl.binary(x, program.Ne, okv, program.IntConst(program.IntT, 0)))
		fl.assign(exp, old)
		fl.place(skip)
		return result(fl.convert(okv, program.BoolType, true))
	case "test_and_set":
		need(2)
		orders(1)
		p, elem := fl.atomicTarget(x, name, as[0], true)
		old, _ := rmw(p, elem, func(program.Expr) program.Expr { return program.IntConst(elem, 1) })
		return result(fl.convert(old, program.BoolType, true))
	case "clear":
		need(2)
		orders(1)
		p, elem := fl.atomicTarget(x, name, as[0], true)
		fl.assign(fl.deref(x, p), program.IntConst(elem, 0))
		return nil, true
	}
	return nil, false
}

// rmwFunc returns the new value of a fetch-and-op: old op v, and for nand
// ~(old & v).
func (fl *funcLowerer) rmwFunc(x cc.Node, op string, bop program.BinOp, v program.Expr) func(old program.Expr) program.Expr {
	return func(old program.Expr) program.Expr {
		r := fl.binary(x, bop, old, v)
		if op == "nand" {
			r = &program.Unary{Op: program.BitNot, X: r, T: r.Type()}
		}
		return r
	}
}

package frontend

import (
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// nondetTypes maps the suffix of __VERIFIER_nondet_<suffix> to its type.
func (l *lowerer) nondetType(suffix string) *program.Type {
	long := program.IntType(l.model.PtrSize(), true)
	ulong := program.IntType(l.model.PtrSize(), false)
	switch suffix {
	case "int":
		return program.IntT
	case "uint", "unsigned", "u32":
		return program.UIntType
	case "char":
		return program.CharType
	case "uchar", "u8":
		return program.UCharType
	case "short":
		return program.ShortType
	case "ushort", "u16":
		return program.UShortType
	case "long":
		return long
	case "ulong", "size_t", "sizet":
		return ulong
	case "longlong", "loff_t":
		return program.LLongType
	case "ulonglong", "u64", "sector_t":
		return program.ULLongType
	case "bool", "_Bool":
		return program.BoolType
	case "pointer":
		return l.voidPtr()
	case "pchar":
		return l.ptrTo(program.CharType)
	case "pthread_t":
		return pthreadTTypes[l.model]
	}
	return nil
}

// call lowers a call expression. With lhs set the result is stored there.
func (fl *funcLowerer) call(x *cc.PostfixExpression, lhs program.Expr, want bool) program.Expr {
	fl.setPos(x)
	as := args(x)
	name, direct := directName(x.PostfixExpression)
	if direct && fl.l.defs[name] == nil {
		if m := fl.libModelCall(name, as); m != "" {
			name = m
		}
	}
	if direct && fl.l.defs[name] == nil {
		r := fl.builtin(x, name, as, want || lhs != nil)
		if lhs != nil {
			fl.assign(lhs, fl.convert(r, lhs.Type(), false))
			return nil
		}
		return r
	}
	var callee program.Expr
	var ft *program.Type
	if direct {
		callee = fl.funcRef(name, x)
		ft = callee.Type()
	} else {
		callee = fl.rval(x.PostfixExpression)
		ct := callee.Type()
		switch {
		case ct.Kind == program.Pointer && ct.Elem.Kind == program.Function:
			ft = ct.Elem
		case ct.Kind == program.Function:
			ft = ct
		default:
			fl.l.fail(x, "call of a %s", ct)
		}
		fl.l.fptrCalls = true
	}
	if ft.Variadic {
		fl.l.fail(x, "call of a variadic function through a pointer")
	}
	if cft := calleeFuncType(x); direct && cft != nil && cft.IsVariadic() {
		// a variadic function with a body that never reads its variable
		// arguments (lowerFunc): they are evaluated and dropped
		if fixed := len(ft.Params) - len(fl.l.tlsParamTypes(name)); len(as) > fixed {
			for _, a := range as[fixed:] {
				fl.effect(a)
			}
			as = as[:fixed]
		}
	}
	var hidden []*program.Type // thread-local variables (tls.go)
	if direct {
		hidden = fl.l.tlsParamTypes(name)
	}
	if direct && len(ft.Params) == len(hidden) && len(as) > 0 && unprototypedEmpty(fl.l.defs[name]) {
		// f() defined without a prototype and called with arguments:
		// undefined in C (C11 6.5.2.2p6), ignored by every calling
		// convention (the caller pushes and pops them); they are
		// evaluated and dropped.
		fl.l.debugOnce("extra-args:"+name, "arguments of a call of a function defined without parameters are evaluated and ignored", "function", name, "pos", fl.cur.String())
		for _, a := range as {
			fl.effect(a)
		}
		as = nil
	}
	if len(as) != len(ft.Params)-len(hidden) {
		fl.l.fail(x, "call with %d arguments of a function with %d parameters", len(as), len(ft.Params)-len(hidden))
	}
	in := fl.newInstr(program.OpCall)
	in.Func = callee
	for i, a := range as {
		in.Args = append(in.Args, fl.rvalTo(a, ft.Params[i]))
	}
	if direct {
		in.Args = append(in.Args, fl.tlsArgs(x, name)...)
	}
	var result program.Expr
	if lhs != nil {
		in.Lhs = lhs
	} else if want && ft.Elem.Kind != program.Void {
		r := fl.tmp(ft.Elem)
		in.Lhs = r
		result = r
	}
	in.Pos = fl.cur
	fl.emit(in)
	return result
}

// builtin lowers a call of a function without a body.
func (fl *funcLowerer) builtin(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	l := fl.l
	resultType := func() *program.Type { return l.typ(x, x.Type()) }
	need := func(n int) {
		if len(as) != n {
			l.fail(x, "%s called with %d arguments, want %d", name, len(as), n)
		}
	}
	effects := func() {
		for _, a := range as {
			fl.effect(a)
		}
	}
	if lib, ok := libAlias[name]; ok {
		name = lib
	}
	switch {
	case name == "__VERIFIER_assume":
		need(1)
		fl.emitOp(program.OpAssume, nil, fl.cond(as[0]))
		return nil
	case name == "assert" || name == "__VERIFIER_assert":
		need(1)
		in := fl.newInstr(program.OpAssert)
		in.Rhs = fl.cond(as[0])
		in.Msg = sourceText(as[0])
		fl.emit(in)
		return nil
	case name == "__VERIFIER_error" || name == "reach_error" || name == "__assert_fail":
		effects()
		in := fl.newInstr(program.OpAssert)
		in.Rhs = program.IntConst(program.IntT, 0)
		in.Msg = name + "()"
		fl.emit(in)
		return nil
	case name == "abort" || name == "exit" || name == "_Exit":
		effects()
		in := fl.newInstr(program.OpAssume)
		in.Rhs = program.IntConst(program.IntT, 0)
		in.Msg = "abort"
		fl.emit(in)
		return nil
	case strings.HasPrefix(name, "__VERIFIER_nondet_"):
		effects()
		if !want {
			return nil // a value drawn and dropped
		}
		t := l.nondetType(strings.TrimPrefix(name, "__VERIFIER_nondet_"))
		if t == nil {
			t = resultType()
		}
		if t.Kind == program.Void || !t.IsScalar() {
			l.fail(x, "%s returns %s", name, t)
		}
		return &program.Nondet{T: t}
	case name == "__VERIFIER_atomic_begin":
		effects()
		fl.emitOp(program.OpAtomicBegin, nil, nil)
		return nil
	case name == "__VERIFIER_atomic_end":
		effects()
		fl.emitOp(program.OpAtomicEnd, nil, nil)
		return nil
	case isAllocName(name):
		l.fail(x, "%s whose result is not converted to a typed pointer", name)
	case name == "free":
		need(1)
		p := fl.rval(as[0])
		if p.Type().Kind != program.Pointer {
			l.fail(x, "free of %s", p.Type())
		}
		fl.emitOp(program.OpFree, nil, p)
		return nil
	case strings.HasPrefix(name, "pthread_"):
		return fl.pthread(x, name, as, want)
	case strings.HasPrefix(name, "__builtin_") || strings.HasPrefix(name, "__sync_") || strings.HasPrefix(name, "__atomic_"):
		if r, ok := fl.gccBuiltin(x, name, as, want); ok {
			return r
		}
		l.fail(x, "compiler builtin %s", name)
	case name == "setjmp" || name == "longjmp" || name == "_setjmp" || name == "__sigsetjmp" || name == "sigsetjmp":
		l.fail(x, "%s", name)
	}
	return fl.external(x, name, as, want)
}

func isNull(e program.Expr) bool {
	c, ok := e.(*program.Const)
	return ok && c.V == 0
}

func (fl *funcLowerer) mutexPtr(x cc.Node, name string, a cc.ExpressionNode) program.Expr {
	m := fl.rval(a)
	if t := m.Type(); t.Kind != program.Pointer || t.Elem.Kind != program.Mutex {
		fl.l.fail(x, "%s of %s (type %s), not a pthread_mutex_t *: the real function treats the object as a mutex of another size and layout", name, sourceText(a), t)
	}
	return m
}

func (fl *funcLowerer) pthread(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	l := fl.l
	ret0 := func() program.Expr {
		if !want {
			return nil
		}
		return program.IntConst(l.typ(x, x.Type()), 0)
	}
	need := func(n int) {
		if len(as) != n {
			l.fail(x, "%s called with %d arguments, want %d", name, len(as), n)
		}
	}
	if l.extMutexes() {
		if r, ok := fl.extMutex(x, name, as, want); ok { // pthread.go
			return r
		}
	}
	switch name {
	case "pthread_create":
		need(4)
		var lhs program.Expr
		if u, ok := as[0].(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
			// &t (&ids[i]): the Spawn stores the handle into t itself,
			// whose address is then not taken, as pthread_join's &v
			v := fl.expr(u.CastExpression, true)
			if _, deref := v.(*program.Deref); v != nil && !deref && program.IsLValue(v) && !fl.isAtomicVar(u.CastExpression) {
				lhs = v
			} else {
				lhs = fl.deref(x, fl.addrOf(u, v))
			}
		} else if h := fl.rval(as[0]); !isNull(h) {
			lhs = fl.deref(x, h)
		}
		if lhs != nil && !lhs.Type().IsInteger() {
			l.fail(x, "thread handle of type %s", lhs.Type())
		}
		fl.effect(as[1])
		var fn program.Expr
		if fname, ok := directName(as[2]); ok {
			fn = fl.funcRef(fname, as[2])
		} else {
			fn = fl.rval(as[2])
			if t := fn.Type(); t.Kind != program.Function && (t.Kind != program.Pointer || t.Elem.Kind != program.Function) {
				l.fail(as[2], "thread start routine of type %s", t)
			}
			l.fptrCalls = true
		}
		fn = fl.startRoutine(x, fn) // pthread.go: thread-specific data's destructors
		arg := fl.rvalTo(as[3], l.voidPtr())
		in := fl.newInstr(program.OpSpawn)
		in.Lhs, in.Func, in.Args = lhs, fn, []program.Expr{arg}
		fl.emit(in)
		return ret0()
	case "pthread_join":
		need(2)
		fl.detachCheck(x, false)
		t := fl.rvalTo(as[0], pthreadTTypes[l.model])
		var p program.Expr
		if u, ok := as[1].(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
			// &v for a void *v: the Join stores into v itself, whose
			// address is then not taken (no pointer to v is made)
			v := fl.expr(u.CastExpression, true)
			if _, deref := v.(*program.Deref); v != nil && !deref && program.IsLValue(v) && !fl.isAtomicVar(u.CastExpression) {
				if vt := v.Type(); vt.Kind == program.Pointer && vt.Elem.Kind == program.Void {
					fl.emitOp(program.OpJoin, v, t)
					return ret0()
				}
			}
			p = fl.addrOf(u, v)
		} else {
			p = fl.rval(as[1])
		}
		if isNull(p) {
			fl.emitOp(program.OpJoin, nil, t)
			return ret0()
		}
		if pt := p.Type(); pt.Kind != program.Pointer || !pt.Elem.IsScalar() {
			l.fail(x, "pthread_join result pointer of type %s", pt)
		}
		// The thread's result (what its start routine returned or it
		// passed to pthread_exit) is stored through a non-null pointer;
		// a pointer that is not a constant address is tested at run time.
		r := fl.tmp(l.voidPtr())
		fl.emitOp(program.OpJoin, r, t)
		var skip *program.Instr
		if _, ok := p.(*program.AddrOf); !ok {
			p = fl.stablePtr(p)
			skip = fl.newLabel()
			fl.jump(skip, fl.binary(x, program.Eq, p, program.IntConst(program.IntT, 0)))
		}
		d := fl.deref(x, p)
		fl.assign(d, fl.convert(r, d.Type(), true))
		if skip != nil {
			fl.place(skip)
		}
		return ret0()
	case "pthread_exit":
		need(1)
		var v program.Expr
		if r := fl.rvalTo(as[0], l.voidPtr()); !isNull(r) {
			v = fl.stableVal(r)
		}
		fl.tsdAtExit() // pthread.go: thread-specific data's destructors
		fl.emitOp(program.OpExit, nil, v)
		return nil
	case "pthread_mutex_init":
		need(2)
		m := fl.mutexPtr(x, name, as[0])
		fl.effect(as[1])
		fl.assign(fl.deref(x, m), &program.Const{T: program.MutexType, V: 0})
		return ret0()
	case "pthread_mutex_lock", "pthread_mutex_unlock":
		need(1)
		m := fl.mutexPtr(x, name, as[0])
		op := program.OpLock
		if name == "pthread_mutex_unlock" {
			op = program.OpUnlock
		}
		fl.emitOp(op, nil, m)
		return ret0()
	case "pthread_cond_wait", "pthread_cond_timedwait":
		timed := name == "pthread_cond_timedwait"
		if timed {
			need(3)
		} else {
			need(2)
		}
		fl.effect(as[0])
		m := fl.mutexPtr(x, name, as[1])
		if fl.readCount(m) > 0 || program.HasNondet(m) {
			t := fl.tmp(m.Type())
			fl.assign(t, m)
			m = t
		}
		if timed {
			fl.effect(as[2]) // the deadline
		}
		// POSIX allows spurious wake-ups: releasing and re-acquiring the
		// mutex over-approximates every wait.
		fl.emitOp(program.OpUnlock, nil, m)
		fl.emitOp(program.OpLock, nil, m)
		if timed { // 0 or ETIMEDOUT, a free choice (pthread.go)
			r := fl.tmp(program.IntT)
			fl.assign(r, program.IntConst(program.IntT, 0))
			fl.timedOut(x, r)
			if want {
				return fl.convert(r, l.typ(x, x.Type()), false)
			}
		}
		return ret0()
	case "pthread_mutex_destroy", "pthread_cond_init", "pthread_cond_destroy", "pthread_cond_signal",
		"pthread_cond_broadcast", "pthread_mutexattr_init",
		"pthread_mutexattr_destroy", "pthread_condattr_init", "pthread_condattr_destroy":
		for _, a := range as {
			fl.effect(a)
		}
		l.debugOnce("pthread:"+name, "pthread function has no effect in the model", "function", name)
		return ret0()
	}
	return fl.pthreadAPI(x, name, as, want) // pthread.go
}

// alloc lowers a malloc/calloc call whose result is stored in lv.
func (fl *funcLowerer) alloc(call *cc.PostfixExpression, lv program.Expr) {
	fl.setPos(call)
	name, _ := directName(call.PostfixExpression)
	as := args(call)
	t := lv.Type()
	elem := t.Elem
	if elem.Kind == program.Void || elem.Kind == program.Function || elem.Size <= 0 {
		fl.l.fail(call, "%s into a %s: element type unknown", name, t)
	}
	var count program.Expr
	switch name {
	case "malloc", "alloca", "__builtin_alloca":
		if len(as) != 1 {
			fl.l.fail(call, "%s with %d arguments", name, len(as))
		}
		count = fl.allocCount(as[0], elem)
		if name == "malloc" {
			fl.mayFail(lv, func(p program.Expr) { fl.emitOp(program.OpAlloc, p, count) })
			return
		}
		fl.emitOp(program.OpAlloc, lv, count)
	case "calloc":
		if len(as) != 2 {
			fl.l.fail(call, "calloc with %d arguments", len(as))
		}
		sz, ok := fl.l.constInt(as[1])
		if !ok || sz != elem.Size {
			fl.l.fail(call, "calloc with an element size other than sizeof(%s)", elem)
		}
		n := fl.rvalTo(as[0], fl.l.sizeT())
		if c, ok := n.(*program.Const); ok && c.V <= 16 {
			fl.mayFail(lv, func(lv program.Expr) {
				p := lv
				if !isStableLocal(fl, lv) {
					p = fl.tmp(t)
				}
				fl.emitOp(program.OpAlloc, p, n)
				for i := int64(0); i < c.V; i++ {
					fl.assignCompound(fl.deref(call, fl.binary(call, program.Add, p, program.IntConst(program.IntT, i))), nil)
				}
				if p != lv {
					fl.assign(lv, p)
				}
			})
			return
		}
		fl.l.fail(call, "calloc of a non-constant or large number of elements")
	case "realloc", program.ReallocFunc:
		if len(as) != 2 {
			fl.l.fail(call, "%s with %d arguments", name, len(as))
		}
		fl.realloc(call, name, lv, as)
	}
}

// realloc lowers lv = realloc(as[0], as[1]) as glibc behaves: a null
// pointer makes it malloc; a size of zero frees the block and yields a
// null pointer (glibc's REALLOC_ZERO_BYTES_FREES); otherwise a Realloc,
// which with Options.MallocMayFail may instead fail (a null pointer, the
// block untouched). Each argument is evaluated once. The function
// program.ReallocFunc of a printed program is the Realloc itself.
func (fl *funcLowerer) realloc(call *cc.PostfixExpression, name string, lv program.Expr, as []cc.ExpressionNode) {
	old := fl.rval(as[0])
	if c, ok := old.(*program.Const); ok && c.V == 0 && old.Type().IsInteger() {
		old = &program.Const{T: program.PointerTo(program.VoidType, fl.l.model.PtrSize()), V: 0} // realloc(0, n)
	}
	if old.Type().Kind != program.Pointer {
		fl.l.fail(call, "realloc of %s", old.Type())
	}
	elem := lv.Type().Elem
	if name == program.ReallocFunc {
		fl.reallocInstr(lv, fl.allocCount(as[1], elem), old)
		return
	}
	if c, ok := old.(*program.Const); ok && c.V == 0 { // realloc(NULL, n)
		count := fl.allocCount(as[1], elem)
		fl.mayFail(lv, func(p program.Expr) { fl.emitOp(program.OpAlloc, p, count) })
		return
	}
	po := fl.tmp(old.Type())
	fl.assign(po, old)
	st := fl.l.sizeT()
	count, bytes := fl.allocCountBytes(as[1], elem)
	zero := count // zero exactly when the size in bytes is
	if _, ok := count.(*program.Const); !ok {
		if bytes != nil {
			// bytes / sizeof(elem): the test is on the bytes
			b := fl.tmp(st)
			fl.assign(b, bytes)
			zero, count = b, &program.Binary{Op: program.Div, X: b, Y: program.IntConst(st, elem.Size), T: st}
		} else {
			n := fl.tmp(st)
			fl.assign(n, count)
			zero, count = n, n
		}
	}
	lv = fl.stableLval(lv)
	notNull, grow, done := fl.newLabel(), fl.newLabel(), fl.newLabel()
	fl.jump(notNull, &program.Binary{Op: program.Ne, X: po, Y: &program.Const{T: po.T, V: 0}, T: program.IntT})
	fl.mayFail(lv, func(p program.Expr) { fl.emitOp(program.OpAlloc, p, count) })
	fl.jump(done, nil)
	fl.place(notNull)
	c, constant := zero.(*program.Const)
	if !constant || c.V == 0 {
		if !constant {
			fl.jump(grow, &program.Binary{Op: program.Ne, X: zero, Y: program.IntConst(st, 0), T: program.IntT})
		}
		fl.emitOp(program.OpFree, nil, po)
		fl.assign(lv, &program.Const{T: lv.Type(), V: 0})
		fl.jump(done, nil)
	}
	if constant && c.V == 0 {
		fl.place(done)
		return
	}
	fl.place(grow)
	fl.mayFail(lv, func(lv program.Expr) { fl.reallocInstr(lv, count, po) })
	fl.place(done)
}

// reallocInstr emits lv = the Realloc of old to count elements. Its
// shared accesses are the old block's: a shared lv is written by a step
// of its own, as the C call returns first.
func (fl *funcLowerer) reallocInstr(lv, count, old program.Expr) {
	p := lv
	if !isStableLocal(fl, lv) {
		p = fl.tmp(lv.Type())
	}
	in := fl.newInstr(program.OpRealloc)
	in.Lhs, in.Rhs, in.Args = p, count, []program.Expr{old}
	fl.emit(in)
	if p != lv {
		fl.assign(lv, p)
	}
}

// mayFail emits alloc(lv), the allocation of malloc or calloc into lv;
// with Options.MallocMayFail the call may instead return a null pointer
// (a genuine choice: CBMC's and ESBMC's --malloc-may-fail), else it never
// fails (their default).
func (fl *funcLowerer) mayFail(lv program.Expr, alloc func(lv program.Expr)) {
	if !fl.l.mallocMayFail {
		alloc(lv)
		return
	}
	lv = fl.stableLval(lv)
	fail, done := fl.newLabel(), fl.newLabel()
	fl.jump(fail, &program.Nondet{T: program.BoolType})
	alloc(lv)
	fl.jump(done, nil)
	fl.place(fail)
	fl.assign(lv, &program.Const{T: lv.Type(), V: 0})
	fl.place(done)
}

// allocCount returns the number of elements of type elem a malloc of size
// bytes allocates.
func (fl *funcLowerer) allocCount(size cc.ExpressionNode, elem *program.Type) program.Expr {
	n, _ := fl.allocCountBytes(size, elem)
	return n
}

// allocCountBytes is allocCount, and the size in bytes when the count is
// that size divided by the element's (nil when the count is zero exactly
// when the size is: a multiple of sizeof(elem), or a constant).
func (fl *funcLowerer) allocCountBytes(size cc.ExpressionNode, elem *program.Type) (count, bytes program.Expr) {
	st := fl.l.sizeT()
	isSizeof := func(e cc.ExpressionNode) bool {
		for {
			if c := passThrough(e); c != nil {
				e = c
				continue
			}
			if p, ok := e.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionExpr {
				e = p.ExpressionList
				continue
			}
			if l, ok := e.(*cc.ExpressionList); ok && l.ExpressionList == nil {
				e = l.AssignmentExpression
				continue
			}
			break
		}
		u, ok := e.(*cc.UnaryExpression)
		if !ok || (u.Case != cc.UnaryExpressionSizeofExpr && u.Case != cc.UnaryExpressionSizeofType) {
			return false
		}
		k, ok := intValue(u.Value())
		return ok && k == elem.Size
	}
	if isSizeof(size) {
		return program.IntConst(st, 1), nil
	}
	if k, ok := fl.l.constInt(size); ok {
		if k%elem.Size != 0 {
			fl.l.fail(size, "malloc of %d bytes for elements of %d bytes", k, elem.Size)
		}
		return program.IntConst(st, k/elem.Size), nil
	}
	e := size
	for {
		if c := passThrough(e); c != nil && c != e {
			if _, ok := e.(*cc.MultiplicativeExpression); ok {
				break
			}
			e = c
			continue
		}
		break
	}
	if m, ok := e.(*cc.MultiplicativeExpression); ok && m.Case == cc.MultiplicativeExpressionMul {
		if isSizeof(m.CastExpression) {
			return fl.rvalTo(m.MultiplicativeExpression, st), nil
		}
		if isSizeof(m.MultiplicativeExpression) {
			return fl.rvalTo(m.CastExpression, st), nil
		}
	}
	n := fl.rvalTo(size, st)
	if elem.Size == 1 {
		return n, nil
	}
	return &program.Binary{Op: program.Div, X: n, Y: program.IntConst(st, elem.Size), T: st}, n
}

// unprototypedEmpty reports whether fd is defined as f() (no parameters and
// no prototype, unlike f(void)).
func unprototypedEmpty(fd *cc.FunctionDefinition) bool {
	if fd == nil {
		return false
	}
	ft, ok := fd.Declarator.Type().(*cc.FunctionType)
	return ok && !ft.IsVariadic() && len(ft.Parameters()) == 0 && ft.MaxArgs() < 0
}

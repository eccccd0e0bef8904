package frontend

import (
	"slices"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Thread-specific data (pthread_key_*).
//
// A key is an index below tsdKeys, given out in creation order and never
// reused; its destructor and whether it is live (created, not deleted)
// are kept in arrays indexed by it. The values live in a table of
// tsdSlots slots {owner, key, value}, owner the thread's id + 1 (0: a
// free slot): a thread's value for a key is the value of the slot it owns
// for that key, NULL when it owns none. pthread_setspecific takes the
// thread's slot for the key or a free one (a NULL value frees it);
// pthread_getspecific reads it; both scan the table with constant
// indices in an atomic section (a table indexed by thread id would be
// indexed by a value the built-in encoding does not know). A key beyond
// tsdKeys, or a value when every slot is taken, is an access outside an
// array: an invalid memory access, so a run that needs one ends as not
// modelled (UNKNOWN), never with a value.
//
// When some key has a destructor (a pthread_key_create whose second
// argument is not a null constant), a thread that ends by returning from
// its start routine (run through a wrapper, __cegpv_start_<f>) or by
// pthread_exit first calls the destructors of its non-null values, up to
// PTHREAD_DESTRUCTOR_ITERATIONS (4) rounds, as glibc, and frees its
// slots; main's return (exit) calls none.
const (
	tsdKeys       = 4
	tsdSlots      = 4
	tsdIterations = 4
)

// tsdState holds the globals of thread-specific data.
type tsdState struct {
	nkeys *program.Ref // keys created
	dtor  *program.Ref // per key: the destructor (dtorType)
	live  *program.Ref // int [tsdKeys]
	owner *program.Ref // int [tsdSlots]: thread id + 1, 0 = free
	key   *program.Ref // int [tsdSlots]
	val   *program.Ref // void *[tsdSlots]
	// wrappers: the start routine wrapper of each function, by name
	wrappers map[string]*program.FuncRef
	// dtors: some key has a destructor (known once dtorsKnown); named:
	// the functions named as destructors, in text order; indirect: some
	// destructor is another expression (a function pointer); resets:
	// some destructor may set a value (pthread_setspecific, directly or
	// through its callees or a function pointer), so that later rounds
	// may have work
	dtors, dtorsKnown, indirect, resets bool
	named                               []string
}

func (l *lowerer) tsdInfo() *tsdState {
	if l.pt == nil {
		l.pt = &pthreadModel{}
	}
	if l.pt.tsd == nil {
		l.pt.tsd = &tsdState{wrappers: map[string]*program.FuncRef{}}
	}
	return l.pt.tsd
}

// tsd returns the globals of thread-specific data, declaring them on
// first use.
func (l *lowerer) tsd() *tsdState {
	s := l.tsdInfo()
	if s.nkeys != nil {
		return s
	}
	global := func(name string, t *program.Type) *program.Ref {
		name = l.uniqueName(name, nil)
		l.globalNames[name] = true
		v := &program.Var{Name: name, Type: t, Pos: l.pos}
		l.globals[name] = v
		l.prog.Globals = append(l.prog.Globals, v)
		return &program.Ref{Name: name, T: t}
	}
	vp := l.voidPtr()
	s.nkeys = global("__cegpv_tsd_nkeys", program.IntT)
	s.dtor = global("__cegpv_tsd_dtor", program.ArrayOf(l.dtorType(), tsdKeys))
	s.live = global("__cegpv_tsd_live", program.ArrayOf(program.IntT, tsdKeys))
	s.owner = global("__cegpv_tsd_owner", program.ArrayOf(program.IntT, tsdSlots))
	s.key = global("__cegpv_tsd_key", program.ArrayOf(program.IntT, tsdSlots))
	s.val = global("__cegpv_tsd_val", program.ArrayOf(vp, tsdSlots))
	return s
}

// dtorType is the type of a key's destructor in the model: an int, i + 1
// for the i-th function the program names as a destructor (0: none),
// when it names every one; else a function pointer.
func (l *lowerer) dtorType() *program.Type {
	l.tsdDestructors()
	if l.pt.tsd.indirect {
		return l.ptrTo(&program.Type{Kind: program.Function, Size: 1, Elem: program.VoidType, Params: []*program.Type{l.voidPtr()}})
	}
	return program.IntT
}

// tsdDestructors reports whether some pthread_key_create of the program
// passes a destructor that is not a null constant.
func (l *lowerer) tsdDestructors() bool {
	s := l.tsdInfo()
	if s.dtorsKnown || l.ast == nil {
		return s.dtors
	}
	s.dtorsKnown = true
	walkNodes(l.ast.TranslationUnit, func(n cc.Node) bool {
		x, ok := n.(*cc.PostfixExpression)
		if !ok || x.Case != cc.PostfixExpressionCall {
			return true
		}
		if name, ok := directName(x.PostfixExpression); ok && name == "pthread_key_create" {
			if as := args(x); len(as) == 2 {
				if v, ok := intValue(as[1].Value()); !ok || v != 0 {
					s.dtors = true
					if f, ok := directName(as[1]); ok && l.defs[f] != nil {
						if !slices.Contains(s.named, f) {
							s.named = append(s.named, f)
						}
					} else {
						s.indirect = true
					}
				}
			}
		}
		return true
	})
	s.resets = s.indirect
	for _, f := range s.named {
		if l.mayCall(f, "pthread_setspecific") != nil {
			s.resets = true
		}
	}
	return s.dtors
}

// at returns the cell a[i] of a global array, i a constant or an
// expression.
func at(a *program.Ref, i program.Expr) program.Expr {
	return &program.Index{X: a, I: i, T: a.T.Elem}
}

func intc(v int) program.Expr { return program.IntConst(program.IntT, int64(v)) }

// keyCall lowers pthread_key_create, _delete, pthread_setspecific and
// getspecific.
func (fl *funcLowerer) keyCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) program.Expr {
	l := fl.l
	need := func(n int) {
		if len(as) != n {
			l.fail(x, "%s called with %d arguments, want %d", name, len(as), n)
		}
	}
	s := l.tsd()
	zero := intc(0)
	null := &program.Const{T: l.voidPtr(), V: 0}
	key := func(a cc.ExpressionNode) program.Expr { return fl.stableVal(fl.rvalTo(a, program.IntT)) }
	// ifValid runs then when k names a live key, els otherwise (glibc:
	// EINVAL, NULL for get); live[k] is read only for k in range (the
	// model's && evaluates both operands)
	ifValid := func(k program.Expr, then, els func()) {
		fl.ifElse(fl.binary(x, program.LAnd, fl.binary(x, program.Ge, k, zero), fl.binary(x, program.Lt, k, s.nkeys)), func() {
			fl.ifElse(fl.binary(x, program.Ne, at(s.live, k), zero), then, els)
		}, els)
	}
	mine := func(i int, k program.Expr) program.Expr {
		return fl.binary(x, program.LAnd, fl.binary(x, program.Eq, at(s.owner, intc(i)), fl.selfPlusOne()), fl.binary(x, program.Eq, at(s.key, intc(i)), k))
	}
	switch name {
	case "pthread_key_create":
		need(2)
		p := fl.intPtr(x, name, as[0])
		dt := s.dtor.T.Elem
		var d program.Expr
		if fname, direct := directName(as[1]); direct && !s.indirect {
			d = intc(slices.Index(s.named, fname) + 1)
		} else {
			d = fl.rval(as[1])
			if !isNull(d) {
				ft := d.Type()
				if ft.Kind == program.Pointer {
					ft = ft.Elem
				}
				if ft.Kind != program.Function || len(ft.Params) != 1 {
					l.fail(as[1], "%s with the destructor %s of type %s", name, sourceText(as[1]), d.Type())
				}
				l.fptrCalls = true
			}
			d = fl.stableVal(fl.convert(d, dt, true))
		}
		n := fl.tmp(program.IntT)
		fl.atomically(func() {
			fl.assign(n, s.nkeys)
			// a key beyond tsdKeys: an access outside the arrays
			fl.assign(at(s.dtor, n), d)
			fl.assign(at(s.live, n), intc(1))
			fl.assign(s.nkeys, fl.binary(x, program.Add, n, intc(1)))
		})
		fl.assign(fl.deref(x, p), fl.convert(n, p.Type().Elem, false))
		return zero
	case "pthread_key_delete":
		// the key's slots are freed (its values cannot be read again:
		// keys are not reused)
		need(1)
		k := key(as[0])
		r := fl.tmp(program.IntT)
		fl.atomically(func() {
			ifValid(k, func() {
				fl.assign(at(s.live, k), zero)
				for i := 0; i < tsdSlots; i++ {
					fl.ifElse(fl.binary(x, program.Eq, at(s.key, intc(i)), k), func() { fl.assign(at(s.owner, intc(i)), zero) }, nil)
				}
				fl.assign(r, zero)
			}, func() { fl.assign(r, intc(errEINVAL)) })
		})
		return r
	case "pthread_setspecific":
		need(2)
		k := key(as[0])
		v := fl.stableVal(fl.rvalTo(as[1], l.voidPtr()))
		r, done := fl.tmp(program.IntT), fl.tmp(program.IntT)
		fl.atomically(func() {
			ifValid(k, func() {
				fl.assign(r, zero)
				fl.assign(done, zero)
				// the thread's slot for k: the new value, freed if NULL
				for i := 0; i < tsdSlots; i++ {
					fl.ifElse(mine(i, k), func() {
						fl.assign(at(s.val, intc(i)), v)
						fl.ifElse(fl.binary(x, program.Eq, v, null), func() { fl.assign(at(s.owner, intc(i)), zero) }, nil)
						fl.assign(done, intc(1))
					}, nil)
				}
				// else a free slot, for a non-null value
				fl.ifElse(fl.binary(x, program.LAnd, fl.binary(x, program.Eq, done, zero), fl.binary(x, program.Ne, v, null)), func() {
					for i := 0; i < tsdSlots; i++ {
						fl.ifElse(fl.binary(x, program.LAnd, fl.binary(x, program.Eq, done, zero), fl.binary(x, program.Eq, at(s.owner, intc(i)), zero)), func() {
							fl.assign(at(s.owner, intc(i)), fl.selfPlusOne())
							fl.assign(at(s.key, intc(i)), k)
							fl.assign(at(s.val, intc(i)), v)
							fl.assign(done, intc(1))
						}, nil)
					}
					// every slot taken: an access outside the table
					fl.ifElse(fl.binary(x, program.Eq, done, zero), func() { fl.assign(at(s.owner, intc(tsdSlots)), zero) }, nil)
				}, nil)
			}, func() { fl.assign(r, intc(errEINVAL)) })
		})
		return r
	case "pthread_getspecific":
		need(1)
		k := key(as[0])
		r := fl.tmp(l.voidPtr())
		fl.atomically(func() {
			fl.assign(r, null)
			ifValid(k, func() {
				for i := 0; i < tsdSlots; i++ {
					fl.ifElse(mine(i, k), func() { fl.assign(r, at(s.val, intc(i))) }, nil)
				}
			}, func() {})
		})
		return r
	}
	return nil
}

// tsdAtExit emits what a thread that ends does with its thread-specific
// data when the program has destructors: the destructor rounds, then its
// slots are freed.
func (fl *funcLowerer) tsdAtExit() {
	l := fl.l
	if !l.tsdDestructors() {
		return
	}
	s := l.tsd()
	zero := intc(0)
	null := &program.Const{T: l.voidPtr(), V: 0}
	dt := s.dtor.T.Elem
	nodtor := &program.Const{T: dt, V: 0}
	v, d := fl.tmp(l.voidPtr()), fl.tmp(dt)
	fl.assign(v, null) // (read only after a destructor was found)
	var round, called program.Expr
	if s.resets {
		round, called = fl.tmp(program.IntT), fl.tmp(program.IntT)
	}
	// for (round = 0; round < 4; round++) { called = 0; for each slot of
	// the thread with a value whose key has a destructor: take the value
	// (the slot's value becomes NULL), call the destructor; if (!called)
	// break; }: a loop, as glibc's (the unwinding bounds it). When no
	// destructor can set a value, a second round finds every value of a
	// key with a destructor NULL: one round is the same.
	head, end := fl.newLabel(), fl.newLabel()
	if s.resets {
		fl.assign(round, zero)
		fl.place(head)
		fl.jump(end, fl.binary(nil, program.Ge, round, intc(tsdIterations)))
		fl.assign(called, zero)
	}
	for i := 0; i < tsdSlots; i++ {
		fl.assign(d, nodtor)
		fl.atomically(func() {
			fl.ifElse(fl.binary(nil, program.Eq, at(s.owner, intc(i)), fl.selfPlusOne()), func() {
				// an owned slot's key is one that was created
				k := at(s.key, intc(i))
				fl.assign(v, at(s.val, intc(i)))
				fl.ifElse(fl.binary(nil, program.Ne, v, null), func() {
					fl.ifElse(fl.binary(nil, program.Ne, at(s.live, k), zero), func() {
						fl.assign(d, at(s.dtor, k))
						fl.ifElse(fl.binary(nil, program.Ne, d, nodtor), func() { fl.assign(at(s.val, intc(i)), null) }, nil)
					}, nil)
				}, nil)
			}, nil)
		})
		fl.ifElse(fl.binary(nil, program.Ne, d, nodtor), func() {
			fl.callDestructor(d, v)
			if s.resets {
				fl.assign(called, intc(1))
			}
		}, nil)
	}
	if s.resets {
		fl.jump(end, fl.binary(nil, program.Eq, called, zero))
		fl.assign(round, fl.binary(nil, program.Add, round, intc(1)))
		fl.jump(head, nil)
	}
	fl.place(end)
	fl.atomically(func() {
		for i := 0; i < tsdSlots; i++ {
			fl.ifElse(fl.binary(nil, program.Eq, at(s.owner, intc(i)), fl.selfPlusOne()), func() { fl.assign(at(s.owner, intc(i)), zero) }, nil)
		}
	})
}

// callDestructor calls the destructor d (dtorType) on v: a direct call of
// the function it numbers when the program names its destructors (a call
// through a pointer makes every function of the type a candidate of the
// engines: the thread's start routine too), else a call through d.
func (fl *funcLowerer) callDestructor(d, v program.Expr) {
	s := fl.l.tsdInfo()
	call := func(f program.Expr, pt *program.Type) {
		in := fl.newInstr(program.OpCall)
		in.Func = f
		in.Args = []program.Expr{fl.convert(v, pt, true)}
		fl.emit(in)
	}
	if s.indirect {
		call(d, d.Type().Elem.Params[0])
		return
	}
	for i, name := range s.named {
		f := fl.funcRef(name, nil).(*program.FuncRef)
		if len(f.T.Params) != 1 {
			fl.l.fail(nil, "destructor %s of thread-specific data with %d parameters", name, len(f.T.Params))
		}
		fl.ifElse(fl.binary(nil, program.Eq, d, intc(i+1)), func() { call(f, f.T.Params[0]) }, nil)
	}
}

// startRoutine returns the start routine pthread_create spawns for fn:
// fn itself, or, when the program has destructors of thread-specific
// data, a wrapper that calls fn and then the destructors (tsdAtExit).
func (fl *funcLowerer) startRoutine(x cc.Node, fn program.Expr) program.Expr {
	l := fl.l
	if !l.tsdDestructors() {
		return fn
	}
	fr, ok := fn.(*program.FuncRef)
	if !ok {
		l.fail(x, "pthread_create through a function pointer in a program with destructors of thread-specific data")
	}
	s := l.tsd()
	if w := s.wrappers[fr.Name]; w != nil {
		return w
	}
	vp := l.voidPtr()
	name := l.uniqueName("__cegpv_start_"+fr.Name, nil)
	l.globalNames[name] = true
	arg := &program.Var{Name: "arg", Type: vp, Pos: fl.cur}
	f := &program.Func{Name: name, Result: vp, Params: []*program.Var{arg}, Pos: fl.cur}
	w := newFuncLowerer(l, f)
	w.cur = fl.cur
	w.localNames["arg"] = true
	r := w.tmp(vp)
	call := w.newInstr(program.OpCall)
	call.Func = fr
	ft := fr.T
	if len(ft.Params) > 1 {
		l.fail(x, "thread start routine %s with %d parameters", fr.Name, len(ft.Params))
	}
	if len(ft.Params) == 1 {
		call.Args = []program.Expr{w.convert(&program.Ref{Name: "arg", Local: true, T: vp}, ft.Params[0], true)}
	}
	if ft.Elem.Kind != program.Void {
		res := w.tmp(ft.Elem)
		call.Lhs = res
		w.emit(call)
		w.assign(r, w.convert(res, vp, true))
	} else {
		w.emit(call)
		w.assign(r, &program.Const{T: vp, V: 0})
	}
	w.tsdAtExit()
	w.emitOp(program.OpReturn, nil, r)
	l.prog.Funcs = append(l.prog.Funcs, w.finish())
	ref := &program.FuncRef{Name: name, T: f.Type()}
	s.wrappers[fr.Name] = ref
	return ref
}

package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// The pthread API beyond threads, mutexes and condition variables
// (call.go), lowered onto the model's primitives: int cells, atomic
// sections (AtomicBegin/AtomicEnd), assume, calls. Every engine (the
// built-in encoding, the explicit-state search, the interpreter, the lazy
// sequentialisation, the printer for ESBMC and CBMC) runs the result
// without knowing the API.
//
// A blocking operation is an atomic section whose first step is the
// assume that waits (as the SV-COMP lock idiom `assume(m == 0); m = 1;`
// in an atomic function): a thread blocked there has executed nothing
// inside, so it does not hold the section (docs/conventions.md, Atomic
// sections). Its arguments are evaluated before the section, as C
// evaluates a call's arguments before the call.
//
// The objects are recognised by their typedef names, in the embedded
// pthread.h and in preprocessed files with glibc's types alike (typ), and
// become structs of int cells named __cegpv_*, which the printer writes
// as such. Their static initialisers (PTHREAD_RWLOCK_INITIALIZER, glibc's
// brace initialisers) must be all zero, which is the unlocked state.
//
// Results follow glibc (x86 Linux): EBUSY 16, EINVAL 22, EDEADLK 35, EPERM
// 1, ETIMEDOUT 110, PTHREAD_BARRIER_SERIAL_THREAD -1.
const (
	errEPERM     = 1
	errEBUSY     = 16
	errEINVAL    = 22
	errEDEADLK   = 35
	errETIMEDOUT = 110

	barrierSerial = -1
)

// pthreadModel holds the model types of one translation unit, made on
// first use.
type pthreadModel struct {
	types map[string]*program.Type // by typedef name

	// detach and join are the first pthread_detach (or detached thread
	// attribute) and the first pthread_join lowered (see detachCheck).
	detach, join cc.Node

	// ext: the program's mutexes have owners (extMutexes), known once
	// extKnown.
	ext, extKnown bool

	tsd *tsdState // thread-specific data, nil until used
}

// modelTypes lists the pthread types the lowering models as structs of
// int cells, by typedef name, with their fields.
var modelTypes = map[string]struct {
	tag    string
	fields []string
}{
	// count: the threads the barrier waits for; arrived: those waiting in
	// the current round; round: the number of rounds completed.
	"pthread_barrier_t": {"__cegpv_barrier", []string{"count", "arrived", "round"}},
	// detachstate: PTHREAD_CREATE_JOINABLE (0) or _DETACHED (1).
	"pthread_attr_t": {"__cegpv_attr", []string{"detachstate"}},
	// readers: the read locks held; writer: the id + 1 of the thread
	// that holds the write lock, 0 if none.
	"pthread_rwlock_t": {"__cegpv_rwlock", []string{"readers", "writer"}},
}

// ownedMutexTypes are the model types of mutexes with owners (see
// extMutexes).
var ownedMutexTypes = map[string]struct {
	tag    string
	fields []string
}{
	"pthread_mutex_t":     {"__cegpv_mutex", []string{"owner", "count", "kind"}},
	"pthread_mutexattr_t": {"__cegpv_mutexattr", []string{"kind"}},
}

// pthreadTypedef returns the model type of a pthread typedef name, nil
// when the name is not one the lowering models.
func (l *lowerer) pthreadTypedef(name string, t cc.Type) *program.Type {
	mt, ok := modelTypes[name]
	if !ok {
		mt, ok = ownedMutexTypes[name]
		if !ok || !l.extMutexes() {
			return nil
		}
	}
	if l.pt == nil {
		l.pt = &pthreadModel{}
	}
	if l.pt.types == nil {
		l.pt.types = map[string]*program.Type{}
	}
	if pt := l.pt.types[name]; pt != nil {
		return pt
	}
	tag := mt.tag
	for base, i := tag, 2; l.tags[tag]; i++ {
		tag = fmt.Sprintf("%s_%d", base, i)
	}
	l.tags[tag] = true
	// the int cells at the start, in the C type's size and alignment
	// (glibc's: sizeof and pointer arithmetic stay gcc's); the bytes
	// after them are padding to the model
	pt := &program.Type{Kind: program.Struct, Name: tag}
	for _, f := range mt.fields {
		pt.Fields = append(pt.Fields, program.Field{Name: f, Type: program.IntT})
	}
	program.LayOut(pt)
	pt.Size = max(pt.Size, t.Size())
	pt.Align = max(pt.Align, int64(t.Align()))
	l.structOrder = append(l.structOrder, pt)
	l.pt.types[name] = pt
	return pt
}

// isPthreadModel reports whether t is one of the model types, whose
// initialisers must be all zero.
func (l *lowerer) isPthreadModel(t *program.Type) bool {
	if l.pt == nil || t == nil {
		return false
	}
	for _, pt := range l.pt.types {
		if pt == t {
			return true
		}
	}
	return false
}

// pthreadInit is the initialiser of an object of a model type: zero, the
// state after init (PTHREAD_RWLOCK_INITIALIZER and the like).
func (l *lowerer) pthreadInit(t *program.Type, in *cc.Initializer) program.Expr {
	if t == l.pt.typeOf("pthread_mutex_t") {
		return l.mutexInit(t, in)
	}
	if !l.allZero(in) {
		l.fail(in, "non-zero initializer of a %s (only the default, all-zero initializer is modelled)", t.Name)
	}
	return zero(t)
}

// pthreadAPI lowers a call of a pthread function that call.go does not.
func (fl *funcLowerer) pthreadAPI(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	l := fl.l
	need := func(n int) {
		if len(as) != n {
			l.fail(x, "%s called with %d arguments, want %d", name, len(as), n)
		}
	}
	ret := func(r program.Expr) program.Expr {
		if !want {
			return nil
		}
		return fl.convert(r, l.typ(x, x.Type()), false)
	}
	zero := program.IntConst(program.IntT, 0)
	switch name {
	// Thread ids: the value Spawn stores in the handle (program.ThreadID).
	case "pthread_self":
		need(0)
		return ret(&program.ThreadID{T: pthreadTTypes[l.model]})
	case "pthread_equal":
		need(2)
		tt := pthreadTTypes[l.model]
		return ret(fl.binary(x, program.Eq, fl.rvalTo(as[0], tt), fl.rvalTo(as[1], tt)))

	// Thread-specific data.
	case "pthread_key_create", "pthread_key_delete", "pthread_setspecific", "pthread_getspecific":
		return ret(fl.keyCall(x, name, as))

	// Barriers.
	case "pthread_barrier_init":
		need(3)
		b := fl.modelPtr(x, name, as[0], "pthread_barrier_t")
		fl.effect(as[1])
		n := fl.stableVal(fl.rvalTo(as[2], program.UIntType))
		r := fl.tmp(program.IntT)
		// glibc: a count of 0 is EINVAL, the barrier untouched
		fl.ifElse(fl.binary(x, program.Eq, n, program.IntConst(program.UIntType, 0)), func() {
			fl.assign(r, program.IntConst(program.IntT, errEINVAL))
		}, func() {
			fl.assign(fl.field(b, "count"), fl.convert(n, program.IntT, false))
			fl.assign(fl.field(b, "arrived"), zero)
			fl.assign(fl.field(b, "round"), zero)
			fl.assign(r, zero)
		})
		return ret(r)
	case "pthread_barrier_wait":
		// The last of count threads to arrive starts the next round and
		// gets PTHREAD_BARRIER_SERIAL_THREAD; the others wait until the
		// round they arrived in is completed, and get 0. The round
		// counter is an int: it returns to a value after 2^32 rounds,
		// which no run within the bounds completes while a thread waits.
		need(1)
		b := fl.modelPtr(x, name, as[0], "pthread_barrier_t")
		g, r, a := fl.tmp(program.IntT), fl.tmp(program.IntT), fl.tmp(program.IntT)
		fl.atomically(func() {
			fl.assign(g, fl.field(b, "round"))
			fl.assign(a, fl.binary(x, program.Add, fl.field(b, "arrived"), program.IntConst(program.IntT, 1)))
			fl.ifElse(fl.binary(x, program.Eq, a, fl.field(b, "count")), func() {
				fl.assign(fl.field(b, "arrived"), zero)
				fl.assign(fl.field(b, "round"), fl.binary(x, program.Add, g, program.IntConst(program.IntT, 1)))
				fl.assign(r, program.IntConst(program.IntT, barrierSerial))
			}, func() {
				fl.assign(fl.field(b, "arrived"), a)
				fl.assign(r, zero)
			})
		})
		fl.ifElse(fl.binary(x, program.Eq, r, zero), func() {
			fl.emitOp(program.OpAssume, nil, fl.binary(x, program.Ne, fl.field(b, "round"), g))
		}, nil)
		return ret(r)
	case "pthread_barrier_destroy":
		need(1)
		fl.modelPtr(x, name, as[0], "pthread_barrier_t")
		return ret(zero)

	// One-time initialisation.
	case "pthread_once":
		return ret(fl.once(x, as))

	// Read-write locks, glibc's default kind (readers preferred: a reader
	// waits only while a writer holds the lock). Relocking by the writer
	// is EDEADLK, as in glibc.
	case "pthread_rwlock_init":
		need(2)
		rw := fl.modelPtr(x, name, as[0], "pthread_rwlock_t")
		fl.effect(as[1])
		fl.assign(fl.field(rw, "readers"), zero)
		fl.assign(fl.field(rw, "writer"), zero)
		return ret(zero)
	case "pthread_rwlock_destroy":
		need(1)
		fl.modelPtr(x, name, as[0], "pthread_rwlock_t")
		return ret(zero)
	case "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock",
		"pthread_rwlock_timedrdlock", "pthread_rwlock_timedwrlock":
		timed := strings.Contains(name, "timed")
		if timed {
			need(2)
		} else {
			need(1)
		}
		rw := fl.modelPtr(x, name, as[0], "pthread_rwlock_t")
		if timed {
			fl.effect(as[1])
		}
		return ret(fl.rwlock(x, rw, strings.HasSuffix(name, "wrlock"), strings.Contains(name, "try"), timed))
	case "pthread_rwlock_unlock":
		need(1)
		rw := fl.modelPtr(x, name, as[0], "pthread_rwlock_t")
		me := fl.selfPlusOne()
		fl.atomically(func() {
			fl.ifElse(fl.binary(x, program.Eq, fl.field(rw, "writer"), me), func() {
				fl.assign(fl.field(rw, "writer"), zero)
			}, func() {
				fl.assign(fl.field(rw, "readers"), fl.binary(x, program.Sub, fl.field(rw, "readers"), program.IntConst(program.IntT, 1)))
			})
		})
		return ret(zero)
	case "pthread_rwlockattr_init", "pthread_rwlockattr_destroy", "pthread_rwlockattr_setpshared":
		for _, a := range as {
			fl.effect(a)
		}
		return ret(zero)
	case "pthread_rwlockattr_setkind_np":
		need(2)
		fl.effect(as[0])
		if k, ok := intValue(as[1].Value()); !ok || k != 0 {
			l.fail(x, "%s with a kind other than PTHREAD_RWLOCK_PREFER_READER_NP: writer-preferring read-write locks are not modelled", name)
		}
		return ret(zero)

	// Spin locks: an int, 0 free and 1 held (as glibc's).
	case "pthread_spin_init":
		need(2)
		s := fl.intPtr(x, name, as[0])
		fl.effect(as[1])
		fl.assign(fl.deref(x, s), fl.convert(zero, s.Type().Elem, false))
		return ret(zero)
	case "pthread_spin_lock":
		need(1)
		s := fl.intPtr(x, name, as[0])
		fl.atomically(func() {
			fl.emitOp(program.OpAssume, nil, fl.binary(x, program.Eq, fl.deref(x, s), zero))
			fl.assign(fl.deref(x, s), fl.convert(program.IntConst(program.IntT, 1), s.Type().Elem, false))
		})
		return ret(zero)
	case "pthread_spin_trylock":
		need(1)
		s := fl.intPtr(x, name, as[0])
		t := fl.tmp(s.Type().Elem)
		fl.atomically(func() {
			fl.assign(t, fl.deref(x, s))
			fl.assign(fl.deref(x, s), fl.convert(program.IntConst(program.IntT, 1), s.Type().Elem, false))
		})
		return ret(&program.CondExpr{C: fl.binary(x, program.Ne, t, zero), X: program.IntConst(program.IntT, errEBUSY), Y: zero, T: program.IntT})
	case "pthread_spin_unlock":
		need(1)
		s := fl.intPtr(x, name, as[0])
		fl.assign(fl.deref(x, s), fl.convert(zero, s.Type().Elem, false))
		return ret(zero)
	case "pthread_spin_destroy":
		need(1)
		fl.intPtr(x, name, as[0])
		return ret(zero)

	// Thread attributes: the detach state is kept; the others (stack,
	// scheduling, scope, guard) do not change what a thread computes.
	case "pthread_attr_init":
		need(1)
		a := fl.modelPtr(x, name, as[0], "pthread_attr_t")
		fl.assign(fl.field(a, "detachstate"), zero)
		return ret(zero)
	case "pthread_attr_setdetachstate":
		need(2)
		a := fl.modelPtr(x, name, as[0], "pthread_attr_t")
		v := fl.rvalTo(as[1], program.IntT)
		if c, ok := v.(*program.Const); !ok || c.V != 0 {
			fl.detachCheck(x, true)
		}
		fl.assign(fl.field(a, "detachstate"), v)
		return ret(zero)
	case "pthread_attr_getdetachstate":
		need(2)
		a := fl.modelPtr(x, name, as[0], "pthread_attr_t")
		p := fl.intPtr(x, name, as[1])
		fl.assign(fl.deref(x, p), fl.convert(fl.field(a, "detachstate"), p.Type().Elem, false))
		return ret(zero)
	case "pthread_attr_destroy", "pthread_attr_setstacksize", "pthread_attr_setscope", "pthread_attr_setschedpolicy",
		"pthread_attr_setinheritsched", "pthread_attr_setschedparam", "pthread_attr_setguardsize":
		fl.modelPtr(x, name, as[0], "pthread_attr_t")
		for _, a := range as[1:] {
			fl.effect(a)
		}
		l.debugOnce("pthread:"+name, "thread attribute has no effect in the model", "function", name)
		return ret(zero)
	case "pthread_attr_getstacksize", "pthread_attr_getguardsize", "pthread_attr_getscope",
		"pthread_attr_getinheritsched", "pthread_attr_getschedpolicy":
		// what the attribute holds (a default, or what was set): not
		// kept, an opaque value (a run that depends on it is not a
		// confirmed counterexample)
		need(2)
		fl.modelPtr(x, name, as[0], "pthread_attr_t")
		p := fl.intPtr(x, name, as[1])
		fl.assign(fl.deref(x, p), &program.Nondet{T: p.Type().Elem, Origin: name})
		return ret(zero)
	case "pthread_detach":
		need(1)
		fl.effect(as[0])
		fl.detachCheck(x, true)
		return ret(zero)
	case "pthread_mutexattr_setpshared", "pthread_mutexattr_setprotocol", "pthread_mutexattr_setprioceiling",
		"pthread_condattr_setpshared", "pthread_condattr_setclock":
		// process sharing, priorities and the clock of timed waits do not
		// change what a thread computes (the model has no time)
		for _, a := range as {
			fl.effect(a)
		}
		return ret(zero)
	case "pthread_mutexattr_setrobust":
		need(2)
		if k, ok := intValue(as[1].Value()); !ok || k != 0 {
			l.fail(x, "%s: robust mutexes (EOWNERDEAD when the owner ends) are not modelled", name)
		}
		fl.effect(as[0])
		return ret(zero)
	case "pthread_barrierattr_init", "pthread_barrierattr_destroy", "pthread_barrierattr_setpshared":
		for _, a := range as {
			fl.effect(a)
		}
		return ret(zero)
	case "pthread_yield":
		need(0)
		return ret(zero)
	case "pthread_cancel", "pthread_setcancelstate", "pthread_setcanceltype", "pthread_testcancel",
		"pthread_cleanup_push", "pthread_cleanup_pop", "_pthread_cleanup_push", "_pthread_cleanup_pop",
		"__pthread_register_cancel", "__pthread_unregister_cancel":
		l.fail(x, "%s: thread cancellation is not modelled", name)
	}
	l.fail(x, "pthread function %s is not modelled", name)
	return nil
}

// rwlock lowers the locking functions of a read-write lock rw: write or
// read, try (EBUSY instead of waiting) or timed (waiting, or ETIMEDOUT at
// any time: the model has no clock, so a timeout may come whenever the
// lock is busy, as a deadline that passes while the thread waits).
func (fl *funcLowerer) rwlock(x cc.Node, rw program.Expr, write, try, timed bool) program.Expr {
	zero := program.IntConst(program.IntT, 0)
	me := fl.selfPlusOne()
	// free: the lock can be taken for this operation now
	free := func() program.Expr {
		w := fl.binary(x, program.Eq, fl.field(rw, "writer"), zero)
		if !write {
			return w
		}
		return fl.binary(x, program.LAnd, w, fl.binary(x, program.Eq, fl.field(rw, "readers"), zero))
	}
	take := func() {
		if write {
			fl.assign(fl.field(rw, "writer"), me)
		} else {
			fl.assign(fl.field(rw, "readers"), fl.binary(x, program.Add, fl.field(rw, "readers"), program.IntConst(program.IntT, 1)))
		}
	}
	mine := func() program.Expr { return fl.binary(x, program.Eq, fl.field(rw, "writer"), me) }
	r := fl.tmp(program.IntT)
	// blocking: wait until free or held for writing by this thread
	// (EDEADLK, glibc's answer to both relocks)
	wait := func() {
		fl.atomically(func() {
			fl.emitOp(program.OpAssume, nil, fl.binary(x, program.LOr, free(), mine()))
			fl.ifElse(mine(), func() {
				fl.assign(r, program.IntConst(program.IntT, errEDEADLK))
			}, func() {
				take()
				fl.assign(r, zero)
			})
		})
	}
	if !try && !timed {
		wait()
		return r
	}
	attempt := func() {
		fl.ifElse(free(), func() {
			take()
			fl.assign(r, zero)
		}, func() {
			fl.assign(r, program.IntConst(program.IntT, errEBUSY))
		})
	}
	fl.atomically(func() {
		if !timed {
			attempt() // glibc's try functions: EBUSY for the writer too
			return
		}
		// timed: the writer's relock is EDEADLK, as when blocking
		fl.ifElse(mine(), func() {
			fl.assign(r, program.IntConst(program.IntT, errEDEADLK))
		}, attempt)
	})
	if timed {
		fl.timeoutOrWait(x, r, wait)
	}
	return r
}

// timeoutOrWait follows an attempt that left EBUSY in r: the call times
// out (ETIMEDOUT) or waits (wait) for the object, a free choice.
func (fl *funcLowerer) timeoutOrWait(x cc.Node, r program.Expr, wait func()) {
	fl.ifElse(fl.binary(x, program.Eq, r, program.IntConst(program.IntT, errEBUSY)), func() {
		fl.ifElse(fl.binary(x, program.Ne, &program.Nondet{T: program.IntT}, program.IntConst(program.IntT, 0)), func() {
			fl.assign(r, program.IntConst(program.IntT, errETIMEDOUT))
		}, wait)
	}, nil)
}

// selfPlusOne returns the executing thread's id + 1 as an int: the
// owner value of the model's locks (0 is none).
func (fl *funcLowerer) selfPlusOne() program.Expr {
	id := fl.convert(&program.ThreadID{T: pthreadTTypes[fl.l.model]}, program.IntT, true)
	return fl.binary(nil, program.Add, id, program.IntConst(program.IntT, 1))
}

// detachCheck records a detaching call (or a join, detach false) and
// rejects the program when it both detaches threads and joins threads:
// joining a detached thread is undefined (glibc returns EINVAL while the
// thread exists and may crash after it ended), and the model does not
// track which threads are detached. A program that detaches and never
// joins, or joins and never detaches, is modelled exactly: a detached
// thread runs like any other and nobody waits for it.
func (fl *funcLowerer) detachCheck(x cc.Node, detach bool) {
	l := fl.l
	if l.pt == nil {
		l.pt = &pthreadModel{}
	}
	if detach && l.pt.detach == nil {
		l.pt.detach = x
	}
	if !detach && l.pt.join == nil {
		l.pt.join = x
	}
	if l.pt.detach != nil && l.pt.join != nil {
		l.fail(x, "a program that both detaches threads (%s) and joins threads (%s): joining a detached thread is undefined and the model does not track which threads are detached",
			nodePos(l.pt.detach), nodePos(l.pt.join))
	}
}

func nodePos(n cc.Node) string {
	p := n.Position()
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}

// once lowers pthread_once(o, f): the first caller runs f and marks o done
// (2); a caller that finds f running (1) waits until it is done; the
// states are glibc's (PTHREAD_ONCE_INIT is 0).
func (fl *funcLowerer) once(x *cc.PostfixExpression, as []cc.ExpressionNode) program.Expr {
	l := fl.l
	if len(as) != 2 {
		l.fail(x, "pthread_once called with %d arguments, want 2", len(as))
	}
	o := fl.intPtr(x, "pthread_once", as[0])
	var fn program.Expr
	fname, direct := directName(as[1])
	if direct {
		if l.defs[fname] == nil {
			l.fail(as[1], "pthread_once with the routine %s, which has no body", fname)
		}
		fn = fl.funcRef(fname, as[1])
	} else {
		fn = fl.stableVal(fl.rval(as[1]))
		if t := fn.Type(); t.Kind != program.Pointer || t.Elem.Kind != program.Function {
			l.fail(as[1], "pthread_once with a routine of type %s", t)
		}
		l.fptrCalls = true
	}
	ft := fn.Type()
	if ft.Kind == program.Pointer {
		ft = ft.Elem
	}
	if len(ft.Params) != 0 {
		l.fail(as[1], "pthread_once with a routine that takes %d parameters", len(ft.Params))
	}
	if direct {
		if at := l.mayCall(fname, "pthread_exit"); at != nil {
			// glibc resets o when the routine ends the thread (its
			// cleanup handler), and the next caller runs it again; the
			// model would leave the waiters blocked
			l.fail(at, "pthread_exit in the pthread_once routine %s (directly or through the functions it calls) is not modelled", fname)
		}
	}
	zero := program.IntConst(program.IntT, 0)
	t := fl.tmp(o.Type().Elem)
	et := o.Type().Elem
	fl.atomically(func() {
		fl.assign(t, fl.deref(x, o))
		fl.assign(fl.deref(x, o), &program.CondExpr{C: fl.binary(x, program.Eq, t, zero), X: program.IntConst(et, 1), Y: t, T: et})
	})
	fl.ifElse(fl.binary(x, program.Eq, t, zero), func() {
		in := fl.newInstr(program.OpCall)
		in.Func = fn
		if direct {
			in.Args = fl.tlsArgs(x, fname)
		}
		fl.emit(in)
		fl.assign(fl.deref(x, o), program.IntConst(et, 2))
	}, func() {
		fl.emitOp(program.OpAssume, nil, fl.binary(x, program.Eq, fl.deref(x, o), program.IntConst(program.IntT, 2)))
	})
	return zero
}

// mayCall returns a call of the function target (without a body) that
// the function name makes, directly or through the functions it calls, or
// a call through a function pointer it makes (which might); nil when
// there is none.
func (l *lowerer) mayCall(name, target string) cc.Node {
	seen := map[string]bool{}
	var visit func(string) cc.Node
	visit = func(f string) cc.Node {
		if seen[f] || l.defs[f] == nil {
			return nil
		}
		seen[f] = true
		var found cc.Node
		walkNodes(l.defs[f].CompoundStatement, func(n cc.Node) bool {
			x, ok := n.(*cc.PostfixExpression)
			if found != nil || !ok || x.Case != cc.PostfixExpressionCall {
				return found == nil
			}
			callee, direct := directName(x.PostfixExpression)
			switch {
			case !direct:
				found = x
			case callee == target && l.defs[callee] == nil:
				found = x
			default:
				found = visit(callee)
			}
			return found == nil
		})
		return found
	}
	return visit(name)
}

// Helpers.

// modelPtr lowers a pointer argument to an object of the model type of
// typedef, as a stable expression (evaluated once, before any section).
func (fl *funcLowerer) modelPtr(x cc.Node, name string, a cc.ExpressionNode, typedef string) program.Expr {
	p := fl.rval(a)
	t := p.Type()
	want := fl.l.pt.typeOf(typedef)
	if t.Kind != program.Pointer || want == nil || t.Elem != want {
		fl.l.fail(x, "%s of %s (type %s), not a %s *", name, sourceText(a), t, typedef)
	}
	return fl.stablePtr(p)
}

func (pm *pthreadModel) typeOf(typedef string) *program.Type {
	if pm == nil {
		return nil
	}
	return pm.types[typedef]
}

// intPtr lowers a pointer argument to an integer object (spin locks, once
// controls, out parameters), as a stable expression.
func (fl *funcLowerer) intPtr(x cc.Node, name string, a cc.ExpressionNode) program.Expr {
	p := fl.rval(a)
	if t := p.Type(); t.Kind != program.Pointer || !t.Elem.IsInteger() {
		fl.l.fail(x, "%s of %s (type %s), not a pointer to an integer", name, sourceText(a), t)
	}
	return fl.stablePtr(p)
}

// stableVal returns v, or a temporary holding v when evaluating it reads
// shared memory.
func (fl *funcLowerer) stableVal(v program.Expr) program.Expr {
	if fl.readCount(v) == 0 && !program.HasNondet(v) {
		return v
	}
	t := fl.tmp(v.Type())
	fl.assign(t, v)
	return t
}

// field returns the lvalue p->name of a model struct.
func (fl *funcLowerer) field(p program.Expr, name string) program.Expr {
	st := p.Type().Elem
	i := st.FieldIndex(name)
	if i < 0 {
		panic(fmt.Sprintf("model type %s has no field %s", st.Name, name))
	}
	return &program.FieldSel{X: fl.deref(nil, p), Name: name, Field: i, T: st.Fields[i].Type}
}

// constTruth evaluates a condition built of integer constants,
// comparisons, && and ||; ok is false for anything else.
func constTruth(e program.Expr) (v, ok bool) {
	switch e := e.(type) {
	case *program.Const:
		return e.V != 0, e.T.IsInteger()
	case *program.Binary:
		switch e.Op {
		case program.LAnd, program.LOr:
			a, oka := constTruth(e.X)
			b, okb := constTruth(e.Y)
			if e.Op == program.LAnd {
				return a && b, oka && okb
			}
			return a || b, oka && okb
		}
		x, okx := e.X.(*program.Const)
		y, oky := e.Y.(*program.Const)
		if !okx || !oky || !x.T.IsInteger() || x.T.Size > 4 && !x.T.Signed {
			return false, false
		}
		switch e.Op {
		case program.Eq:
			return x.V == y.V, true
		case program.Ne:
			return x.V != y.V, true
		case program.Lt:
			return x.V < y.V, x.T.Signed
		case program.Le:
			return x.V <= y.V, x.T.Signed
		case program.Gt:
			return x.V > y.V, x.T.Signed
		case program.Ge:
			return x.V >= y.V, x.T.Signed
		}
	}
	return false, false
}

// atomically emits body as an atomic section.
func (fl *funcLowerer) atomically(body func()) {
	fl.emitOp(program.OpAtomicBegin, nil, nil)
	fl.atomicDepth++
	body()
	fl.atomicDepth--
	fl.emitOp(program.OpAtomicEnd, nil, nil)
}

// ifElse emits if (c) then() else els() (els may be nil).
// A condition of constants is decided here (the C printed from the
// program must read back as the same program).
func (fl *funcLowerer) ifElse(c program.Expr, then, els func()) {
	if v, ok := constTruth(c); ok {
		if v {
			then()
		} else if els != nil {
			els()
		}
		return
	}
	elsL := fl.newLabel()
	fl.branchUnless(c, elsL)
	then()
	if els == nil {
		fl.place(elsL)
		return
	}
	end := fl.newLabel()
	fl.jump(end, nil)
	fl.place(elsL)
	els()
	fl.place(end)
}

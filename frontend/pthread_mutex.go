package frontend

import (
	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Mutexes with owners (trylock, timedlock, recursive and error-checking
// mutexes). A program that calls pthread_mutex_trylock, _timedlock or
// pthread_mutexattr_settype/gettype, or initialises a mutex statically
// with a kind (glibc's PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP and the
// like: a brace initialiser that sets the field __kind), has all its
// mutexes modelled as {owner, count, kind} (owner: the holder's thread id
// + 1, 0 when free; count: a recursive mutex's locks; kind: glibc's
// PTHREAD_MUTEX_NORMAL 0 (= DEFAULT), RECURSIVE 1, ERRORCHECK 2, ADAPTIVE
// 3) and pthread_mutexattr_t as {kind}; every other program keeps the
// model's Lock/Unlock mutexes, which the engines' lock analyses know.
// The choice is made once per program from its text (extMutexes): a mutex
// of either model behaves the same where both apply.
const (
	kindRecursive  = 1
	kindErrorcheck = 2
)

// extMutexNames are the functions whose use selects mutexes with owners.
var extMutexNames = map[string]bool{
	"pthread_mutex_trylock": true, "pthread_mutex_timedlock": true,
	"pthread_mutexattr_settype": true, "pthread_mutexattr_gettype": true,
}

// extMutexes reports whether the program's mutexes have owners (see
// above); it looks at the program text once.
func (l *lowerer) extMutexes() bool {
	if l.pt == nil {
		l.pt = &pthreadModel{}
	}
	if l.pt.extKnown || l.ast == nil {
		return l.pt.ext
	}
	l.pt.extKnown = true
	walkNodes(l.ast.TranslationUnit, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionIdent && extMutexNames[x.Token.SrcStr()] {
				l.pt.ext = true
			}
		case *cc.Initializer:
			if x.Case == cc.InitializerExpr && x.Field() != nil && x.Field().Name() == "__kind" {
				if v, ok := intValue(x.AssignmentExpression.Value()); !ok || v != 0 {
					l.pt.ext = true
				}
			}
		}
		return !l.pt.ext
	})
	return l.pt.ext
}

// mutexInit is the initialiser of a mutex with an owner: free, of the
// kind glibc's initialiser gives it (the field __kind; every other field
// must be zero).
func (l *lowerer) mutexInit(t *program.Type, in *cc.Initializer) program.Expr {
	kind := int64(0)
	var walk func(in *cc.Initializer)
	walk = func(in *cc.Initializer) {
		switch in.Case {
		case cc.InitializerExpr:
			v, ok := intValue(in.AssignmentExpression.Value())
			if in.Field() != nil && in.Field().Name() == "__kind" && ok {
				kind = v
				return
			}
			if !ok || v != 0 {
				l.fail(in, "initializer of a pthread_mutex_t that sets more than its kind")
			}
		case cc.InitializerInitList:
			for il := in.InitializerList; il != nil; il = il.InitializerList {
				if il.Initializer != nil {
					walk(il.Initializer)
				}
			}
		}
	}
	walk(in)
	return &program.Compound{T: t, Elems: []program.Expr{program.IntConst(program.IntT, 0), program.IntConst(program.IntT, 0), program.IntConst(program.IntT, kind)}}
}

// extMutex lowers the mutex functions of a program whose mutexes have
// owners; ok is false for the other functions.
func (fl *funcLowerer) extMutex(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) (_ program.Expr, ok bool) {
	l := fl.l
	switch name {
	case "pthread_mutex_init", "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_mutex_trylock", "pthread_mutex_timedlock",
		"pthread_mutex_destroy", "pthread_cond_wait", "pthread_cond_timedwait",
		"pthread_mutexattr_init", "pthread_mutexattr_destroy", "pthread_mutexattr_settype", "pthread_mutexattr_gettype":
	default:
		return nil, false
	}
	need := func(n int) {
		if len(as) != n {
			l.fail(x, "%s called with %d arguments, want %d", name, len(as), n)
		}
	}
	ret := func(r program.Expr) (program.Expr, bool) {
		if !want {
			return nil, true
		}
		return fl.convert(r, l.typ(x, x.Type()), false), true
	}
	zero := program.IntConst(program.IntT, 0)
	switch name {
	case "pthread_mutexattr_init":
		need(1)
		a := fl.modelPtr(x, name, as[0], "pthread_mutexattr_t")
		fl.assign(fl.field(a, "kind"), zero)
		return ret(zero)
	case "pthread_mutexattr_destroy":
		need(1)
		fl.modelPtr(x, name, as[0], "pthread_mutexattr_t")
		return ret(zero)
	case "pthread_mutexattr_settype":
		need(2)
		a := fl.modelPtr(x, name, as[0], "pthread_mutexattr_t")
		k := fl.stableVal(fl.rvalTo(as[1], program.IntT))
		r := fl.tmp(program.IntT)
		// glibc: a kind other than 0..3 is EINVAL, the attribute untouched
		fl.ifElse(fl.binary(x, program.LAnd, fl.binary(x, program.Ge, k, zero), fl.binary(x, program.Le, k, program.IntConst(program.IntT, 3))), func() {
			fl.assign(fl.field(a, "kind"), k)
			fl.assign(r, zero)
		}, func() {
			fl.assign(r, program.IntConst(program.IntT, errEINVAL))
		})
		return ret(r)
	case "pthread_mutexattr_gettype":
		need(2)
		a := fl.modelPtr(x, name, as[0], "pthread_mutexattr_t")
		p := fl.intPtr(x, name, as[1])
		fl.assign(fl.deref(x, p), fl.convert(fl.field(a, "kind"), p.Type().Elem, false))
		return ret(zero)
	case "pthread_mutex_init":
		need(2)
		m := fl.modelPtr(x, name, as[0], "pthread_mutex_t")
		a := fl.rval(as[1])
		var kind program.Expr = zero
		if !isNull(a) {
			if t := a.Type(); t.Kind != program.Pointer || t.Elem != l.pt.typeOf("pthread_mutexattr_t") {
				l.fail(x, "%s with the attribute %s (type %s), not a pthread_mutexattr_t *", name, sourceText(as[1]), t)
			}
			a = fl.stablePtr(a)
			if _, addr := a.(*program.AddrOf); addr {
				kind = fl.stableVal(fl.field(a, "kind"))
			} else { // a pointer that may be null
				k := fl.tmp(program.IntT)
				fl.ifElse(fl.binary(x, program.Eq, a, program.IntConst(program.IntT, 0)), func() {
					fl.assign(k, zero)
				}, func() {
					fl.assign(k, fl.field(a, "kind"))
				})
				kind = k
			}
		}
		fl.assign(fl.field(m, "owner"), zero)
		fl.assign(fl.field(m, "count"), zero)
		fl.assign(fl.field(m, "kind"), kind)
		return ret(zero)
	case "pthread_mutex_destroy":
		// glibc: EBUSY while the mutex is held
		need(1)
		m := fl.modelPtr(x, name, as[0], "pthread_mutex_t")
		return ret(fl.stableVal(&program.CondExpr{C: fl.binary(x, program.Ne, fl.field(m, "owner"), zero), X: program.IntConst(program.IntT, errEBUSY), Y: zero, T: program.IntT}))
	case "pthread_mutex_lock":
		need(1)
		return ret(fl.ownedLock(x, fl.modelPtr(x, name, as[0], "pthread_mutex_t")))
	case "pthread_mutex_unlock":
		need(1)
		return ret(fl.ownedUnlock(x, fl.modelPtr(x, name, as[0], "pthread_mutex_t")))
	case "pthread_mutex_trylock", "pthread_mutex_timedlock":
		timed := name == "pthread_mutex_timedlock"
		if timed {
			need(2)
		} else {
			need(1)
		}
		m := fl.modelPtr(x, name, as[0], "pthread_mutex_t")
		if timed {
			fl.effect(as[1])
		}
		me := fl.selfPlusOne()
		r := fl.tmp(program.IntT)
		fl.atomically(func() {
			attempt := func() {
				fl.ifElse(fl.binary(x, program.Eq, fl.field(m, "owner"), zero), func() {
					fl.assign(fl.field(m, "owner"), me)
					fl.assign(fl.field(m, "count"), program.IntConst(program.IntT, 1))
					fl.assign(r, zero)
				}, func() {
					fl.ifElse(fl.binary(x, program.LAnd, fl.binary(x, program.Eq, fl.field(m, "owner"), me), fl.isKind(x, m, kindRecursive)), func() {
						fl.assign(fl.field(m, "count"), fl.binary(x, program.Add, fl.field(m, "count"), program.IntConst(program.IntT, 1)))
						fl.assign(r, zero)
					}, func() {
						fl.assign(r, program.IntConst(program.IntT, errEBUSY))
					})
				})
			}
			if !timed {
				attempt() // glibc: EBUSY for an error-checking mutex's owner too
				return
			}
			fl.ifElse(fl.binary(x, program.LAnd, fl.binary(x, program.Eq, fl.field(m, "owner"), me), fl.isKind(x, m, kindErrorcheck)), func() {
				fl.assign(r, program.IntConst(program.IntT, errEDEADLK))
			}, attempt)
		})
		if timed {
			fl.timeoutOrWait(x, r, func() { fl.assign(r, fl.ownedLock(x, m)) })
		}
		return ret(r)
	case "pthread_cond_wait", "pthread_cond_timedwait":
		// unlock, then lock again (spurious wake-ups); glibc returns the
		// unlock's error (EPERM: an error-checking or recursive mutex the
		// caller does not hold) without waiting
		if name == "pthread_cond_wait" {
			need(2)
		} else {
			need(3)
		}
		fl.effect(as[0])
		m := fl.modelPtr(x, name, as[1], "pthread_mutex_t")
		if len(as) > 2 {
			fl.effect(as[2])
		}
		r := fl.tmp(program.IntT)
		fl.assign(r, fl.ownedUnlock(x, m))
		fl.ifElse(fl.binary(x, program.Eq, r, zero), func() {
			fl.ownedLock(x, m)
			if name == "pthread_cond_timedwait" {
				fl.timedOut(x, r)
			}
		}, nil)
		return ret(r)
	}
	return nil, false
}

// isKind returns m->kind == k.
func (fl *funcLowerer) isKind(x cc.Node, m program.Expr, k int64) program.Expr {
	return fl.binary(x, program.Eq, fl.field(m, "kind"), program.IntConst(program.IntT, k))
}

// ownedLock locks the mutex with an owner m: it waits until m is free, or
// held by the caller and recursive (one more lock) or error-checking
// (EDEADLK); a normal mutex held by the caller deadlocks, as in glibc.
func (fl *funcLowerer) ownedLock(x cc.Node, m program.Expr) program.Expr {
	zero := program.IntConst(program.IntT, 0)
	me := fl.selfPlusOne()
	r := fl.tmp(program.IntT)
	fl.atomically(func() {
		mine := fl.binary(x, program.Eq, fl.field(m, "owner"), me)
		fl.emitOp(program.OpAssume, nil, fl.binary(x, program.LOr, fl.binary(x, program.Eq, fl.field(m, "owner"), zero),
			fl.binary(x, program.LAnd, mine, fl.binary(x, program.LOr, fl.isKind(x, m, kindRecursive), fl.isKind(x, m, kindErrorcheck)))))
		fl.ifElse(mine, func() {
			fl.ifElse(fl.isKind(x, m, kindRecursive), func() {
				fl.assign(fl.field(m, "count"), fl.binary(x, program.Add, fl.field(m, "count"), program.IntConst(program.IntT, 1)))
				fl.assign(r, zero)
			}, func() {
				fl.assign(r, program.IntConst(program.IntT, errEDEADLK))
			})
		}, func() {
			fl.assign(fl.field(m, "owner"), me)
			fl.assign(fl.field(m, "count"), program.IntConst(program.IntT, 1))
			fl.assign(r, zero)
		})
	})
	return r
}

// ownedUnlock unlocks the mutex with an owner m: EPERM when m is recursive
// or error-checking and the caller does not hold it; a recursive mutex
// locked more than once is kept, one lock fewer; a normal mutex is
// released whoever calls, as in glibc.
func (fl *funcLowerer) ownedUnlock(x cc.Node, m program.Expr) program.Expr {
	zero := program.IntConst(program.IntT, 0)
	one := program.IntConst(program.IntT, 1)
	me := fl.selfPlusOne()
	r := fl.tmp(program.IntT)
	fl.atomically(func() {
		checked := fl.binary(x, program.LOr, fl.isKind(x, m, kindRecursive), fl.isKind(x, m, kindErrorcheck))
		fl.ifElse(fl.binary(x, program.LAnd, checked, fl.binary(x, program.Ne, fl.field(m, "owner"), me)), func() {
			fl.assign(r, program.IntConst(program.IntT, errEPERM))
		}, func() {
			fl.ifElse(fl.binary(x, program.LAnd, fl.isKind(x, m, kindRecursive), fl.binary(x, program.Gt, fl.field(m, "count"), one)), func() {
				fl.assign(fl.field(m, "count"), fl.binary(x, program.Sub, fl.field(m, "count"), one))
			}, func() {
				fl.assign(fl.field(m, "owner"), zero)
				fl.assign(fl.field(m, "count"), zero)
			})
			fl.assign(r, zero)
		})
	})
	return r
}

// timedOut sets r to ETIMEDOUT or leaves it (0), a free choice: a timed
// condition wait returns either after it has the mutex again.
func (fl *funcLowerer) timedOut(x cc.Node, r program.Expr) {
	fl.ifElse(fl.binary(x, program.Ne, &program.Nondet{T: program.IntT}, program.IntConst(program.IntT, 0)), func() {
		fl.assign(r, program.IntConst(program.IntT, errETIMEDOUT))
	}, nil)
}

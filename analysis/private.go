package analysis

import "cegpv.dev/cegpv/program"

// Private steps.
//
// A step is private when it commutes with every step the other threads can
// take before it: Explore then explores it alone from a state (an ample
// set of one thread; see Explore). privacy decides it statically, per
// instruction: the step may touch
//
//   - locals of its thread whose address is never taken, or only passed to
//     deref-only parameters of calls the thread makes (kept, escape.go);
//   - *p for a parameter p that every call passes such a local, or such a
//     parameter of its caller (the pointee is a kept local);
//   - globals protected by a lock the thread holds there (locks.go);
//   - a lock the thread holds there, for reading: while it holds it, the
//     others can only try to take it, which reads it too;
//   - addresses of variables, as call arguments (computing one reads
//     nothing).
//
// A call only binds parameters; entering an atomic section (OpAtomicBegin,
// a call of an atomic function) is private too: the thread takes the
// section with its first step inside (interp's atomicHolder).
type Privacy struct {
	P     *program.Program
	Taken map[string]bool // address-taken variables, kept locals excluded
	Locks *LockInfo
	Esc   *Escapes
}

// Step reports whether instruction pc of f is private.
func (v *Privacy) Step(f *program.Func, pc int) bool {
	in := f.Body[pc]
	switch in.Op {
	case program.OpSkip, program.OpAssign, program.OpAssume, program.OpAssert, program.OpGoto, program.OpDecl, program.OpCall:
	case program.OpAtomicBegin:
		return true
	default:
		return false
	}
	if in.Op == program.OpCall {
		fr, ok := in.Func.(*program.FuncRef)
		if !ok || v.P.Func(fr.Name) == nil {
			return false
		}
	}
	if in.Op == program.OpDecl {
		return !v.Taken[f.Name+"::"+in.Var]
	}
	if v.Locks.writesLock(in) {
		return false
	}
	for _, e := range in.Operands() {
		if e == in.Func {
			continue
		}
		if in.Op == program.OpCall && e != in.Lhs && v.addr(f, pc, e) {
			continue
		}
		if !v.Expr(f, pc, e) {
			return false
		}
	}
	return true
}

// addr reports whether e is the address of a variable (or of an element
// at a private index): computing it reads nothing shared.
func (v *Privacy) addr(f *program.Func, pc int, e program.Expr) bool {
	a, ok := program.StripCasts(e).(*program.AddrOf)
	if !ok {
		return false
	}
	switch x := a.X.(type) {
	case *program.Ref:
		return true
	case *program.Index:
		_, ok := x.X.(*program.Ref)
		return ok && v.Expr(f, pc, x.I)
	}
	return false
}

// Expr reports whether e, evaluated by instruction pc of f, reads or
// designates only what a private step may touch.
func (v *Privacy) Expr(f *program.Func, pc int, e program.Expr) bool {
	ok := true
	// Every node must pass: Walk goes on to the siblings of a node whose
	// visit returned false, so a later node must not overwrite a false
	// (a[k] with a shared a and a private k was private, and Explore ran
	// the read alone, before the other threads' writes: wrong TRUEs).
	program.Walk(e, func(x program.Expr) bool {
		if !ok {
			return false
		}
		switch x := x.(type) {
		case *program.Ref:
			switch {
			case x.Local:
				ok = !v.Taken[VarKey(f, x)]
			default:
				ok = v.Locks.guarded(f, pc, x.Name)
			}
		case *program.Deref:
			r, isRef := x.X.(*program.Ref)
			ok = isRef && r.Local && v.Esc.privParam(f, r.Name)
		case *program.AddrOf, *program.FuncRef:
			ok = false
		}
		return ok
	})
	return ok
}

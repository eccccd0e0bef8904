package program

// LockFunc describes a user-defined atomic lock function: a function named
// __VERIFIER_atomic_* (Func.Atomic) that acquires or releases an integer
// lock cell L, a global or *m for its only parameter m (the pthread-ext
// tasks' __VERIFIER_atomic_acquire(&m)):
//
//	acquire: assume(L == 0); L = 1;   release: [assume(...L...);] L = 0;
//
// where the release's assumption reads no memory but L. Skips and a final
// return without a value are ignored.
type LockFunc struct {
	Acquire bool
	Global  string // the lock is this global; "" when it is *m
}

// LockFunc recognises f as an atomic lock function.
func (f *Func) LockFunc() (LockFunc, bool) {
	if !f.Atomic || len(f.Params) > 1 {
		return LockFunc{}, false
	}
	var ins []*Instr
	for _, in := range f.Body {
		if in.Op == OpSkip || (in.Op == OpReturn && in.Rhs == nil) {
			continue
		}
		ins = append(ins, in)
	}
	if len(ins) == 0 || len(ins) > 2 {
		return LockFunc{}, false
	}
	last := ins[len(ins)-1]
	if last.Op != OpAssign {
		return LockFunc{}, false
	}
	c, ok := last.Rhs.(*Const)
	if !ok || !last.Lhs.Type().IsInteger() || (c.V != 0 && c.V != 1) {
		return LockFunc{}, false
	}
	if !lockCellExpr(f, last.Lhs) {
		return LockFunc{}, false
	}
	isCell := func(x Expr) bool { return sameCell(x, last.Lhs) }
	var lf LockFunc
	if r, ok := last.Lhs.(*Ref); ok {
		lf.Global = r.Name
	}
	if len(ins) == 2 {
		a := ins[0]
		if a.Op != OpAssume || !onlyCell(a.Rhs, isCell) {
			return LockFunc{}, false
		}
	}
	if c.V == 1 {
		// acquire must wait for the lock to be free
		if len(ins) != 2 || !isEqZero(ins[0].Rhs, isCell) {
			return LockFunc{}, false
		}
		lf.Acquire = true
	}
	return lf, true
}

// lockCellExpr says whether x is the lock cell of a candidate lock function
// f: a global when f has no parameter, *m for f's pointer parameter m.
func lockCellExpr(f *Func, x Expr) bool {
	if len(f.Params) == 0 {
		r, ok := x.(*Ref)
		return ok && !r.Local
	}
	d, ok := x.(*Deref)
	if !ok {
		return false
	}
	r, ok := d.X.(*Ref)
	return ok && r.Local && r.Name == f.Params[0].Name
}

// sameCell says whether x designates the lock cell c (a global Ref or the
// dereference of the parameter; see lockCellExpr).
func sameCell(x, c Expr) bool {
	if d, ok := c.(*Deref); ok {
		dx, ok := x.(*Deref)
		return ok && sameCell(dx.X, d.X)
	}
	r, ok1 := x.(*Ref)
	rc, ok2 := c.(*Ref)
	return ok1 && ok2 && r.Name == rc.Name && r.Local == rc.Local
}

// onlyCell says whether the lock cell is the only memory x reads.
func onlyCell(x Expr, isCell func(Expr) bool) bool {
	ok := true
	var walk func(y Expr)
	walk = func(y Expr) {
		switch z := y.(type) {
		case *Const:
		case *Cast:
			walk(z.X)
		case *Unary:
			walk(z.X)
		case *Binary:
			walk(z.X)
			walk(z.Y)
		default:
			if !isCell(y) {
				ok = false
			}
		}
	}
	walk(x)
	return ok
}

func isEqZero(x Expr, isCell func(Expr) bool) bool {
	b, ok := x.(*Binary)
	if !ok || b.Op != Eq {
		return false
	}
	isRef := func(y Expr) bool { return isCell(StripCasts(y)) }
	isZero := func(y Expr) bool {
		c, ok := y.(*Const)
		return ok && c.V == 0
	}
	return (isRef(b.X) && isZero(b.Y)) || (isRef(b.Y) && isZero(b.X))
}

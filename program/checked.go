package program

// Checked subexpressions: the steps of an evaluation that the model itself
// checks and that may end a run in an execution error (an invalid access,
// an access the model does not compute, arithmetic or a comparison on
// pointers it rejects). A verdict other than FALSE is only sound when no run
// reaches one of them, so every abstraction must keep them evaluated as the
// program evaluates them (slice, depgraph.Graph.Required). Defined on the
// model, next to Resolve, so that the stages agree on one list.

// Checked reports whether evaluating e itself (not counting its operands)
// may fail:
//   - an index that is not a constant within the array (out of bounds);
//   - a dereference, unless of the address of an lvalue of the same type;
//   - a member of a union (another member's cells may not resolve);
//   - pointer arithmetic and relational comparisons or differences of
//     pointers (null arithmetic, pointers into different objects).
//
// Every other node fails only through its operands.
func Checked(e Expr) bool {
	switch x := e.(type) {
	case *Index:
		c, ok := x.I.(*Const)
		n := x.X.Type().Len
		return !ok || c.V < 0 || c.V >= n
	case *Deref:
		if a, ok := x.X.(*AddrOf); ok && Identical(a.X.Type(), x.T) {
			return false
		}
		return true
	case *FieldSel:
		return x.X.Type().Kind == Union
	case *Binary:
		switch x.Op {
		case Add, Sub, Lt, Le, Gt, Ge:
			return x.X.Type().Kind == Pointer || x.Y.Type().Kind == Pointer
		}
	}
	return false
}

// MayFail reports whether e has a Checked subexpression (e included).
func MayFail(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		found = found || Checked(x)
		return !found
	})
	return found
}

// InstrMayFail reports whether executing in may fail by itself or through
// one of its operands: a Checked subexpression; a Free or Realloc (an
// invalid or double free); a Lock or Unlock through a pointer other than the address
// of a mutex object; an allocation whose element count is not a constant
// (the model bounds the elements it allocates).
func InstrMayFail(in *Instr) bool {
	for _, e := range in.Operands() {
		if MayFail(e) {
			return true
		}
	}
	switch in.Op {
	case OpFree, OpRealloc:
		return true
	case OpLock, OpUnlock:
		_, ok := in.Rhs.(*AddrOf)
		return !ok
	case OpAlloc:
		_, ok := in.Rhs.(*Const)
		return !ok
	}
	return false
}

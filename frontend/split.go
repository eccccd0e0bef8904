package frontend

import "cegpv.dev/cegpv/program"

// Splitting of shared accesses: outside atomic contexts every instruction
// makes at most one access to shared memory (a global, a Deref, an
// address-taken local). Reads beyond the first are hoisted into
// temporaries in evaluation order; operands of && || ?: that read shared
// memory become control flow, so that they are read only when C reads them.

// readCount returns the number of shared accesses evaluating e makes.
func (fl *funcLowerer) readCount(e program.Expr) int {
	switch x := e.(type) {
	case nil:
		return 0
	case *program.Ref:
		if fl.isShared(x) {
			return 1
		}
		return 0
	case *program.Deref, *program.Index, *program.FieldSel:
		n := fl.addrReads(x)
		if fl.rootShared(x) {
			n++
		}
		return n
	case *program.AddrOf:
		return fl.addrReads(x.X)
	case *program.Unary:
		return fl.readCount(x.X)
	case *program.Cast:
		return fl.readCount(x.X)
	case *program.Binary:
		return fl.readCount(x.X) + fl.readCount(x.Y)
	case *program.CondExpr:
		return fl.readCount(x.C) + fl.readCount(x.X) + fl.readCount(x.Y)
	}
	return 0
}

// addrReads counts the shared accesses made computing the address of lv.
func (fl *funcLowerer) addrReads(lv program.Expr) int {
	switch x := lv.(type) {
	case *program.Deref:
		return fl.readCount(x.X)
	case *program.Index:
		return fl.addrReads(x.X) + fl.readCount(x.I)
	case *program.FieldSel:
		return fl.addrReads(x.X)
	}
	return 0
}

// rootShared reports whether the object lv designates is shared memory.
func (fl *funcLowerer) rootShared(lv program.Expr) bool {
	switch x := lv.(type) {
	case *program.Ref:
		return fl.isShared(x)
	case *program.Deref:
		return true
	case *program.Index:
		return fl.rootShared(x.X)
	case *program.FieldSel:
		return fl.rootShared(x.X)
	}
	return false
}

func (fl *funcLowerer) writeCount(lv program.Expr) int {
	if lv == nil {
		return 0
	}
	n := fl.addrReads(lv)
	if fl.rootShared(lv) {
		n++
	}
	return n
}

// accessCount returns the number of shared accesses in executes.
func (fl *funcLowerer) accessCount(in *program.Instr) int {
	n := fl.writeCount(in.Lhs) + fl.readCount(in.Rhs) + fl.readCount(in.Func)
	for _, a := range in.Args {
		n += fl.readCount(a)
	}
	switch in.Op {
	case program.OpLock, program.OpUnlock, program.OpFree, program.OpRealloc:
		n++
	}
	return n
}

// split hoists shared reads out of in (emitting them before it) until in
// makes at most one shared access.
func (fl *funcLowerer) split(in *program.Instr) {
	if fl.accessCount(in) <= 1 {
		return
	}
	budget := 1
	switch in.Op {
	case program.OpLock, program.OpUnlock, program.OpFree, program.OpRealloc:
		budget = 0
	}
	if in.Lhs != nil {
		in.Lhs = fl.stabilizeAddr(in.Lhs)
		if fl.rootShared(in.Lhs) {
			budget--
		}
	}
	do := func(e program.Expr) program.Expr {
		if e == nil {
			return nil
		}
		c := fl.readCount(e)
		if c <= budget {
			budget -= c
			return e
		}
		if budget > 0 && program.IsLValue(e) {
			e = fl.stabilizeAddr(e)
			budget -= fl.readCount(e)
			return e
		}
		return fl.hoist(e)
	}
	in.Rhs = do(in.Rhs)
	in.Func = do(in.Func)
	for i, a := range in.Args {
		in.Args[i] = do(a)
	}
}

// hoist returns e with every shared read moved into a temporary.
func (fl *funcLowerer) hoist(e program.Expr) program.Expr {
	if fl.readCount(e) == 0 {
		return e
	}
	switch x := e.(type) {
	case *program.Ref, *program.Deref, *program.Index, *program.FieldSel:
		lv := fl.stabilizeAddr(x)
		if !fl.rootShared(lv) {
			return lv
		}
		t := fl.tmp(lv.Type())
		fl.assign(t, lv)
		return t
	case *program.AddrOf:
		return &program.AddrOf{X: fl.stabilizeAddr(x.X), T: x.T}
	case *program.Unary:
		return &program.Unary{Op: x.Op, X: fl.hoist(x.X), T: x.T}
	case *program.Cast:
		return &program.Cast{X: fl.hoist(x.X), T: x.T}
	case *program.Binary:
		if (x.Op == program.LAnd || x.Op == program.LOr) && fl.readCount(x.Y) > 0 {
			t := fl.tmp(program.IntT)
			fl.assign(t, truth(x.X))
			end := fl.newLabel()
			if x.Op == program.LAnd {
				fl.jump(end, &program.Unary{Op: program.Not, X: t, T: program.IntT})
			} else {
				fl.jump(end, t)
			}
			fl.assign(t, truth(x.Y))
			fl.place(end)
			return t
		}
		a := fl.hoist(x.X)
		b := fl.hoist(x.Y)
		return &program.Binary{Op: x.Op, X: a, Y: b, T: x.T}
	case *program.CondExpr:
		if fl.readCount(x.X)+fl.readCount(x.Y) > 0 {
			r := fl.tmp(x.T)
			els, end := fl.newLabel(), fl.newLabel()
			fl.branchUnless(x.C, els)
			fl.assign(r, x.X)
			fl.jump(end, nil)
			fl.place(els)
			fl.assign(r, x.Y)
			fl.place(end)
			return r
		}
		return &program.CondExpr{C: fl.hoist(x.C), X: x.X, Y: x.Y, T: x.T}
	}
	return e
}

// stabilizeAddr returns lv with the shared reads of its address hoisted.
func (fl *funcLowerer) stabilizeAddr(lv program.Expr) program.Expr {
	if fl.addrReads(lv) == 0 {
		return lv
	}
	switch x := lv.(type) {
	case *program.Deref:
		return &program.Deref{X: fl.hoist(x.X), T: x.T}
	case *program.Index:
		a := fl.stabilizeAddr(x.X)
		return &program.Index{X: a, I: fl.hoist(x.I), T: x.T}
	case *program.FieldSel:
		return &program.FieldSel{X: fl.stabilizeAddr(x.X), Name: x.Name, Field: x.Field, T: x.T}
	}
	return lv
}

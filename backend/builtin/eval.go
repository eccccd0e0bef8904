package builtin

import (
	"fmt"

	"cegpv.dev/cegpv/program"
)

// ectx is the context of evaluating the operands of one instruction.
type ectx struct {
	st  *state
	fr  *frame
	th  *thread
	in  *program.Instr
	rec *stepRec
	nd  map[*program.Nondet]val
}

// cond returns the Bool "v != 0" (pointer: not NULL).
func (e *enc) cond(v val) *term {
	if v.b != nil {
		return v.b
	}
	if v.obj != nil {
		return not(and(eq(v.obj, bvc(objW, 0)), eq(v.t, bvc(e.offW, 0))))
	}
	return nonzero(v.t)
}

func (e *enc) boolVal(b *term, t *program.Type) val {
	return val{t: boolToBV(b, t.Bits()), b: b}
}

// eval evaluates a scalar expression. g is the guard under which its memory
// reads happen.
func (e *enc) eval(c *ectx, x program.Expr, g *term) val {
	switch x := x.(type) {
	case *program.Const:
		return e.constVal(x)
	case *program.FuncRef:
		return e.funcPtr(x.Name)
	case *program.Nondet:
		v, ok := c.nd[x]
		if !ok {
			e.internal("nondet without value")
		}
		return v
	case *program.Ref:
		if x.T.Kind == program.Array {
			return e.addr(c.st, c, x, g)
		}
		return e.load(c, e.addr(c.st, c, x, g), x.T, g)
	case *program.ThreadID:
		// the value Spawn stored in the thread's handle (concur.go)
		return val{t: resize(c.th.tid, x.T.Bits(), false)}
	case *program.Index, *program.FieldSel:
		if x.Type().Kind == program.Array {
			return e.addr(c.st, c, x, g)
		}
		if program.IsLValue(x) {
			return e.load(c, e.addr(c.st, c, x, g), x.Type(), g)
		}
		e.unsupported(c.in.Pos, "value of %s", program.ExprString(x))
	case *program.Deref:
		if x.T.Kind == program.Function {
			return e.eval(c, x.X, g)
		}
		if x.T.Kind == program.Array {
			return e.eval(c, x.X, g)
		}
		return e.load(c, e.addr(c.st, c, x, g), x.T, g)
	case *program.AddrOf:
		switch y := x.X.(type) {
		case *program.FuncRef:
			return e.funcPtr(y.Name)
		case *program.Deref:
			return e.eval(c, y.X, g)
		}
		return e.addr(c.st, c, x.X, g)
	case *program.Unary:
		v := e.eval(c, x.X, g)
		switch x.Op {
		case program.Not:
			return e.boolVal(not(e.cond(v)), x.T)
		case program.Neg:
			e.noPtr(c, v)
			return val{t: bin("bvsub", bvc(v.t.w, 0), v.t)}
		case program.BitNot:
			e.noPtr(c, v)
			return val{t: bin("bvxor", v.t, bvc(v.t.w, mask(v.t.w)))}
		}
	case *program.Binary:
		return e.binary(c, x, g)
	case *program.CondExpr:
		cc := e.name(e.cond(e.eval(c, x.C, g)))
		a := e.eval(c, x.X, e.name(and(g, cc)))
		b := e.eval(c, x.Y, e.name(and(g, not(cc))))
		if isPtrType(x.T) {
			a, b = e.convertCell(a, x.T), e.convertCell(b, x.T)
		}
		return e.nameVal(iteVal(cc, a, b))
	case *program.Cast:
		return e.convert(e.eval(c, x.X, g), x.X.Type(), x.T)
	}
	e.unsupported(c.in.Pos, "expression %s", program.ExprString(x))
	return val{}
}

func (e *enc) noPtr(c *ectx, v val) {
	if v.obj != nil {
		e.unsupported(c.in.Pos, "arithmetic on an address")
	}
}

// convert implements casts.
func (e *enc) convert(v val, from, to *program.Type) val {
	switch to.Kind {
	case program.Bool:
		return val{t: boolToBV(e.cond(v), 1), b: e.cond(v)}
	case program.Int, program.Mutex, program.Cond:
		if v.obj != nil {
			// only integer addresses (object 0) convert back to integers
			if !(v.obj.c && v.obj.v == 0) {
				e.unsupported(program.Pos{}, "conversion of an address to an integer")
			}
			v = val{t: v.t}
			from = program.IntType(int64(e.offW/8), false)
		}
		signed := from.Kind == program.Int && from.Signed
		return val{t: resize(v.t, to.Bits(), signed)}
	case program.Pointer, program.Function:
		if v.obj != nil {
			return v
		}
		if v.t.c && v.t.v == 0 {
			return e.zeroVal(to)
		}
		// an integer address: object 0 (NULL's), offset = the integer
		signed := from.Kind == program.Int && from.Signed
		return val{obj: bvc(objW, 0), t: resize(v.t, e.offW, signed), pts: []int{}}
	case program.Void:
		return v
	}
	return v
}

// quotient returns x / d, one named term per operands.
func (e *enc) quotient(x, d *term, signed bool) *term {
	key := pick(signed, "s ", "u ") + x.s + " " + d.s
	if q, ok := e.divs[key]; ok {
		return q
	}
	q := bin(pick(signed, "bvsdiv", "bvudiv"), x, d)
	if !q.c {
		q = e.name(q)
		e.divs[key] = q
	}
	return q
}

// remBounds asserts what every remainder r of x by d satisfies, a theorem
// of the SMT-LIB operations: |r| < |d| when d != 0, and r has the sign of x
// (r <= x when unsigned). The solver would have to derive these bounds from
// the bit-level division circuit, which z3 does slowly for signed operands
// (30 s for 32 bits); stated over the same atoms the program's comparisons
// use, they are found by propagation.
func (e *enc) remBounds(x, d, r *term, signed bool) {
	w := r.w
	zero := bvc(w, 0)
	if !signed {
		e.assert(implies(not(eq(d, zero)), bin("bvult", r, d)))
		e.assert(bin("bvule", r, x))
		return
	}
	neg := bin("bvsub", zero, d)
	e.assert(implies(bin("bvsgt", d, zero), and(bin("bvslt", r, d), bin("bvsgt", r, neg))))
	// d = INT_MIN: -d is d again, and every r but INT_MIN itself is above it
	e.assert(implies(bin("bvslt", d, zero), and(bin("bvsgt", r, d), or(eq(d, bvc(w, 1<<uint(w-1))), bin("bvslt", r, neg)))))
	e.assert(implies(bin("bvsge", x, zero), bin("bvsge", r, zero)))
	e.assert(implies(bin("bvslt", x, zero), bin("bvsle", r, zero)))
}

func (e *enc) binary(c *ectx, x *program.Binary, g *term) val {
	a := e.eval(c, x.X, g)
	b := e.eval(c, x.Y, g)
	xt, yt := x.X.Type(), x.Y.Type()
	switch x.Op {
	case program.LAnd: // truth values of integers or pointers
		return e.boolVal(and(e.cond(a), e.cond(b)), x.T)
	case program.LOr:
		return e.boolVal(or(e.cond(a), e.cond(b)), x.T)
	}
	if a.obj != nil || b.obj != nil || isPtrType(xt) || isPtrType(yt) {
		return e.ptrBinary(c, x, a, b)
	}
	w := a.t.w
	signed := xt.Kind == program.Int && xt.Signed
	switch x.Op {
	case program.Add:
		return val{t: bin("bvadd", a.t, b.t)}
	case program.Sub:
		return val{t: bin("bvsub", a.t, b.t)}
	case program.Mul:
		return val{t: bin("bvmul", a.t, b.t)}
	case program.Div:
		return val{t: e.quotient(a.t, b.t, signed)}
	case program.Rem:
		// x % d == x - (x / d) * d holds for the SMT-LIB operations,
		// division by zero and overflow included. Writing it so shares
		// the division circuit with x / d, and makes the identity
		// between / and % evident to the solver even when the operands
		// of the two are equal only by the reads-from constraints (two
		// reads of a shared variable).
		r := bin("bvsub", a.t, bin("bvmul", e.quotient(a.t, b.t, signed), b.t))
		if !r.c {
			r = e.name(r)
			e.remBounds(a.t, b.t, r, signed)
		}
		return val{t: r}
	case program.And:
		return val{t: bin("bvand", a.t, b.t)}
	case program.Or:
		return val{t: bin("bvor", a.t, b.t)}
	case program.Xor:
		return val{t: bin("bvxor", a.t, b.t)}
	case program.Shl, program.Shr:
		op := "bvshl"
		if x.Op == program.Shr {
			op = "bvlshr"
			if signed {
				op = "bvashr"
			}
		}
		ysigned := yt.Kind == program.Int && yt.Signed
		amt := resize(b.t, 64, ysigned)
		if w == 64 {
			return val{t: bin(op, a.t, amt)}
		}
		big := cmp("bvuge", amt, bvc(64, uint64(w)))
		return val{t: e.name(ite(big, bin(op, a.t, bvc(w, uint64(w))), bin(op, a.t, resize(amt, w, false))))}
	}
	var r *term
	switch x.Op {
	case program.Eq:
		r = eq(a.t, b.t)
	case program.Ne:
		r = not(eq(a.t, b.t))
	case program.Lt:
		r = cmp(pick(signed, "bvslt", "bvult"), a.t, b.t)
	case program.Le:
		r = cmp(pick(signed, "bvsle", "bvule"), a.t, b.t)
	case program.Gt:
		r = cmp(pick(signed, "bvsgt", "bvugt"), a.t, b.t)
	case program.Ge:
		r = cmp(pick(signed, "bvsge", "bvuge"), a.t, b.t)
	default:
		e.unsupported(c.in.Pos, "operator %s", program.BinOpString(x.Op))
	}
	return e.boolVal(r, x.T)
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

func (e *enc) ptrBinary(c *ectx, x *program.Binary, a, b val) val {
	xt, yt := x.X.Type(), x.Y.Type()
	switch x.Op {
	case program.Eq, program.Ne:
		if a.obj == nil || b.obj == nil {
			a, b = e.convertCell(a, program.PointerTo(program.VoidType, 4)), e.convertCell(b, program.PointerTo(program.VoidType, 4))
		}
		r := and(eq(a.obj, b.obj), eq(a.t, b.t))
		if x.Op == program.Ne {
			r = not(r)
		}
		return e.boolVal(r, x.T)
	case program.Lt, program.Le, program.Gt, program.Ge:
		if a.obj == nil || b.obj == nil {
			break
		}
		e.badIf(c, and(c.st.g, not(eq(a.obj, b.obj))), "relational comparison of pointers into different objects")
		op := map[program.BinOp]string{program.Lt: "bvslt", program.Le: "bvsle", program.Gt: "bvsgt", program.Ge: "bvsge"}[x.Op]
		return e.boolVal(cmp(op, a.t, b.t), x.T)
	case program.Add, program.Sub:
		if isPtrType(xt) && isPtrType(yt) && x.Op == program.Sub {
			e.badIf(c, and(c.st.g, not(eq(a.obj, b.obj))), "subtraction of pointers into different objects")
			d := bin("bvsub", a.t, b.t)
			es := program.ElemSize(xt)
			if es == 0 {
				e.unsupported(c.in.Pos, "subtraction of pointers to a type of size 0")
			}
			if es != 1 {
				d = bin("bvsdiv", d, bvc(e.offW, uint64(es)))
			}
			return val{t: resize(d, x.T.Bits(), true)}
		}
		if isPtrType(xt) && b.obj == nil {
			ysigned := yt.Kind == program.Int && yt.Signed
			d := bin("bvmul", resize(b.t, e.offW, ysigned), bvc(e.offW, uint64(program.ElemSize(xt))))
			if x.Op == program.Sub {
				d = bin("bvsub", bvc(e.offW, 0), d)
			}
			e.badIf(c, and(c.st.g, eq(a.obj, bvc(objW, 0)), not(eq(d, bvc(e.offW, 0)))), "arithmetic on a null pointer")
			return val{t: e.name(bin("bvadd", a.t, d)), obj: a.obj, pts: a.pts, any: a.any}
		}
	}
	e.unsupported(c.in.Pos, "pointer operation %s", program.ExprString(x))
	return val{}
}

func (e *enc) badIf(c *ectx, g *term, why string) {
	if isFalse(g) {
		return
	}
	e.bad = append(e.bad, badRec{g: e.name(g), why: why, pos: c.in.Pos})
}

// addr evaluates an lvalue to a pointer value.
func (e *enc) addr(st *state, c *ectx, x program.Expr, g *term) val {
	switch x := x.(type) {
	case *program.Ref:
		var o *object
		if x.Local {
			if c == nil || c.fr.vars[x.Name] == nil {
				e.unsupported(program.Pos{}, "local %s not in scope", x.Name)
			}
			o = c.fr.vars[x.Name]
		} else {
			o = e.globals[x.Name]
			if o == nil {
				e.unsupported(program.Pos{}, "unknown global %s", x.Name)
			}
		}
		return val{obj: bvc(objW, uint64(o.id)), t: bvc(e.offW, 0), pts: []int{o.id}}
	case *program.Index:
		base := e.addr(st, c, x.X, g)
		iv := e.eval(c, x.I, g)
		it := x.I.Type()
		idx := resize(iv.t, e.offW, it.Kind == program.Int && it.Signed)
		at := x.X.Type()
		if !idx.c || idx.v >= uint64(at.Len) {
			// out of bounds is an execution error
			e.badIf(c, and(g, not(cmp("bvult", idx, bvc(e.offW, uint64(at.Len))))), "array index out of bounds")
		}
		d := bin("bvmul", idx, bvc(e.offW, uint64(at.Elem.Size)))
		base.t = e.name(bin("bvadd", base.t, d))
		return base
	case *program.FieldSel:
		base := e.addr(st, c, x.X, g)
		base.t = bin("bvadd", base.t, bvc(e.offW, uint64(x.X.Type().FieldOffset(x.Field))))
		return base
	case *program.Deref:
		v := e.eval(c, x.X, g)
		if v.obj == nil {
			e.unsupported(c.in.Pos, "dereference of an integer")
		}
		return v
	}
	e.unsupported(program.Pos{}, "lvalue %s", program.ExprString(x))
	return val{}
}

// cand is one cell an access may designate: cell k of o, at distance
// delta from its first byte, how the model computes the access there
// (program.Byte for a character access inside an integer cell, Whole
// otherwise), under cond.
type cand struct {
	o     *object
	k     int64
	delta int64
	size  int64 // bytes of the access (program.Byte)
	acc   program.Access
	cond  *term
}

// cands resolves a pointer to the cells it may designate for an access of
// scalar type t (a write when write is set), by the byte offset the pointer
// holds (program.Type.Resolve, the interpreter's rule). Accesses outside
// every object are recorded as bad ("invalid memory access"), and so are
// accesses inside an object that the model does not compute exactly
// ("not modelled": a byte of an address, an int read through a short, a
// read of padding); a character write to a padding byte is valid and
// changes nothing.
//
// A heap block of symbolic size models only its first ncells cells (see
// allocStep). A write to a valid cell beyond them is dropped: it is valid,
// and no read can observe it, since a read of such a cell is bad.
func (e *enc) cands(c *ectx, p val, t *program.Type, g *term, write bool) []cand {
	objs := e.targets(p)
	var out []cand
	var valid, inside []*term
	at := func(b int64) *term { return eq(p.t, bvc(e.offW, uint64(b))) }
	for _, o := range objs {
		if o.fn != "" || o.id == 0 {
			continue
		}
		oc := eq(p.obj, bvc(objW, uint64(o.id)))
		if isFalse(oc) {
			continue
		}
		if o.heap && e.frees {
			e.checkLive(c, o, e.name(and(g, oc)), "access to a freed heap block")
		}
		size := o.typ.Size
		if o.symCount {
			size = e.modelledBytes(o)
		}
		// the access's bytes lie inside the object (its modelled part)
		if size >= t.Size {
			in := and(oc, cmp("bvule", p.t, bvc(e.offW, uint64(size-t.Size))))
			if p.t.c && p.t.v > uint64(size-t.Size) {
				in = tFalse
			}
			if !isFalse(in) {
				inside = append(inside, e.name(in))
			}
		}
		try := func(b int64) {
			if b < 0 || b+t.Size > size {
				return
			}
			k, d, acc := o.typ.Resolve(b, t)
			switch acc {
			case program.Whole, program.Byte:
			case program.Pad:
				if write {
					valid = append(valid, and(oc, at(b)))
				}
				return
			default:
				return
			}
			kc := and(and(oc, at(b)), e.counted(o, k))
			if isFalse(kc) {
				return
			}
			kc = e.name(kc)
			out = append(out, cand{o: o, k: k, delta: d, size: t.Size, acc: acc, cond: kc})
			valid = append(valid, kc)
		}
		if p.t.c {
			try(int64(p.t.v))
		} else {
			lim := o.ncells
			if !o.symCount && lim > e.varIndexCap() {
				lim = e.varIndexCap()
			}
			limB := size
			if lim < o.ncells {
				limB = o.typ.CellOffset(lim)
			}
			for _, b := range e.accessOffsets(o.typ, t, limB) {
				try(b)
			}
			if lim < o.ncells {
				// bytes a variable index reaches beyond the cap: not
				// modelled, an access there makes the check UNKNOWN
				beyond := and(oc, cmp("bvuge", p.t, bvc(e.offW, uint64(limB))), cmp("bvult", p.t, bvc(e.offW, uint64(size))))
				if !isFalse(beyond) {
					beyond = e.name(beyond)
					valid = append(valid, beyond)
					e.badIf(c, and(g, beyond), fmt.Sprintf("access to %s at a variable index of %d or more (of its %d cells, the first %d are modelled for variable indices at these bounds)", o.name, lim, o.ncells, lim))
				}
			}
		}
		if o.symCount {
			beyond := and(oc, cmp("bvuge", p.t, bvc(e.offW, uint64(size))), cmp("bvult", p.t, e.countBytes(o)), e.elemTypeAt(o, p.t, t))
			if !isFalse(beyond) {
				beyond = e.name(beyond)
				if write {
					valid = append(valid, beyond)
				} else {
					e.badIf(c, and(g, beyond), fmt.Sprintf("read beyond the first %d cells of a heap block of symbolic size (not modelled)", o.ncells))
				}
				inside = append(inside, beyond)
			}
		}
	}
	ok := or(valid...)
	e.badIf(c, and(g, not(ok), or(inside...)), fmt.Sprintf("not modelled: %s of %s at a byte the model does not compute exactly (a byte of an address, padding, part of a larger scalar through a non-character type, or overlapping union members)", pick(write, "write", "read"), t))
	e.badIf(c, and(g, not(ok), not(or(inside...))), "invalid memory access")
	return out
}

// accessOffsets returns the byte offsets below lim at which an access of
// type t may designate a cell of an object of type ot (Resolve decides
// which do): the first byte of every cell, for an integer access every
// byte it fits from inside an integer cell, and for a character access
// every byte of the object.
func (e *enc) accessOffsets(ot, t *program.Type, lim int64) []int64 {
	var out []int64
	if program.IsCharType(t) {
		for b := int64(0); b < lim; b++ {
			out = append(out, b)
		}
		return out
	}
	seen := map[int64]bool{}
	for k := int64(0); k < ot.Cells(); k++ {
		b := ot.CellOffset(k)
		if b >= lim {
			break
		}
		last := b // an integer access may also lie inside an integer cell
		if ct := ot.CellType(k); t.Kind == program.Int && ct.IsInteger() {
			last = b + program.ValueBytes(ct) - t.Size
		}
		for x := b; x <= last; x++ {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// modelledBytes is the byte size of the first ncells cells of heap block o
// of symbolic size (an array).
func (e *enc) modelledBytes(o *object) int64 {
	ec := o.typ.Elem.Cells()
	if ec == 0 {
		return 0
	}
	return o.ncells / ec * o.typ.Elem.Size
}

// countBytes is the byte size of heap block o of symbolic size: its
// count of valid cells in elements times the element's size.
func (e *enc) countBytes(o *object) *term {
	ec, es := o.typ.Elem.Cells(), o.typ.Elem.Size
	n := e.countOf(o)
	if ec != 1 {
		n = bin("bvudiv", n, bvc(e.offW, uint64(ec)))
	}
	if es != 1 {
		n = bin("bvmul", n, bvc(e.offW, uint64(es)))
	}
	return n
}

// targets returns the objects pointer p may point into.
func (e *enc) targets(p val) []*object {
	var objs []*object
	if p.obj.c {
		if int(p.obj.v) < len(e.objs) {
			objs = []*object{e.objs[p.obj.v]}
		} else if int(p.obj.v) < len(e.prev) {
			objs = []*object{e.prev[p.obj.v]}
			e.anyDeref = true
		}
	} else if !p.any && p.pts != nil {
		for _, id := range p.pts {
			if id < len(e.objs) {
				objs = append(objs, e.objs[id])
			} else if id < len(e.prev) {
				// a target of the previous pass not created yet
				objs = append(objs, e.prev[id])
				e.anyDeref = true
			}
		}
	} else {
		e.anyDeref = true
		for _, o := range e.objs {
			if o.exposed {
				objs = append(objs, o)
			}
		}
		for _, o := range e.prev {
			if o.id >= len(e.objs) && o.exposed {
				objs = append(objs, o)
			}
		}
	}
	return objs
}

// checkLive reads the liveness cell of heap block o under guard g: an
// access of a freed block is bad (the interpreter's execution error).
func (e *enc) checkLive(c *ectx, o *object, g *term, why string) {
	if isFalse(g) {
		return
	}
	lv := e.readCell(c.st, c.th, c.in, o, liveOff)
	e.badIf(c, and(g, eq(lv.t, bvc(1, 0))), why)
}

// elemTypeAt is the condition that an access of type t at byte offset off
// of heap block o (an array) designates a cell of an element exactly.
func (e *enc) elemTypeAt(o *object, off *term, t *program.Type) *term {
	el := o.typ.Elem
	var alts []*term
	for j := int64(0); j+t.Size <= el.Size; j++ {
		_, _, acc := el.Resolve(j, t)
		if acc != program.Whole && acc != program.Byte {
			continue
		}
		if el.Size == t.Size && j == 0 {
			return eq(bin("bvurem", off, bvc(e.offW, uint64(el.Size))), bvc(e.offW, 0))
		}
		alts = append(alts, eq(bin("bvurem", off, bvc(e.offW, uint64(el.Size))), bvc(e.offW, uint64(j))))
	}
	return or(alts...)
}

// load reads a scalar of type t at p.
func (e *enc) load(c *ectx, p val, t *program.Type, g *term) val {
	cs := e.cands(c, p, t, g, false)
	if len(cs) == 0 {
		return e.freshVal("u", t)
	}
	var r val
	for i := len(cs) - 1; i >= 0; i-- {
		v := e.readAt(c, cs[i], t, g)
		if i == len(cs)-1 {
			r = v
		} else {
			r = iteVal(cs[i].cond, v, r)
		}
	}
	if len(cs) == 1 {
		return r
	}
	return e.nameVal(r)
}

// readAt reads candidate cd for an access of type t: the cell, or for a
// character access its byte cd.delta (little-endian).
func (e *enc) readAt(c *ectx, cd cand, t *program.Type, g *term) val {
	v := e.readCell(c.st, c.th, c.in, cd.o, cd.k)
	if cd.acc != program.Byte {
		return v
	}
	if v.obj != nil {
		e.badIf(c, and(g, cd.cond), "not modelled: a byte of an address")
		return e.freshVal("u", t)
	}
	w := v.t.w
	bits := v.t
	if sh := 8 * cd.delta; sh > 0 {
		bits = bin("bvlshr", bits, bvc(w, uint64(sh)))
	}
	return val{t: resize(bits, int(8*t.Size), false)}
}

// store writes scalar v of type t at p.
func (e *enc) store(c *ectx, p val, t *program.Type, v val, g *term) {
	cs := e.cands(c, p, t, g, true)
	if len(cs) == 1 && isTrue(cs[0].cond) {
		e.writeCell(c.st, c.th, c.in, cs[0].o, cs[0].k, tTrue, e.byteUpdate(c, cs[0], v, g), g, c.rec)
		return
	}
	for _, cd := range cs {
		e.writeCell(c.st, c.th, c.in, cd.o, cd.k, cd.cond, e.byteUpdate(c, cd, v, g), e.name(and(g, cd.cond)), c.rec)
	}
}

// byteUpdate is the value cell cd holds after a store of v at it: v, or
// for a character access the cell with byte cd.delta replaced by v.
func (e *enc) byteUpdate(c *ectx, cd cand, v val, g *term) val {
	if cd.acc != program.Byte {
		return v
	}
	old := e.readCell(c.st, c.th, c.in, cd.o, cd.k)
	if old.obj != nil || v.obj != nil {
		e.badIf(c, and(g, cd.cond), "not modelled: a byte of an address")
		return old
	}
	w, n := old.t.w, int(8*cd.size)
	if w <= n {
		return val{t: resize(v.t, w, false)}
	}
	sh := uint64(8 * cd.delta)
	b := bin("bvshl", resize(resize(v.t, n, false), w, false), bvc(w, sh))
	keep := bvc(w, mask(w)&^(mask(n)<<sh))
	return val{t: e.name(bin("bvor", bin("bvand", old.t, keep), b))}
}

// loadCells reads the n cells of an aggregate value.
func (e *enc) loadCells(c *ectx, x program.Expr, g *term) []val {
	t := x.Type()
	if t.IsScalar() {
		return []val{e.eval(c, x, g)}
	}
	n := t.Cells()
	switch y := x.(type) {
	case *program.Nondet:
		v := c.nd[y]
		out := make([]val, n)
		for i := range out {
			ct := t.CellType(int64(i))
			if isPtrType(ct) {
				e.unsupported(c.in.Pos, "nondet aggregate with pointers")
			}
			out[i] = val{t: resize(v.t, ct.Bits(), false)}
		}
		return out
	case *program.CondExpr:
		cc := e.name(e.cond(e.eval(c, y.C, g)))
		a := e.loadCells(c, y.X, and(g, cc))
		b := e.loadCells(c, y.Y, and(g, not(cc)))
		for i := range a {
			a[i] = e.nameVal(iteVal(cc, a[i], b[i]))
		}
		return a
	case *program.Cast:
		return e.loadCells(c, y.X, g)
	}
	if !program.IsLValue(x) {
		e.unsupported(c.in.Pos, "aggregate value %s", program.ExprString(x))
	}
	p := e.addr(c.st, c, x, g)
	cs := e.aggCands(c, p, t, g)
	out := make([]val, n)
	for i := range out {
		ct := t.CellType(int64(i))
		if ct.Kind == program.Void || len(cs) == 0 {
			if len(cs) == 0 && ct.Kind != program.Void {
				out[i] = e.freshVal("u", ct)
			}
			continue
		}
		var r val
		for j := len(cs) - 1; j >= 0; j-- {
			v := e.convertCell(e.readCell(c.st, c.th, c.in, cs[j].o, cs[j].k+int64(i)), ct)
			if j == len(cs)-1 {
				r = v
			} else {
				r = e.nameVal(iteVal(cs[j].cond, v, r))
			}
		}
		out[i] = r
	}
	return out
}

// aggCands resolves a pointer to the places where an aggregate of type t
// may lie: cand.k is the first of its cells, and the object's cells from
// there have t's layout (the interpreter's program.Type.AggregateAt). Any
// other place is bad.
func (e *enc) aggCands(c *ectx, p val, t *program.Type, g *term) []cand {
	var out []cand
	var valid []*term
	n := t.Cells()
	for _, o := range e.targets(p) {
		if o.fn != "" || o.id == 0 {
			continue
		}
		oc := eq(p.obj, bvc(objW, uint64(o.id)))
		if isFalse(oc) {
			continue
		}
		if o.heap && e.frees {
			e.checkLive(c, o, e.name(and(g, oc)), "access to a freed heap block")
		}
		try := func(b int64) {
			k, ok := o.typ.AggregateAt(b, t)
			if !ok || k+n > o.ncells {
				return
			}
			kc := and(oc, eq(p.t, bvc(e.offW, uint64(b))))
			if o.symCount {
				kc = and(kc, cmp("bvule", bvc(e.offW, uint64(k+n)), e.countOf(o)))
			}
			if isFalse(kc) {
				return
			}
			kc = e.name(kc)
			out = append(out, cand{o: o, k: k, acc: program.Whole, cond: kc})
			valid = append(valid, kc)
		}
		if p.t.c {
			try(int64(p.t.v))
			continue
		}
		lim := min(o.ncells, max(e.varIndexCap(), n))
		seen := map[int64]bool{}
		for k := int64(0); k < lim; k++ {
			if b := o.typ.CellOffset(k); !seen[b] {
				seen[b] = true
				try(b)
			}
		}
	}
	e.badIf(c, and(g, not(or(valid...))), fmt.Sprintf("access of %s where no object has its layout (invalid memory access, or beyond the cells modelled for a variable index)", t))
	return out
}

func (e *enc) storeCells(c *ectx, lhs program.Expr, vals []val, g *term) {
	e.storeAt(c, e.addr(c.st, c, lhs, g), lhs.Type(), vals, g)
}

// storeAt stores the cell values vals of a value of type t at p.
func (e *enc) storeAt(c *ectx, p val, t *program.Type, vals []val, g *term) {
	if t.IsScalar() {
		e.store(c, p, t, vals[0], g)
		return
	}
	cs := e.aggCands(c, p, t, g)
	for _, cd := range cs {
		for i, v := range vals {
			ct := t.CellType(int64(i))
			if ct.Kind == program.Void {
				continue
			}
			if len(cs) == 1 && isTrue(cd.cond) {
				e.writeCell(c.st, c.th, c.in, cd.o, cd.k+int64(i), tTrue, v, g, c.rec)
				continue
			}
			e.writeCell(c.st, c.th, c.in, cd.o, cd.k+int64(i), cd.cond, v, e.name(and(g, cd.cond)), c.rec)
		}
	}
}

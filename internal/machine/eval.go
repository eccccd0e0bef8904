package machine

import (
	"strings"

	"cegpv.dev/cegpv/program"
)

// Source supplies the Nondet values of a step, in the order of
// program.Step.Nondet.
type Source interface {
	Next(t *program.Type) program.Value
}

type zeroSource struct{}

func (zeroSource) Next(*program.Type) program.Value { return program.Value{} }

// Loc is a location: a byte offset of an object, and the type of the
// lvalue that designates it (nil when the access gives it). obj is nil for
// an invalid location (through NULL or an integer address); bits then
// holds the address for messages.
type Loc struct {
	Obj  *Object
	Off  int64 // bytes
	T    *program.Type
	bits int64
	why  string // for obj == nil: what is wrong
}

// ctx evaluates expressions for one step of thread t in its top frame.
type ctx struct {
	m      *Machine
	t      *Thread
	fr     *Frame
	nd     Source
	writes []program.Write
	undo   []UndoCell // old contents of the cells written, oldest first
}

// UndoCell records a cell's contents before a store.
type UndoCell struct {
	Obj *Object
	Off int64
	Old program.Value
}

func Normalize(t *program.Type, v program.Value) program.Value {
	if v.Obj != "" {
		if t.Kind == program.Bool {
			return program.Value{Bits: 1}
		}
		return v
	}
	if t.Kind == program.Int || t.Kind == program.Bool || t.Kind == program.Mutex || t.Kind == program.Cond {
		return program.Value{Bits: program.Normalize(t, v.Bits)}
	}
	return v
}

func Truth(v program.Value) bool { return v.Bits != 0 || v.Obj != "" }

func boolVal(b bool) program.Value {
	if b {
		return program.Value{Bits: 1}
	}
	return program.Value{}
}

// check validates an access of size bytes at l: a live object, within
// its bounds.
func (c *ctx) check(l Loc, size int64, what string) {
	if l.Obj == nil {
		if l.why != "" {
			fail("%s %s", what, l.why)
		}
		if l.bits == 0 {
			fail("%s through a null pointer", what)
		}
		fail("%s of the integer address %d", what, l.bits)
	}
	if !l.Obj.Alive {
		if l.Obj.Heap {
			fail("%s of %s after it was freed", what, l.Obj.Name)
		}
		fail("%s of %s after its activation ended (dangling pointer)", what, l.Obj.Name)
	}
	if size == 0 {
		size = 1
	}
	if l.Off < 0 || l.Off+size > l.Obj.typ.Size {
		fail("%s out of bounds: bytes [%d,%d) of %s, which has %d", what, l.Off, l.Off+size, l.Obj.Name, l.Obj.typ.Size)
	}
}

// unmodelled ends the execution at an access the model does not compute
// exactly (program.Unmodelled): the run is not followed further, and a
// verdict that depends on it is UNKNOWN naming the access.
func unmodelled(format string, args ...any) {
	fail("not modelled: "+format, args...)
}

// slot resolves a scalar access of type t at l (program.Type.Resolve).
func (c *ctx) slot(l Loc, t *program.Type, what string) (int64, int64, program.Access) {
	c.check(l, t.Size, what)
	cell, delta, acc := l.Obj.typ.Resolve(l.Off, t)
	if acc == program.Unmodelled {
		if cell < 0 {
			unmodelled("%s of %s at byte %d of %s, which is not the start of a member of that type", what, t, l.Off, l.Obj.Name)
		}
		unmodelled("%s of %s at byte %d of %s, in %s (%s)", what, t, l.Off, l.Obj.Name, l.Obj.Name+l.Obj.typ.CellPath(cell), l.Obj.typ.CellType(cell))
	}
	return cell, delta, acc
}

// load reads a scalar of type t at l.
func (c *ctx) load(l Loc, t *program.Type) program.Value {
	cell, delta, acc := c.slot(l, t, "read")
	switch acc {
	case program.Whole:
		v := l.Obj.Cells[cell]
		if v.Obj == "" {
			v = Normalize(t, v)
		}
		c.observe(l.Obj, cell, v, false)
		return v
	case program.Byte:
		v := l.Obj.Cells[cell]
		if v.Obj != "" {
			unmodelled("read of byte %d of the address held by %s", delta, l.Obj.Name+l.Obj.typ.CellPath(cell))
		}
		c.observe(l.Obj, cell, v, false) // the cell as last written, of which the byte is part
		return Normalize(t, program.Value{Bits: int64(uint64(v.Bits) >> (8 * uint(delta)) & byteMask(t.Size))})
	}
	unmodelled("read of a padding byte (byte %d of %s), whose value C leaves unspecified", l.Off, l.Obj.Name)
	return program.Value{}
}

// byteMask is the mask of the low n bytes.
func byteMask(n int64) uint64 {
	if n >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*uint(n)) - 1
}

// storeScalar writes one value of type t (nil: the lvalue's, l.T) at l.
func (c *ctx) storeScalar(l Loc, v program.Value, t *program.Type) {
	if t == nil {
		t = l.T
	}
	cell, delta, acc := c.slot(l, t, "write")
	switch acc {
	case program.Whole:
		c.writeCells(l.Obj, cell, []program.Value{Normalize(t, v)})
	case program.Byte:
		old := l.Obj.Cells[cell]
		if old.Obj != "" || v.Obj != "" {
			unmodelled("write of byte %d of %s, which holds an address or receives one", delta, l.Obj.Name+l.Obj.typ.CellPath(cell))
		}
		sh, m := 8*uint(delta), byteMask(t.Size)
		b := uint64(v.Bits) & m
		nv := (uint64(old.Bits) &^ (m << sh)) | b<<sh
		c.writeCells(l.Obj, cell, []program.Value{{Bits: int64(nv)}})
	}
	// a padding byte: nothing of the model changes
}

// aggCells resolves an aggregate access of type t at l to the first of
// its cells in l.Obj (program.Type.AggregateAt).
func (c *ctx) aggCells(l Loc, t *program.Type, what string) int64 {
	c.check(l, t.Size, what)
	k, ok := l.Obj.typ.AggregateAt(l.Off, t)
	if !ok {
		unmodelled("%s of %s at byte %d of %s, whose layout there is not that type's", what, t, l.Off, l.Obj.Name)
	}
	return k
}

func (c *ctx) loadAgg(l Loc, t *program.Type) []program.Value {
	k := c.aggCells(l, t, "read")
	vals := append([]program.Value(nil), l.Obj.Cells[k:k+t.Cells()]...)
	for i, v := range vals {
		c.observe(l.Obj, k+int64(i), v, false)
	}
	return vals
}

// observe tells Machine.Observe, when set, of an access of cell k of o.
func (c *ctx) observe(o *Object, k int64, v program.Value, write bool) {
	if c.m.Observe != nil {
		c.m.Observe(Access{Obj: o, Cell: k, Loc: o.Name + o.typ.CellPath(k), Val: c.m.External(v), Write: write})
	}
}

func (c *ctx) storeAgg(l Loc, t *program.Type, vals []program.Value) {
	k := c.aggCells(l, t, "write")
	c.writeCells(l.Obj, k, vals)
}

// writeCells writes vals to the cells of o from cell k and records the
// writes and their undo.
func (c *ctx) writeCells(o *Object, k int64, vals []program.Value) {
	if k < 0 || k+int64(len(vals)) > int64(len(o.Cells)) {
		fail("write of cells [%d,%d) of %s, which has %d", k, k+int64(len(vals)), o.Name, len(o.Cells))
	}
	for i, v := range vals {
		off := k + int64(i)
		ct := o.typ.CellType(off)
		if ct.Kind != program.Void {
			v = Normalize(ct, v)
		}
		c.undo = append(c.undo, UndoCell{o, off, o.Cells[off]})
		o.Writable()[off] = v
		c.writes = append(c.writes, program.Write{Loc: o.Name + o.typ.CellPath(off), Val: c.m.External(v)})
		c.observe(o, off, v, true)
	}
}

// draw returns the next Nondet value of type t.
func (c *ctx) draw(t *program.Type) program.Value {
	return c.nd.Next(t)
}

// skip draws the Nondet values of an expression that is not evaluated.
func (c *ctx) skip(e program.Expr) {
	program.Walk(e, func(x program.Expr) bool {
		if nd, ok := x.(*program.Nondet); ok {
			c.draw(nd.T)
		}
		return true
	})
}

func (c *ctx) variable(r *program.Ref) *Object {
	if r.Local {
		if c.fr != nil {
			if o := c.fr.Vars[r.Name]; o != nil {
				return o
			}
		}
		fail("local %s not in the current activation", r.Name)
	}
	o := c.m.Globals[r.Name]
	if o == nil {
		fail("unknown global %s", r.Name)
	}
	return o
}

// lvalue evaluates the location designated by e.
func (c *ctx) lvalue(e program.Expr) Loc {
	switch e := e.(type) {
	case *program.Ref:
		return Loc{Obj: c.variable(e), T: e.T}
	case *program.Deref:
		l := c.ptrLoc(c.rvalue(e.X))
		l.T = e.T
		return l
	case *program.Index:
		base := c.lvalue(e.X)
		i := c.rvalue(e.I)
		n := c.index(e, i)
		return Loc{Obj: base.Obj, Off: base.Off + n*e.X.Type().Elem.Size, T: e.T, bits: base.bits, why: base.why}
	case *program.FieldSel:
		base := c.lvalue(e.X)
		return Loc{Obj: base.Obj, Off: base.Off + e.X.Type().FieldOffset(e.Field), T: e.T, bits: base.bits, why: base.why}
	}
	fail("%s is not an lvalue", program.ExprString(e))
	return Loc{}
}

// index checks an array index and returns it.
func (c *ctx) index(e *program.Index, i program.Value) int64 {
	if i.Obj != "" {
		fail("array index %s is an address", program.ExprString(e.I))
	}
	n := i.Bits
	it := e.I.Type()
	if it.Kind == program.Int && !it.Signed && it.Size == 8 && n < 0 {
		fail("index %d out of range [0,%d) in %s", uint64(n), e.X.Type().Len, program.ExprString(e))
	}
	if n < 0 || n >= e.X.Type().Len {
		fail("index %d out of range [0,%d) in %s", n, e.X.Type().Len, program.ExprString(e))
	}
	return n
}

func (c *ctx) ptrLoc(p program.Value) Loc {
	if p.Obj == "" {
		return Loc{bits: p.Bits}
	}
	if strings.HasPrefix(p.Obj, "fn:") {
		return Loc{why: "through the function pointer " + p.Obj[3:]}
	}
	o := c.m.Objs[p.Obj]
	if o == nil {
		return Loc{why: "through a pointer to unknown object " + p.Obj}
	}
	return Loc{Obj: o, Off: p.Off}
}

// cells evaluates an expression of any type to its cells.
func (c *ctx) cells(e program.Expr) []program.Value {
	t := e.Type()
	if t.IsScalar() {
		return []program.Value{c.rvalue(e)}
	}
	n := t.Cells()
	if program.IsLValue(e) {
		return c.loadAgg(c.lvalue(e), t)
	}
	switch e := e.(type) {
	case *program.Nondet:
		v := c.draw(t)
		out := make([]program.Value, n)
		for i := range out {
			ct := t.CellType(int64(i))
			if ct.Kind != program.Void {
				out[i] = Normalize(ct, v)
			}
		}
		return out
	case *program.CondExpr:
		if Truth(c.rvalue(e.C)) {
			r := c.cells(e.X)
			c.skip(e.Y)
			return r
		}
		c.skip(e.X)
		return c.cells(e.Y)
	case *program.Index:
		all := c.cells(e.X)
		i := c.index(e, c.rvalue(e.I))
		ec := e.X.Type().Elem.Cells()
		return all[i*ec : (i+1)*ec]
	case *program.FieldSel:
		all := c.cells(e.X)
		st := e.X.Type()
		if st.Kind == program.Union && st.Store > 0 && e.Field != st.Store-1 {
			unmodelled("member %s of a union value that is not an object", e.Name)
		}
		off := st.FieldCell(e.Field)
		return all[off : off+st.Fields[e.Field].Type.Cells()]
	case *program.Compound:
		o := &Object{Name: "<init>", typ: t, Cells: make([]program.Value, n), Alive: true}
		c.m.initCells(c, o, 0, t, e)
		return o.Cells
	case *program.Cast:
		return c.cells(e.X)
	}
	fail("cannot evaluate %s of type %s", program.ExprString(e), t)
	return nil
}

// rvalue evaluates a scalar expression.
func (c *ctx) rvalue(e program.Expr) program.Value {
	switch e := e.(type) {
	case *program.Const:
		return program.Value{Bits: e.V}
	case *program.Ref:
		if e.T.Kind == program.Array {
			return c.pointerTo(c.lvalue(e))
		}
		return c.load(c.lvalue(e), e.T)
	case *program.FuncRef:
		return program.Value{Obj: "fn:" + e.Name}
	case *program.Deref:
		if e.T.Kind == program.Function {
			return c.rvalue(e.X)
		}
		if e.T.Kind == program.Array {
			return c.pointerTo(c.lvalue(e))
		}
		return c.load(c.lvalue(e), e.T)
	case *program.Index, *program.FieldSel:
		if program.IsLValue(e) {
			if e.Type().Kind == program.Array {
				return c.pointerTo(c.lvalue(e))
			}
			return c.load(c.lvalue(e), e.Type())
		}
		return c.cells(e)[0]
	case *program.AddrOf:
		switch x := e.X.(type) {
		case *program.FuncRef:
			return program.Value{Obj: "fn:" + x.Name}
		case *program.Deref:
			return c.rvalue(x.X)
		}
		return c.pointerTo(c.lvalue(e.X))
	case *program.Nondet:
		return Normalize(e.T, c.draw(e.T))
	case *program.ThreadID:
		return Normalize(e.T, program.Value{Bits: int64(c.t.ID)})
	case *program.Unary:
		return c.unary(e)
	case *program.Binary:
		return c.binary(e)
	case *program.CondExpr:
		if Truth(c.rvalue(e.C)) {
			r := c.rvalue(e.X)
			c.skip(e.Y)
			return r
		}
		c.skip(e.X)
		return c.rvalue(e.Y)
	case *program.Cast:
		return c.cast(c.rvalue(e.X), e.X.Type(), e.T)
	case *program.Compound:
		return c.cells(e)[0]
	}
	fail("cannot evaluate %T", e)
	return program.Value{}
}

func (c *ctx) pointerTo(l Loc) program.Value {
	if l.Obj == nil {
		if l.why != "" {
			fail("address %s", l.why)
		}
		return program.Value{Bits: l.bits + l.Off}
	}
	return program.Value{Obj: l.Obj.ID, Off: l.Off}
}

func (c *ctx) cast(v program.Value, from, to *program.Type) program.Value {
	switch to.Kind {
	case program.Bool:
		return boolVal(Truth(v))
	case program.Int:
		if v.Obj != "" {
			return v // an address converted to an integer keeps its object
		}
		return program.Value{Bits: program.Normalize(to, v.Bits)}
	case program.Pointer:
		if v.Obj == "" && from.IsInteger() && from.Kind == program.Int && !from.Signed {
			return program.Value{Bits: v.Bits}
		}
		return v
	}
	return v
}

func (c *ctx) unary(e *program.Unary) program.Value {
	x := c.rvalue(e.X)
	switch e.Op {
	case program.Not:
		return Normalize(e.T, boolVal(!Truth(x)))
	case program.Neg:
		c.noAddr(x, e)
		return Normalize(e.T, program.Value{Bits: -x.Bits})
	case program.BitNot:
		c.noAddr(x, e)
		return Normalize(e.T, program.Value{Bits: ^x.Bits})
	}
	fail("unknown unary operator %d", e.Op)
	return program.Value{}
}

func (c *ctx) noAddr(v program.Value, e program.Expr) {
	if v.Obj != "" {
		fail("integer arithmetic on an address in %s (not supported by the interpreter)", program.ExprString(e))
	}
}

var isUnsigned = program.Unsigned

func (c *ctx) binary(e *program.Binary) program.Value {
	x := c.rvalue(e.X)
	switch e.Op {
	case program.LAnd:
		if !Truth(x) {
			c.skip(e.Y)
			return Normalize(e.T, program.Value{})
		}
		return Normalize(e.T, boolVal(Truth(c.rvalue(e.Y))))
	case program.LOr:
		if Truth(x) {
			c.skip(e.Y)
			return Normalize(e.T, program.Value{Bits: 1})
		}
		return Normalize(e.T, boolVal(Truth(c.rvalue(e.Y))))
	}
	y := c.rvalue(e.Y)
	xt, yt := e.X.Type(), e.Y.Type()

	// pointers
	if xt.Kind == program.Pointer || yt.Kind == program.Pointer || x.Obj != "" || y.Obj != "" {
		switch e.Op {
		case program.Eq, program.Ne:
			eq := x.Obj == y.Obj && x.Off == y.Off && x.Bits == y.Bits
			if e.Op == program.Ne {
				eq = !eq
			}
			return Normalize(e.T, boolVal(eq))
		case program.Lt, program.Le, program.Gt, program.Ge:
			var a, b int64
			switch {
			case x.Obj != "" && x.Obj == y.Obj:
				a, b = x.Off, y.Off
			case x.Obj == "" && y.Obj == "":
				a, b = x.Bits, y.Bits
			default:
				fail("relational comparison of pointers into different objects in %s", program.ExprString(e))
			}
			return Normalize(e.T, boolVal(compare(e.Op, a, b, false)))
		case program.Add, program.Sub:
			if xt.Kind == program.Pointer && yt.Kind == program.Pointer && e.Op == program.Sub {
				es := program.ElemSize(xt)
				if x.Obj != y.Obj {
					fail("subtraction of pointers into different objects in %s", program.ExprString(e))
				}
				d := x.Off - y.Off
				if x.Obj == "" {
					d = x.Bits - y.Bits
				}
				if es == 0 {
					fail("subtraction of pointers to a type of size 0 in %s", program.ExprString(e))
				}
				return Normalize(e.T, program.Value{Bits: d / es})
			}
			if xt.Kind == program.Pointer && y.Obj == "" {
				d := y.Bits * program.ElemSize(xt)
				if e.Op == program.Sub {
					d = -d
				}
				if x.Obj == "" {
					return program.Value{Bits: x.Bits + d}
				}
				return program.Value{Obj: x.Obj, Off: x.Off + d}
			}
		}
		fail("operation %s on addresses in %s (not supported by the interpreter)", program.BinOpString(e.Op), program.ExprString(e))
	}

	a, b := x.Bits, y.Bits
	uns := isUnsigned(xt)
	t := e.T
	switch e.Op {
	case program.Add:
		return Normalize(t, program.Value{Bits: a + b})
	case program.Sub:
		return Normalize(t, program.Value{Bits: a - b})
	case program.Mul:
		return Normalize(t, program.Value{Bits: a * b})
	case program.Div, program.Rem:
		return Normalize(t, program.Value{Bits: divRem(e.Op, a, b, uns)})
	case program.Shl, program.Shr:
		return Normalize(t, program.Value{Bits: shift(e.Op, t, a, b)})
	case program.And:
		return Normalize(t, program.Value{Bits: a & b})
	case program.Or:
		return Normalize(t, program.Value{Bits: a | b})
	case program.Xor:
		return Normalize(t, program.Value{Bits: a ^ b})
	case program.Eq, program.Ne, program.Lt, program.Le, program.Gt, program.Ge:
		return Normalize(t, boolVal(compare(e.Op, a, b, uns)))
	}
	fail("unknown binary operator %d", e.Op)
	return program.Value{}
}

// The integer operations are the model's, shared with the front end's
// folding of constants (program/arith.go).
var (
	divRem  = program.DivRem
	shift   = program.Shift
	compare = program.Compare
)

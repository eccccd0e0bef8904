package observer

import (
	"fmt"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/program"
)

// tok is a value of one scalar cell in a form that does not depend on the
// thread that restores it: an integer, a pointer to a global, to a local of
// main (its only activation), to a local of the restoring thread's own
// frame, or to a function.
type tok struct {
	kind byte // 'i' integer, 'n' integer-valued pointer (NULL), 'f' function, 'g' global, 'm' main's local, 's' own local
	name string
	off  int64
	bits int64
}

func (t tok) String() string {
	switch t.kind {
	case 'i', 'n':
		return string(t.kind) + strconv.FormatInt(t.bits, 10)
	case 'f':
		return "f" + t.name
	}
	return fmt.Sprintf("%c%s+%d", t.kind, t.name, t.off)
}

// tokOf converts a value of a configuration (interp.Config form) of a cell
// of type ct, seen from frame frame (0: the bottom) of thread self, into a
// tok.
func tokOf(v program.Value, ct *program.Type, self, frame int) (tok, error) {
	if v.Obj == "" {
		if ct.Kind == program.Pointer || ct.Kind == program.Function {
			return tok{kind: 'n', bits: v.Bits}, nil
		}
		return tok{kind: 'i', bits: v.Bits}, nil
	}
	if ct.Kind != program.Pointer && ct.Kind != program.Function {
		return tok{}, program.Errorf(program.Unsupported, "observer: an address (%s) stored in a cell of type %s", v, ct)
	}
	if strings.HasPrefix(v.Obj, "fn:") {
		return tok{kind: 'f', name: v.Obj[3:]}, nil
	}
	if strings.HasPrefix(v.Obj, "heap#") {
		return tok{}, program.Errorf(program.Unsupported, "observer: a pointer to the heap block %s at a node of the tree (heap blocks are not restored)", v.Obj)
	}
	obj, act, ok := strings.Cut(v.Obj, "@")
	if !ok {
		return tok{kind: 'g', name: obj, off: v.Off}, nil
	}
	fn, name, _ := strings.Cut(obj, "::")
	if fn == "main" && act == "0.0" {
		return tok{kind: 'm', name: name, off: v.Off}, nil
	}
	if act == strconv.Itoa(self)+"."+strconv.Itoa(frame) {
		return tok{kind: 's', name: name, off: v.Off}, nil
	}
	return tok{}, program.Errorf(program.Unsupported, "observer: a pointer to %s (a local of another thread or activation) at a node of the tree", v.Obj)
}

// addrAt returns the address of byte off of the object base of type t: the
// address of the cell that starts there, or (char *)&base + off when no
// cell does (a pointer into the middle of a scalar or into padding).
func (b *builder) addrAt(base program.Expr, t *program.Type, off int64) program.Expr {
	if cell, ok := t.CellStartingAt(off); ok {
		lv := cellLvalue(base, t, cell)
		return &program.AddrOf{X: lv, T: b.ptr(lv.Type())}
	}
	cp := b.ptr(program.CharType)
	return &program.Binary{Op: program.Add, X: &program.Cast{X: &program.AddrOf{X: base, T: b.ptr(t)}, T: cp},
		Y: program.IntConst(program.IntType(b.a.Model.PtrSize(), true), off), T: cp}
}

// cellLvalue returns the lvalue of cell c of the object base of type t.
func cellLvalue(base program.Expr, t *program.Type, c int64) program.Expr {
	switch t.Kind {
	case program.Array:
		ec := t.Elem.Cells()
		return cellLvalue(&program.Index{X: base, I: program.IntConst(program.IntT, c/ec), T: t.Elem}, t.Elem, c%ec)
	case program.Struct, program.Union:
		for i, f := range t.Fields {
			if t.Kind == program.Union && t.Store > 0 && i != t.Store-1 {
				continue // the union's cells are its storage member's
			}
			n := f.Type.Cells()
			if c < n {
				return cellLvalue(&program.FieldSel{X: base, Name: f.Name, Field: i, T: f.Type}, f.Type, c)
			}
			c -= n
		}
	}
	return base
}

// ctx is where an expression is evaluated: in function fn (main for the
// observer).
type ctx struct {
	b  *builder
	fn *program.Func
}

// expr returns an expression of type ct with the value t in c.
func (c ctx) expr(t tok, ct *program.Type) (program.Expr, error) {
	b := c.b
	switch t.kind {
	case 'i':
		if ct.Kind == program.Mutex || ct.Kind == program.Cond {
			return &program.Const{T: ct, V: t.bits}, nil
		}
		return program.IntConst(ct, t.bits), nil
	case 'n':
		return &program.Const{T: ct, V: t.bits}, nil
	case 'f':
		f := b.a.Func(t.name)
		if f == nil {
			return nil, program.Errorf(program.Unsupported, "observer: pointer to the function %s, which has no body", t.name)
		}
		ft := f.Type()
		return b.conv(&program.AddrOf{X: &program.FuncRef{Name: f.Name, T: ft}, T: b.ptr(ft)}, ct), nil
	case 'g':
		g := b.a.Global(t.name)
		if g == nil {
			return nil, program.Errorf(program.Unsupported, "observer: pointer to %s, which is not a global of the abstraction", t.name)
		}
		if t.off < 0 || t.off >= g.Type.Size {
			return nil, program.Errorf(program.Unsupported, "observer: pointer to byte %d of %s (outside the object)", t.off, t.name)
		}
		return b.conv(b.addrAt(&program.Ref{Name: g.Name, T: g.Type}, g.Type, t.off), ct), nil
	case 'm', 's':
		owner := c.fn
		if t.kind == 'm' {
			owner = b.a.Func("main")
		}
		v := owner.Var(t.name)
		if v == nil {
			return nil, program.Errorf(program.Internal, "observer: no local %s in %s", t.name, owner.Name)
		}
		if t.off < 0 || t.off >= v.Type.Size {
			return nil, program.Errorf(program.Unsupported, "observer: pointer to byte %d of %s::%s (outside the object)", t.off, owner.Name, t.name)
		}
		if owner != c.fn {
			// a local of main seen from another thread: through the pool
			// global the observer sets in main
			pool, err := b.pool(t.name, t.off)
			if err != nil {
				return nil, err
			}
			return b.conv(pool, ct), nil
		}
		return b.conv(b.addrAt(&program.Ref{Name: v.Name, Local: true, T: v.Type}, v.Type, t.off), ct), nil
	}
	return nil, program.Errorf(program.Internal, "observer: bad value %v", t)
}

// conv casts e to t unless its type is already identical.
func (b *builder) conv(e program.Expr, t *program.Type) program.Expr {
	if program.Identical(e.Type(), t) {
		return e
	}
	return &program.Cast{X: e, T: t}
}

func (b *builder) ptr(t *program.Type) *program.Type {
	return program.PointerTo(t, b.a.Model.PtrSize())
}

// pool returns the global through which threads other than main see the
// address of cell off of main's local name; the observer sets it.
func (b *builder) pool(name string, off int64) (program.Expr, error) {
	key := fmt.Sprintf("%s+%d", name, off)
	if r, ok := b.pools[key]; ok {
		return r, nil
	}
	v := b.a.Func("main").Var(name)
	addr := b.addrAt(&program.Ref{Name: v.Name, Local: true, T: v.Type}, v.Type, off)
	pt := addr.Type()
	g := b.global(fmt.Sprintf("__cegpv_addr_%s_%d", name, off), pt, nil)
	b.pools[key] = g
	b.poolSet = append(b.poolSet, &program.Instr{Op: program.OpAssign, Lhs: g, Rhs: addr,
		Msg: "cegpv observer: address of main's " + name})
	return g, nil
}

// global adds a global of type t (initialised with init, nil: zero) with a
// fresh name derived from base and returns a reference to it.
func (b *builder) global(base string, t *program.Type, init program.Expr) *program.Ref {
	name := b.freshName(base)
	b.ap.Globals = append(b.ap.Globals, &program.Var{Name: name, Type: t, Init: init})
	return &program.Ref{Name: name, T: t}
}

func (b *builder) freshName(base string) string {
	name := base
	for i := 1; b.taken[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	b.taken[name] = true
	return name
}

// selectExpr returns an expression of type ct whose value, evaluated in c
// with idx = i, is vals[i]: a constant when all are equal, a table of
// constants for integer cells, otherwise a table of choices among the
// distinct values and a conditional expression over them. base names the
// table.
func (c ctx) selectExpr(base string, vals []tok, ct *program.Type, idx program.Expr) (program.Expr, error) {
	b := c.b
	var distinct []tok
	pos := map[tok]int{}
	sel := make([]int, len(vals))
	for i, v := range vals {
		k, ok := pos[v]
		if !ok {
			k = len(distinct)
			pos[v] = k
			distinct = append(distinct, v)
		}
		sel[i] = k
	}
	if len(distinct) == 0 {
		return nil, program.Errorf(program.Internal, "observer: empty value table %s", base)
	}
	if len(distinct) == 1 {
		return c.expr(distinct[0], ct)
	}
	allInt := true
	for _, v := range distinct {
		if v.kind != 'i' {
			allInt = false
		}
	}
	if allInt && ct.IsInteger() {
		elems := make([]program.Expr, len(vals))
		for i, v := range vals {
			elems[i] = program.IntConst(ct, v.bits)
		}
		tt := program.ArrayOf(ct, int64(len(vals)))
		tab := b.global(base, tt, &program.Compound{T: tt, Elems: elems})
		return &program.Index{X: tab, I: idx, T: ct}, nil
	}
	elems := make([]program.Expr, len(vals))
	for i, s := range sel {
		elems[i] = program.IntConst(program.IntT, int64(s))
	}
	tt := program.ArrayOf(program.IntT, int64(len(vals)))
	tab := b.global(base, tt, &program.Compound{T: tt, Elems: elems})
	at := &program.Index{X: tab, I: idx, T: program.IntT}
	out, err := c.expr(distinct[len(distinct)-1], ct)
	if err != nil {
		return nil, err
	}
	for k := len(distinct) - 2; k >= 0; k-- {
		x, err := c.expr(distinct[k], ct)
		if err != nil {
			return nil, err
		}
		out = &program.CondExpr{C: eq(at, ci(int64(k))), X: x, Y: out, T: ct}
	}
	return out, nil
}

// intTable returns tab[idx] for a table of int constants (a constant when
// all are equal).
func (b *builder) intTable(base string, vals []int64, idx program.Expr) program.Expr {
	same := true
	for _, v := range vals {
		if v != vals[0] {
			same = false
		}
	}
	if same && len(vals) > 0 {
		return ci(vals[0])
	}
	key := fmt.Sprint(base, vals)
	tab, ok := b.tables[key]
	if !ok {
		elems := make([]program.Expr, len(vals))
		for i, v := range vals {
			elems[i] = ci(v)
		}
		tt := program.ArrayOf(program.IntT, int64(len(vals)))
		tab = b.global(base, tt, &program.Compound{T: tt, Elems: elems})
		if b.tables == nil {
			b.tables = map[string]*program.Ref{}
		}
		b.tables[key] = tab
	}
	return &program.Index{X: tab, I: idx, T: program.IntT}
}

func ci(v int64) program.Expr { return program.IntConst(program.IntT, v) }

func eq(x, y program.Expr) program.Expr {
	return &program.Binary{Op: program.Eq, X: x, Y: y, T: program.IntT}
}

func ne(x, y program.Expr) program.Expr {
	return &program.Binary{Op: program.Ne, X: x, Y: y, T: program.IntT}
}

func and(x, y program.Expr) program.Expr {
	if x == nil {
		return y
	}
	return &program.Binary{Op: program.LAnd, X: x, Y: y, T: program.IntT}
}

func or(x, y program.Expr) program.Expr {
	if x == nil {
		return y
	}
	return &program.Binary{Op: program.LOr, X: x, Y: y, T: program.IntT}
}

func not(x program.Expr) program.Expr {
	return &program.Unary{Op: program.Not, X: x, T: program.IntT}
}

package program

import (
	"fmt"
	"strings"
)

// Byte layout of objects (design: docs/conventions.md "Memory").
//
// An object is stored as its scalar cells (Type.Cells), but addressed in
// bytes: a pointer is an object plus a byte offset, and every object has
// the layout gcc gives its type under the program's data model (Type.Size,
// Type.Align, Field.Offset, filled in by the front end from cc's ABI). An
// access resolves its byte offset to the cell it lands on (CellsAt) and
// asks CellAccess how the model computes it. Every engine (the interpreter,
// the built-in encoding) resolves accesses through these two functions, so
// that they agree on what is exact, what is invalid and what is not
// modelled.

// Alignment returns t's alignment in bytes: Align when the front end set
// it, else the natural alignment (a scalar's size, an aggregate's largest
// member alignment).
func (t *Type) Alignment() int64 {
	if t.Align > 0 {
		return t.Align
	}
	switch t.Kind {
	case Array:
		return t.Elem.Alignment()
	case Struct, Union:
		a := int64(1)
		for _, f := range t.Fields {
			a = max(a, f.Type.Alignment())
		}
		return a
	case Void, Function:
		return 1
	}
	if t.Size > 0 {
		return t.Size
	}
	return 1
}

// NewAggregate returns a struct or union type with the natural layout of
// its fields (LayOut). The front end takes layouts from cc instead; this is
// for types built by hand (tests, translations).
func NewAggregate(kind Kind, name string, fields []Field) *Type {
	return LayOut(&Type{Kind: kind, Name: name, Fields: append([]Field(nil), fields...)})
}

// LayOut gives the struct or union t, whose Fields are set, the natural
// layout gcc gives a struct without attributes (each field at the next
// multiple of its alignment; a union's at 0; the size rounded up to the
// alignment) and returns it. It writes t: call it while t is being built
// (a recursive type gets its fields after the pointer to it exists).
func LayOut(t *Type) *Type {
	var off, size int64
	t.Align = 0
	for i := range t.Fields {
		ft := t.Fields[i].Type
		a := ft.Alignment()
		if t.Kind == Union {
			t.Fields[i].Offset = 0
			size = max(size, ft.Size)
			continue
		}
		off = (off + a - 1) / a * a
		t.Fields[i].Offset = off
		off += ft.Size
		size = off
	}
	a := t.Alignment()
	t.Size = (size + a - 1) / a * a
	t.Align = a
	ChooseStorage(t)
	return t
}

// ChooseStorage sets the Store of union t (its fields and their layout
// set): the first member, the first declared preferred, on whose cells
// every other member's scalars resolve exactly (Resolve: Whole, or Byte
// for a character member), so that writing one member and reading
// another is the byte reinterpretation C (and gcc) gives it. Without such
// a member, Store stays 0 and each member keeps cells of its own.
func ChooseStorage(t *Type) {
	t.Store = 0
	if t.Kind != Union {
		return
	}
	for m, mf := range t.Fields {
		if mf.Type.Size != t.Size || mf.Type.Cells() == 0 {
			continue // bytes of the union outside the member
		}
		ok := true
		for i, f := range t.Fields {
			if i == m {
				continue
			}
			for k := int64(0); ok && k < f.Type.Cells(); k++ {
				ct := f.Type.CellType(k)
				if ct.Kind == Void {
					continue
				}
				_, _, acc := mf.Type.Resolve(f.Type.CellOffset(k), ct)
				ok = acc == Whole || acc == Byte
			}
		}
		if ok {
			t.Store = m + 1
			return
		}
	}
}

// FieldOffset returns the byte offset of field i within a struct or union.
func (t *Type) FieldOffset(i int) int64 { return t.Fields[i].Offset }

// CellOffset returns the byte offset of cell c within an object of type t.
func (t *Type) CellOffset(c int64) int64 {
	switch t.Kind {
	case Array:
		ec := t.Elem.Cells()
		if ec == 0 {
			return 0
		}
		return c/ec*t.Elem.Size + t.Elem.CellOffset(c%ec)
	case Struct, Union:
		for _, f := range t.cellFields() {
			n := f.Type.Cells()
			if c < n {
				return f.Offset + f.Type.CellOffset(c)
			}
			c -= n
		}
	}
	return 0
}

// CellsAt calls yield for every cell of an object of type t whose bytes
// [CellOffset(c), CellOffset(c)+CellType(c).Size) contain byte off, with
// off's distance delta from the cell's start, until yield returns false.
// There is at most one such cell except in unions, whose members' cells
// overlap. No cell holds a padding byte or a byte outside the object.
func (t *Type) CellsAt(off int64, yield func(c, delta int64) bool) bool {
	if off < 0 || off >= t.Size {
		return true
	}
	switch t.Kind {
	case Array:
		if t.Elem.Size <= 0 {
			return true
		}
		i, in := off/t.Elem.Size, off%t.Elem.Size
		ec := t.Elem.Cells()
		return t.Elem.CellsAt(in, func(c, d int64) bool { return yield(i*ec+c, d) })
	case Struct, Union:
		var base int64
		for _, f := range t.cellFields() {
			n := f.Type.Cells()
			if off >= f.Offset && off < f.Offset+f.Type.Size {
				b := base
				if !f.Type.CellsAt(off-f.Offset, func(c, d int64) bool { return yield(b+c, d) }) {
					return false
				}
			}
			base += n
		}
		return true
	case Void:
		return true
	}
	return yield(0, off)
}

// CellStartingAt returns the cell of an object of type t whose first byte
// is off (the first such cell in a union), if one is.
func (t *Type) CellStartingAt(off int64) (int64, bool) {
	cell := int64(-1)
	t.CellsAt(off, func(k, d int64) bool {
		if d == 0 {
			cell = k
		}
		return false
	})
	return cell, cell >= 0
}

// Access says how the model computes an access of a scalar type at a byte
// of a cell (CellAccess).
type Access uint8

const (
	// NoFit: the access does not designate this cell (a union member of
	// another type whose cell overlaps the same bytes).
	NoFit Access = iota
	// Whole: the access is the cell itself (it starts at the cell's first
	// byte and has a compatible type: both pointers, or integers of the
	// same width and any signedness).
	Whole
	// Byte: a character access to one byte of an integer cell, or an
	// integer access to bytes [delta, delta+size) inside one (a short
	// member of a union stored in an int), which the model reads and
	// writes exactly, little-endian (CBMC's byte_extract and byte_update).
	Byte
	// Pad: a character access to a byte of the cell beyond the value the
	// model keeps (bytes 4.. of a pthread_mutex_t): a write has no effect on
	// the model, a read is Unmodelled.
	Pad
	// Unmodelled: the access lands in the cell but the model cannot
	// compute it exactly (a byte of an address, an integer through a
	// pointer lvalue, an access straddling two cells): such a run is not followed,
	// the verdict is UNKNOWN naming the access.
	Unmodelled
)

// IsCharType reports whether t is a character type (a one-byte integer),
// the types through which C lets any object's bytes be accessed.
func IsCharType(t *Type) bool { return t.Kind == Int && t.Size == 1 }

// ValueBytes returns the bytes of a scalar cell of type ct that hold its
// value in the model (Bits rounded up to bytes; a pthread_mutex_t keeps its
// lock word, 4 bytes, of its Size).
func ValueBytes(ct *Type) int64 { return (int64(ct.Bits()) + 7) / 8 }

// Compatible reports whether a cell of type ct is accessed as a whole by an
// lvalue of scalar type t: both pointers (any pointee: C's conversions
// between object pointer types keep the address), or both integers (or
// _Bool, mutex, condition) of the same width.
func Compatible(ct, t *Type) bool {
	cp, tp := ct.Kind == Pointer || ct.Kind == Function, t.Kind == Pointer || t.Kind == Function
	if cp || tp {
		return cp && tp
	}
	if ct.Kind == Void || t.Kind == Void {
		return false
	}
	return ct.Bits() == t.Bits()
}

// CellAccess classifies an access of scalar type t that starts delta bytes
// into a cell of type ct. A character access may read any byte of an
// object (C11 6.5p7); an integer access to part of a larger integer is
// what a union member of that type gives (C11 6.5.2.3), and the model
// computes it the same way through a pointer.
func CellAccess(ct, t *Type, delta int64) Access {
	if delta == 0 && Compatible(ct, t) {
		return Whole
	}
	if IsCharType(t) {
		switch ct.Kind {
		case Int, Bool, Mutex, Cond:
			if delta < ValueBytes(ct) {
				return Byte
			}
			return Pad
		}
		return Unmodelled // a byte of an address
	}
	if t.Kind == Int {
		switch ct.Kind {
		case Int, Mutex, Cond:
			if delta+t.Size <= ValueBytes(ct) {
				return Byte // bytes [delta, delta+size) of the cell
			}
		}
	}
	if delta == 0 && (ct.Kind == Pointer) != (t.Kind == Pointer) && ct.Size == t.Size && ct.Kind != Function && t.Kind != Function {
		// an integer read through a pointer lvalue of the same size, or
		// the converse: reinterpretation of an address, not modelled
		return Unmodelled
	}
	if t.Kind == Void {
		return NoFit
	}
	return Unmodelled
}

// Resolve resolves an access of scalar type t at byte off of an object of
// type ot (0 <= off, off+t.Size <= ot.Size: the caller checks the bounds):
// the cell it designates, the access's distance from the cell's first byte,
// and how the model computes it. A character access to a byte that no
// cell holds (padding) is Pad with cell -1. In a union whose members'
// cells overlap, the first fitting cell is taken when every fitting cell
// has the same type and distance (members of identical types, which the
// front end makes one: its canonical member); otherwise the access is
// Unmodelled. Every engine resolves accesses through Resolve.
func (ot *Type) Resolve(off int64, t *Type) (cell, delta int64, acc Access) {
	cell, acc = -1, NoFit
	var first *Type
	mixed := false
	ot.CellsAt(off, func(k, d int64) bool {
		ct := ot.CellType(k)
		a := CellAccess(ct, t, d)
		if a == NoFit {
			return true
		}
		if first == nil {
			first, cell, delta, acc = ct, k, d, a
		} else if !Identical(first, ct) || d != delta {
			mixed = true
			return false
		}
		return true
	})
	switch {
	case mixed:
		return cell, delta, Unmodelled
	case first == nil && IsCharType(t):
		return -1, 0, Pad
	case first == nil:
		return -1, 0, Unmodelled
	}
	return cell, delta, acc
}

// AggregateAt returns the first of the cells where an aggregate of type t
// lies at byte off of an object of type ot: the cells from there have t's
// layout (their offsets and compatible types). ok is false when no cell
// sequence there does (an aggregate accessed through a pointer of another
// type).
func (ot *Type) AggregateAt(off int64, t *Type) (first int64, ok bool) {
	if off < 0 || off+t.Size > ot.Size {
		return 0, false
	}
	n := t.Cells()
	if n == 0 {
		return 0, true
	}
	first = -1
	ot.CellsAt(off, func(k, d int64) bool {
		if d != 0 || k+n > ot.Cells() {
			return true
		}
		for i := int64(0); i < n; i++ {
			if ot.CellOffset(k+i) != off+t.CellOffset(i) || !Compatible(ot.CellType(k+i), t.CellType(i)) {
				return true
			}
		}
		first = k
		return false
	})
	return first, first >= 0
}

// ElemSize is the step of pointer arithmetic on a pointer of type pt: the
// pointee's size in bytes (1 for void and functions, GNU C's rule).
func ElemSize(pt *Type) int64 {
	if pt.Elem == nil {
		return 1
	}
	switch pt.Elem.Kind {
	case Void, Function:
		return 1
	}
	return pt.Elem.Size
}

// ValueString writes v for people: a pointer as the C lvalue it points at
// when a cell of its object starts there ("&r.val", "&a[2]"), else as a
// byte offset from the object ("(char *)&r + 5"); other values as
// Value.String. Objects are named as in runs (globals, "f::x", "heap#n").
func (p *Program) ValueString(v Value) string {
	if v.Obj == "" || strings.HasPrefix(v.Obj, "fn:") || v.Off == 0 {
		return v.String()
	}
	var t *Type
	if f, x, ok := strings.Cut(v.Obj, "::"); ok {
		if fn := p.Func(f); fn != nil {
			if lv := fn.Var(x); lv != nil {
				t = lv.Type
			}
		}
	} else if g := p.Global(v.Obj); g != nil {
		t = g.Type
	}
	if t != nil {
		if k, ok := t.CellStartingAt(v.Off); ok && t.CellPath(k) != "" {
			return "&" + v.Obj + t.CellPath(k)
		}
	}
	return fmt.Sprintf("(char *)&%s + %d", v.Obj, v.Off)
}

// StorageInit returns the initialiser of union t's storage member (Store)
// equivalent to x, an initialiser of the union (C: of its first member): the
// same bytes, read as the storage member's cells (little-endian). x must be
// made of integer and null-pointer constants; ok is false otherwise.
func StorageInit(t *Type, x Expr) (Expr, bool) {
	st := t.Fields[t.Store-1].Type
	comp, isComp := x.(*Compound)
	if !isComp || len(comp.Elems) == 0 {
		return &Compound{T: st}, true // zero
	}
	if t.Store == 1 {
		return comp.Elems[0], true
	}
	img := make([]byte, t.Size)
	if !constBytes(img, 0, t.Fields[0].Type, comp.Elems[0]) {
		return nil, false
	}
	return bytesInit(img, 0, st), true
}

// constBytes writes the bytes of constant initialiser x of type t at off.
func constBytes(img []byte, off int64, t *Type, x Expr) bool {
	if comp, ok := x.(*Compound); ok {
		switch t.Kind {
		case Array:
			for i, e := range comp.Elems {
				if int64(i) < t.Len && !constBytes(img, off+int64(i)*t.Elem.Size, t.Elem, e) {
					return false
				}
			}
		case Struct, Union:
			for i, e := range comp.Elems {
				if i >= len(t.Fields) || (t.Kind == Union && i > 0) {
					break
				}
				if !constBytes(img, off+t.Fields[i].Offset, t.Fields[i].Type, e) {
					return false
				}
			}
		default:
			if len(comp.Elems) > 0 {
				return constBytes(img, off, t, comp.Elems[0])
			}
		}
		return true
	}
	c, ok := StripCasts(x).(*Const)
	if !ok || !t.IsScalar() || (t.Kind == Pointer && c.V != 0) {
		return false
	}
	v := Normalize(t, c.V)
	for b := int64(0); b < ValueBytes(t) && off+b < int64(len(img)); b++ {
		img[off+b] = byte(uint64(v) >> (8 * b))
	}
	return true
}

// bytesInit is the constant initialiser of type t whose bytes are img[off:].
func bytesInit(img []byte, off int64, t *Type) Expr {
	switch t.Kind {
	case Array:
		c := &Compound{T: t}
		for i := int64(0); i < t.Len; i++ {
			c.Elems = append(c.Elems, bytesInit(img, off+i*t.Elem.Size, t.Elem))
		}
		return c
	case Struct, Union:
		c := &Compound{T: t}
		for _, f := range t.cellFields() {
			c.Elems = append(c.Elems, bytesInit(img, off+f.Offset, f.Type))
			if t.Kind == Union {
				break
			}
		}
		return c
	}
	var v uint64
	for b := ValueBytes(t) - 1; b >= 0; b-- {
		v = v<<8 | uint64(img[off+b])
	}
	if t.Kind == Pointer {
		return &Const{T: t, V: int64(v)}
	}
	return IntConst(t, int64(v))
}

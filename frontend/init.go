package frontend

import (
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Initializers of aggregates (C11 6.7.9): brace lists with designators,
// nested designators (.a.b = 1, [2].x = 3, members of anonymous members),
// GNU ranges ([0 ... 3] = v), and brace elision (an aggregate member
// without braces takes as many of the following items as it has scalars,
// C11 6.7.9p20). The list is read in order with a cursor: an item
// designates its position in the current object (the aggregate of the
// innermost braces); after a designation the following items go to the
// next subobjects of the innermost object the designation reached, then
// of the objects around it (p17); elision fills an aggregate member from
// the same cursor until it is full or an item has a designation (p20).

// initBuilder holds the cursor over one initializer.
type initBuilder struct {
	l      *lowerer
	static bool
	elem   func(*program.Type, *cc.Initializer) program.Expr // locals: lowers a scalar item
	il     *cc.InitializerList                               // the next item
}

// compound lowers a brace initializer list of an aggregate. With static set
// the elements are constant expressions; otherwise elem is called to lower
// each scalar element (locals).
func (l *lowerer) compound(t *program.Type, list *cc.InitializerList, static bool, elem func(*program.Type, *cc.Initializer) program.Expr) *program.Compound {
	b := &initBuilder{l: l, static: static, elem: elem}
	c := &program.Compound{T: t}
	b.braced(c, list)
	fillZeros(c)
	return c
}

// fillZeros replaces the elements no item set by zeros.
func fillZeros(c *program.Compound) {
	for i, e := range c.Elems {
		if e == nil {
			c.Elems[i] = zero(elemType(c.T, i))
		} else if sub, ok := e.(*program.Compound); ok {
			fillZeros(sub)
		}
	}
}

// elemType is the type of element (member) i of an aggregate.
func elemType(t *program.Type, i int) *program.Type {
	if t.Kind == program.Array {
		return t.Elem
	}
	return t.Fields[i].Type
}

// members is the number of elements an initializer of t sets: an array's
// length, a struct's members, a union's first member.
func members(t *program.Type) int {
	switch t.Kind {
	case program.Array:
		return int(t.Len)
	case program.Union:
		return min(1, len(t.Fields))
	}
	return len(t.Fields)
}

func set(c *program.Compound, i int, e program.Expr) {
	for len(c.Elems) <= i {
		c.Elems = append(c.Elems, nil)
	}
	c.Elems[i] = e
}

// sub returns the aggregate element i of c, created (empty) if unset.
func sub(c *program.Compound, i int) *program.Compound {
	if i < len(c.Elems) {
		if s, ok := c.Elems[i].(*program.Compound); ok {
			return s
		}
	}
	s := &program.Compound{T: elemType(c.T, i)}
	set(c, i, s)
	return s
}

// next returns the next item without consuming it (nil at the end).
func (b *initBuilder) next() *cc.InitializerList {
	for b.il != nil && b.il.Initializer == nil {
		b.il = b.il.InitializerList
	}
	return b.il
}

// braced fills c from list, its own braces: every item must find its
// place.
func (b *initBuilder) braced(c *program.Compound, list *cc.InitializerList) {
	saved := b.il
	b.il = list
	if c.T.Kind == program.Union && list != nil && len(c.T.Fields) > 0 {
		b.l.unionMember(c.T, 0, c.T.Fields[0].Name, list) // an initializer writes the first member
	}
	b.fill(c, 0, true)
	b.il = saved
}

// fill sets the elements of c from position pos on. At the top of braces
// it takes every item, designated ones included; otherwise (elision, the
// rest of a designated object) it stops when c is full or at an item with
// a designation, which belongs to the braces around.
func (b *initBuilder) fill(c *program.Compound, pos int, top bool) {
	t := c.T
	n := members(t)
	for {
		it := b.next()
		if it == nil {
			return
		}
		if it.Designation != nil {
			if !top {
				return
			}
			pos = b.designated(c, it)
			continue
		}
		if b.l.hasOpaque(t) {
			if !b.l.allZero(it.Initializer) {
				b.l.fail(it, "positional initializer of %s %s, whose members include some the model does not compute with (bit-fields, floating point): designate the members", strings.ToLower(kindName(t.Kind)), t.Name)
			}
			b.il = it.InitializerList // zeros: what the object holds anyway
			pos++
			continue
		}
		if pos >= n {
			if !top {
				return
			}
			if t.Kind == program.Array && t.Len == 0 {
				b.l.fail(it, "initializer of an array of unknown size")
			}
			b.l.fail(it, "excess elements in initializer")
		}
		b.item(c, pos)
		pos++
	}
}

// item sets element pos of c from the next item (several, by elision).
func (b *initBuilder) item(c *program.Compound, pos int) {
	it := b.next()
	init := it.Initializer
	et := elemType(c.T, pos)
	b.l.setPos(init)
	if init.Case == cc.InitializerInitList {
		b.il = it.InitializerList
		if et.IsScalar() {
			set(c, pos, b.leaf(et, init))
			return
		}
		s := &program.Compound{T: et}
		b.braced(s, init.InitializerList)
		set(c, pos, s)
		return
	}
	if et.IsScalar() {
		b.il = it.InitializerList
		set(c, pos, b.leaf(et, init))
		return
	}
	e := init.AssignmentExpression
	if s, ok := stringLit(e); ok && et.Kind == program.Array {
		b.il = it.InitializerList
		set(c, pos, stringCompound(et, s))
		return
	}
	if k := e.Type().Kind(); k == cc.Struct || k == cc.Union {
		// an aggregate member initialised by an aggregate value
		b.il = it.InitializerList
		if b.static {
			b.l.fail(init, "struct initialised with an expression")
		}
		set(c, pos, b.elem(et, init))
		return
	}
	// brace elision: the member takes the following items
	s := &program.Compound{T: et}
	if et.Kind == program.Union && len(et.Fields) > 0 {
		b.l.unionMember(et, 0, et.Fields[0].Name, init)
	}
	b.fill(s, 0, false)
	set(c, pos, s)
}

// leaf lowers a scalar item.
func (b *initBuilder) leaf(t *program.Type, init *cc.Initializer) program.Expr {
	if b.static {
		return b.l.constInit(t, init)
	}
	return b.elem(t, init)
}

// step is one element on a designation's path: element i of an aggregate.
type step struct {
	c *program.Compound
	i int
}

// designated sets the element a designated item names and the elements
// that follow it in the objects the designation reached; it returns the
// position in c after the designated element.
func (b *initBuilder) designated(c *program.Compound, it *cc.InitializerList) int {
	var path []step
	cur := c
	var lo, hi int // a GNU range on the last designator
	for dl := it.Designation.DesignatorList; dl != nil; dl = dl.DesignatorList {
		if len(path) > 0 {
			last := path[len(path)-1]
			if elemType(last.c.T, last.i).IsScalar() {
				b.l.fail(dl.Designator, "designator into a scalar")
			}
			cur = sub(last.c, last.i)
		}
		ds := dl.Designator
		t := cur.T
		switch ds.Case {
		case cc.DesignatorIndex, cc.DesignatorIndex2:
			if t.Kind != program.Array {
				b.l.fail(ds, "array designator for %s", t)
			}
			k, ok := b.l.constInt(ds.ConstantExpression)
			if !ok {
				b.l.fail(ds, "non-constant designator")
			}
			lo, hi = int(k), int(k)
			if ds.Case == cc.DesignatorIndex2 { // [lo ... hi]
				k2, ok := b.l.constInt(ds.ConstantExpression2)
				if !ok {
					b.l.fail(ds, "non-constant designator")
				}
				hi = int(k2)
				if dl.DesignatorList != nil {
					b.l.fail(ds, "range designator followed by another designator")
				}
			}
			if lo < 0 || hi < lo || (t.Len > 0 && int64(hi) >= t.Len) {
				b.l.fail(ds, "array designator [%d] outside the array of %d elements", hi, t.Len)
			}
			path = append(path, step{cur, lo})
		case cc.DesignatorField, cc.DesignatorField2:
			if t.Kind == program.Array {
				b.l.fail(ds, "field designator for an array")
			}
			name := ds.Token2.SrcStr()
			if ds.Case == cc.DesignatorField2 {
				name = ds.Token.SrcStr()
			}
			fp := fieldPath(t, name)
			if fp == nil {
				b.l.failOpaque(ds, t, name)
				b.l.fail(ds, "unknown field %s", name)
			}
			for k, i := range fp {
				if k > 0 {
					cur = sub(cur, path[len(path)-1].i)
				}
				if cur.T.Kind == program.Union {
					fname := cur.T.Fields[i].Name
					if k == len(fp)-1 {
						fname = name
					}
					if j := b.l.unionMember(cur.T, i, fname, ds); j != 0 {
						b.l.fail(ds, "initializer of union member %s other than the first", name)
					}
					i = 0
				}
				path = append(path, step{cur, i})
			}
			lo, hi = path[len(path)-1].i, path[len(path)-1].i
		default:
			b.l.fail(ds, "designator")
		}
	}
	in := path[len(path)-1]
	b.item(in.c, lo)
	for k := lo + 1; k <= hi; k++ { // a range: the same value in each
		set(in.c, k, in.c.Elems[lo])
	}
	// the items after go to what follows, innermost first (C11 6.7.9p17)
	for k := len(path) - 1; k >= 1; k-- {
		from := path[k].i + 1
		if k == len(path)-1 {
			from = hi + 1
		}
		b.fill(path[k].c, from, false)
	}
	if len(path) == 1 {
		return hi + 1
	}
	return path[0].i + 1
}

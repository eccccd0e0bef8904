package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Opaque members: the members of a struct or union the model does not
// compute with — bit-fields, floating-point members (and arrays of them),
// flexible array members — do not reject the type: kernel and library
// structs carry them, and a program that never reads or writes them has
// runs that never compute with them (issue 30: reject only what a run can
// reach). Each run of consecutive opaque members of a struct becomes one
// member of unsigned char[k] named opaquePrefix and the index of its first
// member, k the bytes from the end of the member before to the start of
// the member after (the layout of the others is unchanged); an opaque
// member of a union is its bytes. Copying the whole struct copies those
// bytes, as C does. What touches one of them — a member access, a
// designated or positional initializer that is not all zeros — is
// rejected there, naming the member.
const opaquePrefix = "__opaque_member_"

// opaqueWhy returns why member f is opaque, or "".
func opaqueWhy(f *cc.Field) string {
	switch {
	case f.IsBitfield():
		return "a bit-field"
	case f.IsFlexibleArrayMember():
		return "a flexible array member (its objects have sizes the model's typed blocks do not have; it needs the byte-level memory model)"
	case isFloating(f.Type()):
		return "of floating-point type " + f.Type().String()
	}
	return ""
}

// isFloating reports whether t is a floating-point or complex type or an
// array of one.
func isFloating(t cc.Type) bool {
	for t != nil && t.Kind() == cc.Array {
		t = t.(*cc.ArrayType).Elem()
	}
	if t == nil {
		return false
	}
	switch t.Kind() {
	case cc.Float, cc.Double, cc.LongDouble, cc.Float16, cc.Float32, cc.Float64, cc.Float128,
		cc.Float32x, cc.Float64x, cc.Float128x, cc.BFloat16, cc.Decimal32, cc.Decimal64, cc.Decimal128:
		return true
	}
	return cc.IsComplexType(t)
}

// opaqueRun returns, for an opaque member i of a struct or union of size
// size with nf members, the last member of its run and the program member
// standing for the run (ok false: the run has no bytes, a flexible array
// member at the end). It records the run's members in l.opaque.
func (l *lowerer) opaqueRun(pt *program.Type, field func(int) *cc.Field, nf, i int, size int64) (last int, member program.Field, ok bool) {
	if l.opaque == nil {
		l.opaque = map[*program.Type]map[string]string{}
	}
	if l.opaque[pt] == nil {
		l.opaque[pt] = map[string]string{}
	}
	first := field(i)
	last = i
	var start, end int64
	if pt.Kind == program.Union {
		end = first.Type().Size()
		if first.IsBitfield() {
			end = int64(first.AccessBytes())
		}
	} else {
		for last+1 < nf && opaqueWhy(field(last+1)) != "" {
			last++
		}
		if i > 0 {
			prev := field(i - 1)
			start = prev.Offset() + prev.Type().Size()
		}
		end = size
		if last+1 < nf {
			end = field(last + 1).Offset()
		}
	}
	for j := i; j <= last; j++ {
		if f := field(j); f.Name() != "" {
			l.opaque[pt][f.Name()] = opaqueWhy(f)
		}
	}
	if end <= start {
		return last, program.Field{}, false
	}
	return last, program.Field{Name: fmt.Sprintf("%s%d", opaquePrefix, i), Type: program.ArrayOf(program.UCharType, end-start), Offset: start}, true
}

// opaqueMember returns why member name of t (directly or in an anonymous
// member) is opaque, or "".
func (l *lowerer) opaqueMember(t *program.Type, name string) string {
	if why := l.opaque[t][name]; why != "" {
		return why
	}
	for _, f := range t.Fields {
		if isAnonMember(f.Name) {
			if why := l.opaqueMember(f.Type, name); why != "" {
				return why
			}
		}
	}
	return ""
}

// failOpaque rejects an access of member name of t when it is opaque.
func (l *lowerer) failOpaque(n cc.Node, t *program.Type, name string) {
	if why := l.opaqueMember(t, name); why != "" {
		l.fail(n, "member %s of %s %s is %s, which the model does not compute with", name, strings.ToLower(kindName(t.Kind)), t.Name, why)
	}
}

// hasOpaque reports whether t has an opaque member (positional
// initializers of it cannot be matched to the program's members).
func (l *lowerer) hasOpaque(t *program.Type) bool { return len(l.opaque[t]) > 0 }

// bitfieldLayout checks the layout the C parser (modernc.org/cc) gives a
// struct or union with bit-fields against gcc's (the System V ABI as gcc
// implements it on x86: a bit-field is placed at the next bit unless it
// would leave the storage unit of its declared type's size that starts at
// a multiple of that type's alignment, then at the next such multiple; a
// zero-width one moves to that alignment; named bit-fields align the
// struct by their declared type). The parser packs bit-fields otherwise
// (`char c; unsigned x : 3; char d;` has d at 5 for it, at 2 for gcc), and
// its sizeof and offsetof are the program's: a struct they disagree on is
// rejected, naming the first difference ("" when they agree).
func bitfieldLayout(t cc.Type, nf int, field func(int) *cc.Field, union bool) string {
	roundUp := func(x, a int64) int64 {
		if a <= 1 {
			return x
		}
		return (x + a - 1) / a * a
	}
	var bit, size int64 // struct: the next free bit; union: the largest member
	align := int64(1)
	for i := 0; i < nf; i++ {
		f := field(i)
		ft := f.Type()
		s, a := ft.Size(), int64(ft.FieldAlign())
		if f.IsBitfield() {
			w := f.ValueBits()
			if f.Name() != "" {
				align = max(align, a)
			}
			if union {
				size = max(size, (w+7)/8)
				continue
			}
			if w == 0 {
				bit = roundUp(bit, 8*a)
				continue
			}
			if start := bit / (8 * a) * (8 * a); bit+w > start+8*s {
				bit = roundUp(bit, 8*a)
			}
			bit += w
			continue
		}
		align = max(align, a)
		if union {
			size = max(size, s)
			continue
		}
		bit = roundUp(bit, 8*a)
		if off := bit / 8; off != f.Offset() {
			return fmt.Sprintf("member %s at byte %d, gcc's at %d", f.Name(), f.Offset(), off)
		}
		if !f.IsFlexibleArrayMember() {
			bit += 8 * s
		}
	}
	if !union {
		size = (bit + 7) / 8
	}
	size = roundUp(size, align)
	if size != t.Size() || align != int64(t.Align()) {
		return fmt.Sprintf("size %d and alignment %d, gcc's %d and %d", t.Size(), t.Align(), size, align)
	}
	return ""
}

// checkBitfields rejects a struct or union with bit-fields whose layout by
// the C parser is not gcc's (bitfieldLayout).
func (l *lowerer) checkBitfields(n cc.Node, t cc.Type, nf int, field func(int) *cc.Field, kind program.Kind, name string) {
	for i := 0; i < nf; i++ {
		if field(i).IsBitfield() {
			if d := bitfieldLayout(t, nf, field, kind == program.Union); d != "" {
				l.fail(n, "%s %s has bit-fields that the C parser lays out otherwise than gcc (%s): its sizeof and offsets would not be the compiled program's", strings.ToLower(kindName(kind)), name, d)
			}
			return
		}
	}
}

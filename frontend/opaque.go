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

package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Reserved struct tags of the embedded pthread.h.
const (
	mutexTag = "__cegpv_pthread_mutex"
	condTag  = "__cegpv_pthread_cond"
)

var pthreadTTypes = map[program.DataModel]*program.Type{
	program.ILP32: {Kind: program.Int, Size: 4, Signed: false, Name: "pthread_t"},
	program.LP64:  {Kind: program.Int, Size: 8, Signed: false, Name: "pthread_t"},
}

// structKey identifies one C struct or union definition across the copies
// cc makes of its type.
type structKey struct {
	field *cc.Field
	tag   string
	scope *cc.Scope
}

func keyOf(t cc.Type) structKey {
	var nf int
	var f0 *cc.Field
	var tag string
	var scope *cc.Scope
	switch t := t.(type) {
	case *cc.StructType:
		tk := t.Tag()
		nf, tag, scope = t.NumFields(), tk.SrcStr(), t.LexicalScope()
		if nf > 0 {
			f0 = t.FieldByIndex(0)
		}
	case *cc.UnionType:
		tk := t.Tag()
		nf, tag, scope = t.NumFields(), tk.SrcStr(), t.LexicalScope()
		if nf > 0 {
			f0 = t.FieldByIndex(0)
		}
	}
	if f0 != nil {
		return structKey{field: f0}
	}
	return structKey{tag: tag, scope: scope}
}

// typedefName returns the names of the typedefs t was declared through,
// outermost first.
func typedefNames(t cc.Type) []string {
	var out []string
	for i := 0; i < 8 && t != nil; i++ {
		d := t.Typedef()
		if d == nil {
			break
		}
		out = append(out, d.Name())
		u := d.Type()
		if u == nil || u == t || (u.Typedef() != nil && u.Typedef() == d) {
			break
		}
		t = u
	}
	return out
}

// typ converts a C type.
func (l *lowerer) typ(n cc.Node, t cc.Type) *program.Type {
	if t == nil {
		l.fail(n, "expression without type")
	}
	for _, name := range typedefNames(t) {
		if pt := l.pthreadTypedef(name, t); pt != nil {
			return pt
		}
		switch name {
		case "pthread_mutex_t":
			return program.SyncType(program.Mutex, t.Size(), int64(t.Align()))
		case "pthread_cond_t":
			return program.SyncType(program.Cond, t.Size(), int64(t.Align()))
		case "pthread_t":
			return pthreadTTypes[l.model]
		}
	}
	switch t.Kind() {
	case cc.Void:
		return program.VoidType
	case cc.Bool:
		return program.BoolType
	case cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt,
		cc.Long, cc.ULong, cc.LongLong, cc.ULongLong:
		return program.IntType(t.Size(), cc.IsSignedInteger(t))
	case cc.Enum:
		return l.enumType(n, t.(*cc.EnumType))
	case cc.Ptr:
		return program.PointerTo(l.typ(n, t.(*cc.PointerType).Elem()), l.model.PtrSize())
	case cc.Array:
		at := t.(*cc.ArrayType)
		if at.IsVLA() {
			l.fail(n, "variable-length array")
		}
		ln := at.Len()
		if ln < 0 {
			ln = 0
		}
		return program.ArrayOf(l.typ(n, at.Elem()), ln)
	case cc.Struct, cc.Union:
		return l.structType(n, t)
	case cc.Function:
		ft := t.(*cc.FunctionType)
		r := &program.Type{Kind: program.Function, Size: 1, Elem: l.typ(n, ft.Result()), Variadic: ft.IsVariadic()}
		for _, p := range ft.Parameters() {
			pt := p.Type()
			if pt.Kind() == cc.Void {
				continue
			}
			r.Params = append(r.Params, l.typ(n, pt.Decay()))
		}
		return r
	case cc.Float, cc.Double, cc.LongDouble, cc.Float16, cc.Float32, cc.Float64, cc.Float128,
		cc.Float32x, cc.Float64x, cc.Float128x, cc.BFloat16, cc.Decimal32, cc.Decimal64, cc.Decimal128:
		l.fail(n, "floating-point type %s", t)
	case cc.Int128, cc.UInt128:
		l.fail(n, "128-bit integer type %s", t)
	}
	if cc.IsComplexType(t) {
		l.fail(n, "complex type %s", t)
	}
	l.fail(n, "type %s", t)
	return nil
}

func (l *lowerer) structType(n cc.Node, t cc.Type) *program.Type {
	k := keyOf(t)
	if pt := l.structs[k]; pt != nil {
		return pt
	}
	var tag string
	var nf int
	var field func(int) *cc.Field
	kind := program.Struct
	switch st := t.(type) {
	case *cc.StructType:
		tk := st.Tag()
		tag, nf, field = tk.SrcStr(), st.NumFields(), st.FieldByIndex
	case *cc.UnionType:
		tk := st.Tag()
		tag, nf, field = tk.SrcStr(), st.NumFields(), st.FieldByIndex
		kind = program.Union
	}
	switch tag {
	case mutexTag:
		return program.SyncType(program.Mutex, t.Size(), int64(t.Align()))
	case condTag:
		return program.SyncType(program.Cond, t.Size(), int64(t.Align()))
	}
	name := tag
	if name == "" {
		l.anon++
		name = fmt.Sprintf("__anon%d", l.anon)
	}
	for base, i := name, 2; l.tags[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	l.tags[name] = true
	pt := &program.Type{Kind: kind, Name: name, Size: t.Size(), Align: int64(t.Align())}
	if pt.Size < 0 {
		pt.Size = 0
	}
	l.structs[k] = pt
	l.structOrder = append(l.structOrder, pt)
	l.checkBitfields(n, t, nf, field, kind, name) // opaque.go
	for i := 0; i < nf; i++ {
		f := field(i)
		if opaqueWhy(f) != "" { // bit-fields, floating point: opaque.go
			last, m, ok := l.opaqueRun(pt, field, nf, i, pt.Size)
			if ok {
				pt.Fields = append(pt.Fields, m)
			}
			i = last
			continue
		}
		fname := f.Name()
		if fname == "" {
			if k := f.Type().Kind(); k != cc.Struct && k != cc.Union {
				l.fail(n, "unnamed member of type %s in %s %s", f.Type(), strings.ToLower(kindName(kind)), name)
			}
			fname = anonMemberName(i) // anon.go
		}
		pt.Fields = append(pt.Fields, program.Field{Name: fname, Type: l.typ(n, f.Type()), Offset: f.Offset()})
	}
	program.ChooseStorage(pt)
	return pt
}

func kindName(k program.Kind) string {
	if k == program.Union {
		return "Union"
	}
	return "Struct"
}

// orderTypes returns the struct and union types in an order where each only
// needs earlier ones by value.
func orderTypes(ts []*program.Type) []*program.Type {
	var out []*program.Type
	done := map[*program.Type]int{}
	var visit func(t *program.Type)
	var dep func(t *program.Type)
	dep = func(t *program.Type) {
		switch t.Kind {
		case program.Array:
			dep(t.Elem)
		case program.Struct, program.Union:
			visit(t)
		}
	}
	visit = func(t *program.Type) {
		if done[t] != 0 {
			return
		}
		done[t] = 1
		for _, f := range t.Fields {
			dep(f.Type)
		}
		done[t] = 2
		out = append(out, t)
	}
	for _, t := range ts {
		visit(t)
	}
	return out
}

// Type helpers.

func (l *lowerer) ptrTo(t *program.Type) *program.Type {
	return program.PointerTo(t, l.model.PtrSize())
}

func (l *lowerer) voidPtr() *program.Type { return l.ptrTo(program.VoidType) }

func (l *lowerer) sizeT() *program.Type { return program.IntType(l.model.PtrSize(), false) }

func (l *lowerer) ptrdiffT() *program.Type { return program.IntType(l.model.PtrSize(), true) }

// promote applies the integer promotions to an integer type.
func promote(t *program.Type) *program.Type {
	if t.Kind == program.Bool || (t.Kind == program.Int && t.Size < 4) {
		return program.IntT
	}
	if t.Kind == program.Int && t.Name != "" {
		return program.IntType(t.Size, t.Signed)
	}
	return t
}

// arith returns the type of the usual arithmetic conversions of a and b.
func arith(a, b *program.Type) *program.Type {
	a, b = promote(a), promote(b)
	if program.Identical(a, b) {
		return a
	}
	if a.Signed == b.Signed {
		if a.Size >= b.Size {
			return a
		}
		return b
	}
	u, s := a, b
	if a.Signed {
		u, s = b, a
	}
	if u.Size >= s.Size {
		return u
	}
	return s
}

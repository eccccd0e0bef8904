package program

import (
	"fmt"
	"strings"
	"sync"
)

// Kind classifies a Type.
type Kind uint8

const (
	Void     Kind = iota
	Bool          // _Bool, one byte, values 0 and 1
	Int           // integer types, enums and char; Size and Signed apply
	Pointer       // Elem is the pointee
	Array         // Elem, Len
	Struct        // Fields, Tag
	Union         // Fields, Tag; stored in the cells of one member (Store), or a cell per member
	Function      // function type: Elem is the result, Params the parameters
	Mutex         // pthread_mutex_t: one cell, 0 = free, 1 = held
	Cond          // pthread_cond_t: one cell, no state (waits may wake spuriously)
)

// Type is a C type. Types are immutable after construction and shared;
// compare them with Identical, not ==, except for Struct and Union, which
// have one *Type per definition.
type Type struct {
	Kind   Kind
	Size   int64 // sizeof in bytes under the program's data model
	Align  int64 // alignment in bytes as gcc gives it (0: Alignment's natural rule)
	Signed bool  // Int: signedness
	Name   string
	// Name: for Int, the typedef the program used when it matters for
	// printing ("pthread_t"); for Struct/Union, the tag (unique in the program).
	Elem   *Type   // Pointer, Array, Func (result)
	Len    int64   // Array
	Fields []Field // Struct, Union
	// Store, for a union: 1 + the index of the member whose cells hold
	// the union's bytes (every other member's scalars land on them as
	// whole cells or as bytes of integer cells, so punning between the
	// members is exact: Storage); 0 when there is no such member, and
	// each member has cells of its own (the front end then rejects a
	// read through another member than the one written).
	Store    int
	Params   []*Type // Func
	Variadic bool    // Func
}

// Field is a member of a struct or union.
type Field struct {
	Name   string
	Type   *Type
	Offset int64 // byte offset within the struct (0 in a union), as gcc lays it out
}

var (
	VoidType   = &Type{Kind: Void, Size: 1}
	BoolType   = &Type{Kind: Bool, Size: 1}
	MutexType  = &Type{Kind: Mutex, Size: 4, Name: "pthread_mutex_t"} // Size: the front end gives the header's (MutexOfSize)
	CondType   = &Type{Kind: Cond, Size: 4, Name: "pthread_cond_t"}
	CharType   = IntType(1, true)
	UCharType  = IntType(1, false)
	ShortType  = IntType(2, true)
	UShortType = IntType(2, false)
	IntT       = IntType(4, true)
	UIntType   = IntType(4, false)
	LLongType  = IntType(8, true)
	ULLongType = IntType(8, false)
)

var intTypes = map[[2]int64]*Type{}

// IntType returns the canonical integer type of the given byte size and signedness.
func IntType(size int64, signed bool) *Type {
	s := int64(0)
	if signed {
		s = 1
	}
	k := [2]int64{size, s}
	if t, ok := intTypes[k]; ok {
		return t
	}
	t := &Type{Kind: Int, Size: size, Signed: signed}
	intTypes[k] = t
	return t
}

// PointerTo returns a pointer type to elem with the given pointer size.
func PointerTo(elem *Type, ptrSize int64) *Type {
	return &Type{Kind: Pointer, Size: ptrSize, Elem: elem}
}

// ArrayOf returns the array type elem[n].
func ArrayOf(elem *Type, n int64) *Type {
	return &Type{Kind: Array, Size: elem.Size * n, Elem: elem, Len: n}
}

// IsScalar reports whether values of t occupy one cell.
func (t *Type) IsScalar() bool {
	switch t.Kind {
	case Bool, Int, Pointer, Mutex, Cond, Function:
		return true
	}
	return false
}

// IsInteger reports whether t is an integer or _Bool type.
func (t *Type) IsInteger() bool { return t.Kind == Int || t.Kind == Bool }

// Bits returns the width in bits of a scalar type's values. Pointers are
// modelled with the width of their size; Mutex and Cond cells are ints
// (the lock word), whatever the size of the C type.
func (t *Type) Bits() int {
	switch t.Kind {
	case Bool:
		return 1
	case Mutex, Cond:
		return 32
	}
	return int(t.Size) * 8
}

var (
	syncMu    sync.Mutex
	syncTypes = map[[2]int64]*Type{}
)

// SyncType returns the Mutex or Cond type of the given size and alignment
// (the C header's: 24 bytes for glibc's pthread_mutex_t on i386, 40 on
// x86-64), one value of Bits 32 in the model.
func SyncType(kind Kind, size, align int64) *Type {
	base := MutexType
	if kind == Cond {
		base = CondType
	}
	if size == base.Size && (align == 0 || align == base.Size) {
		return base
	}
	k := [2]int64{int64(kind)<<32 | size, align}
	syncMu.Lock()
	defer syncMu.Unlock()
	if t, ok := syncTypes[k]; ok {
		return t
	}
	t := &Type{Kind: kind, Size: size, Align: align, Name: base.Name}
	syncTypes[k] = t
	return t
}

// Cells returns the number of scalar cells an object of type t occupies.
func (t *Type) Cells() int64 {
	switch t.Kind {
	case Array:
		return t.Len * t.Elem.Cells()
	case Struct, Union:
		var n int64
		for _, f := range t.cellFields() {
			n += f.Type.Cells()
		}
		return n
	case Void:
		return 0
	}
	return 1
}

// cellFields returns the fields that have cells: a union stored in one
// member (Store) has that member's only; otherwise every field.
func (t *Type) cellFields() []Field {
	if t.Kind == Union && t.Store > 0 {
		return t.Fields[t.Store-1 : t.Store]
	}
	return t.Fields
}

// FieldIndex returns the index of the named field, or -1.
func (t *Type) FieldIndex(name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// FieldCell returns the cell offset of field i within a struct or union.
func (t *Type) FieldCell(i int) int64 {
	if t.Kind == Union && t.Store > 0 {
		return 0 // every member's bytes are the storage member's
	}
	var n int64
	for _, f := range t.Fields[:i] {
		n += f.Type.Cells()
	}
	return n
}

// CellType returns the scalar type of cell c of an object of type t.
func (t *Type) CellType(c int64) *Type {
	switch t.Kind {
	case Array:
		ec := t.Elem.Cells()
		if ec == 0 {
			return VoidType
		}
		return t.Elem.CellType(c % ec)
	case Struct, Union:
		for _, f := range t.cellFields() {
			n := f.Type.Cells()
			if c < n {
				return f.Type.CellType(c)
			}
			c -= n
		}
		return VoidType
	}
	return t
}

// CellPath returns the C access path of cell c of an object of type t, such
// as "[2].next" (empty for a scalar). Together with the object's name it
// names a location in Step.Assigned.
func (t *Type) CellPath(c int64) string {
	switch t.Kind {
	case Array:
		ec := t.Elem.Cells()
		if ec == 0 {
			return ""
		}
		return fmt.Sprintf("[%d]", c/ec) + t.Elem.CellPath(c%ec)
	case Struct, Union:
		for _, f := range t.cellFields() {
			n := f.Type.Cells()
			if c < n {
				return "." + f.Name + f.Type.CellPath(c)
			}
			c -= n
		}
	}
	return ""
}

// Identical reports whether a and b denote the same type.
func Identical(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Void, Bool, Mutex, Cond:
		return true
	case Int:
		return a.Size == b.Size && a.Signed == b.Signed
	case Pointer:
		return a.Size == b.Size && Identical(a.Elem, b.Elem)
	case Array:
		return a.Len == b.Len && Identical(a.Elem, b.Elem)
	case Struct, Union:
		return a.Name != "" && a.Name == b.Name
	case Function:
		if !Identical(a.Elem, b.Elem) || len(a.Params) != len(b.Params) || a.Variadic != b.Variadic {
			return false
		}
		for i := range a.Params {
			if !Identical(a.Params[i], b.Params[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// String returns the type in C syntax with no declarator, e.g. "int *" or
// "struct node".
func (t *Type) String() string { return TypeDecl(t, "") }

// TypeDecl returns a C declaration of name with type t, such as
// "int (*f)(void *)" or "unsigned char buf[8]". With name empty it returns an
// abstract declarator (a type name usable in casts).
func TypeDecl(t *Type, name string) string {
	base, decl := declParts(t, name)
	if decl == "" {
		return base
	}
	if strings.HasPrefix(decl, "*") && strings.HasSuffix(base, "*") {
		return base + decl
	}
	return base + " " + decl
}

func declParts(t *Type, inner string) (base, decl string) {
	switch t.Kind {
	case Pointer:
		d := "*" + inner
		if t.Elem.Kind == Array || t.Elem.Kind == Function {
			d = "(" + d + ")"
		}
		return declParts(t.Elem, d)
	case Array:
		return declParts(t.Elem, fmt.Sprintf("%s[%d]", inner, t.Len))
	case Function:
		var ps []string
		for _, p := range t.Params {
			ps = append(ps, TypeDecl(p, ""))
		}
		if t.Variadic {
			ps = append(ps, "...")
		}
		if len(ps) == 0 {
			ps = []string{"void"}
		}
		return declParts(t.Elem, inner+"("+strings.Join(ps, ", ")+")")
	}
	return baseName(t), inner
}

func baseName(t *Type) string {
	switch t.Kind {
	case Void:
		return "void"
	case Bool:
		return "_Bool"
	case Mutex:
		return "pthread_mutex_t"
	case Cond:
		return "pthread_cond_t"
	case Struct:
		return "struct " + t.Name
	case Union:
		return "union " + t.Name
	case Int:
		if t.Name != "" {
			return t.Name
		}
		var n string
		switch t.Size {
		case 1:
			n = "char"
			if t.Signed {
				return "signed char"
			}
		case 2:
			n = "short"
		case 4:
			n = "int"
		case 8:
			n = "long long"
		default:
			n = fmt.Sprintf("__int%d", t.Size*8)
		}
		if !t.Signed {
			return "unsigned " + n
		}
		return n
	}
	return "?"
}

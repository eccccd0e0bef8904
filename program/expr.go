package program

// Expr is a typed, pure C expression. Expressions are immutable: a
// translation that changes one builds a new node. They may be shared between
// programs.
type Expr interface {
	Type() *Type
	isExpr()
}

// Const is an integer, _Bool or null-pointer constant. V holds the value as
// a two's-complement bit pattern truncated to the type's width, stored
// sign-extended for signed types (so -1 of type int is V == -1).
type Const struct {
	T *Type
	V int64
}

// Ref is a variable used as an lvalue or value. Local is true for the
// parameters and locals of the enclosing function.
type Ref struct {
	Name  string
	Local bool
	T     *Type
}

// FuncRef designates a function; its type is the function type. Used as the
// callee of Call and Spawn, and as a function-pointer value.
type FuncRef struct {
	Name string
	T    *Type
}

// UnOp is a unary operator.
type UnOp uint8

const (
	Neg    UnOp = iota // -x
	Not                // !x, result type int
	BitNot             // ~x
)

// BinOp is a binary operator.
type BinOp uint8

const (
	Add BinOp = iota // also pointer + integer (X pointer, Y integer)
	Sub              // also pointer - integer; pointer - pointer has an integer T
	Mul
	Div
	Rem
	Shl
	Shr // arithmetic for signed X, logical for unsigned
	And
	Or
	Xor
	Eq // comparisons have result type int
	Ne
	Lt
	Le
	Gt
	Ge
	LAnd // && and || of pure operands: evaluating both sides is harmless
	LOr
)

// Unary is a unary operation.
type Unary struct {
	Op UnOp
	X  Expr
	T  *Type
}

// Binary is a binary operation.
type Binary struct {
	Op   BinOp
	X, Y Expr
	T    *Type
}

// CondExpr is c ? x : y with pure operands.
type CondExpr struct {
	C, X, Y Expr
	T       *Type
}

// Cast converts X to T.
type Cast struct {
	X Expr
	T *Type
}

// Index is the array element X[I]; X has array type (pointer indexing is
// Deref of pointer arithmetic).
type Index struct {
	X, I Expr
	T    *Type
}

// FieldSel is the member X.Name of a struct or union; Field is its index.
type FieldSel struct {
	X     Expr
	Name  string
	Field int
	T     *Type
}

// Deref is *X.
type Deref struct {
	X Expr
	T *Type
}

// AddrOf is &X of an lvalue X.
type AddrOf struct {
	X Expr
	T *Type
}

// Nondet is any value of type T (the paper's *).
//
// Origin says where the value comes from. "" is a genuine nondeterministic
// input (__VERIFIER_nondet_*, rand, a slicing abstraction, ...): every value
// of T is possible in a real run. Otherwise it is the name of an external
// function without a body whose result (or effect) the model
// over-approximates: the real function returns some value of T, not
// necessarily every one, so a run that depends on the value drawn may not be
// a run of the real program. Origin is not printed by Print or ExprString
// (Show mentions it); translations that copy nodes keep it.
type Nondet struct {
	T      *Type
	Origin string
}

// ThreadID is the id of the thread that evaluates it (pthread_self()):
// 0 in main, k in the thread that the k-th Spawn of the run created, the
// value Spawn stores in its handle. T is an integer type (pthread_t's).
// It is the one expression whose value depends on the executing thread:
// thread symmetry reductions do not apply to a program that has one
// (HasThreadID).
type ThreadID struct {
	T *Type
}

// Compound is a brace initializer of a global: the elements of an array or
// the fields of a struct in order; missing trailing elements are zero. For a
// union only the first field is initialised.
type Compound struct {
	T     *Type
	Elems []Expr
}

func (e *Const) Type() *Type    { return e.T }
func (e *Ref) Type() *Type      { return e.T }
func (e *FuncRef) Type() *Type  { return e.T }
func (e *Unary) Type() *Type    { return e.T }
func (e *Binary) Type() *Type   { return e.T }
func (e *CondExpr) Type() *Type { return e.T }
func (e *Cast) Type() *Type     { return e.T }
func (e *Index) Type() *Type    { return e.T }
func (e *FieldSel) Type() *Type { return e.T }
func (e *Deref) Type() *Type    { return e.T }
func (e *AddrOf) Type() *Type   { return e.T }
func (e *Nondet) Type() *Type   { return e.T }
func (e *ThreadID) Type() *Type { return e.T }
func (e *Compound) Type() *Type { return e.T }

func (*Const) isExpr()    {}
func (*Ref) isExpr()      {}
func (*FuncRef) isExpr()  {}
func (*Unary) isExpr()    {}
func (*Binary) isExpr()   {}
func (*CondExpr) isExpr() {}
func (*Cast) isExpr()     {}
func (*Index) isExpr()    {}
func (*FieldSel) isExpr() {}
func (*Deref) isExpr()    {}
func (*AddrOf) isExpr()   {}
func (*Nondet) isExpr()   {}
func (*ThreadID) isExpr() {}
func (*Compound) isExpr() {}

// IsLValue reports whether e designates a memory location.
func IsLValue(e Expr) bool {
	switch e := e.(type) {
	case *Ref, *Deref:
		return true
	case *Index:
		return IsLValue(e.X)
	case *FieldSel:
		return IsLValue(e.X)
	}
	return false
}

// Walk calls f for e and then for each subexpression, in pre-order, left to
// right. This is also the order in which the Nondet values of an expression
// are drawn. If f returns false the children of that node are skipped.
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Unary:
		Walk(e.X, f)
	case *Binary:
		Walk(e.X, f)
		Walk(e.Y, f)
	case *CondExpr:
		Walk(e.C, f)
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Cast:
		Walk(e.X, f)
	case *Index:
		Walk(e.X, f)
		Walk(e.I, f)
	case *FieldSel:
		Walk(e.X, f)
	case *Deref:
		Walk(e.X, f)
	case *AddrOf:
		Walk(e.X, f)
	case *Compound:
		for _, x := range e.Elems {
			Walk(x, f)
		}
	}
}

// Rewrite returns e with every subexpression replaced bottom-up by f(sub).
// f receives nodes whose children are already rewritten and returns the
// replacement (or its argument unchanged). e itself is never modified.
func Rewrite(e Expr, f func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	switch x := e.(type) {
	case *Unary:
		if c := Rewrite(x.X, f); c != x.X {
			e = &Unary{Op: x.Op, X: c, T: x.T}
		}
	case *Binary:
		a, b := Rewrite(x.X, f), Rewrite(x.Y, f)
		if a != x.X || b != x.Y {
			e = &Binary{Op: x.Op, X: a, Y: b, T: x.T}
		}
	case *CondExpr:
		c, a, b := Rewrite(x.C, f), Rewrite(x.X, f), Rewrite(x.Y, f)
		if c != x.C || a != x.X || b != x.Y {
			e = &CondExpr{C: c, X: a, Y: b, T: x.T}
		}
	case *Cast:
		if c := Rewrite(x.X, f); c != x.X {
			e = &Cast{X: c, T: x.T}
		}
	case *Index:
		a, i := Rewrite(x.X, f), Rewrite(x.I, f)
		if a != x.X || i != x.I {
			e = &Index{X: a, I: i, T: x.T}
		}
	case *FieldSel:
		if c := Rewrite(x.X, f); c != x.X {
			e = &FieldSel{X: c, Name: x.Name, Field: x.Field, T: x.T}
		}
	case *Deref:
		if c := Rewrite(x.X, f); c != x.X {
			e = &Deref{X: c, T: x.T}
		}
	case *AddrOf:
		if c := Rewrite(x.X, f); c != x.X {
			e = &AddrOf{X: c, T: x.T}
		}
	case *Compound:
		var elems []Expr
		for i, el := range x.Elems {
			n := Rewrite(el, f)
			if n != el && elems == nil {
				elems = append([]Expr(nil), x.Elems...)
			}
			if elems != nil {
				elems[i] = n
			}
		}
		if elems != nil {
			e = &Compound{T: x.T, Elems: elems}
		}
	}
	return f(e)
}

// Refs returns the names of the variables e mentions (Ref nodes), in
// pre-order, without duplicates.
func Refs(e Expr) []*Ref {
	var out []*Ref
	seen := map[string]bool{}
	Walk(e, func(x Expr) bool {
		if r, ok := x.(*Ref); ok && !seen[r.Name] {
			seen[r.Name] = true
			out = append(out, r)
		}
		return true
	})
	return out
}

// HasNondet reports whether e contains a Nondet.
func HasNondet(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if _, ok := x.(*Nondet); ok {
			found = true
		}
		return !found
	})
	return found
}

// HasThreadID reports whether some instruction of p evaluates a ThreadID.
func HasThreadID(p *Program) bool {
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			for _, e := range in.Operands() {
				found := false
				Walk(e, func(x Expr) bool {
					if _, ok := x.(*ThreadID); ok {
						found = true
					}
					return !found
				})
				if found {
					return true
				}
			}
		}
	}
	return false
}

// Opaque returns the Origins of the opaque Nondet nodes of e (those with
// Origin != ""), in pre-order, without duplicates.
func Opaque(e Expr) []string {
	var out []string
	Walk(e, func(x Expr) bool {
		if nd, ok := x.(*Nondet); ok && nd.Origin != "" {
			for _, o := range out {
				if o == nd.Origin {
					return true
				}
			}
			out = append(out, nd.Origin)
		}
		return true
	})
	return out
}

// IntConst returns a constant of integer type t holding v, normalised to t's width.
func IntConst(t *Type, v int64) *Const { return &Const{T: t, V: Normalize(t, v)} }

// True and False are int constants 1 and 0.
var (
	True  = &Const{T: IntT, V: 1}
	False = &Const{T: IntT, V: 0}
)

// Normalize truncates v to the width of scalar type t and sign- or
// zero-extends it back to 64 bits according to t's signedness.
func Normalize(t *Type, v int64) int64 {
	bits := t.Bits()
	if t.Kind == Pointer || bits >= 64 {
		return v
	}
	if t.Kind == Bool {
		if v != 0 {
			return 1
		}
		return 0
	}
	shift := 64 - uint(bits)
	if t.Kind == Int && t.Signed {
		return (v << shift) >> shift
	}
	return int64(uint64(v) << shift >> shift)
}

// BaseRef returns the variable an lvalue designates (part of), through
// array indexing and field selection, or nil when x is not such an lvalue
// (a dereference, say).
func BaseRef(x Expr) *Ref {
	for {
		switch y := x.(type) {
		case *Ref:
			return y
		case *Index:
			x = y.X
		case *FieldSel:
			x = y.X
		default:
			return nil
		}
	}
}

// StripCasts returns e without the casts around it.
func StripCasts(e Expr) Expr {
	for {
		c, ok := e.(*Cast)
		if !ok {
			return e
		}
		e = c.X
	}
}

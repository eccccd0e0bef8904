package program

// Integer arithmetic of the model (doc.go, Semantics): the value of an
// operation on integer operands already normalised to their type, in one
// place for the front end's folding of constants, the interpreter and the
// overflow checks.

// IntBinary returns a op b for integer or _Bool operands (uns: they are
// unsigned) with result type t; op is not a pointer operation.
func IntBinary(op BinOp, t *Type, a, b int64, uns bool) int64 {
	var v int64
	switch op {
	case Add:
		v = a + b
	case Sub:
		v = a - b
	case Mul:
		v = a * b
	case Div, Rem:
		v = DivRem(op, a, b, uns)
	case Shl, Shr:
		v = Shift(op, t, a, b)
	case And:
		v = a & b
	case Or:
		v = a | b
	case Xor:
		v = a ^ b
	case Eq, Ne, Lt, Le, Gt, Ge:
		v = boolInt(Compare(op, a, b, uns))
	case LAnd:
		v = boolInt(a != 0 && b != 0)
	case LOr:
		v = boolInt(a != 0 || b != 0)
	}
	return Normalize(t, v)
}

// IntUnary returns op a for an integer operand, with result type t.
func IntUnary(op UnOp, t *Type, a int64) int64 {
	switch op {
	case Neg:
		return Normalize(t, -a)
	case BitNot:
		return Normalize(t, ^a)
	}
	return boolInt(a == 0)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Unsigned reports whether values of t compare and divide as unsigned:
// _Bool, unsigned integers and pointers.
func Unsigned(t *Type) bool {
	return t.Kind == Bool || (t.Kind == Int && !t.Signed) || t.Kind == Pointer
}

// DivRem implements bvudiv/bvurem and bvsdiv/bvsrem on normalised operands:
// x/0 is all ones (unsigned) or -1/1 (signed, by the dividend's sign), x%0
// is x.
func DivRem(op BinOp, a, b int64, uns bool) int64 {
	if b == 0 {
		if op == Rem {
			return a
		}
		if uns || a >= 0 {
			return -1
		}
		return 1
	}
	if uns {
		if op == Div {
			return int64(uint64(a) / uint64(b))
		}
		return int64(uint64(a) % uint64(b))
	}
	if op == Div {
		return a / b // Go: MinInt64 / -1 == MinInt64, as in two's complement
	}
	return a % b
}

// Shift implements <<, and >> (arithmetic for signed, logical for unsigned
// left operands of type t); amounts that are negative or >= the width give
// 0 or the sign fill.
func Shift(op BinOp, t *Type, a, b int64) int64 {
	w := int64(t.Bits())
	big := b < 0 || b >= w
	if op == Shl {
		if big {
			return 0
		}
		return a << uint(b)
	}
	signed := t.Kind == Int && t.Signed
	if big {
		if signed && a < 0 {
			return -1
		}
		return 0
	}
	if signed {
		return a >> uint(b)
	}
	// a is zero-extended (or the full 64-bit pattern)
	return int64(uint64(a) >> uint(b))
}

// Compare implements the comparison op, unsigned when uns.
func Compare(op BinOp, a, b int64, uns bool) bool {
	var lt, eq bool
	if uns {
		lt, eq = uint64(a) < uint64(b), a == b
	} else {
		lt, eq = a < b, a == b
	}
	switch op {
	case Eq:
		return eq
	case Ne:
		return !eq
	case Lt:
		return lt
	case Le:
		return lt || eq
	case Gt:
		return !lt && !eq
	case Ge:
		return !lt
	}
	return false
}

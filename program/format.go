package program

import (
	"fmt"
	"strconv"
	"strings"
)

// ExprString returns e as a C expression. The result is valid C in the
// SV-COMP dialect: Nondet prints as a __VERIFIER_nondet_* call, constants
// carry the suffix or cast that gives them their type.
func ExprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, precLowest)
	return b.String()
}

const (
	precLowest = iota
	precCond
	precLOr
	precLAnd
	precOr
	precXor
	precAnd
	precEq
	precRel
	precShift
	precAdd
	precMul
	precUnary
	precPostfix
	precPrimary
)

var binInfo = [...]struct {
	sym  string
	prec int
}{
	Add: {"+", precAdd}, Sub: {"-", precAdd}, Mul: {"*", precMul}, Div: {"/", precMul}, Rem: {"%", precMul},
	Shl: {"<<", precShift}, Shr: {">>", precShift}, And: {"&", precAnd}, Or: {"|", precOr}, Xor: {"^", precXor},
	Eq: {"==", precEq}, Ne: {"!=", precEq}, Lt: {"<", precRel}, Le: {"<=", precRel}, Gt: {">", precRel}, Ge: {">=", precRel},
	LAnd: {"&&", precLAnd}, LOr: {"||", precLOr},
}

// BinOpString returns the C spelling of op.
func BinOpString(op BinOp) string { return binInfo[op].sym }

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		return binInfo[e.Op].prec
	case *CondExpr:
		return precCond
	case *Unary, *Cast, *Deref, *AddrOf:
		return precUnary
	case *Const:
		if e.T.Kind == Int && e.T.Signed && e.V < 0 || constNeedsCast(e.T) {
			return precUnary
		}
		return precPrimary
	case *Index, *FieldSel, *Nondet, *ThreadID:
		return precPostfix
	}
	return precPrimary
}

func writeExpr(b *strings.Builder, e Expr, prec int) {
	if exprPrec(e) < prec {
		b.WriteByte('(')
		writeExpr(b, e, precLowest)
		b.WriteByte(')')
		return
	}
	switch e := e.(type) {
	case *Const:
		b.WriteString(ConstString(e))
	case *Ref:
		b.WriteString(e.Name)
	case *FuncRef:
		b.WriteString(e.Name)
	case *Unary:
		b.WriteString([...]string{Neg: "-", Not: "!", BitNot: "~"}[e.Op])
		// avoid "- -x" and "--x"
		if u, ok := e.X.(*Unary); ok && u.Op == Neg && e.Op == Neg {
			b.WriteByte(' ')
		} else if c, ok := e.X.(*Const); ok && e.Op == Neg && c.V < 0 {
			b.WriteByte(' ')
		}
		writeExpr(b, e.X, precUnary)
	case *Binary:
		p := binInfo[e.Op].prec
		writeExpr(b, e.X, p)
		b.WriteString(" " + binInfo[e.Op].sym + " ")
		writeExpr(b, e.Y, p+1)
	case *CondExpr:
		writeExpr(b, e.C, precLOr)
		b.WriteString(" ? ")
		writeExpr(b, e.X, precLowest)
		b.WriteString(" : ")
		writeExpr(b, e.Y, precCond)
	case *Cast:
		b.WriteString("(" + TypeDecl(e.T, "") + ")")
		writeExpr(b, e.X, precUnary)
	case *Index:
		writeExpr(b, e.X, precPostfix)
		b.WriteByte('[')
		writeExpr(b, e.I, precLowest)
		b.WriteByte(']')
	case *FieldSel:
		if d, ok := e.X.(*Deref); ok {
			writeExpr(b, d.X, precPostfix)
			b.WriteString("->" + e.Name)
			return
		}
		writeExpr(b, e.X, precPostfix)
		b.WriteString("." + e.Name)
	case *Deref:
		b.WriteByte('*')
		writeExpr(b, e.X, precUnary)
	case *AddrOf:
		b.WriteByte('&')
		writeExpr(b, e.X, precUnary)
	case *Nondet:
		b.WriteString(NondetCall(e.T))
	case *ThreadID:
		b.WriteString("pthread_self()")
	case *Compound:
		b.WriteByte('{')
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x, precCond)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

func constNeedsCast(t *Type) bool {
	switch t.Kind {
	case Int:
		return t.Size < 4 || t.Name != ""
	case Bool, Pointer:
		return true
	}
	return false
}

// ConstString returns a C literal of c's type: 5, 5U, 5LL, 5ULL,
// (signed char)5, (_Bool)1, (int *)0; INT_MIN as (-2147483647 - 1).
func ConstString(c *Const) string {
	t := c.T
	switch t.Kind {
	case Bool:
		return "(_Bool)" + strconv.FormatInt(c.V, 10)
	case Pointer:
		if c.V == 0 {
			return "(" + TypeDecl(t, "") + ")0"
		}
		return "(" + TypeDecl(t, "") + ")" + strconv.FormatInt(c.V, 10)
	case Int:
		if t.Size < 4 || t.Name != "" {
			return "(" + TypeDecl(t, "") + ")" + intLiteral(c.V, IntType(4, true))
		}
		return intLiteral(c.V, t)
	}
	return strconv.FormatInt(c.V, 10)
}

func intLiteral(v int64, t *Type) string {
	suf := ""
	if t.Size == 8 {
		suf = "LL"
	}
	if !t.Signed {
		u := uint64(v)
		if t.Size == 4 {
			u = uint64(uint32(v))
		}
		return strconv.FormatUint(u, 10) + "U" + suf
	}
	min := int64(-1) << (t.Bits() - 1)
	if v == min {
		return fmt.Sprintf("(%d%s - 1)", v+1, suf)
	}
	return strconv.FormatInt(v, 10) + suf
}

// NondetCall returns the SV-COMP call producing a nondeterministic value of
// scalar type t, e.g. "__VERIFIER_nondet_int()" or
// "(struct node *)__VERIFIER_nondet_pointer()".
func NondetCall(t *Type) string {
	switch t.Kind {
	case Bool:
		return "__VERIFIER_nondet_bool()"
	case Pointer:
		return "(" + TypeDecl(t, "") + ")__VERIFIER_nondet_pointer()"
	case Int:
		n := map[int64]string{1: "char", 2: "short", 4: "int", 8: "longlong"}[t.Size]
		if n == "" {
			n = "int"
		}
		if !t.Signed {
			n = "u" + n
		}
		call := "__VERIFIER_nondet_" + n + "()"
		if t.Name != "" {
			call = "(" + t.Name + ")" + call
		}
		return call
	}
	// e.g. __VERIFIER_nondet_struct_node(): declared by Print with that return type
	return "__VERIFIER_nondet_" + strings.ReplaceAll(baseName(t), " ", "_") + "()"
}

// String returns the instruction as one line of readable goto-program text,
// without its label, for `cegpv show` and traces.
func (in *Instr) String() string {
	e := ExprString
	switch in.Op {
	case OpSkip:
		if in.Msg != "" {
			return "skip /* " + in.Msg + " */"
		}
		return "skip"
	case OpAssign:
		return e(in.Lhs) + " = " + e(in.Rhs)
	case OpAssume:
		return "assume(" + e(in.Rhs) + ")"
	case OpAssert:
		return "assert(" + e(in.Rhs) + ") [" + in.Prop + "]"
	case OpGoto:
		ts := make([]string, len(in.Targets))
		for i, t := range in.Targets {
			ts[i] = string(t)
		}
		g := "goto " + strings.Join(ts, " or ")
		if in.Rhs != nil {
			g = "if (" + e(in.Rhs) + ") " + g
		}
		return g
	case OpCall:
		s := callString(in.Func, in.Args)
		if in.Lhs != nil {
			s = e(in.Lhs) + " = " + s
		}
		return s
	case OpReturn:
		if in.Rhs == nil {
			return "return"
		}
		return "return " + e(in.Rhs)
	case OpSpawn:
		h := "_"
		if in.Lhs != nil {
			h = e(in.Lhs)
		}
		return h + " = spawn " + callString(in.Func, in.Args)
	case OpJoin:
		if in.Lhs != nil {
			return e(in.Lhs) + " = join " + e(in.Rhs)
		}
		return "join " + e(in.Rhs)
	case OpLock:
		return "lock " + e(in.Rhs)
	case OpUnlock:
		return "unlock " + e(in.Rhs)
	case OpAtomicBegin:
		return "atomic_begin"
	case OpAtomicEnd:
		return "atomic_end"
	case OpDecl:
		return "decl " + in.Var
	case OpAlloc:
		return e(in.Lhs) + " = alloc " + e(in.Rhs)
	case OpRealloc:
		return e(in.Lhs) + " = realloc " + e(in.Args[0]) + ", " + e(in.Rhs)
	case OpFree:
		return "free " + e(in.Rhs)
	case OpExit:
		if in.Rhs != nil {
			return "exit_thread " + e(in.Rhs)
		}
		return "exit_thread"
	}
	return in.Op.String()
}

func callString(f Expr, args []Expr) string {
	var b strings.Builder
	writeExpr(&b, f, precPostfix)
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(&b, a, precCond)
	}
	b.WriteByte(')')
	return b.String()
}

// CallString returns f(args) in C syntax.
func CallString(f Expr, args []Expr) string { return callString(f, args) }

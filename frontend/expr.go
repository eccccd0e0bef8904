package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// rval lowers n to a pure value; arrays decay to a pointer to their first
// element. Side effects are emitted as instructions first.
func (fl *funcLowerer) rval(n cc.ExpressionNode) program.Expr {
	e := fl.expr(n, true)
	if e == nil {
		fl.l.fail(n, "void value used")
	}
	return fl.decay(e)
}

// rvalTo lowers n and converts it to t as by assignment.
func (fl *funcLowerer) rvalTo(n cc.ExpressionNode, t *program.Type) program.Expr {
	if t.Kind == program.Pointer {
		if call := allocCall(fl, n); call != nil {
			r := fl.tmp(t)
			fl.alloc(call, r)
			return r
		}
	}
	return fl.convert(fl.rval(n), t, false)
}

// lval lowers n to an lvalue.
func (fl *funcLowerer) lval(n cc.ExpressionNode) program.Expr {
	e := fl.expr(n, true)
	if e == nil || !program.IsLValue(e) {
		fl.l.fail(n, "expression is not an lvalue")
	}
	return e
}

// cond lowers a controlling expression (any scalar).
func (fl *funcLowerer) cond(n cc.ExpressionNode) program.Expr {
	e := fl.rval(n)
	if !e.Type().IsScalar() {
		fl.l.fail(n, "condition of type %s", e.Type())
	}
	return e
}

// effect lowers n for its side effects only.
func (fl *funcLowerer) effect(n cc.ExpressionNode) { fl.expr(n, false) }

func (fl *funcLowerer) decay(e program.Expr) program.Expr {
	t := e.Type()
	if t.Kind == program.Array {
		fl.markAddr(e)
		return &program.AddrOf{X: &program.Index{X: e, I: program.IntConst(program.IntT, 0), T: t.Elem}, T: fl.l.ptrTo(t.Elem)}
	}
	return e
}

// markAddr records that the address of lv's object is taken.
func (fl *funcLowerer) markAddr(lv program.Expr) {
	for {
		switch x := lv.(type) {
		case *program.Ref:
			if x.Local {
				fl.addrTaken[x.Name] = true
			} else if v := fl.l.globals[x.Name]; v != nil && v.Name == x.Name {
				v.AddrTaken = true
			} else {
				for _, g := range fl.l.prog.Globals {
					if g.Name == x.Name {
						g.AddrTaken = true
					}
				}
			}
			return
		case *program.Index:
			lv = x.X
		case *program.FieldSel:
			lv = x.X
		default:
			return
		}
	}
}

// isShared reports whether the variable r is shared memory.
func (fl *funcLowerer) isShared(r *program.Ref) bool {
	return !r.Local || fl.knownAddr[r.Name] || fl.addrTaken[r.Name]
}

func intConstOf(fl *funcLowerer, n cc.ExpressionNode) (program.Expr, bool) {
	t := n.Type()
	if t == nil || !cc.IsIntegerType(t) {
		return nil, false
	}
	k, ok := fl.l.constInt(n)
	if !ok || !n.Pure() {
		return nil, false
	}
	return program.IntConst(fl.l.typ(n, t), k), true
}

// expr lowers n. With want false the value is not needed and may be nil.
func (fl *funcLowerer) expr(n cc.ExpressionNode, want bool) program.Expr {
	if n == nil {
		return nil
	}
	if c, ok := intConstOf(fl, n); ok {
		return c
	}
	switch x := n.(type) {
	case *cc.ExpressionList:
		var last program.Expr
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				last = fl.expr(l.AssignmentExpression, want)
			} else {
				fl.effect(l.AssignmentExpression)
			}
		}
		return last
	case *cc.ConstantExpression:
		return fl.expr(x.ConditionalExpression, want)
	case *cc.PrimaryExpression:
		return fl.primary(x, want)
	case *cc.PostfixExpression:
		return fl.postfix(x, want)
	case *cc.UnaryExpression:
		return fl.unary(x, want)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return fl.expr(x.UnaryExpression, want)
		}
		t := fl.l.typ(x, x.Type())
		if t.Kind == program.Void {
			fl.effect(x.CastExpression)
			return nil
		}
		if t.Kind == program.Pointer {
			if call := allocCall(fl, x.CastExpression); call != nil {
				r := fl.tmp(t)
				fl.alloc(call, r)
				return r
			}
			if fl.isAddrExpr(x.CastExpression) {
				return fl.addrCast(x, t)
			}
		}
		return fl.convert(fl.rval(x.CastExpression), t, true)
	case *cc.MultiplicativeExpression:
		ops := map[cc.MultiplicativeExpressionCase]program.BinOp{cc.MultiplicativeExpressionMul: program.Mul,
			cc.MultiplicativeExpressionDiv: program.Div, cc.MultiplicativeExpressionMod: program.Rem}
		if x.Case == cc.MultiplicativeExpressionCast {
			return fl.expr(x.CastExpression, want)
		}
		return fl.binary(x, ops[x.Case], fl.rval(x.MultiplicativeExpression), fl.rval(x.CastExpression))
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			return fl.expr(x.MultiplicativeExpression, want)
		}
		op := program.Add
		if x.Case == cc.AdditiveExpressionSub {
			op = program.Sub
		}
		return fl.binary(x, op, fl.rval(x.AdditiveExpression), fl.rval(x.MultiplicativeExpression))
	case *cc.ShiftExpression:
		if x.Case == cc.ShiftExpressionAdd {
			return fl.expr(x.AdditiveExpression, want)
		}
		op := program.Shl
		if x.Case == cc.ShiftExpressionRsh {
			op = program.Shr
		}
		return fl.binary(x, op, fl.rval(x.ShiftExpression), fl.rval(x.AdditiveExpression))
	case *cc.RelationalExpression:
		ops := map[cc.RelationalExpressionCase]program.BinOp{cc.RelationalExpressionLt: program.Lt,
			cc.RelationalExpressionGt: program.Gt, cc.RelationalExpressionLeq: program.Le, cc.RelationalExpressionGeq: program.Ge}
		if x.Case == cc.RelationalExpressionShift {
			return fl.expr(x.ShiftExpression, want)
		}
		return fl.binary(x, ops[x.Case], fl.rval(x.RelationalExpression), fl.rval(x.ShiftExpression))
	case *cc.EqualityExpression:
		if x.Case == cc.EqualityExpressionRel {
			return fl.expr(x.RelationalExpression, want)
		}
		op := program.Eq
		if x.Case == cc.EqualityExpressionNeq {
			op = program.Ne
		}
		return fl.binary(x, op, fl.rval(x.EqualityExpression), fl.rval(x.RelationalExpression))
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionEq {
			return fl.expr(x.EqualityExpression, want)
		}
		return fl.binary(x, program.And, fl.rval(x.AndExpression), fl.rval(x.EqualityExpression))
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionAnd {
			return fl.expr(x.AndExpression, want)
		}
		return fl.binary(x, program.Xor, fl.rval(x.ExclusiveOrExpression), fl.rval(x.AndExpression))
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionXor {
			return fl.expr(x.ExclusiveOrExpression, want)
		}
		return fl.binary(x, program.Or, fl.rval(x.InclusiveOrExpression), fl.rval(x.ExclusiveOrExpression))
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionOr {
			return fl.expr(x.InclusiveOrExpression, want)
		}
		return fl.logical(program.LAnd, x.LogicalAndExpression, x.InclusiveOrExpression, want)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLAnd {
			return fl.expr(x.LogicalAndExpression, want)
		}
		return fl.logical(program.LOr, x.LogicalOrExpression, x.LogicalAndExpression, want)
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionLOr {
			return fl.expr(x.LogicalOrExpression, want)
		}
		return fl.conditional(x, want)
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return fl.expr(x.ConditionalExpression, want)
		}
		return fl.assignment(x, want)
	}
	fl.l.fail(n, "expression %T", n)
	return nil
}

func (fl *funcLowerer) primary(x *cc.PrimaryExpression, want bool) program.Expr {
	switch x.Case {
	case cc.PrimaryExpressionIdent:
		return fl.ident(x)
	case cc.PrimaryExpressionInt, cc.PrimaryExpressionChar, cc.PrimaryExpressionLChar:
		k, ok := intValue(x.Value())
		if !ok {
			fl.l.fail(x, "constant %s", x.Token.SrcStr())
		}
		return program.IntConst(fl.l.typ(x, x.Type()), k)
	case cc.PrimaryExpressionFloat:
		fl.l.fail(x, "floating-point constant %s", x.Token.SrcStr())
	case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
		if !want {
			return nil
		}
		return fl.stringLiteral(x)
	case cc.PrimaryExpressionExpr:
		return fl.expr(x.ExpressionList, want)
	case cc.PrimaryExpressionStmt:
		fl.l.fail(x, "statement expression")
	case cc.PrimaryExpressionGeneric:
		fl.l.fail(x, "_Generic selection")
	}
	fl.l.fail(x, "primary expression")
	return nil
}

func (fl *funcLowerer) ident(x *cc.PrimaryExpression) program.Expr {
	name := x.Token.SrcStr()
	switch r := x.ResolvedTo().(type) {
	case *cc.Declarator:
		return fl.declRef(r, name, x)
	case *cc.Parameter:
		if v := fl.paramNames[name]; v != nil {
			return &program.Ref{Name: v.Name, Local: true, T: v.Type}
		}
	case *cc.Enumerator:
		k, ok := intValue(r.Value())
		et := fl.l.enums.of[r]
		if !ok || et == nil {
			fl.l.fail(x, "enumerator %s without value", name)
		}
		return program.IntConst(fl.l.enumeratorType(x, r, et), k)
	case nil:
		fl.l.fail(x, "undeclared identifier %s", name)
	}
	fl.l.fail(x, "identifier %s", name)
	return nil
}

func (fl *funcLowerer) declRef(d *cc.Declarator, name string, n cc.Node) program.Expr {
	if fl.l.isThreadLocalRef(d) {
		return fl.tlsRef(d, n)
	}
	if fl.ai != nil && fl.ai.set[d] {
		fl.l.fail(n, "integer address %s used outside an address computation", name)
	}
	if v := fl.vars[d]; v != nil {
		return &program.Ref{Name: v.Name, Local: true, T: v.Type}
	}
	if v := fl.l.staticVar(d); v != nil {
		return &program.Ref{Name: v.Name, T: v.Type}
	}
	if d.Type().Kind() == cc.Function {
		return fl.funcRef(name, n)
	}
	if d.IsParam() {
		if v := fl.paramNames[name]; v != nil {
			return &program.Ref{Name: v.Name, Local: true, T: v.Type}
		}
	}
	if v := fl.l.globals[name]; v != nil {
		return &program.Ref{Name: v.Name, T: v.Type}
	}
	if ed := fl.l.externs[name]; ed != nil {
		v := fl.l.global(ed, name, nil)
		return &program.Ref{Name: v.Name, T: v.Type}
	}
	fl.l.fail(n, "unresolved identifier %s", name)
	return nil
}

// funcRef designates a function: one with a body a run can call, or a
// stub of one no run calls (reach.go).
func (fl *funcLowerer) funcRef(name string, n cc.Node) program.Expr {
	fd := fl.l.defs[name]
	if fd == nil || !fl.l.reached.funcs[name] {
		return fl.l.stubRef(name, n)
	}
	t := fl.l.funcType(fd.Declarator, fd.Declarator.Type())
	if hs := fl.l.tlsParamTypes(name); len(hs) > 0 {
		c := *t
		c.Params = append(append([]*program.Type(nil), t.Params...), hs...)
		t = &c
	}
	return &program.FuncRef{Name: fl.l.funcNames[name], T: t}
}

func (fl *funcLowerer) postfix(x *cc.PostfixExpression, want bool) program.Expr {
	switch x.Case {
	case cc.PostfixExpressionPrimary:
		return fl.expr(x.PrimaryExpression, want)
	case cc.PostfixExpressionIndex:
		a := fl.expr(x.PostfixExpression, true)
		i := fl.rval(x.ExpressionList)
		if a.Type().IsInteger() {
			a, i = i, a
		} else {
			a = fl.decayNonArray(a)
		}
		if !i.Type().IsInteger() {
			fl.l.fail(x, "index of type %s", i.Type())
		}
		i = fl.convert(i, promote(i.Type()), false)
		if a.Type().Kind == program.Array {
			return &program.Index{X: a, I: i, T: a.Type().Elem}
		}
		a = fl.decay(a)
		if a.Type().Kind != program.Pointer {
			fl.l.fail(x, "indexing a %s", a.Type())
		}
		return fl.deref(x, fl.binary(x, program.Add, a, i))
	case cc.PostfixExpressionCall:
		return fl.call(x, nil, want)
	case cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
		var s program.Expr
		if x.Case == cc.PostfixExpressionSelect {
			s = fl.expr(x.PostfixExpression, true)
		} else {
			s = fl.deref(x, fl.rval(x.PostfixExpression))
		}
		t := s.Type()
		if t.Kind != program.Struct && t.Kind != program.Union {
			fl.l.fail(x, "member access in %s", t)
		}
		name := x.Token2.SrcStr()
		path := fieldPath(t, name)
		if path == nil {
			fl.l.failOpaque(x, t, name)
			fl.l.fail(x, "no member %s in %s", name, t)
		}
		return fl.selectPath(s, path, name, x)
	case cc.PostfixExpressionInc:
		return fl.incdec(x, x.PostfixExpression, program.Add, true, want)
	case cc.PostfixExpressionDec:
		return fl.incdec(x, x.PostfixExpression, program.Sub, true, want)
	case cc.PostfixExpressionComplit:
		// a compound literal: an unnamed object of the enclosing block,
		// initialised where the literal is evaluated (C11 6.5.2.5)
		v := fl.tmp(fl.l.typ(x, x.Type()))
		fl.initList(v, x.InitializerList)
		return v
	}
	fl.l.fail(x, "postfix expression")
	return nil
}

// decayNonArray leaves arrays alone (for indexing) and decays the rest.
func (fl *funcLowerer) decayNonArray(e program.Expr) program.Expr {
	if e.Type().Kind == program.Array {
		return e
	}
	return fl.decay(e)
}

// deref returns *p.
func (fl *funcLowerer) deref(n cc.Node, p program.Expr) program.Expr {
	t := p.Type()
	if t.Kind == program.Function {
		return p
	}
	if t.Kind != program.Pointer {
		fl.l.fail(n, "dereference of %s", t)
	}
	if t.Elem.Kind == program.Function {
		return p
	}
	if t.Elem.Kind == program.Void {
		fl.l.fail(n, "dereference of a void pointer")
	}
	if a, ok := p.(*program.AddrOf); ok {
		return a.X
	}
	return &program.Deref{X: p, T: t.Elem}
}

func (fl *funcLowerer) unary(x *cc.UnaryExpression, want bool) program.Expr {
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return fl.expr(x.PostfixExpression, want)
	case cc.UnaryExpressionInc:
		return fl.incdec(x, x.UnaryExpression, program.Add, false, want)
	case cc.UnaryExpressionDec:
		return fl.incdec(x, x.UnaryExpression, program.Sub, false, want)
	case cc.UnaryExpressionAddrof:
		return fl.addrOf(x, fl.expr(x.CastExpression, true))
	case cc.UnaryExpressionDeref:
		return fl.deref(x, fl.rval(x.CastExpression))
	case cc.UnaryExpressionPlus:
		v := fl.rval(x.CastExpression)
		return fl.convert(v, promote(v.Type()), false)
	case cc.UnaryExpressionMinus, cc.UnaryExpressionCpl:
		v := fl.rval(x.CastExpression)
		if !v.Type().IsInteger() {
			fl.l.fail(x, "arithmetic on %s", v.Type())
		}
		t := promote(v.Type())
		v = fl.convert(v, t, false)
		if x.Case == cc.UnaryExpressionMinus {
			if c, ok := v.(*program.Const); ok {
				return program.IntConst(t, -c.V)
			}
			return &program.Unary{Op: program.Neg, X: v, T: t}
		}
		if c, ok := v.(*program.Const); ok {
			return program.IntConst(t, ^c.V)
		}
		return &program.Unary{Op: program.BitNot, X: v, T: t}
	case cc.UnaryExpressionNot:
		v := fl.rval(x.CastExpression)
		if !v.Type().IsScalar() {
			fl.l.fail(x, "! applied to %s", v.Type())
		}
		if c, ok := v.(*program.Const); ok {
			if c.V == 0 {
				return program.IntConst(program.IntT, 1)
			}
			return program.IntConst(program.IntT, 0)
		}
		return &program.Unary{Op: program.Not, X: v, T: program.IntT}
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		if k, ok := intValue(x.Value()); ok {
			return program.IntConst(fl.l.typ(x, x.Type()), k)
		}
		fl.l.fail(x, "sizeof of a non-constant size")
	case cc.UnaryExpressionLabelAddr:
		fl.l.fail(x, "address of a label")
	case cc.UnaryExpressionImag, cc.UnaryExpressionReal:
		fl.l.fail(x, "complex arithmetic")
	}
	fl.l.fail(x, "unary expression")
	return nil
}

// convert converts e to t; explicit marks a cast in the source.
func (fl *funcLowerer) convert(e program.Expr, t *program.Type, explicit bool) program.Expr {
	from := e.Type()
	if program.Identical(from, t) && from.Kind != program.Function {
		if from.Kind == program.Int && from.Name != t.Name {
			if c, ok := e.(*program.Const); ok {
				return &program.Const{T: t, V: c.V}
			}
		}
		return e
	}
	switch t.Kind {
	case program.Void:
		fl.l.fail(nil, "conversion to void used as a value")
	case program.Array, program.Struct, program.Union, program.Function:
		fl.l.fail(nil, "conversion from %s to %s", from, t)
	}
	switch from.Kind {
	case program.Function:
		if t.Kind == program.Pointer {
			return e
		}
		fl.l.fail(nil, "conversion of a function to %s", t)
	case program.Array, program.Struct, program.Union, program.Void:
		fl.l.fail(nil, "conversion from %s to %s", from, t)
	}
	if c, ok := e.(*program.Const); ok {
		switch t.Kind {
		case program.Int, program.Bool:
			if from.Kind == program.Pointer && c.V != 0 {
				break
			}
			return program.IntConst(t, c.V)
		case program.Pointer:
			if from.Kind == program.Pointer || c.V == 0 {
				return &program.Const{T: t, V: c.V}
			}
		case program.Mutex, program.Cond:
			return &program.Const{T: t, V: c.V}
		}
	}
	if nd, ok := e.(*program.Nondet); ok && t.Kind == program.Pointer && nd.T.Kind == program.Pointer {
		return &program.Nondet{T: t}
	}
	return &program.Cast{X: e, T: t}
}

// truth returns e as an int 0/1 condition.
func truth(e program.Expr) program.Expr {
	if isBoolish(e) {
		return e
	}
	if c, ok := e.(*program.Const); ok {
		if c.V != 0 {
			return program.IntConst(program.IntT, 1)
		}
		return program.IntConst(program.IntT, 0)
	}
	t := e.Type()
	if t.IsInteger() {
		if pt := promote(t); !program.Identical(pt, t) || pt.Name != t.Name {
			e, t = &program.Cast{X: e, T: pt}, pt
		}
	}
	return &program.Binary{Op: program.Ne, X: e, Y: &program.Const{T: t, V: 0}, T: program.IntT}
}

// binary lowers an arithmetic, bitwise, shift or comparison operator on
// already lowered operands.
func (fl *funcLowerer) binary(n cc.Node, op program.BinOp, x, y program.Expr) program.Expr {
	tx, ty := x.Type(), y.Type()
	switch op {
	case program.Eq, program.Ne, program.Lt, program.Le, program.Gt, program.Ge:
		if tx.Kind == program.Pointer || ty.Kind == program.Pointer {
			if tx.Kind != program.Pointer {
				x = fl.convert(x, ty, false)
			} else if ty.Kind != program.Pointer {
				y = fl.convert(y, tx, false)
			} else if c, ok := y.(*program.Const); ok {
				y = &program.Const{T: tx, V: c.V}
			} else if c, ok := x.(*program.Const); ok {
				x = &program.Const{T: ty, V: c.V}
			}
			return &program.Binary{Op: op, X: x, Y: y, T: program.IntT}
		}
		fl.needInts(n, tx, ty)
		t := arith(tx, ty)
		return foldBinary(&program.Binary{Op: op, X: fl.convert(x, t, false), Y: fl.convert(y, t, false), T: program.IntT})
	case program.Add, program.Sub:
		if tx.Kind == program.Pointer && ty.Kind == program.Pointer && op == program.Sub {
			return &program.Binary{Op: program.Sub, X: x, Y: y, T: fl.l.ptrdiffT()}
		}
		if ty.Kind == program.Pointer && op == program.Add {
			x, y, tx, ty = y, x, ty, tx
		}
		if tx.Kind == program.Pointer {
			if !ty.IsInteger() {
				fl.l.fail(n, "pointer arithmetic with %s", ty)
			}
			if tx.Elem.Kind == program.Void || tx.Elem.Kind == program.Function {
				fl.l.fail(n, "arithmetic on a %s", tx)
			}
			y = fl.convert(y, promote(ty), false)
			if c, ok := y.(*program.Const); ok && c.V == 0 {
				return x
			}
			return &program.Binary{Op: op, X: x, Y: y, T: tx}
		}
	case program.Shl, program.Shr:
		fl.needInts(n, tx, ty)
		t := promote(tx)
		return foldBinary(&program.Binary{Op: op, X: fl.convert(x, t, false), Y: fl.convert(y, promote(ty), false), T: t})
	}
	fl.needInts(n, tx, ty)
	t := arith(tx, ty)
	return foldBinary(&program.Binary{Op: op, X: fl.convert(x, t, false), Y: fl.convert(y, t, false), T: t})
}

// foldBinary returns the value of b when both operands are integer
// constants, as cc folds a constant expression (so that printing and
// lowering again gives the same program); b itself otherwise, and for a
// division by zero, which C leaves undefined and cc does not fold.
func foldBinary(b *program.Binary) program.Expr {
	x, ok1 := b.X.(*program.Const)
	y, ok2 := b.Y.(*program.Const)
	if !ok1 || !ok2 || !x.T.IsInteger() || !y.T.IsInteger() || (y.V == 0 && (b.Op == program.Div || b.Op == program.Rem)) {
		return b
	}
	return program.IntConst(b.T, program.IntBinary(b.Op, b.T, x.V, y.V, program.Unsigned(x.T)))
}

func (fl *funcLowerer) needInts(n cc.Node, ts ...*program.Type) {
	for _, t := range ts {
		if !t.IsInteger() {
			fl.l.fail(n, "arithmetic on %s", t)
		}
	}
}

// harmless reports whether evaluating e can neither fault nor read through
// a pointer: such operands of && || ?: may be evaluated unconditionally.
func harmless(e program.Expr) bool {
	ok := true
	program.Walk(e, func(x program.Expr) bool {
		switch x := x.(type) {
		case *program.Deref:
			ok = false
		case *program.Index:
			if _, c := x.I.(*program.Const); !c {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// sub lowers f's instructions into a separate buffer and returns them.
func (fl *funcLowerer) sub(f func()) []*program.Instr {
	saved := fl.body
	fl.body = nil
	f()
	out := fl.body
	fl.body = saved
	return out
}

func (fl *funcLowerer) logical(op program.BinOp, xn, yn cc.ExpressionNode, want bool) program.Expr {
	x := fl.cond(xn)
	var y program.Expr
	buf := fl.sub(func() { y = fl.cond(yn) })
	if c, ok := x.(*program.Const); ok && len(buf) == 0 {
		// Constant left operand: the right one is evaluated or not.
		if (op == program.LAnd) == (c.V != 0) {
			return truth(y)
		}
		return truth(x)
	}
	if len(buf) == 0 && harmless(y) {
		if !want {
			return nil
		}
		return &program.Binary{Op: op, X: x, Y: y, T: program.IntT}
	}
	end := fl.newLabel()
	if !want {
		if op == program.LAnd {
			fl.branchUnless(x, end)
		} else {
			fl.jump(end, x)
		}
		fl.body = append(fl.body, buf...)
		fl.place(end)
		return nil
	}
	t := fl.tmp(program.IntT)
	fl.assign(t, truth(x))
	if op == program.LAnd {
		fl.jump(end, &program.Unary{Op: program.Not, X: t, T: program.IntT})
	} else {
		fl.jump(end, t)
	}
	fl.body = append(fl.body, buf...)
	fl.assign(t, truth(y))
	fl.place(end)
	return t
}

func (fl *funcLowerer) conditional(x *cc.ConditionalExpression, want bool) program.Expr {
	c := fl.cond(x.LogicalOrExpression)
	t := fl.l.typ(x, x.Type())
	void := t.Kind == program.Void
	var a, b program.Expr
	bufA := fl.sub(func() {
		if void || !want {
			fl.effect(x.ExpressionList)
		} else {
			a = fl.convert(fl.rval(x.ExpressionList), t, false)
		}
	})
	bufB := fl.sub(func() {
		if void || !want {
			fl.effect(x.ConditionalExpression)
		} else {
			b = fl.convert(fl.rval(x.ConditionalExpression), t, false)
		}
	})
	if k, ok := c.(*program.Const); ok {
		if k.V != 0 {
			fl.body = append(fl.body, bufA...)
			return a
		}
		fl.body = append(fl.body, bufB...)
		return b
	}
	if !void && want && len(bufA) == 0 && len(bufB) == 0 && harmless(a) && harmless(b) && t.IsScalar() {
		return &program.CondExpr{C: c, X: a, Y: b, T: t}
	}
	var r *program.Ref
	if !void && want {
		r = fl.tmp(t)
	}
	els, end := fl.newLabel(), fl.newLabel()
	fl.branchUnless(c, els)
	fl.body = append(fl.body, bufA...)
	if r != nil {
		fl.assign(r, a)
	}
	fl.jump(end, nil)
	fl.place(els)
	fl.body = append(fl.body, bufB...)
	if r != nil {
		fl.assign(r, b)
	}
	fl.place(end)
	if r == nil {
		return nil
	}
	return r
}

var compoundOps = map[cc.AssignmentExpressionCase]program.BinOp{
	cc.AssignmentExpressionMul: program.Mul, cc.AssignmentExpressionDiv: program.Div,
	cc.AssignmentExpressionMod: program.Rem, cc.AssignmentExpressionAdd: program.Add,
	cc.AssignmentExpressionSub: program.Sub, cc.AssignmentExpressionLsh: program.Shl,
	cc.AssignmentExpressionRsh: program.Shr, cc.AssignmentExpressionAnd: program.And,
	cc.AssignmentExpressionXor: program.Xor, cc.AssignmentExpressionOr: program.Or,
}

func (fl *funcLowerer) assignment(x *cc.AssignmentExpression, want bool) program.Expr {
	if x.Case == cc.AssignmentExpressionAssign {
		if _, d := identDecl(x.UnaryExpression); d != nil {
			if at := fl.addrLocalType(d); at != nil {
				if want {
					fl.l.fail(x, "value of an assignment of an integer address")
				}
				v := fl.vars[d]
				fl.assign(&program.Ref{Name: v.Name, Local: true, T: v.Type}, fl.addrValue(x.AssignmentExpression, at))
				return nil
			}
		}
	}
	lv := fl.lval(x.UnaryExpression)
	t := lv.Type()
	if x.Case == cc.AssignmentExpressionAssign {
		if !want {
			fl.assignExpr(lv, x.AssignmentExpression)
			return nil
		}
		lv = fl.stableLval(lv)
		v := fl.rvalTo(x.AssignmentExpression, t)
		return fl.storeValue(lv, v)
	}
	op, ok := compoundOps[x.Case]
	if !ok {
		fl.l.fail(x, "assignment operator")
	}
	lv = fl.stableLval(lv)
	r := fl.rval(x.AssignmentExpression)
	if fl.isAtomicVar(x.UnaryExpression) {
		// a read-modify-write of an _Atomic variable (atomic.go): the
		// operand is evaluated before the section
		if _, ok := r.(*program.Const); !ok && !isStableLocal(fl, r) {
			tv := fl.tmp(r.Type())
			fl.assign(tv, r)
			r = tv
		}
		fl.emitOp(program.OpAtomicBegin, nil, nil)
		defer fl.emitOp(program.OpAtomicEnd, nil, nil)
	}
	nv := fl.convert(fl.binary(x, op, lv, r), t, false)
	if !want {
		fl.assign(lv, nv)
		return nil
	}
	return fl.storeValue(lv, nv)
}

// storeValue assigns v to lv and returns an expression for the stored value.
func (fl *funcLowerer) storeValue(lv, v program.Expr) program.Expr {
	if isStableLocal(fl, lv) {
		fl.assign(lv, v)
		return lv
	}
	if _, ok := v.(*program.Const); ok {
		fl.assign(lv, v)
		return v
	}
	tv := fl.tmp(lv.Type())
	fl.assign(tv, v)
	fl.assign(lv, tv)
	return tv
}

// assignExpr lowers lv = n, storing call results and allocations directly.
func (fl *funcLowerer) assignExpr(lv program.Expr, n cc.ExpressionNode) {
	t := lv.Type()
	if t.Kind == program.Pointer {
		if call := allocCall(fl, n); call != nil {
			fl.alloc(call, lv)
			return
		}
	}
	if call := asCall(n); call != nil {
		name, direct := directName(call.PostfixExpression)
		if !direct || fl.l.defs[name] != nil {
			if rt := fl.l.typ(call, call.Type()); program.Identical(rt, t) {
				fl.call(call, lv, true)
				return
			}
		}
	}
	fl.assign(lv, fl.rvalTo(n, t))
}

func (fl *funcLowerer) incdec(n cc.Node, operand cc.ExpressionNode, op program.BinOp, post, want bool) program.Expr {
	lv := fl.stableLval(fl.lval(operand))
	t := lv.Type()
	if fl.isAtomicVar(operand) {
		// a read-modify-write of an _Atomic variable (atomic.go)
		fl.emitOp(program.OpAtomicBegin, nil, nil)
		defer fl.emitOp(program.OpAtomicEnd, nil, nil)
	}
	newVal := func(old program.Expr) program.Expr {
		return fl.convert(fl.binary(n, op, old, program.IntConst(program.IntT, 1)), t, false)
	}
	if !want {
		fl.assign(lv, newVal(lv))
		return nil
	}
	if post {
		old := fl.tmp(t)
		fl.assign(old, lv)
		fl.assign(lv, newVal(old))
		return old
	}
	return fl.storeValue(lv, newVal(lv))
}

// stableLval makes the address of lv independent of shared memory and
// nondeterminism, so that lv can be used by several instructions.
func (fl *funcLowerer) stableLval(lv program.Expr) program.Expr {
	fix := func(e program.Expr) program.Expr {
		if fl.readCount(e) == 0 && !program.HasNondet(e) {
			return e
		}
		t := fl.tmp(e.Type())
		fl.assign(t, e)
		return t
	}
	switch x := lv.(type) {
	case *program.Deref:
		return &program.Deref{X: fix(x.X), T: x.T}
	case *program.Index:
		return &program.Index{X: fl.stableLval(x.X), I: fix(x.I), T: x.T}
	case *program.FieldSel:
		return &program.FieldSel{X: fl.stableLval(x.X), Name: x.Name, Field: x.Field, T: x.T}
	}
	return lv
}

// calleeName returns the name of the function a call expression calls
// directly (an identifier naming a function, possibly undeclared).
func calleeName(e cc.ExpressionNode) (string, bool) {
	call := asCall(e)
	if call == nil {
		return "", false
	}
	return directName(call.PostfixExpression)
}

func directName(e cc.ExpressionNode) (string, bool) {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			switch x.Case {
			case cc.PrimaryExpressionExpr:
				e = x.ExpressionList
				continue
			case cc.PrimaryExpressionIdent:
				switch r := x.ResolvedTo().(type) {
				case nil:
					return x.Token.SrcStr(), true
				case *cc.Declarator:
					if r.Type().Kind() == cc.Function {
						return x.Token.SrcStr(), true
					}
				}
			}
			return "", false
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionPrimary {
				e = x.PrimaryExpression
				continue
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionPostfix {
				e = x.PostfixExpression
				continue
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				e = x.UnaryExpression
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				e = x.AssignmentExpression
				continue
			}
		}
		return "", false
	}
}

// asCall strips parentheses and returns the call expression e is, if any.
func asCall(e cc.ExpressionNode) *cc.PostfixExpression {
	for {
		switch x := e.(type) {
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionCall {
				return x
			}
			if x.Case == cc.PostfixExpressionPrimary {
				e = x.PrimaryExpression
				continue
			}
			return nil
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				e = x.ExpressionList
				continue
			}
			return nil
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				e = x.AssignmentExpression
				continue
			}
			return nil
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionPostfix {
				e = x.PostfixExpression
				continue
			}
			return nil
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				e = x.UnaryExpression
				continue
			}
			return nil
		default:
			// Other single-child wrappers.
			if c := passThrough(e); c != nil {
				e = c
				continue
			}
			return nil
		}
	}
}

func passThrough(e cc.ExpressionNode) cc.ExpressionNode {
	switch x := e.(type) {
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return x.ConditionalExpression
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionLOr {
			return x.LogicalOrExpression
		}
	case *cc.MultiplicativeExpression:
		if x.Case == cc.MultiplicativeExpressionCast {
			return x.CastExpression
		}
	}
	return nil
}

func mustCallee(call *cc.PostfixExpression) string {
	name, _ := directName(call.PostfixExpression)
	return name
}

// userCall returns the call n is when it calls a function with a body.
func userCall(fl *funcLowerer, n cc.ExpressionNode) *cc.PostfixExpression {
	call := asCall(n)
	if call == nil {
		return nil
	}
	name, ok := directName(call.PostfixExpression)
	if !ok || fl.l.defs[name] == nil {
		return nil
	}
	return call
}

// allocCall returns the malloc/calloc call n is (through casts to pointer
// types), if any.
func allocCall(fl *funcLowerer, n cc.ExpressionNode) *cc.PostfixExpression {
	for {
		if c, ok := n.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast && c.Type().Kind() == cc.Ptr {
			n = c.CastExpression
			continue
		}
		if c := passThrough(n); c != nil {
			n = c
			continue
		}
		break
	}
	call := asCall(n)
	if call == nil {
		return nil
	}
	name, ok := directName(call.PostfixExpression)
	if !ok || fl.l.defs[name] != nil {
		return nil
	}
	if isAllocName(name) {
		return call
	}
	return nil
}

// isAllocName reports whether name is an allocation function the front end
// models. alloca's block, like a variable-length array's, is a heap block:
// its storage outlives the function (a use after the return is undefined
// behaviour in C).
func isAllocName(name string) bool {
	switch name {
	case "malloc", "calloc", "realloc", "alloca", "__builtin_alloca", program.ReallocFunc:
		return true
	}
	return false
}

func args(call *cc.PostfixExpression) []cc.ExpressionNode {
	var out []cc.ExpressionNode
	for a := call.ArgumentExpressionList; a != nil; a = a.ArgumentExpressionList {
		out = append(out, a.AssignmentExpression)
	}
	return out
}

// sourceText returns n's source text with whitespace normalised.
func sourceText(n cc.Node) string {
	var b strings.Builder
	for i, t := range cc.NodeTokens(n) {
		if i > 0 && len(t.Sep()) > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.SrcStr())
	}
	return b.String()
}

// stringLiteral returns a pointer to the first character of a global char
// array holding the literal (string literals have static storage).
func (fl *funcLowerer) stringLiteral(x *cc.PrimaryExpression) program.Expr {
	s, ok := x.Value().(cc.StringValue)
	if !ok || x.Case != cc.PrimaryExpressionString {
		fl.l.fail(x, "wide string literal")
	}
	str := string(s)
	if i := strings.IndexByte(str, 0); i >= 0 {
		str = str[:i]
	}
	l := fl.l
	if v := l.strings[str]; v != nil {
		return fl.decay(&program.Ref{Name: v.Name, T: v.Type})
	}
	t := program.ArrayOf(program.CharType, int64(len(str))+1)
	name := l.uniqueName(fmt.Sprintf("__str_%d", len(l.strings)), nil)
	v := &program.Var{Name: name, Type: t, Init: stringCompound(t, str), Pos: fl.cur}
	l.globals[name] = v
	l.globalNames[name] = true
	l.strings[str] = v
	l.prog.Globals = append(l.prog.Globals, v)
	return fl.decay(&program.Ref{Name: v.Name, T: v.Type})
}

// addrOf is &x, v being x lowered.
func (fl *funcLowerer) addrOf(x *cc.UnaryExpression, v program.Expr) program.Expr {
	if v == nil {
		fl.l.fail(x, "address of a void expression")
	}
	switch y := v.(type) {
	case *program.FuncRef:
		return y
	case *program.Deref:
		return y.X
	}
	if !program.IsLValue(v) {
		fl.l.fail(x, "address of a non-lvalue")
	}
	if fl.isAtomicVar(x.CastExpression) {
		fl.l.fail(x, "address of the _Atomic variable %s (accesses through a pointer are not modelled as atomic)", program.ExprString(v))
	}
	fl.markAddr(v)
	return &program.AddrOf{X: v, T: fl.l.ptrTo(v.Type())}
}

package frontend

import (
	"reflect"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Address arithmetic on integers, as CIL writes it.
//
// CIL lowers q->tail and a[i] to byte arithmetic on integers:
//
//	__cil_tmp3 = (unsigned int)q;
//	__cil_tmp4 = __cil_tmp3 + 84;
//	__cil_tmp5 = *((int *)__cil_tmp4);
//
// The program model has no integer addresses: a pointer is an object and a
// cell offset. Such code is lowered back to pointer arithmetic when it is
// an address computation from start to end:
//
//   - an "address expression" (AE) is (I)P with I an integer type of the
//     size of a pointer and P a pointer or array, A + K, K + A, A - K with A
//     an AE and K an integer expression that is not an AE, (I)A, or an
//     "address local";
//   - an address local is a local of such an integer type (not a
//     parameter, its address never taken, never incremented or assigned by
//     a compound operator) whose every assignment and initializer is an AE
//     and whose every other use is in an AE in such an assignment or in the
//     operand of a cast to a pointer type;
//   - an AE is lowered to a pointer to the scalar type E of the cells of
//     P's pointee, which must be uniform: every cell a scalar (integer,
//     _Bool or pointer; no mutex, no union) of one size s, and the size of
//     the pointee the number of its cells times s, so that the byte offset
//     of cell k is k*s. A byte offset K then is the cell offset K/s: K must
//     be a constant multiple of s or an expression that is a multiple of s
//     by construction (products with a multiple of s, sums of such, locals
//     assigned only such), and the division is exact. Anything else is
//     Unsupported;
//   - the cast (T *)A of an AE needs sizeof(T) == s and T scalar;
//   - an address local gets the type E *.
//
// Address arithmetic is modulo 2^(8*sizeof(pointer)) and so is the cell
// offset computed as the signed quotient of the byte offset: the two
// designate the same cell whenever either is inside the object (objects are
// far smaller than the address space), and an access outside the object is
// invalid in both.

// addrInfo is the analysis of one function body.
type addrInfo struct {
	l      *lowerer
	autos  map[*cc.Declarator]bool                // automatic locals
	order  []*cc.Declarator                       // the automatic locals in source order (deterministic iteration)
	locals map[*cc.Declarator]bool                // automatic locals of integer type
	defs   map[*cc.Declarator][]cc.ExpressionNode // right-hand sides of simple assignments and initializers
	lhs    map[*cc.PrimaryExpression]bool         // identifiers assigned by those
	other  map[*cc.Declarator]bool                // modified otherwise, or address taken
	allocs map[*cc.Declarator]*program.Type       // void * locals holding allocations: their type
	set    map[*cc.Declarator]bool                // address locals
	addr   map[*cc.Declarator]*program.Type       // their cell type E, when known
	scaled map[int64]map[*cc.Declarator]bool      // per cell size: the locals that hold multiples of it
}

// walkNodes calls f on n and, while f returns true, on its descendants.
func walkNodes(n cc.Node, f func(cc.Node) bool) {
	if n == nil {
		return
	}
	if v := reflect.ValueOf(n); v.Kind() == reflect.Pointer && v.IsNil() {
		return
	}
	if _, ok := n.(cc.Token); ok {
		return
	}
	if !f(n) {
		return
	}
	eachChild(n, func(c cc.Node) { walkNodes(c, f) })
}

// eachChild calls f on each non-nil node held by an exported field of n.
func eachChild(n cc.Node, f func(cc.Node)) {
	v := reflect.ValueOf(n)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if !t.Field(i).IsExported() {
			continue
		}
		fv := v.Field(i)
		if (fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface) && fv.IsNil() {
			continue
		}
		if m, ok := fv.Interface().(cc.Node); ok {
			if _, tok := m.(cc.Token); !tok {
				f(m)
			}
		}
	}
}

// strip removes parentheses and single-operand grammar levels.
func strip(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		var next cc.ExpressionNode
		switch x := e.(type) {
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				next = x.AssignmentExpression
			}
		case *cc.AssignmentExpression:
			if x.Case == cc.AssignmentExpressionCond {
				next = x.ConditionalExpression
			}
		case *cc.ConditionalExpression:
			if x.Case == cc.ConditionalExpressionLOr {
				next = x.LogicalOrExpression
			}
		case *cc.LogicalOrExpression:
			if x.Case == cc.LogicalOrExpressionLAnd {
				next = x.LogicalAndExpression
			}
		case *cc.LogicalAndExpression:
			if x.Case == cc.LogicalAndExpressionOr {
				next = x.InclusiveOrExpression
			}
		case *cc.InclusiveOrExpression:
			if x.Case == cc.InclusiveOrExpressionXor {
				next = x.ExclusiveOrExpression
			}
		case *cc.ExclusiveOrExpression:
			if x.Case == cc.ExclusiveOrExpressionAnd {
				next = x.AndExpression
			}
		case *cc.AndExpression:
			if x.Case == cc.AndExpressionEq {
				next = x.EqualityExpression
			}
		case *cc.EqualityExpression:
			if x.Case == cc.EqualityExpressionRel {
				next = x.RelationalExpression
			}
		case *cc.RelationalExpression:
			if x.Case == cc.RelationalExpressionShift {
				next = x.ShiftExpression
			}
		case *cc.ShiftExpression:
			if x.Case == cc.ShiftExpressionAdd {
				next = x.AdditiveExpression
			}
		case *cc.AdditiveExpression:
			if x.Case == cc.AdditiveExpressionMul {
				next = x.MultiplicativeExpression
			}
		case *cc.MultiplicativeExpression:
			if x.Case == cc.MultiplicativeExpressionCast {
				next = x.CastExpression
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				next = x.UnaryExpression
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionPostfix {
				next = x.PostfixExpression
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionPrimary {
				next = x.PrimaryExpression
			}
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				next = x.ExpressionList
			}
		}
		if next == nil {
			return e
		}
		e = next
	}
}

// identDecl returns the declarator an identifier expression refers to.
func identDecl(e cc.ExpressionNode) (*cc.PrimaryExpression, *cc.Declarator) {
	p, ok := strip(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return nil, nil
	}
	d, _ := p.ResolvedTo().(*cc.Declarator)
	return p, d
}

// analyzeAddrInts finds the address locals of a function body.
func (l *lowerer) analyzeAddrInts(body *cc.CompoundStatement) *addrInfo {
	ai := &addrInfo{l: l, autos: map[*cc.Declarator]bool{}, locals: map[*cc.Declarator]bool{}, defs: map[*cc.Declarator][]cc.ExpressionNode{},
		lhs: map[*cc.PrimaryExpression]bool{}, other: map[*cc.Declarator]bool{},
		allocs: map[*cc.Declarator]*program.Type{}, set: map[*cc.Declarator]bool{}, addr: map[*cc.Declarator]*program.Type{}, scaled: map[int64]map[*cc.Declarator]bool{}}
	if body == nil {
		return ai
	}
	ptrSize := l.model.PtrSize()
	found := false // any integer cast of a pointer at all?
	walkNodes(body, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.InitDeclarator:
			d := x.Declarator
			if d == nil || d.IsTypename() || d.IsStatic() || d.IsExtern() || d.Type() == nil || d.Type().Kind() == cc.Function {
				return true
			}
			if !ai.autos[d] {
				ai.order = append(ai.order, d)
			}
			ai.autos[d] = true
			if cc.IsIntegerType(d.Type()) {
				ai.locals[d] = true
			}
			if x.Case == cc.InitDeclaratorInit && x.Initializer != nil {
				if x.Initializer.Case == cc.InitializerExpr {
					ai.defs[d] = append(ai.defs[d], x.Initializer.AssignmentExpression)
				} else {
					ai.other[d] = true
				}
			}
		case *cc.AssignmentExpression:
			if x.Case == cc.AssignmentExpressionCond {
				return true
			}
			if p, d := identDecl(x.UnaryExpression); d != nil {
				if x.Case == cc.AssignmentExpressionAssign {
					ai.defs[d] = append(ai.defs[d], x.AssignmentExpression)
					ai.lhs[p] = true
				} else {
					ai.other[d] = true
				}
			}
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
				if _, d := identDecl(x.UnaryExpression); d != nil {
					ai.other[d] = true
				}
			case cc.UnaryExpressionAddrof:
				if _, d := identDecl(x.CastExpression); d != nil {
					ai.other[d] = true
				}
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec {
				if _, d := identDecl(x.PostfixExpression); d != nil {
					ai.other[d] = true
				}
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionCast && ai.ptrToInt(x) {
				found = true
			}
		}
		return true
	})
	ai.voidAllocs(body)
	if !found {
		return ai
	}
	// Candidates: the locals that receive an address (least fixpoint);
	// then the greatest subset closed under the rules.
	cand := map[*cc.Declarator]bool{}
	for changed := true; changed; {
		changed = false
		for _, d := range ai.order {
			if !ai.locals[d] || cand[d] || ai.other[d] || d.Type().Size() != ptrSize {
				continue
			}
			for _, e := range ai.defs[d] {
				if ai.isAE(e, cand) {
					cand[d] = true
					changed = true
					break
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range ai.order {
			if !cand[d] {
				continue
			}
			for _, e := range ai.defs[d] {
				if !ai.isAE(e, cand) {
					delete(cand, d)
					changed = true
					break
				}
			}
		}
		if changed {
			continue
		}
		// every use accounted for
		acc := map[*cc.PrimaryExpression]bool{}
		for d := range cand {
			for _, e := range ai.defs[d] {
				ai.markAE(e, cand, acc)
			}
		}
		walkNodes(body, func(n cc.Node) bool {
			if x, ok := n.(*cc.CastExpression); ok && x.Case == cc.CastExpressionCast && x.Type() != nil && x.Type().Kind() == cc.Ptr && ai.isAE(x.CastExpression, cand) {
				ai.markAE(x.CastExpression, cand, acc)
			}
			return true
		})
		walkNodes(body, func(n cc.Node) bool {
			if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent && !ai.lhs[p] && !acc[p] {
				if d, ok := p.ResolvedTo().(*cc.Declarator); ok && cand[d] {
					delete(cand, d)
					changed = true
				}
			}
			return true
		})
	}
	ai.set = cand
	// Cell types, by propagation from the casts of pointers.
	for changed := true; changed; {
		changed = false
		for _, d := range ai.order {
			if !cand[d] || ai.addr[d] != nil {
				continue
			}
			for _, e := range ai.defs[d] {
				if et := ai.cellTypeOf(e); et != nil {
					ai.addr[d] = et
					changed = true
					break
				}
			}
		}
	}
	return ai
}

// ptrToInt reports whether a cast converts a pointer or array to an integer
// of pointer size.
func (ai *addrInfo) ptrToInt(x *cc.CastExpression) bool {
	t, ot := x.Type(), x.CastExpression.Type()
	if t == nil || ot == nil || !cc.IsIntegerType(t) || t.Size() != ai.l.model.PtrSize() {
		return false
	}
	return ot.Kind() == cc.Ptr || ot.Kind() == cc.Array
}

// isAE reports whether e is an address expression given the address locals
// set.
func (ai *addrInfo) isAE(e cc.ExpressionNode, set map[*cc.Declarator]bool) bool {
	e = strip(e)
	switch x := e.(type) {
	case *cc.CastExpression:
		if x.Case != cc.CastExpressionCast {
			return false
		}
		if ai.ptrToInt(x) {
			return true
		}
		t := x.Type()
		return t != nil && cc.IsIntegerType(t) && t.Size() == ai.l.model.PtrSize() && ai.isAE(x.CastExpression, set)
	case *cc.AdditiveExpression:
		a, k := x.AdditiveExpression, x.MultiplicativeExpression
		ok := func(a, k cc.ExpressionNode) bool {
			return ai.isAE(a, set) && k.Type() != nil && cc.IsIntegerType(k.Type()) && !ai.mentions(k, set)
		}
		switch x.Case {
		case cc.AdditiveExpressionAdd:
			return ok(a, k) || ok(k, a)
		case cc.AdditiveExpressionSub:
			return ok(a, k)
		}
	case *cc.PrimaryExpression:
		_, d := identDecl(x)
		return d != nil && set[d]
	}
	return false
}

// mentions reports whether e refers to a member of set.
func (ai *addrInfo) mentions(e cc.ExpressionNode, set map[*cc.Declarator]bool) bool {
	found := false
	walkNodes(e, func(n cc.Node) bool {
		if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
			if d, ok := p.ResolvedTo().(*cc.Declarator); ok && set[d] {
				found = true
			}
		}
		return !found
	})
	return found
}

// markAE records the identifiers in address position of an AE.
func (ai *addrInfo) markAE(e cc.ExpressionNode, set map[*cc.Declarator]bool, acc map[*cc.PrimaryExpression]bool) {
	e = strip(e)
	switch x := e.(type) {
	case *cc.CastExpression:
		if !ai.ptrToInt(x) {
			ai.markAE(x.CastExpression, set, acc)
		}
	case *cc.AdditiveExpression:
		if ai.isAE(x.AdditiveExpression, set) {
			ai.markAE(x.AdditiveExpression, set, acc)
		} else {
			ai.markAE(x.MultiplicativeExpression, set, acc)
		}
	case *cc.PrimaryExpression:
		acc[x] = true
	}
}

// cellTypeOf returns the cell type of the object an AE points into, if
// known yet (nil otherwise, or when it is not uniform).
func (ai *addrInfo) cellTypeOf(e cc.ExpressionNode) *program.Type {
	e = strip(e)
	switch x := e.(type) {
	case *cc.CastExpression:
		if ai.ptrToInt(x) {
			ot := x.CastExpression.Type()
			var elem cc.Type
			if ot.Kind() == cc.Ptr {
				elem = ot.(*cc.PointerType).Elem()
			} else {
				elem = ot.(*cc.ArrayType).Elem()
			}
			if elem == nil || elem.Kind() == cc.Void || elem.Kind() == cc.Function {
				return nil
			}
			return uniformCell(ai.l.typ(x, elem))
		}
		return ai.cellTypeOf(x.CastExpression)
	case *cc.AdditiveExpression:
		if ai.isAE(x.AdditiveExpression, ai.set) {
			return ai.cellTypeOf(x.AdditiveExpression)
		}
		return ai.cellTypeOf(x.MultiplicativeExpression)
	case *cc.PrimaryExpression:
		_, d := identDecl(x)
		return ai.addr[d]
	}
	return nil
}

// uniformCell returns the cell type of t when every cell of t is a scalar of
// one size s (no mutex, condition variable or union) and sizeof(t) is the
// number of cells times s; otherwise nil.
func uniformCell(t *program.Type) *program.Type {
	n := t.Cells()
	if n == 0 {
		return nil
	}
	var first *program.Type
	ok := true
	var visit func(t *program.Type)
	visit = func(t *program.Type) {
		switch t.Kind {
		case program.Array:
			visit(t.Elem)
		case program.Struct:
			for _, f := range t.Fields {
				visit(f.Type)
			}
		case program.Int, program.Bool, program.Pointer:
			if first == nil {
				first = t
			} else if first.Size != t.Size {
				ok = false
			}
		default:
			ok = false
		}
	}
	visit(t)
	if !ok || first == nil || t.Size != n*first.Size {
		return nil
	}
	return first
}

// addrLocalType returns the type of an address local (a pointer to its cell
// type), nil for other declarators.
func (fl *funcLowerer) addrLocalType(d *cc.Declarator) *program.Type {
	if fl.ai == nil || d == nil || !fl.ai.set[d] {
		return nil
	}
	et := fl.ai.addr[d]
	if et == nil {
		fl.l.fail(d, "integer %s holds an address into an object whose bytes do not map to cells of one size (mixed sizes, padding, a union or a mutex)", d.Name())
	}
	return fl.l.ptrTo(et)
}

// isAddrExpr reports whether e is an address expression to be lowered by
// addrExpr.
func (fl *funcLowerer) isAddrExpr(e cc.ExpressionNode) bool {
	return fl.ai != nil && fl.ai.isAE(e, fl.ai.set)
}

// addrExpr lowers an address expression to a pointer to its cell type.
func (fl *funcLowerer) addrExpr(e cc.ExpressionNode) program.Expr {
	l := fl.l
	e = strip(e)
	switch x := e.(type) {
	case *cc.CastExpression:
		if fl.ai.ptrToInt(x) {
			p := fl.rval(x.CastExpression)
			pt := p.Type()
			if pt.Kind != program.Pointer {
				l.fail(x, "integer address of a %s", pt)
			}
			et := uniformCell(pt.Elem)
			if et == nil || pt.Elem.Kind == program.Void {
				l.fail(x, "integer address arithmetic in a %s: its bytes do not map to cells of one size (mixed sizes, padding, a union or a mutex)", pt.Elem)
			}
			return fl.convert(p, l.ptrTo(et), true)
		}
		return fl.addrExpr(x.CastExpression)
	case *cc.AdditiveExpression:
		a, k := x.AdditiveExpression, x.MultiplicativeExpression
		if !fl.ai.isAE(a, fl.ai.set) {
			a, k = k, a
		}
		p := fl.addrExpr(a)
		s := p.Type().Elem.Size
		off := fl.cellOffset(k, s)
		op := program.Add
		if x.Case == cc.AdditiveExpressionSub {
			op = program.Sub
		}
		return fl.binary(x, op, p, off)
	case *cc.PrimaryExpression:
		_, d := identDecl(x)
		v := fl.vars[d]
		if v == nil || !fl.ai.set[d] {
			l.fail(x, "integer address %s", x.Token.SrcStr())
		}
		return &program.Ref{Name: v.Name, Local: true, T: v.Type}
	}
	l.fail(e, "integer address arithmetic")
	return nil
}

// cellOffset lowers the byte offset k of an address computation to a cell
// offset for cells of s bytes.
func (fl *funcLowerer) cellOffset(k cc.ExpressionNode, s int64) program.Expr {
	l := fl.l
	v := fl.rval(k)
	if !v.Type().IsInteger() {
		l.fail(k, "integer address plus a %s", v.Type())
	}
	ip := program.IntType(l.model.PtrSize(), true)
	if c, ok := v.(*program.Const); ok {
		b := c.V
		if l.model.PtrSize() == 4 {
			b = int64(int32(b))
		}
		if b%s != 0 {
			l.fail(k, "integer address plus %d bytes: not a whole number of %d-byte cells", c.V, s)
		}
		return program.IntConst(ip, b/s)
	}
	if s == 1 {
		return fl.convert(v, ip, false)
	}
	if !fl.ai.isScaled(k, s) {
		l.fail(k, "integer address plus %s: not evidently a multiple of the cell size %d", sourceText(k), s)
	}
	return fl.binary(k, program.Div, fl.convert(v, ip, true), program.IntConst(ip, s))
}

// isScaled reports whether the integer expression e is a multiple of s by
// construction.
func (ai *addrInfo) isScaled(e cc.ExpressionNode, s int64) bool {
	e = strip(e)
	if t := e.Type(); t == nil || !cc.IsIntegerType(t) || t.Kind() == cc.Bool {
		return false
	}
	if k, ok := ai.l.constInt(e); ok {
		return k%s == 0
	}
	constMul := func(n cc.ExpressionNode) bool {
		k, ok := ai.l.constInt(n)
		return ok && k%s == 0
	}
	switch x := e.(type) {
	case *cc.MultiplicativeExpression:
		if x.Case == cc.MultiplicativeExpressionMul {
			return constMul(x.MultiplicativeExpression) || constMul(x.CastExpression) ||
				ai.isScaled(x.MultiplicativeExpression, s) || ai.isScaled(x.CastExpression, s)
		}
	case *cc.AdditiveExpression:
		return ai.isScaled(x.AdditiveExpression, s) && ai.isScaled(x.MultiplicativeExpression, s)
	case *cc.ShiftExpression:
		if x.Case == cc.ShiftExpressionLsh {
			if k, ok := ai.l.constInt(x.AdditiveExpression); ok && k >= 0 && k < 63 && (int64(1)<<k)%s == 0 {
				return true
			}
			return ai.isScaled(x.ShiftExpression, s)
		}
	case *cc.CastExpression:
		return x.Case == cc.CastExpressionCast && ai.isScaled(x.CastExpression, s)
	case *cc.PrimaryExpression:
		_, d := identDecl(x)
		return d != nil && ai.scaledLocals(s)[d]
	}
	return false
}

// scaledLocals returns the greatest set of locals, each assigned (and
// initialised) only multiples of s given that the locals of the set hold
// multiples of s. Parameters are not in it (their value comes from the
// caller), nor locals modified otherwise or whose address is taken.
func (ai *addrInfo) scaledLocals(s int64) map[*cc.Declarator]bool {
	if m, ok := ai.scaled[s]; ok {
		return m
	}
	m := map[*cc.Declarator]bool{}
	for _, d := range ai.order {
		if ai.locals[d] && !ai.other[d] && len(ai.defs[d]) > 0 {
			m[d] = true
		}
	}
	ai.scaled[s] = m
	for changed := true; changed; {
		changed = false
		for _, d := range ai.order {
			if !m[d] {
				continue
			}
			for _, e := range ai.defs[d] {
				if !ai.isScaled(e, s) {
					delete(m, d)
					changed = true
					break
				}
			}
		}
	}
	return m
}

// addrValue lowers the AE e assigned to an address local of type at.
func (fl *funcLowerer) addrValue(e cc.ExpressionNode, at *program.Type) program.Expr {
	p := fl.addrExpr(e)
	if p.Type().Elem.Size != at.Elem.Size {
		fl.l.fail(e, "integer address computed in cells of %d bytes and of %d bytes", p.Type().Elem.Size, at.Elem.Size)
	}
	return fl.convert(p, at, false)
}

// addrCast lowers (T *)A for an AE A: T must be void or have the cells of
// A's object (so that arithmetic and accesses through the result keep
// meaning what the bytes meant).
func (fl *funcLowerer) addrCast(x *cc.CastExpression, t *program.Type) program.Expr {
	p := fl.addrExpr(x.CastExpression)
	s := p.Type().Elem.Size
	if e := t.Elem; e.Kind != program.Void {
		if u := uniformCell(e); u == nil || u.Size != s {
			fl.l.fail(x, "integer address used as a %s into cells of %d bytes", t, s)
		}
	}
	return fl.convert(p, t, true)
}

// voidAllocs finds the locals of type void * that hold allocations, as CIL
// writes them: `tmp = __builtin_alloca(n); p = (T *)tmp;`. A void * local
// whose address is never taken, whose every assignment is a call of
// malloc, calloc or alloca and whose every use is the operand of a cast to
// one pointer type T * gets the type T *, so that its allocations are
// blocks of T.
func (ai *addrInfo) voidAllocs(body *cc.CompoundStatement) {
	l := ai.l
	cand := map[*cc.Declarator]bool{}
	for _, d := range ai.order {
		t := d.Type()
		if ai.other[d] || len(ai.defs[d]) == 0 || t.Kind() != cc.Ptr || t.(*cc.PointerType).Elem().Kind() != cc.Void {
			continue
		}
		ok := true
		for _, e := range ai.defs[d] {
			if name, isCall := calleeName(e); !isCall || !isAllocName(name) || l.defs[name] != nil {
				ok = false
			}
		}
		if ok {
			cand[d] = true
		}
	}
	if len(cand) == 0 {
		return
	}
	types := map[*cc.Declarator]*program.Type{}
	acc := map[*cc.PrimaryExpression]bool{}
	// converted records a use of candidate e converted to pointer type pt
	// (a cast, or the implicit conversion of an assignment or
	// initialisation): its element type is the local's.
	converted := func(n cc.Node, e cc.ExpressionNode, pt cc.Type) {
		p, d := identDecl(e)
		if d == nil || !cand[d] || pt == nil || pt.Kind() != cc.Ptr {
			return
		}
		et := pt.(*cc.PointerType).Elem()
		if et == nil || et.Kind() == cc.Void || et.Kind() == cc.Function {
			delete(cand, d)
			return
		}
		t := l.typ(n, et)
		if old := types[d]; old != nil && !sameType(old, t) {
			delete(cand, d)
			return
		}
		types[d] = t
		acc[p] = true
	}
	// tested records a use of candidate e compared with a null pointer
	// (!p, p == 0, p != NULL, if (p)) or freed: the same at any pointer
	// type.
	tested := func(e cc.ExpressionNode) {
		if p, d := identDecl(e); d != nil && cand[d] {
			acc[p] = true
		}
	}
	null := func(e cc.ExpressionNode) bool {
		e = strip(e)
		if c, ok := e.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast && c.Type() != nil && c.Type().Kind() == cc.Ptr {
			e = c.CastExpression
		}
		v, ok := l.constInt(e)
		return ok && v == 0
	}
	walkNodes(body, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionCast {
				converted(x, x.CastExpression, x.Type())
			}
		case *cc.AssignmentExpression:
			if x.Case == cc.AssignmentExpressionAssign && x.UnaryExpression != nil {
				converted(x, x.AssignmentExpression, x.UnaryExpression.Type())
			}
		case *cc.InitDeclarator:
			if x.Case == cc.InitDeclaratorInit && x.Declarator != nil && x.Initializer != nil && x.Initializer.AssignmentExpression != nil {
				converted(x, x.Initializer.AssignmentExpression, x.Declarator.Type())
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionNot {
				tested(x.CastExpression)
			}
		case *cc.EqualityExpression:
			if x.Case == cc.EqualityExpressionEq || x.Case == cc.EqualityExpressionNeq {
				if null(x.RelationalExpression) {
					tested(x.EqualityExpression)
				} else if null(x.EqualityExpression) {
					tested(x.RelationalExpression)
				}
			}
		case *cc.SelectionStatement:
			if x.Case == cc.SelectionStatementIf || x.Case == cc.SelectionStatementIfElse {
				tested(x.ExpressionList)
			}
		case *cc.PostfixExpression:
			if name, ok := directName(x.PostfixExpression); ok && x.Case == cc.PostfixExpressionCall && name == "free" && l.defs[name] == nil {
				if as := args(x); len(as) == 1 {
					tested(as[0]) // free takes any pointer
				}
			}
		}
		return true
	})
	walkNodes(body, func(n cc.Node) bool {
		if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent && !ai.lhs[p] && !acc[p] {
			if d, ok := p.ResolvedTo().(*cc.Declarator); ok {
				delete(cand, d)
			}
		}
		return true
	})
	for d := range cand {
		if types[d] != nil {
			ai.allocs[d] = types[d]
		}
	}
}

// allocLocalType returns the type of a void * local holding allocations of
// T (T *), nil for other declarators.
func (fl *funcLowerer) allocLocalType(d *cc.Declarator) *program.Type {
	if fl.ai == nil || d == nil || fl.ai.allocs[d] == nil {
		return nil
	}
	return fl.l.ptrTo(fl.ai.allocs[d])
}

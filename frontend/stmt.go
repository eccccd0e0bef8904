package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// funcLowerer lowers one function body.
type funcLowerer struct {
	l     *lowerer
	cname string
	f     *program.Func
	body  []*program.Instr

	vars       map[*cc.Declarator]*program.Var
	localNames map[string]bool
	addrTaken  map[string]bool // locals whose address is taken (found in this pass)
	knownAddr  map[string]bool // the same, known from a previous pass

	atomicFunc  bool
	atomicDepth int

	labels map[string]*program.Instr
	brk    *program.Instr
	cont   *program.Instr
	sw     *switchCtx

	paramNames map[string]*program.Var

	// ai is the analysis of integers that hold addresses (addrint.go).
	ai *addrInfo

	// tlsExpr and tlsAddr give the function's thread-local variables and
	// their addresses (tls.go).
	tlsExpr, tlsAddr map[string]program.Expr

	nid  int
	ntmp int
	cur  program.Pos
}

type switchCtx struct {
	cases map[cc.Node]*program.Instr
	def   *program.Instr
}

func newFuncLowerer(l *lowerer, f *program.Func) *funcLowerer {
	return &funcLowerer{l: l, f: f, vars: map[*cc.Declarator]*program.Var{},
		localNames: map[string]bool{}, addrTaken: map[string]bool{}, knownAddr: map[string]bool{},
		labels: map[string]*program.Instr{}}
}

// function lowers a function definition; it lowers the body again when the
// set of address-taken locals found differs from the one assumed.
func (l *lowerer) function(fd *cc.FunctionDefinition) *program.Func {
	known := map[string]bool{}
	for pass := 0; ; pass++ {
		fl := l.lowerFunc(fd, known)
		same := len(fl.addrTaken) == len(known)
		for k := range fl.addrTaken {
			if !known[k] {
				same = false
			}
		}
		if same || pass >= 2 {
			for _, v := range append(append([]*program.Var(nil), fl.f.Params...), fl.f.Locals...) {
				v.AddrTaken = fl.addrTaken[v.Name]
			}
			return fl.finish()
		}
		known = fl.addrTaken
	}
}

func (l *lowerer) lowerFunc(fd *cc.FunctionDefinition, known map[string]bool) *funcLowerer {
	d := fd.Declarator
	l.setPos(d)
	cname := d.Name()
	ft, ok := d.Type().(*cc.FunctionType)
	if !ok {
		l.fail(d, "function %s without a function type", cname)
	}
	if fd.DeclarationList != nil {
		l.fail(fd, "K&R-style parameter declarations in %s", cname)
	}
	f := &program.Func{Name: l.funcNames[cname], Result: l.typ(d, ft.Result()), Pos: toPos(d.Position())}
	fl := newFuncLowerer(l, f)
	fl.cname = cname
	fl.knownAddr = known
	f.Atomic = strings.HasPrefix(cname, "__VERIFIER_atomic_")
	fl.atomicFunc = f.Atomic
	if ft.IsVariadic() && usesVarArgs(fd.CompoundStatement) {
		// one that never reads its variable arguments is its fixed
		// parameters (funcType; calls drop the others)
		l.fail(d, "variadic function %s that reads its variable arguments", cname)
	}
	for _, p := range ft.Parameters() {
		if p.Type().Kind() == cc.Void {
			continue
		}
		pd := p.Declarator
		name := p.Name()
		if name == "" {
			l.fail(d, "unnamed parameter in definition of %s", cname)
		}
		v := &program.Var{Name: l.uniqueName(name, fl.localNames), Type: l.typ(d, p.Type().Decay()), Pos: toPos(p.Position())}
		fl.localNames[v.Name] = true
		if pd != nil {
			fl.vars[pd] = v
		}
		fl.paramsByName(name, v)
		f.Params = append(f.Params, v)
	}
	fl.ai = l.analyzeAddrInts(fd.CompoundStatement)
	if cname == "main" && len(f.Params) > 0 {
		fl.mainParams(d, fd.CompoundStatement)
	}
	fl.tlsSetup()
	fl.compound(fd.CompoundStatement, false)
	return fl
}

// paramsByName remembers parameters by name too, for declarators that cc
// resolves to a copy.
func (fl *funcLowerer) paramsByName(name string, v *program.Var) {
	if fl.paramNames == nil {
		fl.paramNames = map[string]*program.Var{}
	}
	fl.paramNames[name] = v
}

// newInstr makes an instruction with a provisional label.
func (fl *funcLowerer) newInstr(op program.Op) *program.Instr {
	fl.nid++
	return &program.Instr{Label: program.Label(fmt.Sprintf("#%d", fl.nid)), Op: op, Pos: fl.cur}
}

// atomicCtx reports whether instructions emitted now are in a statically
// atomic context.
func (fl *funcLowerer) atomicCtx() bool { return fl.atomicFunc || fl.atomicDepth > 0 }

// emit appends in, first splitting it so that it makes at most one shared
// access outside atomic contexts.
func (fl *funcLowerer) emit(in *program.Instr) {
	if fl.f == nil {
		fl.body = append(fl.body, in)
		return
	}
	if !fl.atomicCtx() {
		fl.split(in)
	}
	fl.body = append(fl.body, in)
}

func (fl *funcLowerer) emitOp(op program.Op, lhs, rhs program.Expr) *program.Instr {
	in := fl.newInstr(op)
	in.Lhs, in.Rhs = lhs, rhs
	fl.emit(in)
	return in
}

func (fl *funcLowerer) assign(lhs, rhs program.Expr) {
	fl.emitOp(program.OpAssign, lhs, rhs)
}

// newLabel returns a Skip to be placed later as a goto target.
func (fl *funcLowerer) newLabel() *program.Instr { return fl.newInstr(program.OpSkip) }

func (fl *funcLowerer) place(s *program.Instr) {
	s.Pos = fl.cur
	fl.body = append(fl.body, s)
}

func (fl *funcLowerer) jump(to *program.Instr, guard program.Expr) {
	in := fl.newInstr(program.OpGoto)
	in.Rhs = guard
	in.Targets = []program.Label{to.Label}
	fl.emit(in)
}

// tmp declares a fresh temporary of type t.
func (fl *funcLowerer) tmp(t *program.Type) *program.Ref {
	var name string
	for {
		name = fmt.Sprintf("__tmp_%d", fl.ntmp)
		fl.ntmp++
		if !fl.localNames[name] && !fl.l.globalNames[name] {
			break
		}
	}
	fl.localNames[name] = true
	v := &program.Var{Name: name, Type: t, Temp: true, Pos: fl.cur}
	fl.f.Locals = append(fl.f.Locals, v)
	d := fl.newInstr(program.OpDecl)
	d.Var = name
	fl.body = append(fl.body, d)
	return &program.Ref{Name: name, Local: true, T: t}
}

// finish removes unused Skips, numbers the labels and the assertions.
func (fl *funcLowerer) finish() *program.Func {
	f := fl.f
	targeted := map[program.Label]bool{}
	for _, in := range fl.body {
		for _, t := range in.Targets {
			targeted[t] = true
		}
	}
	// Drop Skips nobody jumps to; merge runs of Skips into the first.
	alias := map[program.Label]program.Label{}
	var body []*program.Instr
	for _, in := range fl.body {
		if in.Op == program.OpSkip {
			if !targeted[in.Label] {
				continue
			}
			if n := len(body); n > 0 && body[n-1].Op == program.OpSkip {
				alias[in.Label] = body[n-1].Label
				continue
			}
		}
		body = append(body, in)
	}
	rename := map[program.Label]program.Label{}
	for i, in := range body {
		nl := program.Label(fmt.Sprintf("%s.%d", f.Name, i))
		rename[in.Label] = nl
		in.Label = nl
	}
	for old, to := range alias {
		rename[old] = rename[to]
	}
	k := 0
	for _, in := range body {
		for i, t := range in.Targets {
			in.Targets[i] = rename[t]
		}
		if in.Op == program.OpAssert {
			k++
			in.Prop = fmt.Sprintf("%s.assertion.%d", f.Name, k)
		}
	}
	f.Body = body
	return f
}

// Statements.

func (fl *funcLowerer) setPos(n cc.Node) {
	if n == nil {
		return
	}
	if p := n.Position(); p.IsValid() {
		fl.cur = toPos(p)
		fl.l.pos = fl.cur
	}
}

func (fl *funcLowerer) compound(cs *cc.CompoundStatement, scoped bool) {
	if cs == nil {
		return
	}
	depth := fl.atomicDepth
	for bl := cs.BlockItemList; bl != nil; bl = bl.BlockItemList {
		bi := bl.BlockItem
		if bi == nil {
			continue
		}
		switch bi.Case {
		case cc.BlockItemDecl:
			fl.localDecl(bi.Declaration)
		case cc.BlockItemLabel:
			fl.l.fail(bi, "local label declaration")
		case cc.BlockItemStmt:
			fl.stmt(bi.Statement)
		case cc.BlockItemFuncDef:
			fl.l.fail(bi, "nested function definition")
		}
	}
	fl.atomicDepth = depth
}

func (fl *funcLowerer) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	fl.setPos(s)
	switch s.Case {
	case cc.StatementLabeled:
		fl.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		fl.compound(s.CompoundStatement, true)
	case cc.StatementExpr:
		if es := s.ExpressionStatement; es != nil && es.ExpressionList != nil {
			fl.exprStmt(es.ExpressionList)
		}
	case cc.StatementSelection:
		fl.selection(s.SelectionStatement)
	case cc.StatementIteration:
		fl.iteration(s.IterationStatement)
	case cc.StatementJump:
		fl.jumpStmt(s.JumpStatement)
	case cc.StatementAsm:
		fl.l.fail(s, "inline assembly")
	default:
		fl.l.fail(s, "statement %v", s.Case)
	}
}

// exprStmt lowers an expression statement, tracking the builtin atomic
// sections that open and close in the current block.
func (fl *funcLowerer) exprStmt(e cc.ExpressionNode) {
	if name, ok := calleeName(e); ok && fl.l.defs[name] == nil {
		switch name {
		case "__VERIFIER_atomic_begin":
			fl.effect(e)
			fl.atomicDepth++
			return
		case "__VERIFIER_atomic_end":
			if fl.atomicDepth > 0 {
				fl.atomicDepth--
			}
			fl.effect(e)
			return
		}
	}
	fl.effect(e)
}

func (fl *funcLowerer) label(name string) *program.Instr {
	s := fl.labels[name]
	if s == nil {
		s = fl.newLabel()
		fl.labels[name] = s
	}
	return s
}

func (fl *funcLowerer) labeled(ls *cc.LabeledStatement) {
	switch ls.Case {
	case cc.LabeledStatementLabel:
		fl.place(fl.label(ls.Token.SrcStr()))
	case cc.LabeledStatementCaseLabel, cc.LabeledStatementDefault:
		if fl.sw == nil {
			fl.l.fail(ls, "case label outside switch")
		}
		s := fl.sw.cases[ls]
		if s == nil {
			fl.l.fail(ls, "case label")
		}
		fl.place(s)
	case cc.LabeledStatementRange:
		fl.l.fail(ls, "case range")
	}
	fl.stmt(ls.Statement)
}

func (fl *funcLowerer) selection(ss *cc.SelectionStatement) {
	switch ss.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		// if (E) goto L;  lowers to one guarded Goto.
		if ss.Case == cc.SelectionStatementIf {
			if js := gotoStmt(ss.Statement); js != nil {
				c := fl.cond(ss.ExpressionList)
				fl.setPos(js)
				fl.jump(fl.label(js.Token2.SrcStr()), c)
				return
			}
		}
		c := fl.cond(ss.ExpressionList)
		els := fl.newLabel()
		fl.branchUnless(c, els)
		fl.stmt(ss.Statement)
		if ss.Case == cc.SelectionStatementIfElse {
			end := fl.newLabel()
			fl.jump(end, nil)
			fl.place(els)
			fl.stmt(ss.Statement2)
			fl.place(end)
		} else {
			fl.place(els)
		}
	case cc.SelectionStatementSwitch:
		fl.switchStmt(ss)
	}
}

// gotoStmt returns the goto statement s consists of, if any.
func gotoStmt(s *cc.Statement) *cc.JumpStatement {
	for s != nil && s.Case == cc.StatementCompound {
		cs := s.CompoundStatement
		if cs.BlockItemList == nil || cs.BlockItemList.BlockItemList != nil || cs.BlockItemList.BlockItem.Case != cc.BlockItemStmt {
			return nil
		}
		s = cs.BlockItemList.BlockItem.Statement
	}
	if s != nil && s.Case == cc.StatementJump && s.JumpStatement.Case == cc.JumpStatementGoto {
		return s.JumpStatement
	}
	return nil
}

// branchUnless jumps to target when c is false (nothing when c is a
// non-zero constant).
func (fl *funcLowerer) branchUnless(c program.Expr, target *program.Instr) {
	if k, ok := c.(*program.Const); ok {
		if k.V != 0 {
			return
		}
		fl.jump(target, nil)
		return
	}
	fl.jump(target, negate(c))
}

// negate returns the condition !c, flipping comparisons.
func negate(c program.Expr) program.Expr {
	if b, ok := c.(*program.Binary); ok {
		flip := map[program.BinOp]program.BinOp{program.Eq: program.Ne, program.Ne: program.Eq,
			program.Lt: program.Ge, program.Ge: program.Lt, program.Gt: program.Le, program.Le: program.Gt}
		if op, ok := flip[b.Op]; ok {
			return &program.Binary{Op: op, X: b.X, Y: b.Y, T: b.T}
		}
	}
	if u, ok := c.(*program.Unary); ok && u.Op == program.Not && isBoolish(u.X) {
		return u.X
	}
	return &program.Unary{Op: program.Not, X: c, T: program.IntT}
}

// isBoolish reports whether e's value is always 0 or 1 of type int.
func isBoolish(e program.Expr) bool {
	switch e := e.(type) {
	case *program.Binary:
		switch e.Op {
		case program.Eq, program.Ne, program.Lt, program.Le, program.Gt, program.Ge, program.LAnd, program.LOr:
			return program.Identical(e.T, program.IntT)
		}
	case *program.Unary:
		return e.Op == program.Not
	}
	return false
}

func (fl *funcLowerer) iteration(is *cc.IterationStatement) {
	brk, cont := fl.brk, fl.cont
	defer func() { fl.brk, fl.cont = brk, cont }()
	end := fl.newLabel()
	fl.brk = end
	switch is.Case {
	case cc.IterationStatementWhile:
		head := fl.newLabel()
		fl.cont = head
		fl.place(head)
		c := fl.cond(is.ExpressionList)
		fl.branchUnless(c, end)
		fl.stmt(is.Statement)
		fl.setPos(is)
		fl.jump(head, nil)
		fl.place(end)
	case cc.IterationStatementDo:
		head := fl.newLabel()
		cont := fl.newLabel()
		fl.cont = cont
		fl.place(head)
		fl.stmt(is.Statement)
		fl.place(cont)
		fl.setPos(is.ExpressionList)
		c := fl.cond(is.ExpressionList)
		if k, ok := c.(*program.Const); ok {
			if k.V != 0 {
				fl.jump(head, nil)
			}
		} else {
			fl.jump(head, c)
		}
		fl.place(end)
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		// for (init; cond; post) has its expressions in ExpressionList,
		// 2 and 3; for (decl cond; post) in ExpressionList and 2.
		cond, post := is.ExpressionList2, is.ExpressionList3
		if is.Case == cc.IterationStatementForDecl {
			fl.localDecl(is.Declaration)
			cond, post = is.ExpressionList, is.ExpressionList2
		} else if is.ExpressionList != nil {
			fl.effect(is.ExpressionList)
		}
		head := fl.newLabel()
		cont := fl.newLabel()
		fl.cont = cont
		fl.place(head)
		if cond != nil {
			c := fl.cond(cond)
			fl.branchUnless(c, end)
		}
		fl.stmt(is.Statement)
		fl.place(cont)
		if post != nil {
			fl.setPos(post)
			fl.effect(post)
		}
		fl.jump(head, nil)
		fl.place(end)
	}
}

func (fl *funcLowerer) jumpStmt(js *cc.JumpStatement) {
	switch js.Case {
	case cc.JumpStatementGoto:
		fl.jump(fl.label(js.Token2.SrcStr()), nil)
	case cc.JumpStatementGotoExpr:
		fl.l.fail(js, "computed goto")
	case cc.JumpStatementContinue:
		if fl.cont == nil {
			fl.l.fail(js, "continue outside a loop")
		}
		fl.jump(fl.cont, nil)
	case cc.JumpStatementBreak:
		if fl.brk == nil {
			fl.l.fail(js, "break outside a loop or switch")
		}
		fl.jump(fl.brk, nil)
	case cc.JumpStatementReturn:
		in := fl.newInstr(program.OpReturn)
		if js.ExpressionList != nil {
			if fl.f.Result.Kind == program.Void {
				fl.effect(js.ExpressionList)
			} else {
				v := fl.rvalTo(js.ExpressionList, fl.f.Result)
				in.Rhs = v
			}
		}
		in.Pos = fl.cur
		fl.emit(in)
	}
}

func (fl *funcLowerer) switchStmt(ss *cc.SelectionStatement) {
	v := fl.rval(ss.ExpressionList)
	t := promote(v.Type())
	if !t.IsInteger() {
		fl.l.fail(ss, "switch on %s", v.Type())
	}
	v = fl.convert(v, t, false)
	if !isStableLocal(fl, v) {
		tv := fl.tmp(t)
		fl.assign(tv, v)
		v = tv
	}
	ctx := &switchCtx{cases: map[cc.Node]*program.Instr{}}
	end := fl.newLabel()
	type cse struct {
		val int64
		s   *program.Instr
	}
	var cases []cse
	collectCases(ss.Statement, func(ls *cc.LabeledStatement) {
		s := fl.newLabel()
		ctx.cases[ls] = s
		switch ls.Case {
		case cc.LabeledStatementCaseLabel:
			k, ok := fl.l.constInt(ls.ConstantExpression)
			if !ok {
				fl.l.fail(ls, "non-constant case label")
			}
			cases = append(cases, cse{k, s})
		case cc.LabeledStatementDefault:
			ctx.def = s
		case cc.LabeledStatementRange:
			fl.l.fail(ls, "case range")
		}
	})
	for _, c := range cases {
		fl.jump(c.s, &program.Binary{Op: program.Eq, X: v, Y: program.IntConst(t, c.val), T: program.IntT})
	}
	if ctx.def != nil {
		fl.jump(ctx.def, nil)
	} else {
		fl.jump(end, nil)
	}
	sw, brk := fl.sw, fl.brk
	fl.sw, fl.brk = ctx, end
	fl.stmt(ss.Statement)
	fl.sw, fl.brk = sw, brk
	fl.place(end)
}

// isStableLocal reports whether e is a non-shared local variable.
func isStableLocal(fl *funcLowerer, e program.Expr) bool {
	r, ok := e.(*program.Ref)
	return ok && r.Local && !fl.isShared(r)
}

// collectCases calls f for the case and default labels of one switch body,
// not descending into nested switches.
func collectCases(s *cc.Statement, f func(*cc.LabeledStatement)) {
	if s == nil {
		return
	}
	switch s.Case {
	case cc.StatementLabeled:
		ls := s.LabeledStatement
		if ls.Case != cc.LabeledStatementLabel {
			f(ls)
		}
		collectCases(ls.Statement, f)
	case cc.StatementCompound:
		for bl := s.CompoundStatement.BlockItemList; bl != nil; bl = bl.BlockItemList {
			if bi := bl.BlockItem; bi != nil && bi.Case == cc.BlockItemStmt {
				collectCases(bi.Statement, f)
			}
		}
	case cc.StatementSelection:
		ss := s.SelectionStatement
		if ss.Case != cc.SelectionStatementSwitch {
			collectCases(ss.Statement, f)
			collectCases(ss.Statement2, f)
		}
	case cc.StatementIteration:
		collectCases(s.IterationStatement.Statement, f)
	}
}

// localDecl lowers a block-scope declaration.
func (fl *funcLowerer) localDecl(d *cc.Declaration) {
	if d == nil || d.Case != cc.DeclarationDecl {
		return
	}
	fl.setPos(d)
	for list := d.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
		id := list.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		dd := id.Declarator
		if dd.IsTypename() {
			continue
		}
		var init *cc.Initializer
		if id.Case == cc.InitDeclaratorInit {
			init = id.Initializer
		}
		t := dd.Type()
		if t.Kind() == cc.Function {
			continue
		}
		if dd.IsExtern() {
			if init != nil {
				fl.l.fail(dd, "initialised extern declaration in a block")
			}
			fl.l.global(dd, dd.Name(), nil)
			continue
		}
		if dd.IsStatic() {
			// A static local is a global with a unique name.
			// It is created when first used.
			if fl.l.staticVars[dd] == nil {
				fl.l.staticInit[dd] = staticDecl{fn: fl.cname, init: init}
			}
			continue
		}
		if at, ok := t.(*cc.ArrayType); ok && at.IsVLA() {
			fl.vla(dd, at, init)
			continue
		}
		if isFloating(t) && dd.ReadCount() == 0 && dd.WriteCount() <= initWrites(init) && !dd.AddressTaken() {
			// a floating-point local no run reads or writes: not a
			// computation with floating point (opaque.go); its
			// initializer is evaluated for its effects
			if init != nil {
				if init.Case != cc.InitializerExpr || !init.AssignmentExpression.Pure() {
					fl.l.fail(init, "initializer with effects of the floating-point variable %s", dd.Name())
				}
			}
			fl.l.debugOnce("float:"+dd.Name(), "unused floating-point local is not lowered", "var", dd.Name(), "pos", fl.cur.String())
			continue
		}
		pt := fl.l.typ(dd, t)
		at := fl.addrLocalType(dd)
		if at != nil {
			pt = at
		}
		if vt := fl.allocLocalType(dd); vt != nil {
			pt = vt
		}
		if pt.Kind == program.Array && init != nil && pt.Len == 0 {
			fl.l.fail(dd, "local array of unknown size")
		}
		v := &program.Var{Name: fl.l.uniqueName(dd.Name(), fl.localNames), Type: pt, Pos: toPos(dd.Position())}
		fl.localNames[v.Name] = true
		fl.vars[dd] = v
		fl.f.Locals = append(fl.f.Locals, v)
		decl := fl.newInstr(program.OpDecl)
		decl.Var = v.Name
		fl.body = append(fl.body, decl)
		if init != nil {
			ref := &program.Ref{Name: v.Name, Local: true, T: pt}
			if at != nil {
				fl.assign(ref, fl.addrValue(init.AssignmentExpression, at))
				continue
			}
			fl.localInit(ref, init)
		}
	}
}

// localInit assigns an initializer to a local, one Assign per scalar.
func (fl *funcLowerer) localInit(lv program.Expr, init *cc.Initializer) {
	t := lv.Type()
	if fl.l.isPthreadModel(t) {
		fl.assignCompound(lv, fl.l.pthreadInit(t, init))
		return
	}
	if t.IsScalar() {
		if init.Case == cc.InitializerInitList {
			if t.Kind == program.Mutex || t.Kind == program.Cond {
				fl.assign(lv, &program.Const{T: t, V: 0})
				return
			}
			il := init.InitializerList
			if il == nil || il.Initializer == nil {
				fl.assign(lv, zero(t))
				return
			}
			fl.localInit(lv, il.Initializer)
			return
		}
		fl.assignExpr(lv, init.AssignmentExpression)
		return
	}
	if init.Case == cc.InitializerExpr {
		e := init.AssignmentExpression
		if s, ok := stringLit(e); ok && t.Kind == program.Array {
			fl.assignCompound(lv, stringCompound(t, s))
			return
		}
		if t.Kind == program.Struct || t.Kind == program.Union {
			fl.assignExpr(lv, e)
			return
		}
		fl.l.fail(init, "array initialised with an expression")
	}
	fl.initList(lv, init.InitializerList)
}

// initWrites is the number of writes cc counts for a declaration's
// initializer.
func initWrites(init *cc.Initializer) int {
	if init != nil {
		return 1
	}
	return 0
}

// initList assigns a brace list to lv, one Assign per scalar.
func (fl *funcLowerer) initList(lv program.Expr, list *cc.InitializerList) {
	t := lv.Type()
	if t.IsScalar() {
		for il := list; il != nil; il = il.InitializerList {
			if il.Initializer != nil {
				fl.localInit(lv, il.Initializer)
				return
			}
		}
		fl.assign(lv, zero(t))
		return
	}
	// Evaluate the elements in order into a compound of pure values.
	c := fl.l.compound(t, list, false, func(et *program.Type, in *cc.Initializer) program.Expr {
		if in.Case == cc.InitializerInitList {
			il := in.InitializerList
			if il == nil || il.Initializer == nil {
				return zero(et)
			}
			in = il.Initializer
		}
		v := fl.rvalTo(in.AssignmentExpression, et)
		if fl.readCount(v) > 0 || program.HasNondet(v) {
			tv := fl.tmp(et)
			fl.assign(tv, v)
			return tv
		}
		return v
	})
	fl.assignCompound(lv, c)
}

// assignCompound assigns every scalar cell of lv from c (zero when missing).
func (fl *funcLowerer) assignCompound(lv program.Expr, c program.Expr) {
	t := lv.Type()
	if t.IsScalar() {
		if c == nil {
			c = zero(t)
		}
		fl.assign(lv, c)
		return
	}
	var elems []program.Expr
	if cc, ok := c.(*program.Compound); ok {
		elems = cc.Elems
	} else if c != nil {
		fl.assign(lv, c)
		return
	}
	get := func(i int) program.Expr {
		if i < len(elems) {
			return elems[i]
		}
		return nil
	}
	switch t.Kind {
	case program.Array:
		for i := int64(0); i < t.Len; i++ {
			fl.assignCompound(&program.Index{X: lv, I: program.IntConst(program.IntT, i), T: t.Elem}, get(int(i)))
		}
	case program.Struct:
		for i, f := range t.Fields {
			fl.assignCompound(&program.FieldSel{X: lv, Name: f.Name, Field: i, T: f.Type}, get(i))
		}
	case program.Union:
		if len(t.Fields) > 0 {
			f := t.Fields[0]
			fl.assignCompound(&program.FieldSel{X: lv, Name: f.Name, Field: 0, T: f.Type}, get(0))
		}
	}
}

// vla lowers a variable-length array to a pointer to a heap block of the
// run-time length (its storage, unlike C's, outlives the block).
func (fl *funcLowerer) vla(dd *cc.Declarator, at *cc.ArrayType, init *cc.Initializer) {
	if init != nil {
		fl.l.fail(dd, "initialised variable-length array %s", dd.Name())
	}
	if e, ok := at.Elem().(*cc.ArrayType); ok && e.IsVLA() {
		fl.l.fail(dd, "multi-dimensional variable-length array %s", dd.Name())
	}
	if dd.SizeofCount() > 0 {
		fl.l.fail(dd, "sizeof of variable-length array %s", dd.Name())
	}
	elem := fl.l.typ(dd, at.Elem())
	pt := fl.l.ptrTo(elem)
	v := &program.Var{Name: fl.l.uniqueName(dd.Name(), fl.localNames), Type: pt, Pos: toPos(dd.Position())}
	fl.localNames[v.Name] = true
	fl.vars[dd] = v
	fl.f.Locals = append(fl.f.Locals, v)
	decl := fl.newInstr(program.OpDecl)
	decl.Var = v.Name
	fl.body = append(fl.body, decl)
	n := fl.rvalTo(at.SizeExpression(), fl.l.sizeT())
	fl.l.log.Debug("variable-length array lowered to a heap block", "var", dd.Name(), "pos", fl.cur.String())
	fl.emitOp(program.OpAlloc, &program.Ref{Name: v.Name, Local: true, T: pt}, n)
}

// usesVarArgs reports whether a function body uses the <stdarg.h> macros.
func usesVarArgs(body *cc.CompoundStatement) bool {
	found := false
	walkNodes(body, func(n cc.Node) bool {
		if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
			switch name := p.Token.SrcStr(); {
			case strings.HasPrefix(name, "__builtin_va_"), name == "va_start", name == "va_arg", name == "va_copy", name == "va_end":
				found = true
			}
		}
		return !found
	})
	return found
}

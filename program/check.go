package program

import (
	"errors"
	"fmt"
)

// Check verifies the invariants stated in the package documentation and
// returns every violation found, joined. Tests run it after every
// translation.
func Check(p *Program) error {
	c := &checker{p: p, labels: map[Label]string{}, globals: map[string]*Var{}, funcs: map[string]*Func{}}
	c.run()
	return errors.Join(c.errs...)
}

type checker struct {
	p       *Program
	errs    []error
	labels  map[Label]string
	globals map[string]*Var
	funcs   map[string]*Func
	fn      *Func
	in      *Instr
}

func (c *checker) errorf(format string, args ...any) {
	where := ""
	if c.in != nil {
		where = fmt.Sprintf("%s (%s): ", c.in.Label, c.in.Pos)
	} else if c.fn != nil {
		where = c.fn.Name + ": "
	}
	c.errs = append(c.errs, fmt.Errorf("%s%s", where, fmt.Sprintf(format, args...)))
}

func (c *checker) run() {
	p := c.p
	if p.Func("main") == nil {
		c.errorf("no main function")
	}
	for _, g := range p.Globals {
		if c.globals[g.Name] != nil {
			c.errorf("global %s declared twice", g.Name)
		}
		c.globals[g.Name] = g
		if g.Type == nil {
			c.errorf("global %s has no type", g.Name)
		}
	}
	for _, f := range p.Funcs {
		if c.funcs[f.Name] != nil {
			c.errorf("function %s defined twice", f.Name)
		}
		c.funcs[f.Name] = f
		for _, in := range f.Body {
			if other, dup := c.labels[in.Label]; dup {
				c.errorf("label %s used twice (in %s and %s)", in.Label, other, f.Name)
			}
			c.labels[in.Label] = f.Name
		}
	}
	for _, g := range p.Globals {
		if g.Init != nil {
			c.expr(g.Init)
			if !assignable(g.Type, g.Init.Type()) {
				c.errorf("global %s of type %s initialised with %s", g.Name, g.Type, g.Init.Type())
			}
		}
	}
	for _, f := range p.Funcs {
		c.fn = f
		c.function(f)
		c.fn, c.in = nil, nil
	}
}

func (c *checker) function(f *Func) {
	names := map[string]bool{}
	for _, v := range append(append([]*Var(nil), f.Params...), f.Locals...) {
		if names[v.Name] {
			c.errorf("variable %s declared twice", v.Name)
		}
		if c.globals[v.Name] != nil {
			c.errorf("local %s has the name of a global", v.Name)
		}
		names[v.Name] = true
	}
	decls := map[string]int{}
	for _, in := range f.Body {
		c.in = in
		c.instr(f, in)
		if in.Op == OpDecl {
			decls[in.Var]++
		}
	}
	c.in = nil
	for _, v := range f.Locals {
		if decls[v.Name] != 1 {
			c.errorf("local %s has %d Decl instructions, want 1", v.Name, decls[v.Name])
		}
	}
}

func (c *checker) instr(f *Func, in *Instr) {
	if in.Label == "" {
		c.errorf("instruction without label")
	}
	for _, e := range in.Operands() {
		c.expr(e)
	}
	need := func(name string, e Expr) {
		if e == nil {
			c.errorf("%s without %s", in.Op, name)
		}
	}
	scalarCond := func() {
		need("condition", in.Rhs)
		if in.Rhs != nil && !in.Rhs.Type().IsScalar() {
			c.errorf("condition of type %s", in.Rhs.Type())
		}
	}
	lvalue := func(e Expr) {
		if e != nil && !IsLValue(e) {
			c.errorf("%s is not an lvalue", ExprString(e))
		}
	}
	if in.Sliced && in.Op != OpSkip {
		c.errorf("%s marked Sliced (only a Skip can be)", in.Op)
	}
	switch in.Op {
	case OpSkip, OpAtomicBegin, OpAtomicEnd:
	case OpExit:
		if in.Rhs != nil && in.Rhs.Type().Kind != Pointer {
			c.errorf("thread result of type %s, want a pointer", in.Rhs.Type())
		}
	case OpAssign:
		need("lhs", in.Lhs)
		need("rhs", in.Rhs)
		lvalue(in.Lhs)
		if in.Lhs != nil && in.Rhs != nil && !assignable(in.Lhs.Type(), in.Rhs.Type()) {
			c.errorf("assigning %s to %s of type %s", in.Rhs.Type(), ExprString(in.Lhs), in.Lhs.Type())
		}
	case OpAssume:
		scalarCond()
	case OpAssert:
		scalarCond()
		if in.Prop == "" {
			c.errorf("assertion without property id")
		}
	case OpGoto:
		if in.Rhs != nil && !in.Rhs.Type().IsScalar() {
			c.errorf("guard of type %s", in.Rhs.Type())
		}
		if len(in.Targets) == 0 {
			c.errorf("goto without target")
		}
		for _, t := range in.Targets {
			if f.Index(t) < 0 {
				c.errorf("goto target %s not in %s", t, f.Name)
			}
		}
	case OpCall, OpSpawn:
		need("callee", in.Func)
		if in.Func == nil {
			return
		}
		ft := in.Func.Type()
		if ft.Kind == Pointer {
			ft = ft.Elem
		}
		if ft.Kind != Function {
			c.errorf("callee %s of type %s", ExprString(in.Func), in.Func.Type())
			return
		}
		if fr, ok := in.Func.(*FuncRef); ok {
			callee := c.funcs[fr.Name]
			if callee == nil {
				c.errorf("call of %s, which has no body", fr.Name)
			} else if in.Op == OpCall && len(callee.Params) != len(in.Args) && !ft.Variadic {
				c.errorf("call of %s with %d arguments, want %d", fr.Name, len(in.Args), len(callee.Params))
			}
		}
		if in.Op == OpSpawn {
			if len(in.Args) != 1 {
				c.errorf("spawn with %d arguments, want 1", len(in.Args))
			}
			if in.Lhs != nil && !in.Lhs.Type().IsInteger() {
				c.errorf("thread handle of type %s", in.Lhs.Type())
			}
		}
		lvalue(in.Lhs)
	case OpReturn:
		if in.Rhs != nil && f.Result.Kind != Void && !assignable(f.Result, in.Rhs.Type()) {
			c.errorf("returning %s from function returning %s", in.Rhs.Type(), f.Result)
		}
	case OpJoin:
		need("thread id", in.Rhs)
		if in.Rhs != nil && !in.Rhs.Type().IsInteger() {
			c.errorf("join of %s", in.Rhs.Type())
		}
		lvalue(in.Lhs)
		if in.Lhs != nil && in.Lhs.Type().Kind != Pointer {
			c.errorf("thread result stored into %s of type %s, want a pointer", ExprString(in.Lhs), in.Lhs.Type())
		}
	case OpLock, OpUnlock:
		need("mutex", in.Rhs)
		if in.Rhs != nil {
			if t := in.Rhs.Type(); t.Kind != Pointer || t.Elem.Kind != Mutex {
				c.errorf("%s of %s (type %s), want pointer to mutex", in.Op, ExprString(in.Rhs), t)
			}
		}
	case OpDecl:
		if f.Var(in.Var) == nil {
			c.errorf("decl of unknown local %s", in.Var)
		}
	case OpAlloc, OpRealloc:
		need("lhs", in.Lhs)
		need("count", in.Rhs)
		lvalue(in.Lhs)
		if in.Lhs != nil && in.Lhs.Type().Kind != Pointer {
			c.errorf("%s into %s of type %s", in.Op, ExprString(in.Lhs), in.Lhs.Type())
		}
		if in.Op == OpRealloc && (len(in.Args) != 1 || in.Args[0] == nil || in.Args[0].Type().Kind != Pointer) {
			c.errorf("realloc without one old pointer")
		}
	case OpFree:
		need("pointer", in.Rhs)
	default:
		c.errorf("unknown op %d", in.Op)
	}
}

func (c *checker) expr(e Expr) {
	Walk(e, func(x Expr) bool {
		if x.Type() == nil {
			c.errorf("untyped %T in %s", x, ExprString(e))
			return false
		}
		switch x := x.(type) {
		case *Ref:
			var v *Var
			if x.Local {
				if c.fn != nil {
					v = c.fn.Var(x.Name)
				}
			} else {
				v = c.globals[x.Name]
			}
			if v == nil {
				c.errorf("%s does not resolve (local=%v)", x.Name, x.Local)
			} else if !Identical(v.Type, x.T) {
				c.errorf("%s has type %s, reference says %s", x.Name, v.Type, x.T)
			}
		case *ThreadID:
			if !x.T.IsInteger() {
				c.errorf("thread id of type %s", x.T)
			}
		case *FuncRef:
			if c.funcs[x.Name] == nil {
				c.errorf("function %s has no body", x.Name)
			}
		case *Binary:
			c.binary(x)
		case *Unary:
			if !x.X.Type().IsScalar() {
				c.errorf("%s applied to %s", ExprString(x), x.X.Type())
			}
		case *CondExpr:
			// a function designator operand decays to a pointer (C11 6.3.2.1p4)
			arm := func(a Expr) bool {
				return Identical(a.Type(), x.T) || a.Type().Kind == Function && x.T.Kind == Pointer && Identical(a.Type(), x.T.Elem)
			}
			if !x.C.Type().IsScalar() || !arm(x.X) || !arm(x.Y) {
				c.errorf("ill-typed conditional %s", ExprString(x))
			}
		case *Index:
			if x.X.Type().Kind != Array || !x.I.Type().IsInteger() || !Identical(x.X.Type().Elem, x.T) {
				c.errorf("ill-typed index %s", ExprString(x))
			}
		case *FieldSel:
			t := x.X.Type()
			if (t.Kind != Struct && t.Kind != Union) || x.Field < 0 || x.Field >= len(t.Fields) || t.Fields[x.Field].Name != x.Name || !Identical(t.Fields[x.Field].Type, x.T) {
				c.errorf("ill-typed field selection %s", ExprString(x))
			}
		case *Deref:
			if x.X.Type().Kind != Pointer || !Identical(x.X.Type().Elem, x.T) {
				c.errorf("ill-typed dereference %s", ExprString(x))
			}
		case *AddrOf:
			_, fn := x.X.(*FuncRef)
			if (!IsLValue(x.X) && !fn) || x.T.Kind != Pointer || !Identical(x.T.Elem, x.X.Type()) {
				c.errorf("ill-typed address-of %s", ExprString(x))
			}
		}
		return true
	})
}

func (c *checker) binary(x *Binary) {
	a, b := x.X.Type(), x.Y.Type()
	switch x.Op {
	case Shl, Shr:
		if !a.IsInteger() || !b.IsInteger() || !Identical(a, x.T) {
			c.errorf("ill-typed shift %s", ExprString(x))
		}
	case Eq, Ne, Lt, Le, Gt, Ge, LAnd, LOr:
		ptr := func(t *Type) bool { return t.Kind == Pointer || t.Kind == Function } // a function designator decays
		if x.Op != LAnd && x.Op != LOr && !Identical(a, b) && !(ptr(a) && ptr(b)) {
			c.errorf("comparison of %s and %s in %s", a, b, ExprString(x))
		}
		if !x.T.IsInteger() {
			c.errorf("comparison with result type %s", x.T)
		}
	case Add, Sub:
		if a.Kind == Pointer {
			if x.Op == Sub && b.Kind == Pointer {
				return
			}
			if !b.IsInteger() || !Identical(a, x.T) {
				c.errorf("ill-typed pointer arithmetic %s", ExprString(x))
			}
			return
		}
		fallthrough
	default:
		if !Identical(a, b) || !Identical(a, x.T) || !a.IsInteger() {
			c.errorf("operands %s and %s, result %s in %s", a, b, x.T, ExprString(x))
		}
	}
}

// assignable reports whether a value of type src may be stored in dst
// without a conversion: identical types, or pointers (void * converts
// implicitly in C), or a function designator into a function pointer.
func assignable(dst, src *Type) bool {
	if Identical(dst, src) {
		return true
	}
	if dst.Kind == Pointer && src.Kind == Pointer {
		return true
	}
	if dst.Kind == Pointer && src.Kind == Function {
		return true
	}
	if dst.Kind == Array && src.Kind == Array {
		return Identical(dst.Elem, src.Elem)
	}
	return false
}

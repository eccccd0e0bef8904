// Package slice computes the abstraction of a program to a set of kept
// variables V0 (paper §5.1): instructions are kept with their labels,
// variables outside V0 disappear and every value computed from them becomes
// nondeterministic, so that every run of the program maps to a run of the
// abstraction with the same label sequence (Lemma 1).
//
// The map, per instruction, with S the sliced variables (an expression
// "reads S" when it mentions a variable of S):
//
//	x := e,  x ∈ S                 → skip (also *p := e when p's targets are in S)
//	x := e,  x ∉ S, e reads S      → x := *   for integers; for pointers and
//	                                  aggregates only the integer parts that
//	                                  read S become *: p := q + i → p := q + *,
//	                                  p := c ? q : r → p := * ? q : r
//	*(p + i) := e, i reads S       → *(p + *) := e' (also &a[i] + i ...)
//	assume e, e reads S            → skip             (assume * is a no-op)
//	assert e, e reads S            → assert *         (may fail)
//	if e goto l, e reads S         → if * goto l
//	f(args), arg reads S           → f(args'), arg' as for x := e (0 when the parameter is sliced)
//	r := f(..), r ∈ S              → f(..)
//	return e, e reads S            → return e' as for x := e
//	lock/unlock m, m ∈ S           → skip             (more interleavings)
//	join t, t reads S              → skip             (the joiner may run ahead)
//	spawn into h, h ∈ S            → spawn without handle
//	decl x / alloc / free, x ∈ S   → skip; alloc of n elements, n reads S → alloc of * elements
//	atomic begin/end, skip, exit   → unchanged
//
// A pointer is never replaced by a nondeterministic value: the abstraction
// can always follow the concrete run by choosing, for each *, the value the
// replaced subexpression has in the program.
//
// Steps that may fail (program.Checked: an index, a dereference, pointer
// arithmetic) are never abstracted away: a run of the program that ends in
// an invalid access must map to one of the abstraction that ends in it too,
// or a TRUE of the abstraction would hide it. depgraph.Graph.Required keeps
// what decides them (the index, the indexed object, the pointer and its
// targets, the object such an instruction assigns), and an expression
// with a checked subexpression that reads sliced variables loses only
// those reads (x := a[i] + y → x := a[i] + *; assume and assert likewise,
// instead of skip and assert *).
//
// Variables are kept or sliced by whole alias groups (depgraph), so a write
// through a pointer never reaches a sliced variable that a kept one aliases,
// and no write that may reach a kept variable is dropped (design.md §5 rule
// 4); the variables of depgraph.Graph.Required are always kept. Sliced
// globals and locals are removed from the program, so the result cannot
// mention them; program.Check holds for it. Parameters stay (the signature
// is part of the calls); a sliced parameter is never read. Every label of
// the input is kept, on an instruction of the same function at the same
// position. Abstract never modifies its input.
package slice

import (
	"fmt"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/program"
)

// Abstract returns the abstraction of p that keeps the variables in keep
// (with g.Required, closed under g's alias groups) and the set of variables
// it kept. g must be depgraph.Build(p).
func Abstract(p *program.Program, g *depgraph.Graph, keep []depgraph.Var) (*program.Program, []depgraph.Var, error) {
	kept := g.Close(append(append([]depgraph.Var(nil), keep...), g.Required...))
	s := &slicer{p: program.Clone(p), g: g, keep: map[depgraph.Var]bool{}}
	for _, v := range kept {
		s.keep[v] = true
	}
	if err := s.run(); err != nil {
		return nil, nil, err
	}
	return s.p, kept, nil
}

type slicer struct {
	p    *program.Program
	g    *depgraph.Graph
	keep map[depgraph.Var]bool
	fn   *program.Func
	// resultsKept: some Join stores a thread's result into a kept
	// lvalue; retKept: the functions whose returned value some call
	// stores into a kept lvalue ("" for a call through a pointer). A
	// returned value nothing kept receives is replaced by zero when it
	// reads sliced variables.
	resultsKept bool
	retKept     map[string]bool
}

func (s *slicer) kept(v depgraph.Var) bool { return s.keep[v] }

func (s *slicer) run() error {
	var globals []*program.Var
	for _, v := range s.p.Globals {
		if s.kept(depgraph.Var(v.Name)) {
			globals = append(globals, v)
		}
	}
	s.retKept = map[string]bool{}
	for _, f := range s.p.Funcs {
		s.fn = f
		for _, in := range f.Body {
			if in.Lhs == nil || s.lvSliced(in.Lhs) {
				continue
			}
			switch in.Op {
			case program.OpJoin:
				s.resultsKept = true
			case program.OpCall:
				name := ""
				if fr, ok := in.Func.(*program.FuncRef); ok {
					name = fr.Name
				}
				s.retKept[name] = true
			}
		}
	}
	s.p.Globals = globals
	for _, f := range s.p.Funcs {
		s.fn = f
		for _, in := range f.Body {
			if err := s.instr(in); err != nil {
				return err
			}
		}
		var locals []*program.Var
		for _, v := range f.Locals {
			if s.kept(s.local(v.Name)) {
				locals = append(locals, v)
			}
		}
		f.Locals = locals
	}
	return nil
}

func (s *slicer) local(name string) depgraph.Var { return depgraph.Var(s.fn.Name + "::" + name) }

func (s *slicer) varOf(r *program.Ref) depgraph.Var { return depgraph.VarOf(s.fn.Name, r) }

// readsSliced reports whether e mentions a sliced variable (a read, or an
// address that the abstraction cannot form).
func (s *slicer) readsSliced(e program.Expr) bool {
	found := false
	program.Walk(e, func(x program.Expr) bool {
		if r, ok := x.(*program.Ref); ok && !s.kept(s.varOf(r)) {
			found = true
		}
		return !found
	})
	return found
}

// targetsSliced reports whether the objects the pointer value e may point
// to are sliced. A pointer and everything it may reach are one alias group,
// so they are all kept or all sliced; a pointer that reaches no object
// (NULL, an integer) counts as kept: the instruction stays and fails, or
// not, as in the program.
func (s *slicer) targetsSliced(e program.Expr) bool {
	src := s.g.PointerSources(s.fn.Name, e)
	if len(src) == 0 {
		return false
	}
	for _, v := range src {
		if s.kept(v) {
			return false
		}
	}
	return true
}

// lvSliced reports whether the objects lv designates are sliced.
func (s *slicer) lvSliced(lv program.Expr) bool {
	switch e := lv.(type) {
	case *program.Ref:
		return !s.kept(s.varOf(e))
	case *program.Index:
		return s.lvSliced(e.X)
	case *program.FieldSel:
		return s.lvSliced(e.X)
	case *program.Deref:
		return s.targetsSliced(e.X)
	}
	return false
}

// value returns e, or its abstraction when e reads sliced variables: a
// nondeterministic value for a scalar that is not a pointer, and for
// pointers and aggregates the same expression with the integer parts that
// read sliced variables replaced (see abs).
func (s *slicer) value(e program.Expr) (program.Expr, error) {
	if e == nil || !s.readsSliced(e) {
		return e, nil
	}
	t := e.Type()
	switch t.Kind {
	case program.Int, program.Bool, program.Mutex, program.Cond:
		return &program.Nondet{T: t}, nil
	}
	return s.abs(e)
}

// abs rewrites a pointer- or aggregate-valued expression, or an lvalue,
// that reads sliced variables: integer operands become nondeterministic,
// pointers, objects and array indices stay (they are kept with everything
// they alias; an index with variables is Checked, hence kept).
func (s *slicer) abs(e program.Expr) (program.Expr, error) {
	if !s.readsSliced(e) {
		return e, nil
	}
	switch x := e.(type) {
	case *program.Ref:
		return nil, fmt.Errorf("%s is sliced but its value is needed (alias groups are not closed)", x.Name)
	case *program.Index:
		base, err := s.abs(x.X)
		if err != nil {
			return nil, err
		}
		if s.readsSliced(x.I) {
			// a variable index is Checked: depgraph.Required keeps it
			return nil, fmt.Errorf("index %s reads sliced variables", program.ExprString(x.I))
		}
		return &program.Index{X: base, I: x.I, T: x.T}, nil
	case *program.FieldSel:
		base, err := s.abs(x.X)
		if err != nil {
			return nil, err
		}
		return &program.FieldSel{X: base, Name: x.Name, Field: x.Field, T: x.T}, nil
	case *program.Deref:
		ptr, err := s.value(x.X)
		if err != nil {
			return nil, err
		}
		return &program.Deref{X: ptr, T: x.T}, nil
	case *program.AddrOf:
		lv, err := s.abs(x.X)
		if err != nil {
			return nil, err
		}
		return &program.AddrOf{X: lv, T: x.T}, nil
	case *program.Cast:
		v, err := s.value(x.X)
		if err != nil {
			return nil, err
		}
		return &program.Cast{X: v, T: x.T}, nil
	case *program.Binary:
		a, err := s.value(x.X)
		if err != nil {
			return nil, err
		}
		b, err := s.value(x.Y)
		if err != nil {
			return nil, err
		}
		return &program.Binary{Op: x.Op, X: a, Y: b, T: x.T}, nil
	case *program.CondExpr:
		c, err := s.value(x.C)
		if err != nil {
			return nil, err
		}
		a, err := s.value(x.X)
		if err != nil {
			return nil, err
		}
		b, err := s.value(x.Y)
		if err != nil {
			return nil, err
		}
		return &program.CondExpr{C: c, X: a, Y: b, T: x.T}, nil
	case *program.Unary:
		return &program.Nondet{T: x.T}, nil
	}
	return nil, fmt.Errorf("cannot abstract %s", program.ExprString(e))
}

// valueChecked is value(e) for an e without Checked subexpressions;
// otherwise e with only its subexpressions that read sliced variables and
// cannot fail replaced (value), so that every step that may fail stays.
// Their own operands are kept (depgraph.Graph.Required).
func (s *slicer) valueChecked(e program.Expr) (program.Expr, error) {
	if e == nil || !s.readsSliced(e) || !program.MayFail(e) {
		return s.value(e)
	}
	var err error
	sub := func(x program.Expr) program.Expr {
		y, err1 := s.valueChecked(x)
		if err == nil {
			err = err1
		}
		return y
	}
	var out program.Expr
	switch x := e.(type) {
	case *program.Unary:
		out = &program.Unary{Op: x.Op, X: sub(x.X), T: x.T}
	case *program.Binary:
		out = &program.Binary{Op: x.Op, X: sub(x.X), Y: sub(x.Y), T: x.T}
	case *program.CondExpr:
		out = &program.CondExpr{C: sub(x.C), X: sub(x.X), Y: sub(x.Y), T: x.T}
	case *program.Cast:
		out = &program.Cast{X: sub(x.X), T: x.T}
	case *program.Index:
		out = &program.Index{X: sub(x.X), I: sub(x.I), T: x.T}
	case *program.FieldSel:
		out = &program.FieldSel{X: sub(x.X), Name: x.Name, Field: x.Field, T: x.T}
	case *program.Deref:
		out = &program.Deref{X: sub(x.X), T: x.T}
	case *program.AddrOf:
		out = &program.AddrOf{X: sub(x.X), T: x.T}
	case *program.Compound:
		c := &program.Compound{T: x.T}
		for _, el := range x.Elems {
			c.Elems = append(c.Elems, sub(el))
		}
		out = c
	default:
		return nil, fmt.Errorf("cannot abstract %s", program.ExprString(e))
	}
	return out, err
}

// errMayFail: an instruction that may fail writes a sliced object, which
// depgraph.Graph.Required rules out.
var errMayFail = fmt.Errorf("an instruction that may fail writes a sliced object (depgraph.Required does not keep it)")

func toSkip(in *program.Instr, why string) {
	*in = program.Instr{Label: in.Label, Op: program.OpSkip, Pos: in.Pos, Msg: why, Sliced: true}
}

func (s *slicer) instr(in *program.Instr) error {
	err := s.instr1(in)
	if err != nil {
		return &program.Error{Kind: program.Unsupported, Pos: in.Pos, Err: fmt.Errorf("slicing %s (%s): %w", in.Label, in.String(), err)}
	}
	return nil
}

func (s *slicer) instr1(in *program.Instr) error {
	var err error
	switch in.Op {
	case program.OpAssign:
		if s.lvSliced(in.Lhs) {
			if program.InstrMayFail(in) {
				return errMayFail
			}
			toSkip(in, "sliced: "+program.ExprString(in.Lhs))
			return nil
		}
		if in.Lhs, err = s.abs(in.Lhs); err != nil {
			return err
		}
		in.Rhs, err = s.valueChecked(in.Rhs)
	case program.OpAssume:
		if s.readsSliced(in.Rhs) {
			if !program.MayFail(in.Rhs) {
				toSkip(in, "sliced assume")
				return nil
			}
			in.Rhs, err = s.valueChecked(in.Rhs)
		}
	case program.OpAssert, program.OpGoto:
		if in.Rhs != nil && s.readsSliced(in.Rhs) {
			if !program.MayFail(in.Rhs) {
				in.Rhs = &program.Nondet{T: program.IntT}
				return nil
			}
			in.Rhs, err = s.valueChecked(in.Rhs)
		}
	case program.OpCall, program.OpSpawn:
		if s.readsSliced(in.Func) {
			return fmt.Errorf("callee %s depends on sliced variables", program.ExprString(in.Func))
		}
		callee := s.calleeFunc(in.Func)
		for i, a := range in.Args {
			if !s.readsSliced(a) {
				continue
			}
			if callee != nil && i < len(callee.Params) && !s.kept(depgraph.Var(callee.Name+"::"+callee.Params[i].Name)) && !program.MayFail(a) {
				in.Args[i] = zero(a.Type())
				continue
			}
			if in.Args[i], err = s.valueChecked(a); err != nil {
				return err
			}
		}
		if in.Lhs != nil {
			if s.lvSliced(in.Lhs) {
				in.Lhs = nil
			} else if in.Lhs, err = s.abs(in.Lhs); err != nil {
				return err
			}
		}
	case program.OpReturn:
		if in.Rhs != nil && s.readsSliced(in.Rhs) && !s.resultsKept && !s.retKept[""] && !s.retKept[s.fn.Name] && !program.MayFail(in.Rhs) {
			in.Rhs = zero(in.Rhs.Type()) // nothing kept receives the value
			return nil
		}
		in.Rhs, err = s.valueChecked(in.Rhs)
	case program.OpJoin:
		kept := in.Lhs != nil && !s.lvSliced(in.Lhs)
		if s.readsSliced(in.Rhs) {
			if !kept {
				toSkip(in, "sliced join")
				return nil
			}
			// which thread is joined is unknown: so is its result
			lhs, err := s.abs(in.Lhs)
			if err != nil {
				return err
			}
			*in = program.Instr{Label: in.Label, Op: program.OpAssign, Lhs: lhs, Rhs: &program.Nondet{T: lhs.Type()}, Pos: in.Pos, Msg: "sliced join: the result of an unknown thread"}
			return nil
		}
		if !kept {
			in.Lhs = nil
		} else if in.Lhs, err = s.abs(in.Lhs); err != nil {
			return err
		}
	case program.OpExit:
		if !s.resultsKept && !program.MayFail(in.Rhs) {
			in.Rhs = nil // no kept lvalue receives a thread's result
		} else if in.Rhs != nil {
			in.Rhs, err = s.valueChecked(in.Rhs)
		}
	case program.OpLock, program.OpUnlock:
		if s.targetsSliced(in.Rhs) {
			toSkip(in, "sliced "+in.Op.String())
			return nil
		}
		in.Rhs, err = s.value(in.Rhs)
	case program.OpDecl:
		if !s.kept(s.local(in.Var)) {
			toSkip(in, "sliced decl "+in.Var)
		}
	case program.OpAlloc:
		if s.lvSliced(in.Lhs) {
			if program.InstrMayFail(in) {
				return errMayFail
			}
			toSkip(in, "sliced alloc")
			return nil
		}
		if in.Lhs, err = s.abs(in.Lhs); err != nil {
			return err
		}
		in.Rhs, err = s.valueChecked(in.Rhs)
	case program.OpRealloc:
		// depgraph.Required keeps its destination and what the old
		// pointer derives from (it may fail); a sliced old block's
		// contents are indeterminate, so the copy is too
		if s.lvSliced(in.Lhs) || s.targetsSliced(in.Args[0]) {
			return errMayFail
		}
		if in.Lhs, err = s.abs(in.Lhs); err != nil {
			return err
		}
		if in.Rhs, err = s.valueChecked(in.Rhs); err != nil {
			return err
		}
		in.Args[0], err = s.valueChecked(in.Args[0]) // in is the slicer's clone
	case program.OpFree:
		if s.targetsSliced(in.Rhs) {
			toSkip(in, "sliced free")
			return nil
		}
		in.Rhs, err = s.valueChecked(in.Rhs)
	case program.OpSkip, program.OpAtomicBegin, program.OpAtomicEnd:
	default:
		return fmt.Errorf("unknown op %s", in.Op)
	}
	return err
}

func (s *slicer) calleeFunc(e program.Expr) *program.Func {
	if fr, ok := e.(*program.FuncRef); ok {
		return s.p.Func(fr.Name)
	}
	return nil
}

// zero is the argument passed for a sliced parameter, which the callee
// never reads.
func zero(t *program.Type) program.Expr {
	if t.IsScalar() {
		return &program.Const{T: t, V: 0}
	}
	return &program.Nondet{T: t}
}

// Package slice computes the abstraction of a program to a set of kept
// variables V0 (paper §5.1): instructions are kept with their labels,
// variables outside V0 disappear and every value computed from them becomes
// nondeterministic, so that every run of the program maps to a run of the
// abstraction with the same label sequence (Lemma 1).
//
// The map, per instruction, with S the sliced variables:
//
//	x := e,  x ∈ S                 → skip
//	x := e,  x ∉ S, e reads S      → x := *           (aggregates: unsupported)
//	a[i] := e, i reads S           → a[(unsigned)* % len] := e'
//	assume e, e reads S            → skip             (assume * is a no-op)
//	assert e, e reads S            → assert *         (may fail)
//	if e goto l, e reads S         → if * goto l
//	f(args), arg reads S           → f(args'), arg' = * (or 0 when the parameter is sliced)
//	r := f(..), r ∈ S              → f(..)
//	return e, e reads S            → return *
//	lock/unlock m, m ∈ S           → skip             (more interleavings)
//	join t, t reads S              → skip             (the joiner may run ahead)
//	spawn into h, h ∈ S            → spawn without handle
//	decl x / alloc / free, x ∈ S   → skip
//
// Variables are kept or sliced by whole alias groups (depgraph), so a write
// through a pointer never reaches a sliced variable that a kept one aliases
// (design.md §5 rule 4). Sliced globals and locals are removed from the
// program, so the result cannot mention them; program.Check holds for it.
// Abstract never modifies its input.
package slice

import (
	"fmt"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/program"
)

// Abstract returns the abstraction of p that keeps the variables in keep
// (closed under g's alias groups) and the set of variables it kept.
func Abstract(p *program.Program, g *depgraph.Graph, keep []depgraph.Var) (*program.Program, []depgraph.Var, error) {
	kept := g.Close(keep)
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
}

func (s *slicer) kept(v depgraph.Var) bool { return s.keep[v] }

func (s *slicer) run() error {
	var globals []*program.Var
	for _, v := range s.p.Globals {
		if s.kept(depgraph.Var(v.Name)) {
			globals = append(globals, v)
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
		// Parameters stay (the signature is part of the calls); a sliced
		// parameter is never read, so its value does not matter.
	}
	return nil
}

func (s *slicer) local(name string) depgraph.Var { return depgraph.Var(s.fn.Name + "::" + name) }

func (s *slicer) varOf(r *program.Ref) depgraph.Var { return depgraph.VarOf(s.fn.Name, r) }

// keptRef reports whether a Ref survives: globals and locals in V0, and
// parameters always (they are not removed).
func (s *slicer) keptRef(r *program.Ref) bool {
	if r.Local {
		for _, p := range s.fn.Params {
			if p.Name == r.Name {
				return true
			}
		}
	}
	return s.kept(s.varOf(r))
}

// readsSliced reports whether evaluating e reads a sliced variable: a Ref
// to one, or a dereference of a pointer whose group is sliced.
func (s *slicer) readsSliced(e program.Expr) bool {
	found := false
	program.Walk(e, func(x program.Expr) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *program.Ref:
			if !s.kept(s.varOf(x)) {
				found = true
			}
		}
		return true
	})
	return found
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
		// the pointer and its targets are one alias group
		return s.readsSliced(e.X)
	}
	return true
}

// abstractLV rewrites the address computation of a kept lvalue: an index
// that reads sliced variables becomes an arbitrary in-bounds index.
func (s *slicer) abstractLV(lv program.Expr) (program.Expr, error) {
	switch e := lv.(type) {
	case *program.Ref:
		return e, nil
	case *program.Index:
		x, err := s.abstractLV(e.X)
		if err != nil {
			return nil, err
		}
		i := e.I
		if s.readsSliced(i) {
			i = anyIndex(e.I.Type(), e.X.Type().Len)
		}
		if x == e.X && i == e.I {
			return e, nil
		}
		return &program.Index{X: x, I: i, T: e.T}, nil
	case *program.FieldSel:
		x, err := s.abstractLV(e.X)
		if err != nil || x == e.X {
			return e, err
		}
		return &program.FieldSel{X: x, Name: e.Name, Field: e.Field, T: e.T}, nil
	case *program.Deref:
		if s.readsSliced(e.X) {
			return nil, fmt.Errorf("pointer %s reads sliced variables", program.ExprString(e.X))
		}
		return e, nil
	}
	return nil, fmt.Errorf("not an lvalue: %s", program.ExprString(lv))
}

// anyIndex is an expression of type t that can take every value 0..n-1:
// (t)((unsigned)* % n).
func anyIndex(t *program.Type, n int64) program.Expr {
	u := program.UIntType
	if n > 1<<31 {
		u = program.ULLongType
	}
	var e program.Expr = &program.Binary{Op: program.Rem, X: &program.Nondet{T: u}, Y: program.IntConst(u, n), T: u}
	if !program.Identical(t, u) {
		e = &program.Cast{X: e, T: t}
	}
	return e
}

// value returns e, or a nondeterministic value of its type when e reads
// sliced variables.
func (s *slicer) value(e program.Expr) (program.Expr, error) {
	if e == nil || !s.readsSliced(e) {
		return e, nil
	}
	if !e.Type().IsScalar() {
		return nil, fmt.Errorf("value of aggregate type %s depends on sliced variables", e.Type())
	}
	return &program.Nondet{T: e.Type()}, nil
}

func toSkip(in *program.Instr, why string) {
	*in = program.Instr{Label: in.Label, Op: program.OpSkip, Pos: in.Pos, Msg: why}
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
			toSkip(in, "sliced: "+program.ExprString(in.Lhs))
			return nil
		}
		if in.Lhs, err = s.abstractLV(in.Lhs); err != nil {
			return err
		}
		in.Rhs, err = s.value(in.Rhs)
	case program.OpAssume:
		if s.readsSliced(in.Rhs) {
			toSkip(in, "sliced assume")
		}
	case program.OpAssert:
		if s.readsSliced(in.Rhs) {
			in.Rhs = &program.Nondet{T: program.IntT}
		}
	case program.OpGoto:
		if in.Rhs != nil && s.readsSliced(in.Rhs) {
			in.Rhs = &program.Nondet{T: program.IntT}
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
			if callee != nil && i < len(callee.Params) && !s.kept(depgraph.Var(callee.Name+"::"+callee.Params[i].Name)) {
				in.Args[i] = zero(a.Type())
				continue
			}
			if in.Args[i], err = s.value(a); err != nil {
				return err
			}
		}
		if in.Lhs != nil {
			if s.lvSliced(in.Lhs) {
				in.Lhs = nil
			} else if in.Lhs, err = s.abstractLV(in.Lhs); err != nil {
				return err
			}
		}
	case program.OpReturn:
		in.Rhs, err = s.value(in.Rhs)
	case program.OpJoin:
		if s.readsSliced(in.Rhs) {
			toSkip(in, "sliced join")
		}
	case program.OpLock, program.OpUnlock:
		if s.readsSliced(in.Rhs) || s.lvSliced(&program.Deref{X: in.Rhs, T: in.Rhs.Type().Elem}) {
			toSkip(in, "sliced "+in.Op.String())
		}
	case program.OpDecl:
		if !s.kept(s.local(in.Var)) {
			toSkip(in, "sliced decl "+in.Var)
		}
	case program.OpAlloc:
		if s.lvSliced(in.Lhs) {
			toSkip(in, "sliced alloc")
			return nil
		}
		if in.Lhs, err = s.abstractLV(in.Lhs); err != nil {
			return err
		}
		if s.readsSliced(in.Rhs) {
			return fmt.Errorf("allocation size %s depends on sliced variables", program.ExprString(in.Rhs))
		}
	case program.OpFree:
		if s.readsSliced(in.Rhs) {
			toSkip(in, "sliced free")
		}
	}
	return err
}

func (s *slicer) calleeFunc(e program.Expr) *program.Func {
	if fr, ok := e.(*program.FuncRef); ok {
		return s.p.Func(fr.Name)
	}
	return nil
}

func zero(t *program.Type) program.Expr {
	if t.IsScalar() {
		return &program.Const{T: t, V: 0}
	}
	return &program.Nondet{T: t}
}

package analysis

import (
	"fmt"
	"maps"
	"slices"

	"cegpv.dev/cegpv/program"
)

// Finite nondeterminism for Explore.
//
// Explore enumerates the values of every Nondet draw, so it needs, for each
// instruction that draws, a finite set of values that produces every
// behaviour the program can show (reachable violations, execution errors).
// domains finds such sets by a conservative analysis and gives up (the
// program is not explorable) where it cannot:
//
//   - A value tested only for being zero (a goto, assume or assert
//     condition, an operand of !, && or ||, compared == or != with the
//     constant 0, possibly through casts) or of type _Bool: {0, 1}. Every
//     value behaves as 0 or as 1 there.
//   - A value that flows only into irrelevant variables: {0}. A variable is
//     relevant when its value can reach a condition, an assertion, an array
//     index, a pointer that is dereferenced, a divisor or shift amount, a
//     callee, a lock, join or free operand or an allocation size, through
//     assignments, parameters and return values. Variables whose address is
//     taken are relevant (any access through a pointer may reach them), and
//     a store through a pointer makes its value relevant.
//   - A private local assigned a nondet value that the thread's next
//     instruction assumes to lie in a small constant range (v = nondet();
//     assume(v >= 0 && v < 4)): the values of the range. Any other value
//     stops the thread at the assume, which no other thread can tell from
//     the thread not running again (the local is private), so these runs
//     show nothing new.
//   - A value stored into a variable that is itself only tested for zero
//     (or copied into such variables), and the indeterminate contents of
//     such a local at its Decl: {0, 1}.
//   - The indeterminate contents of a local at its Decl: {0} when the local
//     is irrelevant or is assigned (as a whole) before every read on every
//     path from the Decl, so that the contents are never read.
//
//   - A private local assigned a nondet value of its own type and read
//     only in comparisons (==, !=, <, <=, >, >=) with constants of that
//     type (a switch on a nondet value, main's argc >= 1): the constants
//     and one value in each gap between and beyond them. Every other
//     value compares with every constant as the one of its gap does.
//
// Any other draw (a value that is computed with, a heap block's contents,
// an uninitialised relevant local that may be read) ranges over its whole
// type, and the program is not explorable.

// Domains returns the values to enumerate for the draws of each
// instruction that draws, or an error naming the first draw that has no
// finite domain.
func Domains(p *program.Program) (map[*program.Instr][]int64, error) {
	rel := relevantVars(p)
	taken := TakenAddrs(p)
	truth := truthVars(p, taken)
	es := AnalyseEscapes(p, taken)
	zero, bin := []int64{0}, []int64{0, 1}
	out := map[*program.Instr][]int64{}
	for _, f := range p.Funcs {
		unread := declsUnread(p, f, taken, es)
		for pc, in := range f.Body {
			switch in.Op {
			case program.OpDecl:
				k := f.Name + "::" + in.Var
				if !rel[k] || unread[pc] {
					out[in] = zero
					continue
				}
				if truth[k] {
					out[in] = bin
					continue
				}
				if d, ok := assumedRange(f, pc, taken); ok {
					out[in] = d
					continue
				}
				return nil, fmt.Errorf("%s: the indeterminate value of the local %s may be read", in.Pos, in.Var)
			case program.OpAlloc, program.OpRealloc:
				return nil, fmt.Errorf("%s: the contents of a heap block are indeterminate", in.Pos)
			}
			if d, ok := assumedRange(f, pc, taken); ok {
				out[in] = d
				continue
			}
			if d, ok := cmpDomain(f, in, taken); ok {
				out[in] = d
				continue
			}
			var dom []int64
			var bad program.Expr
			operands(in, func(e, x program.Expr, c valueCtx) {
				nd, ok := x.(*program.Nondet)
				if !ok {
					return
				}
				switch {
				case c == ctxTruth || nd.T.Kind == program.Bool:
					dom = bin
				case c == ctxValue && in.Op == program.OpAssign && e == in.Rhs && program.StripCasts(e) == x && isTruthVar(f, in.Lhs, truth):
					dom = bin
				case c == ctxValue && in.Op == program.OpAssign && e == in.Rhs && !storesRelevant(f, in.Lhs, rel):
					if dom == nil {
						dom = zero
					}
				case c == ctxValue && in.Op == program.OpReturn && !rel[retKey(f)]:
					if dom == nil {
						dom = zero
					}
				default:
					bad = e
				}
			})
			if bad != nil {
				return nil, fmt.Errorf("%s: a nondeterministic value is computed with (%s)", in.Pos, program.ExprString(bad))
			}
			if dom != nil {
				out[in] = dom
			}
		}
	}
	return out, nil
}

type valueCtx int

const (
	ctxValue     valueCtx = iota // the value itself matters, as data
	ctxTruth                     // only whether it is zero matters
	ctxSensitive                 // an index, pointer, divisor, ...: every value matters
)

// rootCtx is the context of operand e of in.
func rootCtx(in *program.Instr, e program.Expr) valueCtx {
	switch in.Op {
	case program.OpAssume, program.OpAssert, program.OpGoto:
		return ctxTruth
	case program.OpAssign, program.OpReturn:
		if e == in.Rhs {
			return ctxValue
		}
	}
	return ctxSensitive
}

// walkCtx calls f for each Nondet and Ref node of e with the context its
// value is used in, e itself being used in context c.
func walkCtx(e program.Expr, c valueCtx, f func(program.Expr, valueCtx)) {
	switch e := e.(type) {
	case nil:
	case *program.Nondet, *program.Ref:
		f(e, c)
	case *program.Cast:
		walkCtx(e.X, c, f)
	case *program.Unary:
		if e.Op == program.Not {
			walkCtx(e.X, ctxTruth, f)
		} else {
			walkCtx(e.X, worse(c, ctxValue), f)
		}
	case *program.Binary:
		switch {
		case e.Op == program.LAnd || e.Op == program.LOr:
			walkCtx(e.X, ctxTruth, f)
			walkCtx(e.Y, ctxTruth, f)
		case (e.Op == program.Eq || e.Op == program.Ne) && isZero(e.Y):
			walkCtx(e.X, ctxTruth, f)
		case (e.Op == program.Eq || e.Op == program.Ne) && isZero(e.X):
			walkCtx(e.Y, ctxTruth, f)
		case e.Op == program.Div || e.Op == program.Rem || e.Op == program.Shl || e.Op == program.Shr:
			walkCtx(e.X, worse(c, ctxValue), f)
			walkCtx(e.Y, ctxSensitive, f)
		default:
			walkCtx(e.X, worse(c, ctxValue), f)
			walkCtx(e.Y, worse(c, ctxValue), f)
		}
	case *program.CondExpr:
		walkCtx(e.C, ctxTruth, f)
		walkCtx(e.X, c, f)
		walkCtx(e.Y, c, f)
	case *program.Index:
		walkCtx(e.X, ctxSensitive, f)
		walkCtx(e.I, ctxSensitive, f)
	case *program.FieldSel:
		walkCtx(e.X, ctxSensitive, f)
	case *program.Deref:
		walkCtx(e.X, ctxSensitive, f)
	case *program.AddrOf:
		walkCtx(e.X, ctxSensitive, f)
	default:
		program.Walk(e, func(x program.Expr) bool {
			switch x.(type) {
			case *program.Nondet, *program.Ref:
				f(x, ctxSensitive)
			}
			return true
		})
	}
}

// walkLvalue calls f for the Nondet and Ref nodes lv reads to find the
// location it designates (indices, pointers), not for the variable it
// stores into.
func walkLvalue(lv program.Expr, f func(program.Expr, valueCtx)) {
	switch e := lv.(type) {
	case *program.Ref:
	case *program.Index:
		walkLvalue(e.X, f)
		walkCtx(e.I, ctxSensitive, f)
	case *program.FieldSel:
		walkLvalue(e.X, f)
	case *program.Cast:
		walkLvalue(e.X, f)
	default:
		walkCtx(lv, ctxSensitive, f)
	}
}

// operands calls f for the Nondet and Ref nodes of in's operands with their
// contexts (the lvalue of an Assign, Call, Spawn, Alloc or Realloc as walkLvalue).
func operands(in *program.Instr, f func(e program.Expr, x program.Expr, c valueCtx)) {
	for _, e := range in.Operands() {
		g := func(x program.Expr, c valueCtx) { f(e, x, c) }
		if e == in.Lhs && (in.Op == program.OpAssign || in.Op == program.OpCall || in.Op == program.OpSpawn || in.Op == program.OpAlloc || in.Op == program.OpRealloc) {
			walkLvalue(e, g)
			continue
		}
		walkCtx(e, rootCtx(in, e), g)
	}
}

// truthVars returns the int and _Bool variables (globals and locals whose
// address is not taken) whose value matters only as zero or non-zero:
// every read of one is a truth test or a copy into another such variable
// (a greatest fixpoint). A draw stored into one needs the values 0 and 1
// only: any value behaves as one of them wherever the variable is read.
func truthVars(p *program.Program, taken map[string]bool) map[string]bool {
	cand := map[string]bool{}
	scalar := func(t *program.Type) bool { return t.Kind == program.Int || t.Kind == program.Bool }
	for _, g := range p.Globals {
		if !taken[g.Name] && scalar(g.Type) {
			cand[g.Name] = true
		}
	}
	for _, f := range p.Funcs {
		for _, v := range f.Locals {
			if k := f.Name + "::" + v.Name; !taken[k] && scalar(v.Type) {
				cand[k] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			for _, in := range f.Body {
				operands(in, func(e, x program.Expr, c valueCtx) {
					r, ok := x.(*program.Ref)
					if !ok || !cand[VarKey(f, r)] || c == ctxTruth {
						return
					}
					if in.Op == program.OpAssign && e == in.Rhs && program.StripCasts(e) == x {
						if l, ok := in.Lhs.(*program.Ref); ok && cand[VarKey(f, l)] {
							return // a copy into another truth variable
						}
					}
					delete(cand, VarKey(f, r))
					changed = true
				})
			}
		}
	}
	return cand
}

// worse: a value computed with (c = ctxValue or worse) from an operand
// makes the operand matter as data; inside a truth test, an arithmetic
// operand matters as data too.
func worse(c, d valueCtx) valueCtx {
	if c == ctxSensitive {
		return ctxSensitive
	}
	return d
}

func isZero(e program.Expr) bool {
	k, ok := program.StripCasts(e).(*program.Const)
	return ok && k.V == 0
}

// isTruthVar reports whether lv is a variable of truth.
func isTruthVar(f *program.Func, lv program.Expr, truth map[string]bool) bool {
	r, ok := lv.(*program.Ref)
	return ok && truth[VarKey(f, r)]
}

// VarKey is the key of variable r in f: "<func>::<name>" for a local,
// the name for a global.
func VarKey(f *program.Func, r *program.Ref) string {
	if r.Local {
		return f.Name + "::" + r.Name
	}
	return r.Name
}

func retKey(f *program.Func) string { return f.Name + "::<return>" }

// Root returns the variable an lvalue designates (part of), or nil when it
// is reached through a pointer.
func Root(e program.Expr) *program.Ref {
	for {
		switch x := e.(type) {
		case *program.Ref:
			return x
		case *program.Index:
			e = x.X
		case *program.FieldSel:
			e = x.X
		case *program.Cast:
			e = x.X
		default:
			return nil
		}
	}
}

// storesRelevant reports whether a store to lhs (in f) may change a relevant
// variable.
func storesRelevant(f *program.Func, lhs program.Expr, rel map[string]bool) bool {
	r := Root(lhs)
	return r == nil || rel[VarKey(f, r)]
}

// Refs returns the keys of the variables e reads (in f).
func Refs(f *program.Func, e program.Expr) []string {
	var out []string
	program.Walk(e, func(x program.Expr) bool {
		if r, ok := x.(*program.Ref); ok {
			out = append(out, VarKey(f, r))
		}
		return true
	})
	return out
}

// relevantVars computes the relevant variables (see the top of the file) as
// a least fixpoint.
func relevantVars(p *program.Program) map[string]bool {
	rel := map[string]bool{}
	changed := true
	mark := func(keys []string) {
		for _, k := range keys {
			if !rel[k] {
				rel[k] = true
				changed = true
			}
		}
	}
	for k := range TakenAddrs(p) {
		rel[k] = true
	}
	// sensitive subexpressions of e (in f): indices, dereferenced
	// pointers, divisors, shift amounts
	sensitive := func(f *program.Func, e program.Expr) {
		program.Walk(e, func(x program.Expr) bool {
			switch x := x.(type) {
			case *program.Index:
				mark(Refs(f, x.I))
			case *program.Deref:
				mark(Refs(f, x.X))
			case *program.Binary:
				if x.Op == program.Div || x.Op == program.Rem || x.Op == program.Shl || x.Op == program.Shr {
					mark(Refs(f, x.Y))
				}
			}
			return true
		})
	}
	// params and results: flows between functions
	bind := func(f *program.Func, callee program.Expr, args []program.Expr, lhs program.Expr) {
		fr, ok := callee.(*program.FuncRef)
		var g *program.Func
		if ok {
			g = p.Func(fr.Name)
		}
		if g == nil {
			// through a function pointer, or without a body: every
			// argument may matter
			for _, a := range args {
				mark(Refs(f, a))
			}
			if lhs != nil && storesRelevant(f, lhs, rel) {
				for _, h := range p.Funcs {
					mark([]string{retKey(h)})
				}
			}
			return
		}
		for i, a := range args {
			if i >= len(g.Params) || rel[g.Name+"::"+g.Params[i].Name] {
				mark(Refs(f, a))
			}
		}
		if lhs != nil && storesRelevant(f, lhs, rel) {
			mark([]string{retKey(g)})
		}
	}
	for changed {
		changed = false
		for _, f := range p.Funcs {
			for _, in := range f.Body {
				for _, e := range in.Operands() {
					sensitive(f, e)
				}
				switch in.Op {
				case program.OpAssume, program.OpAssert, program.OpGoto, program.OpJoin,
					program.OpLock, program.OpUnlock, program.OpFree:
					mark(Refs(f, in.Rhs))
					if in.Op == program.OpJoin && in.Lhs != nil && storesRelevant(f, in.Lhs, rel) {
						// a thread's result: what any function returns
						// (it may be a start function) or passes to an
						// Exit
						for _, h := range p.Funcs {
							mark([]string{retKey(h)})
							for _, x := range h.Body {
								if x.Op == program.OpExit {
									mark(Refs(h, x.Rhs))
								}
							}
						}
					}
				case program.OpAlloc:
					mark(Refs(f, in.Rhs))
					mark(Refs(f, in.Lhs))
				case program.OpRealloc:
					mark(Refs(f, in.Rhs))
					mark(Refs(f, in.Lhs))
					mark(Refs(f, in.Args[0]))
				case program.OpAssign:
					if storesRelevant(f, in.Lhs, rel) {
						mark(Refs(f, in.Rhs))
					}
				case program.OpReturn:
					if rel[retKey(f)] {
						mark(Refs(f, in.Rhs))
					}
				case program.OpCall:
					mark(Refs(f, in.Func))
					bind(f, in.Func, in.Args, in.Lhs)
				case program.OpSpawn:
					mark(Refs(f, in.Func))
					bind(f, in.Func, in.Args, nil)
				}
			}
		}
	}
	return rel
}

// declsUnread returns the indices of f's Decls whose local is assigned as a
// whole before any read on every path from the Decl (a forward
// must-analysis of "assigned since its Decl" over f's instructions).
// onlyCell returns the variable whose only cell lv designates (a field,
// of a field..., of a struct variable with one cell), nil otherwise: a
// store there writes the whole variable.
func onlyCell(lv program.Expr) *program.Ref {
	e := lv
	for {
		switch x := e.(type) {
		case *program.FieldSel:
			e = x.X
			continue
		case *program.Ref:
			if x != lv && x.T.Cells() == 1 {
				return x
			}
		}
		return nil
	}
}

func declsUnread(p *program.Program, f *program.Func, taken map[string]bool, es *Escapes) map[int]bool {
	n := len(f.Body)
	succs := runSuccs(f)
	succ := func(pc int) []int {
		if out := succs[pc]; len(out) > 0 && out[len(out)-1] == n {
			return out[:len(out)-1]
		}
		return succs[pc]
	}
	// assigned[pc][v]: v assigned since its Decl on every path to pc;
	// nil = not yet reached (the top element).
	assigned := make([]map[string]bool, n)
	if n == 0 {
		return nil
	}
	entry := map[string]bool{}
	for _, v := range f.Params {
		entry[v.Name] = true
	}
	assigned[0] = entry
	work := []int{0}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		in := f.Body[pc]
		out := map[string]bool{}
		for k := range assigned[pc] {
			out[k] = true
		}
		switch in.Op {
		case program.OpDecl:
			delete(out, in.Var)
		case program.OpAssign, program.OpCall, program.OpSpawn:
			if r, ok := in.Lhs.(*program.Ref); ok && r.Local {
				out[r.Name] = true
			}
			if r := onlyCell(in.Lhs); r != nil && r.Local {
				out[r.Name] = true
			}
			if in.Op == program.OpCall {
				// out arguments: &v for a kept v that the callee writes
				for _, a := range in.Args {
					if x, ok := a.(*program.AddrOf); ok {
						if r, ok := x.X.(*program.Ref); ok && r.Local && es.callWrites(p, f, in, r.Name) {
							out[r.Name] = true
						}
					}
				}
			}
		}
		for _, s := range succ(pc) {
			if assigned[s] == nil {
				assigned[s] = out
				work = append(work, s)
				continue
			}
			meet := map[string]bool{}
			for k := range assigned[s] {
				if out[k] {
					meet[k] = true
				}
			}
			if len(meet) != len(assigned[s]) {
				assigned[s] = meet
				work = append(work, s)
			}
		}
	}
	// a Decl is read when some read of its local happens where the local
	// is not assigned since its Decl (reached from that Decl or not: the
	// analysis is per local, which is conservative)
	readUnassigned := map[string]bool{}
	for pc, in := range f.Body {
		if assigned[pc] == nil {
			continue
		}
		reads := func(e program.Expr) {
			program.Walk(e, func(x program.Expr) bool {
				if r, ok := x.(*program.Ref); ok && r.Local && !assigned[pc][r.Name] {
					readUnassigned[r.Name] = true
				}
				return true
			})
		}
		for _, e := range in.Operands() {
			if e == in.Lhs && (in.Op == program.OpAssign || in.Op == program.OpCall || in.Op == program.OpSpawn) {
				if _, ok := e.(*program.Ref); ok || onlyCell(e) != nil {
					continue // a whole-variable store is no read
				}
			}
			if a := slices.Index(in.Args, e); a >= 0 && in.Op == program.OpCall && es.callReadFree(p, in, a) {
				if x, ok := e.(*program.AddrOf); ok {
					if r, ok := x.X.(*program.Ref); ok && r.Local && es.Kept[f.Name+"::"+r.Name] {
						continue // an out argument the callee does not read
					}
				}
			}
			reads(e)
		}
	}
	out := map[int]bool{}
	for pc, in := range f.Body {
		if in.Op == program.OpDecl {
			v := f.Var(in.Var)
			if k := f.Name + "::" + in.Var; v != nil && (!taken[k] || es.Kept[k]) && !readUnassigned[in.Var] {
				out[pc] = true
			}
		}
	}
	return out
}

// TakenAddrs returns the keys of the variables whose address the program
// takes (an AddrOf of the variable or of a part of it; arrays decay to such
// an AddrOf). Only these can be reached through pointers. It is computed
// from the program rather than read from Var.AddrTaken, which the front
// end also sets for addresses it lowers away (&t in pthread_create).
func TakenAddrs(p *program.Program) map[string]bool {
	out := map[string]bool{}
	visit := func(f *program.Func, e program.Expr) {
		program.Walk(e, func(x program.Expr) bool {
			if a, ok := x.(*program.AddrOf); ok {
				if r := Root(a.X); r != nil {
					if r.Local && f != nil {
						out[VarKey(f, r)] = true
					} else if !r.Local {
						out[r.Name] = true
					}
				}
			}
			return true
		})
	}
	for _, g := range p.Globals {
		visit(nil, g.Init)
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			for _, e := range in.Operands() {
				visit(f, e)
			}
		}
	}
	return out
}

// maxRange bounds the ranges assumedRange accepts.
const maxRange = 64

// assumedRange recognises f.Body[pc] = "v = nondet" for a private signed
// int local v followed by an assume whose top-level conjuncts bound v by
// constants, and returns the values of that range.
func assumedRange(f *program.Func, pc int, taken map[string]bool) ([]int64, bool) {
	in := f.Body[pc]
	if pc+1 >= len(f.Body) || f.Body[pc+1].Op != program.OpAssume {
		return nil, false
	}
	var v *program.Ref
	switch in.Op {
	case program.OpAssign:
		r, ok := in.Lhs.(*program.Ref)
		if !ok {
			return nil, false
		}
		if _, ok := program.StripCasts(in.Rhs).(*program.Nondet); !ok {
			return nil, false
		}
		v = r
	case program.OpDecl:
		// decl v; assume(range): the indeterminate contents
		lv := f.Var(in.Var)
		if lv == nil {
			return nil, false
		}
		v = &program.Ref{Name: in.Var, Local: true, T: lv.Type}
	default:
		return nil, false
	}
	if !v.Local || taken[VarKey(f, v)] || v.T.Kind != program.Int || !v.T.Signed {
		return nil, false
	}
	lo, hi := int64(-1)<<(v.T.Bits()-1), int64(1)<<(v.T.Bits()-1)-1
	var conj func(e program.Expr)
	conj = func(e program.Expr) {
		b, ok := e.(*program.Binary)
		if !ok {
			return
		}
		if b.Op == program.LAnd {
			conj(b.X)
			conj(b.Y)
			return
		}
		op, x, y := b.Op, b.X, b.Y
		k, ok := constOf(y)
		if !isVar(x, v) || !ok {
			// c op v: mirror it
			if k2, ok2 := constOf(x); ok2 && isVar(y, v) {
				k = k2
				switch op {
				case program.Lt:
					op = program.Gt
				case program.Le:
					op = program.Ge
				case program.Gt:
					op = program.Lt
				case program.Ge:
					op = program.Le
				}
			} else {
				return
			}
		}
		switch op {
		case program.Lt:
			hi = min(hi, k-1)
		case program.Le:
			hi = min(hi, k)
		case program.Gt:
			lo = max(lo, k+1)
		case program.Ge:
			lo = max(lo, k)
		case program.Eq:
			lo, hi = max(lo, k), min(hi, k)
		}
	}
	conj(f.Body[pc+1].Rhs)
	if hi < lo {
		return []int64{lo}, true // every value stops the thread at the assume
	}
	if hi-lo >= maxRange {
		return nil, false
	}
	var d []int64
	for x := lo; x <= hi; x++ {
		d = append(d, x)
	}
	return d, true
}

// isVar reports whether e is v, possibly cast to a signed integer type at
// least as wide.
func isVar(e program.Expr, v *program.Ref) bool {
	for {
		c, ok := e.(*program.Cast)
		if !ok {
			break
		}
		if c.T.Kind != program.Int || !c.T.Signed || c.T.Bits() < v.T.Bits() {
			return false
		}
		e = c.X
	}
	r, ok := e.(*program.Ref)
	return ok && r.Local == v.Local && r.Name == v.Name
}

func constOf(e program.Expr) (int64, bool) {
	k, ok := program.StripCasts(e).(*program.Const)
	if !ok || k.T.Kind != program.Int || !k.T.Signed {
		return 0, false
	}
	return k.V, true
}

// cmpDomain returns the domain of the draw v = nondet() of in when v is a
// private local of f whose every read is a comparison (==, !=, <, <=, >,
// >=) with a constant of v's type: the constants and one value in each gap
// between them and beyond them within the type. Every other value compares
// with every constant as the one of its gap does.
func cmpDomain(f *program.Func, in *program.Instr, taken map[string]bool) ([]int64, bool) {
	if in.Op != program.OpAssign {
		return nil, false
	}
	v, ok := in.Lhs.(*program.Ref)
	if !ok || !v.Local || taken[VarKey(f, v)] || v.T.Kind != program.Int {
		return nil, false
	}
	if nd, ok := in.Rhs.(*program.Nondet); !ok || !program.Identical(nd.T, v.T) {
		return nil, false
	}
	bits := v.T.Bits()
	if bits > 64 {
		return nil, false
	}
	consts := map[int64]bool{}
	total, allowed := 0, 0
	ordered := false // some comparison is <, <=, > or >=
	for _, i := range f.Body {
		for _, e := range i.Operands() {
			if e == i.Lhs && (i.Op == program.OpAssign || i.Op == program.OpCall) && isVar(e, v) {
				if _, ok := e.(*program.Ref); ok {
					continue // a whole store
				}
			}
			program.Walk(e, func(x program.Expr) bool {
				switch x := x.(type) {
				case *program.Ref:
					if x.Local && x.Name == v.Name {
						total++
					}
				case *program.Binary:
					cmp := false // an ordering comparison (else == or !=)
					switch x.Op {
					case program.Eq, program.Ne:
					case program.Lt, program.Le, program.Gt, program.Ge:
						cmp = true
					default:
						return true
					}
					for _, pair := range [][2]program.Expr{{x.X, x.Y}, {x.Y, x.X}} {
						r, ok := pair[0].(*program.Ref)
						k, isK := pair[1].(*program.Const)
						if ok && r.Local && r.Name == v.Name && isK && program.Identical(k.T, v.T) {
							allowed++
							consts[program.Normalize(v.T, k.V)] = true
							// only comparisons of v order its domain (one
							// of another variable made an unread v's
							// empty domain "ordered": index out of range)
							ordered = ordered || cmp
						}
					}
				}
				return true
			})
		}
	}
	if total != allowed || 2*len(consts)+1 >= maxRange {
		return nil, false
	}
	if !ordered {
		d := slices.Sorted(maps.Keys(consts))
		other := int64(0)
		for consts[other] {
			other++
		}
		return append(d, other), true
	}
	if bits == 64 && !v.T.Signed {
		return nil, false // normalized values do not sort as the type's
	}
	lo, hi := int64(0), int64(1)<<(bits-1)-1 // bits < 64 or signed
	if v.T.Signed {
		lo = -hi - 1
	} else {
		hi = int64(uint64(1)<<bits - 1)
	}
	d := slices.Sorted(maps.Keys(consts))
	out := []int64{}
	if d[0] > lo {
		out = append(out, d[0]-1)
	}
	for i, c := range d {
		out = append(out, c)
		if c < hi && (i+1 == len(d) || c+1 < d[i+1]) {
			out = append(out, c+1)
		}
	}
	return out, true
}

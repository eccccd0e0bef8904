package analysis

import "cegpv.dev/cegpv/program"

// Locals whose address stays with their thread.
//
// A local whose address is taken is shared memory in general: any thread
// holding the pointer may read or write it. The common C idiom of an out
// parameter (CAS(&v, e, u, &ret), index_malloc(&idx)) does not share it:
// the address goes only into a parameter that the callee dereferences
// (or passes on to a parameter of the same kind), so the pointer lives in
// the activations of calls the thread itself makes, and no other thread
// can ever hold it. Such a local is kept: private to its thread like a
// local whose address is never taken.
//
// For kept locals the analysis also summarises, per deref-only parameter,
// whether the callee may read *p before writing it as a whole and whether
// it writes *p as a whole on every path that returns, so that declsUnread
// can see through the call.

// paramEffect is what a call does to *p for one deref-only parameter p,
// from its entry.
type paramEffect struct {
	mayRead   bool // some path reads *p before writing it as a whole
	mustWrite bool // every path that returns writes *p as a whole
}

// Escapes is the result of AnalyseEscapes.
type Escapes struct {
	// derefOnly[f][i]: f's parameter i is a pointer used only as *p
	// (possibly through casts) and as an argument of direct calls at
	// parameters that are deref-only too, and is never assigned.
	derefOnly map[*program.Func][]bool
	effect    map[*program.Func][]paramEffect
	// kept: locals (f::v) whose address is taken, but only as a direct
	// call argument at a deref-only parameter.
	Kept map[string]bool
	// private[f][i]: see privParam
	private map[*program.Func][]bool
}

// AnalyseEscapes finds the kept locals of p (see the top of the file) given
// its address-taken variables (TakenAddrs).
func AnalyseEscapes(p *program.Program, taken map[string]bool) *Escapes {
	es := &Escapes{derefOnly: map[*program.Func][]bool{}, effect: map[*program.Func][]paramEffect{}, Kept: map[string]bool{}}
	for _, f := range p.Funcs {
		d := make([]bool, len(f.Params))
		e := make([]paramEffect, len(f.Params))
		for i, v := range f.Params {
			d[i] = v.Type.Kind == program.Pointer
			e[i] = paramEffect{mayRead: true}
		}
		es.derefOnly[f], es.effect[f] = d, e
	}
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			for i, v := range f.Params {
				if es.derefOnly[f][i] && !es.paramDerefOnly(p, f, v.Name) {
					es.derefOnly[f][i] = false
					changed = true
				}
			}
		}
	}
	// effects improve monotonically from the pessimistic start
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			for i, v := range f.Params {
				if !es.derefOnly[f][i] {
					continue
				}
				if e := es.paramEffectOf(p, f, v.Name); e != es.effect[f][i] {
					es.effect[f][i] = e
					changed = true
				}
			}
		}
	}
	for _, f := range p.Funcs {
		for _, v := range f.Locals {
			if k := f.Name + "::" + v.Name; taken[k] && es.addrOnlyToDerefOnly(p, f, v.Name) {
				es.Kept[k] = true
			}
		}
	}
	es.privateParams(p)
	return es
}

// callee returns the function a direct call in calls, or nil.
func callee(p *program.Program, in *program.Instr) *program.Func {
	if in.Op != program.OpCall {
		return nil
	}
	if fr, ok := in.Func.(*program.FuncRef); ok {
		return p.Func(fr.Name)
	}
	return nil
}

// passes reports whether argument a of the call in passes a deref-only
// parameter of its callee.
func (es *Escapes) passes(p *program.Program, in *program.Instr, a int) bool {
	g := callee(p, in)
	return g != nil && a < len(g.Params) && es.derefOnly[g][a]
}

func isLocalRef(e program.Expr, name string) bool {
	r, ok := e.(*program.Ref)
	return ok && r.Local && r.Name == name
}

// paramDerefOnly checks the uses of parameter name in f.
func (es *Escapes) paramDerefOnly(p *program.Program, f *program.Func, name string) bool {
	total, allowed := 0, 0
	for _, in := range f.Body {
		for _, e := range in.Operands() {
			program.Walk(e, func(x program.Expr) bool {
				switch x := x.(type) {
				case *program.Ref:
					if x.Local && x.Name == name {
						total++
					}
				case *program.Deref:
					if isLocalRef(program.StripCasts(x.X), name) {
						allowed++
					}
				}
				return true
			})
		}
		for a, e := range in.Args {
			if in.Op == program.OpCall && isLocalRef(program.StripCasts(e), name) && es.passes(p, in, a) {
				allowed++
			}
		}
	}
	return total == allowed
}

// addrOnlyToDerefOnly checks the address-of expressions of local name in f.
func (es *Escapes) addrOnlyToDerefOnly(p *program.Program, f *program.Func, name string) bool {
	total, allowed := 0, 0
	for _, in := range f.Body {
		for _, e := range in.Operands() {
			program.Walk(e, func(x program.Expr) bool {
				if a, ok := x.(*program.AddrOf); ok {
					if r := Root(a.X); r != nil && r.Local && r.Name == name {
						total++
					}
				}
				return true
			})
		}
		for a, e := range in.Args {
			if x, ok := program.StripCasts(e).(*program.AddrOf); ok && in.Op == program.OpCall && es.passes(p, in, a) {
				if r := Root(x.X); r != nil && r.Local && r.Name == name {
					allowed++
				}
			}
		}
	}
	return total == allowed
}

// wholeStore reports whether in stores into *p as a whole: Lhs = *p with
// the parameter's own pointee type.
func wholeStore(in *program.Instr, f *program.Func, name string) bool {
	if in.Op != program.OpAssign && in.Op != program.OpCall {
		return false
	}
	d, ok := in.Lhs.(*program.Deref)
	if !ok || !isLocalRef(d.X, name) {
		return false
	}
	v := f.Var(name)
	return v != nil && v.Type.Elem != nil && d.T.Size == v.Type.Elem.Size && d.T.IsScalar()
}

// paramEffectOf computes the effect of a call of f on *name.
func (es *Escapes) paramEffectOf(p *program.Program, f *program.Func, name string) paramEffect {
	if len(f.Body) == 0 {
		return paramEffect{}
	}
	// written: *p written as a whole on every path
	written := mustForward(f, false, func(pc int, w bool) bool {
		in := f.Body[pc]
		if wholeStore(in, f, name) {
			return true
		}
		for a, e := range in.Args {
			if g := callee(p, in); g != nil && isLocalRef(program.StripCasts(e), name) && es.passes(p, in, a) && es.effect[g][a].mustWrite {
				return true
			}
		}
		return w
	})
	var eff paramEffect
	for pc, in := range f.Body {
		if written[pc] == 1 && es.readsTarget(p, in, f, name) {
			eff.mayRead = true
		}
	}
	eff.mustWrite = written[len(f.Body)] != 1
	return eff
}

// readsTarget reports whether in may read *name (a use of *p other than a
// whole store, or a pass to a callee that may read it).
func (es *Escapes) readsTarget(p *program.Program, in *program.Instr, f *program.Func, name string) bool {
	read := false
	for _, e := range in.Operands() {
		if e == in.Lhs && wholeStore(in, f, name) {
			continue
		}
		program.Walk(e, func(x program.Expr) bool {
			if d, ok := x.(*program.Deref); ok && isLocalRef(program.StripCasts(d.X), name) {
				read = true
			}
			return !read
		})
	}
	for a, e := range in.Args {
		if g := callee(p, in); g != nil && isLocalRef(program.StripCasts(e), name) && (!es.passes(p, in, a) || es.effect[g][a].mayRead) {
			read = true
		}
	}
	return read
}

// callWrites reports whether the call in writes the scalar local v of f as
// a whole, on every path on which it returns, through argument &v.
func (es *Escapes) callWrites(p *program.Program, f *program.Func, in *program.Instr, v string) bool {
	g := callee(p, in)
	if g == nil || !es.Kept[f.Name+"::"+v] {
		return false
	}
	lv := f.Var(v)
	for a, e := range in.Args {
		x, ok := e.(*program.AddrOf)
		if ok && isLocalRef(x.X, v) && es.passes(p, in, a) && es.effect[g][a].mustWrite &&
			lv != nil && lv.Type.IsScalar() && g.Params[a].Type.Elem.Size == lv.Type.Size {
			return true
		}
	}
	return false
}

// callReadFree reports whether the address of v that argument a of the
// call in passes is not read by the call before it writes v.
func (es *Escapes) callReadFree(p *program.Program, in *program.Instr, a int) bool {
	g := callee(p, in)
	return g != nil && es.passes(p, in, a) && !es.effect[g][a].mayRead
}

// privParam reports whether parameter name of f points, in every
// activation, to a kept local of the activation's own thread: f is called
// only directly (never spawned or through a pointer), the parameter is
// deref-only, and every call passes &v for a kept local v of the caller or
// such a parameter of the caller.
func (es *Escapes) privParam(f *program.Func, name string) bool {
	for i, v := range f.Params {
		if v.Name == name {
			return es.private[f][i]
		}
	}
	return false
}

// privateParams fills es.private (see privParam).
func (es *Escapes) privateParams(p *program.Program) {
	es.private = map[*program.Func][]bool{}
	roots := entries(p)
	for _, f := range p.Funcs {
		pr := make([]bool, len(f.Params))
		for i := range pr {
			pr[i] = !roots[f.Name] && es.derefOnly[f][i]
		}
		es.private[f] = pr
	}
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			for _, in := range f.Body {
				g := callee(p, in)
				if g == nil {
					continue
				}
				for a, e := range in.Args {
					if a >= len(g.Params) || !es.private[g][a] {
						continue
					}
					ok := false
					switch x := program.StripCasts(e).(type) {
					case *program.AddrOf:
						r := Root(x.X)
						ok = r != nil && r.Local && es.Kept[f.Name+"::"+r.Name]
					case *program.Ref:
						ok = x.Local && es.privParam(f, x.Name)
					}
					if !ok {
						es.private[g][a] = false
						changed = true
					}
				}
			}
		}
	}
}

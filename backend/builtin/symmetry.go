package builtin

import (
	"cegpv.dev/cegpv/program"
)

// Symmetry of thread instances. The instances a spawn in a loop creates,
// typically while(1) pthread_create(&t, 0, thr, 0) in the SV-COMP tasks,
// run the same code on the same argument, and when nothing can tell them
// apart but their thread ids, which nobody reads, any run stays a run when
// their behaviours are permuted. The solver would otherwise refute every
// one of the n! permutations of a spurious interleaving separately.
//
// Symmetric group: the instances of one spawn site in one parent thread,
// with the same thread function, when
//   - the spawn's argument is a constant, or the function ignores it;
//   - the thread handle is not stored, or stored in a variable that the
//     program never reads nor takes the address of;
//   - the program has no join (a join names a thread by its id) and no
//     pthread_self (program.ThreadID).
//
// Canonical order: let F(t) be the clock of the first executed block of t
// after its start (its first shared access, lock or spawn). For instances
// i < j in creation order that are both spawned: if j executes a block,
// so does i, and F(i) < F(j).
//
// Soundness (every run has a permuted image satisfying the order, so no
// violation is lost): sort the spawned instances' behaviours by F, the
// ones without blocks last, and give the k-th behaviour to the k-th
// created instance. Its creation precedes the k-th smallest F, because k
// instances have started by then and each was created before it started.
// Thread ids are numbered by spawn order, not by behaviour, and are not
// observed; arguments are equal; each instance has its own nondeterministic
// values and thread-local objects, so the permuted run is a run of the
// program with the same violations, and its first blocks have distinct
// clocks (steps of a run are totally ordered).
func (e *enc) symmetry() {
	if !e.symmetricProgram() {
		return
	}
	type key struct {
		parent *thread
		site   program.Label
		fn     *program.Func
	}
	groups := map[key][]*thread{}
	var order []key
	for _, th := range e.threads[1:] {
		k := key{th.parent, th.site, th.fn}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], th)
	}
	for _, k := range order {
		ths := groups[k]
		if len(ths) < 2 || !e.symmetricSite(k.site, k.fn) {
			continue
		}
		e.symGroups++
		for i := 0; i+1 < len(ths); i++ {
			a, b := ths[i], ths[i+1]
			someA, fa := e.firstBlock(a)
			someB, fb := e.firstBlock(b)
			if someA == nil || someB == nil {
				// not the same shape (the behaviours of one cannot be
				// given to the other): no order between them
				continue
			}
			e.assert(implies(and(a.spawnG, b.spawnG, someB), and(someA, e.clockLT(fa.s, fb.s))))
		}
	}
}

// firstBlock returns the condition that th executes a block after its start
// and the clock term of the first one (blocks of a thread are chained by
// clock, so the first executed one in thread order is the earliest).
func (e *enc) firstBlock(th *thread) (some *term, clock *term) {
	var bs []*block
	for _, b := range th.blocks {
		if b.kind == "start" || b.kind == "end" || isFalse(b.g) {
			continue
		}
		bs = append(bs, b)
	}
	if len(bs) == 0 {
		return nil, nil
	}
	var gs []*term
	clock = &term{s: bs[len(bs)-1].clock}
	for i := len(bs) - 1; i >= 0; i-- {
		gs = append(gs, bs[i].g)
		if i < len(bs)-1 {
			clock = ite(bs[i].g, &term{s: bs[i].clock}, clock)
		}
	}
	return e.name(or(gs...)), clock
}

// symmetricProgram says whether the program lets thread instances be
// permuted at all: it has no join.
func (e *enc) symmetricProgram() bool {
	if program.HasThreadID(e.p) { // pthread_self() tells instances apart
		return false
	}
	for _, f := range e.p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpJoin {
				return false
			}
		}
	}
	return true
}

// symmetricSite checks the spawn at site (see symmetry).
func (e *enc) symmetricSite(site program.Label, fn *program.Func) bool {
	var spawn *program.Instr
	var parent *program.Func
	for _, f := range e.p.Funcs {
		for _, in := range f.Body {
			if in.Label == site {
				spawn, parent = in, f
			}
		}
	}
	if spawn == nil || spawn.Op != program.OpSpawn {
		return false
	}
	if len(fn.Params) > 0 && len(spawn.Args) > 0 {
		if _, ok := program.StripCasts(spawn.Args[0]).(*program.Const); !ok && readsVar(fn, fn.Params[0].Name, true) {
			return false
		}
	}
	if spawn.Lhs == nil {
		return true
	}
	h, ok := spawn.Lhs.(*program.Ref)
	if !ok {
		return false
	}
	// The C source takes &t for pthread_create, so Var.AddrTaken is set;
	// what counts is whether the program model takes it.
	if h.Local {
		return parent.Var(h.Name) != nil && !readsVar(parent, h.Name, true)
	}
	if e.p.Global(h.Name) == nil {
		return false
	}
	for _, g := range e.p.Globals {
		if g.Init != nil && mentions(g.Init, func(r *program.Ref) bool { return r.Name == h.Name && !r.Local }) {
			return false
		}
	}
	for _, f := range e.p.Funcs {
		if readsVar(f, h.Name, false) {
			return false
		}
	}
	return true
}

// readsVar says whether some instruction of f mentions the variable (a
// local when local is set, else a global), or takes its address, other
// than as the whole left-hand side of an assignment or spawn.
func readsVar(f *program.Func, name string, local bool) bool {
	is := func(r *program.Ref) bool { return r.Name == name && r.Local == local }
	for _, in := range f.Body {
		for _, x := range in.Operands() {
			if r, ok := x.(*program.Ref); ok && x == in.Lhs && is(r) && (in.Op == program.OpAssign || in.Op == program.OpSpawn) {
				continue
			}
			if mentions(x, is) {
				return true
			}
		}
	}
	return false
}

// mentions says whether x contains a Ref for which is holds.
func mentions(x program.Expr, is func(*program.Ref) bool) bool {
	found := false
	program.Walk(x, func(y program.Expr) bool {
		if r, ok := y.(*program.Ref); ok && is(r) {
			found = true
		}
		return !found
	})
	return found
}

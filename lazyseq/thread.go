package lazyseq

import (
	"fmt"

	"cegpv.dev/cegpv/program"
)

// label returns a label based on base that no instruction uses yet.
func (b *builder) label(base string) program.Label {
	l := program.Label(base)
	if b.used[l] {
		l = program.Fresh(nil, base, b.used)
	}
	b.used[l] = true
	return l
}

func intc(v int64) program.Expr { return program.IntConst(program.IntT, v) }

func bin(op program.BinOp, x, y program.Expr) program.Expr {
	return &program.Binary{Op: op, X: x, Y: y, T: program.IntT}
}

func assign(l program.Label, lhs, rhs program.Expr, pos program.Pos) *program.Instr {
	if !program.Identical(lhs.Type(), rhs.Type()) {
		rhs = &program.Cast{X: rhs, T: lhs.Type()}
	}
	return &program.Instr{Label: l, Op: program.OpAssign, Lhs: lhs, Rhs: rhs, Pos: pos}
}

// draws counts the values an instruction draws from its Nondet operands.
func draws(in *program.Instr) int {
	n := 0
	for _, e := range in.Operands() {
		program.Walk(e, func(x program.Expr) bool {
			if _, ok := x.(*program.Nondet); ok {
				n++
			}
			return true
		})
	}
	return n
}

// cells returns an lvalue for every scalar cell of the object e, in
// Type.Cells order.
func cells(e program.Expr) []program.Expr {
	t := e.Type()
	switch t.Kind {
	case program.Array:
		var out []program.Expr
		for i := int64(0); i < t.Len; i++ {
			out = append(out, cells(&program.Index{X: e, I: intc(i), T: t.Elem})...)
		}
		return out
	case program.Struct, program.Union:
		var out []program.Expr
		for i, f := range t.Fields {
			out = append(out, cells(&program.FieldSel{X: e, Name: f.Name, Field: i, T: f.Type})...)
		}
		return out
	case program.Void:
		return nil
	}
	return []program.Expr{e}
}

// thread builds the function of instance i.
func (b *builder) thread(i int) (*program.Func, error) {
	sl := b.m.slots[i]
	f, st := sl.fn, b.state[i]
	vars := map[string]*program.Ref{}
	for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
		vars[v.Name] = &program.Ref{Name: b.paramName(i, v.Name), T: v.Type}
	}
	ren := func(e program.Expr) program.Expr {
		return program.Rewrite(e, func(x program.Expr) program.Expr {
			if r, ok := x.(*program.Ref); ok && r.Local {
				return vars[r.Name]
			}
			if t, ok := x.(*program.ThreadID); ok { // the instance's id, as its Spawn numbered it
				return &program.Cast{X: st.id, T: t.T}
			}
			return x
		})
	}
	g := &program.Func{Name: sl.name, Result: program.VoidType, Pos: f.Pos}
	base := fmt.Sprintf("ls%d.", i)
	n := len(f.Body)
	sw := make([]program.Label, n)  // the switch point before instruction j
	out := make([]program.Label, n) // where a switch before j leaves
	for j, in := range f.Body {
		sw[j] = b.label(base + string(in.Label))
		out[j] = b.label(base + string(in.Label) + ".out")
	}
	emit := func(in *program.Instr) { g.Body = append(g.Body, in) }
	mapped := func(in *program.Instr, orig program.Label, first bool, creates int) {
		b.m.steps[in.Label] = part{Slot: i, Orig: orig, First: first, Draws: draws(in), Creates: creates}
		emit(in)
	}
	// Resume where the last round stopped.
	for j := 1; j < n; j++ {
		if !visible(f, f.Body[j]) {
			continue
		}
		emit(&program.Instr{Label: b.label(base + "resume"), Op: program.OpGoto, Rhs: bin(program.Eq, st.pc, intc(int64(j))), Targets: []program.Label{sw[j]}})
	}
	end := func(orig *program.Instr, pos program.Pos) {
		l := func(s string) program.Label { return b.label(base + s) }
		in := assign(l("end"), st.done, intc(1), pos)
		switch {
		case orig != nil && orig.Rhs != nil:
			var r program.Expr = ren(orig.Rhs)
			if r.Type().Kind != program.Pointer {
				r = &program.Cast{X: r, T: st.res.T}
			}
			mapped(assign(l("end"), st.res, r, pos), orig.Label, true, -1)
			emit(in)
		case orig != nil:
			mapped(in, orig.Label, true, -1)
		default:
			emit(in)
		}
		emit(assign(l("end"), b.atomic, intc(0), pos))
		emit(&program.Instr{Label: l("end"), Op: program.OpReturn, Pos: pos})
	}
	for j, in := range f.Body {
		l := func(s string) program.Label { return b.label(base + string(in.Label) + "." + s) }
		if j == 0 || visible(f, in) {
			guard := bin(program.LAnd, bin(program.Eq, b.atomic, intc(0)), &program.Nondet{T: program.IntT})
			emit(&program.Instr{Label: sw[j], Op: program.OpGoto, Rhs: guard, Targets: []program.Label{out[j]}, Pos: in.Pos, Msg: "context switch"})
		} else {
			emit(&program.Instr{Label: sw[j], Op: program.OpSkip, Pos: in.Pos})
		}
		c := *in
		c.Label = l("x")
		c.Lhs, c.Rhs, c.Func = ren(in.Lhs), ren(in.Rhs), ren(in.Func)
		c.Args = nil
		for _, a := range in.Args {
			c.Args = append(c.Args, ren(a))
		}
		switch in.Op {
		case program.OpSkip, program.OpAssign, program.OpAssume, program.OpAssert, program.OpLock, program.OpUnlock,
			program.OpAlloc, program.OpFree:
			mapped(&c, in.Label, true, -1)
		case program.OpGoto:
			c.Targets = nil
			for _, t := range in.Targets {
				k := f.Index(t)
				if k < 0 {
					return nil, program.Errorf(program.Internal, "%s: goto %s outside %s", in.Pos, t, f.Name)
				}
				c.Targets = append(c.Targets, sw[k])
			}
			mapped(&c, in.Label, true, -1)
		case program.OpDecl:
			v := vars[in.Var]
			cs := cells(v)
			if len(cs) == 0 {
				mapped(&program.Instr{Label: l("x"), Op: program.OpSkip, Pos: in.Pos}, in.Label, true, -1)
			}
			for k, cell := range cs {
				mapped(assign(l("x"), cell, &program.Nondet{T: cell.Type()}, in.Pos), in.Label, k == 0, -1)
			}
		case program.OpAtomicBegin, program.OpAtomicEnd:
			op := program.Add
			if in.Op == program.OpAtomicEnd {
				op = program.Sub
			}
			mapped(assign(l("x"), b.atomic, bin(op, b.atomic, intc(1)), in.Pos), in.Label, true, -1)
		case program.OpReturn, program.OpExit:
			if in.Rhs != nil && program.HasNondet(in.Rhs) {
				return nil, program.Errorf(program.Unsupported, "%s: lazyseq: thread returns a nondeterministic value", in.Pos)
			}
			end(in, in.Pos)
		case program.OpJoin:
			if program.HasNondet(c.Rhs) {
				return nil, program.Errorf(program.Unsupported, "%s: lazyseq: join of a nondeterministic thread id", in.Pos)
			}
			var any program.Expr = intc(0)
			for k := range b.m.slots {
				s := b.state[k]
				same := &program.Binary{Op: program.Eq, X: &program.Cast{X: s.id, T: c.Rhs.Type()}, Y: c.Rhs, T: program.IntT}
				any = bin(program.LOr, any, bin(program.LAnd, bin(program.LAnd, s.active, s.done), same))
			}
			mapped(&program.Instr{Label: l("x"), Op: program.OpAssume, Rhs: any, Pos: in.Pos, Msg: "join"}, in.Label, true, -1)
			if c.Lhs != nil {
				// the joined instance's result
				var r program.Expr = &program.Const{T: c.Lhs.Type(), V: 0}
				for k := len(b.m.slots) - 1; k >= 0; k-- {
					s := b.state[k]
					same := &program.Binary{Op: program.Eq, X: &program.Cast{X: s.id, T: c.Rhs.Type()}, Y: c.Rhs, T: program.IntT}
					var v program.Expr = s.res
					if !program.Identical(v.Type(), c.Lhs.Type()) {
						v = &program.Cast{X: v, T: c.Lhs.Type()}
					}
					r = &program.CondExpr{C: bin(program.LAnd, s.done, same), X: v, Y: r, T: c.Lhs.Type()}
				}
				mapped(assign(l("x"), c.Lhs, r, in.Pos), in.Label, false, -1)
			}
		case program.OpSpawn:
			if err := b.spawn(in, &c, l, emit, mapped); err != nil {
				return nil, err
			}
		default:
			return nil, program.Errorf(program.Unsupported, "%s: lazyseq: %s instruction", in.Pos, in.Op)
		}
	}
	end(nil, f.Pos)
	for j := range f.Body {
		if j > 0 && !visible(f, f.Body[j]) {
			continue
		}
		emit(assign(out[j], st.pc, intc(int64(j)), f.Body[j].Pos))
		emit(&program.Instr{Label: b.label(base + "switch"), Op: program.OpReturn})
	}
	return g, nil
}

// spawn translates the Spawn in (c: its renamed copy) of instance i: it
// takes the next free instance of the site (or cuts the run when there is
// none), numbers it, stores its id in the handle and its argument in the
// start function's parameter.
func (b *builder) spawn(in, c *program.Instr, l func(string) program.Label, emit func(*program.Instr),
	mapped func(*program.Instr, program.Label, bool, int)) error {
	insts := b.sites[in.Label]
	count := &program.Ref{Name: b.counts[in.Label], T: program.IntT}
	var branches []program.Label
	for k := range insts {
		branches = append(branches, l("inst"))
		emit(&program.Instr{Label: l("pick"), Op: program.OpGoto, Rhs: bin(program.Eq, count, intc(int64(k))), Targets: []program.Label{branches[k]}, Pos: in.Pos})
	}
	emit(&program.Instr{Label: l("cut"), Op: program.OpAssume, Rhs: intc(0), Pos: in.Pos, Msg: "thread bound: every instance of this pthread_create is taken"})
	done := l("spawned")
	for k, inst := range insts {
		st := b.state[inst]
		mapped(assign(branches[k], b.nthreads, bin(program.Add, b.nthreads, intc(1)), in.Pos), in.Label, true, inst)
		if c.Lhs != nil {
			mapped(assign(l("handle"), c.Lhs, b.nthreads, in.Pos), in.Label, false, -1)
		}
		callee := b.m.slots[inst].fn
		switch {
		case len(callee.Params) >= 1:
			param := &program.Ref{Name: b.paramName(inst, callee.Params[0].Name), T: callee.Params[0].Type}
			mapped(assign(l("arg"), param, c.Args[0], in.Pos), in.Label, false, -1)
		case program.HasNondet(c.Args[0]):
			return program.Errorf(program.Unsupported, "%s: lazyseq: nondeterministic argument of a thread function without parameters", in.Pos)
		}
		emit(assign(l("id"), st.id, b.nthreads, in.Pos))
		emit(assign(l("active"), st.active, intc(1), in.Pos))
		emit(assign(l("count"), count, intc(int64(k+1)), in.Pos))
		emit(&program.Instr{Label: l("next"), Op: program.OpGoto, Targets: []program.Label{done}, Pos: in.Pos})
	}
	emit(&program.Instr{Label: done, Op: program.OpSkip, Pos: in.Pos})
	return nil
}

// paramName returns the global that holds the parameter or local name of
// instance i.
func (b *builder) paramName(i int, name string) string { return b.locals[i][name] }

// declareLocals adds the globals that hold the parameters and locals of
// every instance.
func (b *builder) declareLocals() {
	for i, sl := range b.m.slots {
		m := map[string]string{}
		for _, v := range append(append([]*program.Var(nil), sl.fn.Params...), sl.fn.Locals...) {
			r := b.global(fmt.Sprintf("%d_%s", i, v.Name), v.Type, nil)
			g := b.q.Globals[len(b.q.Globals)-1]
			g.AddrTaken, g.Temp, g.Pos = v.AddrTaken, v.Temp, v.Pos
			m[v.Name] = r.Name
		}
		b.locals = append(b.locals, m)
	}
}

// driver is the sequential main: R rounds, each running every created,
// unfinished instance in order.
func (b *builder) driver() *program.Func {
	d := &program.Func{Name: "main", Result: program.IntT}
	for r := 1; r <= b.opts.Rounds; r++ {
		for i, sl := range b.m.slots {
			st := b.state[i]
			skip := b.label(fmt.Sprintf("ls.round%d.%d.skip", r, i))
			d.Body = append(d.Body,
				&program.Instr{Label: b.label(fmt.Sprintf("ls.round%d.%d", r, i)), Op: program.OpGoto, Targets: []program.Label{skip},
					Rhs: bin(program.LOr, bin(program.Eq, st.active, intc(0)), st.done)},
				&program.Instr{Label: b.label(fmt.Sprintf("ls.round%d.%d.run", r, i)), Op: program.OpCall,
					Func: &program.FuncRef{Name: sl.name, T: (&program.Func{Result: program.VoidType}).Type()}},
				&program.Instr{Label: skip, Op: program.OpSkip})
		}
	}
	d.Body = append(d.Body, &program.Instr{Label: b.label("ls.main.return"), Op: program.OpReturn, Rhs: intc(0)})
	return d
}

// visible reports whether instruction in of f may interact with other
// threads: a thread operation, the end of the thread, heap management, or
// an access to memory other than f's own locals whose address is never
// taken. Context switches happen only before visible instructions and
// before the first one: a switch before an invisible step can be moved
// after it (the step only touches the thread's private locals), which
// changes neither the number of rounds nor what any step computes; and a
// thread that blocks at an invisible assume can stay at the last switch
// point before it (the first instruction at the latest) while the others
// run, so a failing assume never cuts the other threads' runs.
func visible(f *program.Func, in *program.Instr) bool {
	switch in.Op {
	case program.OpSpawn, program.OpJoin, program.OpLock, program.OpUnlock, program.OpAtomicBegin, program.OpAtomicEnd,
		program.OpReturn, program.OpExit, program.OpAlloc, program.OpFree, program.OpCall:
		return true
	case program.OpDecl:
		v := f.Var(in.Var)
		return v == nil || v.AddrTaken
	}
	shared := false
	for _, e := range in.Operands() {
		program.Walk(e, func(x program.Expr) bool {
			switch x := x.(type) {
			case *program.Deref:
				shared = true
			case *program.Ref:
				if v := f.Var(x.Name); !x.Local || v == nil || v.AddrTaken {
					shared = true
				}
			}
			return !shared
		})
	}
	return shared
}

package lazyseq

import (
	"fmt"

	"cegpv.dev/cegpv/program"
)

// label returns a label based on base that no instruction uses yet.
func (b *builder) label(base string) program.Label {
	l := program.Label(base)
	if b.used[l] {
		var i int
		l, i = program.FreshFrom(base, b.used, b.next[base])
		b.next[base] = i + 1
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

// emitter builds the function of one thread instance.
type emitter struct {
	b    *builder
	i    int // the instance
	st   instState
	g    *program.Func
	base string
	npcs int           // the context-switch points so far (numbered 0, 1, ...)
	next program.Label // the skip test of the next point (emitted with it)
	sws  []swPoint     // the switch of every point, to choose its guard (see choose)
}

// swPoint is a point's switch: the index of its goto in the function and
// the point's number.
type swPoint struct {
	at int
	k  int64
}

// act is one activation of a function, inlined into the instance's
// function: the globals that hold its parameters and locals, the
// functions on the call stack (itself last), and for a callee where its
// result goes (lhs, nil: nowhere) and where its caller goes on.
type act struct {
	fn    *program.Func
	vars  map[string]*program.Ref
	stack []*program.Func
	root  bool
	lhs   program.Expr
	after program.Label
	// alone, when not nil, marks the instructions that run while the
	// instance is the only one (see aloneBefore); a callee's alone is all
	// true or nil.
	alone []bool
}

// atomic reports whether the activation runs inside an atomic function
// (its own or a caller's call of one), where no switch can happen.
func (a *act) atomic() bool {
	for _, f := range a.stack[1:] {
		if f.Atomic {
			return true
		}
	}
	return false
}

func (e *emitter) emit(in *program.Instr) { e.g.Body = append(e.g.Body, in); e.b.size++ }

// mapped emits in as part of the step of orig (see part).
func (e *emitter) mapped(in *program.Instr, orig program.Label, first bool, creates int) {
	e.b.m.steps[in.Label] = part{Slot: e.i, Orig: orig, First: first, Draws: draws(in), Creates: creates}
	e.emit(in)
}

// step emits the parts of one step of orig in turn: the first begins the
// step, the others continue it.
type step struct {
	e     *emitter
	orig  program.Label
	begun bool
}

func (s *step) add(in *program.Instr) {
	s.e.mapped(in, s.orig, !s.begun, -1)
	s.begun = true
}

// begin makes sure the step has begun (with a Skip when no part did).
func (s *step) begin(l program.Label, pos program.Pos) {
	if !s.begun {
		s.add(&program.Instr{Label: l, Op: program.OpSkip, Pos: pos})
	}
}

func (e *emitter) l(s string) program.Label { return e.b.label(e.base + s) }

// ren rewrites an expression of activation a: its locals become their
// globals, pthread_self() the instance's id.
func (e *emitter) ren(a *act, x program.Expr) program.Expr {
	return program.Rewrite(x, func(x program.Expr) program.Expr {
		if r, ok := x.(*program.Ref); ok && r.Local {
			return a.vars[r.Name]
		}
		if t, ok := x.(*program.ThreadID); ok { // the instance's id, as its Spawn numbered it
			return &program.Cast{X: e.st.id, T: t.T}
		}
		return x
	})
}

// thread builds the function of instance i.
func (b *builder) thread(i int) (*program.Func, error) {
	sl := b.m.slots[i]
	e := &emitter{b: b, i: i, st: b.state[i], base: fmt.Sprintf("ls%d.", i),
		g: &program.Func{Name: sl.name, Result: program.VoidType, Pos: sl.fn.Pos}}
	root := &act{fn: sl.fn, vars: map[string]*program.Ref{}, stack: []*program.Func{sl.fn}, root: true}
	if i == 0 {
		root.alone = b.aloneBefore(sl.fn)
	}
	for _, v := range append(append([]*program.Var(nil), sl.fn.Params...), sl.fn.Locals...) {
		root.vars[v.Name] = &program.Ref{Name: b.locals[i][v.Name], T: v.Type}
	}
	// Resume where the last round stopped: skip forward from point to
	// point up to point pc (see point).
	e.next = e.l("pre")
	e.emit(assign(e.l("stop"), b.stop, &program.Nondet{T: program.IntT}, sl.fn.Pos))
	if err := e.body(root); err != nil {
		return nil, err
	}
	e.choose()
	// past the last point: a switch skipped to here, stores the point
	// where it happened and returns; else the start routine ends
	ret := e.l("switch")
	e.emit(&program.Instr{Label: e.next, Op: program.OpGoto, Rhs: bin(program.Ge, e.st.pc, intc(switched)), Targets: []program.Label{ret}, Pos: sl.fn.Pos})
	e.end(nil, nil)
	e.emit(assign(ret, e.st.pc, bin(program.Sub, e.st.pc, intc(switched)), sl.fn.Pos))
	e.emit(&program.Instr{Label: e.l("switch"), Op: program.OpReturn, Pos: sl.fn.Pos})
	return e.g, nil
}

// switched is added to an instance's __ls_pc_i when it switches out, for
// the rest of its function to skip: more than any point's number (a
// point is several instructions, at most MaxInstrs in all).
const switched = MaxInstrs

// point emits context-switch point k before the instruction labelled sw
// (Lazy-CSeq's guarded skips, with loops kept): control jumps from each
// point's skip test to the next one's, forward only, while __ls_pc_i is
// above k: as the function resumes, up to the point where the instance
// stopped (its pc), and after a switch at point j (which stores j +
// switched) past the last point, where the function stores j and returns.
// A run passes a point below its pc only through a loop's back edge,
// which sets pc to -1 (see body). A checker therefore meets one pending
// branch at a time, where a jump table to every point (and from every
// point to a return) left it one path per point to carry: ESBMC 8.4 did
// not finish 2 rounds of safe024_rmo in 120 s that way, and does in 3 s
// this way (docs/bench/rounds); and the only state the points write is
// pc, at a switch (a flag set at every point was 4079 of the 18492
// assignments ESBMC kept for mix000_pso at 3 rounds, docs/bench/s23-esbmc-solver).
func (e *emitter) point(sw program.Label, pos program.Pos) {
	kv := int64(e.npcs)
	k := intc(kv)
	e.npcs++
	pre, next := e.next, e.l("pre")
	e.next = next
	body, out := e.l("at"), e.l("out")
	e.emit(&program.Instr{Label: pre, Op: program.OpGoto, Rhs: bin(program.Gt, e.st.pc, k), Targets: []program.Label{next}, Pos: pos})
	// the choice first, so that it is drawn at every switch point (a
	// checker's trace shows it) whatever the section; choose replaces it
	// outside loops
	guard := bin(program.LAnd, &program.Nondet{T: program.IntT}, bin(program.Eq, e.b.atomic, intc(0)))
	e.sws = append(e.sws, swPoint{at: len(e.g.Body), k: kv})
	e.emit(&program.Instr{Label: sw, Op: program.OpGoto, Rhs: guard, Targets: []program.Label{out}, Pos: pos, Msg: "context switch"})
	e.emit(&program.Instr{Label: e.l("stay"), Op: program.OpGoto, Targets: []program.Label{body}, Pos: pos})
	e.emit(assign(out, e.st.pc, intc(kv+switched), pos))
	e.emit(&program.Instr{Label: e.l("out"), Op: program.OpGoto, Targets: []program.Label{next}, Pos: pos})
	e.emit(&program.Instr{Label: body, Op: program.OpSkip, Pos: pos})
}

// choose gives every point outside the function's loops the guard
// "k >= __ls_stop" for its choice, where __ls_stop is drawn once as the
// function starts (Lazy-CSeq's one guess per context), and leaves a
// choice of its own to each point inside a loop, which a run may pass
// several times. The runs are those of a choice per point: outside loops
// a run passes points in increasing order, so the first point where it
// switches out (when no atomic section is open) is the one it chose, and
// a switch inside a loop goes with a __ls_stop past every point. A
// checker then draws one value per context instead of one per point
// (ESBMC 8.4 on mix000_pso at 3 rounds: 23579 assignments without probes,
// 33997 with one probe per point; docs/bench/s23-esbmc-solver).
func (e *emitter) choose() {
	loops := e.g.Loops()
	for _, p := range e.sws {
		if len(loops[p.at]) > 0 {
			continue
		}
		in := e.g.Body[p.at]
		in.Rhs = bin(program.LAnd, bin(program.Ge, intc(p.k), e.b.stop), bin(program.Eq, e.b.atomic, intc(0)))
	}
}

// end ends the instance: the result of orig (a Return or Exit; nil: the
// start routine's end), done, and no atomic section open.
func (e *emitter) end(orig *program.Instr, ren func(program.Expr) program.Expr) {
	st := e.st
	pos := e.g.Pos
	if orig != nil {
		pos = orig.Pos
	}
	in := assign(e.l("end"), st.done, intc(1), pos)
	switch {
	case orig != nil && orig.Rhs != nil:
		var r program.Expr = ren(orig.Rhs)
		if r.Type().Kind != program.Pointer {
			r = &program.Cast{X: r, T: st.res.T}
		}
		e.mapped(assign(e.l("end"), st.res, r, pos), orig.Label, true, -1)
		e.emit(in)
	case orig != nil:
		e.mapped(in, orig.Label, true, -1)
	default:
		e.emit(in)
	}
	e.emit(assign(e.l("end"), e.b.atomic, intc(0), pos))
	e.emit(&program.Instr{Label: e.l("end"), Op: program.OpReturn, Pos: pos})
}

// body emits the instructions of activation a, each preceded by a
// context-switch point when it is visible (and the first of the start
// routine), and, for a callee, its implicit return at the end.
func (e *emitter) body(a *act) error {
	f := a.fn
	ren := func(x program.Expr) program.Expr { return e.ren(a, x) }
	sw := make([]program.Label, len(f.Body)) // the switch point before instruction j
	for j, in := range f.Body {
		sw[j] = e.l(string(in.Label))
	}
	inside, bracket := closedSections(f)
	for j, in := range f.Body {
		if e.b.size > MaxInstrs {
			return program.Errorf(program.Unsupported, "%s: lazyseq: the sequential program exceeds %d instructions (calls are inlined per call site, thread instance and recursion depth)", in.Pos, MaxInstrs)
		}
		l := func(s string) program.Label { return e.l(string(in.Label) + "." + s) }
		if (a.root && j == 0) || visible(f, in) && !a.atomic() && !inside[j] && (a.alone == nil || !a.alone[j]) {
			e.point(sw[j], in.Pos)
		} else {
			e.emit(&program.Instr{Label: sw[j], Op: program.OpSkip, Pos: in.Pos})
		}
		c := *in
		c.Label = l("x")
		c.Lhs, c.Rhs, c.Func = ren(in.Lhs), ren(in.Rhs), ren(in.Func)
		c.Args = nil
		for _, x := range in.Args {
			c.Args = append(c.Args, ren(x))
		}
		switch in.Op {
		case program.OpSkip, program.OpAssign, program.OpAssume, program.OpAssert, program.OpLock, program.OpUnlock,
			program.OpAlloc, program.OpRealloc, program.OpFree:
			e.mapped(&c, in.Label, true, -1)
		case program.OpGoto:
			c.Targets = nil
			for _, t := range in.Targets {
				k := f.Index(t)
				if k < 0 {
					return program.Errorf(program.Internal, "%s: goto %s outside %s", in.Pos, t, f.Name)
				}
				c.Targets = append(c.Targets, sw[k])
			}
			if f.LoopHead(j) >= 0 {
				// a back edge: the points it leads to lie below pc,
				// which the run has passed (see point)
				e.emit(assign(l("loop"), e.st.pc, intc(-1), in.Pos))
			}
			e.mapped(&c, in.Label, true, -1)
		case program.OpDecl:
			cs := cells(a.vars[in.Var])
			if overwritten(f, j) {
				cs = nil // its value is never read (see overwritten)
			}
			if len(cs) == 0 {
				e.mapped(&program.Instr{Label: l("x"), Op: program.OpSkip, Pos: in.Pos}, in.Label, true, -1)
			}
			for k, cell := range cs {
				e.mapped(assign(l("x"), cell, &program.Nondet{T: cell.Type()}, in.Pos), in.Label, k == 0, -1)
			}
		case program.OpAtomicBegin, program.OpAtomicEnd:
			if bracket[j] {
				// a closed section: nothing inside reads the count
				e.mapped(&program.Instr{Label: l("x"), Op: program.OpSkip, Pos: in.Pos}, in.Label, true, -1)
				break
			}
			op := program.Add
			if in.Op == program.OpAtomicEnd {
				op = program.Sub
			}
			e.mapped(assign(l("x"), e.b.atomic, bin(op, e.b.atomic, intc(1)), in.Pos), in.Label, true, -1)
		case program.OpReturn:
			if a.root {
				e.end(in, ren)
				continue
			}
			s := &step{e: e, orig: in.Label}
			switch {
			case in.Rhs != nil && a.lhs != nil:
				var r program.Expr = c.Rhs
				if !program.Identical(r.Type(), f.Result) && f.Result.IsScalar() {
					r = &program.Cast{X: r, T: f.Result}
				}
				s.add(assign(l("ret"), a.lhs, r, in.Pos))
			case in.Rhs != nil && program.HasNondet(in.Rhs):
				s.add(assign(l("ret"), e.b.global("discard", c.Rhs.Type(), nil), c.Rhs, in.Pos))
			}
			s.begin(l("ret"), in.Pos)
			e.leave(a, in.Pos)
		case program.OpExit:
			e.end(in, ren)
		case program.OpJoin:
			if program.HasNondet(c.Rhs) {
				return program.Errorf(program.Unsupported, "%s: lazyseq: join of a nondeterministic thread id", in.Pos)
			}
			var any program.Expr = intc(0)
			for k := range e.b.m.slots {
				s := e.b.state[k]
				same := &program.Binary{Op: program.Eq, X: &program.Cast{X: s.id, T: c.Rhs.Type()}, Y: c.Rhs, T: program.IntT}
				any = bin(program.LOr, any, bin(program.LAnd, bin(program.LAnd, s.active, s.done), same))
			}
			e.mapped(&program.Instr{Label: l("x"), Op: program.OpAssume, Rhs: any, Pos: in.Pos, Msg: "join"}, in.Label, true, -1)
			if c.Lhs != nil {
				// the joined instance's result
				var r program.Expr = &program.Const{T: c.Lhs.Type(), V: 0}
				for k := len(e.b.m.slots) - 1; k >= 0; k-- {
					s := e.b.state[k]
					same := &program.Binary{Op: program.Eq, X: &program.Cast{X: s.id, T: c.Rhs.Type()}, Y: c.Rhs, T: program.IntT}
					var v program.Expr = s.res
					if !program.Identical(v.Type(), c.Lhs.Type()) {
						v = &program.Cast{X: v, T: c.Lhs.Type()}
					}
					r = &program.CondExpr{C: bin(program.LAnd, s.done, same), X: v, Y: r, T: c.Lhs.Type()}
				}
				e.mapped(assign(l("x"), c.Lhs, r, in.Pos), in.Label, false, -1)
			}
		case program.OpSpawn:
			if err := e.spawn(in, &c, l); err != nil {
				return err
			}
		case program.OpCall:
			if err := e.call(a, in, &c, l); err != nil {
				return err
			}
		default:
			return program.Errorf(program.Unsupported, "%s: lazyseq: %s instruction", in.Pos, in.Op)
		}
	}
	if !a.root {
		// the implicit return at the end of the body: part of the last step
		if a.lhs != nil {
			for _, cell := range cells(a.lhs) {
				e.emit(assign(e.l("ret"), cell, &program.Const{T: cell.Type(), V: 0}, f.Pos))
			}
		}
		e.leave(a, f.Pos)
	}
	return nil
}

// aloneBefore marks the instructions of main (instance 0) that no run
// reaches after a thread has been created: those not reachable in main's
// control flow from a Spawn or a call of a function that may spawn. While
// main runs them it is the only instance, so a switch there ends a round
// in which no other instance runs, and main resumes at the same point in
// the next: the run without that switch reaches the same states in fewer
// rounds. Their points are left out (main's
// argument set-up and initialisation loops: for reorder_2 at 2 rounds a
// point before each of argv's characters). main called by a function
// (its body inlined elsewhere) keeps every point.
func (b *builder) aloneBefore(main *program.Func) []bool {
	for _, f := range b.p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpCall || in.Op == program.OpSpawn {
				for _, g := range b.targets(in) {
					if g == main {
						return nil
					}
				}
			}
		}
	}
	succ := main.Succs()
	alone := make([]bool, len(main.Body))
	for j := range alone {
		alone[j] = true
	}
	var work []int
	for j, in := range main.Body {
		spawner := in.Op == program.OpSpawn
		if in.Op == program.OpCall {
			for _, g := range b.targets(in) {
				spawner = spawner || b.spawns(g)
			}
		}
		if spawner {
			work = append(work, succ[j]...)
		}
	}
	for len(work) > 0 {
		j := work[len(work)-1]
		work = work[:len(work)-1]
		if j >= len(alone) || !alone[j] {
			continue
		}
		alone[j] = false
		work = append(work, succ[j]...)
	}
	return alone
}

// closedSections finds f's closed atomic sections: an AtomicBegin, then
// straight-line code (no Goto, Call, Spawn, Return, Exit or nested
// AtomicBegin, and no instruction a Goto jumps to), then its AtomicEnd —
// the refinement monitor's bracket around each visible instruction
// (reconstruct.Instrument) and many a __VERIFIER_atomic block. Control
// enters such a section only at its AtomicBegin and leaves it only at its
// AtomicEnd, so a point inside it (inside: after the AtomicBegin, up to
// and including the AtomicEnd) is always disabled (__ls_atomic > 0) and is
// left out, and the section's count updates (bracket: the AtomicBegin and
// AtomicEnd), which only such points would read, become Skips: a
// section's net count is zero. The monitor's sections had made four
// points of every visible instruction, doubling the sequentialisation of
// a refined abstraction (pthread/stack_true at 2 rounds: 469 printed lines
// unrefined, 1065 refined; 735 without these points).
func closedSections(f *program.Func) (inside, bracket []bool) {
	inside = make([]bool, len(f.Body))
	bracket = make([]bool, len(f.Body))
	target := map[program.Label]bool{}
	for _, in := range f.Body {
		if in.Op == program.OpGoto {
			for _, t := range in.Targets {
				target[t] = true
			}
		}
	}
	for i, in := range f.Body {
		if in.Op != program.OpAtomicBegin {
			continue
		}
	scan:
		for k := i + 1; k < len(f.Body); k++ {
			c := f.Body[k]
			if target[c.Label] {
				break
			}
			switch c.Op {
			case program.OpGoto, program.OpCall, program.OpSpawn, program.OpReturn, program.OpExit, program.OpAtomicBegin:
				break scan
			case program.OpAtomicEnd:
				bracket[i], bracket[k] = true, true
				for m := i + 1; m <= k; m++ {
					inside[m] = true
				}
				break scan
			}
		}
	}
	return inside, bracket
}

// spawns reports whether f or a function its calls may reach creates a
// thread.
func (b *builder) spawns(f *program.Func) bool {
	for _, g := range b.reach(f) {
		for _, in := range g.Body {
			if in.Op == program.OpSpawn {
				return true
			}
		}
	}
	return false
}

// overwritten reports whether the local that the Decl at index j of f
// brings into scope is assigned, whole, by the next instruction, which
// does not read it: its indeterminate value is never read, so the
// sequential program draws none (the front end's temporaries, declared
// right before their first assignment: a third of ESBMC's assignments on
// pthread-wmm's sequentialisations were their draws and probes). The
// mapped Decl step then has no values, and the input's replay draws 0,
// which nothing reads either. A local whose address is taken keeps its
// draw.
func overwritten(f *program.Func, j int) bool {
	if j+1 >= len(f.Body) {
		return false
	}
	decl, next := f.Body[j], f.Body[j+1]
	v := f.Var(decl.Var)
	if v == nil || v.AddrTaken || !v.Type.IsScalar() || next.Op != program.OpAssign {
		return false
	}
	lhs, ok := next.Lhs.(*program.Ref)
	if !ok || !lhs.Local || lhs.Name != decl.Var {
		return false
	}
	for _, r := range program.Refs(next.Rhs) {
		if r.Local && r.Name == decl.Var {
			return false
		}
	}
	return true
}

// leave ends the atomic section of an atomic callee (as the interpreter,
// only while one is open) and goes back to the caller.
func (e *emitter) leave(a *act, pos program.Pos) {
	if a.fn.Atomic {
		at := e.b.atomic
		e.emit(assign(e.l("ret"), at, &program.CondExpr{C: bin(program.Gt, at, intc(0)), X: bin(program.Sub, at, intc(1)), Y: intc(0), T: program.IntT}, pos))
	}
	e.emit(&program.Instr{Label: e.l("ret"), Op: program.OpGoto, Targets: []program.Label{a.after}, Pos: pos})
}

// fnPointer evaluates the callee of a Call or Spawn through a pointer
// (c: its renamed copy) into a fresh global, as a part of the step s.
func (e *emitter) fnPointer(in, c *program.Instr, s *step, l func(string) program.Label) (*program.Ref, error) {
	if in.Func.Type().Kind != program.Pointer {
		return nil, program.Errorf(program.Unsupported, "%s: lazyseq: call through %s of type %s", in.Pos, program.ExprString(in.Func), in.Func.Type())
	}
	fp := e.b.global("fp", c.Func.Type(), nil)
	s.add(assign(l("fp"), fp, c.Func, in.Pos))
	return fp, nil
}

// dispatch jumps, for each target, to its branch when fp points to it,
// and fails an assertion of its own when fp points to none: a call
// through an invalid pointer is an error of the input (the interpreter
// stops there), never a run to cut silently; its run does not replay.
func (e *emitter) dispatch(in *program.Instr, fp *program.Ref, targets []*program.Func, l func(string) program.Label) []program.Label {
	var branches []program.Label
	for _, f := range targets {
		br := l("to_" + f.Name)
		branches = append(branches, br)
		// the function designator, as the front end lowers &f and f
		fn := &program.FuncRef{Name: f.Name, T: f.Type()}
		e.emit(&program.Instr{Label: l("dispatch"), Op: program.OpGoto, Rhs: &program.Binary{Op: program.Eq, X: fp, Y: fn, T: program.IntT}, Targets: []program.Label{br}, Pos: in.Pos})
	}
	e.emit(&program.Instr{Label: l("badcall"), Op: program.OpAssert, Rhs: intc(0), Pos: in.Pos,
		Prop: string(in.Label) + ".lazyseq_bad_call.1", Msg: "call through " + program.ExprString(in.Func) + ", which points to no function of its type"})
	return branches
}

// call inlines the Call in (c: its renamed copy) of activation a: its
// step evaluates where the result goes, the callee and the arguments into
// the callee's parameters (a fresh activation's globals); the callee's
// body follows, its returns jump back. A call of a function that has
// Unwind activations on the stack already is cut (the recursion bound).
func (e *emitter) call(a *act, in, c *program.Instr, l func(string) program.Label) error {
	if program.HasNondet(in.Lhs) {
		return program.Errorf(program.Unsupported, "%s: lazyseq: a call's result stored at a nondeterministic place", in.Pos)
	}
	s := &step{e: e, orig: in.Label}
	lhs := c.Lhs
	if lhs != nil {
		if _, ok := lhs.(*program.Ref); !ok {
			// the place is evaluated at the call, as C does
			ptr := e.b.global("retp", program.PointerTo(lhs.Type(), e.b.p.Model.PtrSize()), nil)
			s.add(assign(l("retp"), ptr, &program.AddrOf{X: lhs, T: ptr.T}, in.Pos))
			lhs = &program.Deref{X: ptr, T: lhs.Type()}
		}
	}
	targets := e.b.targets(in)
	branches := []program.Label{""}
	if _, direct := in.Func.(*program.FuncRef); direct {
		if len(targets) == 0 {
			return program.Errorf(program.Unsupported, "%s: lazyseq: call of %s, which has no body", in.Pos, program.ExprString(in.Func))
		}
	} else {
		fp, err := e.fnPointer(in, c, s, l)
		if err != nil {
			return err
		}
		branches = e.dispatch(in, fp, targets, l)
	}
	after := l("after")
	begun := s.begun
	for k, f := range targets {
		if branches[k] != "" {
			e.emit(&program.Instr{Label: branches[k], Op: program.OpSkip, Pos: in.Pos})
		}
		s.begun = begun
		if len(f.Params) != len(in.Args) {
			return program.Errorf(program.Unsupported, "%s: lazyseq: call of %s with %d arguments, want %d", in.Pos, f.Name, len(in.Args), len(f.Params))
		}
		depth := 0
		for _, g := range a.stack {
			if g == f {
				depth++
			}
		}
		if depth >= e.b.opts.Unwind {
			e.emit(&program.Instr{Label: l("cut"), Op: program.OpAssume, Rhs: intc(0), Pos: in.Pos, Msg: fmt.Sprintf("recursion bound: %d activations of %s", depth, f.Name)})
			continue
		}
		callee := &act{fn: f, vars: map[string]*program.Ref{}, stack: append(append([]*program.Func(nil), a.stack...), f), lhs: lhs, after: after}
		if j := a.fn.Index(in.Label); a.alone != nil && j >= 0 && a.alone[j] && !e.b.spawns(f) {
			callee.alone = make([]bool, len(f.Body))
			for k := range callee.alone {
				callee.alone[k] = true
			}
		}
		for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			r := e.b.global(fmt.Sprintf("%d_%s_%s", e.i, f.Name, v.Name), v.Type, nil)
			g := e.b.q.Globals[len(e.b.q.Globals)-1]
			g.AddrTaken, g.Temp, g.Pos = v.AddrTaken, v.Temp, v.Pos
			callee.vars[v.Name] = r
		}
		for j, p := range f.Params {
			s.add(assign(l("arg"), callee.vars[p.Name], c.Args[j], in.Pos))
		}
		s.begin(l("call"), in.Pos)
		if f.Atomic {
			e.emit(assign(l("atomic"), e.b.atomic, bin(program.Add, e.b.atomic, intc(1)), in.Pos))
		}
		if err := e.body(callee); err != nil {
			return err
		}
	}
	e.emit(&program.Instr{Label: after, Op: program.OpSkip, Pos: in.Pos})
	return nil
}

// spawn translates the Spawn in (c: its renamed copy): it takes the next
// free instance of the site (or cuts the run when there is none), numbers
// it, stores its id in the handle and its argument in the start
// function's parameter.
func (e *emitter) spawn(in, c *program.Instr, l func(string) program.Label) error {
	if program.HasNondet(in.Lhs) {
		return program.Errorf(program.Unsupported, "%s: lazyseq: a thread handle stored at a nondeterministic place", in.Pos)
	}
	s := &step{e: e, orig: in.Label}
	targets := e.b.targets(in)
	branches := []program.Label{""}
	if _, direct := in.Func.(*program.FuncRef); !direct {
		fp, err := e.fnPointer(in, c, s, l)
		if err != nil {
			return err
		}
		branches = e.dispatch(in, fp, targets, l)
	} else if len(targets) == 0 {
		return program.Errorf(program.Unsupported, "%s: lazyseq: pthread_create of %s, which has no body", in.Pos, program.ExprString(in.Func))
	}
	done := l("spawned")
	begun := s.begun
	for t, f := range targets {
		if branches[t] != "" {
			e.emit(&program.Instr{Label: branches[t], Op: program.OpSkip, Pos: in.Pos})
		}
		site := siteKey{in.Label, f.Name}
		insts := e.b.sites[site]
		count := &program.Ref{Name: e.b.counts[site], T: program.IntT}
		var picks []program.Label
		for k := range insts {
			picks = append(picks, l("inst"))
			e.emit(&program.Instr{Label: l("pick"), Op: program.OpGoto, Rhs: bin(program.Eq, count, intc(int64(k))), Targets: []program.Label{picks[k]}, Pos: in.Pos})
		}
		e.emit(&program.Instr{Label: l("cut"), Op: program.OpAssume, Rhs: intc(0), Pos: in.Pos, Msg: "thread bound: every instance of this pthread_create is taken"})
		for k, inst := range insts {
			st := e.b.state[inst]
			e.mapped(assign(picks[k], e.b.nthreads, bin(program.Add, e.b.nthreads, intc(1)), in.Pos), in.Label, !begun, inst)
			if c.Lhs != nil {
				e.mapped(assign(l("handle"), c.Lhs, e.b.nthreads, in.Pos), in.Label, false, -1)
			}
			switch {
			case len(f.Params) >= 1:
				param := &program.Ref{Name: e.b.locals[inst][f.Params[0].Name], T: f.Params[0].Type}
				e.mapped(assign(l("arg"), param, c.Args[0], in.Pos), in.Label, false, -1)
			case program.HasNondet(c.Args[0]):
				return program.Errorf(program.Unsupported, "%s: lazyseq: nondeterministic argument of a thread function without parameters", in.Pos)
			}
			e.emit(assign(l("id"), st.id, e.b.nthreads, in.Pos))
			e.emit(assign(l("active"), st.active, intc(1), in.Pos))
			e.emit(assign(l("count"), count, intc(int64(k+1)), in.Pos))
			e.emit(&program.Instr{Label: l("next"), Op: program.OpGoto, Targets: []program.Label{done}, Pos: in.Pos})
		}
	}
	e.emit(&program.Instr{Label: done, Op: program.OpSkip, Pos: in.Pos})
	return nil
}

// declareLocals adds the globals that hold the parameters and locals of
// every instance's start routine.
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
// threads: a thread operation, the end of the thread, a call or return,
// heap management, or an access to memory other than f's own locals whose
// address is never taken. Context switches happen only before visible
// instructions and before the first one of a start routine: a switch
// before an invisible step can be moved after it (the step only touches
// the thread's private locals), which changes neither the number of
// rounds nor what any step computes; and a thread that blocks at an
// invisible assume can stay at the last switch point before it (the
// first instruction at the latest) while the others run, so a failing
// assume never cuts the other threads' runs.
func visible(f *program.Func, in *program.Instr) bool {
	switch in.Op {
	case program.OpSpawn, program.OpJoin, program.OpLock, program.OpUnlock, program.OpAtomicBegin, program.OpAtomicEnd,
		program.OpReturn, program.OpExit, program.OpAlloc, program.OpRealloc, program.OpFree, program.OpCall:
		return true
	case program.OpDecl:
		v := f.Var(in.Var)
		return v == nil || v.AddrTaken
	}
	for _, e := range in.Operands() {
		if program.SharedAccess(f, e, true) {
			return true
		}
	}
	return false
}

package builtin

import (
	"fmt"
	"maps"
	"slices"

	"cegpv.dev/cegpv/program"
)

// symex runs the symbolic execution of every thread instance.
func (e *enc) symex() {
	e.initObjects()
	e.lockFn = e.lockFuncs()
	main := e.p.Func("main")
	if main == nil {
		e.unsupported(program.Pos{}, "no main function")
	}
	th := &thread{idx: 0, fn: main, spawnG: tTrue, spawnAt: tTrue, tid: bvc(32, 0)}
	e.threads = append(e.threads, th)
	e.queue = append(e.queue, th)
	for len(e.queue) > 0 {
		t := e.queue[0]
		e.queue = e.queue[1:]
		e.runThread(t)
	}
	e.presence()
	e.fixCounts()
}

// countOf returns the number of valid cells of a heap block of symbolic
// size: a symbol of this pass named after the object id, equated with the
// count at the allocation. An access through a pointer of unknown target
// may meet a block of the previous pass (enc.prev) that this pass has not
// created yet; its terms belong to the previous formula and must never be
// used, whereas the symbol of the id is declared here and defined when
// this pass creates the block.
func (e *enc) countOf(o *object) *term {
	if t := e.counts[o.id]; t != nil {
		return t
	}
	t := e.fresh("hc", e.offW)
	e.counts[o.id] = t
	return t
}

// counted is the condition that cell k of heap block o is one of its
// valid cells: always for a block of constant size (k below its ncells),
// k below countOf(o) for one of symbolic size.
func (e *enc) counted(o *object, k int64) *term {
	if !o.symCount {
		return tTrue
	}
	return cmp("bvult", bvc(e.offW, uint64(k)), e.countOf(o))
}

// fixCounts defines the count symbols of ids whose block in this pass has a
// constant size (the previous pass had a symbolic one there).
func (e *enc) fixCounts() {
	for _, id := range slices.Sorted(maps.Keys(e.counts)) {
		if id < len(e.objs) && !e.objs[id].symCount {
			e.assert(eq(e.counts[id], bvc(e.offW, uint64(e.objs[id].ncells))))
		}
	}
}

func (e *enc) runThread(th *thread) {
	if multiStep(th.spawn) {
		// spawned inside an atomic section: the child exists only if the
		// section completes (presence.go); the parent has been executed
		th.spawnG = e.name(and(th.spawnG, e.complete(th.spawn)))
	}
	st := &state{g: th.spawnG, mem: map[cellKey]val{}, loops: map[int]loopCount{}}
	th.start = e.newBlock(th, st.g, "start", "")
	if th.spawn != nil {
		e.assert(e.clockLT(th.spawn.clock, th.start.clock))
	} else {
		// clock 0 is the initial write of every cell
		e.assert(e.clockLT(e.clockZero(), th.start.clock))
	}
	fr := e.newFrame(th, th.fn, nil, nil)
	if len(th.fn.Params) > 0 {
		pv := fr.vars[th.fn.Params[0].Name]
		arg := th.arg
		if arg.t == nil {
			arg = e.zeroVal(pv.typ)
		}
		e.initParam(st, pv, arg)
	}
	var exits []*state
	final, _ := e.execFunc(st, fr, &exits)
	var gs []*term
	if final != nil {
		gs = append(gs, final.g)
		e.disqualify(final.held)
	}
	for _, x := range exits {
		gs = append(gs, x.g)
	}
	th.endG = e.name(or(gs...))
	th.end = e.newBlock(th, th.endG, "end", "")
	// the paths that set a result exclude each other (one thread)
	th.res = e.zeroVal(e.voidPtr())
	for i := len(th.results) - 1; i >= 0; i-- {
		r := th.results[i]
		th.res = e.nameVal(iteVal(r.g, r.v, th.res))
	}
}

// setResult records v as th's result on the paths of g.
func (e *enc) setResult(th *thread, g *term, v val) {
	if th.idx == 0 {
		return // main's result is the program's exit status; no join reads it
	}
	th.results = append(th.results, guardedVal{g: g, v: e.convertCell(v, e.voidPtr())})
}

// mutexInit says whether in is the lowering of pthread_mutex_init: the
// unlocked value stored into a mutex.
func mutexInit(in *program.Instr) bool {
	c, ok := in.Rhs.(*program.Const)
	return in.Op == program.OpAssign && in.Lhs.Type().Kind == program.Mutex && ok && c.V == 0
}

func (e *enc) newFrame(th *thread, f *program.Func, parent *frame, retAddr *val) *frame {
	e.nframes++
	fr := &frame{fn: f, id: e.nframes, vars: map[string]*object{}, th: th, parent: parent, retAddr: retAddr, retType: f.Result}
	for _, v := range append(slices.Clone(f.Params), f.Locals...) {
		o := e.newObject(f.Name+"::"+v.Name, v.Type, v.AddrTaken)
		o.exposed = v.AddrTaken
		o.thread = th
		fr.vars[v.Name] = o
	}
	return fr
}

// initParam binds a parameter object to its argument value.
func (e *enc) initParam(st *state, o *object, v val) {
	v = e.convertCell(v, o.typ)
	if o.shared {
		o.init = []val{v}
		return
	}
	st.mem[cellKey{o.id, 0}] = v
}

// funcCtx is the state of executing one function body.
type funcCtx struct {
	fr    *frame
	pend  map[int][]*state
	rets  []*state
	exits *[]*state
}

// execFunc executes fr's body from st and returns the merged state after
// its returns (nil if no path returns) and the return value.
func (e *enc) execFunc(st *state, fr *frame, exits *[]*state) (*state, val) {
	fc := &funcCtx{fr: fr, pend: map[int][]*state{}, exits: exits}
	body := fr.fn.Body
	cur := st
	cur.loops = map[int]loopCount{}
	pc := 0
	for {
		if ps := fc.pend[pc]; len(ps) > 0 {
			delete(fc.pend, pc)
			pos := program.Pos{}
			if pc < len(body) {
				pos = body[pc].Pos
			}
			cur = e.merge(append([]*state{cur}, ps...), pos)
		}
		if cur != nil && isFalse(cur.g) {
			cur = nil
		}
		if cur == nil {
			next := -1
			for k := range fc.pend {
				if k > pc && (next < 0 || k < next) {
					next = k
				}
			}
			if next < 0 {
				break
			}
			pc = next
			continue
		}
		// a thread that leaves a loop's instructions [head, back edge]
		// starts its count afresh on the next entry (machine.Unwinder)
		for k, l := range cur.loops {
			if pc < l.head || pc > k {
				delete(cur.loops, k)
			}
		}
		if pc >= len(body) {
			for _, h := range cur.held {
				if h.frame == fr.id {
					e.lockBad[h.cell] = true
				}
			}
			// implicit return: stores 0 into the caller's lvalue
			if fr.retAddr != nil {
				rec := &stepRec{th: fr.th, g: cur.g, tail: true}
				c := &ectx{st: cur, fr: fr.parent, th: fr.th, in: &program.Instr{Pos: fr.fn.Pos}, rec: rec}
				e.storeRet(c, e.zeroVal(fr.retAddr.retT(fr)), fr)
			}
			fc.rets = append(fc.rets, cur)
			cur = nil
			continue
		}
		cur, pc = e.step(fc, cur, pc)
	}
	var r *state
	if len(fc.rets) > 0 {
		r = e.merge(fc.rets, fr.fn.Pos)
	}
	return r, val{}
}

func (v *val) retT(fr *frame) *program.Type { return fr.retType }

func (e *enc) record(st *state, th *thread, in *program.Instr) (*stepRec, *ectx) {
	rec := &stepRec{th: th, in: in, g: st.g}
	c := &ectx{st: st, th: th, in: in, rec: rec, nd: map[*program.Nondet]val{}}
	for _, x := range in.Operands() {
		program.Walk(x, func(y program.Expr) bool {
			if nd, ok := y.(*program.Nondet); ok {
				if _, dup := c.nd[nd]; dup {
					e.unsupported(in.Pos, "shared nondet expression node")
				}
				var v val
				if nd.T.IsScalar() {
					v = e.freshVal("n", nd.T)
				} else {
					v = val{t: e.fresh("n", 64)}
				}
				c.nd[nd] = v
				rec.nondet = append(rec.nondet, ndVal{v: v, t: nd.T})
			}
			return true
		})
	}
	return rec, c
}

func (e *enc) addStep(rec *stepRec, st *state) {
	e.stepSeq++
	rec.seq = e.stepSeq
	rec.blk = st.blk
	rec.th.steps = append(rec.th.steps, rec)
}

// endInstr closes a one-instruction block.
func (e *enc) endInstr(st *state) {
	if st != nil && st.depth == 0 && st.blk != nil {
		e.endBlock(st)
	}
}

// step executes the instruction at pc and returns the state continuing at
// the returned pc.
func (e *enc) step(fc *funcCtx, st *state, pc int) (*state, int) {
	e.tick()
	fr := fc.fr
	in := fr.fn.Body[pc]
	e.settleMixed(st, in)
	kind, lk, isLock := e.lockOpOf(in)
	prevSync := e.inSync
	defer func() { e.inSync = prevSync }()
	if isLock {
		if kind == lockAcquire {
			if heldIndex(st.held, lk) >= 0 {
				e.lockBad[lk] = true
			}
			if (e.collapse[lk] || e.collapseRegs[len(e.regions)]) && st.depth == 0 && st.blk == nil {
				st.blk = e.newBlock(fr.th, st.g, "region", in.Label)
				st.cache = map[cellKey]*centry{}
				st.depth++
				st.regs = append(st.regs, lk)
			}
		}
		e.inSync = true
	} else if fr.th.idx == 0 && len(e.spawns) == 0 && mutexInit(in) {
		// pthread_mutex_init before any thread exists: no region of
		// another thread can overlap it, so the lock cell stays touched
		// only by lock operations (locks.go)
		e.inSync = true
	} else if len(st.held) > 0 {
		if in.Op == program.OpAssume && !e.inSync {
			markBlocking(st.held)
		}
		switch in.Op {
		case program.OpSpawn, program.OpJoin, program.OpAtomicBegin, program.OpExit, program.OpLock, program.OpUnlock:
			e.disqualify(st.held)
		case program.OpReturn:
			for _, h := range st.held {
				if h.frame == fr.id {
					e.lockBad[h.cell] = true
				}
			}
		}
	}
	if e.inst != nil && st.blk == nil && e.inst.ownBlock[in.Label] {
		e.ensureBlock(st, fr.th, in) // incremental.go: every visible step has a clock
	}
	ns, npc := e.stepInner(fc, st, pc)
	e.inSync = prevSync
	if isLock && ns != nil {
		last := fr.th.blocks[len(fr.th.blocks)-1]
		if kind == lockAcquire {
			e.lockSeen[lk] = true
			r := &region{idx: len(e.regions), lock: lk, th: fr.th, acq: last, acqG: ns.g}
			e.regions = append(e.regions, r)
			ns.held = append(ns.held, heldLock{cell: lk, frame: fr.id, reg: r})
		} else {
			i := heldIndex(ns.held, lk)
			if i < 0 || ns.held[i].frame != fr.id {
				e.lockBad[lk] = true
			}
			if i >= 0 {
				if r := ns.held[i].reg; r.rel == nil {
					r.rel, r.relG = last, ns.g
				} else {
					e.lockBad[lk] = true
				}
			}
			if i >= 0 {
				ns.held = slices.Delete(ns.held, i, i+1)
			}
			if n := len(ns.regs); n > 0 && ns.regs[n-1] == lk {
				ns.regs = ns.regs[:n-1]
				ns.depth--
				if ns.depth == 0 {
					e.endBlock(ns)
				}
			}
		}
	}
	return ns, npc
}

func (e *enc) stepInner(fc *funcCtx, st *state, pc int) (*state, int) {
	fr := fc.fr
	th := fr.th
	in := fr.fn.Body[pc]
	rec, c := e.record(st, th, in)
	if e.inst != nil {
		e.inst.step(fr, st, in, rec) // incremental.go: instance key
	}
	c.fr = fr
	g := st.g
	defer func() {
		if r := recover(); r != nil {
			if pe, ok := r.(*program.Error); ok && pe.Pos == (program.Pos{}) {
				pe.Pos = in.Pos
			}
			panic(r)
		}
	}()
	switch in.Op {
	case program.OpSkip:
		e.addStep(rec, st)
	case program.OpAssign:
		vals := e.loadCells(c, in.Rhs, g)
		e.storeCells(c, in.Lhs, vals, g)
		e.addStep(rec, st)
		e.endInstr(st)
	case program.OpAssume:
		cv := e.name(e.cond(e.eval(c, in.Rhs, g)))
		st.g = e.name(and(st.g, cv))
		rec.g = st.g
		e.addStep(rec, st)
		e.endInstr(st)
	case program.OpAssert:
		cv := e.name(e.cond(e.eval(c, in.Rhs, g)))
		rec.assert = cv
		e.addStep(rec, st)
		e.asserts = append(e.asserts, rec)
		// A run ends at a violated assertion (interp), so the thread goes
		// on only where it holds, as in CBMC. After assert(0) (the lowering
		// of __VERIFIER_error) the path is dead: it neither meets other
		// paths nor keeps a lock region open.
		st.g = e.name(and(st.g, cv))
		e.endInstr(st)
	case program.OpGoto:
		return e.gotoStep(fc, st, pc, in, rec, c)
	case program.OpCall:
		return e.callStep(fc, st, pc, in, rec, c), pc + 1
	case program.OpReturn:
		if in.Rhs != nil && fr.retAddr != nil {
			vals := e.loadCells(c, in.Rhs, g)
			e.storeRetCells(c, vals, fr)
		} else if in.Rhs != nil {
			vals := e.loadCells(c, in.Rhs, g) // reads and nondets still happen
			if fr.parent == nil && len(vals) == 1 {
				e.setResult(th, st.g, vals[0])
			}
		}
		e.addStep(rec, st)
		e.endInstr(st)
		fc.rets = append(fc.rets, st)
		return nil, pc + 1
	case program.OpExit:
		if in.Rhs != nil {
			vals := e.loadCells(c, in.Rhs, g)
			e.setResult(th, st.g, vals[0])
		}
		e.addStep(rec, st)
		if st.blk != nil {
			e.endBlock(st)
		}
		*fc.exits = append(*fc.exits, st)
		return nil, pc + 1
	case program.OpSpawn:
		e.spawnStep(st, in, rec, c)
	case program.OpJoin:
		// a join may block: a loop of joins is no single path (grant)
		st.forks++
		e.ensureBlock(st, th, in)
		t := e.eval(c, in.Rhs, g)
		ok := e.fresh("join", 0)
		jr := joinRec{blk: st.blk, t: e.convert(t, in.Rhs.Type(), program.LLongType), ok: ok}
		st.g = e.name(and(st.g, ok))
		rec.g = st.g
		if in.Lhs != nil {
			// the result of the thread joined, bound in finish (the
			// thread may not have been executed yet)
			a := e.addr(st, c, in.Lhs, st.g)
			r := e.freshVal("jres", e.voidPtr())
			jr.res = &r
			e.store(c, a, in.Lhs.Type(), e.convertCell(r, in.Lhs.Type()), st.g)
		}
		e.joins = append(e.joins, jr)
		e.addStep(rec, st)
		e.endInstr(st)
	case program.OpLock, program.OpUnlock:
		e.ensureBlock(st, th, in)
		p := e.eval(c, in.Rhs, g)
		if in.Op == program.OpLock {
			m := e.load(c, p, program.MutexType, g)
			st.g = e.name(and(st.g, eq(m.t, bvc(m.t.w, 0))))
			rec.g = st.g
			e.store(c, p, program.MutexType, val{t: bvc(program.MutexType.Bits(), 1)}, st.g)
		} else {
			e.store(c, p, program.MutexType, val{t: bvc(program.MutexType.Bits(), 0)}, g)
		}
		e.addStep(rec, st)
		e.endInstr(st)
	case program.OpAtomicBegin:
		if st.depth == 0 {
			st.blk = e.newBlock(th, st.g, "atomic", in.Label)
			st.cache = map[cellKey]*centry{}
		}
		st.depth++
		e.addStep(rec, st)
	case program.OpAtomicEnd:
		if st.depth == 0 {
			e.unsupported(in.Pos, "atomic end outside an atomic section")
		}
		e.addStep(rec, st)
		st.depth--
		if st.depth == 0 {
			e.endBlock(st)
		}
	case program.OpDecl:
		v := fr.fn.Var(in.Var)
		o := fr.vars[in.Var]
		if v == nil || o == nil {
			e.unsupported(in.Pos, "decl of unknown local %s", in.Var)
		}
		for k := int64(0); k < o.ncells; k++ {
			ct := o.cellType(k)
			if ct.Kind == program.Void {
				continue
			}
			nv := e.freshVal("n", ct)
			rec.nondet = append(rec.nondet, ndVal{v: nv, t: ct})
			e.writeCell(st, th, in, o, k, tTrue, nv, g, rec)
		}
		e.addStep(rec, st)
		e.endInstr(st)
	case program.OpAlloc, program.OpRealloc:
		e.allocStep(st, in, rec, c)
		e.addStep(rec, st)
		e.endInstr(st)
	case program.OpFree:
		e.freeStep(c, e.eval(c, in.Rhs, g), g)
		e.addStep(rec, st)
		e.endInstr(st)
	default:
		e.unsupported(in.Pos, "instruction %s", in.Op)
	}
	return st, pc + 1
}

func (e *enc) storeRet(c *ectx, v val, fr *frame) {
	e.storeRetCells(c, []val{v}, fr)
}

func (e *enc) storeRetCells(c *ectx, vals []val, fr *frame) {
	e.storeAt(c, *fr.retAddr, fr.retType, vals, c.st.g)
}

func (e *enc) gotoStep(fc *funcCtx, st *state, pc int, in *program.Instr, rec *stepRec, c *ectx) (*state, int) {
	g := st.g
	cv := tTrue
	if in.Rhs != nil {
		cv = e.name(e.cond(e.eval(c, in.Rhs, g)))
	}
	e.addStep(rec, st)
	e.endInstr(st)
	body := fc.fr.fn.Body
	targets := make([]int, len(in.Targets))
	for i, l := range in.Targets {
		targets[i] = fc.fr.fn.Index(l)
		if targets[i] < 0 {
			e.unsupported(in.Pos, "goto target %s not found", l)
		}
	}
	_ = body
	if len(targets) > 1 {
		// nondeterministic choice among forward targets
		st.forks++
		ch := e.fresh("ch", 16)
		var rest []*term
		for i, t := range targets {
			if t <= pc {
				e.unsupported(in.Pos, "backward goto with several targets")
			}
			var sel *term
			if i < len(targets)-1 {
				sel = eq(ch, bvc(16, uint64(i)))
			} else {
				sel = cmp("bvuge", ch, bvc(16, uint64(i)))
			}
			rest = append(rest, sel)
			tg := e.name(and(st.g, cv, sel))
			if !isFalse(tg) {
				fc.pend[t] = append(fc.pend[t], st.fork(tg))
			}
		}
		st.g = e.name(and(st.g, not(cv)))
		return st, pc + 1
	}
	t := targets[0]
	taken := e.name(and(st.g, cv))
	notTaken := e.name(and(st.g, not(cv)))
	if t > pc {
		switch {
		case isFalse(taken) || isFalse(notTaken):
			if in.Rhs != nil {
				e.constantTest(st, fc.fr.fn, pc)
			}
		default:
			st.forks++ // both ways: a symbolic branch
		}
		if !isFalse(taken) {
			fc.pend[t] = append(fc.pend[t], st.fork(taken))
		}
		st.g = notTaken
		return st, pc + 1
	}
	// back edge
	if isFalse(taken) {
		st.g = notTaken
		return st, pc + 1
	}
	if e.spinOK && st.depth == 0 && e.spinLoop(fc.fr.fn, pc) {
		// a busy wait: the thread waits before its last iteration instead
		// (spin.go), so the path going round is dropped, not cut
		e.spinUsed = true
		st.g = notTaken
		return st, pc + 1
	}
	// the bound counts each back edge (CBMC's loops, machine.Unwinder)
	l := st.loops[pc]
	extra := l.extra
	if l.n+1 >= e.b.UnwindOfOr1(string(in.Label)) {
		if !e.grant(st, l, cv) {
			e.cut(st, taken, rec, program.LoopID(fc.fr.fn, pc), string(in.Label))
			st.g = notTaken
			return st, pc + 1
		}
		extra = true
	}
	if !isFalse(notTaken) {
		st.forks++
		fc.pend[pc+1] = append(fc.pend[pc+1], st.fork(notTaken))
	}
	st.g = taken
	st.loops[pc] = loopCount{n: l.n + 1, head: t, forks: st.forks, testIter: l.testIter, extra: extra}
	return st, t
}

// Beyond the bounds (Bounds.DeepenFrom > 0) a loop whose iterations are
// single paths that branch on constants runs past its bound: such an
// iteration costs the formula only its own steps, and the loops it
// describes (for (i = 0; i < 10000; i++) pthread_create(...); the 22
// steps of a Fibonacci computation) are where the bugs beyond the bounds
// of SV-COMP's tasks lie. grant decides whether the back edge of loop l,
// at its bound, may be taken once more:
//   - the bound is the search's, not the user's (beyond the bounds);
//   - the back edge is unconditional (cv constant true);
//   - the iteration ending here added no symbolic branch (state.forks has
//     not changed since the last back edge: it was one path) and decided
//     a branch of the loop on a constant (constantTest): a loop whose
//     exit is a constant, not an endless loop nor a busy wait on another
//     thread nor a loop over input;
//   - at most maxGranted iterations are granted per encoding; past that
//     the bound cuts as always.
//
// A thread spawned in a granted iteration is dormant (spawnStep). The
// iterations granted are no bound a verdict states: a violation found is
// a run replayed like any other (its Result.Reason says that it went past
// the unwinding), and an encoding with a granted iteration covers every
// run only if nothing was cut and no thread left dormant (coversAll).
func (e *enc) grant(st *state, l loopCount, cv *term) bool {
	if e.b.DeepenFrom <= 0 || !isTrue(cv) || l.n == 0 || l.forks != st.forks || l.testIter != l.n+1 || e.granted >= maxGranted {
		return false
	}
	e.granted++
	return true
}

// maxGranted bounds the iterations grant allows past the bounds in one
// encoding: 3 loops of 10000 thread creations and some of their joins.
const maxGranted = 1 << 16

// constantTest records, at a conditional forward goto of fn at pc whose
// condition is a constant, that the current iteration of the loops around
// it branched on a constant (grant).
func (e *enc) constantTest(st *state, fn *program.Func, pc int) {
	if e.b.DeepenFrom <= 0 {
		return
	}
	for _, back := range e.loopsAround(fn)[pc] {
		l, ok := st.loops[back]
		if !ok {
			l = loopCount{head: fn.LoopHead(back)}
		}
		l.testIter = l.n + 1
		st.loops[back] = l
	}
}

// loopsAround is fn.Loops, computed once per function.
func (e *enc) loopsAround(fn *program.Func) map[int][]int {
	m, ok := e.around[fn]
	if !ok {
		m = fn.Loops()
		if e.around == nil {
			e.around = map[*program.Func]map[int][]int{}
		}
		e.around[fn] = m
	}
	return m
}

// inGranted reports whether a step of the frame fr in state st runs within
// an iteration granted past its bound, of a loop of fr or of a caller.
func inGranted(st *state, fr *frame) bool {
	if fr.extra {
		return true
	}
	for _, l := range st.loops {
		if l.extra {
			return true
		}
	}
	return false
}

// heapCap is the number of elements modelled of a heap block of symbolic
// size (elements of ec cells): enough for the accesses of loops unwound to
// the bound (a few per iteration), at least 16, at most 256 and maxCells.
func (e *enc) heapCap(ec int64) int64 {
	n := min(max(int64(16), 4*int64(e.maxUnwind())), 256)
	return max(1, min(n, maxCells/ec))
}

// varIndexCap is the number of cells of an array modelled for accesses at
// a variable index: max(64, 8 × unwind). A large array indexed by a shared
// counter (the stack and queue tasks: 800 cells) otherwise costs one event
// per cell and access, while the runs within the bounds touch a few cells.
// Accesses at constant indices are modelled everywhere; a run that reaches
// a cell beyond the cap at a variable index is an invalid access (enc.bad),
// so the check says UNKNOWN instead of a verdict that could be wrong.
func (e *enc) varIndexCap() int64 {
	return max(int64(64), 8*int64(e.maxUnwind()))
}

// maxUnwind is the largest bound of any loop (Bounds.MaxUnwind), at
// least 1: what the models sized by the unwinding are sized for.
func (e *enc) maxUnwind() int {
	return max(1, e.b.MaxUnwind())
}

func (e *enc) unwind() int {
	if e.b.Unwind <= 0 {
		return 1
	}
	return e.b.Unwind
}

// calleeCands resolves the callee expression of a Call or Spawn.
func (e *enc) calleeCands(c *ectx, x program.Expr, g *term) ([]*program.Func, []*term) {
	if fr, ok := x.(*program.FuncRef); ok {
		f := e.p.Func(fr.Name)
		if f == nil {
			e.unsupported(c.in.Pos, "call of %s, which has no body", fr.Name)
		}
		return []*program.Func{f}, []*term{tTrue}
	}
	v := e.eval(c, x, g)
	if v.obj == nil {
		e.unsupported(c.in.Pos, "call through a non-pointer")
	}
	ft := x.Type()
	if ft.Kind == program.Pointer {
		ft = ft.Elem
	}
	var fs []*program.Func
	var cs []*term
	var valid []*term
	for _, f := range e.p.Funcs {
		if !program.Identical(f.Type(), ft) && !(len(f.Params) == len(ft.Params)) {
			continue
		}
		o := e.funcObjs[f.Name]
		cc := e.name(and(eq(v.obj, bvc(objW, uint64(o.id))), eq(v.t, bvc(e.offW, 0))))
		if isFalse(cc) {
			continue
		}
		fs = append(fs, f)
		cs = append(cs, cc)
		valid = append(valid, cc)
	}
	e.badIf(c, and(g, not(or(valid...))), "call through an invalid function pointer")
	return fs, cs
}

func (e *enc) callStep(fc *funcCtx, st *state, pc int, in *program.Instr, rec *stepRec, c *ectx) *state {
	fr := fc.fr
	th := fr.th
	g := st.g
	fs, cs := e.calleeCands(c, in.Func, g)
	var lhs *val
	if in.Lhs != nil {
		a := e.addr(st, c, in.Lhs, g)
		lhs = &a
	}
	args := make([][]val, len(in.Args))
	for i, a := range in.Args {
		args[i] = e.loadCells(c, a, g)
	}
	anyAtomic := false
	for _, f := range fs {
		anyAtomic = anyAtomic || f.Atomic
	}
	if anyAtomic && st.depth == 0 && st.blk == nil {
		// the Call step of an atomic function is the first step of its section
		st.blk = e.newBlock(th, st.g, "atomic", in.Label)
		st.cache = map[cellKey]*centry{}
	}
	e.addStep(rec, st)
	var outs []*state
	callerLoops := st.loops
	for i, f := range fs {
		sub := st
		if len(fs) > 1 {
			st.forks++
			sub = st.fork(e.name(and(st.g, cs[i])))
		}
		// recursion bound
		depth := 0
		for p := fr; p != nil; p = p.parent {
			if p.fn == f {
				depth++
			}
		}
		if depth >= e.b.UnwindOfOr1(program.RecursionID(fr.fn.Name)) {
			e.cut(sub, sub.g, rec, program.RecursionID(fr.fn.Name), program.RecursionID(fr.fn.Name))
			continue
		}
		if len(f.Params) != len(args) {
			e.unsupported(in.Pos, "call of %s with %d arguments, want %d", f.Name, len(args), len(f.Params))
		}
		nf := e.newFrame(th, f, fr, lhs)
		nf.extra = inGranted(sub, fr)
		if e.inst != nil {
			e.inst.frame(nf, rec, f) // incremental.go: call context of keys
		}
		if lhs != nil {
			nf.retType = in.Lhs.Type()
		}
		for j, p := range f.Params {
			o := nf.vars[p.Name]
			for k, v := range args[j] {
				if int64(k) >= o.ncells {
					break
				}
				v = e.convertCell(v, o.cellType(int64(k)))
				rec.assigned = append(rec.assigned, assignRec{obj: o, off: int64(k), cond: cs[i], v: v})
				if o.shared {
					if o.init == nil {
						o.init = make([]val, o.ncells)
						for q := range o.init {
							o.init[q] = e.zeroVal(o.cellType(int64(q)))
						}
					}
					o.init[k] = v
				} else {
					sub.mem[cellKey{o.id, int64(k)}] = v
				}
			}
		}
		if f.Atomic {
			sub.depth++
		} else {
			e.endInstr(sub)
		}
		out, _ := e.execFunc(sub, nf, fc.exits)
		if out == nil {
			continue
		}
		if f.Atomic {
			out.depth--
			if out.depth == 0 {
				e.endBlock(out)
			}
		}
		out.loops = callerLoops
		outs = append(outs, out)
	}
	if len(fs) > 1 || len(outs) != 1 {
		r := e.merge(outs, in.Pos)
		if r != nil {
			r.loops = callerLoops
		}
		return r
	}
	return outs[0]
}

func (e *enc) spawnStep(st *state, in *program.Instr, rec *stepRec, c *ectx) {
	th := c.th
	n := e.siteCnt[in.Label]
	atBound := e.b.Threads > 0 && n >= e.b.Threads || len(e.threads) >= e.b.MaxThreadsOrDefault()
	// beyond the bounds, a spawn past a thread bound or in an iteration
	// past a loop's bound leaves its thread dormant rather than cut the
	// path: the bugs before the thread's start are found
	dormant := inGranted(st, c.fr) || atBound && e.b.DeepenFrom > 0
	var blk *block
	if !dormant || !e.onlyMainSpawns() {
		// a dormant spawn's clock orders it against other threads' spawns
		// (threadIDs); with main the only spawner none is needed
		blk = e.ensureBlock(st, th, in)
	}
	g := st.g
	fs, cs := e.calleeCands(c, in.Func, g)
	var arg []val
	if len(in.Args) > 0 {
		arg = e.loadCells(c, in.Args[0], g)
	}
	var lhs *val
	if in.Lhs != nil {
		a := e.addr(st, c, in.Lhs, g)
		lhs = &a
	}
	if dormant {
		e.dormantSpawn(st, in, rec, c, lhs)
		return
	}
	if atBound {
		// thread bound: cut this path here; the cap of the model (not a
		// bound the user gave) is stated by a Safe answer
		if !(e.b.Threads > 0 && n >= e.b.Threads) {
			e.capCut = true
		}
		e.cut(st, st.g, rec, "", "")
		st.g = tFalse
		rec.g = tFalse
		e.addStep(rec, st)
		e.endInstr(st)
		return
	}
	e.siteCnt[in.Label] = n + 1
	var tid *term
	for i, f := range fs {
		child := &thread{idx: len(e.threads), fn: f, spawn: blk, spawnG: e.name(and(g, cs[i])), spawnAt: g, parent: th, site: in.Label}
		child.tid = e.fresh("tid", 32)
		if len(f.Params) > 0 && arg != nil {
			child.arg = e.convertCell(arg[0], f.Params[0].Type)
		} else if len(f.Params) > 0 {
			child.arg = e.zeroVal(f.Params[0].Type)
		}
		e.threads = append(e.threads, child)
		e.queue = append(e.queue, child)
		rec.child = child
		if e.inst != nil {
			e.inst.thread(child, rec) // incremental.go: thread part of keys
		}
		if len(fs) > 1 {
			e.unsupported(in.Pos, "spawn through a function pointer with several targets")
		}
		if tid == nil {
			tid = child.tid
		} else {
			tid = ite(cs[i], child.tid, tid)
		}
	}
	e.spawns = append(e.spawns, rec)
	if lhs != nil && tid != nil {
		e.store(c, *lhs, in.Lhs.Type(), val{t: resize(tid, in.Lhs.Type().Bits(), false)}, g)
	}
	e.addStep(rec, st)
	e.endInstr(st)
}

// dormantSpawn is a spawn beyond the bounds in an iteration granted past
// its loop's bound (grant) or past a thread bound: the thread is created
// (it gets its id, stored where the program stores it) but never runs in
// this encoding, as a scheduler may leave it: every run of the encoding is
// still a run of the program (a join of it blocks), and the bugs before
// its first step are found. The encoding then does not cover every run
// (coversAll).
func (e *enc) dormantSpawn(st *state, in *program.Instr, rec *stepRec, c *ectx, lhs *val) {
	rec.dormant = e.fresh("tid", 32)
	e.dormant++
	e.spawns = append(e.spawns, rec)
	if lhs != nil {
		e.store(c, *lhs, in.Lhs.Type(), val{t: resize(rec.dormant, in.Lhs.Type().Bits(), false)}, st.g)
	}
	e.addStep(rec, st)
	e.endInstr(st)
}

// onlyMainSpawns reports whether main is the only thread that creates
// threads: every Spawn is in main, which no call or spawn enters again.
func (e *enc) onlyMainSpawns() bool {
	if e.mainSpawner == 0 {
		e.mainSpawner = 1
		for _, f := range e.p.Funcs {
			for _, in := range f.Body {
				ref, _ := in.Func.(*program.FuncRef)
				if in.Op == program.OpSpawn && (f.Name != "main" || ref == nil || ref.Name == "main") ||
					in.Op == program.OpCall && (ref == nil || ref.Name == "main") {
					e.mainSpawner = 2
				}
			}
		}
	}
	return e.mainSpawner == 1
}

// freeStep frees the heap block p points to (nothing for NULL): its
// liveness cell becomes 0. As in the interpreter, freeing anything but the
// start of a live heap block is an execution error (bad).
func (e *enc) freeStep(c *ectx, p val, g *term) {
	if p.obj == nil {
		e.badIf(c, and(g, nonzero(p.t)), "free of an integer address")
		return
	}
	valid := []*term{and(eq(p.obj, bvc(objW, 0)), eq(p.t, bvc(e.offW, 0)))}
	n := len(c.rec.assigned)
	for _, o := range e.targets(p) {
		if !o.heap {
			continue
		}
		oc := eq(p.obj, bvc(objW, uint64(o.id)))
		if isFalse(oc) {
			continue
		}
		e.badIf(c, and(g, oc, not(eq(p.t, bvc(e.offW, 0)))), "free of a pointer into the middle of a heap block")
		at := e.name(and(oc, eq(p.t, bvc(e.offW, 0))))
		if isFalse(at) {
			continue
		}
		valid = append(valid, at)
		ga := e.name(and(g, at))
		e.checkLive(c, o, ga, "double free")
		e.writeCell(c.st, c.th, c.in, o, liveOff, at, val{t: bvc(1, 0)}, ga, c.rec)
	}
	c.rec.assigned = c.rec.assigned[:n] // the run has no location for liveness
	e.badIf(c, and(g, not(or(valid...))), "free of a pointer that is not a heap block")
}

// allocStep executes an Alloc or a Realloc: a fresh heap block whose cells
// are drawn (the run's nondet values, one per modelled cell, as the
// interpreter draws them); a Realloc's block then takes the first
// min(old, new) elements' cells of the block its old pointer points to,
// which it frees (freeStep's checks: the start of a live heap block).
func (e *enc) allocStep(st *state, in *program.Instr, rec *stepRec, c *ectx) {
	g := st.g
	lt := in.Lhs.Type()
	if lt.Kind != program.Pointer || lt.Elem == nil {
		e.unsupported(in.Pos, "%s into a non-pointer", in.Op)
	}
	ec := lt.Elem.Cells()
	if ec == 0 {
		e.unsupported(in.Pos, "%s of %s", in.Op, lt.Elem)
	}
	nv := e.eval(c, in.Rhs, g)
	if nv.obj != nil {
		e.unsupported(in.Pos, "alloc count is a pointer")
	}
	var old val
	if in.Op == program.OpRealloc {
		old = e.eval(c, in.Args[0], g)
	}
	ct := in.Rhs.Type()
	cnt := resize(nv.t, 64, ct.Kind == program.Int && ct.Signed)
	var n int64
	var count *term
	if cnt.c {
		n = int64(cnt.v)
		if n < 0 || n*ec > maxCells {
			e.unsupported(in.Pos, "allocation of %d elements", n)
		}
	} else {
		// A block of symbolic size: its first n elements are modelled (the
		// accesses to other valid cells are handled by cands), the count
		// of its valid cells is countOf(o). Counts whose cells would not
		// have non-negative offsets are not modelled.
		n = e.heapCap(ec)
		lim := (uint64(1) << (e.offW - 1)) / uint64(ec)
		e.badIf(c, and(g, cmp("bvugt", cnt, bvc(64, lim))), fmt.Sprintf("allocation of more than %d elements", lim))
		count = e.name(bin("bvmul", resize(cnt, e.offW, false), bvc(e.offW, uint64(ec))))
	}
	rec.ndOps = len(rec.nondet)
	o := e.newObject("heap", program.ArrayOf(lt.Elem, n), true)
	o.heap = true
	o.exposed = true
	if count != nil {
		o.symCount = true
		e.assert(eq(e.countOf(o), count))
		e.symAllocs = append(e.symAllocs, o)
	}
	o.alloc = rec
	o.thread = c.th
	o.init = make([]val, o.ncells)
	for k := int64(0); k < o.ncells; k++ {
		t := o.cellType(k)
		nd := e.freshVal("n", t)
		o.init[k] = nd
		rec.nondet = append(rec.nondet, ndVal{v: nd, t: t})
	}
	if in.Op == program.OpRealloc {
		// the front end lowers realloc(NULL, n) to an Alloc; a Realloc
		// of a null pointer is an error, as in the interpreter
		null := not(nonzero(old.t))
		if old.obj != nil {
			null = and(eq(old.obj, bvc(objW, 0)), null)
		}
		e.badIf(c, and(g, null), "realloc of a null pointer")
		e.reallocCopy(c, o, old, g)
		e.freeStep(c, old, g)
	}
	for k := int64(0); k < o.ncells; k++ {
		rec.assigned = append(rec.assigned, assignRec{obj: o, off: k, cond: tTrue, v: o.init[k]})
	}
	rec.heap = o
	p := val{obj: bvc(objW, uint64(o.id)), t: bvc(e.offW, 0), pts: []int{o.id}}
	e.store(c, e.addr(st, c, in.Lhs, g), lt, p, g)
}

// reallocCopy gives the new block o of a Realloc the values of the cells
// of the old block p points to, for the cells below both blocks' counts.
// A block of another element type, and a cell of the old block beyond the
// modelled ones of a block of symbolic size, are not modelled (bad); an
// old pointer that is not the start of a heap block is freeStep's error.
func (e *enc) reallocCopy(c *ectx, o *object, p val, g *term) {
	if p.obj == nil {
		return
	}
	for _, ob := range e.targets(p) {
		if !ob.heap || ob == o {
			continue
		}
		oc := e.name(and(eq(p.obj, bvc(objW, uint64(ob.id))), eq(p.t, bvc(e.offW, 0))))
		if isFalse(oc) {
			continue
		}
		if !program.Identical(ob.typ.Elem, o.typ.Elem) {
			e.badIf(c, and(g, oc), fmt.Sprintf("not modelled: realloc of a block of %s into elements of %s", ob.typ.Elem, o.typ.Elem))
			continue
		}
		for k := int64(0); k < o.ncells; k++ {
			if k >= ob.ncells {
				if ob.symCount {
					e.badIf(c, and(g, oc, e.counted(o, k), e.counted(ob, k)),
						fmt.Sprintf("not modelled: realloc copying beyond the first %d cells of a heap block of symbolic size", ob.ncells))
				}
				break
			}
			cond := and(and(oc, e.counted(o, k)), e.counted(ob, k))
			if isFalse(cond) {
				continue
			}
			v := e.readCell(c.st, c.th, c.in, ob, k)
			o.init[k] = e.nameVal(iteVal(e.name(cond), v, o.init[k]))
		}
	}
}

package observer

import (
	"fmt"
	"sort"

	"cegpv.dev/cegpv/program"
)

// Controller modes, the values of the per-function mode table.
const (
	modeWait  = 0 // wait for the deviating step, then resume at the thread's label
	modeEnded = 1 // the thread has ended at the node: end at once
	modeDev   = 2 // the thread takes the deviating step
	modeCall  = 3 // the thread is inside a call made here: make it again, resuming the callee
)

// row is what one thread's controller restores: a row of its function's
// tables.
type row struct {
	mode int
	pc   int   // where the activation stands (modeWait: where to resume; modeCall: after the call)
	next int64 // modeCall: the callee's row
	sp   *spec // modeDev
	vals map[string][]tok
	key  string
}

// fnInfo collects the rows and specs of a function with a controller.
type fnInfo struct {
	f      *program.Func // in A
	callee bool          // resumed through a row parameter (an activation above a thread's start function)
	ret    *program.Ref  // local holding a deviating return value
	closed bool          // a deviating call passes row -1: close the deviation's section
	rows   []*row        // rows[0] is unused (0 = fresh thread)
	byKey  map[string]int
	specs  []*spec
	spec   map[string]*spec
}

func (fi *fnInfo) addRow(r *row) int {
	if i, ok := fi.byKey[r.key]; ok {
		return i
	}
	fi.rows = append(fi.rows, r)
	fi.byKey[r.key] = len(fi.rows) - 1
	return len(fi.rows) - 1
}

// pcsOf returns the distinct resume points of the rows in the given mode,
// in increasing order.
func (fi *fnInfo) pcsOf(mode int) []int {
	var pcs []int
	seen := map[int]bool{}
	for _, r := range fi.rows[1:] {
		if r.mode == mode && !seen[r.pc] {
			seen[r.pc] = true
			pcs = append(pcs, r.pc)
		}
	}
	sort.Ints(pcs)
	return pcs
}

func (fi *fnInfo) addSpec(sp *spec) *spec {
	if s, ok := fi.spec[sp.key]; ok {
		return s
	}
	sp.id = len(fi.specs) + 1
	fi.specs = append(fi.specs, sp)
	fi.spec[sp.key] = sp
	return sp
}

// emitter appends instructions to one function of A'.
type emitter struct {
	b    *builder
	f    *program.Func // in A'
	base string
	next int // the suffix of base to try first (program.FreshFrom)
	body []*program.Instr
}

func (e *emitter) newInstr(in *program.Instr) *program.Instr {
	var i int
	in.Label, i = program.FreshFrom(e.base, e.b.used, e.next)
	e.next = i + 1
	if in.Pos == (program.Pos{}) {
		in.Pos = e.f.Pos
	}
	e.b.m.added[in.Label] = true
	return in
}

func (e *emitter) add(in *program.Instr) *program.Instr {
	if in.Label == "" {
		e.newInstr(in)
	}
	e.body = append(e.body, in)
	return in
}

// target returns a Skip to be placed later with place, as a jump target.
func (e *emitter) target(msg string) *program.Instr {
	return e.newInstr(&program.Instr{Op: program.OpSkip, Msg: msg})
}

func (e *emitter) place(in *program.Instr) { e.body = append(e.body, in) }

func (e *emitter) jump(to program.Label) {
	e.add(&program.Instr{Op: program.OpGoto, Targets: []program.Label{to}})
}

func (e *emitter) jumpIf(c program.Expr, to program.Label) {
	if b, ok := c.(*program.Binary); ok && (b.Op == program.Eq || b.Op == program.Ne) {
		x, okx := b.X.(*program.Const)
		y, oky := b.Y.(*program.Const)
		if okx && oky {
			// a table with one value: decided here
			if (x.V == y.V) == (b.Op == program.Eq) {
				e.jump(to)
			}
			return
		}
	}
	e.add(&program.Instr{Op: program.OpGoto, Rhs: c, Targets: []program.Label{to}})
}

func (e *emitter) assume(c program.Expr, msg string) {
	e.add(&program.Instr{Op: program.OpAssume, Rhs: c, Msg: msg})
}

// cut blocks the thread for good: assume(0), followed by an exit so that
// no path of the control flow graph falls through into the next block
// (backends that track atomic sections along paths see it end here).
func (e *emitter) cut(msg string) {
	e.assume(program.False, msg)
	e.add(&program.Instr{Op: program.OpExit, Msg: "cegpv: unreachable"})
}

func (e *emitter) assign(lhs, rhs program.Expr, msg string) {
	e.add(&program.Instr{Op: program.OpAssign, Lhs: lhs, Rhs: rhs, Msg: msg})
}

// dispatch jumps to targets[i] when sel == keys[i] (the last one
// unconditionally; nothing when there is none).
func (e *emitter) dispatch(sel program.Expr, keys []int64, targets []program.Label) {
	if len(targets) == 0 {
		e.cut("cegpv: no such row")
		return
	}
	for i := range targets[:len(targets)-1] {
		e.jumpIf(eq(sel, ci(keys[i])), targets[i])
	}
	e.jump(targets[len(targets)-1])
}

// emit builds A' and the Map.
func (b *builder) emit() error {
	b.ap = program.Clone(b.a)
	for _, g := range b.ap.Globals {
		b.taken[g.Name] = true
	}
	for _, f := range b.ap.Funcs {
		b.taken[f.Name] = true
		for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			b.taken[v.Name] = true
		}
		for _, in := range f.Body {
			b.used[in.Label] = true
		}
	}
	b.m = &Map{added: map[program.Label]bool{}, copyOf: map[program.Label]program.Label{},
		cont: map[program.Label]program.Label{}, first: map[program.Label]bool{},
		entry: map[program.Label]program.Label{}, tramp: map[program.Label]map[program.Label]program.Label{},
		rowWrites: map[string]bool{}}

	// the functions with a controller and the rows of every exit
	fns := map[string]*fnInfo{}
	var order []string
	info := func(name string, callee bool) (*fnInfo, error) {
		if fi, ok := fns[name]; ok {
			if fi.callee != callee {
				return nil, program.Errorf(program.Unsupported, "observer: %s is both a thread's start function and a called function at nodes of the tree", name)
			}
			return fi, nil
		}
		fi := &fnInfo{f: b.a.Func(name), callee: callee, rows: []*row{nil}, byKey: map[string]int{}, spec: map[string]*spec{}}
		if fi.f.Atomic && !callee {
			return nil, program.Errorf(program.Unsupported, "observer: a thread runs the atomic function %s", name)
		}
		if callee && (name == "main" || b.addrTaken(name)) {
			return nil, program.Errorf(program.Unsupported, "observer: %s is called at a node of the tree and is main or used as a function pointer (it cannot get the resume parameter)", name)
		}
		fns[name] = fi
		order = append(order, name)
		return fi, nil
	}
	if _, err := info("main", false); err != nil {
		return err
	}
	K := 1
	for _, x := range b.exits {
		if n := len(x.n.st.pc); n > K {
			K = n
		}
	}
	nthr := make([]int64, len(b.exits))
	rowOf := make([][]int64, K) // [thread][exit]
	fnOf := make([][]string, K)
	ended := make([][]int64, K)
	for k := range rowOf {
		rowOf[k] = make([]int64, len(b.exits))
		fnOf[k] = make([]string, len(b.exits))
		ended[k] = make([]int64, len(b.exits))
	}
	// vals returns the tokens of the parameters and locals of f in an
	// activation of thread k at depth d standing at pc (dead ones as 0)
	vals := func(f *program.Func, vars map[string][]program.Value, k, d, pc int, suspended bool) (map[string][]tok, error) {
		out := map[string][]tok{}
		for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			dead := pc >= 0 && !b.liveFrame(f.Name, pc, v.Name, suspended)
			var ts []tok
			for c, val := range vars[v.Name] {
				ct := v.Type.CellType(int64(c))
				if dead || ct.Kind == program.Cond {
					ts = append(ts, zeroTok(ct))
					continue
				}
				t, err := tokOf(val, ct, k, d)
				if err != nil {
					return nil, err
				}
				ts = append(ts, t)
			}
			out[v.Name] = ts
		}
		return out, nil
	}
	for xi, x := range b.exits {
		st := x.n.st
		nthr[xi] = int64(len(st.pc))
		for k := range st.pc {
			fnOf[k][xi] = st.fn[k]
			if st.pc[k] < 0 {
				if res := st.cfg.Threads[k].Result; (res.Bits != 0 || res.Obj != "") && joinsResults(b.a) {
					// an ended thread is restored by an exit without a
					// value: its result would be lost for the joins
					return program.Errorf(program.Unsupported, "observer: thread %d has ended with a result (%s) that a pthread_join may read; restoring it is not supported", k, res)
				}
				fi, err := info(st.fn[k], false)
				if err != nil {
					return err
				}
				r := &row{mode: modeEnded}
				if k == 0 && st.cfg.MainVars != nil {
					if r.vals, err = vals(fi.f, st.cfg.MainVars, 0, 0, -1, false); err != nil {
						return err
					}
				}
				r.key = rowKey(r, fi.f)
				rowOf[k][xi] = int64(fi.addRow(r))
				ended[k][xi] = 1
				continue
			}
			// the call stack, innermost first: each frame's row names the
			// row of the frame it calls
			fs := st.frames[k]
			var next int64
			for d := len(fs) - 1; d >= 0; d-- {
				fr := fs[d]
				fi, err := info(fr.fn, d > 0)
				if err != nil {
					return err
				}
				r := &row{pc: fr.pc}
				switch {
				case d < len(fs)-1:
					r.mode, r.next = modeCall, next
					if in := fi.f.Body[fr.pc-1]; in.Op != program.OpCall {
						return program.Errorf(program.Internal, "observer: frame %d of thread %d does not stand after a call", d, k)
					}
				case k == x.t:
					r.mode = modeDev
					r.sp = fi.addSpec(x.sp)
				default:
					r.mode = modeWait
					if a := st.cfg.Threads[k].Atomic; a != 0 {
						return program.Errorf(program.Internal, "observer: waiting thread %d is inside an atomic section", k)
					}
				}
				if r.vals, err = vals(fi.f, fr.vars, k, d, fr.pc, d < len(fs)-1); err != nil {
					return err
				}
				r.key = rowKey(r, fi.f)
				next = int64(fi.addRow(r))
			}
			rowOf[k][xi] = next
		}
	}
	for _, x := range b.exits {
		if name := x.sp.closeIn; name != "" {
			fi, err := info(name, true)
			if err != nil {
				return err
			}
			fi.closed = true
		}
	}
	b.fns = fns
	// the called functions get a row parameter, 0 at every call of A
	b.rowParam = map[string]*program.Ref{}
	for _, name := range order {
		if !fns[name].callee {
			continue
		}
		f := b.ap.Func(name)
		for _, g := range b.ap.Funcs {
			for _, in := range g.Body {
				if fr, ok := in.Func.(*program.FuncRef); ok && fr.Name == name && in.Op == program.OpSpawn {
					return program.Errorf(program.Unsupported, "observer: %s is called at a node of the tree and also started as a thread", name)
				}
			}
		}
		pname := b.freshName("__cegpv_row")
		f.Params = append(f.Params, &program.Var{Name: pname, Type: program.IntT, Pos: f.Pos})
		b.rowParam[name] = &program.Ref{Name: pname, Local: true, T: program.IntT}
		b.m.rowWrites[name+"::"+pname] = true
	}
	b.apInstr = map[program.Label]*program.Instr{}
	for _, g := range b.ap.Funcs {
		for _, in := range g.Body {
			b.apInstr[in.Label] = in
			fr, ok := in.Func.(*program.FuncRef)
			if ok && in.Op == program.OpCall && b.rowParam[fr.Name] != nil {
				in.Args = append(in.Args, ci(0))
				in.Func = &program.FuncRef{Name: fr.Name, T: b.ap.Func(fr.Name).Type()}
			}
		}
	}
	b.m.exits = make([]exitMap, len(b.exits))
	for xi, x := range b.exits {
		pre := append([]program.Step(nil), x.n.st.prefix...)
		for _, l := range x.pending {
			pre = append(pre, program.Step{Thread: x.t, Label: l})
		}
		b.m.exits[xi] = exitMap{node: x.n.id, thread: x.t, prefix: pre}
	}

	// the controller functions other than main first: they may need pool
	// globals, which main sets
	sort.Strings(order[1:])
	for _, name := range order[1:] {
		if err := b.emitFunc(fns[name], nil); err != nil {
			return err
		}
	}
	obs := &observerData{K: K, nthr: nthr, rowOf: rowOf, fnOf: fnOf, ended: ended}
	if err := b.emitFunc(fns["main"], obs); err != nil {
		return err
	}
	// Decl replacements in the functions without a controller are not
	// needed; their bodies are unchanged.
	return nil
}

// observerData are main's tables, by exit.
type observerData struct {
	K     int
	nthr  []int64
	rowOf [][]int64
	fnOf  [][]string
	ended [][]int64
}

func rowKey(r *row, f *program.Func) string {
	s := fmt.Sprintf("m%d|pc%d|n%d|", r.mode, r.pc, r.next)
	if r.sp != nil {
		s += fmt.Sprintf("sp%d|", r.sp.id)
	}
	if r.vals != nil {
		for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			s += v.Name + "="
			for _, t := range r.vals[v.Name] {
				s += t.String() + ","
			}
			s += ";"
		}
	}
	return s
}

// emitFunc rewrites one function with a controller: hoisted declarations,
// (main: the observer), the controller, the copies of deviating steps, the
// calls that rebuild call stacks, the original body with its declarations
// turned into nondeterministic assignments.
func (b *builder) emitFunc(fi *fnInfo, obs *observerData) error {
	f := b.ap.Func(fi.f.Name)
	orig := f.Body
	e := &emitter{b: b, f: f, base: f.Name + ".ctl"}
	isMain := obs != nil
	cx := ctx{b: b, fn: fi.f}

	// 1. declarations of every local, hoisted, and the controller's own
	var rid *program.Ref
	if fi.callee {
		rid = b.rowParam[fi.f.Name]
	} else {
		rid = b.local(f, "__cegpv_rid", program.IntT)
	}
	var choice *program.Ref
	if isMain {
		choice = b.local(f, "__cegpv_exit", program.IntT)
	}
	for _, sp := range fi.specs {
		if sp.ret && fi.ret == nil {
			fi.ret = b.local(f, "__cegpv_ret", f.Result)
		}
	}
	for _, v := range f.Locals {
		e.add(&program.Instr{Op: program.OpDecl, Var: v.Name, Msg: "cegpv: hoisted declaration"})
	}
	// the original body with declarations replaced, computed first: the
	// controller jumps into it
	entry := map[program.Label]program.Label{}
	var rest []*program.Instr
	for _, in := range orig {
		if in.Op != program.OpDecl {
			rest = append(rest, in)
			continue
		}
		seq, err := b.declSeq(f, in, in.Label, false)
		if err != nil {
			return err
		}
		if seq[0].Label != in.Label {
			entry[in.Label] = seq[0].Label
			b.m.entry[in.Label] = seq[0].Label
		}
		rest = append(rest, seq...)
	}
	for _, in := range rest {
		if in.Op == program.OpGoto && !b.m.added[in.Label] {
			for i, t := range in.Targets {
				if n, ok := entry[t]; ok {
					in.Targets[i] = n
				}
			}
		}
	}
	var endSkip *program.Instr // after the body: falling off its end returns
	end := func() program.Label {
		if endSkip == nil {
			endSkip = e.newInstr(&program.Instr{Op: program.OpSkip, Msg: "cegpv: end of the body"})
		}
		return endSkip.Label
	}
	// at returns where to jump to continue at position p of the body
	at := func(p int) program.Label {
		if p >= len(fi.f.Body) {
			return end()
		}
		l := fi.f.Body[p].Label
		if n, ok := entry[l]; ok {
			return n
		}
		return l
	}
	fresh := at(0)

	exitL := e.target("cegpv: the thread has ended at the node")
	devL := e.target("cegpv: deviating thread")
	callL := e.target("cegpv: the thread is inside a call made here")
	nr := len(fi.rows)
	column := func(name string, get func(r *row) int64) program.Expr {
		vs := make([]int64, nr)
		for i, r := range fi.rows[1:] {
			vs[i+1] = get(r)
		}
		return b.intTable(fmt.Sprintf("__cegpv_%s_%s", f.Name, name), vs, rid)
	}
	mode := column("mode", func(r *row) int64 { return int64(r.mode) })

	switch {
	case isMain:
		// 2. the observer
		ne := int64(len(b.exits))
		ch := e.add(&program.Instr{Op: program.OpAssign, Lhs: choice, Rhs: &program.Nondet{T: program.IntT}, Msg: "cegpv observer: choose an exit of the tree"})
		b.m.choice = ch.Label
		b.m.choiceLoc = "main::" + choice.Name
		e.assume(and(&program.Binary{Op: program.Ge, X: choice, Y: ci(0), T: program.IntT},
			&program.Binary{Op: program.Lt, X: choice, Y: ci(ne), T: program.IntT}), "cegpv observer: one of the exits")
		e.assign(rid, b.intTable("__cegpv_row_0", obs.rowOf[0], choice), "cegpv observer: main's row")
	case fi.callee:
		e.jumpIf(eq(rid, ci(0)), fresh)
		if fi.closed {
			closeL := e.target("")
			e.jumpIf(ne(rid, ci(-1)), closeL.Label)
			e.add(&program.Instr{Op: program.OpAtomicEnd, Msg: "cegpv: the call is the deviating step; the others may run now"})
			e.jump(fresh)
			e.place(closeL)
		}
	default:
		e.assign(rid, b.label(), "cegpv controller: the row the observer hands over (0: a fresh thread or call)")
		e.jumpIf(eq(rid, ci(0)), fresh)
		e.assign(b.label(), ci(0), "cegpv controller: acknowledge")
		e.jumpIf(eq(mode, ci(modeEnded)), exitL.Label)
	}
	// 3. restore the locals
	if err := b.restoreLocals(e, cx, fi, rid); err != nil {
		return err
	}
	switch {
	case isMain:
		if err := b.observer(e, obs, choice); err != nil {
			return err
		}
		e.jumpIf(eq(mode, ci(modeEnded)), exitL.Label)
	case !fi.callee:
		e.assume(ne(b.flag(), ci(0)), "cegpv controller: wait for the observer")
	}
	// 4. waiting threads resume once the deviating step is done
	callPCs := fi.pcsOf(modeCall)
	if len(callPCs) > 0 {
		e.jumpIf(eq(mode, ci(modeCall)), callL.Label)
	}
	e.jumpIf(eq(mode, ci(modeDev)), devL.Label)
	e.assume(ne(b.goVar(), ci(0)), "cegpv controller: wait for the deviating step")
	pcs := fi.pcsOf(modeWait)
	var keys []int64
	var targets []program.Label
	for _, p := range pcs {
		keys = append(keys, int64(p))
		targets = append(targets, at(p))
	}
	e.dispatch(column("pc", func(r *row) int64 {
		if r.mode == modeWait {
			return int64(r.pc)
		}
		return 0
	}), keys, targets)
	// 5. the deviating thread
	e.place(devL)
	var blocks []*program.Instr
	keys, targets = nil, nil
	for _, sp := range fi.specs {
		t := e.target(fmt.Sprintf("cegpv: deviation %d at %s", sp.id, sp.e.Label))
		blocks = append(blocks, t)
		keys = append(keys, int64(sp.id))
		targets = append(targets, t.Label)
	}
	e.dispatch(column("dev", func(r *row) int64 {
		if r.mode == modeDev {
			return int64(r.sp.id)
		}
		return 0
	}), keys, targets)
	if !fi.callee {
		e.place(exitL)
		e.add(&program.Instr{Op: program.OpExit})
	}
	for i, sp := range fi.specs {
		e.place(blocks[i])
		if err := b.deviation(e, cx, sp, at); err != nil {
			return err
		}
	}
	// 6. the calls that rebuild the call stack: the call made at position
	// c-1 again, with the callee's row
	if len(callPCs) > 0 {
		e.place(callL)
		var cblocks []*program.Instr
		keys, targets = nil, nil
		for _, c := range callPCs {
			t := e.target(fmt.Sprintf("cegpv: resume the call at %s", fi.f.Body[c-1].Label))
			cblocks = append(cblocks, t)
			keys = append(keys, int64(c))
			targets = append(targets, t.Label)
		}
		e.dispatch(column("call", func(r *row) int64 {
			if r.mode == modeCall {
				return int64(r.pc)
			}
			return 0
		}), keys, targets)
		next := column("next", func(r *row) int64 { return r.next })
		for i, c := range callPCs {
			e.place(cblocks[i])
			if err := b.resumeCall(e, b.apInstr[fi.f.Body[c-1].Label], next); err != nil {
				return err
			}
			post := e.target("")
			e.jumpIf(eq(b.openVar(), ci(0)), post.Label)
			e.assign(b.openVar(), ci(0), "cegpv: the callee returned as the deviating step")
			e.add(&program.Instr{Op: program.OpAtomicEnd})
			e.place(post)
			e.jump(at(c))
		}
	}
	// 7. the original body
	f.Body = append(e.body, rest...)
	if endSkip != nil {
		f.Body = append(f.Body, endSkip)
	}
	return nil
}

// resumeCall emits the call `in` (a call of A' at the position a frame of
// the node stands after) again, to rebuild the callee's activation: the
// arguments are zeros (the callee restores its parameters) and the row
// parameter is next.
func (b *builder) resumeCall(e *emitter, in *program.Instr, next program.Expr) error {
	fr, ok := in.Func.(*program.FuncRef)
	if !ok || b.rowParam[fr.Name] == nil {
		return program.Errorf(program.Internal, "observer: the call at %s is not of a resumable function", in.Label)
	}
	if in.Lhs != nil && program.HasNondet(in.Lhs) {
		return &program.Error{Kind: program.Unsupported, Pos: in.Pos, Err: fmt.Errorf("observer: the call at %s stores its result through a nondeterministic location", in.Label)}
	}
	callee := b.ap.Func(fr.Name)
	c := &program.Instr{Op: program.OpCall, Lhs: in.Lhs, Func: in.Func, Pos: in.Pos, Msg: "cegpv: resume the call " + string(in.Label)}
	for i, p := range callee.Params {
		if i == len(callee.Params)-1 {
			c.Args = append(c.Args, next)
			break
		}
		if !p.Type.IsScalar() {
			return &program.Error{Kind: program.Unsupported, Pos: in.Pos, Err: fmt.Errorf("observer: resuming the call at %s, whose parameter %s is a %s", in.Label, p.Name, p.Type)}
		}
		c.Args = append(c.Args, &program.Const{T: p.Type, V: 0})
	}
	e.add(c)
	return nil
}

// local adds a local of f with a fresh name.
func (b *builder) local(f *program.Func, base string, t *program.Type) *program.Ref {
	name := b.freshName(base)
	f.Locals = append(f.Locals, &program.Var{Name: name, Type: t, Pos: f.Pos})
	return &program.Ref{Name: name, Local: true, T: t}
}

func (b *builder) sharedVar(key, base string) *program.Ref {
	if b.vars == nil {
		b.vars = map[string]*program.Ref{}
	}
	if r, ok := b.vars[key]; ok {
		return r
	}
	r := b.global(base, program.IntT, ci(0))
	b.vars[key] = r
	return r
}

// label is the shared variable through which the observer hands each
// thread it creates its row; flag is set when the observer is done; go
// when the deviating step is done.
func (b *builder) label() *program.Ref   { return b.sharedVar("label", "__cegpv_label") }
func (b *builder) openVar() *program.Ref { return b.sharedVar("open", "__cegpv_open") }
func (b *builder) flag() *program.Ref    { return b.sharedVar("flag", "__cegpv_flag") }
func (b *builder) goVar() *program.Ref   { return b.sharedVar("go", "__cegpv_go") }

// restoreLocals assigns every parameter and local of fi.f its value in the
// row rid; mutexes are initialised and locked when held.
func (b *builder) restoreLocals(e *emitter, cx ctx, fi *fnInfo, rid program.Expr) error {
	f := fi.f
	for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
		ref := &program.Ref{Name: v.Name, Local: true, T: v.Type}
		for c := int64(0); c < v.Type.Cells(); c++ {
			ct := v.Type.CellType(c)
			lv := cellLvalue(ref, v.Type, c)
			vals := make([]tok, len(fi.rows))
			for i, r := range fi.rows[1:] {
				if r.vals != nil {
					vals[i+1] = r.vals[v.Name][c]
				}
			}
			// rows without values (ended threads) and row 0 take the
			// first value: they never use it
			var first *tok
			for i := range vals {
				if vals[i].kind != 0 {
					first = &vals[i]
					break
				}
			}
			if first == nil {
				continue
			}
			for i := range vals {
				if vals[i].kind == 0 {
					vals[i] = *first
				}
			}
			switch ct.Kind {
			case program.Cond:
				continue
			case program.Mutex:
				e.assign(lv, &program.Const{T: ct, V: 0}, "cegpv controller: restore "+v.Name)
				held := make([]int64, len(vals))
				for i, t := range vals {
					held[i] = t.bits
				}
				if err := b.lockIf(e, lv, b.intTable(fmt.Sprintf("__cegpv_%s_%s_held", f.Name, v.Name), held, rid)); err != nil {
					return err
				}
				continue
			}
			x, err := cx.selectExpr(fmt.Sprintf("__cegpv_%s_%s_%d", f.Name, v.Name, c), vals, ct, rid)
			if err != nil {
				return err
			}
			e.assign(lv, x, "cegpv controller: restore "+v.Name)
		}
	}
	return nil
}

// lockIf locks the mutex lv when held != 0.
func (b *builder) lockIf(e *emitter, lv program.Expr, held program.Expr) error {
	if c, ok := held.(*program.Const); ok && c.V == 0 {
		return nil
	}
	skip := e.target("cegpv: mutex not held")
	if _, ok := held.(*program.Const); !ok {
		e.jumpIf(eq(held, ci(0)), skip.Label)
	}
	e.add(&program.Instr{Op: program.OpLock, Rhs: &program.AddrOf{X: lv, T: b.ptr(lv.Type())}, Msg: "cegpv: the mutex is held at the node"})
	e.place(skip)
	return nil
}

// observer emits main's observer: globals, held mutexes, the threads.
func (b *builder) observer(e *emitter, obs *observerData, choice program.Expr) error {
	cx := ctx{b: b, fn: b.a.Func("main")}
	ne := len(b.exits)
	init := b.initial()
	for _, g := range b.a.Globals {
		ref := &program.Ref{Name: g.Name, T: g.Type}
		for c := int64(0); c < g.Type.Cells(); c++ {
			ct := g.Type.CellType(c)
			if ct.Kind == program.Cond {
				continue
			}
			lv := cellLvalue(ref, g.Type, c)
			vals := make([]tok, ne)
			changed := false
			for xi, x := range b.exits {
				t, err := tokOf(x.n.st.cfg.Globals[g.Name][c], ct, 0, 0)
				if err != nil {
					return err
				}
				vals[xi] = t
				if t != init[g.Name][c] {
					changed = true
				}
			}
			if !changed {
				continue
			}
			if ct.Kind == program.Mutex {
				if init[g.Name][c].bits != 0 {
					return program.Errorf(program.Unsupported, "observer: mutex %s is held initially", g.Name)
				}
				held := make([]int64, ne)
				for i, t := range vals {
					held[i] = t.bits
				}
				if err := b.lockIf(e, lv, b.intTable(fmt.Sprintf("__cegpv_held_%s_%d", g.Name, c), held, choice)); err != nil {
					return err
				}
				continue
			}
			x, err := cx.selectExpr(fmt.Sprintf("__cegpv_val_%s_%d", g.Name, c), vals, ct, choice)
			if err != nil {
				return err
			}
			e.assign(lv, x, "cegpv observer: restore "+g.Name)
		}
	}
	// the threads, in the order of their ids
	done := e.target("cegpv observer: all threads created")
	lab := b.label()
	nthr := b.intTable("__cegpv_nthreads", obs.nthr, choice)
	for k := 1; k < obs.K; k++ {
		if c, ok := nthr.(*program.Const); ok {
			if c.V <= int64(k) {
				break // every node has fewer threads
			}
		} else {
			e.jumpIf(&program.Binary{Op: program.Le, X: nthr, Y: ci(int64(k)), T: program.IntT}, done.Label)
		}
		e.assign(lab, b.intTable(fmt.Sprintf("__cegpv_row_%d", k), obs.rowOf[k], choice), fmt.Sprintf("cegpv observer: the row of thread %d", k))
		var cands []string
		seen := map[string]bool{}
		for _, n := range obs.fnOf[k] {
			if n != "" && !seen[n] {
				seen[n] = true
				cands = append(cands, n)
			}
		}
		sort.Strings(cands)
		sel := make([]int64, ne)
		for xi, n := range obs.fnOf[k] {
			for j, c := range cands {
				if c == n {
					sel[xi] = int64(j)
				}
			}
		}
		selE := b.intTable(fmt.Sprintf("__cegpv_fn_%d", k), sel, choice)
		spawned := e.target(fmt.Sprintf("cegpv observer: thread %d created", k))
		for j, name := range cands {
			var next *program.Instr
			if j < len(cands)-1 {
				next = e.target("")
				e.jumpIf(ne2(selE, ci(int64(j))), next.Label)
			}
			f := b.a.Func(name)
			var argT *program.Type = b.ptr(program.VoidType)
			if len(f.Params) > 0 {
				argT = f.Params[0].Type
			}
			e.add(&program.Instr{Op: program.OpSpawn, Func: &program.FuncRef{Name: name, T: f.Type()}, Args: []program.Expr{&program.Const{T: argT, V: 0}},
				Msg: fmt.Sprintf("cegpv observer: create thread %d", k)})
			if next != nil {
				e.jump(spawned.Label)
				e.place(next)
			}
		}
		e.place(spawned)
		e.assume(eq(lab, ci(0)), fmt.Sprintf("cegpv observer: thread %d has its row", k))
		endedE := b.intTable(fmt.Sprintf("__cegpv_ended_%d", k), obs.ended[k], choice)
		if c, ok := endedE.(*program.Const); !ok || c.V != 0 {
			skip := e.target("")
			if !ok {
				e.jumpIf(eq(endedE, ci(0)), skip.Label)
			}
			e.add(&program.Instr{Op: program.OpJoin, Rhs: ci(int64(k)), Msg: fmt.Sprintf("cegpv observer: thread %d has ended at the node", k)})
			e.place(skip)
		}
	}
	e.place(done)
	// addresses of main's locals for the other threads
	for _, in := range b.poolSet {
		e.add(in)
	}
	e.assign(b.flag(), ci(1), "cegpv observer: done")
	return nil
}

// zeroTok is the value a controller gives a dead local's cell of type ct.
func zeroTok(ct *program.Type) tok {
	if ct.Kind == program.Pointer || ct.Kind == program.Function {
		return tok{kind: 'n'}
	}
	return tok{kind: 'i'}
}

func ne2(x, y program.Expr) program.Expr { return ne(x, y) }

// initial returns the initial value of every global cell.
func (b *builder) initial() map[string][]tok {
	out := map[string][]tok{}
	c := b.runs[0].cfg[0]
	for _, g := range b.a.Globals {
		var ts []tok
		for i, v := range c.Globals[g.Name] {
			t, err := tokOf(v, g.Type.CellType(int64(i)), 0, 0)
			if err != nil {
				t = tok{kind: 'x'}
			}
			ts = append(ts, t)
		}
		out[g.Name] = ts
	}
	return out
}

// declSeq returns the instructions that replace `decl x` in A' (x's
// declaration is hoisted): one assignment of a nondeterministic value per
// cell, the first labelled l, the others continuations of l's step (Map
// merges them); inside an atomic section when x's address is taken (unless
// inSection). copyOf selects the labels for a copy (all fresh, the first
// mapped to l).
func (b *builder) declSeq(f *program.Func, in *program.Instr, l program.Label, copy bool) ([]*program.Instr, error) {
	v := f.Var(in.Var)
	ref := &program.Ref{Name: v.Name, Local: true, T: v.Type}
	n := v.Type.Cells()
	fresh := func(x *program.Instr) *program.Instr {
		x.Label = program.Fresh(b.ap, string(in.Label), b.used)
		x.Pos = in.Pos
		b.m.added[x.Label] = true
		return x
	}
	var seq []*program.Instr
	if n == 0 {
		s := &program.Instr{Op: program.OpSkip, Label: l, Pos: in.Pos, Msg: "cegpv: decl " + v.Name}
		if copy {
			s.Label = ""
			fresh(s)
			delete(b.m.added, s.Label)
			b.m.copyOf[s.Label] = l
		}
		return []*program.Instr{s}, nil
	}
	wrap := v.AddrTaken && n > 1 && !copy
	if wrap {
		seq = append(seq, fresh(&program.Instr{Op: program.OpAtomicBegin, Msg: "cegpv: decl " + v.Name}))
	}
	for c := int64(0); c < n; c++ {
		ct := v.Type.CellType(c)
		switch ct.Kind {
		case program.Mutex, program.Cond, program.Void, program.Function:
			return nil, &program.Error{Kind: program.Unsupported, Pos: in.Pos, Err: fmt.Errorf("observer: hoisting the declaration of %s (a %s cell)", v.Name, ct)}
		}
		x := &program.Instr{Op: program.OpAssign, Lhs: cellLvalue(ref, v.Type, c), Rhs: &program.Nondet{T: ct}, Pos: in.Pos}
		if c == 0 {
			x.Msg = "cegpv: decl " + v.Name
		}
		switch {
		case c == 0 && !copy:
			x.Label = l
			b.m.first[l] = true
		case c == 0:
			fresh(x)
			delete(b.m.added, x.Label)
			b.m.copyOf[x.Label] = l
			b.m.first[x.Label] = true
		default:
			fresh(x)
			delete(b.m.added, x.Label)
			b.m.cont[x.Label] = l
		}
		seq = append(seq, x)
	}
	if wrap {
		seq = append(seq, fresh(&program.Instr{Op: program.OpAtomicEnd}))
	}
	return seq, nil
}

// deviation emits the block of spec sp: restore the thread's atomic
// sections, then in a section of its own set go and take a copy of the
// deviating step, cut the outcomes that are children of the node, and
// continue after the step.
func (b *builder) deviation(e *emitter, cx ctx, sp *spec, at func(int) program.Label) error {
	body := sp.fn.Body
	for i := 0; i < sp.depth; i++ {
		e.add(&program.Instr{Op: program.OpAtomicBegin, Msg: "cegpv: the thread is inside an atomic section at the node"})
	}
	// inside an atomic section no other thread can move before the
	// deviating step; elsewhere the step gets a section of its own
	own := sp.own
	if own {
		e.add(&program.Instr{Op: program.OpAtomicBegin, Msg: "cegpv: the deviating step runs first"})
	}
	e.assign(b.goVar(), ci(1), "cegpv: the other threads may resume after this step")
	copyOf := func(in *program.Instr) *program.Instr {
		c := *b.apInstr[in.Label]
		c.Args = append([]program.Expr(nil), c.Args...)
		c.Targets = nil
		c.Label = ""
		c.Msg = "cegpv: copy of " + string(in.Label)
		e.newInstr(&c)
		delete(b.m.added, c.Label)
		b.m.copyOf[c.Label] = in.Label
		return &c
	}
	// returning: the step returns from a called function; its own section
	// stays open until the return, and the call that rebuilt the frame
	// closes it (__cegpv_open)
	returning := func() {
		if own {
			e.assign(b.openVar(), ci(1), "cegpv: the section ends after the return")
		}
	}
	// leave continues at position p of the body (the end: the thread ends,
	// or the function returns)
	leave := func(p int) {
		if p >= len(body) && sp.frame == 0 {
			e.add(&program.Instr{Op: program.OpExit, Msg: "cegpv: end of the thread's body"})
			return
		}
		if p >= len(body) {
			returning()
			e.jump(at(p))
			return
		}
		if own {
			e.add(&program.Instr{Op: program.OpAtomicEnd})
		}
		e.jump(at(p))
	}
	in := sp.e
	if sp.ending {
		if sp.frame > 0 {
			returning()
		}
		e.add(copyOf(in))
		if sp.frame == 0 {
			e.add(&program.Instr{Op: program.OpExit, Msg: "cegpv: end of the thread's body"})
		} else {
			e.jump(at(len(body)))
		}
		return nil
	}
	switch in.Op {
	case program.OpGoto:
		var allowed []int
		for p := range sp.pcs {
			allowed = append(allowed, p)
		}
		sort.Ints(allowed)
		tramp := map[int]*program.Instr{}
		var targets []program.Label
		for _, t := range in.Targets {
			p := sp.fn.Index(t)
			if !sp.pcs[p] || tramp[p] != nil {
				continue
			}
			tramp[p] = e.target("cegpv: branch to " + string(t))
			targets = append(targets, tramp[p].Label)
		}
		var dead *program.Instr
		if len(targets) == 0 {
			dead = e.target("cegpv: this branch stays in the tree")
			targets = []program.Label{dead.Label}
		}
		c := copyOf(in)
		c.Targets = targets
		e.add(c)
		b.m.tramp[c.Label] = map[program.Label]program.Label{}
		for _, t := range in.Targets {
			if tr := tramp[sp.fn.Index(t)]; tr != nil {
				b.m.tramp[c.Label][t] = tr.Label
			}
		}
		if in.Rhs != nil {
			if sp.pcs[sp.idx+1] {
				leave(sp.idx + 1)
			} else {
				e.cut("cegpv: falling through stays in the tree")
			}
		}
		for _, t := range in.Targets {
			p := sp.fn.Index(t)
			if tr := tramp[p]; tr != nil && !e.placed(tr) {
				e.place(tr)
				leave(p)
			}
		}
		if dead != nil {
			e.place(dead)
			e.cut("cegpv: this branch stays in the tree")
		}
		return nil
	case program.OpAssert:
		c := copyOf(in)
		if !sp.fail {
			c.Op, c.Prop = program.OpAssume, ""
		}
		e.add(c)
		if !sp.pass {
			e.cut("cegpv: the assertion holds here in the tree")
			return nil
		}
		leave(sp.idx + 1)
		return nil
	case program.OpDecl:
		seq, err := b.declSeq(e.f, in, in.Label, true)
		if err != nil {
			return err
		}
		for _, x := range seq {
			e.add(x)
		}
	case program.OpExit:
		e.add(copyOf(in))
		return nil
	case program.OpCall:
		c := copyOf(in)
		e.add(c)
		if sp.closeIn != "" {
			// the callee closed the section: continue after the call
			c.Args[len(c.Args)-1] = ci(-1)
			e.jump(at(sp.idx + 1))
			return nil
		}
	case program.OpReturn:
		if sp.ret {
			// the value first, into a local (this step stands for the
			// return in Map), then the check, then the return itself
			returning()
			c := copyOf(in)
			c.Op, c.Lhs = program.OpAssign, b.fns[sp.fn.Name].ret
			e.add(c)
			var cut program.Expr
			for _, row := range sp.forbid {
				x, err := cx.expr(row[0], c.Lhs.Type())
				if err != nil {
					return err
				}
				cut = and(cut, ne(c.Lhs, x))
			}
			e.assume(cut, "cegpv: the value differs from every child of the node")
			e.add(&program.Instr{Op: program.OpReturn, Rhs: c.Lhs})
			return nil
		}
		c := copyOf(in)
		if sp.frame == 0 {
			// the thread ends (a return from its start function): as an
			// exit, which ends the thread's path without meeting its other
			// returns (backends that merge the returns of a function reject
			// paths in different atomic sections); the value is the
			// thread's result
			c.Op, c.Rhs = program.OpExit, threadResult(c.Rhs, b.ptr(program.VoidType))
		} else {
			returning()
		}
		e.add(c)
		return nil
	default:
		e.add(copyOf(in))
	}
	if len(sp.forbid) > 0 {
		var cut program.Expr
		for _, row := range sp.forbid {
			var differs program.Expr
			for i, w := range sp.watch {
				x, err := cx.expr(row[i], w.Type())
				if err != nil {
					return err
				}
				differs = or(differs, ne(w, x))
			}
			cut = and(cut, differs)
		}
		e.assume(cut, "cegpv: the value differs from every child of the node")
	}
	leave(sp.idx + 1)
	return nil
}

func (e *emitter) placed(in *program.Instr) bool {
	for _, x := range e.body {
		if x == in {
			return true
		}
	}
	return false
}

// joinsResults reports whether some Join of p stores a thread's result.
func joinsResults(p *program.Program) bool {
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpJoin && in.Lhs != nil {
				return true
			}
		}
	}
	return false
}

// threadResult converts a start function's returned value to the result
// an Exit carries (nil: none, a null pointer).
func threadResult(e program.Expr, voidPtr *program.Type) program.Expr {
	if e == nil {
		return nil
	}
	if c, ok := program.StripCasts(e).(*program.Const); ok && c.V == 0 {
		return nil // a null pointer, as an exit without a value
	}
	if e.Type().Kind == program.Pointer {
		return e
	}
	return &program.Cast{X: e, T: voidPtr}
}

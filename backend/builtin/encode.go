package builtin

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/analysis"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/internal/heap"
	"cegpv.dev/cegpv/program"
)

const (
	objW     = 16      // width of object ids in pointers
	maxCells = 1 << 16 // cells of one object
)

// enc is the symbolic execution of one program under bounds; it produces
// the SMT text of the partial-order encoding.
type enc struct {
	p *program.Program
	// sequential: the program creates no thread (no Spawn: the lazy
	// sequentialisation's output, an abstraction without threads), so
	// that no other thread can read or write a global or a heap block:
	// the globals are kept like unshared locals, by plain symbolic
	// execution (state.mem, their initial values in object.init), without
	// partial-order events
	sequential bool
	past       map[cellKey]val // sequential: values of unwritten cells past an object's init (unwritten)
	// stored: globals that are not constant because a store through a
	// pointer may reach them (from an earlier pass); constStored: the
	// constant globals a store of this pass reached
	stored      map[string]bool
	constStored []string
	// Points-to sets of the pointer cells of globals, refined across
	// passes (encodeOnce): readPts holds, per cell, the targets a read may
	// yield besides the initial value's (the previous pass's writes; a
	// nil entry: unknown), writtenPts what this pass wrote, usedPts what
	// this pass's reads assumed, checked against writtenPts after the
	// pass (ptsHold).
	readPts    map[cellKey]map[int]bool
	writtenPts map[cellKey]map[int]bool
	usedPts    map[cellKey]map[int]bool
	// anyGlobalPtrRead: a read of a global's pointer cell was unknown
	anyGlobalPtrRead bool
	b                backend.Bounds
	out              strings.Builder
	nsym             int
	objs             []*object
	funcObjs         map[string]*object
	globals          map[string]*object
	threads          []*thread
	queue            []*thread
	nblocks          int
	events           []*event
	cellEv           map[cellKey]*cellEvents
	asserts          []*stepRec
	cuts             []cutRec // paths cut at the unwinding, recursion and thread bounds
	capCut           bool     // a spawn was cut at Bounds.MaxThreads (not at Bounds.Threads)
	// beyond the bounds (Bounds.DeepenFrom > 0): iterations granted past
	// a loop's bound (gotoStep) and the dormant spawns made in them
	// (spawnStep); around: the loops around each instruction (loopsAround)
	granted, dormant int
	mainSpawner      int // onlyMainSpawns: 0 not known yet, 1 yes, 2 no
	around           map[*program.Func]map[int][]int
	bad              []badRec
	spawns           []*stepRec
	joins            []joinRec
	offW             int
	clockInt         bool
	siteCnt          map[program.Label]int
	prev             []*object // objects of the previous pass (pointer targets not yet created)
	anyDeref         bool
	nframes          int
	stepSeq          int
	nassert          int
	lockFn           map[string]lockFunc
	symGroups        int                            // groups of symmetric thread instances ordered (symmetry.go)
	spinOK           bool                           // execute busy waits once (spin.go)
	spin             map[*program.Func]map[int]bool // back edges of busy-wait loops (spin.go)
	spinUsed         bool                           // a busy wait was executed once
	lockSeen         map[cellKey]bool
	lockBad          map[cellKey]bool
	collapse         map[cellKey]bool // lock regions run as one block
	collapseRegs     map[int]bool     // region instances run as one block
	inSync           bool
	regions          []*region
	divs             map[string]*term // quotients by operands, for %
	counts           map[int]*term    // countOf: number of valid cells of heap blocks of symbolic size, by object id
	symAllocs        []*object        // heap blocks of symbolic size, in creation order
	frees            bool             // the program frees memory: heap blocks have a liveness cell (liveOff)
	inst             *instHooks       // instance keys and own blocks of an incremental instance (incremental.go); nil otherwise
	ctx              context.Context  // cancels a long encoding
	ticks            int
}

// tick panics with a Timeout error once the context is done, and with a
// Memout error once the heap exceeds MaxEncodeHeap (checked every few
// hundred calls).
func (e *enc) tick() {
	e.ticks++
	if e.out.Len() > MaxFormulaBytes {
		panic(&program.Error{Kind: program.Memout, Err: fmt.Errorf("encoding: the formula exceeds %d MiB for these bounds", MaxFormulaBytes>>20)})
	}
	if e.ticks%128 != 0 {
		return
	}
	if e.ctx != nil {
		if err := e.ctx.Err(); err != nil {
			panic(&program.Error{Kind: program.Timeout, Err: fmt.Errorf("encoding: %w", err)})
		}
	}
	if e.ticks%1024 == 0 {
		if h := heap.Bytes(); h > MaxEncodeHeap {
			panic(&program.Error{Kind: program.Memout, Err: fmt.Errorf("encoding: the symbolic execution exceeds %d MiB of memory for these bounds", MaxEncodeHeap>>20)})
		}
	}
}

// Memory budget of one encoding, so that a task stays under 2 GiB with its
// solver: the Go heap of the symbolic execution, and the formula
// sent to the solver (z3 needs several times its size).
var (
	MaxEncodeHeap   uint64 = 1 << 30
	MaxFormulaBytes        = 256 << 20
)

type cellEvents struct {
	reads, writes []*event
}

type badRec struct {
	g   *term
	why string
	pos program.Pos
}

type joinRec struct {
	blk *block
	t   val
	ok  *term
	res *val // the value stored by a Join with a Lhs: the joined thread's result
}

// voidPtr is the type of a thread's result.
func (e *enc) voidPtr() *program.Type {
	return program.PointerTo(program.VoidType, e.p.Model.PtrSize())
}

// state is the symbolic state of one path set of a thread.
type state struct {
	g     *term
	mem   map[cellKey]val // thread-local cells
	cache map[cellKey]*centry
	blk   *block
	depth int
	loops map[int]loopCount // by back-edge pc: the loops of the frame the state is in
	// forks counts the symbolic branches taken on the path so far (both
	// sides feasible): an iteration that adds none is a single path
	forks int
	held  []heldLock // locks held (analysis of lock regions)
	mixed []cellKey  // locks held on some of the merged paths only (locks.go)
	regs  []cellKey  // open collapsed lock regions
}

// centry is a block's cached view of a shared cell. known: v is the cell's
// value at this point of the block. Otherwise v is its value only where
// wflag holds (the block wrote it on this path); where wflag does not hold
// the value is the cell's value at the block's start, read only when the
// block reads the cell (readCell), so a cell the block only writes
// conditionally (a store through an array index or a pointer with several
// targets, a write in one branch) costs no read event.
// loopCount is a loop's entry in state.loops (keyed by its back edge).
type loopCount struct {
	n    int // back edges taken in this entry into the loop
	head int // the loop's first instruction (the back edge's target)
	// forks is state.forks at the last back edge; testIter is the
	// iteration (1-based) in which a branch in the loop was last decided
	// by a constant (constantTest)
	forks, testIter int
	// extra: an iteration past the bound was granted (beyond the bounds,
	// gotoStep): the thread's spawns there are dormant (spawnStep)
	extra bool
}

type centry struct {
	known bool
	v     val
	wflag *term
	held  []heldLock // locks held at the last write
	sync  bool
}

func (st *state) fork(g *term) *state {
	n := &state{g: g, mem: maps.Clone(st.mem), blk: st.blk, depth: st.depth, loops: maps.Clone(st.loops), forks: st.forks,
		held: slices.Clone(st.held), mixed: slices.Clone(st.mixed), regs: slices.Clone(st.regs)}
	if st.cache != nil {
		n.cache = make(map[cellKey]*centry, len(st.cache))
		for k, c := range st.cache {
			cc := *c
			n.cache[k] = &cc
		}
	}
	return n
}

type frame struct {
	fn      *program.Func
	id      int
	vars    map[string]*object
	th      *thread
	retAddr *val // caller's lvalue for the result
	retType *program.Type
	parent  *frame
	extra   bool // called within an iteration granted past its bound (loopCount.extra)
}

func newEnc(p *program.Program, b backend.Bounds, clockInt bool) *enc {
	e := &enc{p: p, b: b, funcObjs: map[string]*object{}, globals: map[string]*object{},
		cellEv: map[cellKey]*cellEvents{}, siteCnt: map[program.Label]int{}, clockInt: clockInt,
		lockSeen: map[cellKey]bool{}, lockBad: map[cellKey]bool{}, divs: map[string]*term{}, counts: map[int]*term{}}
	e.offW = 32
	if p.Model == program.LP64 {
		e.offW = 64
	}
	e.sequential = !p.Spawns()
	return e
}

// coversAll reports whether the encoding covers every run of the program:
// no path was cut at a bound and no thread left dormant.
func (e *enc) coversAll() bool { return len(e.cuts) == 0 && e.dormant == 0 }

// ---------------------------------------------------------------- symbols

func (e *enc) fresh(prefix string, w int) *term {
	e.nsym++
	name := prefix + strconv.Itoa(e.nsym)
	fmt.Fprintf(&e.out, "(declare-fun %s () %s)\n", name, sortOf(w))
	return &term{s: name, w: w}
}

// name gives a long term a name (define-fun), keeping formulas DAG-shaped.
func (e *enc) name(t *term) *term {
	if t.c || len(t.s) < 48 {
		return t
	}
	e.nsym++
	name := "d" + strconv.Itoa(e.nsym)
	// declare and equate rather than define-fun: z3 expands define-fun
	// macros at parse time, which blows up on deep shared guards.
	fmt.Fprintf(&e.out, "(declare-fun %s () %s)\n(assert (= %s %s))\n", name, sortOf(t.w), name, t.s)
	e.nassert++
	return &term{s: name, w: t.w}
}

func (e *enc) nameVal(v val) val {
	v.t = e.name(v.t)
	if v.obj != nil {
		v.obj = e.name(v.obj)
	}
	if v.b != nil {
		v.b = e.name(v.b)
	}
	return v
}

func (e *enc) assert(t *term) {
	if isTrue(t) {
		return
	}
	e.nassert++
	e.out.WriteString("(assert ")
	e.out.WriteString(t.s)
	e.out.WriteString(")\n")
}

func (e *enc) clockLT(a, b string) *term {
	if e.clockInt {
		return &term{s: "(< " + a + " " + b + ")"}
	}
	return &term{s: "(bvult " + a + " " + b + ")"}
}

func (e *enc) clockSort() string {
	if e.clockInt {
		return "Int"
	}
	return "(_ BitVec 24)"
}

// freshVal returns an unconstrained value of scalar type t.
func (e *enc) freshVal(prefix string, t *program.Type) val {
	if t.Kind == program.Pointer || t.Kind == program.Function {
		return val{obj: e.fresh(prefix, objW), t: e.fresh(prefix, e.offW), any: true}
	}
	return val{t: e.fresh(prefix, t.Bits())}
}

func (e *enc) zeroVal(t *program.Type) val {
	if isPtrType(t) {
		return val{obj: bvc(objW, 0), t: bvc(e.offW, 0), pts: []int{}}
	}
	return val{t: bvc(t.Bits(), 0)}
}

func isPtrType(t *program.Type) bool { return t.Kind == program.Pointer || t.Kind == program.Function }

// ---------------------------------------------------------------- objects

func (e *enc) newObject(name string, t *program.Type, shared bool) *object {
	n := t.Cells()
	if n > maxCells {
		e.unsupported(program.Pos{}, "object %s has %d cells (limit %d)", name, n, maxCells)
	}
	o := &object{id: len(e.objs), name: name, typ: t, ncells: n, shared: shared}
	e.objs = append(e.objs, o)
	if len(e.objs) >= 1<<objW {
		e.unsupported(program.Pos{}, "too many objects")
	}
	return o
}

func (e *enc) initObjects() {
	for _, f := range e.p.Funcs {
		for _, in := range f.Body {
			e.frees = e.frees || in.Op == program.OpFree || in.Op == program.OpRealloc
		}
	}
	e.objs = []*object{{id: 0, name: "NULL", typ: program.VoidType}}
	for _, f := range e.p.Funcs {
		o := &object{id: len(e.objs), name: "fn:" + f.Name, typ: program.VoidType, fn: f.Name}
		e.objs = append(e.objs, o)
		e.funcObjs[f.Name] = o
	}
	exposed := addrTakenGlobals(e.p)
	written := writtenGlobals(e.p)
	private := analysis.ThreadPrivate(e.p)
	for _, g := range e.p.Globals {
		// a global one thread alone accesses, and no pointer reaches, is
		// kept like that thread's local (no partial-order events)
		o := e.newObject(g.Name, g.Type, !e.sequential && !(private[g.Name] && !exposed[g.Name]))
		o.exposed = exposed[g.Name] // computed: Var.AddrTaken also counts addresses the front end lowered away (sscanf into &g)
		o.constant = !written[g.Name] && !e.stored[g.Name]
		e.globals[g.Name] = o
	}
	for _, g := range e.p.Globals {
		o := e.globals[g.Name]
		o.init = make([]val, o.ncells)
		for k := range o.init {
			o.init[k] = e.zeroVal(o.cellType(int64(k)))
		}
		if g.Init != nil {
			e.initCells(o, 0, g.Type, g.Init)
		}
	}
}

// writtenGlobals returns the globals some instruction stores into by
// name (through a pointer, a store needs the address: addrTakenGlobals).
func writtenGlobals(p *program.Program) map[string]bool {
	out := map[string]bool{}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Lhs == nil {
				continue
			}
			if r := program.BaseRef(in.Lhs); r != nil && !r.Local {
				out[r.Name] = true
			}
		}
	}
	return out
}

// addrTakenGlobals returns the globals the encoding keeps in addressable
// memory: those whose address the program takes (analysis.TakenAddrs) and
// the arrays it uses other than by name in a whole store (indexed, or
// decayed to a pointer), whose elements the encoding reaches by address.
func addrTakenGlobals(p *program.Program) map[string]bool {
	out := map[string]bool{}
	for k := range analysis.TakenAddrs(p) {
		if !strings.Contains(k, "::") {
			out[k] = true
		}
	}
	visit := func(x program.Expr) {
		program.Walk(x, func(x program.Expr) bool {
			if r, ok := x.(*program.Ref); ok && r.T.Kind == program.Array && !r.Local {
				out[r.Name] = true
			}
			return true
		})
	}
	for _, g := range p.Globals {
		if g.Init != nil {
			visit(g.Init)
		}
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			for _, x := range in.Operands() {
				visit(x)
			}
		}
	}
	return out
}

func (e *enc) initCells(o *object, off int64, t *program.Type, x program.Expr) {
	switch x := x.(type) {
	case *program.Compound:
		switch t.Kind {
		case program.Array:
			ec := t.Elem.Cells()
			for i, el := range x.Elems {
				e.initCells(o, off+int64(i)*ec, t.Elem, el)
			}
		case program.Struct, program.Union:
			if t.Kind == program.Union && t.Store > 0 {
				y, ok := program.StorageInit(t, x)
				if !ok {
					e.unsupported(o.initPos(e), "initializer of union %s in %s: not a constant", t.Name, o.name)
				}
				e.initCells(o, off, t.Fields[t.Store-1].Type, y)
				return
			}
			for i, el := range x.Elems {
				if i < len(t.Fields) {
					e.initCells(o, off+t.FieldCell(i), t.Fields[i].Type, el)
				}
				if t.Kind == program.Union {
					break
				}
			}
		default:
			if len(x.Elems) > 0 {
				e.initCells(o, off, t, x.Elems[0])
			}
		}
		return
	}
	if !t.IsScalar() {
		e.unsupported(o.initPos(e), "initializer of %s", o.name)
	}
	v := e.constEval(x, t)
	o.init[off] = v
}

func (o *object) initPos(e *enc) program.Pos {
	if g := e.p.Global(o.name); g != nil {
		return g.Pos
	}
	return program.Pos{}
}

// constEval evaluates a constant initializer.
func (e *enc) constEval(x program.Expr, t *program.Type) val {
	switch x := x.(type) {
	case *program.Const:
		return e.constVal(x)
	case *program.FuncRef:
		return e.funcPtr(x.Name)
	case *program.AddrOf, *program.Cast, *program.Ref:
		st := &state{g: tTrue, mem: map[cellKey]val{}}
		v := e.evalNoMem(st, x)
		if v.t.c && (v.obj == nil || v.obj.c) {
			return e.convert(v, x.Type(), t)
		}
	}
	e.unsupported(program.Pos{}, "non-constant initializer %s", program.ExprString(x))
	return val{}
}

// evalNoMem evaluates constant address expressions (no memory reads).
func (e *enc) evalNoMem(st *state, x program.Expr) val {
	switch x := x.(type) {
	case *program.AddrOf:
		if f, ok := x.X.(*program.FuncRef); ok {
			return e.funcPtr(f.Name)
		}
		return e.addr(st, nil, x.X, tTrue)
	case *program.Cast:
		return e.convert(e.evalNoMem(st, x.X), x.X.Type(), x.T)
	case *program.Ref:
		if x.T.Kind == program.Array && !x.Local {
			return e.addr(st, nil, x, tTrue)
		}
	case *program.Const:
		return e.constVal(x)
	case *program.FuncRef:
		return e.funcPtr(x.Name)
	}
	e.unsupported(program.Pos{}, "non-constant initializer %s", program.ExprString(x))
	return val{}
}

func (e *enc) funcPtr(name string) val {
	o := e.funcObjs[name]
	if o == nil {
		e.unsupported(program.Pos{}, "function %s has no body", name)
	}
	return val{obj: bvc(objW, uint64(o.id)), t: bvc(e.offW, 0), pts: []int{o.id}}
}

func (e *enc) constVal(c *program.Const) val {
	if isPtrType(c.T) {
		if c.V != 0 {
			e.unsupported(program.Pos{}, "integer address %d", c.V)
		}
		return e.zeroVal(c.T)
	}
	return val{t: bvc(c.T.Bits(), uint64(c.V))}
}

// ---------------------------------------------------------------- blocks

func (e *enc) newBlock(th *thread, g *term, kind string, label program.Label) *block {
	e.nblocks++
	b := &block{id: e.nblocks, th: th, seq: len(th.blocks), g: g, kind: kind, label: label}
	b.clock = "c" + strconv.Itoa(b.id)
	fmt.Fprintf(&e.out, "(declare-fun %s () %s)\n", b.clock, e.clockSort())
	if n := len(th.blocks); n > 0 {
		e.assert(e.clockLT(th.blocks[n-1].clock, b.clock))
	}
	th.blocks = append(th.blocks, b)
	return b
}

// ensureBlock returns the block the current step's accesses belong to,
// opening a one-instruction block outside atomic sections.
func (e *enc) ensureBlock(st *state, th *thread, in *program.Instr) *block {
	if st.blk == nil {
		st.blk = e.newBlock(th, st.g, "instr", in.Label)
		st.cache = map[cellKey]*centry{}
	}
	return st.blk
}

// endBlock emits the write events of the current block.
func (e *enc) endBlock(st *state) {
	b := st.blk
	if b == nil {
		return
	}
	keys := slices.SortedFunc(maps.Keys(st.cache), func(a, b cellKey) int {
		if a.obj != b.obj {
			return a.obj - b.obj
		}
		return int(a.off - b.off)
	})
	for _, k := range keys {
		c := st.cache[k]
		if c.wflag == nil || isFalse(c.wflag) {
			continue
		}
		g := e.name(and(st.g, c.wflag))
		if isFalse(g) {
			continue
		}
		ev := &event{id: len(e.events), blk: b, cell: k, write: true, g: g, v: c.v, held: c.held, sync: c.sync}
		e.events = append(e.events, ev)
		b.writes = append(b.writes, ev)
		e.cells(k).writes = append(e.cells(k).writes, ev)
	}
	b.endG = st.g
	b.ends = append(b.ends, st.g)
	st.blk = nil
	st.cache = nil
}

// ptsOf returns the objects pointer value v may point into, nil when
// unknown.
func ptsOf(v val) map[int]bool {
	switch {
	case v.obj == nil:
		return map[int]bool{}
	case v.obj.c:
		return map[int]bool{int(v.obj.v): true}
	case v.any || v.pts == nil:
		return nil
	}
	out := map[int]bool{}
	for _, id := range v.pts {
		out[id] = true
	}
	return out
}

// recordPts adds the targets of v, written into the pointer cell key of a
// global, to writtenPts.
func (e *enc) recordPts(key cellKey, v val) {
	if e.writtenPts == nil {
		e.writtenPts = map[cellKey]map[int]bool{}
	}
	addPts(e.writtenPts, key, ptsOf(v))
}

// addPts adds the targets ids (nil: unknown) to m[key]; an unknown entry
// absorbs every other. The sets of m are m's own, never ids.
func addPts(m map[cellKey]map[int]bool, key cellKey, ids map[int]bool) {
	cur, seen := m[key]
	switch {
	case seen && cur == nil:
	case ids == nil:
		m[key] = nil
	default:
		if cur == nil {
			cur = map[int]bool{}
			m[key] = cur
		}
		for id := range ids {
			cur[id] = true
		}
	}
}

// refinePts gives v, read from the pointer cell key of a global whose
// initial value is init, the targets readPts allows (plus init's), and
// records them in usedPts; without readPts the read stays unknown.
func (e *enc) refinePts(key cellKey, init val, v *val) {
	ip := ptsOf(init)
	if e.readPts == nil || ip == nil {
		e.anyGlobalPtrRead = true
		return
	}
	p, written := e.readPts[key]
	if written && p == nil {
		e.anyGlobalPtrRead = true
		return
	}
	all := map[int]bool{}
	for id := range p {
		all[id] = true
	}
	for id := range ip {
		all[id] = true
	}
	if e.usedPts == nil {
		e.usedPts = map[cellKey]map[int]bool{}
	}
	e.usedPts[key] = all
	v.any = false
	v.pts = slices.Sorted(maps.Keys(all))
}

// ptsHold reports whether every pointer written into a global's cell this
// pass lies in the targets its reads assumed.
func (e *enc) ptsHold() bool {
	for key, used := range e.usedPts {
		w, ok := e.writtenPts[key]
		if !ok {
			continue
		}
		if w == nil {
			return false
		}
		for id := range w {
			if !used[id] {
				return false
			}
		}
	}
	return true
}

// heldAtWrite is the intersection of the locks held at the writes of a
// cell within one block.
func (e *enc) heldAtWrite(st *state, c *centry) []heldLock {
	if c == nil || c.wflag == nil || isFalse(c.wflag) {
		return slices.Clone(st.held)
	}
	var out []heldLock
	for _, h := range c.held {
		if heldIndex(st.held, h.cell) >= 0 {
			out = append(out, h)
		}
	}
	return out
}

func (e *enc) cells(k cellKey) *cellEvents {
	c := e.cellEv[k]
	if c == nil {
		c = &cellEvents{}
		e.cellEv[k] = c
	}
	return c
}

// ---------------------------------------------------------------- cells

// readCell reads a cell: for a shared one, the block's cached value or its
// value at the block's start (blockStart).
func (e *enc) readCell(st *state, th *thread, in *program.Instr, o *object, k int64) val {
	key := cellKey{o.id, k}
	if o.constant {
		return o.init[k]
	}
	if !o.shared {
		if v, ok := st.mem[key]; ok {
			return v
		}
		return e.unwritten(o, k)
	}
	e.ensureBlock(st, th, in)
	c := st.cache[key]
	if c != nil && c.known {
		return c.v
	}
	v := e.blockStart(st, o, k)
	if c == nil {
		st.cache[key] = &centry{known: true, v: v, wflag: tFalse, held: slices.Clone(st.held)}
		return v
	}
	// written on some paths of this block: the block's value where it
	// wrote, the value at the block's start elsewhere
	c.v, c.known = e.nameVal(iteVal(c.wflag, c.v, v)), true
	return c.v
}

// blockStart returns the value of a shared cell when the current block
// starts: one read event per cell and block, guarded by the block's start
// guard, not by the guard of the path or access that needs it (narrower:
// a branch of an atomic section, one target of a pointer that may point
// elsewhere, the right operand of &&). A read event constrains its value
// only where its guard holds; with the access's guard, the value cached
// for the rest of the block was unconstrained where that guard failed
// (TestGuardedReadNotCached). The wider guard removes no run: reading a
// cell of an object of the model has no effect, and in every run the
// blocks are strictly ordered, so the read reads from the last write
// before its block.
func (e *enc) blockStart(st *state, o *object, k int64) val {
	key := cellKey{o.id, k}
	b := st.blk
	if v, ok := b.start[key]; ok {
		return v
	}
	v := e.readEvent(st, o, k, b.g)
	if b.start == nil {
		b.start = map[cellKey]val{}
	}
	b.start[key] = v
	return v
}

func (e *enc) readEvent(st *state, o *object, k int64, g *term) val {
	v := e.freshVal("r", o.cellType(k))
	v.any = true
	if o.init != nil && isPtrType(o.cellType(k)) {
		e.refinePts(cellKey{o.id, k}, o.init[k], &v)
	}
	ev := &event{id: len(e.events), blk: st.blk, cell: cellKey{o.id, k}, g: g, v: v, held: slices.Clone(st.held), sync: e.inSync}
	e.events = append(e.events, ev)
	st.blk.reads = append(st.blk.reads, ev)
	e.cells(ev.cell).reads = append(e.cells(ev.cell).reads, ev)
	return v
}

func (e *enc) writeCell(st *state, th *thread, in *program.Instr, o *object, k int64, cond *term, v val, g *term, rec *stepRec) {
	key := cellKey{o.id, k}
	if o.constant {
		// a store through a pointer may reach it: encodeOnce encodes
		// again with the object not constant
		e.constStored = append(e.constStored, o.name)
	}
	v = e.convertCell(v, o.cellType(k))
	if o.init != nil && isPtrType(o.cellType(k)) {
		e.recordPts(key, v)
	}
	rec.assigned = append(rec.assigned, assignRec{obj: o, off: k, cond: cond, v: v})
	if !o.shared {
		if isTrue(cond) {
			st.mem[key] = v
			return
		}
		old, ok := st.mem[key]
		if !ok {
			old = e.unwritten(o, k)
		}
		st.mem[key] = e.nameVal(iteVal(cond, v, old))
		return
	}
	e.ensureBlock(st, th, in)
	c := st.cache[key]
	if isTrue(cond) {
		st.cache[key] = &centry{known: true, v: v, wflag: tTrue, held: e.heldAtWrite(st, c), sync: e.inSync}
		return
	}
	if c == nil {
		// the old value matters only where the block reads the cell
		// later (readCell) or where the write event happens (not here:
		// its guard includes wflag); a placeholder stands for it
		c = &centry{v: e.zeroVal(o.cellType(k)), wflag: tFalse, held: slices.Clone(st.held)}
		st.cache[key] = c
	}
	c.v = e.nameVal(iteVal(cond, v, c.v))
	c.wflag = e.name(or(cond, c.wflag))
	c.held = e.heldAtWrite(st, c)
	c.sync = c.sync || e.inSync
}

// unwritten is the value of an unshared cell that the path has not
// written: its initial value for a global of a sequential program, else
// zero (a local is written by its Decl or its binding first; a path that
// has not written it does not read it). Heap blocks stay shared: a
// pointer of unknown target may meet a block of the previous pass
// (enc.prev), whose initial values belong to the previous formula.
func (e *enc) unwritten(o *object, k int64) val {
	key := cellKey{o.id, k}
	if o.init != nil && k >= 0 && k < int64(len(o.init)) {
		return o.init[k]
	}
	if o.init != nil {
		// a cell past the modelled ones (a block of symbolic size): any
		// value, the same at every read
		if v, ok := e.past[key]; ok {
			return v
		}
		v := e.freshVal("past", o.cellType(key.off))
		if e.past == nil {
			e.past = map[cellKey]val{}
		}
		e.past[key] = v
		return v
	}
	return e.zeroVal(o.cellType(key.off))
}

// convertCell adapts a value to the representation of a cell type.
func (e *enc) convertCell(v val, t *program.Type) val {
	if isPtrType(t) {
		if v.obj == nil {
			if v.t.c && v.t.v == 0 {
				return e.zeroVal(t)
			}
			// an integer address (object 0, the offset the integer), as
			// the interpreter keeps it and convert makes it
			return val{obj: bvc(objW, 0), t: resize(v.t, e.offW, false), pts: []int{}}
		}
		return v
	}
	if v.obj != nil {
		e.unsupported(program.Pos{}, "pointer stored into an integer cell")
	}
	if v.t.w != t.Bits() {
		v = val{t: resize(v.t, t.Bits(), false)}
	}
	return v
}

func iteVal(c *term, a, b val) val {
	if c.c {
		if c.v != 0 {
			return a
		}
		return b
	}
	r := val{t: ite(c, a.t, b.t)}
	if a.obj != nil || b.obj != nil {
		if a.obj == nil || b.obj == nil {
			panic("ite of pointer and integer")
		}
		r.obj = ite(c, a.obj, b.obj)
		r.any = a.any || b.any
		if !r.any {
			r.pts = union(a.pts, b.pts)
		}
	} else if a.b != nil && b.b != nil {
		r.b = ite(c, a.b, b.b)
	}
	return r
}

func union(a, b []int) []int {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

// ---------------------------------------------------------------- merging

func (e *enc) merge(states []*state, pos program.Pos) *state {
	var live []*state
	for _, s := range states {
		if s != nil && !isFalse(s.g) {
			live = append(live, s)
		}
	}
	if len(live) == 0 {
		return nil
	}
	r := live[0]
	for _, s := range live[1:] {
		r = e.merge2(r, s, pos)
	}
	return r
}

func (e *enc) merge2(a, b *state, pos program.Pos) *state {
	if a.depth != b.depth || a.blk != b.blk {
		e.unsupported(pos, "paths with different atomic sections meet")
	}
	ga := a.g
	if !slices.Equal(a.regs, b.regs) {
		e.unsupported(pos, "paths with different lock regions meet")
	}
	held, mixed := mergeHeld(a, b)
	r := &state{g: e.name(or(a.g, b.g)), mem: map[cellKey]val{}, blk: a.blk, depth: a.depth, loops: maps.Clone(a.loops),
		forks: max(a.forks, b.forks), held: held, mixed: mixed, regs: slices.Clone(a.regs)}
	for k, n := range b.loops {
		m, ok := r.loops[k]
		if !ok || n.n > m.n {
			n.extra = n.extra || ok && m.extra
			r.loops[k] = n
		} else if n.extra {
			m.extra = true
			r.loops[k] = m
		}
	}
	// in cell order: the names given here must not depend on map order
	// (the formula, hence the solver's answers, must be reproducible)
	for _, k := range slices.SortedFunc(maps.Keys(a.mem), cmpCell) {
		va := a.mem[k]
		if vb, ok := b.mem[k]; ok {
			r.mem[k] = e.nameVal(iteVal(ga, va, vb))
		} else if e.objs[k.obj].init != nil {
			r.mem[k] = e.nameVal(iteVal(ga, va, e.unwritten(e.objs[k.obj], k.off)))
		} else {
			r.mem[k] = va
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(b.mem), cmpCell) {
		if _, ok := a.mem[k]; !ok {
			if e.objs[k.obj].init != nil {
				r.mem[k] = e.nameVal(iteVal(ga, e.unwritten(e.objs[k.obj], k.off), b.mem[k]))
			} else {
				r.mem[k] = b.mem[k]
			}
		}
	}
	if a.blk != nil {
		r.cache = map[cellKey]*centry{}
		keys := map[cellKey]bool{}
		for k := range a.cache {
			keys[k] = true
		}
		for k := range b.cache {
			keys[k] = true
		}
		for _, k := range slices.SortedFunc(maps.Keys(keys), cmpCell) {
			ca, cb := a.cache[k], b.cache[k]
			ct := e.objs[k.obj].cellType(k.off)
			// a side that did not touch the cell: a placeholder, as in
			// writeCell (a read follows in readCell if one is needed)
			if ca == nil {
				ca = &centry{v: e.zeroVal(ct), wflag: tFalse, held: slices.Clone(a.held)}
			}
			if cb == nil {
				cb = &centry{v: e.zeroVal(ct), wflag: tFalse, held: slices.Clone(b.held)}
			}
			var held []heldLock
			for _, h := range ca.held {
				if heldIndex(cb.held, h.cell) >= 0 {
					held = append(held, h)
				}
			}
			r.cache[k] = &centry{known: ca.known && cb.known, v: e.nameVal(iteVal(ga, ca.v, cb.v)), wflag: e.name(ite(ga, ca.wflag, cb.wflag)),
				held: held, sync: ca.sync || cb.sync}
		}
	}
	return r
}

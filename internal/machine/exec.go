package machine

import (
	"fmt"
	"strings"

	"cegpv.dev/cegpv/program"
)

// StepResult is the effect of one step.
type StepResult struct {
	Blocked string // non-empty: the step is not enabled; nothing changed
	Failed  bool   // an assertion failed
	Writes  []program.Write
	spawned int // thread id created, or 0
	Undo    []UndoCell
	// Returned is the scalar value a Return step returns (the thread's
	// result when it returns from its start function) or an Exit step
	// passes to pthread_exit; nil for other steps.
	Returned *program.Value
}

// Hooks lets the caller decide the choices of a step.
type Hooks struct {
	// Pick chooses the target of a multi-target goto whose guard holds.
	Pick func(targets []program.Label) program.Label
	// BackEdge is called before a jump from in to a target at or before it
	// in the body; returning a reason stops the step (it becomes blocked
	// with that reason and changes nothing).
	BackEdge func(fr *Frame, in *program.Instr) string
}

// Exec executes the current instruction of t. Execution errors are
// returned as *ExecError (Step unset); an error of any other type is an
// internal error. It maintains t.fresh.
func (m *Machine) Exec(t *Thread, nd Source, h Hooks) (StepResult, error) {
	before := t.Atomic
	res, err := m.execStep(t, nd, h)
	if err == nil && res.Blocked == "" {
		t.Fresh = before == 0 && t.Atomic > 0
	}
	return res, err
}

func (m *Machine) execStep(t *Thread, nd Source, h Hooks) (res StepResult, err error) {
	in := t.Current()
	if in == nil {
		return res, fmt.Errorf("thread %d has no current instruction", t.ID)
	}
	fr := t.Top()
	c := &ctx{m: m, t: t, fr: fr, nd: nd}
	defer func() {
		if r := recover(); r != nil {
			ep, ok := r.(execPanic)
			if !ok {
				panic(r)
			}
			res = StepResult{}
			err = &ExecError{Thread: t.ID, Label: in.Label, Msg: ep.msg}
		}
	}()
	next := fr.PC + 1
	switch in.Op {
	case program.OpSkip, program.OpAtomicBegin, program.OpAtomicEnd:
		if in.Op == program.OpAtomicBegin {
			t.Atomic++
		} else if in.Op == program.OpAtomicEnd {
			if t.Atomic == 0 {
				fail("atomic_end outside an atomic section")
			}
			t.Atomic--
		}
	case program.OpAssign:
		l := c.lvalue(in.Lhs)
		if in.Lhs.Type().IsScalar() {
			v := c.rvalue(in.Rhs)
			c.storeScalar(l, v, in.Lhs.Type())
		} else {
			vals := c.cells(in.Rhs)
			c.storeAgg(l, in.Lhs.Type(), vals)
		}
	case program.OpAssume:
		if !Truth(c.rvalue(in.Rhs)) {
			return StepResult{Blocked: "assume(" + program.ExprString(in.Rhs) + ") is false"}, nil
		}
	case program.OpAssert:
		if !Truth(c.rvalue(in.Rhs)) {
			res.Failed = true
		}
	case program.OpGoto:
		taken := true
		if in.Rhs != nil {
			taken = Truth(c.rvalue(in.Rhs))
		}
		if taken {
			target := in.Targets[0]
			if len(in.Targets) > 1 && h.Pick != nil {
				target = h.Pick(in.Targets)
			}
			idx := fr.Fn.Index(target)
			if idx < 0 {
				fail("goto target %s not in %s", target, fr.Fn.Name)
			}
			if idx <= fr.PC && h.BackEdge != nil {
				if why := h.BackEdge(fr, in); why != "" {
					return StepResult{Blocked: why}, nil
				}
			}
			next = idx
		}
	case program.OpCall:
		var ret *Loc
		if in.Lhs != nil {
			l := c.lvalue(in.Lhs)
			ret = &l
		}
		f := c.callee(in.Func)
		args := c.args(in.Args)
		fr.PC = next
		nf := m.push(t, f, ret)
		c.bindParams(nf, args)
		res.Writes = c.writes
		res.Writes = append(res.Writes, m.settle(t)...)
		return res, nil
	case program.OpReturn:
		var v program.Value
		var vals []program.Value
		if in.Rhs != nil {
			if in.Rhs.Type().IsScalar() {
				v = Normalize(fr.Fn.Result, c.rvalue(in.Rhs))
			} else {
				vals = c.cells(in.Rhs)
			}
		}
		ret := fr.Ret
		if len(t.Frames) == 1 && vals == nil {
			t.Result = v
		}
		if in.Rhs != nil && vals == nil {
			ext := m.External(v)
			res.Returned = &ext
		}
		m.pop(t)
		if ret != nil && !t.Ended {
			c.fr = t.Top()
			if vals != nil {
				c.storeAgg(*ret, ret.T, vals)
			} else {
				c.storeScalar(*ret, v, nil)
			}
		}
		res.Writes = append(c.writes, m.settle(t)...)
		return res, nil
	case program.OpSpawn:
		var hl *Loc
		if in.Lhs != nil {
			l := c.lvalue(in.Lhs)
			hl = &l
		}
		f := c.callee(in.Func)
		args := c.args(in.Args)
		nt := &Thread{ID: len(m.Threads)}
		if hl != nil {
			c.storeScalar(*hl, program.Value{Bits: int64(nt.ID)}, in.Lhs.Type())
		}
		m.Threads = append(m.Threads, nt)
		nf := m.push(nt, f, nil)
		if nf.Atomic { // a spawned atomic function is not a section of the spawner
			nf.Atomic = false
			nt.Atomic--
		}
		c.bindParams(nf, args)
		c.writes = append(c.writes, m.settle(nt)...)
		res.spawned = nt.ID
	case program.OpJoin:
		id := c.rvalue(in.Rhs)
		if id.Obj != "" || id.Bits < 0 || id.Bits >= int64(len(m.Threads)) {
			return StepResult{Blocked: fmt.Sprintf("join of thread %s, which does not exist", id)}, nil
		}
		if !m.Threads[id.Bits].Ended {
			return StepResult{Blocked: fmt.Sprintf("join of thread %d, which has not ended", id.Bits)}, nil
		}
		if in.Lhs != nil {
			c.storeScalar(c.lvalue(in.Lhs), m.Threads[id.Bits].Result, in.Lhs.Type())
		}
	case program.OpLock:
		l := c.ptrLoc(c.rvalue(in.Rhs))
		l.T = in.Rhs.Type().Elem
		cur := c.load(l, l.T)
		if Truth(cur) {
			return StepResult{Blocked: "lock " + program.ExprString(in.Rhs) + " is held"}, nil
		}
		c.storeScalar(l, program.Value{Bits: 1}, nil)
	case program.OpUnlock:
		l := c.ptrLoc(c.rvalue(in.Rhs))
		l.T = in.Rhs.Type().Elem
		c.storeScalar(l, program.Value{}, nil)
	case program.OpDecl:
		o := fr.Vars[in.Var]
		if o == nil {
			fail("decl of unknown local %s", in.Var)
		}
		o.Alive = true
		vals := make([]program.Value, len(o.Cells))
		for i := range vals {
			ct := o.typ.CellType(int64(i))
			vals[i] = Normalize(ct, c.draw(ct))
		}
		c.writeCells(o, 0, vals)
	case program.OpAlloc:
		l := c.lvalue(in.Lhs)
		nv := c.rvalue(in.Rhs)
		o, vals := c.alloc(in, nv)
		c.storeScalar(l, program.Value{Obj: o.ID}, nil)
		c.writeCells(o, 0, vals)
	case program.OpRealloc:
		l := c.lvalue(in.Lhs)
		nv := c.rvalue(in.Rhs)
		old := c.heapStart(c.rvalue(in.Args[0]), "realloc")
		o, vals := c.alloc(in, nv)
		if !program.Identical(old.elem, o.elem) {
			fail("realloc of %s (elements of %s) into elements of %s", old.Name, old.elem, o.elem)
		}
		for k := range min(len(vals), len(old.Cells)) { // the first min(old, new) elements' cells
			vals[k] = old.Cells[k]
			c.observe(old, int64(k), vals[k], false)
		}
		old.Alive = false
		c.storeScalar(l, program.Value{Obj: o.ID}, nil)
		c.writeCells(o, 0, vals)
	case program.OpFree:
		p := c.rvalue(in.Rhs)
		if p.Obj == "" && p.Bits == 0 {
			break // free(NULL)
		}
		c.heapStart(p, "free").Alive = false
	case program.OpExit:
		if in.Rhs != nil {
			t.Result = c.rvalue(in.Rhs)
			ext := m.External(t.Result)
			res.Returned = &ext
		}
		m.end(t)
		res.Writes = c.writes
		return res, nil
	default:
		fail("unknown op %s", in.Op)
	}
	fr.PC = next
	res.Undo = c.undo
	res.Writes = append(c.writes, m.settle(t)...)
	return res, nil
}

// alloc creates the heap block of an Alloc or Realloc of nv elements of
// the pointee type of in.Lhs and draws its cells' initial values, which
// the caller writes.
func (c *ctx) alloc(in *program.Instr, nv program.Value) (*Object, []program.Value) {
	m := c.m
	pt := in.Lhs.Type()
	if pt.Kind != program.Pointer {
		fail("%s into a %s", in.Op, pt)
	}
	n := nv.Bits
	if isUnsigned(in.Rhs.Type()) && n < 0 || nv.Obj != "" {
		fail("allocation of %s elements", nv)
	}
	if n < 0 {
		fail("allocation of %d elements", n)
	}
	ec := pt.Elem.Cells()
	if ec == 0 {
		ec = 1
	}
	if n > maxCells || n*ec > maxCells {
		fail("allocation of %d elements is larger than the interpreter supports", n)
	}
	bt := pt.Elem
	if n != 1 || bt.Kind == program.Void {
		bt = program.ArrayOf(pt.Elem, n)
		if pt.Elem.Kind == program.Void {
			bt = program.ArrayOf(program.UCharType, n)
		}
	}
	o := &Object{
		ID:    fmt.Sprintf("heap#%d", len(m.Heaps)+1),
		typ:   bt,
		Cells: make([]program.Value, bt.Cells()),
		Alive: true,
		Heap:  true,
		elem:  pt.Elem,
	}
	o.Name = o.ID
	vals := make([]program.Value, len(o.Cells))
	for i := range vals {
		ct := bt.CellType(int64(i))
		vals[i] = Normalize(ct, c.draw(ct))
	}
	m.Heaps = append(m.Heaps, o)
	m.Objs[o.ID] = o
	return o, vals
}

// heapStart returns the live heap block p points to the start of (op is
// "free" or "realloc"), or fails as glibc aborts: a pointer to no heap
// block, into the middle of one, or to a freed one.
func (c *ctx) heapStart(p program.Value, op string) *Object {
	if p.Obj == "" && p.Bits == 0 {
		fail("%s of a null pointer", op) // free(NULL) does not get here
	}
	l := c.ptrLoc(p)
	if l.Obj == nil || !l.Obj.Heap {
		what := "a non-heap object"
		if l.Obj != nil {
			what = l.Obj.Name
		}
		fail("%s of %s", op, what)
	}
	if !l.Obj.Alive {
		fail("double free of %s", l.Obj.Name)
	}
	if l.Off != 0 {
		fail("%s of a pointer into the middle of %s", op, l.Obj.Name)
	}
	return l.Obj
}

func (c *ctx) callee(e program.Expr) *program.Func {
	v := c.rvalue(e)
	if !strings.HasPrefix(v.Obj, "fn:") {
		fail("call through %s, which is not a function pointer (%s)", program.ExprString(e), c.m.External(v))
	}
	f := c.m.p.Func(v.Obj[3:])
	if f == nil {
		fail("call of %s, which has no body", v.Obj[3:])
	}
	return f
}

func (c *ctx) args(es []program.Expr) [][]program.Value {
	out := make([][]program.Value, len(es))
	for i, e := range es {
		out[i] = c.cells(e)
	}
	return out
}

// bindParams stores the arguments into the parameters of the new frame.
func (c *ctx) bindParams(fr *Frame, args [][]program.Value) {
	for i, p := range fr.Fn.Params {
		if i >= len(args) {
			break
		}
		o := fr.Vars[p.Name]
		vals := args[i]
		if int64(len(vals)) != int64(len(o.Cells)) {
			fail("argument %d of %s has %d cells, parameter %s has %d", i+1, fr.Fn.Name, len(vals), p.Name, len(o.Cells))
		}
		if p.Type.IsScalar() {
			vals = []program.Value{c.cast(vals[0], p.Type, p.Type)}
		}
		c.writeCells(o, 0, vals)
	}
}

package interp

import (
	"fmt"
	"strings"

	"cegpv.dev/cegpv/program"
)

// stepResult is the effect of one step.
type stepResult struct {
	blocked string // non-empty: the step is not enabled; nothing changed
	failed  bool   // an assertion failed
	writes  []program.Write
	spawned int // thread id created, or 0
	undo    []undoCell
}

// hooks lets the caller decide the choices of a step.
type hooks struct {
	// pick chooses the target of a multi-target goto whose guard holds.
	pick func(targets []program.Label) program.Label
	// backEdge is called before a jump from in to a target at or before it
	// in the body; returning a reason stops the step (it becomes blocked
	// with that reason and changes nothing).
	backEdge func(fr *frame, in *program.Instr) string
}

// exec executes the current instruction of t. Execution errors are
// returned as *ExecError (Step unset); an error of any other type is an
// internal error. It maintains t.fresh.
func (m *machine) exec(t *thread, nd source, h hooks) (stepResult, error) {
	before := t.atomic
	res, err := m.execStep(t, nd, h)
	if err == nil && res.blocked == "" {
		t.fresh = before == 0 && t.atomic > 0
	}
	return res, err
}

func (m *machine) execStep(t *thread, nd source, h hooks) (res stepResult, err error) {
	in := t.current()
	if in == nil {
		return res, fmt.Errorf("thread %d has no current instruction", t.id)
	}
	fr := t.top()
	c := &ctx{m: m, t: t, fr: fr, nd: nd}
	defer func() {
		if r := recover(); r != nil {
			ep, ok := r.(execPanic)
			if !ok {
				panic(r)
			}
			res = stepResult{}
			err = &ExecError{Thread: t.id, Label: in.Label, Msg: ep.msg}
		}
	}()
	next := fr.pc + 1
	switch in.Op {
	case program.OpSkip, program.OpAtomicBegin, program.OpAtomicEnd:
		if in.Op == program.OpAtomicBegin {
			t.atomic++
		} else if in.Op == program.OpAtomicEnd {
			if t.atomic == 0 {
				fail("atomic_end outside an atomic section")
			}
			t.atomic--
		}
	case program.OpAssign:
		l := c.lvalue(in.Lhs)
		if in.Lhs.Type().IsScalar() {
			v := c.rvalue(in.Rhs)
			c.storeScalar(l, v, in.Lhs.Type())
		} else {
			vals := c.cells(in.Rhs)
			c.store(l, vals)
		}
	case program.OpAssume:
		if !truth(c.rvalue(in.Rhs)) {
			return stepResult{blocked: "assume(" + program.ExprString(in.Rhs) + ") is false"}, nil
		}
	case program.OpAssert:
		if !truth(c.rvalue(in.Rhs)) {
			res.failed = true
		}
	case program.OpGoto:
		taken := true
		if in.Rhs != nil {
			taken = truth(c.rvalue(in.Rhs))
		}
		if taken {
			target := in.Targets[0]
			if len(in.Targets) > 1 && h.pick != nil {
				target = h.pick(in.Targets)
			}
			idx := fr.fn.Index(target)
			if idx < 0 {
				fail("goto target %s not in %s", target, fr.fn.Name)
			}
			if idx <= fr.pc && h.backEdge != nil {
				if why := h.backEdge(fr, in); why != "" {
					return stepResult{blocked: why}, nil
				}
			}
			next = idx
		}
	case program.OpCall:
		var ret *loc
		if in.Lhs != nil {
			l := c.lvalue(in.Lhs)
			ret = &l
		}
		f := c.callee(in.Func)
		args := c.args(in.Args)
		fr.pc = next
		nf := m.push(t, f, ret)
		c.bindParams(nf, args)
		res.writes = c.writes
		res.writes = append(res.writes, m.settle(t)...)
		return res, nil
	case program.OpReturn:
		var v program.Value
		var vals []program.Value
		if in.Rhs != nil {
			if in.Rhs.Type().IsScalar() {
				v = normalize(fr.fn.Result, c.rvalue(in.Rhs))
			} else {
				vals = c.cells(in.Rhs)
			}
		}
		ret := fr.ret
		if len(t.frames) == 1 && vals == nil {
			t.result = v
		}
		m.pop(t)
		if ret != nil && !t.ended {
			c.fr = t.top()
			if vals != nil {
				c.store(*ret, vals)
			} else {
				c.storeScalar(*ret, v, nil)
			}
		}
		res.writes = append(c.writes, m.settle(t)...)
		return res, nil
	case program.OpSpawn:
		var hl *loc
		if in.Lhs != nil {
			l := c.lvalue(in.Lhs)
			hl = &l
		}
		f := c.callee(in.Func)
		args := c.args(in.Args)
		nt := &thread{id: len(m.threads)}
		if hl != nil {
			c.storeScalar(*hl, program.Value{Bits: int64(nt.id)}, in.Lhs.Type())
		}
		m.threads = append(m.threads, nt)
		nf := m.push(nt, f, nil)
		if nf.atomic { // a spawned atomic function is not a section of the spawner
			nf.atomic = false
			nt.atomic--
		}
		c.bindParams(nf, args)
		c.writes = append(c.writes, m.settle(nt)...)
		res.spawned = nt.id
	case program.OpJoin:
		id := c.rvalue(in.Rhs)
		if id.Obj != "" || id.Bits < 0 || id.Bits >= int64(len(m.threads)) {
			return stepResult{blocked: fmt.Sprintf("join of thread %s, which does not exist", id)}, nil
		}
		if !m.threads[id.Bits].ended {
			return stepResult{blocked: fmt.Sprintf("join of thread %d, which has not ended", id.Bits)}, nil
		}
		if in.Lhs != nil {
			c.storeScalar(c.lvalue(in.Lhs), m.threads[id.Bits].result, in.Lhs.Type())
		}
	case program.OpLock:
		l := c.ptrLoc(c.rvalue(in.Rhs))
		cur := c.read(l, 1)[0]
		if truth(cur) {
			return stepResult{blocked: "lock " + program.ExprString(in.Rhs) + " is held"}, nil
		}
		c.storeScalar(l, program.Value{Bits: 1}, nil)
	case program.OpUnlock:
		l := c.ptrLoc(c.rvalue(in.Rhs))
		c.storeScalar(l, program.Value{}, nil)
	case program.OpDecl:
		o := fr.vars[in.Var]
		if o == nil {
			fail("decl of unknown local %s", in.Var)
		}
		o.alive = true
		vals := make([]program.Value, len(o.cells))
		for i := range vals {
			ct := o.typ.CellType(int64(i))
			vals[i] = normalize(ct, c.draw(ct))
		}
		c.store(loc{obj: o}, vals)
	case program.OpAlloc:
		l := c.lvalue(in.Lhs)
		nv := c.rvalue(in.Rhs)
		pt := in.Lhs.Type()
		if pt.Kind != program.Pointer {
			fail("alloc into a %s", pt)
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
		o := &object{
			id:    fmt.Sprintf("heap#%d", len(m.heaps)+1),
			typ:   bt,
			cells: make([]program.Value, bt.Cells()),
			alive: true,
			heap:  true,
		}
		o.name = o.id
		vals := make([]program.Value, len(o.cells))
		for i := range vals {
			ct := bt.CellType(int64(i))
			vals[i] = normalize(ct, c.draw(ct))
		}
		m.heaps = append(m.heaps, o)
		m.objs[o.id] = o
		c.storeScalar(l, program.Value{Obj: o.id}, nil)
		c.store(loc{obj: o}, vals)
	case program.OpFree:
		p := c.rvalue(in.Rhs)
		if p.Obj == "" && p.Bits == 0 {
			break // free(NULL)
		}
		l := c.ptrLoc(p)
		if l.obj == nil || !l.obj.heap {
			what := "a non-heap object"
			if l.obj != nil {
				what = l.obj.name
			}
			fail("free of %s", what)
		}
		if !l.obj.alive {
			fail("double free of %s", l.obj.name)
		}
		if l.off != 0 {
			fail("free of a pointer into the middle of %s", l.obj.name)
		}
		l.obj.alive = false
	case program.OpExit:
		if in.Rhs != nil {
			t.result = c.rvalue(in.Rhs)
		}
		m.end(t)
		res.writes = c.writes
		return res, nil
	default:
		fail("unknown op %s", in.Op)
	}
	fr.pc = next
	res.undo = c.undo
	res.writes = append(c.writes, m.settle(t)...)
	return res, nil
}

func (c *ctx) callee(e program.Expr) *program.Func {
	v := c.rvalue(e)
	if !strings.HasPrefix(v.Obj, "fn:") {
		fail("call through %s, which is not a function pointer (%s)", program.ExprString(e), c.m.external(v))
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
func (c *ctx) bindParams(fr *frame, args [][]program.Value) {
	for i, p := range fr.fn.Params {
		if i >= len(args) {
			break
		}
		o := fr.vars[p.Name]
		vals := args[i]
		if int64(len(vals)) != int64(len(o.cells)) {
			fail("argument %d of %s has %d cells, parameter %s has %d", i+1, fr.fn.Name, len(vals), p.Name, len(o.cells))
		}
		if p.Type.IsScalar() {
			vals = []program.Value{c.cast(vals[0], p.Type, p.Type)}
		}
		c.store(loc{obj: o}, vals)
	}
}

package machine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"cegpv.dev/cegpv/program"
)

// maxCells bounds the size of one object the interpreter will allocate.
const maxCells = 1 << 20

type Object struct {
	ID    string // unique within the execution; the Obj of internal pointer values
	Name  string // display name used in runs: "x", "f::x", "heap#3"
	typ   *program.Type
	Cells []program.Value
	Alive bool
	Heap  bool
	// elem is a heap block's element type (Realloc copies elements of it)
	elem *program.Type
	// cow: cells is shared with the object this one was cloned from
	// (Explore's states); writable() copies it before the first write
	cow bool
}

// Writable returns o's cells, copied first if they are shared.
func (o *Object) Writable() []program.Value {
	if o.cow {
		o.Cells = slices.Clone(o.Cells)
		o.cow = false
	}
	return o.Cells
}

type Frame struct {
	Fn        *program.Func
	PC        int
	Vars      map[string]*Object
	Ret       *Loc // where the caller stores the result, nil if nowhere
	Atomic    bool // the activation of an atomic function: returning ends a section
	BackEdges map[program.Label]int
}

type Thread struct {
	ID     int
	Frames []*Frame
	Ended  bool
	// Result is what the thread's start function returned or it passed
	// to pthread_exit (a null pointer until then, and after an implicit
	// return): what a Join with a Lhs stores.
	Result program.Value
	Atomic int // nesting depth of atomic sections
	// Fresh is set while the thread is in an atomic section that its last
	// executed step entered (the call of an atomic function, an
	// atomic_begin) and in which it has executed nothing yet. Such a
	// thread does not hold the section: entering has no effect other
	// threads can see (a call's arguments are evaluated before the
	// callee's body), so the section may as well start at its first inner
	// step, and a thread that waits there (an assume(MTX == 0) that opens
	// the section, as in the SV-COMP lock idiom) lets the others run, as
	// for a lock.
	Fresh   bool
	Stopped string // Simulate: why the thread was stopped (bounds), "" if not
}

func (t *Thread) Top() *Frame {
	if len(t.Frames) == 0 {
		return nil
	}
	return t.Frames[len(t.Frames)-1]
}

// Current returns the instruction the thread executes next, or nil.
func (t *Thread) Current() *program.Instr {
	f := t.Top()
	if t.Ended || f == nil || f.PC >= len(f.Fn.Body) {
		return nil
	}
	return f.Fn.Body[f.PC]
}

type Machine struct {
	p       *program.Program
	Objs    map[string]*Object
	Globals map[string]*Object
	Heaps   []*Object // heap#1 is heaps[0]
	Threads []*Thread
	acts    int // activations created, for unique local ids
	// Observe, when set, is told of every cell a step reads or writes, in
	// the order of the accesses (interp.Observe: the reads of a trace and
	// where their values were written); nil for the searches.
	Observe func(Access)
}

// Access is a read or a write of one scalar cell (Machine.Observe).
type Access struct {
	Obj   *Object
	Cell  int64
	Loc   string        // as program.Write.Loc: the object's name and the cell's path
	Val   program.Value // the value read or written, as in runs (External)
	Write bool
}

// ExecError is an execution error of the program (an invalid memory access
// and the like), which ends the execution. It is not a property violation.
type ExecError struct {
	Step   int // index in the run
	Thread int
	Label  program.Label
	Msg    string
}

func (e *ExecError) Error() string {
	return fmt.Sprintf("execution error at step %d (thread %d, %s): %s", e.Step, e.Thread, e.Label, e.Msg)
}

// execPanic carries an execution error out of expression evaluation.
type execPanic struct{ msg string }

func fail(format string, args ...any) {
	panic(execPanic{fmt.Sprintf(format, args...)})
}

func New(p *program.Program) (*Machine, error) {
	m := &Machine{p: p, Objs: map[string]*Object{}, Globals: map[string]*Object{}}
	for _, g := range p.Globals {
		n := g.Type.Cells()
		if n > maxCells {
			return nil, program.Errorf(program.Unsupported, "global %s has %d cells, more than the interpreter supports", g.Name, n)
		}
		o := &Object{ID: g.Name, Name: g.Name, typ: g.Type, Cells: make([]program.Value, n), Alive: true}
		m.Objs[o.ID] = o
		m.Globals[g.Name] = o
	}
	// initialisers may take addresses of other globals: create all first
	for _, g := range p.Globals {
		if g.Init == nil {
			continue
		}
		o := m.Globals[g.Name]
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					if ep, ok := r.(execPanic); ok {
						err = program.Errorf(program.Internal, "initialiser of %s: %s", g.Name, ep.msg)
						return
					}
					panic(r)
				}
			}()
			c := &ctx{m: m, nd: zeroSource{}}
			m.initCells(c, o, 0, g.Type, g.Init)
		}()
		if err != nil {
			return nil, err
		}
	}
	main := p.Func("main")
	if main == nil {
		return nil, program.Errorf(program.Internal, "program has no main function")
	}
	t := &Thread{ID: 0}
	m.Threads = append(m.Threads, t)
	m.push(t, main, nil)
	m.settle(t)
	return m, nil
}

// initCells writes the constant initialiser e of type t at cell off of o.
func (m *Machine) initCells(c *ctx, o *Object, off int64, t *program.Type, e program.Expr) {
	if comp, ok := e.(*program.Compound); ok {
		switch t.Kind {
		case program.Array:
			ec := t.Elem.Cells()
			for i, x := range comp.Elems {
				if int64(i) >= t.Len {
					break
				}
				m.initCells(c, o, off+int64(i)*ec, t.Elem, x)
			}
		case program.Struct, program.Union:
			if t.Kind == program.Union && t.Store > 0 {
				x, ok := program.StorageInit(t, comp)
				if !ok {
					fail("initialiser of union %s: not a constant", t.Name)
				}
				m.initCells(c, o, off, t.Fields[t.Store-1].Type, x)
				break
			}
			for i, x := range comp.Elems {
				if i >= len(t.Fields) || (t.Kind == program.Union && i > 0) {
					break
				}
				m.initCells(c, o, off+t.FieldCell(i), t.Fields[i].Type, x)
			}
		default:
			if len(comp.Elems) > 0 {
				m.initCells(c, o, off, t, comp.Elems[0])
			}
		}
		return
	}
	if !t.IsScalar() {
		cells := c.cells(e)
		copy(o.Writable()[off:], cells)
		return
	}
	o.Writable()[off] = Normalize(t, c.rvalue(e))
}

// push creates an activation of f on t.
func (m *Machine) push(t *Thread, f *program.Func, ret *Loc) *Frame {
	m.acts++
	fr := &Frame{Fn: f, Vars: map[string]*Object{}, Ret: ret}
	for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
		n := v.Type.Cells()
		if n > maxCells {
			fail("local %s::%s has %d cells, more than the interpreter supports", f.Name, v.Name, n)
		}
		o := &Object{
			ID:    fmt.Sprintf("%s::%s@%d", f.Name, v.Name, m.acts),
			Name:  f.Name + "::" + v.Name,
			typ:   v.Type,
			Cells: make([]program.Value, n),
			Alive: true,
		}
		m.Objs[o.ID] = o
		fr.Vars[v.Name] = o
	}
	if f.Atomic {
		fr.Atomic = true
		t.Atomic++
	}
	t.Frames = append(t.Frames, fr)
	return fr
}

// pop ends the top activation of t.
func (m *Machine) pop(t *Thread) {
	fr := t.Top()
	t.Frames = t.Frames[:len(t.Frames)-1]
	if fr.Atomic && t.Atomic > 0 {
		t.Atomic--
	}
	keep := t.ID == 0 && len(t.Frames) == 0 // main's locals outlive main
	if !keep {
		for _, o := range fr.Vars {
			o.Alive = false
		}
	}
	if len(t.Frames) == 0 {
		m.end(t)
	}
}

// end terminates t.
func (m *Machine) end(t *Thread) {
	for len(t.Frames) > 0 {
		m.pop(t)
	}
	t.Ended = true
	t.Atomic = 0
}

// settle performs the implicit returns of activations whose body has run
// to its end. Writes made by them are returned.
func (m *Machine) settle(t *Thread) []program.Write {
	var ws []program.Write
	for !t.Ended {
		fr := t.Top()
		if fr == nil {
			t.Ended = true
			break
		}
		if fr.PC < len(fr.Fn.Body) {
			break
		}
		ret := fr.Ret
		m.pop(t)
		if ret != nil && !t.Ended {
			c := &ctx{m: m, t: t}
			c.storeScalar(*ret, program.Value{}, nil)
			ws = append(ws, c.writes...)
		}
	}
	return ws
}

// External converts an internal value to the form used in runs.
func (m *Machine) External(v program.Value) program.Value {
	if v.Obj == "" || strings.HasPrefix(v.Obj, "fn:") {
		return v
	}
	if o := m.Objs[v.Obj]; o != nil {
		return program.Value{Bits: v.Bits, Obj: o.Name, Off: v.Off}
	}
	return v
}

// Internal resolves a nondet value given in a run (pointer objects by
// display name) for thread t.
func (m *Machine) Internal(v program.Value, t *Thread) (program.Value, error) {
	if v.Obj == "" || strings.HasPrefix(v.Obj, "fn:") {
		if strings.HasPrefix(v.Obj, "fn:") && m.p.Func(v.Obj[3:]) == nil {
			return v, fmt.Errorf("pointer to unknown function %s", v.Obj[3:])
		}
		return v, nil
	}
	if o := m.Globals[v.Obj]; o != nil {
		return program.Value{Bits: v.Bits, Obj: o.ID, Off: v.Off}, nil
	}
	if strings.HasPrefix(v.Obj, "heap#") {
		var n int
		if _, err := fmt.Sscanf(v.Obj, "heap#%d", &n); err == nil && n >= 1 && n <= len(m.Heaps) {
			return program.Value{Bits: v.Bits, Obj: m.Heaps[n-1].ID, Off: v.Off}, nil
		}
		return dangling(v), nil
	}
	if i := strings.Index(v.Obj, "::"); i > 0 {
		fn, name := v.Obj[:i], v.Obj[i+2:]
		try := func(th *Thread) *Object {
			for k := len(th.Frames) - 1; k >= 0; k-- {
				if fr := th.Frames[k]; fr.Fn.Name == fn && fr.Vars[name] != nil {
					return fr.Vars[name]
				}
			}
			return nil
		}
		o := try(t)
		for _, th := range m.Threads {
			if o == nil {
				o = try(th)
			}
		}
		if o != nil {
			return program.Value{Bits: v.Bits, Obj: o.ID, Off: v.Off}, nil
		}
	}
	return dangling(v), nil
}

// dangling is a pointer value to an object that does not exist (now): a
// local of no active call, a heap block not allocated (yet), an object the
// program does not have. An indeterminate pointer (a Decl's value, an
// uninitialised heap cell) may hold one, as a backend's model may choose;
// the value can be copied and compared, and any access through it is an
// execution error.
func dangling(v program.Value) program.Value {
	return program.Value{Bits: v.Bits, Obj: "dangling:" + v.Obj, Off: v.Off}
}

// Final returns the contents of globals and live heap blocks by location.
func (m *Machine) Final() map[string]program.Value {
	out := map[string]program.Value{}
	add := func(o *Object) {
		for i, v := range o.Cells {
			out[o.Name+o.typ.CellPath(int64(i))] = m.External(v)
		}
	}
	for _, g := range m.p.Globals {
		add(m.Globals[g.Name])
	}
	for _, h := range m.Heaps {
		if h.Alive {
			add(h)
		}
	}
	return out
}

// AtomicOwner returns the thread (other than t) inside an atomic section,
// or nil.
func (m *Machine) AtomicOwner(t *Thread) *Thread {
	for _, u := range m.Threads {
		if u != t && !u.Ended && u.Atomic > 0 {
			return u
		}
	}
	return nil
}

// AtomicHolder is atomicOwner for Replay: a thread that has entered a
// section and executed nothing in it (fresh) does not hold it.
func (m *Machine) AtomicHolder(t *Thread) *Thread {
	for _, u := range m.Threads {
		if u != t && !u.Ended && u.Atomic > 0 && !u.Fresh {
			return u
		}
	}
	return nil
}

// Clone returns a deep copy of m (dead locals are left out: any access
// through a pointer to one is an error either way).
func (m *Machine) Clone() *Machine {
	n := &Machine{p: m.p, Objs: make(map[string]*Object, len(m.Objs)), Globals: make(map[string]*Object, len(m.Globals)), acts: m.acts}
	cp := make(map[*Object]*Object, len(m.Objs))
	// the copies in one allocation: every object m refers to is in
	// m.Objs, so the slab is large enough (a copy beyond it would be
	// allocated on its own)
	slab := make([]Object, 0, len(m.Objs))
	get := func(o *Object) *Object {
		if o == nil {
			return nil
		}
		if c, ok := cp[o]; ok {
			return c
		}
		// the cells are shared until the copy writes them: m is not
		// written once cloned (a state's successors are its clones)
		var c *Object
		if len(slab) < cap(slab) {
			slab = append(slab, Object{})
			c = &slab[len(slab)-1]
		} else {
			c = new(Object)
		}
		*c = Object{ID: o.ID, Name: o.Name, typ: o.typ, Cells: o.Cells, cow: true, Alive: o.Alive, Heap: o.Heap, elem: o.elem}
		cp[o] = c
		n.Objs[c.ID] = c
		return c
	}
	for name, o := range m.Globals {
		n.Globals[name] = get(o)
	}
	for _, h := range m.Heaps {
		n.Heaps = append(n.Heaps, get(h))
	}
	for _, o := range m.Objs {
		if o.Alive {
			get(o)
		}
	}
	for _, t := range m.Threads {
		nt := &Thread{ID: t.ID, Ended: t.Ended, Result: t.Result, Atomic: t.Atomic, Fresh: t.Fresh, Stopped: t.Stopped}
		for _, fr := range t.Frames {
			nf := &Frame{Fn: fr.Fn, PC: fr.PC, Vars: make(map[string]*Object, len(fr.Vars)), Atomic: fr.Atomic}
			for k, o := range fr.Vars {
				nf.Vars[k] = get(o)
			}
			if fr.Ret != nil {
				l := *fr.Ret
				l.Obj = get(l.Obj)
				nf.Ret = &l
			}
			if len(fr.BackEdges) > 0 {
				nf.BackEdges = maps.Clone(fr.BackEdges)
			}
			nt.Frames = append(nt.Frames, nf)
		}
		n.Threads = append(n.Threads, nt)
	}
	return n
}

// Eval evaluates e, which draws nothing, in t's top frame without changing
// anything; an execution error is returned as *ExecError.
func (m *Machine) Eval(t *Thread, e program.Expr) (v program.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, ok := r.(execPanic)
			if !ok {
				panic(r)
			}
			err = &ExecError{Thread: t.ID, Msg: p.msg}
		}
	}()
	c := &ctx{m: m, t: t, fr: t.Top(), nd: zeroSource{}}
	return c.rvalue(e), nil
}

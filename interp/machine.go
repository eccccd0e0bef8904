// Package interp executes programs of package program concretely, with the
// semantics stated in program/doc.go: it replays runs produced by backends
// (Replay), which is how every UNSAFE verdict is confirmed before it is
// reported, and it produces random executions (Simulate) for tests that
// compare the symbolic backends with concrete behaviour.
//
// Memory is a set of objects (globals, the parameters and locals of each
// activation, heap blocks), each a flat sequence of scalar cells laid out by
// program.Type.Cells. A pointer is an object and a cell offset. Accessing a
// cell outside its object, through NULL or an integer address, through a
// dangling pointer (a freed heap block or a returned activation), or
// indexing an array out of its bounds is an execution error: the execution
// stops there and the error is reported as such, never as a property
// violation.
//
// Choices that C leaves open are fixed as follows (backends must agree for
// their runs to replay):
//   - The lvalue receiving a call's result is evaluated when the Call step
//     executes (its Nondet values are drawn by the Call step); the Return
//     step of the callee stores into it and records that store.
//   - A function whose body ends without a Return returns implicitly right
//     after its last instruction executes (no step of its own), storing 0
//     into the caller's lvalue if any.
//   - Params of a called or spawned function are stored by the Call/Spawn
//     step and recorded as its writes ("<func>::<param>").
//   - Decl and Alloc record the initial contents of every cell as writes.
//   - A Nondet of aggregate type draws one value that fills every cell.
//   - The locals of main stay valid after main has returned (other threads
//     continue and may still use them); those of other threads and of
//     returned calls become dangling.
package interp

import (
	"fmt"
	"slices"
	"strings"

	"cegpv.dev/cegpv/program"
)

// maxCells bounds the size of one object the interpreter will allocate.
const maxCells = 1 << 20

type object struct {
	id    string // unique within the execution; the Obj of internal pointer values
	name  string // display name used in runs: "x", "f::x", "heap#3"
	typ   *program.Type
	cells []program.Value
	alive bool
	heap  bool
	// cow: cells is shared with the object this one was cloned from
	// (Explore's states); writable() copies it before the first write
	cow bool
}

// writable returns o's cells, copied first if they are shared.
func (o *object) writable() []program.Value {
	if o.cow {
		o.cells = slices.Clone(o.cells)
		o.cow = false
	}
	return o.cells
}

type frame struct {
	fn        *program.Func
	pc        int
	vars      map[string]*object
	ret       *loc // where the caller stores the result, nil if nowhere
	atomic    bool // the activation of an atomic function: returning ends a section
	backEdges map[program.Label]int
}

type thread struct {
	id     int
	frames []*frame
	ended  bool
	// result is what the thread's start function returned or it passed
	// to pthread_exit (a null pointer until then, and after an implicit
	// return): what a Join with a Lhs stores.
	result program.Value
	atomic int // nesting depth of atomic sections
	// fresh is set while the thread is in an atomic section that its last
	// executed step entered (the call of an atomic function, an
	// atomic_begin) and in which it has executed nothing yet. Such a
	// thread does not hold the section: entering has no effect other
	// threads can see (a call's arguments are evaluated before the
	// callee's body), so the section may as well start at its first inner
	// step, and a thread that waits there (an assume(MTX == 0) that opens
	// the section, as in the SV-COMP lock idiom) lets the others run, as
	// for a lock.
	fresh   bool
	stopped string // Simulate: why the thread was stopped (bounds), "" if not
}

func (t *thread) top() *frame {
	if len(t.frames) == 0 {
		return nil
	}
	return t.frames[len(t.frames)-1]
}

// current returns the instruction the thread executes next, or nil.
func (t *thread) current() *program.Instr {
	f := t.top()
	if t.ended || f == nil || f.pc >= len(f.fn.Body) {
		return nil
	}
	return f.fn.Body[f.pc]
}

type machine struct {
	p       *program.Program
	objs    map[string]*object
	globals map[string]*object
	heaps   []*object // heap#1 is heaps[0]
	threads []*thread
	acts    int // activations created, for unique local ids
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

func newMachine(p *program.Program) (*machine, error) {
	m := &machine{p: p, objs: map[string]*object{}, globals: map[string]*object{}}
	for _, g := range p.Globals {
		n := g.Type.Cells()
		if n > maxCells {
			return nil, program.Errorf(program.Unsupported, "global %s has %d cells, more than the interpreter supports", g.Name, n)
		}
		o := &object{id: g.Name, name: g.Name, typ: g.Type, cells: make([]program.Value, n), alive: true}
		m.objs[o.id] = o
		m.globals[g.Name] = o
	}
	// initialisers may take addresses of other globals: create all first
	for _, g := range p.Globals {
		if g.Init == nil {
			continue
		}
		o := m.globals[g.Name]
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
	t := &thread{id: 0}
	m.threads = append(m.threads, t)
	m.push(t, main, nil)
	m.settle(t)
	return m, nil
}

// initCells writes the constant initialiser e of type t at cell off of o.
func (m *machine) initCells(c *ctx, o *object, off int64, t *program.Type, e program.Expr) {
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
		copy(o.writable()[off:], cells)
		return
	}
	o.writable()[off] = normalize(t, c.rvalue(e))
}

// push creates an activation of f on t.
func (m *machine) push(t *thread, f *program.Func, ret *loc) *frame {
	m.acts++
	fr := &frame{fn: f, vars: map[string]*object{}, ret: ret}
	for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
		n := v.Type.Cells()
		if n > maxCells {
			fail("local %s::%s has %d cells, more than the interpreter supports", f.Name, v.Name, n)
		}
		o := &object{
			id:    fmt.Sprintf("%s::%s@%d", f.Name, v.Name, m.acts),
			name:  f.Name + "::" + v.Name,
			typ:   v.Type,
			cells: make([]program.Value, n),
			alive: true,
		}
		m.objs[o.id] = o
		fr.vars[v.Name] = o
	}
	if f.Atomic {
		fr.atomic = true
		t.atomic++
	}
	t.frames = append(t.frames, fr)
	return fr
}

// pop ends the top activation of t.
func (m *machine) pop(t *thread) {
	fr := t.top()
	t.frames = t.frames[:len(t.frames)-1]
	if fr.atomic && t.atomic > 0 {
		t.atomic--
	}
	keep := t.id == 0 && len(t.frames) == 0 // main's locals outlive main
	if !keep {
		for _, o := range fr.vars {
			o.alive = false
		}
	}
	if len(t.frames) == 0 {
		m.end(t)
	}
}

// end terminates t.
func (m *machine) end(t *thread) {
	for len(t.frames) > 0 {
		m.pop(t)
	}
	t.ended = true
	t.atomic = 0
}

// settle performs the implicit returns of activations whose body has run
// to its end. Writes made by them are returned.
func (m *machine) settle(t *thread) []program.Write {
	var ws []program.Write
	for !t.ended {
		fr := t.top()
		if fr == nil {
			t.ended = true
			break
		}
		if fr.pc < len(fr.fn.Body) {
			break
		}
		ret := fr.ret
		m.pop(t)
		if ret != nil && !t.ended {
			c := &ctx{m: m, t: t}
			c.storeScalar(*ret, program.Value{}, nil)
			ws = append(ws, c.writes...)
		}
	}
	return ws
}

// external converts an internal value to the form used in runs.
func (m *machine) external(v program.Value) program.Value {
	if v.Obj == "" || strings.HasPrefix(v.Obj, "fn:") {
		return v
	}
	if o := m.objs[v.Obj]; o != nil {
		return program.Value{Bits: v.Bits, Obj: o.name, Off: v.Off}
	}
	return v
}

// internal resolves a nondet value given in a run (pointer objects by
// display name) for thread t.
func (m *machine) internal(v program.Value, t *thread) (program.Value, error) {
	if v.Obj == "" || strings.HasPrefix(v.Obj, "fn:") {
		if strings.HasPrefix(v.Obj, "fn:") && m.p.Func(v.Obj[3:]) == nil {
			return v, fmt.Errorf("pointer to unknown function %s", v.Obj[3:])
		}
		return v, nil
	}
	if o := m.globals[v.Obj]; o != nil {
		return program.Value{Bits: v.Bits, Obj: o.id, Off: v.Off}, nil
	}
	if strings.HasPrefix(v.Obj, "heap#") {
		var n int
		if _, err := fmt.Sscanf(v.Obj, "heap#%d", &n); err == nil && n >= 1 && n <= len(m.heaps) {
			return program.Value{Bits: v.Bits, Obj: m.heaps[n-1].id, Off: v.Off}, nil
		}
		return dangling(v), nil
	}
	if i := strings.Index(v.Obj, "::"); i > 0 {
		fn, name := v.Obj[:i], v.Obj[i+2:]
		try := func(th *thread) *object {
			for k := len(th.frames) - 1; k >= 0; k-- {
				if fr := th.frames[k]; fr.fn.Name == fn && fr.vars[name] != nil {
					return fr.vars[name]
				}
			}
			return nil
		}
		o := try(t)
		for _, th := range m.threads {
			if o == nil {
				o = try(th)
			}
		}
		if o != nil {
			return program.Value{Bits: v.Bits, Obj: o.id, Off: v.Off}, nil
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

// final returns the contents of globals and live heap blocks by location.
func (m *machine) final() map[string]program.Value {
	out := map[string]program.Value{}
	add := func(o *object) {
		for i, v := range o.cells {
			out[o.name+o.typ.CellPath(int64(i))] = m.external(v)
		}
	}
	for _, g := range m.p.Globals {
		add(m.globals[g.Name])
	}
	for _, h := range m.heaps {
		if h.alive {
			add(h)
		}
	}
	return out
}

// atomicOwner returns the thread (other than t) inside an atomic section,
// or nil.
func (m *machine) atomicOwner(t *thread) *thread {
	for _, u := range m.threads {
		if u != t && !u.ended && u.atomic > 0 {
			return u
		}
	}
	return nil
}

// atomicHolder is atomicOwner for Replay: a thread that has entered a
// section and executed nothing in it (fresh) does not hold it.
func (m *machine) atomicHolder(t *thread) *thread {
	for _, u := range m.threads {
		if u != t && !u.ended && u.atomic > 0 && !u.fresh {
			return u
		}
	}
	return nil
}

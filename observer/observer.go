package observer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// Refine returns A' = a minus the runs of a that stay inside the prefix
// tree G_R of the spurious runs (see the package documentation), and the
// Map from runs of A' back to runs of a. visible is the visible set of the
// abstraction (program.Visible): every other label must be a Skip.
// spurious are runs of a (they are replayed on a; the values they store are
// recomputed). a is not modified.
//
// Errors: Unsupported when the state at some node of G_R cannot be restored
// (a thread inside a called function, heap blocks, pointers to locals of
// other threads) or a deviation cannot be expressed; Internal when a run
// does not replay on a.
func Refine(a *program.Program, visible map[program.Label]bool, spurious []*program.Run) (*program.Program, *Map, error) {
	b, err := refine(a, visible, spurious)
	if err != nil {
		return nil, nil, err
	}
	return b.ap, b.m, nil
}

func refine(a *program.Program, visible map[program.Label]bool, spurious []*program.Run) (*builder, error) {
	b := &builder{a: a, visible: visible, ix: program.NewIndex(a), taken: map[string]bool{}, pools: map[string]*program.Ref{},
		used: map[program.Label]bool{}, lv: map[string]*liveVars{}}
	for _, f := range a.Funcs {
		for _, in := range f.Body {
			if !visible[in.Label] && in.Op != program.OpSkip {
				return nil, program.Errorf(program.Unsupported, "observer: invisible label %s is not a skip (use program.Visible)", in.Label)
			}
		}
	}
	if len(spurious) == 0 {
		b.ap, b.m = program.Clone(a), &Map{identity: true}
		return b, nil
	}
	if a.Func("main") == nil {
		return nil, program.Errorf(program.Internal, "observer: no main function")
	}
	for _, r := range spurious {
		ri, err := b.analyse(r)
		if err != nil {
			return nil, err
		}
		b.runs = append(b.runs, ri)
	}
	b.buildTree()
	for _, n := range b.nodes {
		st, err := b.lazy(n)
		if err != nil {
			return nil, err
		}
		n.st = st
	}
	for _, n := range b.nodes {
		for k := range n.st.pc {
			x, err := b.classify(n, k)
			if err != nil {
				return nil, err
			}
			if x != nil {
				b.exits = append(b.exits, x)
			}
		}
	}
	if err := b.emit(); err != nil {
		return nil, err
	}
	return b, nil
}

type builder struct {
	a       *program.Program
	visible map[program.Label]bool
	ix      *program.LabelIndex
	runs    []*rinfo
	nodes   []*node
	exits   []*exit

	ap       *program.Program
	m        *Map
	taken    map[string]bool
	used     map[program.Label]bool
	pools    map[string]*program.Ref
	poolSet  []*program.Instr
	vars     map[string]*program.Ref
	lv       map[string]*liveVars // see live
	addrs    map[string]bool      // see takenAddrs
	tables   map[string]*program.Ref
	fns      map[string]*fnInfo
	rowParam map[string]*program.Ref          // called functions with a controller: their row parameter (in A')
	apInstr  map[program.Label]*program.Instr // the instructions of A' before the controllers are added
}

// addrTaken reports whether the function name is used other than as the
// callee of a call or spawn (as a function pointer).
func (b *builder) addrTaken(name string) bool {
	found := false
	for _, f := range b.a.Funcs {
		for _, in := range f.Body {
			var es []program.Expr
			for _, e := range []program.Expr{in.Lhs, in.Rhs} {
				if e != nil {
					es = append(es, e)
				}
			}
			es = append(es, in.Args...)
			if in.Func != nil {
				if _, ok := in.Func.(*program.FuncRef); !ok {
					es = append(es, in.Func)
				}
			}
			for _, e := range es {
				program.Walk(e, func(x program.Expr) bool {
					if r, ok := x.(*program.FuncRef); ok && r.Name == name {
						found = true
					}
					return !found
				})
			}
		}
	}
	for _, g := range b.a.Globals {
		program.Walk(g.Init, func(x program.Expr) bool {
			if r, ok := x.(*program.FuncRef); ok && r.Name == name {
				found = true
			}
			return !found
		})
	}
	return found
}

// exit is a way out of G_R: at node n, thread t takes the step e whose
// outcome is not a child of n.
type exit struct {
	n       *node
	t       int
	fn      *program.Func // t's function in A
	pending []program.Label
	sp      *spec
}

// spec describes the copy of the deviating step e that a controller runs.
type spec struct {
	fn     *program.Func
	e      *program.Instr
	idx    int  // position of e in fn.Body
	depth  int  // atomic sections of the thread at the node, other than calls of atomic functions
	frame  int  // depth of e's activation in the thread's call stack (0: the start function)
	own    bool // the thread is in no atomic section: the deviation opens one of its own
	ending bool // e is the skip after which the thread ends (or returns from its function)
	// Goto: the allowed next positions (nil for other ops)
	pcs map[int]bool
	// Assert: the allowed outcomes
	pass, fail bool
	// Assign, Decl: the cells compared and, per child of the node, their
	// values after the child's step (a copy with those values is cut)
	watch  []program.Expr
	forbid [][]tok
	// Return of a value from a called function: forbid holds the values
	// the children store into the caller's lhs; the copy computes the
	// value into a local first
	ret bool
	// closeIn: e calls this function (not atomic) from the deviation's own
	// section, which the callee's controller closes (row -1)
	closeIn string
	key     string
	id      int // position in the function's spec list, from 1
}

// nondet reports whether the instruction can have several outcomes from
// one configuration.
func nondet(in *program.Instr) bool {
	switch in.Op {
	case program.OpDecl, program.OpAlloc, program.OpRealloc:
		return true
	case program.OpGoto:
		if len(in.Targets) > 1 {
			return true
		}
	}
	for _, e := range in.Operands() {
		if program.HasNondet(e) {
			return true
		}
	}
	return false
}

// classify returns the exit of node n through thread k, or nil when k
// cannot leave G_R at n.
func (b *builder) classify(n *node, k int) (*exit, error) {
	st := n.st
	pc := st.pc[k]
	if pc < 0 || n.failed {
		// an ended thread cannot move; a run through a failed assertion of
		// R is spurious whatever follows (no run of P fails there)
		return nil, nil
	}
	for u, t := range st.cfg.Threads {
		if u != k && !t.Ended && t.Atomic > 0 {
			return nil, nil // only u may move
		}
	}
	f := b.a.Func(st.top(k))
	j := pc
	for j < len(f.Body) && !b.visible[f.Body[j].Label] {
		j++
	}
	ending := false
	if j == len(f.Body) {
		j--
		ending = true
	}
	e := f.Body[j]
	x := &exit{n: n, t: k, fn: f}
	for _, in := range f.Body[pc:j] {
		x.pending = append(x.pending, in.Label)
	}
	var kids []*node
	for _, c := range n.order {
		kid := b.nodes[c]
		if kid.via != k {
			continue
		}
		if l := b.runs[kid.run].run.Steps[kid.at].Label; l != e.Label {
			return nil, program.Errorf(program.Internal, "observer: thread %d's next tree-visible step is %s, a run of R has %s", k, e.Label, l)
		}
		kids = append(kids, kid)
	}
	frame := len(st.frames[k]) - 1
	depth := st.cfg.Threads[k].Atomic
	for _, fr := range st.frames[k] {
		if b.a.Func(fr.fn).Atomic {
			depth-- // the call of an atomic function is a section of its own
		}
	}
	if depth < 0 {
		return nil, program.Errorf(program.Internal, "observer: thread %d has fewer atomic sections than atomic frames", k)
	}
	sp := &spec{fn: f, e: e, idx: j, depth: depth, frame: frame, own: st.cfg.Threads[k].Atomic == 0, ending: ending}
	x.sp = sp
	if len(kids) == 0 {
		return x, b.plain(sp)
	}
	if ending || !nondet(e) {
		if len(kids) > 1 {
			return nil, program.Errorf(program.Internal, "observer: deterministic step %s has %d different outcomes in R", e.Label, len(kids))
		}
		return nil, nil
	}
	info := func(kid *node) sinfo { return b.runs[kid.run].steps[kid.at] }
	switch e.Op {
	case program.OpGoto:
		sp.pcs = map[int]bool{}
		for _, t := range e.Targets {
			sp.pcs[f.Index(t)] = true
		}
		if e.Rhs != nil {
			sp.pcs[j+1] = true
		}
		for _, kid := range kids {
			post := info(kid).post
			parts := strings.Split(post, ":")
			if len(parts) != 3 || parts[0] != f.Name {
				return nil, program.Errorf(program.Internal, "observer: goto %s leads to %s", e.Label, post)
			}
			p, _ := strconv.Atoi(parts[1])
			delete(sp.pcs, p)
		}
		if len(sp.pcs) == 0 {
			return nil, nil
		}
	case program.OpAssert:
		sp.pass, sp.fail = true, true
		for _, kid := range kids {
			if info(kid).fail {
				sp.fail = false
			} else {
				sp.pass = false
			}
		}
		if !sp.pass && !sp.fail {
			return nil, nil
		}
	case program.OpAssume:
		return nil, nil // its only outcome is to pass
	case program.OpAssign, program.OpDecl:
		if b.deadStore(f, j) {
			return nil, nil // every outcome is equivalent to the child's
		}
		if err := b.watch(sp, n, k, kids); err != nil {
			return nil, err
		}
	case program.OpReturn:
		if frame == 0 {
			return nil, nil // the thread ends; the value goes nowhere
		}
		caller := st.frames[k][frame-1]
		cf := b.a.Func(caller.fn)
		call := cf.Body[caller.pc-1]
		if call.Lhs == nil {
			return nil, nil // the value is dropped
		}
		r, ok := call.Lhs.(*program.Ref)
		if !ok || !r.Local || !program.Identical(r.T, f.Result) || !r.T.IsScalar() {
			return nil, &program.Error{Kind: program.Unsupported, Pos: e.Pos,
				Err: fmt.Errorf("observer: the tree leaves %s through one of several return values, stored into %s", e.Label, program.ExprString(call.Lhs))}
		}
		if !b.live(caller.fn, caller.pc, r.Name) {
			return nil, nil // the value is dead in the caller
		}
		for _, kid := range kids {
			post := b.runs[kid.run].cfg[kid.at+1]
			v := post.Threads[k].Frames[frame-1].Vars[r.Name][0]
			t, err := tokOf(v, r.T, k, frame-1)
			if err != nil {
				return nil, err
			}
			if t.kind == 's' {
				return nil, &program.Error{Kind: program.Unsupported, Pos: e.Pos, Err: fmt.Errorf("observer: %s returns a pointer to a local of its caller", e.Label)}
			}
			sp.forbid = append(sp.forbid, []tok{t})
		}
		sp.ret = true
	default:
		return nil, &program.Error{Kind: program.Unsupported, Pos: e.Pos,
			Err: fmt.Errorf("observer: the tree leaves %s (%s) through one of several outcomes; only assignments, declarations, gotos, assertions and returns can be constrained", e.Label, e.Op)}
	}
	return x, b.finish(sp)
}

// plain completes the spec of an unconstrained copy.
func (b *builder) plain(sp *spec) error {
	if sp.e.Op == program.OpGoto && !sp.ending {
		sp.pcs = map[int]bool{}
		for _, t := range sp.e.Targets {
			sp.pcs[sp.fn.Index(t)] = true
		}
		if sp.e.Rhs != nil {
			sp.pcs[sp.idx+1] = true
		}
	}
	if sp.e.Op == program.OpAssert {
		sp.pass, sp.fail = true, true
	}
	return b.finish(sp)
}

func (b *builder) finish(sp *spec) error {
	e := sp.e
	if !sp.ending {
		switch e.Op {
		case program.OpAlloc, program.OpRealloc:
			return &program.Error{Kind: program.Unsupported, Pos: e.Pos, Err: fmt.Errorf("observer: deviation at the allocation %s (the heap is not restored)", e.Label)}
		case program.OpCall:
			fr, ok := e.Func.(*program.FuncRef)
			if !ok || b.a.Func(fr.Name) == nil {
				return &program.Error{Kind: program.Unsupported, Pos: e.Pos,
					Err: fmt.Errorf("observer: deviation at the call %s through a function pointer", e.Label)}
			}
			if sp.own && !b.a.Func(fr.Name).Atomic {
				// the copy runs inside the deviation's section: the callee
				// closes it first thing (row -1), so it needs a controller
				sp.closeIn = fr.Name
			}
		}
	}
	var pcs []int
	for p := range sp.pcs {
		pcs = append(pcs, p)
	}
	sort.Ints(pcs)
	var fb strings.Builder
	for _, row := range sp.forbid {
		fb.WriteByte('[')
		for _, t := range row {
			fb.WriteString(t.String() + " ")
		}
		fb.WriteByte(']')
	}
	sp.key = fmt.Sprintf("%s|d%d|f%d|%v|%v|%v|%v%v|%v|%s|%s", e.Label, sp.depth, sp.frame, sp.own, sp.ending, pcs, sp.pass, sp.fail, sp.ret, sp.closeIn, fb.String())
	return nil
}

// deadStore reports whether instruction j of f (an Assign or Decl) stores
// only into a local that is dead after it.
func (b *builder) deadStore(f *program.Func, j int) bool {
	in := f.Body[j]
	name := in.Var
	if in.Op == program.OpAssign {
		r := program.BaseRef(in.Lhs)
		if r == nil || !r.Local {
			return false
		}
		name = r.Name
	}
	return f.Var(name) != nil && !b.live(f.Name, j+1, name)
}

// watch sets the cells an Assign or Decl of thread k writes and their
// values after each child step.
func (b *builder) watch(sp *spec, n *node, k int, kids []*node) error {
	e := sp.e
	var root *program.Ref
	var cells []int64
	switch {
	case e.Op == program.OpDecl:
		v := sp.fn.Var(e.Var)
		root = &program.Ref{Name: v.Name, Local: true, T: v.Type}
	case !program.HasNondet(e.Lhs) && e.Lhs.Type().IsScalar():
		sp.watch = []program.Expr{e.Lhs}
	default:
		x := e.Lhs
	walk:
		for {
			switch y := x.(type) {
			case *program.Ref:
				root = y
				break walk
			case *program.Index:
				x = y.X
			case *program.FieldSel:
				x = y.X
			default:
				return &program.Error{Kind: program.Unsupported, Pos: e.Pos,
					Err: fmt.Errorf("observer: the tree leaves %s through one of several stores whose location is not a variable", e.Label)}
			}
		}
	}
	if root != nil {
		for c := int64(0); c < root.T.Cells(); c++ {
			sp.watch = append(sp.watch, cellLvalue(root, root.T, c))
			cells = append(cells, c)
		}
	}
	for _, w := range sp.watch {
		if k := w.Type().Kind; k == program.Mutex || k == program.Cond {
			return &program.Error{Kind: program.Unsupported, Pos: e.Pos, Err: fmt.Errorf("observer: cannot compare the %s written at %s", w.Type(), e.Label)}
		}
	}
	for _, kid := range kids {
		ri := b.runs[kid.run]
		post := ri.cfg[kid.at+1]
		var row []tok
		if root == nil {
			s := ri.run.Steps[kid.at]
			if len(s.Assigned) != 1 {
				return program.Errorf(program.Internal, "observer: assignment %s made %d stores", e.Label, len(s.Assigned))
			}
			v, err := b.lookup(post, s.Assigned[0].Loc, k)
			if err != nil {
				return err
			}
			t, err := tokOf(v, e.Lhs.Type(), k, sp.frame)
			if err != nil {
				return err
			}
			row = append(row, t)
		} else {
			var vs []program.Value
			if root.Local {
				vs = post.Threads[k].Frames[sp.frame].Vars[root.Name]
			} else {
				vs = post.Globals[root.Name]
			}
			for _, c := range cells {
				t, err := tokOf(vs[c], root.T.CellType(c), k, sp.frame)
				if err != nil {
					return err
				}
				row = append(row, t)
			}
		}
		sp.forbid = append(sp.forbid, row)
	}
	return nil
}

// lookup returns the value of the location loc (in the form of
// program.Write) in configuration c, for a store made by thread k.
func (b *builder) lookup(c *interp.Config, loc string, k int) (program.Value, error) {
	obj := loc
	if i := strings.IndexAny(loc, "[."); i >= 0 {
		// "f::x[1]" and "s.f": the object name ends before the first [ or .
		// after the "::" of a local
		j := strings.Index(loc, "::")
		if j >= 0 && j < i {
			if i2 := strings.IndexAny(loc[j+2:], "[."); i2 >= 0 {
				i = j + 2 + i2
			} else {
				i = len(loc)
			}
		}
		obj = loc[:i]
	}
	path := loc[len(obj):]
	var t *program.Type
	var vals []program.Value
	if f, name, ok := strings.Cut(obj, "::"); ok {
		fv := b.a.Func(f)
		if fv == nil || fv.Var(name) == nil {
			return program.Value{}, program.Errorf(program.Internal, "observer: store into unknown %s", loc)
		}
		t = fv.Var(name).Type
		found := false
		fs := c.Threads[k].Frames
		for d := len(fs) - 1; d >= 0 && !found; d-- {
			if fs[d].Func == f {
				vals, found = fs[d].Vars[name], true
			}
		}
		switch {
		case found:
		case f == "main" && len(c.Threads[0].Frames) > 0:
			vals = c.Threads[0].Frames[0].Vars[name]
		case f == "main" && c.MainVars != nil:
			vals = c.MainVars[name]
		default:
			return program.Value{}, program.Errorf(program.Unsupported, "observer: store into %s, a local of another thread", loc)
		}
	} else {
		g := b.a.Global(obj)
		if g == nil {
			return program.Value{}, program.Errorf(program.Internal, "observer: store into unknown %s", loc)
		}
		t, vals = g.Type, c.Globals[obj]
	}
	for i := int64(0); i < t.Cells(); i++ {
		if t.CellPath(i) == path && int(i) < len(vals) {
			return vals[i], nil
		}
	}
	return program.Value{}, program.Errorf(program.Internal, "observer: no cell %s", loc)
}

package lazyseq

import (
	"fmt"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Options are the bounds of a sequentialisation.
type Options struct {
	Rounds  int // round-robin rounds over the thread instances (>= 1)
	Threads int // instances of a Spawn site other than one of main outside loops (>= 1)
	// Unwind bounds recursion as every engine does (docs/conventions.md,
	// Bounds): a thread has at most Unwind activations of one function at
	// a time; a call beyond is cut (>= 1).
	Unwind int
}

// MaxInstrs is the size of the sequential program past which
// Sequentialize gives up (Unsupported, naming the limit): calls are
// inlined, once per call site, thread instance and recursion depth.
const MaxInstrs = 1 << 20

// Map relates the sequential program to the program it came from.
type Map struct {
	steps map[program.Label]part
	slots []slot
	objs  map[string]bool // the input's globals and functions ("fn:" and the name)
}

// part says which step of the original program an instruction of the
// sequential program (re)plays: a new step of the slot's thread at Orig
// (First), or the continuation of the previous one, whose Nondet values
// it extends. Draws is how many values the instruction draws; Creates is
// the instance a Spawn step creates (-1: none).
type part struct {
	Slot    int
	Orig    program.Label
	First   bool
	Draws   int
	Creates int
}

type slot struct {
	fn   *program.Func
	site siteKey // the Spawn that creates it (zero for main)
	name string  // its function in the sequential program
}

// siteKey is a Spawn site and the start routine its instances run (a
// Spawn through a pointer has a site per possible routine).
type siteKey struct {
	label program.Label
	fn    string
}

// Instances returns the number of thread instances, main included.
func (m *Map) Instances() int { return len(m.slots) }

// Run maps a run of the sequential program to a run of the original one
// (see the package doc); replay the result on the original program.
func (m *Map) Run(r *program.Run) (*program.Run, error) {
	out := &program.Run{Violated: r.Violated}
	id := map[int]int{0: 0}
	n := 0
	pending := 0 // values the last mapped part drew (to pad a short list)
	for _, s := range r.Steps {
		pt, ok := m.steps[s.Label]
		if !ok {
			continue
		}
		vals := append([]program.Value(nil), s.Nondet...)
		for k, v := range vals {
			// A nondeterministic pointer (an uninitialised pointer
			// local) may point to an object that only the output has:
			// null in the input, any pointer being as good. A run that
			// depends on the choice does not replay.
			if v.Obj != "" && !strings.HasPrefix(v.Obj, "heap#") && !m.objs[v.Obj] {
				vals[k] = program.Value{}
			}
		}
		if pt.First {
			tid, ok := id[pt.Slot]
			if !ok {
				return nil, program.Errorf(program.Internal, "lazyseq: step %s of thread instance %d, which was not created", s.Label, pt.Slot)
			}
			out.Steps = append(out.Steps, program.Step{Thread: tid, Label: pt.Orig, Nondet: vals})
		} else {
			if len(out.Steps) == 0 || out.Steps[len(out.Steps)-1].Label != pt.Orig {
				return nil, program.Errorf(program.Internal, "lazyseq: %s continues a step of %s that did not begin", s.Label, pt.Orig)
			}
			last := &out.Steps[len(out.Steps)-1]
			for len(last.Nondet) < pending {
				last.Nondet = append(last.Nondet, program.Value{})
			}
			last.Nondet = append(last.Nondet, vals...)
		}
		pending = len(out.Steps[len(out.Steps)-1].Nondet)
		if pt.First {
			pending = 0
		}
		pending += pt.Draws
		if pt.Creates >= 0 {
			n++
			id[pt.Creates] = n
		}
	}
	return out, nil
}

const prefix = "__ls_"

type builder struct {
	p, q   *program.Program
	opts   Options
	m      *Map
	used   map[program.Label]bool
	next   map[string]int    // label base -> the suffix to try next (see label)
	sites  map[siteKey][]int // spawn site -> its instances
	counts map[siteKey]string
	names  map[string]bool
	taken  []*program.Func // functions whose address is taken: the targets of calls through pointers
	size   int             // instructions emitted so far

	atomic, nthreads *program.Ref
	stop             *program.Ref // drawn as an instance's function starts: the first point outside loops where it may switch out
	state            []instState
	locals           []map[string]string
	siteOrder        []siteKey
}

// Sequentialize returns the round-bounded sequentialisation of p and its
// Map (see the package doc). p is not modified.
func Sequentialize(p *program.Program, opts Options) (*program.Program, *Map, error) {
	if opts.Rounds < 1 || opts.Threads < 1 || opts.Unwind < 1 {
		return nil, nil, fmt.Errorf("lazyseq: rounds %d, threads %d and unwind %d must be at least 1", opts.Rounds, opts.Threads, opts.Unwind)
	}
	main := p.Func("main")
	if main == nil {
		return nil, nil, program.Errorf(program.Unsupported, "lazyseq: %s has no main", p.File)
	}
	b := &builder{p: p, opts: opts, m: &Map{steps: map[program.Label]part{}, objs: map[string]bool{}}, used: map[program.Label]bool{}, next: map[string]int{},
		sites: map[siteKey][]int{}, counts: map[siteKey]string{}, names: map[string]bool{}, taken: takenFuncs(p)}
	q := &program.Program{File: p.File, Model: p.Model, Types: p.Types}
	b.q = q
	for _, g := range p.Globals {
		c := *g
		q.Globals = append(q.Globals, &c)
		b.names[g.Name] = true
		b.m.objs[g.Name] = true
	}
	for _, f := range p.Funcs {
		b.names[f.Name] = true
		b.m.objs["fn:"+f.Name] = true
		for _, in := range f.Body {
			b.used[in.Label] = true
		}
	}
	if len(main.Params) > 0 {
		return nil, nil, program.Errorf(program.Unsupported, "%s: lazyseq: main with parameters", main.Pos)
	}
	if err := b.instances(main); err != nil {
		return nil, nil, err
	}
	for i := range b.m.slots {
		b.m.slots[i].name = b.fresh(fmt.Sprintf("thread_%d", i))
	}
	b.atomic = b.global("atomic", program.IntT, nil)
	b.nthreads = b.global("nthreads", program.IntT, nil)
	b.stop = b.global("stop", program.IntT, nil)
	for i := range b.m.slots {
		var init program.Expr
		if i == 0 {
			init = program.IntConst(program.IntT, 1)
		}
		b.state = append(b.state, instState{
			pc:     b.global(fmt.Sprintf("pc_%d", i), program.IntT, nil),
			active: b.global(fmt.Sprintf("active_%d", i), program.IntT, init),
			done:   b.global(fmt.Sprintf("done_%d", i), program.IntT, nil),
			id:     b.global(fmt.Sprintf("id_%d", i), program.IntT, nil),
			res:    b.global(fmt.Sprintf("res_%d", i), program.PointerTo(program.VoidType, p.Model.PtrSize()), nil),
		})
	}
	for _, site := range b.siteOrder {
		name := "count_" + sanitize(string(site.label))
		if len(b.sitesOf(site.label)) > 1 {
			name += "_" + site.fn
		}
		b.counts[site] = b.global(name, program.IntT, nil).Name
	}
	b.declareLocals()
	for i := range b.m.slots {
		f, err := b.thread(i)
		if err != nil {
			return nil, nil, err
		}
		q.Funcs = append(q.Funcs, f)
	}
	// Functions used as values keep their names (calls through pointers
	// compare with their addresses) as stubs that nothing calls.
	for _, f := range b.taken {
		if f == main {
			return nil, nil, program.Errorf(program.Unsupported, "%s: lazyseq: the address of main is taken", main.Pos)
		}
		stub := &program.Func{Name: f.Name, Result: f.Result, Pos: f.Pos,
			Body: []*program.Instr{{Label: b.label("ls.stub." + f.Name), Op: program.OpAssume, Rhs: intc(0), Pos: f.Pos, Msg: "only called through its inlined copies"}}}
		for _, v := range f.Params {
			c := *v
			stub.Params = append(stub.Params, &c)
		}
		q.Funcs = append(q.Funcs, stub)
	}
	q.Funcs = append(q.Funcs, b.driver())
	if err := program.Check(q); err != nil {
		return nil, nil, program.Errorf(program.Internal, "lazyseq: the sequentialisation of %s is malformed: %v", p.File, err)
	}
	return q, b.m, nil
}

// instances numbers the thread instances breadth first from main: the
// Spawn sites of every function an instance may run (its start routine
// and the functions it calls), in the order the walk meets them, each
// site's instances in creation order. A site of main's own body outside
// every loop (main being called by no one) gets one instance, any other
// site Options.Threads.
func (b *builder) instances(main *program.Func) error {
	called := map[string]bool{}
	for _, f := range b.p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpCall || in.Op == program.OpSpawn {
				for _, g := range b.targets(in) {
					called[g.Name] = true
				}
			}
		}
	}
	b.m.slots = []slot{{fn: main}}
	for i := 0; i < len(b.m.slots); i++ {
		for _, f := range b.reach(b.m.slots[i].fn) {
			for j, in := range f.Body {
				if in.Op != program.OpSpawn {
					continue
				}
				k := b.opts.Threads
				if f == main && !called[main.Name] && !inLoop(f, j) {
					k = 1
				}
				for _, g := range b.targets(in) {
					site := siteKey{in.Label, g.Name}
					if _, done := b.sites[site]; done {
						continue
					}
					if len(g.Params) > 1 {
						return program.Errorf(program.Unsupported, "%s: lazyseq: pthread_create of %s, which takes %d parameters", in.Pos, g.Name, len(g.Params))
					}
					b.siteOrder = append(b.siteOrder, site)
					for n := 0; n < k; n++ {
						b.sites[site] = append(b.sites[site], len(b.m.slots))
						b.m.slots = append(b.m.slots, slot{fn: g, site: site})
					}
				}
			}
		}
	}
	return nil
}

// sitesOf returns the sites of the Spawn labelled l.
func (b *builder) sitesOf(l program.Label) []siteKey {
	var out []siteKey
	for _, s := range b.siteOrder {
		if s.label == l {
			out = append(out, s)
		}
	}
	return out
}

// takenFuncs returns the functions of p whose address is taken (named
// anywhere but as the callee of a direct call or the start routine of a
// direct Spawn), in program order.
func takenFuncs(p *program.Program) []*program.Func {
	taken := map[string]bool{}
	note := func(e program.Expr) {
		program.Walk(e, func(x program.Expr) bool {
			if r, ok := x.(*program.FuncRef); ok {
				taken[r.Name] = true
			}
			return true
		})
	}
	for _, g := range p.Globals {
		if g.Init != nil {
			note(g.Init)
		}
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			for _, e := range []program.Expr{in.Lhs, in.Rhs} {
				if e != nil {
					note(e)
				}
			}
			for _, a := range in.Args {
				note(a)
			}
			if _, direct := in.Func.(*program.FuncRef); !direct && in.Func != nil {
				note(in.Func)
			}
		}
	}
	var out []*program.Func
	for _, f := range p.Funcs {
		if taken[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// targets returns the functions a Call or Spawn may run: its callee, or,
// through a pointer, every function whose address is taken and whose
// type is the pointer's. A pointer to a function of another type (a
// cast) makes the call an assertion failure of its own (dispatch), whose
// run does not replay: UNKNOWN, never a run cut silently.
func (b *builder) targets(in *program.Instr) []*program.Func {
	if fr, ok := in.Func.(*program.FuncRef); ok {
		if f := b.p.Func(fr.Name); f != nil {
			return []*program.Func{f}
		}
		return nil
	}
	ft := in.Func.Type()
	if ft.Kind == program.Pointer {
		ft = ft.Elem
	}
	var out []*program.Func
	for _, f := range b.taken {
		if program.Identical(f.Type(), ft) {
			out = append(out, f)
		}
	}
	return out
}

// reach returns f and the functions its calls may reach, in the order a
// depth-first walk meets them.
func (b *builder) reach(f *program.Func) []*program.Func {
	seen := map[string]bool{f.Name: true}
	out := []*program.Func{f}
	for i := 0; i < len(out); i++ {
		for _, in := range out[i].Body {
			if in.Op != program.OpCall {
				continue
			}
			for _, g := range b.targets(in) {
				if !seen[g.Name] {
					seen[g.Name] = true
					out = append(out, g)
				}
			}
		}
	}
	return out
}

type instState struct{ pc, active, done, id, res *program.Ref } // res: the instance's result (what it returned or passed to pthread_exit)

func inLoop(f *program.Func, j int) bool {
	for i := range f.Body {
		if h := f.LoopHead(i); h >= 0 && h <= j && j <= i {
			return true
		}
	}
	return false
}

func sanitize(s string) string {
	out := []byte(s)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			out[i] = '_'
		}
	}
	return string(out)
}

// global adds a fresh global __ls_<name> (a name not used by p) and
// returns a reference to it.
func (b *builder) global(name string, t *program.Type, init program.Expr) *program.Ref {
	n := b.fresh(name)
	b.q.Globals = append(b.q.Globals, &program.Var{Name: n, Type: t, Init: init})
	return &program.Ref{Name: n, T: t}
}

// fresh reserves and returns a global name __ls_<name> that p does not use.
func (b *builder) fresh(name string) string {
	n := prefix + name
	for i := 0; b.names[n]; i++ {
		n = prefix + name + "_" + strconv.Itoa(i)
	}
	b.names[n] = true
	return n
}

package lazyseq

import (
	"fmt"
	"strconv"

	"cegpv.dev/cegpv/program"
)

// Options are the bounds of a sequentialisation.
type Options struct {
	Rounds  int // round-robin rounds over the thread instances (>= 1)
	Threads int // instances of a Spawn site other than one of main outside loops (>= 1)
}

// Map relates the sequential program to the program it came from.
type Map struct {
	steps map[program.Label]part
	slots []slot
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
	site program.Label // the Spawn that creates it ("" for main)
	name string        // its function in the sequential program
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
	sites  map[program.Label][]int // spawn site -> its instances
	counts map[program.Label]string
	names  map[string]bool

	atomic, nthreads *program.Ref
	state            []instState
	locals           []map[string]string
	siteOrder        []program.Label
}

// Sequentialize returns the round-bounded sequentialisation of p and its
// Map (see the package doc). p is not modified.
func Sequentialize(p *program.Program, opts Options) (*program.Program, *Map, error) {
	if opts.Rounds < 1 || opts.Threads < 1 {
		return nil, nil, fmt.Errorf("lazyseq: rounds %d and threads %d must be at least 1", opts.Rounds, opts.Threads)
	}
	main := p.Func("main")
	if main == nil {
		return nil, nil, program.Errorf(program.Unsupported, "lazyseq: %s has no main", p.File)
	}
	b := &builder{p: p, opts: opts, m: &Map{steps: map[program.Label]part{}}, used: map[program.Label]bool{},
		sites: map[program.Label][]int{}, counts: map[program.Label]string{}, names: map[string]bool{}}
	q := &program.Program{File: p.File, Model: p.Model, Types: p.Types}
	b.q = q
	for _, g := range p.Globals {
		c := *g
		q.Globals = append(q.Globals, &c)
		b.names[g.Name] = true
	}
	for _, f := range p.Funcs {
		b.names[f.Name] = true
		for _, in := range f.Body {
			b.used[in.Label] = true
		}
	}
	if len(main.Params) > 0 {
		return nil, nil, program.Errorf(program.Unsupported, "%s: lazyseq: main with parameters", main.Pos)
	}
	// Instances, breadth first from main.
	b.m.slots = []slot{{fn: main}}
	for i := 0; i < len(b.m.slots); i++ {
		f := b.m.slots[i].fn
		for j, in := range f.Body {
			switch in.Op {
			case program.OpCall:
				return nil, nil, program.Errorf(program.Unsupported, "%s: lazyseq: function call (calls are not inlined yet)", in.Pos)
			case program.OpSpawn:
			default:
				continue
			}
			if _, done := b.sites[in.Label]; done {
				continue
			}
			fr, ok := in.Func.(*program.FuncRef)
			if !ok || p.Func(fr.Name) == nil {
				return nil, nil, program.Errorf(program.Unsupported, "%s: lazyseq: pthread_create through a function pointer", in.Pos)
			}
			k := opts.Threads
			if f == main && !inLoop(f, j) {
				k = 1
			}
			b.siteOrder = append(b.siteOrder, in.Label)
			for n := 0; n < k; n++ {
				b.sites[in.Label] = append(b.sites[in.Label], len(b.m.slots))
				b.m.slots = append(b.m.slots, slot{fn: p.Func(fr.Name), site: in.Label})
			}
		}
	}
	for i := range b.m.slots {
		b.m.slots[i].name = b.fresh(fmt.Sprintf("thread_%d", i))
	}
	b.atomic = b.global("atomic", program.IntT, nil)
	b.nthreads = b.global("nthreads", program.IntT, nil)
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
		b.counts[site] = b.global("count_"+sanitize(string(site)), program.IntT, nil).Name
	}
	b.declareLocals()
	for i := range b.m.slots {
		f, err := b.thread(i)
		if err != nil {
			return nil, nil, err
		}
		q.Funcs = append(q.Funcs, f)
	}
	q.Funcs = append(q.Funcs, b.driver())
	if err := program.Check(q); err != nil {
		return nil, nil, program.Errorf(program.Internal, "lazyseq: the sequentialisation of %s is malformed: %v", p.File, err)
	}
	return q, b.m, nil
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

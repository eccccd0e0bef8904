package explicit

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"cegpv.dev/cegpv/internal/machine"

	"cegpv.dev/cegpv/analysis"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/internal/heap"
	"cegpv.dev/cegpv/program"
)

// Explorable returns nil when Explore can search p, or why not: a draw
// without a finite domain (see package analysis, Domains). It is cheap (a static
// analysis).
func Explorable(p *program.Program) (err error) {
	defer program.Recover(&err)
	_, err = analysis.Domains(p)
	return err
}

// ExploreOptions bounds Explore.
type ExploreOptions struct {
	// Unwind bounds loops and recursion as the built-in BMC does: a loop
	// takes at most Unwind-1 back edges per entry into it (its body runs
	// at most Unwind times), a thread has at most Unwind activations of
	// one function at a time. A thread that would exceed a bound stops
	// there. 0 = 5.
	Unwind int
	// Unbounded lifts the loop bound: loops take any number of back
	// edges (visited states close them), so a violation at any depth is
	// found and a search that reaches no other bound covers every run.
	// Recursion stays bounded by Unwind.
	Unbounded bool
	// UnwindSet gives loops and recursive calls bounds of their own in
	// place of Unwind, by program.Unwinding.Key (backend.Bounds.UnwindSet).
	UnwindSet map[string]int
	// UnwindingAssertions makes a run that reaches a loop or recursion
	// bound a violation of that loop's or function's unwinding property
	// (program.Unwindings; the run ends with the step refused at the
	// bound, Run.Unwind is Unwind); UnwindingOnly, when set, limits that
	// to the property with that key (program.Unwinding.Key), the others
	// cut runs as without unwinding assertions.
	UnwindingAssertions bool
	UnwindingOnly       string
	// BoundPreemptions bounds the preemptions of a run by Preemptions
	// (Musuvathi and Qadeer's iterative context bounding): a switch away
	// from a thread that could still make a step that is not private
	// counts one; private steps are free and switches at a thread's end
	// or block are free. A bug search: most bugs need few preemptions.
	BoundPreemptions bool
	Preemptions      int
	// Threads bounds the threads one Spawn instruction creates (0 = no
	// bound but MaxThreads).
	Threads int
	// MaxThreads bounds the threads of a run, main included (0:
	// backend.DefaultMaxThreads).
	MaxThreads int
	// MaxStateBytes bounds the memory the set of visited states may use
	// (0 = 256 MiB); beyond it Explore gives up.
	MaxStateBytes int
	// MaxHeap bounds the Go heap of the whole process while Explore runs
	// (0 = 768 MiB): the states on the search path, not counted by
	// MaxStateBytes, can be large (many threads) and many (loops
	// unbounded); beyond it Explore gives up.
	MaxHeap uint64
}

// ExploreStatus is how Explore ended.
type ExploreStatus int

const (
	// Inconclusive: Explore gave up (Reason says why); nothing is known.
	Inconclusive ExploreStatus = iota
	// NoViolation: no run within the bounds violates an assertion or
	// reaches an execution error.
	NoViolation
	// ViolationFound: Run violates an assertion (or, with
	// UnwindingAssertions, an unwinding property).
	ViolationFound
)

func (s ExploreStatus) String() string {
	switch s {
	case NoViolation:
		return "no violation"
	case ViolationFound:
		return "violation"
	}
	return "inconclusive"
}

// ExploreResult is the answer of Explore.
type ExploreResult struct {
	Status ExploreStatus
	Run    *program.Run // ViolationFound: ends with the failing assertion
	Reason string       // Inconclusive: why
	// Complete (NoViolation) is set when no run reached a bound: every
	// run of the program was explored, so the answer holds for every
	// bound.
	Complete bool
	// ThreadCap (NoViolation) is MaxThreads when a run was cut there (a
	// limit of the search, not a bound the caller gave), else 0.
	ThreadCap int
	States    int // distinct states stored (not those between private steps, see Explore)
}

// threadCapReached is bound's answer at ExploreOptions.MaxThreads.
const threadCapReached = "thread cap"

// Explore decides, by exhaustive explicit-state search, whether some run of
// p within the bounds violates an assertion. It is a model checker for
// programs whose nondeterminism is finite (see package analysis, Domains): every
// interleaving (with the atomic-section semantics of Replay), every value
// of every draw from its finite domain and every target of a multi-target
// goto is tried, and visited states are stored in full, so the search is
// exact; it is not a sampler.
//
// Two reductions keep the state space small, both exact for reachability:
//   - A step that only touches the private locals of its thread (locals
//     whose address is never taken) commutes with every step of other
//     threads, so when a thread's next step is one, only that thread's
//     step is explored from the state (an ample set of one thread). No
//     step is ignored forever: within the bounds the state graph is
//     acyclic (loop counters are part of the state); with Unbounded, a
//     state whose ample step returns to the current path is expanded in
//     full (the cycle proviso).
//   - When thread identities cannot be observed (the program joins no
//     thread, never reads a thread handle, and takes the address of no
//     local that can leave its thread, see escape.go), states that differ
//     only in a permutation of the threads other than main are one state.
//
// Within the bounds, a state whose ample set is one private step that is
// enabled is not stored, and a step with one choice from it is made on
// the state itself instead of a copy: a run through it goes on to the
// first state whose ample set is not such a step, which is stored, so the
// search still prunes there (what it gives up is pruning where two paths
// meet inside a sequence of private steps, at the cost of re-running those
// steps). In programs made of atomic or lock-protected blocks (the
// pthread-wmm tasks) that stores a fifth of the states and takes a third of
// the time (docs/bench/explicit-transient). With Unbounded every state is
// stored, to close cycles.
//
// Explore gives up (Inconclusive) when a draw has no finite domain, when a
// run reaches an execution error (the symbolic backend reports those), when
// the visited states exceed MaxStateBytes or the heap MaxHeap, and when ctx
// ends.
func Explore(ctx context.Context, p *program.Program, opts ExploreOptions) (_ *ExploreResult, err error) {
	defer program.Recover(&err)
	if opts.Unwind <= 0 {
		opts.Unwind = 5
	}
	if opts.MaxThreads <= 0 {
		opts.MaxThreads = backend.DefaultMaxThreads
	}
	if opts.MaxStateBytes <= 0 {
		opts.MaxStateBytes = 256 << 20
	}
	if opts.MaxHeap == 0 {
		opts.MaxHeap = 768 << 20
	}
	doms, err := analysis.Domains(p)
	if err != nil {
		return &ExploreResult{Reason: err.Error()}, nil
	}
	m, err := machine.New(p)
	if err != nil {
		return nil, err
	}
	x := &explorer{ctx: ctx, p: p, opts: opts, doms: doms, visited: map[string]struct{}{},
		ix: program.NewIndex(p), unw: machine.NewUnwinder(p, opts.Unwind), private: map[*program.Instr]bool{}, stack: map[string]bool{}}
	x.unw.Unbounded = opts.Unbounded
	x.unw.Set = opts.UnwindSet
	x.analyse()
	res := &ExploreResult{}
	// main (thread 0, cur) makes the first step
	run, err := x.dfs(&xstate{m: m, spawns: map[program.Label]int{}})
	res.States = len(x.visited)
	switch {
	case err != nil:
		var gu *giveUp
		if errors.As(err, &gu) {
			res.Reason = gu.why
			return res, nil
		}
		return nil, err
	case run != nil:
		res.Status = ViolationFound
		res.Run = run
	default:
		res.Status = NoViolation
		res.Complete = !x.bounded
		if x.capped {
			res.ThreadCap = x.opts.MaxThreads
		}
	}
	return res, nil
}

type giveUp struct{ why string }

func (g *giveUp) Error() string { return g.why }

type xstate struct {
	m      *machine.Machine
	spawns map[program.Label]int // threads created by each Spawn
	// with BoundPreemptions: the thread that made the last step that is
	// not private, and the preemptions so far
	cur, pre int
}

type explorer struct {
	ctx     context.Context
	p       *program.Program
	opts    ExploreOptions
	doms    map[*program.Instr][]int64
	ix      *program.LabelIndex
	visited map[string]struct{}
	bytes   int
	// expanded counts the calls of dfs (the context and the heap are
	// checked every 256)
	expanded int
	bounded  bool // some thread stopped at a bound
	capped   bool // some thread stopped at MaxThreads
	// stack holds the keys of the states on the current path (only
	// with Unbounded: otherwise loop counts make the graph acyclic);
	// onPath is set by a dfs call that found its state there
	stack  map[string]bool
	onPath bool
	path   []program.Step
	unw    *machine.Unwinder // the loop and recursion bounds
	// private: instructions that touch only private locals of their thread
	private map[*program.Instr]bool
	live    map[*program.Func][][]bool // see analysis.LiveLocals
	priv    *analysis.Privacy          // see analysis.Privacy
	sym     bool                       // thread permutations are one state
}

// analyse fills loops, live, priv, private and sym.
func (x *explorer) analyse() {
	sym := !program.HasThreadID(x.p) // pthread_self() tells threads apart
	taken := analysis.TakenAddrs(x.p)
	x.live = map[*program.Func][][]bool{}
	for _, f := range x.p.Funcs {
		x.live[f] = analysis.LiveLocals(f, taken)
	}
	es := analysis.AnalyseEscapes(x.p, taken)
	shared := map[string]bool{}
	for k := range taken {
		if es.Kept[k] {
			continue // only its own thread, in calls it makes, can access it
		}
		shared[k] = true
		if strings.Contains(k, "::") {
			sym = false // pointers to locals name their thread
		}
	}
	x.priv = &analysis.Privacy{P: x.p, Taken: shared, Locks: analysis.AnalyseLocks(x.p), Esc: es}
	handles := map[string]bool{}
	for _, f := range x.p.Funcs {
		for i, in := range f.Body {
			if in.Op == program.OpJoin {
				sym = false
			}
			if in.Op == program.OpSpawn && in.Lhs != nil {
				if r := analysis.Root(in.Lhs); r != nil {
					handles[analysis.VarKey(f, r)] = true
				} else {
					sym = false
				}
			}
			x.private[in] = x.priv.Step(f, i)
		}
	}
	// a handle is read when it occurs anywhere but as a Spawn's Lhs
	for _, f := range x.p.Funcs {
		for _, in := range f.Body {
			for _, e := range in.Operands() {
				if in.Op == program.OpSpawn && e == in.Lhs {
					continue
				}
				for _, k := range analysis.Refs(f, e) {
					if handles[k] {
						sym = false
					}
				}
			}
		}
	}
	x.sym = sym
}

func (s *xstate) clone() *xstate {
	return &xstate{m: s.m.Clone(), spawns: maps.Clone(s.spawns), cur: s.cur, pre: s.pre}
}

// visit looks s up in the store of visited states and adds it; seen
// reports that it was there (then x.onPath tells whether it is on the
// current path).
func (x *explorer) visit(s *xstate) (key string, seen bool, err error) {
	key = x.key(s)
	if _, ok := x.visited[key]; ok {
		x.onPath = x.stack[key]
		return key, true, nil
	}
	x.visited[key] = struct{}{}
	x.bytes += len(key) + 48
	if x.bytes > x.opts.MaxStateBytes {
		return key, false, &giveUp{fmt.Sprintf("explicit search: more than %d MiB of states (%d states)", x.opts.MaxStateBytes>>20, len(x.visited))}
	}
	return key, false, nil
}

// dfs explores from s; it returns the run to a violation, or nil. When s
// is on the current path (a cycle, possible only with Unbounded), it sets
// x.onPath for the caller's cycle proviso.
func (x *explorer) dfs(s *xstate) (*program.Run, error) {
	x.expanded++
	if x.expanded%256 == 0 {
		if err := x.ctx.Err(); err != nil {
			return nil, &giveUp{"explicit search: " + err.Error()}
		}
		if h := heap.Bytes(); h > x.opts.MaxHeap {
			return nil, &giveUp{fmt.Sprintf("explicit search: the heap exceeds %d MiB (%d states)", x.opts.MaxHeap>>20, len(x.visited))}
		}
	}
	m := s.m
	var runnable []int
	for _, t := range m.Threads {
		if !t.Ended && t.Current() != nil && m.AtomicHolder(t) == nil {
			runnable = append(runnable, t.ID)
		}
	}
	// ample set: the first thread whose next step is private, if it can
	// move and (cycle proviso) no step of it returns to the current path,
	// where the other threads could be put off forever. Within the bounds
	// (an acyclic state graph) s is then transient: not stored, and the
	// step is made on s itself (see Explore; s is this call's own: every
	// caller passes a fresh copy, or its own transient state).
	transient := !x.opts.Unbounded
	if !transient {
		key, seen, err := x.visit(s)
		if seen || err != nil {
			return nil, err
		}
		x.stack[key] = true
		defer delete(x.stack, key)
	}
	done := -1
	for _, id := range runnable {
		t := m.Threads[id]
		if x.privateNext(t) {
			moved, cycle, run, err := x.expand(s, id, -1, transient)
			if run != nil || err != nil {
				return run, err
			}
			if moved && !cycle {
				return nil, nil
			}
			if moved {
				done = id
				break
			}
		}
	}
	if transient {
		if _, seen, err := x.visit(s); seen || err != nil {
			return nil, err
		}
	}
	if x.opts.BoundPreemptions {
		return x.expandBounded(s, runnable, done)
	}
	for _, id := range runnable {
		if id == done || done < 0 && x.privateNext(m.Threads[id]) {
			continue // explored above
		}
		if _, _, run, err := x.expand(s, id, 0, false); run != nil || err != nil {
			return run, err
		}
	}
	return nil, nil
}

// expandBounded is the full expansion of s under BoundPreemptions: the
// thread of the last step first, for free; then the others, each step a
// preemption when that thread could move.
func (x *explorer) expandBounded(s *xstate, runnable []int, done int) (*program.Run, error) {
	m := s.m
	cost := 0 // 1 once the current thread is known to be able to move
	switch {
	case !slices.Contains(runnable, s.cur):
	case s.cur == done:
		cost = 1
	case done >= 0 || !x.privateNext(m.Threads[s.cur]):
		// (a private next step that did not move above: blocked)
		moved, _, run, err := x.expand(s, s.cur, 0, false)
		if run != nil || err != nil {
			return run, err
		}
		if moved {
			cost = 1
		}
	}
	for _, id := range runnable {
		if id == s.cur || id == done || done < 0 && x.privateNext(m.Threads[id]) {
			continue
		}
		if s.pre+cost > x.opts.Preemptions {
			x.bounded = true
			return nil, nil
		}
		if _, _, run, err := x.expand(s, id, cost, false); run != nil || err != nil {
			return run, err
		}
	}
	return nil, nil
}

// privateNext reports whether t's next step is private.
func (x *explorer) privateNext(t *machine.Thread) bool {
	in := t.Current()
	if in == nil || t.Fresh {
		// a thread that has entered an atomic section without acting
		// in it lets the others run; its first step inside takes the
		// section, which is not private
		return false
	}
	if in.Op == program.OpReturn {
		// private when it ends no thread or section and stores, if at
		// all, into a private local of the caller
		fr := t.Top()
		if fr.Atomic || len(t.Frames) == 1 || program.HasNondet(in.Rhs) {
			return false
		}
		if fr.Ret != nil {
			caller, o := t.Frames[len(t.Frames)-2], fr.Ret.Obj
			if o == nil {
				return false
			}
			name := strings.TrimPrefix(o.Name, caller.Fn.Name+"::")
			if caller.Vars[name] != o {
				return false
			}
			if x.priv.Taken[caller.Fn.Name+"::"+name] {
				return false
			}
		}
		return x.priv.Expr(fr.Fn, fr.PC, in.Rhs)
	}
	return x.private[in]
}

// choiceSource supplies draws from a domain by a choice vector; it counts
// the draws of a step.
type choiceSource struct {
	dom    []int64
	choice []int
	n      int
	m      *machine.Machine
	drawn  []program.Value
}

func (c *choiceSource) Next(t *program.Type) program.Value {
	// the first run of a step has no choice vector yet: its draws take
	// the first value of the domain, as the all-zero vector would (the
	// odometer starts from there, so a value drawn outside the domain
	// would replace dom[0], which would then never be tried)
	var v int64
	if len(c.dom) > 0 {
		i := 0
		if c.n < len(c.choice) {
			i = c.choice[c.n]
		}
		v = c.dom[i]
	}
	c.n++
	val := program.Value{Bits: v}
	if t.Kind == program.Int || t.Kind == program.Bool {
		val = machine.Normalize(t, val)
	}
	c.drawn = append(c.drawn, c.m.External(val))
	return val
}

// expand explores every step of thread id from s (every choice of draws
// and goto targets); moved reports whether some step was enabled, cycle
// whether some step led to a state on the current path. cost is the
// preemptions the step counts (BoundPreemptions), -1 for a private step,
// which leaves the current thread as it is. With inPlace, a step that has
// one choice (no draw, one target) is made on s itself, which the caller
// then no longer needs (a blocked step changes nothing: s stays as it was).
func (x *explorer) expand(s *xstate, id, cost int, inPlace bool) (moved, cycle bool, run *program.Run, err error) {
	t := s.m.Threads[id]
	in := t.Current()
	dom := x.doms[in]
	inPlace = inPlace && dom == nil && len(in.Targets) <= 1
	if in.Op == program.OpAssume && dom == nil {
		// an assume that does not hold blocks the step, which changes
		// nothing: known without a copy of the state to run it on (Eval
		// evaluates as the step does; an error is left to the step)
		if v, err := s.m.Eval(t, in.Rhs); err == nil && !machine.Truth(v) {
			return false, false, nil, nil
		}
	}
	if why := x.bound(s, t, in); why != "" {
		if run := x.atBound(t, in, nil, why); run != nil {
			return false, false, run, nil
		}
		x.bounded = true
		x.capped = x.capped || why == threadCapReached
		return false, false, nil, nil
	}
	var choice []int // current choice vector, odometer order
	target := 0
	for {
		c := s
		if !inPlace {
			c = s.clone()
		}
		ct := c.m.Threads[id]
		src := &choiceSource{dom: dom, choice: choice, m: c.m}
		ntargets := 1
		h := machine.Hooks{
			Pick: func(ts []program.Label) program.Label {
				ntargets = len(ts)
				return ts[target%len(ts)]
			},
			BackEdge: x.unw.BackEdge,
		}
		res, err := c.m.Exec(ct, src, h)
		if err != nil {
			var ee *machine.ExecError
			if errors.As(err, &ee) {
				return moved, cycle, nil, &giveUp{fmt.Sprintf("explicit search: execution error at %s: %s", in.Label, ee.Msg)}
			}
			return moved, cycle, nil, err
		}
		if src.n > 0 && dom == nil {
			return moved, cycle, nil, fmt.Errorf("explore: %s draws %d values but has no domain", in.Label, src.n)
		}
		if len(choice) < src.n {
			// (extended, never reset: the odometer keeps its place)
			choice = append(choice, make([]int, src.n-len(choice))...)
		}
		if res.Blocked != "" {
			if machine.AtBound(res.Blocked) {
				if run := x.atBound(ct, in, src.drawn, res.Blocked); run != nil {
					return moved, cycle, run, nil
				}
				x.bounded = true
			}
		} else {
			moved = true
			if in.Op == program.OpSpawn {
				c.spawns[in.Label]++
			}
			if cost >= 0 {
				c.cur, c.pre = id, s.pre+cost
			}
			x.unw.Left(ct)
			x.path = append(x.path, program.Step{Thread: id, Label: in.Label, Nondet: src.drawn, Assigned: res.Writes})
			if res.Failed {
				steps := append([]program.Step(nil), x.path...)
				return true, cycle, &program.Run{Steps: steps, Violated: in.Prop}, nil
			}
			x.onPath = false
			r, err := x.dfs(c)
			cycle = cycle || x.onPath
			x.onPath = false
			x.path = x.path[:len(x.path)-1]
			if r != nil || err != nil {
				return true, cycle, r, err
			}
		}
		// next choice: targets, then the odometer of draws
		if target+1 < ntargets {
			target++
			continue
		}
		target = 0
		i := 0
		for ; i < len(choice); i++ {
			if choice[i]+1 < len(dom) {
				choice[i]++
				break
			}
			choice[i] = 0
		}
		if i == len(choice) {
			return moved, cycle, nil, nil
		}
	}
}

// bound returns why thread t may not execute in (a call beyond the
// recursion bound, a spawn beyond the thread bounds), or "".
func (x *explorer) bound(s *xstate, t *machine.Thread, in *program.Instr) string {
	switch in.Op {
	case program.OpCall:
		return x.unw.Call(s.m, t, in)
	case program.OpSpawn:
		if x.opts.Threads > 0 && s.spawns[in.Label] >= x.opts.Threads {
			return "thread bound"
		}
		if len(s.m.Threads) >= x.opts.MaxThreads {
			return threadCapReached
		}
	}
	return ""
}

// atBound is thread t reaching a loop or recursion bound at in (why, the
// step refused, drew drawn): with unwinding assertions, when the
// property is checked, the run to here with that step is a violation of
// it; otherwise nil (the run is cut there).
func (x *explorer) atBound(t *machine.Thread, in *program.Instr, drawn []program.Value, why string) *program.Run {
	if !x.opts.UnwindingAssertions || !machine.AtBound(why) {
		return nil
	}
	fr := t.Top()
	id, key := program.LoopID(fr.Fn, fr.PC), string(in.Label)
	if strings.HasPrefix(why, machine.RecursionBound) {
		id = program.RecursionID(fr.Fn.Name)
		key = id
	}
	if o := x.opts.UnwindingOnly; o != "" && o != key {
		return nil
	}
	steps := append(append([]program.Step(nil), x.path...), program.Step{Thread: t.ID, Label: in.Label, Nondet: drawn})
	return &program.Run{Steps: steps, Violated: id, Unwind: x.opts.Unwind, UnwindSet: x.opts.UnwindSet}
}

// key encodes the state canonically: objects by their names (locals by
// thread, frame depth and name), every cell, every thread's frames with
// their program counters and loop counts, and the spawn counts; with
// symmetry, the records of the threads other than main sorted.
func (x *explorer) key(s *xstate) string {
	m := s.m
	type owner struct {
		tid, depth int
	}
	var locals map[*machine.Object]owner
	cur := -1 // the thread whose record is being encoded
	canon := func(id string) string {
		if id == "" || strings.HasPrefix(id, "fn:") || strings.HasPrefix(id, "heap#") || strings.HasPrefix(id, "dangling:") {
			return id
		}
		if o := m.Globals[id]; o != nil && o.ID == id {
			return id
		}
		if locals == nil {
			locals = map[*machine.Object]owner{}
			for _, t := range m.Threads {
				for k, fr := range t.Frames {
					for _, o := range fr.Vars {
						locals[o] = owner{t.ID, k}
					}
				}
			}
		}
		if o := m.Objs[id]; o != nil {
			if w, ok := locals[o]; ok {
				if w.tid == cur {
					// relative to the record's thread, so that
					// symmetric threads have equal records
					return fmt.Sprintf("%s@self.%d", o.Name, w.depth)
				}
				return fmt.Sprintf("%s@%d.%d", o.Name, w.tid, w.depth)
			}
			return "main:" + o.Name // main's locals after main returned
		}
		return "dead:" + id
	}
	var b []byte
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	str := func(s string) { num(int64(len(s))); b = append(b, s...) }
	val := func(v program.Value) {
		num(v.Bits)
		if v.Obj != "" {
			b = append(b, 1)
			str(canon(v.Obj))
			num(v.Off)
		} else {
			b = append(b, 0)
		}
	}
	obj := func(o *machine.Object) {
		if o.Alive {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		for _, v := range o.Cells {
			val(v)
		}
	}
	// counts encodes a map of counts by label, sorted
	counts := func(c map[program.Label]int) {
		ls := slices.Sorted(maps.Keys(c))
		num(int64(len(ls)))
		for _, l := range ls {
			str(string(l))
			num(int64(c[l]))
		}
	}
	for _, g := range x.p.Globals {
		obj(m.Globals[g.Name])
	}
	num(int64(len(m.Heaps)))
	for _, h := range m.Heaps {
		obj(h)
	}
	counts(s.spawns)
	if x.opts.BoundPreemptions {
		num(int64(s.pre))
	}
	if len(m.Threads) > 0 && m.Threads[0].Ended {
		var names []string
		byName := map[string]*machine.Object{}
		for _, o := range m.Objs {
			if !o.Heap && o.Alive && m.Globals[o.Name] != o && strings.HasPrefix(o.Name, "main::") {
				names = append(names, o.Name)
				byName[o.Name] = o
			}
		}
		sort.Strings(names)
		for _, n := range names {
			str(n)
			obj(byName[n])
		}
	}
	records := make([]string, len(m.Threads))
	for i, t := range m.Threads {
		head := b
		b = nil
		cur = t.ID
		if t.Ended {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		val(t.Result)
		num(int64(t.Atomic))
		if x.opts.BoundPreemptions && t.ID == s.cur {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		if t.Fresh {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		num(int64(len(t.Frames)))
		for k, fr := range t.Frames {
			str(fr.Fn.Name)
			num(int64(fr.PC))
			if fr.Ret != nil && fr.Ret.Obj != nil {
				// relative to the thread, so that symmetric threads
				// have equal records
				if k > 0 && t.Frames[k-1].Vars[strings.TrimPrefix(fr.Ret.Obj.Name, t.Frames[k-1].Fn.Name+"::")] == fr.Ret.Obj {
					str("caller::" + fr.Ret.Obj.Name)
				} else {
					str(canon(fr.Ret.Obj.ID))
				}
				num(fr.Ret.Off)
			} else {
				str("")
			}
			// dead variables are left out
			live := x.live[fr.Fn][min(fr.PC, len(fr.Fn.Body))]
			for i, v := range fr.Fn.Params {
				if live[i] {
					obj(fr.Vars[v.Name])
				} else {
					b = append(b, 2)
				}
			}
			for i, v := range fr.Fn.Locals {
				if live[len(fr.Fn.Params)+i] {
					obj(fr.Vars[v.Name])
				} else {
					b = append(b, 2)
				}
			}
			counts(fr.BackEdges)
			b = append(b, 0xff)
		}
		records[i] = string(b)
		b = head
	}
	if x.sym && len(records) > 2 {
		sort.Strings(records[1:])
	}
	for _, r := range records {
		str(r)
	}
	return string(b)
}

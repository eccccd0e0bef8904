package builtin

import (
	"fmt"
	"math/big"
	"slices"

	"cegpv.dev/cegpv/backend/smt"
	"cegpv.dev/cegpv/program"
)

// modelReader batches get-value queries.
type modelReader struct {
	s     *smt.Solver
	terms []string
	index map[string]int
	vals  []smt.Value
}

func (m *modelReader) want(t *term) {
	if t == nil || t.c {
		return
	}
	if _, ok := m.index[t.s]; ok {
		return
	}
	m.index[t.s] = len(m.terms)
	m.terms = append(m.terms, t.s)
}

func (m *modelReader) wantVal(v val) {
	m.want(v.t)
	m.want(v.obj)
}

func (m *modelReader) fetch() error {
	vs, err := m.s.GetValue(m.terms)
	if err != nil {
		return err
	}
	m.vals = vs
	return nil
}

func (m *modelReader) get(t *term) smt.Value {
	if t.c {
		if t.w == 0 {
			return smt.Value{Bool: t.v != 0}
		}
		return smt.Value{Width: t.w, Int: new(big.Int).SetUint64(t.v)}
	}
	return m.vals[m.index[t.s]]
}

func (m *modelReader) truth(t *term) bool { return m.get(t).Bool }

func (m *modelReader) clock(name string) *big.Int {
	v := m.vals[m.index[name]]
	return v.Int
}

// buildRun reads the model and builds the run: executed steps ordered by
// the clocks of their blocks, cut after the first violated assertion, or,
// with cuts, at the first step where a path of cuts reaches its bound:
// that step (refused at the bound, so it draws and stores nothing but the
// values of a back edge's guard) ends a run violating the unwinding
// property of the cut (Run.Unwind the bound).
func (e *enc) buildRun(s *smt.Solver, cuts []cutRec) (*program.Run, error) {
	m := &modelReader{s: s, index: map[string]int{}}
	for _, th := range e.threads {
		m.want(th.spawnG)
		for _, b := range th.blocks {
			m.want(&term{s: b.clock})
		}
		for _, r := range th.steps {
			m.want(r.pg)
			if cuts != nil {
				m.want(r.g)
			}
		}
	}
	for _, c := range cuts {
		m.want(c.g)
	}
	if err := m.fetch(); err != nil {
		return nil, err
	}
	// Like the steps of a block up to a violated assertion (presence.go),
	// the steps of a block up to the bound a run ends at stay in it: a
	// thread that reaches a bound inside an atomic section or a collapsed
	// region ends the run there.
	upToCut := map[*stepRec]bool{}
	if cuts != nil {
		reached := map[*stepRec]bool{}
		for _, c := range cuts {
			if m.truth(c.g) {
				reached[c.rec] = true
			}
		}
		for _, th := range e.threads {
			for i := len(th.steps) - 1; i >= 0; i-- {
				r := th.steps[i]
				if !multiStep(r.blk) || !reached[r] {
					continue
				}
				for j := i; j >= 0 && th.steps[j].blk == r.blk; j-- {
					if m.truth(th.steps[j].g) {
						upToCut[th.steps[j]] = true
					}
				}
			}
		}
	}
	type item struct {
		rec   *stepRec
		clock *big.Int
	}
	var items []item
	for _, th := range e.threads {
		anchor := th.start
		if !m.truth(th.spawnG) {
			continue
		}
		for _, r := range th.steps {
			if r.tail || !m.truth(r.pg) && !upToCut[r] {
				continue
			}
			if r.blk != nil {
				anchor = r.blk
			}
			items = append(items, item{rec: r, clock: m.clock(anchor.clock)})
		}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		if c := a.clock.Cmp(b.clock); c != 0 {
			return c
		}
		return a.rec.seq - b.rec.seq
	})
	// second round: values of the executed steps
	m2 := &modelReader{s: s, index: map[string]int{}}
	cut := -1
	for i, it := range items {
		r := it.rec
		for _, nd := range r.nondet {
			m2.wantVal(nd.v)
		}
		for _, a := range r.assigned {
			m2.want(a.cond)
			m2.wantVal(a.v)
		}
		if r.assert != nil {
			m2.want(r.assert)
		}
		if r.child != nil {
			m2.want(r.child.tid)
		}
		if r.dormant != nil {
			m2.want(r.dormant)
		}
		if r.heap != nil && r.heap.symCount {
			m2.want(e.countOf(r.heap))
		}
		_ = i
	}
	if cuts != nil {
		for _, c := range e.cuts {
			m2.want(c.g)
		}
	}
	if err := m2.fetch(); err != nil {
		return nil, err
	}
	if cuts != nil {
		// a step where another bound cuts the path (a property not
		// checked) is refused there, not executed: it is no step of the
		// run (Replay of a run that ends at a bound keeps to the bounds)
		refused := map[*stepRec]bool{}
		for _, c := range e.cuts {
			if m2.truth(c.g) {
				refused[c.rec] = true
			}
		}
		for _, c := range cuts {
			delete(refused, c.rec)
		}
		items = slices.DeleteFunc(items, func(it item) bool { return refused[it.rec] })
	}
	var bound *cutRec // the cut the run ends at
	for i, it := range items {
		if cuts == nil && it.rec.assert != nil && !m2.truth(it.rec.assert) {
			cut = i
			break
		}
		for j := range cuts {
			if cuts[j].rec == it.rec && m2.truth(cuts[j].g) {
				cut, bound = i, &cuts[j]
				break
			}
		}
		if bound != nil {
			break
		}
	}
	if cut < 0 && cuts == nil {
		return nil, fmt.Errorf("the model has no violated assertion")
	}
	if cut < 0 {
		return nil, fmt.Errorf("the model reaches no bound")
	}
	items = items[:cut+1]
	if e.inst != nil {
		// incremental.go: the step records of the run, for their keys
		e.inst.lastRun = e.inst.lastRun[:0]
		for _, it := range items {
			e.inst.lastRun = append(e.inst.lastRun, it.rec)
		}
	}
	// thread numbers and heap names in run order
	runID := map[*thread]int{e.threads[0]: 0}
	heapName := map[*object]string{}
	allocAt := map[*object]int{} // index in the run of the step allocating a heap block
	nthreads, nheap := 0, 0
	for i, it := range items {
		r := it.rec
		if r.child != nil && m.truth(r.child.spawnG) {
			nthreads++
			runID[r.child] = nthreads
			if got := m2.get(r.child.tid).Uint64(); got != uint64(nthreads) {
				return nil, fmt.Errorf("spawn at %s: thread id %d in the model, %d in the run", r.in.Label, got, nthreads)
			}
		}
		if r.dormant != nil {
			// a thread that never runs (dormantSpawn): created all the same
			nthreads++
			if got := m2.get(r.dormant).Uint64(); got != uint64(nthreads) {
				return nil, fmt.Errorf("spawn at %s: thread id %d in the model, %d in the run", r.in.Label, got, nthreads)
			}
		}
		if r.heap != nil {
			nheap++
			heapName[r.heap] = fmt.Sprintf("heap#%d", nheap)
			allocAt[r.heap] = i
		}
	}
	objName := func(o *object) string {
		if o.heap {
			if n, ok := heapName[o]; ok {
				return n
			}
			return "heap#?"
		}
		return o.name
	}
	// value renders v as the value of a step at index at of the run;
	// drawn says it is a nondet value, which the step draws before it
	// allocates anything.
	value := func(v val, t *program.Type, at int, drawn bool) program.Value {
		if v.obj != nil {
			id := int(m2.get(v.obj).Uint64())
			off := int64(m2.get(v.t).Uint64())
			if e.offW < 64 {
				off = int64(uint32(off))
			}
			if id == 0 {
				return program.Value{Bits: off}
			}
			if id < len(e.objs) {
				o := e.objs[id]
				if o.fn != "" {
					return program.Value{Obj: o.name}
				}
				if i, ok := allocAt[o]; !o.heap || ok && (i < at || i == at && !drawn) {
					return program.Value{Obj: objName(o), Off: off}
				}
			}
			// A nondet pointer (uninitialised memory, say) whose object does
			// not exist in the run at this point: an invalid pointer in the
			// encoding, an integer address (not null) for the interpreter.
			// Replay decides whether the run holds with it.
			return program.Value{Bits: int64(id)<<32 | off&0xffffffff}
		}
		bits := m2.get(v.t).Uint64()
		if t != nil && t.Kind == program.Int && t.Signed {
			return program.Value{Bits: sext(bits, v.t.w)}
		}
		return program.Value{Bits: int64(bits)}
	}
	run := &program.Run{}
	for i, it := range items {
		r := it.rec
		st := program.Step{Thread: runID[r.th], Label: r.in.Label}
		if _, ok := runID[r.th]; !ok {
			return nil, fmt.Errorf("step %s of a thread that was not spawned in the run", r.in.Label)
		}
		nds, valid := r.nondet, int64(-1)
		if o := r.heap; o != nil && o.symCount {
			// the step draws one value per valid cell of the block
			n := m2.get(e.countOf(o)).Uint64()
			if n > uint64(o.ncells) {
				return nil, fmt.Errorf("alloc at %s: %d cells in the model, %d modelled", r.in.Label, n, o.ncells)
			}
			nds, valid = nds[:r.ndOps+int(n)], int64(n)
		}
		for _, nd := range nds {
			st.Nondet = append(st.Nondet, value(nd.v, nd.t, i, true))
		}
		for _, a := range r.assigned {
			if !m2.truth(a.cond) || valid >= 0 && a.obj == r.heap && a.off >= valid {
				continue
			}
			st.Assigned = append(st.Assigned, program.Write{Loc: objName(a.obj) + a.obj.typ.CellPath(a.off), Val: value(a.v, a.obj.cellType(a.off), i, false)})
		}
		run.Steps = append(run.Steps, st)
	}
	run.Violated = items[len(items)-1].rec.in.Prop
	if bound != nil {
		last := &run.Steps[len(run.Steps)-1]
		last.Assigned = nil
		if bound.rec.in.Op == program.OpCall {
			last.Nondet = nil // refused before its arguments are evaluated
		}
		run.Violated, run.Unwind, run.UnwindSet = bound.id, e.unwind(), e.b.SetMap()
	}
	return run, nil
}

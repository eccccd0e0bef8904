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
// the clocks of their blocks, cut after the first violated assertion.
func (e *enc) buildRun(s *smt.Solver) (*program.Run, error) {
	m := &modelReader{s: s, index: map[string]int{}}
	for _, th := range e.threads {
		m.want(th.spawnG)
		for _, b := range th.blocks {
			m.want(&term{s: b.clock})
		}
		for _, r := range th.steps {
			m.want(r.g)
		}
	}
	if err := m.fetch(); err != nil {
		return nil, err
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
			if r.tail || !m.truth(r.g) {
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
		if r.heap != nil && r.heap.count != nil {
			m2.want(r.heap.count)
		}
		_ = i
	}
	if err := m2.fetch(); err != nil {
		return nil, err
	}
	for i, it := range items {
		if it.rec.assert != nil && !m2.truth(it.rec.assert) {
			cut = i
			break
		}
	}
	if cut < 0 {
		return nil, fmt.Errorf("the model has no violated assertion")
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
	nthreads, nheap := 0, 0
	for _, it := range items {
		r := it.rec
		if r.child != nil && m.truth(r.child.spawnG) {
			nthreads++
			runID[r.child] = nthreads
			if got := m2.get(r.child.tid).Uint64(); got != uint64(nthreads) {
				return nil, fmt.Errorf("spawn at %s: thread id %d in the model, %d in the run", r.in.Label, got, nthreads)
			}
		}
		if r.heap != nil {
			nheap++
			heapName[r.heap] = fmt.Sprintf("heap#%d", nheap)
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
	value := func(v val, t *program.Type) program.Value {
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
				return program.Value{Obj: objName(o), Off: off}
			}
			return program.Value{Obj: fmt.Sprintf("object#%d", id), Off: off}
		}
		bits := m2.get(v.t).Uint64()
		if t != nil && t.Kind == program.Int && t.Signed {
			return program.Value{Bits: sext(bits, v.t.w)}
		}
		return program.Value{Bits: int64(bits)}
	}
	run := &program.Run{}
	for _, it := range items {
		r := it.rec
		st := program.Step{Thread: runID[r.th], Label: r.in.Label}
		if _, ok := runID[r.th]; !ok {
			return nil, fmt.Errorf("step %s of a thread that was not spawned in the run", r.in.Label)
		}
		nondet, live := r.nondet, int64(-1)
		if o := r.heap; o != nil && o.count != nil {
			// a block of a run-time length: the encoding has heapCap
			// elements, the run only the cells of the length drawn
			live = int64(m2.get(o.count).Uint64())
			if drop := o.ncells - live; drop > 0 && int(drop) <= len(nondet) {
				nondet = nondet[:len(nondet)-int(drop)]
			}
		}
		for _, nd := range nondet {
			st.Nondet = append(st.Nondet, value(nd.v, nd.t))
		}
		for _, a := range r.assigned {
			if !m2.truth(a.cond) || (live >= 0 && a.obj == r.heap && a.off >= live) {
				continue
			}
			st.Assigned = append(st.Assigned, program.Write{Loc: objName(a.obj) + a.obj.typ.CellPath(a.off), Val: value(a.v, a.obj.cellType(a.off))})
		}
		run.Steps = append(run.Steps, st)
	}
	run.Violated = items[len(items)-1].rec.in.Prop
	return run, nil
}

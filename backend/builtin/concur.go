package builtin

import (
	"maps"
	"slices"
	"strconv"
)

func valEq(a, b val) *term {
	if (a.obj == nil) != (b.obj == nil) {
		panic("comparison of pointer and integer cell values")
	}
	if a.obj != nil {
		return and(eq(a.obj, b.obj), eq(a.t, b.t))
	}
	return eq(a.t, b.t)
}

// finish emits the concurrency constraints: reads-from with no intervening
// write, thread ids of spawns, joins.
func (e *enc) finish() {
	keys := slices.SortedFunc(maps.Keys(e.cellEv), cmpCell)
	for _, k := range keys {
		ce := e.cellEv[k]
		if len(ce.reads) == 0 {
			continue
		}
		o := e.objs[k.obj]
		initV := o.initVal(k.off)
		if initV.t == nil {
			initV = e.freshVal("i", o.cellType(k.off))
		}
		var writes []*event
		for _, w := range ce.writes {
			if !isFalse(w.g) {
				writes = append(writes, w)
			}
		}
		for _, r := range ce.reads {
			if isFalse(r.g) {
				continue
			}
			e.readsFrom(r, initV, writes)
		}
	}
	e.distinctWrites()
	e.regionHints()
	e.threadIDs()
	for _, j := range e.joins {
		var alts []*term
		for _, th := range e.threads {
			if th.end == nil {
				continue
			}
			alt := e.name(and(th.spawnG, th.endG, eq(resize(th.tid, 64, false), j.t.t), e.clockLT(th.end.clock, j.blk.clock)))
			alts = append(alts, alt)
			if j.res != nil {
				e.assert(implies(alt, valEq(*j.res, th.res)))
			}
		}
		e.assert(eq(j.ok, or(alts...)))
	}
}

func (s *stepRec) idx() int { return s.seq }

// threadIDs numbers the threads as the interpreter does: the k-th spawn of
// the run (dormant ones too) creates thread k. A spawn counts the spawns
// of its own thread in earlier blocks (a running sum, so that the 10000
// spawns of a loop cost a linear formula) and those of other threads
// whose block's clock is smaller.
func (e *enc) threadIDs() {
	byTh := map[*thread][]*stepRec{}
	var ths []*thread
	for _, s := range e.spawns {
		if s.child == nil && s.dormant == nil {
			continue
		}
		if byTh[s.th] == nil {
			ths = append(ths, s.th)
		}
		byTh[s.th] = append(byTh[s.th], s)
	}
	own := map[*stepRec]*term{}
	for _, th := range ths {
		list := byTh[th]
		slices.SortStableFunc(list, func(a, b *stepRec) int { return a.seq - b.seq })
		running := bvc(32, 0)
		for _, s := range list {
			own[s] = running
			running = e.name(bin("bvadd", running, boolToBV(s.pg, 32)))
		}
	}
	for _, th := range ths {
		for _, s := range byTh[th] {
			sum := bin("bvadd", bvc(32, 1), own[s])
			for _, th2 := range ths {
				if th2 == th {
					continue
				}
				for _, s2 := range byTh[th2] {
					before := and(s2.pg, e.clockLT(s2.blk.clock, s.blk.clock))
					if s2.idx() < s.idx() {
						// distinct clocks for spawns of different threads
						e.assert(implies(and(s.pg, s2.pg), not(&term{s: "(= " + s.blk.clock + " " + s2.blk.clock + ")"})))
					}
					sum = bin("bvadd", sum, boolToBV(before, 32))
				}
			}
			if s.child != nil {
				e.assert(eq(s.child.tid, sum))
			} else {
				e.assert(eq(s.dormant, sum))
			}
		}
	}
}

// readsFrom encodes what read r sees with the "last write" formulation,
// linear in the number of writes: L is the clock of the last write of the
// cell before r (the initial value has clock 0, every block clock is
// positive); every write before r has a clock <= L; r reads from a write
// whose clock is L. Writes of one cell from different threads have distinct
// clocks (see distinctWrites), so the last write is unique.
func (e *enc) readsFrom(r *event, initV val, writes []*event) {
	e.tick()
	// Writes statically before r: earlier in r's thread, or in an ancestor
	// thread before the Spawn that leads to r's thread (r happens only if
	// that Spawn did). rank orders them: by thread along the chain of
	// ancestors (main lowest, r's thread highest), then in program order.
	type link struct {
		dist   int    // from r's thread (0) towards main
		cutoff int    // writes before this block seq are before r
		sure   string // a write with this guard happens when r does
	}
	chain := map[*thread]link{}
	for th, seq, g := r.blk.th, r.blk.seq, r.g; th != nil; th = th.parent {
		chain[th] = link{len(chain), seq, g.s}
		if th.spawn != nil {
			seq, g = th.spawn.seq, th.spawnAt
		}
	}
	rank := func(w *event) (int, bool) {
		l, ok := chain[w.blk.th]
		if !ok || w.blk.seq >= l.cutoff {
			return 0, false
		}
		return (len(chain)-l.dist)<<32 | w.blk.seq, true
	}
	var cands []*event
	for _, w := range writes {
		if w.blk == r.blk {
			continue
		}
		if w.blk.th == r.blk.th && w.blk.seq > r.blk.seq {
			continue // later in program order
		}
		cands = append(cands, w)
	}
	// The latest write statically before r that surely happens when r
	// does hides every write statically before it, and the initial value.
	var own *event
	ownRank := -1
	for _, w := range cands {
		k, ok := rank(w)
		if ok && (isTrue(w.g) || w.g.s == chain[w.blk.th].sure) && k > ownRank {
			own, ownRank = w, k
		}
	}
	if own != nil {
		kept := cands[:0:0]
		for _, w := range cands {
			if k, ok := rank(w); ok && k < ownRank {
				continue
			}
			kept = append(kept, w)
		}
		cands = kept
	}
	ct := e.objs[r.cell.obj].cellType(r.cell.off)
	initV = e.convertCell(initV, ct)
	// With one possible source the read's value is that source's,
	// unconditionally: r's fresh value matters only when r happens, and
	// the solver can then substitute it (terms over it, such as x / d and
	// x % d in two reads, become one).
	if len(cands) == 0 {
		e.assert(valEq(r.v, initV))
		return
	}
	if len(cands) == 1 && cands[0] == own {
		e.assert(valEq(r.v, own.v))
		return
	}
	e.nsym++
	L := "L" + strconv.Itoa(e.nsym)
	e.out.WriteString("(declare-fun " + L + " () " + e.clockSort() + ")\n")
	zero := e.clockZero()
	var rfs []*term
	newRF := func() *term {
		e.nsym++
		name := "rf" + strconv.Itoa(e.nsym)
		e.out.WriteString("(declare-fun " + name + " () Bool)\n")
		t := &term{s: name}
		rfs = append(rfs, t)
		return t
	}
	if own == nil {
		rf0 := newRF()
		e.assert(implies(rf0, and(valEq(r.v, initV), &term{s: "(= " + L + " " + zero + ")"})))
	}
	for _, w := range cands {
		before := tTrue
		notAfter := tTrue
		if _, ok := rank(w); !ok {
			before = e.clockLT(w.blk.clock, r.blk.clock)
			notAfter = e.clockLE(w.blk.clock, r.blk.clock)
		}
		// every write not after r is no later than L; since the write r
		// reads from is strictly before r, this also rules out a write of
		// another thread with the same clock as r
		e.assert(implies(and(w.g, notAfter), e.clockLE(w.blk.clock, L)))
		rf := newRF()
		e.assert(implies(rf, and(w.g, before, valEq(r.v, w.v), &term{s: "(= " + L + " " + w.blk.clock + ")"})))
	}
	e.assert(implies(r.g, or(rfs...)))
}

func (e *enc) clockLE(a, b string) *term {
	if e.clockInt {
		return &term{s: "(<= " + a + " " + b + ")"}
	}
	return &term{s: "(bvule " + a + " " + b + ")"}
}

func (e *enc) clockZero() string {
	if e.clockInt {
		return "0"
	}
	return "(_ bv0 24)"
}

// distinctWrites makes the clocks of blocks of different threads that write
// a common cell distinct when both happen.
func (e *enc) distinctWrites() {
	type pair struct{ a, b int }
	done := map[pair]bool{}
	keys := slices.SortedFunc(maps.Keys(e.cellEv), cmpCell)
	for _, k := range keys {
		ce := e.cellEv[k]
		if len(ce.reads) == 0 {
			continue
		}
		for i, w := range ce.writes {
			for _, w2 := range ce.writes[i+1:] {
				if w.blk.th == w2.blk.th || isFalse(w.g) || isFalse(w2.g) {
					continue
				}
				p := pair{w.blk.id, w2.blk.id}
				if done[p] {
					continue
				}
				done[p] = true
				e.assert(implies(and(w.g, w2.g), not(&term{s: "(= " + w.blk.clock + " " + w2.blk.clock + ")"})))
			}
		}
	}
}

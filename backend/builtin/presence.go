package builtin

// Steps of blocks that do not complete.
//
// A thread that blocks inside an atomic section (a failing assumption, lock
// or join, a bound cut) or inside a collapsed lock region simply stops in
// the encoding: the block's writes are flushed at its end under the guard
// at the end, so they are dropped, and the other threads go on. The
// interpreter has no such state: a thread inside an atomic section excludes
// every other thread, so a run in which it blocks there ends. The run built
// from a model therefore leaves out the steps of a block that does not
// complete, as if the thread had never entered it. The interpreter allows
// that run, and it has the same effect on the other threads: the block's
// reads change nothing, its writes are dropped, and a child it spawns
// starts only when it completes (runThread). The exception is a violation
// inside the block: then its steps up to the violated assertion stay in the
// run, which ends there.
//
// The presence guard of a step record r of block b says whether r belongs
// to the run built from a model (buildRun, the thread ids of spawns, and
// F(seq) of incremental instances use it):
//
//	pg(r) = g(r) ∧ (complete(b) ∨ ∨{ g(a) ∧ ¬cond(a) : a an assertion of b at or after r })
//
// and pg(r) = g(r) for steps of one-instruction blocks and thread-local
// steps, whose guard already says whether they complete.

// complete returns the condition under which block b, once started, ends.
func (e *enc) complete(b *block) *term {
	if b.done != nil {
		return b.done
	}
	var c *term
	for _, g := range b.ends {
		if g.s == b.g.s {
			c = tTrue // every step of b implies b.g
			break
		}
	}
	if c == nil {
		c = e.name(or(b.ends...))
	}
	b.done = c
	return c
}

// multiStep says whether b may hold several steps.
func multiStep(b *block) bool { return b != nil && (b.kind == "atomic" || b.kind == "region") }

// presence sets the presence guard pg of every step record (see above).
func (e *enc) presence() {
	for _, th := range e.threads {
		byBlk := map[*block][]*stepRec{}
		for _, r := range th.steps {
			r.pg = r.g
			if multiStep(r.blk) && !r.tail {
				byBlk[r.blk] = append(byBlk[r.blk], r)
			}
		}
		for _, b := range th.blocks {
			rs := byBlk[b]
			if len(rs) == 0 {
				continue
			}
			done := e.complete(b)
			if isTrue(done) {
				continue
			}
			viol := tFalse // a violated assertion of b at or after the step
			for i := len(rs) - 1; i >= 0; i-- {
				r := rs[i]
				if r.assert != nil {
					viol = e.name(or(and(r.g, not(r.assert)), viol))
				}
				if isFalse(r.g) {
					continue
				}
				r.pg = e.name(and(r.g, or(done, viol)))
			}
		}
	}
}

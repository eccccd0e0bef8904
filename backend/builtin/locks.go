package builtin

import (
	stdcmp "cmp"
	"maps"
	"slices"

	"cegpv.dev/cegpv/program"
)

// Lock regions. Code between the acquisition and the release of a lock l
// (a pthread mutex, or a global driven by user-defined atomic lock
// functions such as the __VERIFIER_atomic_begin/end of the SV-COMP wmm
// tasks) can be executed as one atomic block when l is "collapsible": every
// access, by any thread, to a cell that is accessed while l is held also
// holds l; the lock cell is only touched by the lock operations; regions are
// well nested in one activation and contain no other synchronisation. Then
// other threads' steps commute with the region's steps (they touch no cell
// of the region), so running the region atomically keeps the reachable
// violations (reduction), while it removes most clocks and events. The
// first symbolic execution (without collapsing) records, for each event,
// the locks held; collapsible() decides from it; a second execution
// collapses. Any doubt (an irregular region) disqualifies the lock.

const (
	lockAcquire = 1
	lockRelease = 2
)

type heldLock struct {
	cell  cellKey
	frame int
	reg   *region
}

// region is one instance of a lock region: from an acquisition to the
// matching release in one thread.
type region struct {
	idx      int // creation order (the same in every symbolic execution)
	blocking bool
	lock     cellKey
	th       *thread
	acq      *block
	acqG     *term // the lock was obtained
	rel      *block
	relG     *term // the lock was released
}

// lockFunc is a user-defined atomic lock function: what it does (kind) to
// which lock cell: the global gid, or, when gid < 0, the global whose
// address is the call's only argument.
type lockFunc struct {
	kind int
	gid  int
}

// lockFuncs recognises user-defined atomic lock functions
// (program.Func.LockFunc).
func (e *enc) lockFuncs() map[string]lockFunc {
	out := map[string]lockFunc{}
	for _, f := range e.p.Funcs {
		pl, ok := f.LockFunc()
		if !ok {
			continue
		}
		lf := lockFunc{gid: -1, kind: lockRelease}
		if pl.Acquire {
			lf.kind = lockAcquire
		}
		if pl.Global != "" {
			g := e.globals[pl.Global]
			if g == nil {
				continue
			}
			lf.gid = g.id
		}
		out[f.Name] = lf
	}
	return out
}

// lockOpOf says whether in acquires or releases a lock with a statically
// known cell.
func (e *enc) lockOpOf(in *program.Instr) (int, cellKey, bool) {
	switch in.Op {
	case program.OpLock, program.OpUnlock:
		a, ok := in.Rhs.(*program.AddrOf)
		if !ok {
			return 0, cellKey{}, false
		}
		r, ok := a.X.(*program.Ref)
		if !ok || r.Local || e.globals[r.Name] == nil || r.T.Kind != program.Mutex {
			return 0, cellKey{}, false
		}
		k := lockAcquire
		if in.Op == program.OpUnlock {
			k = lockRelease
		}
		return k, cellKey{e.globals[r.Name].id, 0}, true
	case program.OpCall:
		fr, ok := in.Func.(*program.FuncRef)
		if !ok || in.Lhs != nil {
			return 0, cellKey{}, false
		}
		lf, ok := e.lockFn[fr.Name]
		if !ok {
			return 0, cellKey{}, false
		}
		if lf.gid >= 0 {
			return lf.kind, cellKey{lf.gid, 0}, true
		}
		if len(in.Args) != 1 {
			return 0, cellKey{}, false
		}
		a, ok := program.StripCasts(in.Args[0]).(*program.AddrOf)
		if !ok {
			return 0, cellKey{}, false
		}
		r, ok := a.X.(*program.Ref)
		if !ok || r.Local || e.globals[r.Name] == nil || !r.T.IsInteger() {
			return 0, cellKey{}, false
		}
		return lf.kind, cellKey{e.globals[r.Name].id, 0}, true
	}
	return 0, cellKey{}, false
}

func (e *enc) disqualify(hs []heldLock) {
	for _, h := range hs {
		e.lockBad[h.cell] = true
	}
}

func heldIndex(hs []heldLock, c cellKey) int {
	for i, h := range hs {
		if h.cell == c {
			return i
		}
	}
	return -1
}

// mergeHeld intersects the held locks of two paths. The locks held on one
// path only, or in different regions, are returned as mixed: the merged
// state does not know whether they are held. That is harmless while it
// only passes skips, unconditional jumps and constant assertions, typically
// on the way to assert(0), after which the path is dead; any other step
// disqualifies them (settleMixed).
func mergeHeld(a, b *state) (held []heldLock, mixed []cellKey) {
	mixed = slices.Clone(a.mixed)
	for _, c := range b.mixed {
		if !slices.Contains(mixed, c) {
			mixed = append(mixed, c)
		}
	}
	addMixed := func(c cellKey) {
		if !slices.Contains(mixed, c) {
			mixed = append(mixed, c)
		}
	}
	for _, h := range a.held {
		if i := heldIndex(b.held, h.cell); i >= 0 {
			if b.held[i].reg != h.reg {
				addMixed(h.cell)
			}
			held = append(held, h)
		} else {
			addMixed(h.cell)
		}
	}
	for _, h := range b.held {
		if heldIndex(a.held, h.cell) < 0 {
			addMixed(h.cell)
		}
	}
	return held, mixed
}

// settleMixed disqualifies the mixed locks of st (see mergeHeld) unless in
// is harmless for them.
func (e *enc) settleMixed(st *state, in *program.Instr) {
	if len(st.mixed) == 0 {
		return
	}
	switch in.Op {
	case program.OpSkip:
		return
	case program.OpGoto:
		if in.Rhs == nil {
			return
		}
	case program.OpAssert:
		if _, ok := in.Rhs.(*program.Const); ok {
			return
		}
	}
	for _, c := range st.mixed {
		e.lockBad[c] = true
	}
	st.mixed = nil
}

// collapsible returns the locks whose regions may run as one block.
func (e *enc) collapsible() map[cellKey]bool {
	out := map[cellKey]bool{}
	for l := range e.lockSeen {
		if !e.lockBad[l] {
			out[l] = true
		}
	}
	if len(out) == 0 {
		return nil
	}
	for _, k := range slices.SortedFunc(maps.Keys(e.cellEv), cmpCell) {
		ce := e.cellEv[k]
		all := append(slices.Clone(ce.reads), ce.writes...)
		if out[k] {
			for _, ev := range all {
				if !ev.sync {
					delete(out, k)
					break
				}
			}
			continue
		}
		for l := range out {
			under, outside := false, false
			for _, ev := range all {
				if heldIndex(ev.held, l) >= 0 {
					under = true
				} else {
					outside = true
				}
			}
			if under && outside {
				delete(out, l)
			}
		}
	}
	// the initial value of an address-taken or heap cell that is written
	// by a Decl/Alloc is an event outside any region: handled above.
	return out
}

// usableLock says whether the lock cell l is regular (not disqualified) and
// touched only by lock operations.
func (e *enc) usableLock(l cellKey) bool {
	if e.lockBad[l] {
		return false
	}
	if ce := e.cellEv[l]; ce != nil {
		for _, ev := range append(slices.Clone(ce.reads), ce.writes...) {
			if !ev.sync {
				return false
			}
		}
	}
	return true
}

// cmpCell orders cells by object, then offset (for deterministic
// iteration over maps keyed by cells).
func cmpCell(a, b cellKey) int {
	if a.obj != b.obj {
		return stdcmp.Compare(a.obj, b.obj)
	}
	return stdcmp.Compare(a.off, b.off)
}

// regionHints adds constraints implied by mutual exclusion: two regions of
// one lock in different threads that both release it do not overlap. They
// hold for locks whose cell only lock operations touch and whose regions
// are regular (not disqualified), and help the solver order the many
// blocks of the regions. A region that never releases (its thread blocks
// in it, or violates an assertion in it) constrains nothing: a collapsed
// region that does not complete is encoded as if its thread had never
// entered it (presence.go), so another thread may take the lock after its
// acquisition in the encoding. (Constraining it, the first version of this
// function lost every violation inside such a region whenever another
// thread's region of the lock did not complete either.)
func (e *enc) regionHints() {
	byLock := map[cellKey][]*region{}
	for _, r := range e.regions {
		byLock[r.lock] = append(byLock[r.lock], r)
	}
	for _, l := range slices.SortedFunc(maps.Keys(byLock), cmpCell) {
		if !e.usableLock(l) {
			continue
		}
		rs := byLock[l]
		for i, a := range rs {
			for _, b := range rs[i+1:] {
				if a.th == b.th {
					continue
				}
				if a.rel == nil || b.rel == nil {
					continue
				}
				ab := e.clockLT(a.rel.clock, b.acq.clock)
				ba := e.clockLT(b.rel.clock, a.acq.clock)
				e.assert(implies(and(a.acqG, b.acqG, a.relG, b.relG), or(ab, ba)))
			}
		}
	}
}

func markBlocking(hs []heldLock) {
	for _, h := range hs {
		if h.reg != nil {
			h.reg.blocking = true
		}
	}
}

// cut records that paths with guard g exceed a bound at the step rec:
// a loop's or a recursion bound (id, the unwinding property, and key, its
// program.Unwinding.Key), or a thread bound (id empty).
func (e *enc) cut(st *state, g *term, rec *stepRec, id, key string) {
	e.cuts = append(e.cuts, cutRec{g: g, rec: rec, id: id, key: key})
	markBlocking(st.held)
}

// cutRec is a set of paths cut at a bound (enc.cut).
type cutRec struct {
	g       *term
	rec     *stepRec
	id, key string
}

// collapsibleRegions returns the region instances that may run as one block
// although their lock does not protect all their data: by Lipton's
// reduction, a region whose steps all commute with the other threads'
// steps except for at most one (one block with a racy access: a conflict
// with an access of another thread that does not hold the lock) is
// equivalent to an atomic one, provided it always completes (no assumption,
// lock or bound cut inside: a region stopped after its racy write would
// lose that write when collapsed).
func (e *enc) collapsibleRegions(whole map[cellKey]bool) map[int]bool {
	out := map[int]bool{}
	// locks usable at all: regular, cell touched only by lock operations
	usable := map[cellKey]bool{}
	for l := range e.lockSeen {
		if e.usableLock(l) {
			usable[l] = true
		}
	}
	racy := map[*region]map[*block]bool{}
	for _, k := range slices.SortedFunc(maps.Keys(e.cellEv), cmpCell) {
		ce := e.cellEv[k]
		all := append(slices.Clone(ce.reads), ce.writes...)
		for _, ev := range all {
			for _, h := range ev.held {
				if h.reg == nil || !usable[h.cell] || whole[h.cell] || k == h.cell {
					continue
				}
				for _, o := range all {
					if o.blk.th != ev.blk.th && heldIndex(o.held, h.cell) < 0 && (o.write || ev.write) {
						if racy[h.reg] == nil {
							racy[h.reg] = map[*block]bool{}
						}
						racy[h.reg][ev.blk] = true
						break
					}
				}
			}
		}
	}
	for _, r := range e.regions {
		if !usable[r.lock] || whole[r.lock] {
			continue
		}
		n := len(racy[r])
		if n == 0 || (n == 1 && !r.blocking) {
			out[r.idx] = true
		}
	}
	return out
}

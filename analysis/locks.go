package analysis

import (
	"slices"
	"sort"

	"cegpv.dev/cegpv/program"
)

// Globals protected by locks.
//
// A thread that holds lock L and whose next step touches only its private
// locals and globals that every thread touches only while holding L takes
// a step that commutes with every step the other threads can take until it
// moves: they cannot touch those globals without L, and they cannot take L.
// Explore then explores that step alone (an ample set of one thread), so a
// critical section runs without interleaving, as under Lipton's reduction.
//
// The analysis is static and conservative:
//
//   - A lock is a global g taken and released only by lock operations that
//     name it: pthread_mutex_lock/unlock(&g), and calls of atomic
//     functions whose whole body is assume(X == 0); X = 1 (acquire) or
//     [assume(X == 1);] X = 0 (release), X being g itself or *p for a
//     parameter p passed &g. Its address appears nowhere else (no pointer
//     can reach it), its initial value is 0, and every other write of it
//     (pthread_mutex_init) counts as a release.
//   - locksets: the locks a thread holds at an instruction on every path
//     (a must-analysis over the call graph: a thread's entry function,
//     main and functions called through pointers start with none; a call
//     drops every lock the callee may release).
//   - A lock qualifies only if every release of it happens where the
//     releasing thread holds it (or in main before the first thread is
//     created), so that at most one thread holds it at any time.
//   - A global (whose address is never taken) is protected by the locks
//     held at every instruction that reads or writes it, except those of
//     main before it creates the first thread (no other thread exists).

// lockPat describes an atomic lock function.
type lockPat struct {
	acquire bool
	global  string // X is this global; or
	param   int    // X is *p for parameter param (when global == "")
}

// LockInfo is the result of AnalyseLocks.
type LockInfo struct {
	locks     []string                   // qualified locks; bit i is locks[i]
	ls        map[*program.Func][]uint64 // locks held before each instruction
	protected map[string]uint64          // global -> locks held at all its accesses
}

// guarded reports whether the global g is protected by a lock held before
// instruction pc of f, or is such a lock (which the instruction may read;
// privacy.step rejects instructions that write a lock, see writesLock).
func (li *LockInfo) guarded(f *program.Func, pc int, g string) bool {
	if li == nil {
		return false
	}
	ls := li.ls[f]
	if pc >= len(ls) || ls[pc] == ^uint64(0) {
		return false // not reached (or an analysis error): no claim
	}
	if ls[pc]&li.protected[g] != 0 {
		return true
	}
	i := slices.Index(li.locks, g)
	return i >= 0 && ls[pc]&(1<<i) != 0
}

// writesLock reports whether in stores into a lock (outside the lock
// functions, whose calls are not private).
func (li *LockInfo) writesLock(in *program.Instr) bool {
	if li == nil || in.Lhs == nil {
		return false
	}
	g := lhsGlobal(in.Lhs)
	return g != "" && slices.Contains(li.locks, g)
}

// lhsGlobal returns the global that a store into lhs writes (g, g[i], g.f,
// *&g), or "".
func lhsGlobal(lhs program.Expr) string {
	if d, ok := lhs.(*program.Deref); ok {
		if a, ok := program.StripCasts(d.X).(*program.AddrOf); ok {
			lhs = a.X
		}
	}
	if r := Root(lhs); r != nil && !r.Local {
		return r.Name
	}
	return ""
}

// lockFunc recognises an atomic lock function (program.Func.LockFunc).
func lockFunc(f *program.Func) (lockPat, bool) {
	pl, ok := f.LockFunc()
	return lockPat{acquire: pl.Acquire, global: pl.Global}, ok
}

// lockOp is a lock operation of an instruction: acquire or release of the
// global lock, when known.
type lockOp struct {
	lock    string
	acquire bool
}

// AnalyseLocks finds the globals of p protected by locks (see the top of
// the file); nil when no lock discipline holds.
func AnalyseLocks(p *program.Program) *LockInfo {
	pats := map[string]lockPat{}
	for _, f := range p.Funcs {
		if pat, ok := lockFunc(f); ok {
			pats[f.Name] = pat
		}
	}
	globalOf := func(e program.Expr) string {
		if a, ok := program.StripCasts(e).(*program.AddrOf); ok {
			if r, ok := a.X.(*program.Ref); ok && !r.Local {
				return r.Name
			}
		}
		return ""
	}
	opOf := func(in *program.Instr) (lockOp, bool) {
		switch in.Op {
		case program.OpLock, program.OpUnlock:
			if g := globalOf(in.Rhs); g != "" {
				return lockOp{g, in.Op == program.OpLock}, true
			}
		case program.OpCall:
			fr, ok := in.Func.(*program.FuncRef)
			if !ok {
				break
			}
			pat, ok := pats[fr.Name]
			if !ok {
				break
			}
			if pat.global != "" {
				return lockOp{pat.global, pat.acquire}, true
			}
			if pat.param < len(in.Args) {
				if g := globalOf(in.Args[pat.param]); g != "" {
					return lockOp{g, pat.acquire}, true
				}
			}
		}
		return lockOp{}, false
	}
	// candidates, and why some cannot be locks
	cand := map[string]bool{}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if op, ok := opOf(in); ok {
				cand[op.lock] = true
			}
		}
	}
	if len(cand) == 0 {
		return nil
	}
	for _, g := range p.Globals {
		if cand[g.Name] && g.Init != nil {
			if c, ok := program.StripCasts(g.Init).(*program.Const); !ok || c.V != 0 {
				delete(cand, g.Name)
			}
		}
	}
	// a lock function on a global that may run other than by a direct
	// call has call sites we do not see
	roots := entries(p)
	for name, pat := range pats {
		if pat.global != "" && roots[name] {
			delete(cand, pat.global)
		}
	}
	// addresses of candidates outside lock operations
	addr := map[string]int{}
	countAddr := func(e program.Expr) {
		program.Walk(e, func(x program.Expr) bool {
			if a, ok := x.(*program.AddrOf); ok {
				if r := Root(a.X); r != nil && !r.Local {
					addr[r.Name]++
				}
			}
			return true
		})
	}
	for _, g := range p.Globals {
		countAddr(g.Init)
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			for _, e := range in.Operands() {
				countAddr(e)
			}
			if op, ok := opOf(in); ok && (in.Op != program.OpCall || pats[in.Func.(*program.FuncRef).Name].global == "") {
				addr[op.lock]-- // the &g of the operation
			}
			if d, ok := in.Lhs.(*program.Deref); ok && globalOf(d.X) != "" {
				addr[globalOf(d.X)]-- // *&g is g
			}
		}
	}
	for g := range cand {
		if addr[g] != 0 {
			delete(cand, g)
		}
	}
	// writes of a lock other than by its operations count as releases;
	// lock functions' own bodies are the operations
	writes := func(f *program.Func, in *program.Instr) string {
		if _, ok := pats[f.Name]; ok {
			return ""
		}
		switch in.Op {
		case program.OpAssign, program.OpCall, program.OpSpawn, program.OpJoin:
		default:
			return ""
		}
		return lhsGlobal(in.Lhs)
	}
	pre := preSpawn(p)
	for {
		li := computeLocksets(p, cand, roots, opOf, writes)
		if li == nil {
			return nil
		}
		// discipline: only holders release
		bad := ""
		for _, f := range p.Funcs {
			for pc, in := range f.Body {
				g := writes(f, in)
				if op, ok := opOf(in); ok && !op.acquire {
					g = op.lock
				}
				if g == "" || !cand[g] || pre[in] {
					continue
				}
				i := slices.Index(li.locks, g)
				if i >= 0 && li.ls[f][pc]&(1<<i) == 0 {
					bad = g
				}
			}
		}
		if bad == "" {
			li.protect(p, pre)
			return li
		}
		delete(cand, bad)
	}
}

// computeLocksets runs the must-lockset analysis for the candidate locks.
// roots are the functions that start with no lock held (entries).
func computeLocksets(p *program.Program, cand, roots map[string]bool, opOf func(*program.Instr) (lockOp, bool), writes func(*program.Func, *program.Instr) string) *LockInfo {
	var locks []string
	for g := range cand {
		locks = append(locks, g)
	}
	sort.Strings(locks)
	if len(locks) == 0 {
		return nil
	}
	if len(locks) > 64 {
		locks = locks[:64]
	}
	bit := map[string]uint64{}
	for i, g := range locks {
		bit[g] = 1 << i
	}
	all := allBits(len(locks))
	// mayRelease: locks a call may release (transitively)
	mayRel := map[string]uint64{}
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			r := mayRel[f.Name]
			for _, in := range f.Body {
				if op, ok := opOf(in); ok && !op.acquire {
					r |= bit[op.lock]
				}
				r |= bit[writes(f, in)]
				if in.Op == program.OpCall {
					if fr, ok := in.Func.(*program.FuncRef); ok {
						r |= mayRel[fr.Name]
					} else {
						r = all
					}
				}
			}
			if r != mayRel[f.Name] {
				mayRel[f.Name] = r
				changed = true
			}
		}
	}
	const unreached = ^uint64(0)
	li := &LockInfo{locks: locks, ls: map[*program.Func][]uint64{}}
	entry := map[string]uint64{}
	// ret: locks held at every return of a function (its lockset with the
	// entry lockset common to its callers); a caller holds them after
	// the call, besides its own locks the callee may not release
	ret := map[string]uint64{}
	for _, f := range p.Funcs {
		entry[f.Name] = unreached
		ret[f.Name] = unreached
		if roots[f.Name] {
			entry[f.Name] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			n := len(f.Body)
			ls := make([]uint64, n+1)
			for i := range ls {
				ls[i] = unreached
			}
			if n == 0 {
				li.ls[f] = ls
				continue
			}
			ls[0] = entry[f.Name]
			succ := runSuccs(f)
			for again := true; again; {
				again = false
				for pc, in := range f.Body {
					s := ls[pc]
					if s == unreached {
						continue
					}
					out := s
					if g := callee(p, in); g != nil && entry[g.Name]&s != entry[g.Name] {
						entry[g.Name] &= s
						changed = true
					}
					if op, ok := opOf(in); ok {
						if op.acquire {
							out |= bit[op.lock]
						} else {
							out &^= bit[op.lock]
						}
					} else if in.Op == program.OpCall {
						if fr, ok := in.Func.(*program.FuncRef); ok {
							out = out&^mayRel[fr.Name] | ret[fr.Name]&all
						} else {
							out = 0
						}
					}
					out &^= bit[writes(f, in)]
					for _, t := range succ[pc] {
						if m := ls[t] & out; m != ls[t] {
							ls[t] = m
							again = true
						}
					}
				}
			}
			r := ls[n]
			for pc, in := range f.Body {
				if in.Op == program.OpReturn {
					r &= ls[pc]
				}
			}
			if r != ret[f.Name] {
				ret[f.Name] = r
				changed = true
			}
			li.ls[f] = ls
		}
	}
	return li
}

// preSpawn returns the instructions of main that run before any thread is
// created, on every path (none when main is called).
func preSpawn(p *program.Program) map[*program.Instr]bool {
	main := p.Func("main")
	if main == nil {
		return nil
	}
	maySpawn := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			if maySpawn[f.Name] {
				continue
			}
			for _, in := range f.Body {
				s := in.Op == program.OpSpawn
				if in.Op == program.OpCall {
					fr, ok := in.Func.(*program.FuncRef)
					s = !ok || maySpawn[fr.Name]
					if ok && fr.Name == "main" {
						return nil
					}
				}
				if s {
					maySpawn[f.Name] = true
					changed = true
					break
				}
			}
		}
	}
	// before: no thread created yet, on every path
	before := mustForward(main, true, func(pc int, none bool) bool {
		switch in := main.Body[pc]; in.Op {
		case program.OpSpawn:
			return false
		case program.OpCall:
			if fr, ok := in.Func.(*program.FuncRef); !ok || maySpawn[fr.Name] {
				return false
			}
		}
		return none
	})
	out := map[*program.Instr]bool{}
	for pc, in := range main.Body {
		if before[pc] == 2 {
			out[in] = true
		}
	}
	return out
}

// protect computes the locks protecting each global.
func (li *LockInfo) protect(p *program.Program, pre map[*program.Instr]bool) {
	li.protected = map[string]uint64{}
	taken := TakenAddrs(p)
	isLock := map[string]bool{}
	for _, g := range li.locks {
		isLock[g] = true
	}
	for _, g := range p.Globals {
		if !taken[g.Name] && !isLock[g.Name] {
			li.protected[g.Name] = ^uint64(0)
		}
	}
	for _, f := range p.Funcs {
		for pc, in := range f.Body {
			if pre[in] {
				continue
			}
			held := li.ls[f][pc]
			for _, e := range in.Operands() {
				program.Walk(e, func(x program.Expr) bool {
					if r, ok := x.(*program.Ref); ok && !r.Local {
						if m, ok := li.protected[r.Name]; ok {
							li.protected[r.Name] = m & held
						}
					}
					return true
				})
			}
		}
	}
	all := allBits(len(li.locks))
	for g, m := range li.protected {
		li.protected[g] = m & all
	}
}

// allBits is the mask of n (at most 64) locks.
func allBits(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return uint64(1)<<n - 1
}

// entries returns main and the functions that may run other than by a
// direct call: thread entry functions and functions whose address is taken
// (in an instruction, or in a global's initializer).
func entries(p *program.Program) map[string]bool {
	out := map[string]bool{"main": true}
	visit := func(e program.Expr) {
		program.Walk(e, func(x program.Expr) bool {
			if fr, ok := x.(*program.FuncRef); ok {
				out[fr.Name] = true
			}
			return true
		})
	}
	for _, g := range p.Globals {
		visit(g.Init)
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			for _, e := range in.Operands() {
				if in.Op != program.OpCall || e != in.Func {
					visit(e)
				}
			}
		}
	}
	return out
}

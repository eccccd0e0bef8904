// Package budget measures the CPU time of cegpv's engines, so that their
// budgets (the probe, the deepening, the explicit-state search, the search
// beyond the bounds, …) do not depend on the machine's load nor on what else
// runs in the process: a budget is CPU time on the engine's own Clock, and
// the caller's wall-clock deadline (`--timeout`) is the only other limit.
//
// A Clock counts the CPU time of
//   - the goroutines that run the engine: each is locked to its OS thread
//     while it is metered (Enter, WithLimit) and read by that thread's CPU
//     clock, so that another goroutine's work is never counted;
//   - the child processes it starts (Process: SMT solvers, ESBMC, CBMC): by
//     the process's CPU clock while it runs, by its rusage once it exited.
//
// The work of goroutines an engine starts without metering them and the
// Go runtime's background work (the garbage collector's own threads) are
// not counted: an engine's clock is a deterministic function of its own
// computation, up to the noise of CPU accounting (caches, frequency).
//
// Clocks form a tree. A child made by WithLimit (a sequential part: a probe,
// a step of the deepening) counts towards its parent; one made by Race for
// each of several engines that run at once counts towards no other, and the
// race charges its parent once it is decided. Shares of "the time left"
// (WithShare) are shares of the nearest budgeted clock's budget minus what
// it used, never of the wall time left.
package budget

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// A Clock is the CPU time of one engine. The zero value is not usable;
// clocks come from Start, WithLimit, WithShare and Race.
type Clock struct {
	name     string
	parent   *Clock
	detached bool          // a racing engine's: charged to parent by Race
	budget   time.Duration // what Left counts down from (0: none)
	enforce  bool          // the context is cancelled when Used reaches budget

	mu    sync.Mutex
	done  time.Duration     // CPU time of sources that left
	live  map[string]*entry // sources metered now, by key
	races map[*race]bool    // races run on its behalf, not yet charged
	waits []wait
}

// race is a Race in progress: its time is its longest engine's.
type race struct {
	clocks []*Clock
	after  []time.Duration
	ended  []*time.Duration
}

func (r *race) now() time.Duration {
	var t time.Duration
	for i, c := range r.clocks {
		switch {
		case r.ended[i] != nil:
			t = max(t, *r.ended[i])
		case c != nil:
			t = max(t, r.after[i]+c.Used())
		}
	}
	return t
}

type entry struct {
	src   *source
	start time.Duration // the source's reading when it joined the clock
}

type wait struct {
	at time.Duration
	f  func()
}

// source is a thread or a process whose CPU time a clock reads.
type source struct {
	key   string
	clock int32 // its CPU clock id (clock_gettime)
	mu    sync.Mutex
	last  time.Duration // the last good reading
	final *time.Duration
}

func (s *source) now() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.final != nil {
		return *s.final
	}
	var ts syscall.Timespec
	_, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(s.clock), uintptr(unsafe.Pointer(&ts)), 0)
	if e == 0 {
		if d := time.Duration(ts.Nano()); d > s.last {
			s.last = d
		}
	}
	return s.last
}

// cpuClock is Linux's CPU clock id of a process or, with thread, a thread
// (MAKE_PROCESS_CPUCLOCK / MAKE_THREAD_CPUCLOCK with CPUCLOCK_SCHED).
func cpuClock(id int, thread bool) int32 {
	c := int32(^uint32(id)<<3) | 2
	if thread {
		c |= 4
	}
	return c
}

type key struct{}

// From returns ctx's clock, or nil.
func From(ctx context.Context) *Clock {
	c, _ := ctx.Value(key{}).(*Clock)
	return c
}

// Used is the CPU time ctx's clock has counted (0 without one).
func Used(ctx context.Context) time.Duration { return From(ctx).Used() }

// Used is the CPU time c has counted since it was made; a race in
// progress on its behalf counts its longest engine.
func (c *Clock) Used() time.Duration {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usedLocked()
}

func (c *Clock) usedLocked() time.Duration {
	u := c.done
	for _, e := range c.live {
		u += e.src.now() - e.start
	}
	for r := range c.races {
		u += r.now()
	}
	return u
}

// Left is the CPU time left of the nearest budgeted clock of ctx (its
// budget minus what it used, at least 0); ok is false when no clock of ctx
// has a budget.
func Left(ctx context.Context) (left time.Duration, ok bool) {
	for c := From(ctx); c != nil; c = c.parent {
		if c.budget > 0 {
			return max(0, c.budget-c.Used()), true
		}
	}
	return 0, false
}

// Share is share of Left(ctx), capped at most (0: no cap); without a
// budget it is most, 0 when most is 0 too (no limit).
func Share(ctx context.Context, share float64, most time.Duration) time.Duration {
	left, ok := Left(ctx)
	if !ok {
		return most
	}
	d := time.Duration(float64(left) * share)
	if most > 0 {
		d = min(d, most)
	}
	return max(d, time.Millisecond) // a budget of 0 would mean none
}

// Start returns ctx with a root clock of budget total (0: none), which
// meters the calling goroutine until stop. The budget is nominal: it is
// what shares are taken of; the caller's deadline ends the work.
func Start(ctx context.Context, name string, total time.Duration) (context.Context, func()) {
	c := &Clock{name: name, budget: total, live: map[string]*entry{}}
	return context.WithValue(ctx, key{}, c), c.enter()
}

// Exhausted is the cause of the cancellation of a context whose CPU budget
// ran out. It matches context.DeadlineExceeded (errors.Is), so that it is a
// time limit wherever one is classified.
type Exhausted struct {
	Name  string
	Limit time.Duration
}

func (e *Exhausted) Error() string {
	return fmt.Sprintf("CPU time budget of %s (%.1fs) used up", e.Name, e.Limit.Seconds())
}

// Is makes an Exhausted a context.DeadlineExceeded.
func (e *Exhausted) Is(target error) bool { return target == context.DeadlineExceeded }

// WithLimit returns ctx with a child clock that counts towards ctx's and is
// cancelled (cause *Exhausted) when it has used limit (limit <= 0: never;
// it still counts). The calling goroutine is metered on it until stop, which
// must be called on the same goroutine (it may be called more than once).
func WithLimit(ctx context.Context, name string, limit time.Duration) (context.Context, context.CancelFunc) {
	parent := From(ctx)
	c := &Clock{name: name, parent: parent, budget: max(limit, 0), enforce: limit > 0, live: map[string]*entry{}}
	cctx, cancel := context.WithCancelCause(ctx)
	cctx = context.WithValue(cctx, key{}, c)
	leave := c.enter()
	if c.enforce {
		c.when(limit, func() { cancel(&Exhausted{Name: name, Limit: limit}) })
	}
	var once sync.Once
	return cctx, func() {
		once.Do(func() {
			leave()
			c.stopWaits()
			cancel(context.Canceled)
		})
	}
}

// WithShare is WithLimit with share of Left(ctx), at most most (0: no cap):
// no limit when ctx has no budget and most is 0.
func WithShare(ctx context.Context, name string, share float64, most time.Duration) (context.Context, context.CancelFunc) {
	return WithLimit(ctx, name, Share(ctx, share, most))
}

// Enter meters the calling goroutine on ctx's clock (and the clocks it
// counts towards) until leave, called on the same goroutine. Without a
// clock it does nothing.
func Enter(ctx context.Context) (leave func()) {
	return From(ctx).enter()
}

func (c *Clock) enter() func() {
	if c == nil {
		return func() {}
	}
	runtime.LockOSThread()
	tid := syscall.Gettid()
	src := &source{key: fmt.Sprint("t", tid), clock: cpuClock(tid, true)}
	joined := c.join(src)
	var once sync.Once
	return func() {
		once.Do(func() {
			c.leave(src, joined, src.now())
			if syscall.Gettid() == tid {
				runtime.UnlockOSThread()
			}
		})
	}
}

// join adds src to c and the clocks c counts towards, up to a clock that
// already meters it (a goroutine entering a child of its own clock) or a
// racing engine's clock; it returns the clocks joined.
func (c *Clock) join(src *source) []*Clock {
	start := src.now()
	var joined []*Clock
	for k := c; k != nil; k = k.parent {
		k.mu.Lock()
		_, dup := k.live[src.key]
		if !dup {
			k.live[src.key] = &entry{src: src, start: start}
			joined = append(joined, k)
		}
		k.mu.Unlock()
		if dup || k.detached {
			break
		}
	}
	return joined
}

func (c *Clock) leave(src *source, joined []*Clock, end time.Duration) {
	for _, k := range joined {
		k.mu.Lock()
		if e, ok := k.live[src.key]; ok && e.src == src {
			k.done += end - e.start
			delete(k.live, src.key)
		}
		k.mu.Unlock()
	}
}

// Process meters the child process pid on ctx's clock from now (it has
// just started); end, called once it has been waited for, counts its
// rusage (its CPU time and that of the children it waited for).
func Process(ctx context.Context, pid int) (end func(*os.ProcessState)) {
	c := From(ctx)
	if c == nil {
		return func(*os.ProcessState) {}
	}
	src := &source{key: fmt.Sprint("p", pid), clock: cpuClock(pid, false)}
	joined := c.join(src)
	// a process is never metered twice; its CPU time counts from 0
	for _, k := range joined {
		k.mu.Lock()
		k.live[src.key].start = 0
		k.mu.Unlock()
	}
	var once sync.Once
	return func(st *os.ProcessState) {
		once.Do(func() {
			if st != nil {
				d := st.UserTime() + st.SystemTime()
				src.mu.Lock()
				d = max(d, src.last)
				src.final = &d
				src.mu.Unlock()
			}
			c.leave(src, joined, src.now())
		})
	}
}

// charge adds d to c and the clocks it counts towards.
func (c *Clock) charge(d time.Duration) {
	for k := c; k != nil; k = k.parent {
		k.mu.Lock()
		k.done += d
		k.mu.Unlock()
		if k.detached {
			break
		}
	}
}

// when calls f once c has used at least at (polled, see poll).
func (c *Clock) when(at time.Duration, f func()) {
	c.mu.Lock()
	c.waits = append(c.waits, wait{at, f})
	c.mu.Unlock()
	watch(c)
}

func (c *Clock) stopWaits() {
	c.mu.Lock()
	c.waits = nil
	c.mu.Unlock()
}

// Polling: one goroutine reads the clocks that have waits every pollEvery.
const pollEvery = 10 * time.Millisecond

var (
	watchMu  sync.Mutex
	watched  = map[*Clock]bool{}
	watching bool
)

func watch(c *Clock) {
	watchMu.Lock()
	defer watchMu.Unlock()
	watched[c] = true
	if !watching {
		watching = true
		go poll()
	}
}

func poll() {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for range t.C {
		watchMu.Lock()
		cs := make([]*Clock, 0, len(watched))
		for c := range watched {
			cs = append(cs, c)
		}
		watchMu.Unlock()
		for _, c := range cs {
			c.fire()
		}
		watchMu.Lock()
		for c := range watched {
			c.mu.Lock()
			if len(c.waits) == 0 {
				delete(watched, c)
			}
			c.mu.Unlock()
		}
		if len(watched) == 0 {
			watching = false
			watchMu.Unlock()
			return
		}
		watchMu.Unlock()
	}
}

func (c *Clock) fire() {
	c.mu.Lock()
	u := c.usedLocked()
	var due []func()
	kept := c.waits[:0]
	for _, w := range c.waits {
		if u >= w.at {
			due = append(due, w.f)
		} else {
			kept = append(kept, w)
		}
	}
	c.waits = kept
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// An Engine is one of the engines of a Race.
type Engine[T any] struct {
	Name string
	// After is the CPU time the first engine uses before this one starts
	// (0: at once); it never starts when the first one ends before.
	After time.Duration
	Run   func(ctx context.Context) (T, error)
}

// Race runs the engines at once, each on a clock of its own that counts
// towards no other, and returns the answer of the one that ends first with
// an answer decisive says ends the race, first in CPU time: its start
// (After) plus the CPU time it used. An engine that ends first in wall time
// waits for the others until they have used as much (or ended, or stood
// still for idleAfter: blocked on nothing metered), so that the winner
// depends neither on the load nor on how the engines were scheduled (ties:
// the earlier engine). When no answer is decisive, the answer is the first
// engine's (winner -1). The other engines are then cancelled and Race
// returns when all have stopped. While it runs, ctx's clock counts its
// longest engine; then the winner's time (without a winner: the longest
// engine's). es[0].After must be 0.
func Race[T any](ctx context.Context, decisive func(T, error) bool, es ...Engine[T]) (res T, err error, winner int) {
	type result struct {
		res T
		err error
		at  time.Duration // virtual end: After + CPU time used
	}
	type msg struct {
		i int
		r result
	}
	n := len(es)
	parent := From(ctx)
	left, budgeted := Left(ctx)
	clocks := make([]*Clock, n)
	cancels := make([]context.CancelCauseFunc, n)
	results := make([]*result, n)
	ch := make(chan msg, n)
	rc := &race{clocks: clocks, after: make([]time.Duration, n), ended: make([]*time.Duration, n)}
	for i, e := range es {
		rc.after[i] = e.After
	}
	if parent != nil {
		parent.mu.Lock()
		if parent.races == nil {
			parent.races = map[*race]bool{}
		}
		parent.races[rc] = true
		parent.mu.Unlock()
	}
	// virtual is engine i's time now (its end once it ended)
	virtual := func(i int) time.Duration {
		if results[i] != nil {
			return results[i].at
		}
		return es[i].After + clocks[i].Used()
	}
	// moved is when each engine's time last moved
	moved := make([]time.Time, n)
	seen := make([]time.Duration, n)
	idle := func(i int) bool {
		if v := virtual(i); v != seen[i] {
			seen[i], moved[i] = v, time.Now()
		}
		return time.Since(moved[i]) > idleAfter
	}
	running := 0
	start := func(i int) {
		c := &Clock{name: es[i].Name, parent: parent, detached: true, live: map[string]*entry{}}
		if budgeted {
			c.budget = left
		}
		ectx, cancel := context.WithCancelCause(ctx)
		ectx = context.WithValue(ectx, key{}, c)
		parent.lock() // rc.now reads clocks under it
		clocks[i] = c
		parent.unlock()
		cancels[i], moved[i] = cancel, time.Now()
		running++
		go func() {
			leave := c.enter()
			var r result
			defer func() {
				if x := recover(); x != nil { // (callers recover with their own error kinds first)
					var zero T
					r = result{res: zero, err: fmt.Errorf("engine %s: panic: %v", es[i].Name, x)}
				}
				leave()
				r.at = es[i].After + c.Used()
				ch <- msg{i, r}
			}()
			r.res, r.err = es[i].Run(ectx)
		}()
	}
	record := func(m msg) {
		r := m.r
		results[m.i] = &r
		parent.lock()
		rc.ended[m.i] = &r.at
		parent.unlock()
		running--
	}
	start(0)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	win := -1
	for {
		// start the engines whose time has come (the first one's time
		// reached their After, or it stands still)
		for i := range es {
			if clocks[i] == nil && results[0] == nil && (virtual(0) >= es[i].After || idle(0)) ||
				clocks[i] == nil && results[0] != nil && results[0].at >= es[i].After {
				start(i)
			}
		}
		// the earliest decisive answer, final once no other engine can end earlier
		w := -1
		for i, r := range results {
			if r != nil && decisive(r.res, r.err) && (w < 0 || r.at < results[w].at) {
				w = i
			}
		}
		settled := true
		for j := range es {
			switch {
			case j == w || results[j] != nil:
			case clocks[j] == nil && results[0] != nil && results[0].at < es[j].After:
				// never starts
			case ctx.Err() != nil:
				// the caller's deadline: every engine stops; take what is there
				settled = settled && w >= 0
			case w >= 0 && clocks[j] == nil && es[j].After >= results[w].at:
			case w >= 0 && clocks[j] != nil && (virtual(j) >= results[w].at || idle(j)):
			default:
				settled = false
			}
		}
		if settled {
			win = w
			break
		}
		select {
		case m := <-ch:
			record(m)
		case <-tick.C:
		}
	}
	for i := range cancels {
		if cancels[i] != nil {
			cancels[i](context.Canceled)
		}
	}
	for running > 0 {
		record(<-ch)
	}
	charge := rc.now()
	if win >= 0 {
		charge = results[win].at
	}
	if parent != nil {
		parent.mu.Lock()
		delete(parent.races, rc)
		parent.mu.Unlock()
		parent.charge(charge)
	}
	if win < 0 {
		return results[0].res, results[0].err, -1
	}
	return results[win].res, results[win].err, win
}

// idleAfter is how long an engine's clock may stand still before it no
// longer holds up a race: it is blocked on something no clock meters (a
// hung engine), not computing.
const idleAfter = 2 * time.Second

func (c *Clock) lock() {
	if c != nil {
		c.mu.Lock()
	}
}

func (c *Clock) unlock() {
	if c != nil {
		c.mu.Unlock()
	}
}

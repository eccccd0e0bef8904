package interp

import (
	"strings"

	"cegpv.dev/cegpv/internal/machine"
	"cegpv.dev/cegpv/program"
)

// Read is a value a step of a run read from a cell of memory, with the
// step whose store it is: what a counterexample shows of each read (the
// lost update of two threads is two reads of the same initial value).
type Read struct {
	Loc string        // as program.Write.Loc: "counter", "worker::tmp", "heap#1.next"
	Val program.Value // the cell's value (a byte read gives the whole cell's)
	// By is the index in the run of the step that stored the value, -1
	// when the cell holds its initial value (a global's initialiser, or
	// zero).
	By int
	// Shared: the cell is of a global, a heap block, or a local of an
	// activation not on the reader's stack (another thread's, reached
	// through a pointer), or another thread stored the value (other than
	// by passing a started thread its argument).
	Shared bool
}

// Observation is what a run reads and returns, step by step (Observe).
type Observation struct {
	Reads [][]Read // per step of the run, in the order of the accesses
	// Returned holds, per step, the scalar value a Return step returns or
	// an Exit step passes to pthread_exit (nil for other steps).
	Returned []*program.Value
	// Initial holds the initial contents of the globals, by location.
	Initial map[string]program.Value
}

// Observe replays run on p (as Replay, with the same errors) and records
// every cell each step reads and where its value was stored, and the
// values returned: every FALSE is replayed, so its trace shows what the
// execution read rather than what the stores suggest.
func Observe(p *program.Program, run *program.Run) (_ *Observation, err error) {
	defer program.Recover(&err)
	ob := &observer{Observation: Observation{Reads: make([][]Read, len(run.Steps)), Returned: make([]*program.Value, len(run.Steps))},
		last: map[cell]writer{}}
	if _, err := replay(p, run, nil, ob); err != nil {
		return nil, err
	}
	return &ob.Observation, nil
}

type cell struct {
	obj *machine.Object
	k   int64
}

type writer struct {
	step, thread int
	spawn        bool // the store passes a started thread its argument
}

// observer records the accesses of a replay (machine.Machine.Observe).
type observer struct {
	Observation
	m      *machine.Machine
	step   int // index of the step executing
	thread int
	spawn  bool            // the step starts a thread
	last   map[cell]writer // the step that last stored each cell
}

// start attaches the observer to m, the machine of the replay, before its
// first step.
func (ob *observer) start(m *machine.Machine) {
	ob.m = m
	ob.Initial = m.Final()
	for k := range ob.Initial {
		if !isGlobal(m, k) {
			delete(ob.Initial, k)
		}
	}
	m.Observe = ob.access
}

// isGlobal says whether location loc is a cell of a global of m.
func isGlobal(m *machine.Machine, loc string) bool {
	for i := 0; i < len(loc); i++ {
		if loc[i] == '.' || loc[i] == '[' {
			loc = loc[:i]
			break
		}
	}
	return m.Globals[loc] != nil
}

func (ob *observer) access(a machine.Access) {
	c := cell{a.Obj, a.Cell}
	if a.Write {
		ob.last[c] = writer{ob.step, ob.thread, ob.spawn}
		return
	}
	w, ok := ob.last[c]
	r := Read{Loc: a.Loc, Val: a.Val, By: -1}
	if ok {
		r.By = w.step
	}
	r.Shared = a.Obj.Heap || ob.m.Globals[a.Obj.Name] == a.Obj || !ob.onStack(a.Obj) || ok && w.thread != ob.thread && !w.spawn
	ob.Reads[ob.step] = append(ob.Reads[ob.step], r)
}

// onStack says whether o is a local of an activation of the thread that
// executes the step.
func (ob *observer) onStack(o *machine.Object) bool {
	for _, fr := range ob.m.Threads[ob.thread].Frames {
		if fr.Vars[strings.TrimPrefix(o.Name, fr.Fn.Name+"::")] == o {
			return true
		}
	}
	return false
}

package builtin

import (
	"fmt"

	"cegpv.dev/cegpv/program"
)

// object is a memory object of the unwound program: a global, one
// activation's instance of a local or parameter, or one heap block.
// Thread-local objects (locals whose address is never taken) live in the
// symbolic state as SSA values; the others are shared memory, accessed
// through events.
type object struct {
	id      int
	name    string // run name: "x", "f::x", heap objects get "heap#n" when the run is built
	typ     *program.Type
	ncells  int64
	shared  bool
	heap    bool
	fn      string // function objects: "fn:<name>" values
	exposed bool   // a pointer may reach it (address taken, heap)
	// symCount: a heap block whose number of elements is not a constant;
	// its number of valid cells is the symbol enc.countOf(o)
	symCount bool
	alloc    *stepRec
	init     []val // initial contents (globals) or nil
	thread   *thread
	// constant: a global that no instruction stores into, by name or
	// through a pointer (encodeOnce checks the latter); a read is its
	// initial value, no event
	constant bool
}

// liveOff is the offset of the liveness cell of a heap block (1 while
// allocated, 0 once freed), a shared cell like the others. It exists when
// the program frees memory (enc.frees).
const liveOff = -1

func (o *object) cellType(c int64) *program.Type {
	if c == liveOff {
		return program.BoolType
	}
	return o.typ.CellType(c)
}

// initVal is the initial value of cell k (nil t: unknown).
func (o *object) initVal(k int64) val {
	if k == liveOff {
		return val{t: bvc(1, 1)}
	}
	if o.init == nil {
		return val{}
	}
	return o.init[k]
}

// val is a symbolic scalar: an integer bit-vector, or a pointer (object id
// and cell offset). pts lists the objects a pointer may point into (nil:
// unknown, any exposed object).
type val struct {
	t   *term // integer bits, or pointer offset
	obj *term // pointer: object id; nil for integers
	b   *term // optional Bool form of "t != 0" (integers)
	pts []int
	any bool // pointer may point anywhere
}

func (v val) isPtr() bool { return v.obj != nil }

// cellKey names one scalar cell of an object.
type cellKey struct {
	obj int
	off int64
}

// block is a unit that executes atomically: one instruction outside atomic
// sections, or a whole atomic section. It has one clock; the reads of its
// events see the memory before the block, its writes become visible after.
type block struct {
	id     int
	th     *thread
	clock  string
	seq    int     // position in the thread's program order
	g      *term   // guard when the block starts
	endG   *term   // guard when the block ends (the last path to end it)
	ends   []*term // guards of every path that ends it (nil: it never ends)
	done   *term   // complete(b), once computed (presence.go)
	reads  []*event
	writes []*event
	start  map[cellKey]val // values of cells at the block's start, read by blockStart
	kind   string          // "instr", "atomic", "start", "end"
	label  program.Label
}

// event is a shared-memory access.
type event struct {
	id    int
	blk   *block
	cell  cellKey
	write bool
	g     *term
	v     val
	init  bool // the initial value of the cell
	held  []heldLock
	sync  bool // made by a lock operation
}

// thread is one thread instance.
type thread struct {
	idx     int // creation order in symbolic execution (0 = main)
	fn      *program.Func
	spawn   *block // the block of the Spawn that created it (nil for main)
	spawnG  *term
	spawnAt *term // the parent's guard at the Spawn (main: true)
	tid     *term // symbolic thread id (main: 0)
	start   *block
	end     *block
	endG    *term
	blocks  []*block
	steps   []*stepRec
	arg     val
	site    program.Label
	argType *program.Type
	parent  *thread
	// results are the thread's result on each path that sets one (a
	// return from its start function, an exit with a value), under the
	// path's guard; res, their merge (a null pointer on the other paths),
	// is set when the thread's symbolic execution ends.
	results []guardedVal
	res     val
}

type guardedVal struct {
	g *term
	v val
}

// stepRec records one instruction instance of the symbolic execution: the
// run contains it when its guard holds in the model.
type stepRec struct {
	th       *thread
	in       *program.Instr
	g        *term
	pg       *term // presence in the run: g, and for a step of an atomic section or collapsed region that may not complete, see presence()
	blk      *block
	seq      int
	nondet   []ndVal
	assigned []assignRec
	assert   *term // Assert: the condition
	heap     *object
	ndOps    int     // Alloc: the operands' nondet values come first in nondet, then one per cell
	child    *thread // Spawn
	dormant  *term   // Spawn of a dormant thread (dormantSpawn): its id
	tail     bool    // implicit return: no step of its own (carries writes only)
}

type ndVal struct {
	v val
	t *program.Type
}

type assignRec struct {
	obj  *object
	off  int64
	cond *term
	v    val
}

func (e *enc) unsupported(pos program.Pos, format string, args ...any) {
	panic(&program.Error{Kind: program.Unsupported, Pos: pos, Err: fmt.Errorf(format, args...)})
}

func (e *enc) internal(format string, args ...any) {
	panic(&program.Error{Kind: program.Internal, Err: fmt.Errorf(format, args...)})
}

package machine

import (
	"fmt"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Unwinder applies the unwinding bound of docs/conventions.md "Bounds" to
// an execution, the one copy of the rule for the interpreter (Simulate,
// Replay of a run that ends at a bound) and the explicit search; the
// built-in encoding bounds its paths alike (backend/builtin symex.go). A
// thread takes the back edge of a loop (a goto to an instruction at or
// before it, program.Func.LoopHead) at most Unwind-1 times per entry into
// the loop, counted per back edge in the activation (Frame.BackEdges) and
// forgotten when the thread leaves the instructions [head, back edge]; it
// has at most Unwind activations of one function at a time.
type Unwinder struct {
	Unwind int
	// Set gives the loops (by back-edge label) and the recursive calls
	// (by the caller's recursion property id, program.RecursionID) whose
	// bound is not Unwind theirs: program.Unwinding.Key, --unwindset.
	Set map[string]int
	// Unbounded lifts the loop bound (the explicit search beyond the
	// bounds); recursion stays bounded.
	Unbounded bool
	loops     map[program.Label][2]int // back edge: [head, back edge] indexes
}

// Reasons of a step refused at a bound (a Blocked reason, Call's answer).
const (
	LoopBound      = "unwinding bound"
	RecursionBound = "recursion bound"
)

// NewUnwinder returns the Unwinder of p for bound unwind.
func NewUnwinder(p *program.Program, unwind int) *Unwinder {
	u := &Unwinder{Unwind: unwind, loops: map[program.Label][2]int{}}
	for _, f := range p.Funcs {
		for i, in := range f.Body {
			if h := f.LoopHead(i); h >= 0 {
				u.loops[in.Label] = [2]int{h, i}
			}
		}
	}
	return u
}

// BackEdge is a Hooks.BackEdge: it counts the back edge in in's activation
// fr and refuses it, with a reason that starts with LoopBound, when it
// would be taken an Unwind-th time.
func (u *Unwinder) BackEdge(fr *Frame, in *program.Instr) string {
	if u.Unbounded {
		return ""
	}
	if fr.BackEdges == nil {
		fr.BackEdges = map[program.Label]int{}
	}
	if k := u.bound(string(in.Label)); fr.BackEdges[in.Label] >= k-1 {
		return fmt.Sprintf("%s %d reached at %s", LoopBound, k, in.Label)
	}
	fr.BackEdges[in.Label]++
	return ""
}

// Call returns why thread t may not execute the call in now, a reason that
// starts with RecursionBound (its callee has Unwind activations on t's
// stack already), or "".
func (u *Unwinder) Call(m *Machine, t *Thread, in *program.Instr) string {
	if in.Op != program.OpCall {
		return ""
	}
	name := m.Callee(t, in.Func)
	n := 0
	for _, f := range t.Frames {
		if name != "" && f.Fn.Name == name {
			n++
		}
	}
	k := u.Unwind
	if top := t.Top(); top != nil {
		k = u.bound(program.RecursionID(top.Fn.Name))
	}
	if n >= k {
		return fmt.Sprintf("%s %d reached at %s (%d activations of %s)", RecursionBound, k, in.Label, n, name)
	}
	return ""
}

// bound is the bound of the loop or recursive calls with that key.
func (u *Unwinder) bound(key string) int {
	if k, ok := u.Set[key]; ok {
		return k
	}
	return u.Unwind
}

// Left forgets the back-edge counts of the loops t's top activation has
// left, so that each entry into a loop has its own count: called after
// each step of t.
func (u *Unwinder) Left(t *Thread) {
	fr := t.Top()
	if fr == nil || len(fr.BackEdges) == 0 {
		return
	}
	for l := range fr.BackEdges {
		r, ok := u.loops[l]
		if !ok || fr.PC < r[0] || fr.PC > r[1] {
			delete(fr.BackEdges, l)
		}
	}
}

// AtBound reports whether a Blocked reason or Call's answer is a bound.
func AtBound(why string) bool {
	return strings.HasPrefix(why, LoopBound) || strings.HasPrefix(why, RecursionBound)
}

// Callee returns the function a call through e by t calls now, or "" when
// evaluating e fails (the step itself then reports the error). A callee
// expression draws nothing the search needs (Eval draws zeros).
func (m *Machine) Callee(t *Thread, e program.Expr) string {
	if fr, ok := e.(*program.FuncRef); ok {
		return fr.Name
	}
	if v, err := m.Eval(t, e); err == nil && strings.HasPrefix(v.Obj, "fn:") {
		return v.Obj[3:]
	}
	return ""
}

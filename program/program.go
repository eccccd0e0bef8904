package program

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Label names an instruction. Labels are unique in a program and stable
// across translations; the front end makes them "<func>.<n>".
type Label string

// Pos is a source position.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.File == "" && p.Line == 0 {
		return "-"
	}
	if p.Line == 0 {
		return p.File
	}
	if p.Col == 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Op is the kind of an instruction.
type Op uint8

const (
	OpSkip        Op = iota // no effect
	OpAssign                // Lhs = Rhs
	OpAssume                // block while !Rhs
	OpAssert                // property Prop: Rhs holds
	OpGoto                  // if Rhs (nil: always) jump to one of Targets (chosen freely if several)
	OpCall                  // [Lhs =] Func(Args...)
	OpReturn                // return [Rhs]
	OpSpawn                 // pthread_create: new thread runs Func(Args[0]); its id is stored in Lhs if Lhs != nil
	OpJoin                  // pthread_join: wait until the thread with id Rhs has ended; if Lhs != nil (a pointer), store the thread's result there
	OpLock                  // pthread_mutex_lock(Rhs): Rhs points to a Mutex
	OpUnlock                // pthread_mutex_unlock(Rhs)
	OpAtomicBegin           // start of an atomic section
	OpAtomicEnd             // end of an atomic section
	OpDecl                  // local Var comes into scope with an indeterminate (nondet) value
	OpAlloc                 // Lhs = pointer to a fresh heap block of Rhs elements of Lhs's pointee type, contents nondet
	OpFree                  // free(Rhs)
	OpExit                  // the executing thread ends (pthread_exit); Rhs (optional, a pointer) is its result
	// OpRealloc is realloc(Args[0], ...) of a non-null pointer to a
	// nonzero size (the front end lowers the null and zero cases to Alloc
	// and Free): Lhs = pointer to a fresh heap block of Rhs elements of
	// Lhs's pointee type whose first min(Rhs, old count) elements are
	// those of the block Args[0] points to (which must be the start of a
	// live heap block of the same element type) and the rest nondet; that
	// block is then freed. It prints as a call of ReallocFunc, which the
	// front end reads back as a Realloc.
	OpRealloc
)

// ReallocFunc is the function a Realloc prints as: C's realloc when it
// does not fail (Print defines it; the checkers' realloc may fail).
const ReallocFunc = "__cegpv_realloc"

var opNames = [...]string{"skip", "assign", "assume", "assert", "goto", "call", "return", "spawn", "join",
	"lock", "unlock", "atomic_begin", "atomic_end", "decl", "alloc", "free", "exit", "realloc"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op" + strconv.Itoa(int(o))
}

// Instr is one labelled instruction. Which operand fields are used depends
// on Op, as documented on the Op constants; unused fields are nil.
type Instr struct {
	Label   Label
	Op      Op
	Lhs     Expr    // Assign, Call (optional), Spawn (optional thread handle), Join (optional: the thread's result), Alloc, Realloc
	Rhs     Expr    // Assign value; Assume/Assert condition; Goto guard (nil = true); Return value (optional); Join thread id; Exit result (optional); Lock/Unlock/Free pointer; Alloc and Realloc element count
	Func    Expr    // Call and Spawn: the callee, a FuncRef or a function-pointer value
	Args    []Expr  // Call arguments; Spawn: exactly one, the thread argument; Realloc: exactly one, the old pointer
	Targets []Label // Goto
	Var     string  // Decl: the local's name
	Prop    string  // Assert: property id, e.g. "main.assertion.1" or "thread3.error.1"
	Msg     string  // Assert: what the property says, for reports; any: a comment
	// Sliced marks a Skip that slice.Abstract left in place of an
	// instruction touching only sliced variables: its steps are invisible
	// (see Visible). Only Skips carry it.
	Sliced bool
	Pos    Pos
}

// Operands returns the instruction's expression operands in the order in
// which their Nondet values are drawn: Lhs, Rhs, Func, Args.
func (in *Instr) Operands() []Expr {
	var out []Expr
	for _, e := range []Expr{in.Lhs, in.Rhs, in.Func} {
		if e != nil {
			out = append(out, e)
		}
	}
	return append(out, in.Args...)
}

// Var is a variable: a global, a parameter or a local.
type Var struct {
	Name string
	Type *Type
	// Init is a global's initial value (a Const, AddrOf/FuncRef constant or
	// Compound); nil means zero. Locals are initialised by instructions.
	Init Expr
	// AddrTaken is set when the variable's address is taken anywhere, which
	// makes it shared memory even when it is a local.
	AddrTaken bool
	// Temp marks a variable the front end introduced (a temporary of a
	// lowered expression), which is not in the C source; counterexamples
	// leave its values out of the source-level view.
	Temp bool
	Pos  Pos
}

// Func is a function.
type Func struct {
	Name   string
	Result *Type // VoidType for void
	Params []*Var
	Locals []*Var // every local, each declared by exactly one Decl in Body
	Body   []*Instr
	// Atomic is set for functions named __VERIFIER_atomic_*: a call runs the
	// whole body without interruption by other threads.
	Atomic bool
	Pos    Pos
}

// Type returns the function's type.
func (f *Func) Type() *Type {
	t := &Type{Kind: Function, Elem: f.Result, Size: 1}
	for _, p := range f.Params {
		t.Params = append(t.Params, p.Type)
	}
	return t
}

// Var returns the parameter or local with the given name, or nil.
func (f *Func) Var(name string) *Var {
	for _, v := range f.Params {
		if v.Name == name {
			return v
		}
	}
	for _, v := range f.Locals {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Index returns the position of the instruction labelled l in f.Body, or -1.
func (f *Func) Index(l Label) int {
	for i, in := range f.Body {
		if in.Label == l {
			return i
		}
	}
	return -1
}

// LoopHead returns, when the instruction at index i of f is a goto with a
// target at or before i (a back edge), the index of its earliest such
// target: the head of the loop it closes. Otherwise it returns -1.
func (f *Func) LoopHead(i int) int {
	in := f.Body[i]
	if in.Op != OpGoto {
		return -1
	}
	lo := -1
	for _, t := range in.Targets {
		if k := f.Index(t); k >= 0 && k <= i && (lo < 0 || k < lo) {
			lo = k
		}
	}
	return lo
}

// Loops returns, for each instruction of f inside a loop (at or after its
// head, before its back edge), the back edges of the loops around it.
func (f *Func) Loops() map[int][]int {
	m := map[int][]int{}
	for back := range f.Body {
		if h := f.LoopHead(back); h >= 0 {
			for pc := h; pc < back; pc++ {
				m[pc] = append(m[pc], back)
			}
		}
	}
	return m
}

// Succs returns the control-flow successors of each instruction of f;
// node len(f.Body) is the exit (Return, Exit, and falling off the end). A
// Goto with a guard may also fall through; one without a guard jumps to one
// of its targets (chosen freely when there are several). Each list is
// sorted and free of duplicates.
func (f *Func) Succs() [][]int {
	n := len(f.Body)
	at := make(map[Label]int, n)
	for i, in := range f.Body {
		at[in.Label] = i
	}
	succ := make([][]int, n+1)
	for i, in := range f.Body {
		switch in.Op {
		case OpGoto:
			for _, t := range in.Targets {
				if k, ok := at[t]; ok {
					succ[i] = append(succ[i], k)
				}
			}
			if in.Rhs != nil || len(succ[i]) == 0 {
				succ[i] = append(succ[i], i+1)
			}
			slices.Sort(succ[i])
			succ[i] = slices.Compact(succ[i])
		case OpReturn, OpExit:
			succ[i] = []int{n}
		default:
			succ[i] = []int{i + 1}
		}
	}
	return succ
}

// Bounded reports whether the unwinding bound can matter for p: it has a
// loop (a backward goto) or may recurse (a cycle of direct calls, or a call
// through a pointer).
func (p *Program) Bounded() bool {
	calls := map[string][]string{}
	for _, f := range p.Funcs {
		for i, in := range f.Body {
			if f.LoopHead(i) >= 0 {
				return true
			}
			if in.Op == OpCall {
				fr, ok := in.Func.(*FuncRef)
				if !ok {
					return true
				}
				calls[f.Name] = append(calls[f.Name], fr.Name)
			}
		}
	}
	state := map[string]int{} // 1 on the path, 2 done
	var cyclic func(f string) bool
	cyclic = func(f string) bool {
		switch state[f] {
		case 1:
			return true
		case 2:
			return false
		}
		state[f] = 1
		for _, g := range calls[f] {
			if cyclic(g) {
				return true
			}
		}
		state[f] = 2
		return false
	}
	for _, f := range p.Funcs {
		if cyclic(f.Name) {
			return true
		}
	}
	return false
}

// DataModel is the C data model of a program.
type DataModel string

const (
	ILP32 DataModel = "ILP32" // int, long, pointers 32 bits (SV-COMP 2015's default); a Program with no Model is ILP32
	LP64  DataModel = "LP64"  // long and pointers 64 bits
)

// HostModel is the data model of the machine cegpv runs on, the default of
// the front end and the command line (as of CBMC and ESBMC): ILP32 on the
// 32-bit architectures (GOARCH 386, arm, mips, mipsle), LP64 on the others
// (amd64, arm64, ...).
func HostModel() DataModel {
	switch runtime.GOARCH {
	case "386", "arm", "mips", "mipsle":
		return ILP32
	}
	return LP64
}

// PtrSize returns the pointer size in bytes.
func (m DataModel) PtrSize() int64 {
	if m == LP64 {
		return 8
	}
	return 4
}

// Program is a whole program.
type Program struct {
	File    string    // the source it came from
	Model   DataModel // ILP32 or LP64
	Types   []*Type   // struct and union types, in an order where each only needs earlier ones by value
	Globals []*Var
	Funcs   []*Func // "main" is the entry
	// Bodiless names the functions the program calls that have no body
	// and are none of the library functions the front end models: as in
	// CBMC, a call returns an arbitrary value (a Nondet with the
	// function's name as Origin) and changes no variable of the program,
	// which a TRUE then assumes (the text report says so).
	Bodiless []string
}

// Func returns the function with the given name, or nil.
func (p *Program) Func(name string) *Func {
	for _, f := range p.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Global returns the global with the given name, or nil.
func (p *Program) Global(name string) *Var {
	for _, v := range p.Globals {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// LabelIndex maps labels to their instructions. Build one with NewIndex after a
// program is complete; it does not follow later edits.
type LabelIndex struct {
	Func  map[Label]*Func
	Pos   map[Label]int // position in Func.Body
	Instr map[Label]*Instr
}

// NewIndex indexes every label of p.
func NewIndex(p *Program) *LabelIndex {
	ix := &LabelIndex{Func: map[Label]*Func{}, Pos: map[Label]int{}, Instr: map[Label]*Instr{}}
	for _, f := range p.Funcs {
		for i, in := range f.Body {
			ix.Func[in.Label] = f
			ix.Pos[in.Label] = i
			ix.Instr[in.Label] = in
		}
	}
	return ix
}

// Clone returns a deep copy of p: new Program, Func, Var and Instr values
// (expressions and types, being immutable, are shared). Translations clone
// their input and edit the copy.
func Clone(p *Program) *Program {
	q := *p
	q.Types = append([]*Type(nil), p.Types...)
	q.Globals = cloneVars(p.Globals)
	q.Funcs = make([]*Func, len(p.Funcs))
	for i, f := range p.Funcs {
		g := *f
		g.Params = cloneVars(f.Params)
		g.Locals = cloneVars(f.Locals)
		g.Body = make([]*Instr, len(f.Body))
		for j, in := range f.Body {
			c := *in
			c.Args = append([]Expr(nil), in.Args...)
			c.Targets = append([]Label(nil), in.Targets...)
			g.Body[j] = &c
		}
		q.Funcs[i] = &g
	}
	return &q
}

func cloneVars(vs []*Var) []*Var {
	if vs == nil {
		return nil
	}
	out := make([]*Var, len(vs))
	for i, v := range vs {
		c := *v
		out[i] = &c
	}
	return out
}

// Spawns reports whether p creates a thread (has a Spawn anywhere).
func (p *Program) Spawns() bool {
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == OpSpawn {
				return true
			}
		}
	}
	return false
}

// Fresh returns a label derived from base that is not used in p, of the
// form "base.a", "base.b", ... ; used by translations that add instructions.
func Fresh(p *Program, base string, used map[Label]bool) Label {
	if used == nil {
		used = map[Label]bool{}
		for _, f := range p.Funcs {
			for _, in := range f.Body {
				used[in.Label] = true
			}
		}
	}
	l, _ := FreshFrom(base, used, 0)
	return l
}

// FreshFrom is Fresh over used, trying the suffixes from the start-th on;
// it also returns the index of the suffix it took. A translation that
// derives many labels from one base passes that index + 1 as the next
// start, and gets the labels Fresh would give (every suffix below it is
// used) without rescanning them: from 0 each time, lazyseq spent 5 of its
// 5.3 s on a goblint task's 11451-line sequentialisation.
func FreshFrom(base string, used map[Label]bool, start int) (Label, int) {
	for i := start; ; i++ {
		l := Label(base + "." + suffix(i))
		if !used[l] {
			used[l] = true
			return l, i
		}
	}
}

func suffix(i int) string {
	var b strings.Builder
	for {
		b.WriteByte(byte('a' + i%26))
		i = i/26 - 1
		if i < 0 {
			break
		}
	}
	s := []byte(b.String())
	for l, r := 0, len(s)-1; l < r; l, r = l+1, r-1 {
		s[l], s[r] = s[r], s[l]
	}
	return string(s)
}

// Properties returns the property ids of p's assertions, in program order.
func Properties(p *Program) []string {
	var out []string
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == OpAssert {
				out = append(out, in.Prop)
			}
		}
	}
	return out
}

// OverflowKind is the kind of the property ids of signed-overflow checks
// (package overflow), "<func>.overflow.<k>".
const OverflowKind = "overflow"

// PropKind returns the kind of a property id "<func>.<kind>.<k>":
// "assertion" for the front end's assertions, OverflowKind for the checks of
// package overflow; "" for an id of another form.
func PropKind(prop string) string {
	parts := strings.Split(prop, ".")
	if len(parts) < 3 {
		return ""
	}
	return parts[len(parts)-2]
}

// PropertyDetail describes one property (an assertion) for listings such
// as CBMC's --show-properties and ** Results:.
type PropertyDetail struct {
	ID   string `json:"id"`
	Func string `json:"function"`
	Pos  Pos    `json:"-"`
	// Text says what the property checks: "assertion <source text>" or
	// "call to __VERIFIER_error()".
	Text string `json:"description"`
}

// PropertyDetails returns the properties of p in Properties order.
func PropertyDetails(p *Program) []PropertyDetail {
	var out []PropertyDetail
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op != OpAssert {
				continue
			}
			text := "assertion " + in.Msg
			switch {
			case PropKind(in.Prop) == OverflowKind:
				text = in.Msg // "arithmetic overflow on signed + in x + 1"
			case strings.HasSuffix(in.Msg, "()"):
				text = "call to " + in.Msg
			}
			out = append(out, PropertyDetail{ID: in.Prop, Func: f.Name, Pos: in.Pos, Text: text})
		}
	}
	return out
}

// OnlyProperty returns a copy of p in which every assertion other than prop
// is a Skip (as CBMC's --property does, the other assertions are not
// checked). It fails when p has no assertion prop. For an unwinding
// property (IsUnwinding) it is AssumeAssertions(p); which bound counts is
// the checker's business (backend.Bounds.UnwindingOnly).
func OnlyProperty(p *Program, prop string) (*Program, error) {
	if IsUnwinding(prop) {
		if _, ok := UnwindingByID(p, prop); !ok {
			return nil, fmt.Errorf("no property %q (the program's unwinding properties: %s)", prop, strings.Join(unwindingIDs(p), ", "))
		}
		return AssumeAssertions(p), nil
	}
	q := Clone(p)
	found := false
	for _, f := range q.Funcs {
		for _, in := range f.Body {
			if in.Op != OpAssert {
				continue
			}
			if in.Prop == prop {
				found = true
				continue
			}
			*in = Instr{Label: in.Label, Op: OpSkip, Pos: in.Pos, Msg: "unchecked " + in.Prop}
		}
	}
	if !found {
		return nil, fmt.Errorf("no property %q (the program has: %s)", prop, strings.Join(Properties(p), ", "))
	}
	return q, nil
}

// AssumeAssertions returns a copy of p in which every assertion is an
// assumption of its condition, with the same label: its runs are the runs
// of p that violate no assertion (a run of C ends where an assertion
// fails), which is what a check of the unwinding properties alone looks at.
func AssumeAssertions(p *Program) *Program {
	q := Clone(p)
	for _, f := range q.Funcs {
		for _, in := range f.Body {
			if in.Op == OpAssert {
				*in = Instr{Label: in.Label, Op: OpAssume, Rhs: in.Rhs, Pos: in.Pos, Msg: "assumed " + in.Prop}
			}
		}
	}
	return q
}

// OpaqueReason begins the reason of an UNKNOWN whose counterexample draws
// opaque values (Nondet with an Origin): it may not be a run of the C
// program.
const OpaqueReason = "counterexample depends on results of external functions that are not modelled"

// WithoutOpaque returns a copy of p in which every instruction that draws
// an opaque value (a Nondet with an Origin among its operands) is replaced
// by assume(0) with the same label, and the number of instructions
// replaced. A run of the copy never executes a replaced instruction, so it
// is a run of p that draws no opaque value: a violation of the copy is a
// confirmed violation of p (replay it on p), while its safety says nothing
// about p.
func WithoutOpaque(p *Program) (*Program, int) {
	q := Clone(p)
	n := 0
	for _, f := range q.Funcs {
		for _, in := range f.Body {
			var origins []string
			for _, e := range in.Operands() {
				origins = append(origins, Opaque(e)...)
			}
			if len(origins) == 0 {
				continue
			}
			*in = Instr{Label: in.Label, Op: OpAssume, Rhs: IntConst(IntT, 0), Pos: in.Pos,
				Msg: "cut: draws an opaque value (" + strings.Join(origins, ", ") + ")"}
			n++
		}
	}
	return q, n
}

package depgraph

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Var names a variable (a whole C object); see the package documentation.
type Var string

// EdgeKind says why a value flows.
type EdgeKind uint8

const (
	Data    EdgeKind = 1 << iota // assignment, address computation
	Control                      // guard, assume, lock
	Sync                         // with Control: the guard is a lock (a Lock, or a call of a function that may block, such as a user-defined atomic lock)
	Call                         // argument → parameter, return → result
	Loop                         // with Control: the guard is a loop's around the assignment (it decides how often it runs)
)

func (k EdgeKind) String() string {
	var parts []string
	for _, x := range []struct {
		k EdgeKind
		n string
	}{{Data, "data"}, {Control, "control"}, {Sync, "sync"}, {Call, "call"}, {Loop, "loop"}} {
		if k&x.k != 0 {
			parts = append(parts, x.n)
		}
	}
	return strings.Join(parts, "+")
}

// Graph is the dependency graph of a program.
type Graph struct {
	Vars  []Var                    // every variable, sorted
	In    map[Var]map[Var]EdgeKind // In[x][y]: y → x
	Out   map[Var]map[Var]EdgeKind // Out[y][x]: y → x
	Group map[Var]int              // alias group of each variable
	Props map[string][]Var         // per assertion: the variables its condition and its controlling guards read
	Types map[Var]*program.Type    // type of each variable (heap blocks: element type)
	// Required lists variables every abstraction must keep because the
	// slicer cannot replace them by a nondeterministic value: those a
	// function-pointer callee reads (a call of an arbitrary function is not
	// expressible), and those that decide whether a step that may fail
	// fails (checkedVars: an invalid access that a slice dropped would turn
	// UNKNOWN into a wrong TRUE). Choose and slice.Abstract add them (closed
	// under groups); Cone widens around them too.
	Required []Var
	// AddrInts is set when the program converts an address to an integer;
	// integer values may then carry addresses (the interpreter keeps the
	// object of a converted pointer), and the alias analysis treats them
	// like pointers.
	AddrInts bool
	uf       *unionFind
	funcs    map[string]*program.Func
	p        *program.Program
	anyObjs  []Var // objects an arbitrary (Nondet) pointer may reach
}

// VarOf returns the variable a Ref names inside function fn.
func VarOf(fn string, r *program.Ref) Var {
	if r.Local {
		return Var(fn + "::" + r.Name)
	}
	return Var(r.Name)
}

// Members returns the variables of group g, sorted.
func (g *Graph) Members(group int) []Var {
	var out []Var
	for _, v := range g.Vars {
		if g.Group[v] == group {
			out = append(out, v)
		}
	}
	return out
}

// Close returns vs closed under alias groups, sorted and without duplicates.
func (g *Graph) Close(vs []Var) []Var {
	groups := map[int]bool{}
	for _, v := range vs {
		if gr, ok := g.Group[v]; ok {
			groups[gr] = true
		}
	}
	var out []Var
	for _, v := range g.Vars {
		if groups[g.Group[v]] {
			out = append(out, v)
		}
	}
	return out
}

// Pred returns the variables with an edge into x, sorted.
func (g *Graph) Pred(x Var) []Var { return sortedKeys(g.In[x]) }

// Succ returns the variables x has an edge to, sorted.
func (g *Graph) Succ(x Var) []Var { return sortedKeys(g.Out[x]) }

func sortedKeys(m map[Var]EdgeKind) []Var {
	out := make([]Var, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// WriteDot writes the graph in Graphviz syntax; variables of one alias
// group with more than one member share a cluster, and the variables in
// highlight are filled.
func (g *Graph) WriteDot(w io.Writer, highlight []Var) error {
	hl := map[Var]bool{}
	for _, v := range highlight {
		hl[v] = true
	}
	var b strings.Builder
	b.WriteString("digraph depgraph {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n")
	groups := map[int][]Var{}
	for _, v := range g.Vars {
		groups[g.Group[v]] = append(groups[g.Group[v]], v)
	}
	var ids []int
	for id := range groups {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		mem := groups[id]
		indent := "  "
		if len(mem) > 1 {
			fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=\"alias group %d\"; style=dashed;\n", id, id)
			indent = "    "
		}
		for _, v := range mem {
			attr := ""
			if hl[v] {
				attr = ", style=filled, fillcolor=lightblue"
			}
			fmt.Fprintf(&b, "%s%q [label=%q%s];\n", indent, string(v), string(v), attr)
		}
		if len(mem) > 1 {
			b.WriteString("  }\n")
		}
	}
	for _, y := range g.Vars {
		for _, x := range g.Succ(y) {
			k := g.Out[y][x]
			style := ""
			if k&Data == 0 {
				style = " style=dashed"
			}
			fmt.Fprintf(&b, "  %q -> %q [label=%q%s];\n", string(y), string(x), k.String(), style)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Build computes the dependency graph of p. p is not modified.
func Build(p *program.Program) *Graph {
	g := &Graph{
		In: map[Var]map[Var]EdgeKind{}, Out: map[Var]map[Var]EdgeKind{}, Group: map[Var]int{},
		Props: map[string][]Var{}, Types: map[Var]*program.Type{},
		uf: newUnionFind(), funcs: map[string]*program.Func{}, p: p,
	}
	b := &builder{g: g}
	b.run()
	return g
}

type builder struct {
	g *Graph
	// deps[f][i]: the instructions of f that instruction i is (transitively)
	// control dependent on.
	deps map[string][][]int
	// writes[f]: the variables a call of f may write, transitively through
	// calls and spawns.
	writes map[string]map[Var]bool
	// blocks[f]: a call of f may not return (it may block, exit the thread
	// or loop forever); guardVars[f]: the variables read by every guard of f
	// and its callees, which then decide whether the call returns.
	blocks    map[string]bool
	guardVars map[string][]Var
	// retCtl[f]: the variables read by the guards controlling f's returns.
	retCtl map[string][]Var
	// ctx[f]: the variables read by the guards controlling the calls and
	// spawns of f, transitively.
	ctx map[string][]Var
	// results: every expression whose value may be a thread's result (the
	// returned values of start functions, the values passed to Exit),
	// which a Join with a Lhs stores.
	results []result
}

type result struct {
	f  *program.Func
	at int // index in f.Body of the Return or Exit
}

// threadResults returns what may become a thread's result in p.
func (b *builder) threadResults() []result {
	starts := map[string]bool{}
	for _, f := range b.g.p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpSpawn {
				for _, c := range b.g.callees(in.Func) {
					starts[c.Name] = true
				}
			}
		}
	}
	var out []result
	for _, f := range b.g.p.Funcs {
		for i, in := range f.Body {
			if in.Rhs != nil && (in.Op == program.OpExit || in.Op == program.OpReturn && starts[f.Name]) {
				out = append(out, result{f, i})
			}
		}
	}
	return out
}

func (b *builder) addVar(v Var, t *program.Type) {
	if _, ok := b.g.Types[v]; !ok {
		b.g.Types[v] = t
		b.g.uf.add(v)
	}
}

func (b *builder) edge(from, to Var, k EdgeKind) {
	if from == to {
		return
	}
	g := b.g
	if g.In[to] == nil {
		g.In[to] = map[Var]EdgeKind{}
	}
	if g.Out[from] == nil {
		g.Out[from] = map[Var]EdgeKind{}
	}
	g.In[to][from] |= k
	g.Out[from][to] |= k
}

func (b *builder) edges(from, to []Var, k EdgeKind) {
	for _, t := range to {
		for _, f := range from {
			b.edge(f, t, k)
		}
	}
}

// operands returns every expression of the program: global initializers
// (with function "") and instruction operands (with their function).
func (g *Graph) forEachExpr(f func(fn string, e program.Expr)) {
	for _, v := range g.p.Globals {
		if v.Init != nil {
			f("", v.Init)
		}
	}
	for _, fn := range g.p.Funcs {
		for _, in := range fn.Body {
			for _, e := range in.Operands() {
				f(fn.Name, e)
			}
		}
	}
}

func (b *builder) run() {
	g, p := b.g, b.g.p
	for _, v := range p.Globals {
		b.addVar(Var(v.Name), v.Type)
	}
	for _, f := range p.Funcs {
		g.funcs[f.Name] = f
		for _, v := range f.Params {
			b.addVar(Var(f.Name+"::"+v.Name), v.Type)
		}
		for _, v := range f.Locals {
			b.addVar(Var(f.Name+"::"+v.Name), v.Type)
		}
		for _, in := range f.Body {
			if (in.Op == program.OpAlloc || in.Op == program.OpRealloc) && in.Lhs != nil && in.Lhs.Type().Kind == program.Pointer {
				b.addVar(heapVar(in.Label), in.Lhs.Type().Elem)
			}
		}
	}
	// Objects whose address exists somewhere: what an arbitrary pointer
	// (a Nondet of pointer type) may reach. Conversions of addresses to
	// integers make integers carry addresses.
	taken := map[Var]bool{}
	for _, v := range p.Globals {
		if v.AddrTaken {
			taken[Var(v.Name)] = true
		}
	}
	for _, f := range p.Funcs {
		for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			if v.AddrTaken {
				taken[Var(f.Name+"::"+v.Name)] = true
			}
		}
		for _, in := range f.Body {
			if in.Op == program.OpAlloc || in.Op == program.OpRealloc {
				taken[heapVar(in.Label)] = true
			}
		}
	}
	g.forEachExpr(func(fn string, e program.Expr) {
		program.Walk(e, func(x program.Expr) bool {
			switch x := x.(type) {
			case *program.AddrOf:
				if r, ok := baseOf(x.X).(*program.Ref); ok {
					taken[VarOf(fn, r)] = true
				}
			case *program.Cast:
				if x.X.Type().Kind == program.Pointer && x.T.Kind == program.Int {
					g.AddrInts = true
				}
			}
			return true
		})
	})
	for v := range taken {
		if _, ok := g.Types[v]; ok {
			g.anyObjs = append(g.anyObjs, v)
		}
	}
	sortVars(g.anyObjs)

	b.results = b.threadResults()
	// Pass 1: alias groups. Union-find makes the order of the unions
	// irrelevant, so one pass reaches the fixpoint.
	for _, v := range p.Globals {
		if v.Init != nil {
			b.flowInto([]Var{Var(v.Name)}, "", v.Init)
		}
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			b.aliases(f, in)
		}
	}
	// Pass 2: control dependences, summaries, edges.
	b.deps = map[string][][]int{}
	b.summaries()
	b.controls()
	for _, f := range p.Funcs {
		b.funcEdges(f)
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if (in.Op == program.OpCall || in.Op == program.OpSpawn) && in.Func != nil {
				if _, direct := in.Func.(*program.FuncRef); !direct {
					g.Required = append(g.Required, g.reads(f.Name, in.Func)...)
				}
			}
		}
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if program.InstrMayFail(in) {
				g.Required = append(g.Required, g.checkedVars(f.Name, in)...)
			}
		}
	}
	g.Required = dedupe(g.Required)
	for v := range g.Types {
		g.Vars = append(g.Vars, v)
	}
	sortVars(g.Vars)
	ids := map[Var]int{}
	for _, v := range g.Vars {
		root := g.uf.find(v)
		if _, ok := ids[root]; !ok {
			ids[root] = len(ids)
		}
		g.Group[v] = ids[root]
	}
	for k, vs := range g.Props {
		g.Props[k] = dedupe(vs)
	}
}

func sortVars(vs []Var) { sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] }) }

func heapVar(l program.Label) Var { return Var("heap@" + string(l)) }

// containsPointer reports whether values of t can carry an address.
func containsPointer(t *program.Type) bool {
	switch t.Kind {
	case program.Pointer, program.Function:
		return true
	case program.Array:
		return containsPointer(t.Elem)
	case program.Struct, program.Union:
		for _, f := range t.Fields {
			if containsPointer(f.Type) {
				return true
			}
		}
	}
	return false
}

// mayHoldAddr reports whether a value of type t may carry an address in
// this program: pointers, and integers when the program converts addresses
// to integers.
func (g *Graph) mayHoldAddr(t *program.Type) bool {
	switch t.Kind {
	case program.Pointer, program.Function:
		return true
	case program.Int:
		return g.AddrInts
	case program.Array:
		return g.mayHoldAddr(t.Elem)
	case program.Struct, program.Union:
		for _, f := range t.Fields {
			if g.mayHoldAddr(f.Type) {
				return true
			}
		}
	}
	return false
}

func isAggregate(t *program.Type) bool {
	return t.Kind == program.Array || t.Kind == program.Struct || t.Kind == program.Union
}

// PointerSources returns variables whose alias group contains every object
// the value of e (inside function fn) may point to, directly or through
// pointers stored in those objects: the variables holding the pointers e
// reads and the objects whose addresses e takes. Empty means e carries no
// address (an integer, NULL, an address converted to _Bool, ...).
func (g *Graph) PointerSources(fn string, e program.Expr) []Var {
	var out []Var
	g.ptrSources(fn, e, &out)
	return dedupe(out)
}

func (g *Graph) ptrSources(fn string, e program.Expr, out *[]Var) {
	switch x := e.(type) {
	case nil, *program.Const, *program.FuncRef, *program.Unary:
		// constants and functions are not objects; -p, ~p, !p are no addresses
	case *program.Nondet:
		if containsPointer(x.T) {
			*out = append(*out, g.anyObjs...)
		}
	case *program.Ref:
		if x.T.Kind == program.Array || g.mayHoldAddr(x.T) {
			*out = append(*out, VarOf(fn, x))
		}
	case *program.Deref, *program.Index, *program.FieldSel:
		if e.Type().Kind == program.Array || g.mayHoldAddr(e.Type()) {
			*out = append(*out, g.objects(fn, e)...)
		}
	case *program.AddrOf:
		*out = append(*out, g.objects(fn, x.X)...)
	case *program.Binary:
		// pointer ± integer; everything else yields a plain integer
		if (x.Op == program.Add || x.Op == program.Sub) && x.T.Kind == program.Pointer {
			g.ptrSources(fn, x.X, out)
			g.ptrSources(fn, x.Y, out)
		}
	case *program.CondExpr:
		g.ptrSources(fn, x.X, out)
		g.ptrSources(fn, x.Y, out)
	case *program.Cast:
		if g.mayHoldAddr(x.T) {
			g.ptrSources(fn, x.X, out)
		}
	case *program.Compound:
		for _, el := range x.Elems {
			g.ptrSources(fn, el, out)
		}
	}
}

// objects returns the variables an lvalue may designate: the variable of a
// Ref, or the pointer sources of a dereferenced pointer (whose group holds
// every object it may reach). For a non-lvalue aggregate it returns the
// objects its value is copied from.
func (g *Graph) objects(fn string, lv program.Expr) []Var {
	switch e := lv.(type) {
	case *program.Ref:
		return []Var{VarOf(fn, e)}
	case *program.Index:
		return g.objects(fn, e.X)
	case *program.FieldSel:
		return g.objects(fn, e.X)
	case *program.Deref:
		return g.PointerSources(fn, e.X)
	case *program.CondExpr:
		return append(g.objects(fn, e.X), g.objects(fn, e.Y)...)
	case *program.Cast:
		return g.objects(fn, e.X)
	}
	return nil
}

// valueSources returns the variables to unify with a location that receives
// the value of e: its pointer sources and, for an aggregate value, the
// objects it is copied from (an aggregate cannot be replaced by a
// nondeterministic value cell by cell, so the slicer must keep or drop
// both sides of an aggregate copy together).
func (g *Graph) valueSources(fn string, e program.Expr) []Var {
	out := g.PointerSources(fn, e)
	if isAggregate(e.Type()) {
		out = append(out, g.objects(fn, e)...)
	}
	return out
}

// members returns the variables in the groups of vs, sorted.
func (g *Graph) members(vs []Var) []Var {
	if len(vs) == 0 {
		return nil
	}
	var out []Var
	if len(g.Group) > 0 { // built: read-only
		groups := map[int]bool{}
		for _, v := range vs {
			if id, ok := g.Group[v]; ok {
				groups[id] = true
			}
		}
		for _, v := range g.Vars {
			if groups[g.Group[v]] {
				out = append(out, v)
			}
		}
		return out
	}
	roots := map[Var]bool{}
	for _, v := range vs {
		roots[g.uf.find(v)] = true
	}
	for v := range g.Types {
		if roots[g.uf.find(v)] {
			out = append(out, v)
		}
	}
	sortVars(out)
	return out
}

// Targets returns every variable the pointer value e (in function fn) may
// point to, with the pointers that lead there: the alias group(s) of its
// pointer sources.
func (g *Graph) Targets(fn string, e program.Expr) []Var {
	return g.members(g.PointerSources(fn, e))
}

// Reads returns the variables whose values evaluating e (in function fn)
// reads, sorted: its Refs outside address-of (where only the indices and
// pointers of the address computation are read) and, for every Deref, the
// alias group of the pointer.
func (g *Graph) Reads(fn string, e program.Expr) []Var { return dedupe(g.reads(fn, e)) }

func (g *Graph) reads(fn string, e program.Expr) []Var {
	var out []Var
	g.readsInto(fn, e, &out)
	return out
}

func (g *Graph) readsInto(fn string, e program.Expr, out *[]Var) {
	switch x := e.(type) {
	case nil:
	case *program.Ref:
		*out = append(*out, VarOf(fn, x))
	case *program.AddrOf:
		g.addrReads(fn, x.X, out)
	case *program.Deref:
		g.readsInto(fn, x.X, out)
		*out = append(*out, g.Targets(fn, x.X)...)
	default:
		for _, c := range children(e) {
			g.readsInto(fn, c, out)
		}
	}
}

// addrReads adds the variables read to compute the address of lvalue lv.
func (g *Graph) addrReads(fn string, lv program.Expr, out *[]Var) {
	switch e := lv.(type) {
	case *program.Ref, *program.FuncRef:
	case *program.Index:
		g.addrReads(fn, e.X, out)
		g.readsInto(fn, e.I, out)
	case *program.FieldSel:
		g.addrReads(fn, e.X, out)
	case *program.Deref:
		g.readsInto(fn, e.X, out)
	default:
		g.readsInto(fn, lv, out)
	}
}

// children returns the direct subexpressions of e.
func children(e program.Expr) []program.Expr {
	switch x := e.(type) {
	case *program.Unary:
		return []program.Expr{x.X}
	case *program.Binary:
		return []program.Expr{x.X, x.Y}
	case *program.CondExpr:
		return []program.Expr{x.C, x.X, x.Y}
	case *program.Cast:
		return []program.Expr{x.X}
	case *program.Index:
		return []program.Expr{x.X, x.I}
	case *program.FieldSel:
		return []program.Expr{x.X}
	case *program.Deref:
		return []program.Expr{x.X}
	case *program.AddrOf:
		return []program.Expr{x.X}
	case *program.Compound:
		return x.Elems
	}
	return nil
}

// flowInto records that the value of rhs (evaluated in fn) is stored into
// one of the objects dsts.
func (b *builder) flowInto(dsts []Var, fn string, rhs program.Expr) {
	if rhs == nil || len(dsts) == 0 {
		return
	}
	srcs := b.g.valueSources(fn, rhs)
	if len(srcs) == 0 {
		return
	}
	for _, d := range dsts {
		b.g.uf.union(dsts[0], d)
	}
	for _, s := range srcs {
		b.g.uf.union(dsts[0], s)
	}
}

func (b *builder) aliases(f *program.Func, in *program.Instr) {
	g, fn := b.g, f.Name
	// The objects a dereference may reach form one group: unify the
	// sources of every dereferenced pointer (and of every lock, unlock and
	// free, which dereference their operand).
	unifyAll := func(vs []Var) {
		for i := 1; i < len(vs); i++ {
			g.uf.union(vs[0], vs[i])
		}
	}
	for _, e := range in.Operands() {
		program.Walk(e, func(x program.Expr) bool {
			if d, ok := x.(*program.Deref); ok {
				unifyAll(g.PointerSources(fn, d.X))
			}
			return true
		})
	}
	switch in.Op {
	case program.OpLock, program.OpUnlock, program.OpFree:
		unifyAll(g.PointerSources(fn, in.Rhs))
	case program.OpAssign:
		b.flowInto(g.objects(fn, in.Lhs), fn, in.Rhs)
	case program.OpAlloc:
		if in.Lhs.Type().Kind == program.Pointer {
			for _, d := range g.objects(fn, in.Lhs) {
				g.uf.union(d, heapVar(in.Label))
			}
		}
	case program.OpRealloc:
		// an allocation, a free of the old block, and the new block's
		// contents copied from the old one's (*new = *old)
		unifyAll(g.PointerSources(fn, in.Args[0]))
		for _, d := range g.objects(fn, in.Lhs) {
			g.uf.union(d, heapVar(in.Label))
		}
		b.flowInto([]Var{heapVar(in.Label)}, fn, &program.Deref{X: in.Args[0], T: in.Lhs.Type().Elem})
	case program.OpJoin:
		if in.Lhs != nil {
			for _, r := range b.results {
				b.flowInto(g.objects(fn, in.Lhs), r.f.Name, r.f.Body[r.at].Rhs)
			}
		}
	case program.OpCall, program.OpSpawn:
		for _, callee := range g.callees(in.Func) {
			for i, a := range in.Args {
				if i < len(callee.Params) {
					b.flowInto([]Var{Var(callee.Name + "::" + callee.Params[i].Name)}, fn, a)
				}
			}
			if in.Op == program.OpCall && in.Lhs != nil {
				for _, r := range callee.Body {
					if r.Op == program.OpReturn && r.Rhs != nil {
						b.flowInto(g.objects(fn, in.Lhs), callee.Name, r.Rhs)
					}
				}
			}
		}
	}
}

// callees returns the functions a callee expression may denote: the named
// function, or for a function-pointer value every function of that type.
func (g *Graph) callees(fe program.Expr) []*program.Func {
	if fe == nil {
		return nil
	}
	if fr, ok := fe.(*program.FuncRef); ok {
		if f := g.funcs[fr.Name]; f != nil {
			return []*program.Func{f}
		}
		return nil
	}
	t := fe.Type()
	if t.Kind == program.Pointer {
		t = t.Elem
	}
	var out []*program.Func
	for _, f := range g.p.Funcs {
		if program.Identical(f.Type(), t) {
			out = append(out, f)
		}
	}
	return out
}

// checkedVars returns the variables an abstraction must keep so that the
// steps of in that may fail (program.InstrMayFail) are evaluated as in the
// program: the operands of each Checked subexpression (an index and the
// indexed object, a dereferenced pointer, which brings its targets through
// its group, the operands of pointer arithmetic), the pointer of a Free or a
// Lock, the count of an allocation, and the object the instruction
// assigns, so that the slicer never turns it into a skip.
func (g *Graph) checkedVars(fn string, in *program.Instr) []Var {
	var out []Var
	for _, e := range in.Operands() {
		program.Walk(e, func(x program.Expr) bool {
			if !program.Checked(x) {
				return true
			}
			switch x := x.(type) {
			case *program.Index:
				out = append(out, g.objects(fn, x.X)...)
				g.readsInto(fn, x.I, &out)
			case *program.FieldSel:
				out = append(out, g.objects(fn, x.X)...)
			default: // a dereference, pointer arithmetic or comparison
				for _, c := range children(x) {
					g.readsInto(fn, c, &out)
					out = append(out, g.PointerSources(fn, c)...)
				}
			}
			return true
		})
	}
	switch in.Op {
	case program.OpAssign:
		out = append(out, g.objects(fn, in.Lhs)...)
	case program.OpAlloc:
		out = append(out, g.objects(fn, in.Lhs)...)
		g.readsInto(fn, in.Rhs, &out)
	case program.OpRealloc:
		// and what the old pointer derives from: whether it is the start
		// of a live heap block (a sliced old block only makes the copied
		// contents indeterminate)
		out = append(out, g.objects(fn, in.Lhs)...)
		g.readsInto(fn, in.Rhs, &out)
		g.readsInto(fn, in.Args[0], &out)
		out = append(out, g.PointerSources(fn, in.Args[0])...)
	case program.OpFree, program.OpLock, program.OpUnlock:
		g.readsInto(fn, in.Rhs, &out)
		out = append(out, g.PointerSources(fn, in.Rhs)...)
	}
	return out
}

// lvWrites returns the variables an assignment to lv may write, and the
// variables read to compute lv's address.
func (g *Graph) lvWrites(fn string, lv program.Expr) (writes, addr []Var) {
	switch e := baseOf(lv).(type) {
	case *program.Ref:
		writes = []Var{VarOf(fn, e)}
	case *program.Deref:
		writes = g.Targets(fn, e.X)
	default:
		writes = g.members(g.objects(fn, lv))
	}
	g.addrReads(fn, lv, &addr)
	return writes, addr
}

func baseOf(lv program.Expr) program.Expr {
	for {
		switch e := lv.(type) {
		case *program.Index:
			lv = e.X
		case *program.FieldSel:
			lv = e.X
		default:
			return lv
		}
	}
}

// directWrites returns what one instruction writes, not counting callees.
func (b *builder) directWrites(f *program.Func, in *program.Instr) []Var {
	g, fn := b.g, f.Name
	var w []Var
	switch in.Op {
	case program.OpAssign, program.OpAlloc, program.OpRealloc, program.OpCall, program.OpSpawn, program.OpJoin:
		if in.Lhs != nil {
			w, _ = g.lvWrites(fn, in.Lhs)
		}
		if in.Op == program.OpAlloc || in.Op == program.OpRealloc {
			w = append(w, heapVar(in.Label))
		}
		for _, c := range g.callees(in.Func) {
			for _, p := range c.Params {
				w = append(w, Var(c.Name+"::"+p.Name))
			}
		}
	case program.OpDecl:
		w = []Var{Var(fn + "::" + in.Var)}
	case program.OpLock, program.OpUnlock:
		w = g.Targets(fn, in.Rhs)
	}
	return w
}

// instrWrites is everything an instruction may write, callees included.
func (b *builder) instrWrites(f *program.Func, in *program.Instr) []Var {
	w := b.directWrites(f, in)
	if in.Op == program.OpCall || in.Op == program.OpSpawn {
		for _, c := range b.g.callees(in.Func) {
			for v := range b.writes[c.Name] {
				w = append(w, v)
			}
		}
	}
	return dedupe(w)
}

// guardReads returns the variables read by a branching or blocking
// instruction: what decides whether the instructions it controls run.
func (b *builder) guardReads(f *program.Func, in *program.Instr) []Var {
	g := b.g
	switch in.Op {
	case program.OpGoto, program.OpAssume, program.OpJoin:
		if in.Rhs != nil {
			return g.reads(f.Name, in.Rhs)
		}
	case program.OpLock:
		return append(g.reads(f.Name, in.Rhs), g.Targets(f.Name, in.Rhs)...)
	case program.OpCall:
		var out []Var
		for _, c := range g.callees(in.Func) {
			if b.blocks[c.Name] {
				out = append(out, b.guardVars[c.Name]...)
			}
		}
		return out
	}
	return nil
}

// summaries computes writes, blocks and guardVars of every function.
func (b *builder) summaries() {
	g := b.g
	b.writes = map[string]map[Var]bool{}
	b.blocks = map[string]bool{}
	guards := map[string]map[Var]bool{}
	for _, f := range g.p.Funcs {
		m := map[Var]bool{}
		gv := map[Var]bool{}
		for i, in := range f.Body {
			for _, v := range b.directWrites(f, in) {
				m[v] = true
			}
			switch in.Op {
			case program.OpAssume, program.OpLock, program.OpJoin, program.OpExit:
				b.blocks[f.Name] = true
			case program.OpGoto:
				if f.LoopHead(i) >= 0 {
					b.blocks[f.Name] = true // a loop may not terminate
				}
			}
			if in.Op != program.OpCall {
				for _, v := range b.guardReads(f, in) {
					gv[v] = true
				}
			}
		}
		b.writes[f.Name] = m
		guards[f.Name] = gv
	}
	for changed := true; changed; {
		changed = false
		for _, f := range g.p.Funcs {
			m, gv := b.writes[f.Name], guards[f.Name]
			for _, in := range f.Body {
				if in.Op != program.OpCall && in.Op != program.OpSpawn {
					continue
				}
				for _, c := range g.callees(in.Func) {
					for v := range b.writes[c.Name] {
						if !m[v] {
							m[v] = true
							changed = true
						}
					}
					if in.Op == program.OpCall {
						if b.blocks[c.Name] && !b.blocks[f.Name] {
							b.blocks[f.Name] = true
							changed = true
						}
						for v := range guards[c.Name] {
							if !gv[v] {
								gv[v] = true
								changed = true
							}
						}
					}
				}
			}
		}
	}
	b.guardVars = map[string][]Var{}
	for name, gv := range guards {
		var vs []Var
		for v := range gv {
			vs = append(vs, v)
		}
		b.guardVars[name] = dedupe(vs)
	}
}

// controls computes the control dependences of every function and the
// summaries that depend on them (retCtl, ctx).
func (b *builder) controls() {
	g := b.g
	b.retCtl = map[string][]Var{}
	for _, f := range g.p.Funcs {
		blocking := func(in *program.Instr) bool {
			switch in.Op {
			case program.OpAssume, program.OpLock, program.OpJoin:
				return true
			case program.OpCall:
				for _, c := range g.callees(in.Func) {
					if b.blocks[c.Name] {
						return true
					}
				}
			}
			return false
		}
		deps := transitive(mergeDeps(controlDeps(f), blockingDeps(f, blocking)))
		b.deps[f.Name] = deps
		var rc []Var
		for i, in := range f.Body {
			if in.Op == program.OpReturn && in.Rhs != nil {
				for _, j := range deps[i] {
					rc = append(rc, b.guardReads(f, f.Body[j])...)
				}
			}
		}
		b.retCtl[f.Name] = dedupe(rc)
	}
	ctx := map[string]map[Var]bool{}
	for _, f := range g.p.Funcs {
		ctx[f.Name] = map[Var]bool{}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range g.p.Funcs {
			for i, in := range f.Body {
				if in.Op != program.OpCall && in.Op != program.OpSpawn {
					continue
				}
				var vs []Var
				for _, j := range b.deps[f.Name][i] {
					vs = append(vs, b.guardReads(f, f.Body[j])...)
				}
				for v := range ctx[f.Name] {
					vs = append(vs, v)
				}
				for _, c := range g.callees(in.Func) {
					for _, v := range vs {
						if !ctx[c.Name][v] {
							ctx[c.Name][v] = true
							changed = true
						}
					}
				}
			}
		}
	}
	b.ctx = map[string][]Var{}
	for name, m := range ctx {
		var vs []Var
		for v := range m {
			vs = append(vs, v)
		}
		b.ctx[name] = dedupe(vs)
	}
}

func (b *builder) funcEdges(f *program.Func) {
	g, fn := b.g, f.Name
	deps := b.deps[fn]
	succs := f.Succs()
	loops := loopComponents(succs)
	// exits: the branch at j leaves its loop (a loop's guard, not an if
	// inside the loop's body)
	exits := func(j int) bool {
		if f.Body[j].Op != program.OpGoto {
			return false
		}
		for _, s := range succs[j] {
			if loops[s] != loops[j] {
				return true
			}
		}
		return false
	}
	for i, in := range f.Body {
		writes := b.instrWrites(f, in)
		// data edges: the value stored and the address it is stored at
		var srcs []Var
		switch in.Op {
		case program.OpAssign, program.OpAlloc:
			srcs = g.reads(fn, in.Rhs)
		case program.OpRealloc:
			// the new block's contents are the old block's
			srcs = append(g.reads(fn, in.Rhs), g.reads(fn, &program.Deref{X: in.Args[0], T: in.Lhs.Type().Elem})...)
		case program.OpLock, program.OpUnlock:
			g.addrReads(fn, &program.Deref{X: in.Rhs, T: in.Rhs.Type().Elem}, &srcs)
		}
		if in.Lhs != nil && (in.Op == program.OpAssign || in.Op == program.OpAlloc || in.Op == program.OpRealloc || in.Op == program.OpCall || in.Op == program.OpSpawn || in.Op == program.OpJoin) {
			_, addr := g.lvWrites(fn, in.Lhs)
			srcs = append(srcs, addr...)
		}
		b.edges(dedupe(srcs), writes, Data)
		if in.Op == program.OpJoin && in.Lhs != nil {
			// the joined thread's result: every value a thread may
			// return or exit with, what decides which one it is, and
			// which thread is joined
			lw, _ := g.lvWrites(fn, in.Lhs)
			var ctl []Var
			for _, r := range b.results {
				b.edges(g.reads(r.f.Name, r.f.Body[r.at].Rhs), lw, Call)
				for _, j := range b.deps[r.f.Name][r.at] {
					ctl = append(ctl, b.guardReads(r.f, r.f.Body[j])...)
				}
				ctl = append(ctl, b.ctx[r.f.Name]...)
			}
			ctl = append(ctl, g.reads(fn, in.Rhs)...)
			b.edges(dedupe(ctl), lw, Control)
		}
		// call edges: arguments into parameters, returned values (and
		// what decides which return runs) into the result
		if in.Op == program.OpCall || in.Op == program.OpSpawn {
			if _, direct := in.Func.(*program.FuncRef); !direct {
				// which function runs depends on the function pointer
				b.edges(g.reads(fn, in.Func), writes, Control)
			}
			for _, c := range g.callees(in.Func) {
				for k, a := range in.Args {
					if k < len(c.Params) {
						b.edges(g.reads(fn, a), []Var{Var(c.Name + "::" + c.Params[k].Name)}, Call)
					}
				}
				if in.Op == program.OpCall && in.Lhs != nil {
					lw, _ := g.lvWrites(fn, in.Lhs)
					for _, r := range c.Body {
						if r.Op == program.OpReturn && r.Rhs != nil {
							b.edges(g.reads(c.Name, r.Rhs), lw, Call)
						}
					}
					b.edges(b.retCtl[c.Name], lw, Control)
				}
			}
		}
		// control edges: the guards this instruction depends on
		var ctl, sync, loop []Var
		for _, j := range deps[i] {
			gr := b.guardReads(f, f.Body[j])
			ctl = append(ctl, gr...)
			if op := f.Body[j].Op; op == program.OpLock || op == program.OpCall {
				sync = append(sync, gr...)
			}
			if loops[j] >= 0 && loops[j] == loops[i] && exits(j) {
				loop = append(loop, gr...)
			}
		}
		ctl = dedupe(ctl)
		b.edges(ctl, writes, Control)
		b.edges(dedupe(sync), writes, Control|Sync)
		b.edges(dedupe(loop), writes, Control|Loop)
		if in.Op == program.OpAssert {
			vs := append(g.reads(fn, in.Rhs), ctl...)
			g.Props[in.Prop] = append(g.Props[in.Prop], append(vs, b.ctx[fn]...)...)
		}
	}
}

func dedupe(vs []Var) []Var {
	seen := map[Var]bool{}
	var out []Var
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sortVars(out)
	return out
}

// WriteText writes the graph as text: one line per variable with its alias
// group and its predecessors (with the kinds of the edges), then the target
// variables of every property and the required variables.
func (g *Graph) WriteText(w io.Writer) error {
	var b strings.Builder
	width := 0
	for _, x := range g.Vars {
		if len(x) > width {
			width = len(x)
		}
	}
	for _, x := range g.Vars {
		var preds []string
		for _, y := range g.Pred(x) {
			preds = append(preds, fmt.Sprintf("%s(%s)", y, g.In[x][y]))
		}
		line := fmt.Sprintf("%-*s  group %-3d <- %s", width, x, g.Group[x], strings.Join(preds, " "))
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	var props []string
	for p := range g.Props {
		props = append(props, p)
	}
	sort.Strings(props)
	for _, p := range props {
		fmt.Fprintf(&b, "property %s: %s\n", p, JoinVars(g.Props[p]))
	}
	if len(g.Required) > 0 {
		fmt.Fprintf(&b, "required: %s\n", JoinVars(g.Required))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JoinVars joins variable names with ", ".
func JoinVars(vs []Var) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

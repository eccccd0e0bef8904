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
	Call                         // argument → parameter, return → result
)

func (k EdgeKind) String() string {
	var parts []string
	for _, x := range []struct {
		k EdgeKind
		n string
	}{{Data, "data"}, {Control, "control"}, {Call, "call"}} {
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
	uf    *unionFind
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
	b := &builder{
		p:     p,
		g:     &Graph{In: map[Var]map[Var]EdgeKind{}, Out: map[Var]map[Var]EdgeKind{}, Group: map[Var]int{}, Props: map[string][]Var{}, Types: map[Var]*program.Type{}},
		uf:    newUnionFind(),
		funcs: map[string]*program.Func{},
	}
	b.run()
	return b.g
}

type builder struct {
	p     *program.Program
	g     *Graph
	uf    *unionFind
	funcs map[string]*program.Func
	// writes[f]: the variables f may write, transitively through calls and spawns.
	writes map[string]map[Var]bool
}

func (b *builder) addVar(v Var, t *program.Type) {
	if _, ok := b.g.Types[v]; !ok {
		b.g.Types[v] = t
		b.uf.add(v)
	}
}

func (b *builder) edge(from, to Var, k EdgeKind) {
	if from == to {
		return
	}
	if b.g.In[to] == nil {
		b.g.In[to] = map[Var]EdgeKind{}
	}
	if b.g.Out[from] == nil {
		b.g.Out[from] = map[Var]EdgeKind{}
	}
	b.g.In[to][from] |= k
	b.g.Out[from][to] |= k
}

func (b *builder) run() {
	p := b.p
	for _, v := range p.Globals {
		b.addVar(Var(v.Name), v.Type)
	}
	for _, f := range p.Funcs {
		b.funcs[f.Name] = f
		for _, v := range f.Params {
			b.addVar(Var(f.Name+"::"+v.Name), v.Type)
		}
		for _, v := range f.Locals {
			b.addVar(Var(f.Name+"::"+v.Name), v.Type)
		}
		for _, in := range f.Body {
			if in.Op == program.OpAlloc {
				b.addVar(heapVar(in.Label), in.Lhs.Type().Elem)
			}
		}
	}
	// Pass 1: alias groups (needs a fixpoint only for the order of unions,
	// which union-find makes irrelevant).
	for _, v := range p.Globals {
		if v.Init != nil {
			b.unifyFlow(Var(v.Name), v.Type, "", v.Init)
		}
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			b.aliases(f, in)
		}
	}
	// Pass 2: write summaries, then edges.
	b.summaries()
	for _, f := range p.Funcs {
		b.edges(f)
	}
	for v := range b.g.Types {
		b.g.Vars = append(b.g.Vars, v)
	}
	sort.Slice(b.g.Vars, func(i, j int) bool { return b.g.Vars[i] < b.g.Vars[j] })
	ids := map[Var]int{}
	for _, v := range b.g.Vars {
		root := b.uf.find(v)
		if _, ok := ids[root]; !ok {
			ids[root] = len(ids)
		}
		b.g.Group[v] = ids[root]
	}
	b.g.uf = b.uf
}

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

// objects returns the variables an lvalue may designate: the variable of a
// Ref, or everything in the alias group of a dereferenced pointer.
func (b *builder) objects(fn string, lv program.Expr) []Var {
	switch e := lv.(type) {
	case *program.Ref:
		return []Var{VarOf(fn, e)}
	case *program.Index:
		return b.objects(fn, e.X)
	case *program.FieldSel:
		return b.objects(fn, e.X)
	case *program.Deref:
		// every variable of the pointer expression carries the group
		return b.pointerVars(fn, e.X)
	}
	return nil
}

// pointerVars returns the variables through which an address computed by e
// may come: Refs in e and the objects of AddrOf and Deref subexpressions.
func (b *builder) pointerVars(fn string, e program.Expr) []Var {
	var out []Var
	program.Walk(e, func(x program.Expr) bool {
		switch x := x.(type) {
		case *program.Ref:
			out = append(out, VarOf(fn, x))
		case *program.AddrOf:
			out = append(out, b.objects(fn, x.X)...)
			// the address of x.X does not read it, but its index does
			b.indexReads(fn, x.X, &out)
			return false
		}
		return true
	})
	return out
}

func (b *builder) indexReads(fn string, lv program.Expr, out *[]Var) {
	switch e := lv.(type) {
	case *program.Index:
		b.indexReads(fn, e.X, out)
		*out = append(*out, b.reads(fn, e.I)...)
	case *program.FieldSel:
		b.indexReads(fn, e.X, out)
	case *program.Deref:
		*out = append(*out, b.pointerVars(fn, e.X)...)
	}
}

// addressSources returns the variables whose addresses (or pointer values)
// may be part of the value of e.
func (b *builder) addressSources(fn string, e program.Expr) []Var {
	var out []Var
	program.Walk(e, func(x program.Expr) bool {
		switch x := x.(type) {
		case *program.Ref:
			if containsPointer(x.T) {
				out = append(out, VarOf(fn, x))
			}
		case *program.AddrOf:
			out = append(out, b.objects(fn, x.X)...)
			return false
		case *program.Deref:
			if containsPointer(x.T) {
				out = append(out, b.pointerVars(fn, x.X)...)
			}
		case *program.Cast:
			if containsPointer(x.X.Type()) || containsPointer(x.T) {
				out = append(out, b.pointerVars(fn, x.X)...)
				return false
			}
		}
		return true
	})
	return out
}

// unifyFlow records that the value of rhs is stored into dst.
func (b *builder) unifyFlow(dst Var, dstType *program.Type, fn string, rhs program.Expr) {
	srcs := b.addressSources(fn, rhs)
	if len(srcs) == 0 {
		return
	}
	for _, s := range srcs {
		b.uf.union(dst, s)
	}
}

func (b *builder) unifyLV(fn string, lv program.Expr, rhs program.Expr) {
	if rhs == nil {
		return
	}
	dsts := b.objects(fn, lv)
	if !containsPointer(lv.Type()) && len(b.addressSources(fn, rhs)) == 0 {
		return
	}
	for _, d := range dsts {
		b.unifyFlow(d, lv.Type(), fn, rhs)
	}
}

func (b *builder) aliases(f *program.Func, in *program.Instr) {
	fn := f.Name
	// A Deref's pointer and the objects it reaches are one group already by
	// construction of the flows; an lvalue through a pointer ties the pointer
	// expression's variables together.
	for _, e := range in.Operands() {
		program.Walk(e, func(x program.Expr) bool {
			if d, ok := x.(*program.Deref); ok {
				vs := b.pointerVars(fn, d.X)
				for i := 1; i < len(vs); i++ {
					b.uf.union(vs[0], vs[i])
				}
			}
			return true
		})
	}
	switch in.Op {
	case program.OpAssign:
		b.unifyLV(fn, in.Lhs, in.Rhs)
	case program.OpAlloc:
		for _, d := range b.objects(fn, in.Lhs) {
			b.uf.union(d, heapVar(in.Label))
		}
	case program.OpCall, program.OpSpawn:
		for _, callee := range b.callees(in.Func) {
			for i, a := range in.Args {
				if i < len(callee.Params) {
					b.unifyFlow(Var(callee.Name+"::"+callee.Params[i].Name), callee.Params[i].Type, fn, a)
				}
			}
			if in.Op == program.OpCall && in.Lhs != nil {
				for _, r := range callee.Body {
					if r.Op == program.OpReturn && r.Rhs != nil {
						for _, d := range b.objects(fn, in.Lhs) {
							b.unifyFlow(d, in.Lhs.Type(), callee.Name, r.Rhs)
						}
					}
				}
			}
		}
		// a function-pointer callee ties its variables to nothing else
	}
}

// callees returns the functions a callee expression may denote: the named
// function, or for a function-pointer value every function of that type.
func (b *builder) callees(fe program.Expr) []*program.Func {
	if fr, ok := fe.(*program.FuncRef); ok {
		if f := b.funcs[fr.Name]; f != nil {
			return []*program.Func{f}
		}
		return nil
	}
	t := fe.Type()
	if t.Kind == program.Pointer {
		t = t.Elem
	}
	var out []*program.Func
	for _, f := range b.p.Funcs {
		if program.Identical(f.Type(), t) {
			out = append(out, f)
		}
	}
	return out
}

// reads returns the variables whose values e reads: its Refs (outside
// address-of, where only indices are read) and, for every Deref, the alias
// group of the pointer.
func (b *builder) reads(fn string, e program.Expr) []Var {
	var out []Var
	program.Walk(e, func(x program.Expr) bool {
		switch x := x.(type) {
		case *program.Ref:
			out = append(out, VarOf(fn, x))
		case *program.AddrOf:
			b.indexReads(fn, x.X, &out)
			return false
		case *program.Deref:
			out = append(out, b.pointerVars(fn, x.X)...)
			out = append(out, b.groupOf(b.pointerVars(fn, x.X))...)
		}
		return true
	})
	return out
}

func (b *builder) groupOf(vs []Var) []Var {
	var out []Var
	roots := map[Var]bool{}
	for _, v := range vs {
		roots[b.uf.find(v)] = true
	}
	for v := range b.g.Types {
		if roots[b.uf.find(v)] {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// lvWrites returns the variables an assignment to lv may write, and the
// variables read to compute lv's address.
func (b *builder) lvWrites(fn string, lv program.Expr) (writes, addr []Var) {
	switch lv.(type) {
	case *program.Ref:
		writes = b.objects(fn, lv)
	default:
		objs := b.objects(fn, lv)
		if _, isDeref := baseOf(lv).(*program.Deref); isDeref {
			writes = b.groupOf(objs)
		} else {
			writes = objs
		}
	}
	b.indexReads(fn, lv, &addr)
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
	fn := f.Name
	switch in.Op {
	case program.OpAssign, program.OpAlloc, program.OpCall, program.OpSpawn:
		if in.Lhs != nil {
			w, _ := b.lvWrites(fn, in.Lhs)
			if in.Op == program.OpAlloc {
				w = append(w, heapVar(in.Label))
			}
			return w
		}
	case program.OpDecl:
		return []Var{Var(fn + "::" + in.Var)}
	case program.OpLock, program.OpUnlock:
		return b.groupOf(b.pointerVars(fn, in.Rhs))
	}
	return nil
}

func (b *builder) summaries() {
	b.writes = map[string]map[Var]bool{}
	for _, f := range b.p.Funcs {
		m := map[Var]bool{}
		for _, in := range f.Body {
			for _, v := range b.directWrites(f, in) {
				m[v] = true
			}
			if in.Op == program.OpCall || in.Op == program.OpSpawn {
				for _, c := range b.callees(in.Func) {
					for _, p := range c.Params {
						m[Var(c.Name+"::"+p.Name)] = true
					}
				}
			}
		}
		b.writes[f.Name] = m
	}
	for changed := true; changed; {
		changed = false
		for _, f := range b.p.Funcs {
			m := b.writes[f.Name]
			for _, in := range f.Body {
				if in.Op != program.OpCall && in.Op != program.OpSpawn {
					continue
				}
				for _, c := range b.callees(in.Func) {
					for v := range b.writes[c.Name] {
						if !m[v] {
							m[v] = true
							changed = true
						}
					}
				}
			}
		}
	}
}

// instrWrites is everything an instruction may write, callees included.
func (b *builder) instrWrites(f *program.Func, in *program.Instr) []Var {
	w := b.directWrites(f, in)
	if in.Op == program.OpCall || in.Op == program.OpSpawn {
		for _, c := range b.callees(in.Func) {
			for v := range b.writes[c.Name] {
				w = append(w, v)
			}
		}
	}
	return w
}

func (b *builder) edges(f *program.Func) {
	fn := f.Name
	cd := controlDeps(f)
	for i, in := range f.Body {
		writes := b.instrWrites(f, in)
		// data edges
		var srcs []Var
		switch in.Op {
		case program.OpAssign:
			srcs = b.reads(fn, in.Rhs)
		case program.OpAlloc:
			srcs = b.reads(fn, in.Rhs)
		}
		if in.Lhs != nil && (in.Op == program.OpAssign || in.Op == program.OpAlloc || in.Op == program.OpCall || in.Op == program.OpSpawn) {
			_, addr := b.lvWrites(fn, in.Lhs)
			srcs = append(srcs, addr...)
		}
		for _, w := range writes {
			for _, s := range srcs {
				b.edge(s, w, Data)
			}
		}
		// call edges
		if in.Op == program.OpCall || in.Op == program.OpSpawn {
			for _, c := range b.callees(in.Func) {
				for k, a := range in.Args {
					if k < len(c.Params) {
						pv := Var(c.Name + "::" + c.Params[k].Name)
						for _, s := range b.reads(fn, a) {
							b.edge(s, pv, Call)
						}
					}
				}
				if in.Op == program.OpCall && in.Lhs != nil {
					lw, _ := b.lvWrites(fn, in.Lhs)
					for _, r := range c.Body {
						if r.Op == program.OpReturn && r.Rhs != nil {
							for _, s := range b.reads(c.Name, r.Rhs) {
								for _, w := range lw {
									b.edge(s, w, Call)
								}
							}
						}
					}
				}
			}
		}
		// control edges: guards this instruction depends on
		for _, j := range cd[i] {
			for _, s := range b.guardReads(f, f.Body[j]) {
				for _, w := range writes {
					b.edge(s, w, Control)
				}
			}
		}
		if in.Op == program.OpAssert {
			vs := b.reads(fn, in.Rhs)
			for _, j := range cd[i] {
				vs = append(vs, b.guardReads(f, f.Body[j])...)
			}
			b.g.Props[in.Prop] = dedupe(vs)
		}
	}
}

// guardReads returns the variables read by a branching or blocking
// instruction.
func (b *builder) guardReads(f *program.Func, in *program.Instr) []Var {
	switch in.Op {
	case program.OpGoto, program.OpAssume, program.OpJoin:
		if in.Rhs != nil {
			return b.reads(f.Name, in.Rhs)
		}
	case program.OpLock:
		return b.groupOf(b.pointerVars(f.Name, in.Rhs))
	}
	return nil
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
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

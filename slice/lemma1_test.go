package slice

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// The Lemma 1 test (paper §5.1): every run of P maps to a run of the
// abstraction A with the same label sequence.
//
// Construction of the A-run from a P-run r (from interp.Simulate, so every
// step carries its Nondet values and its Assigned writes):
//
//   - Same threads and labels, step for step. A P-run that ends in an
//     execution error loses its last step (the prefix before it is a run).
//   - A step whose instruction the slicer left alone (every operand the same
//     expression node) takes P's Nondet values; a step that became a skip
//     takes none.
//   - An abstracted step: A's operands are walked in parallel with P's. Where
//     both share a subexpression, P's Nondet values for it are copied (in
//     pre-order, as program.Step.Nondet orders them). Where A has a Nondet in
//     place of P's subexpression e, the value is P's value of e at that step,
//     read from r: a goto guard is 1 iff the thread's next step in r is at a
//     jump target (not the fall-through), an assertion 0 iff r violates it at
//     that step, the value of an assignment is what r's step wrote, a call
//     or spawn argument what it wrote into the parameter, a return value what
//     the Return step wrote into the caller's location, an allocation count
//     the number of cells the Alloc step initialised. Any other Nondet (an
//     array index the slicer replaced by (unsigned)* % n, the integer part of
//     a pointer expression) is found by search: candidates (0..n-1 for an
//     index, the values and indices of the step's writes, small constants)
//     are tried by replaying A's run up to that step, and the first whose
//     writes agree with r's on the kept variables is taken.
//
// The A-run must then replay with interp.Replay, end with the same violated
// property as r, and agree with r on every write to a kept variable (the
// configurations of the two runs agree on V0 after every step).

type lemmaProg struct {
	name   string
	p      *program.Program
	g      *depgraph.Graph
	unwind int
	runs   []*program.Run // simulated runs of p
}

var boundsRE = regexp.MustCompile(`unwind=(\d+)`)

func loadProgs(t *testing.T, seeds int) []*lemmaProg {
	t.Helper()
	files, err := filepath.Glob("../testdata/progs/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/progs: %v", err)
	}
	var out []*lemmaProg
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := frontend.Lower(filepath.Base(f), src, frontend.Options{Model: testenv.ModelOf(src)})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		lp := &lemmaProg{name: filepath.Base(f), p: p, g: depgraph.Build(p), unwind: 3}
		if m := boundsRE.FindSubmatch(src); m != nil {
			lp.unwind, _ = strconv.Atoi(string(m[1]))
		}
		for seed := 0; seed < seeds; seed++ {
			o, err := interp.Simulate(p, interp.SimOptions{Seed: int64(seed), MaxSteps: 3000, ContextSwitchProb: 0.3, Unwind: lp.unwind})
			if err != nil {
				t.Fatalf("%s seed %d: Simulate: %v", f, seed, err)
			}
			run := o.Run
			if o.Status == interp.Errored && len(run.Steps) > 0 {
				run = &program.Run{Steps: run.Steps[:len(run.Steps)-1]}
			}
			lp.runs = append(lp.runs, run)
		}
		out = append(out, lp)
	}
	return out
}

// v0Choices returns the V0 choices tried for a program: the paper
// heuristic, cone, nothing (only what must be kept) and each alias group.
func v0Choices(g *depgraph.Graph) map[string][]depgraph.Var {
	out := map[string][]depgraph.Var{"none": nil}
	for _, h := range []string{"paper", "cone"} {
		hh, _ := depgraph.Lookup(h)
		out[h] = depgraph.Choose(g, hh, "")
	}
	seen := map[int]bool{}
	for _, v := range g.Vars {
		if id := g.Group[v]; !seen[id] {
			seen[id] = true
			out["group:"+string(v)] = g.Members(id)
		}
	}
	return out
}

func TestLemma1(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 30
	}
	progs := loadProgs(t, seeds)
	for _, lp := range progs {
		t.Run(lp.name, func(t *testing.T) {
			for name, keep := range v0Choices(lp.g) {
				a, kept, err := Abstract(lp.p, lp.g, keep)
				if err != nil {
					t.Errorf("V0 %s: Abstract: %v", name, err)
					continue
				}
				if err := program.Check(a); err != nil {
					t.Errorf("V0 %s: Check: %v", name, err)
					continue
				}
				runs := lp.runs
				if strings.HasPrefix(name, "group:") && len(runs) > 60 {
					runs = runs[:60]
				}
				for i, r := range runs {
					if err := checkLemma1(lp.p, a, kept, r); err != nil {
						t.Errorf("V0 %s (%v), run %d: %v", name, kept, i, err)
						break
					}
				}
			}
		})
	}
}

// TestLemma1CatchesBrokenSlicer runs the same checker on slicers that are
// wrong on purpose; it must reject them.
func TestLemma1CatchesBrokenSlicer(t *testing.T) {
	progs := loadProgs(t, 40)
	broken := map[string]func(p *program.Program, g *depgraph.Graph, keep []depgraph.Var) (*program.Program, []depgraph.Var, error){
		// drops the first assignment to a kept variable
		"drop-kept-write": func(p *program.Program, g *depgraph.Graph, keep []depgraph.Var) (*program.Program, []depgraph.Var, error) {
			a, kept, err := Abstract(p, g, keep)
			if err != nil {
				return nil, nil, err
			}
			for _, f := range a.Funcs {
				for _, in := range f.Body {
					if in.Op == program.OpAssign {
						toSkip(in, "broken")
						return a, kept, nil
					}
				}
			}
			return a, kept, nil
		},
		// keeps an assume on sliced variables as assume(0)-like blocking
		// by negating the first kept guard
		"negate-guard": func(p *program.Program, g *depgraph.Graph, keep []depgraph.Var) (*program.Program, []depgraph.Var, error) {
			a, kept, err := Abstract(p, g, keep)
			if err != nil {
				return nil, nil, err
			}
			for _, f := range a.Funcs {
				for _, in := range f.Body {
					if in.Op == program.OpGoto && in.Rhs != nil && !program.HasNondet(in.Rhs) {
						in.Rhs = &program.Unary{Op: program.Not, X: in.Rhs, T: program.IntT}
						return a, kept, nil
					}
				}
			}
			return a, kept, nil
		},
	}
	for name, abs := range broken {
		caught := 0
		for _, lp := range progs {
			hh, _ := depgraph.Lookup("cone")
			a, kept, err := abs(lp.p, lp.g, depgraph.Choose(lp.g, hh, ""))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range lp.runs {
				if checkLemma1(lp.p, a, kept, r) != nil {
					caught++
					break
				}
			}
		}
		t.Logf("%s: caught in %d of %d programs", name, caught, len(progs))
		if caught < len(progs)/2 {
			t.Errorf("%s: the Lemma 1 checker caught the broken slicer in only %d of %d programs", name, caught, len(progs))
		}
	}
}

// checkLemma1 builds A's run for P's run r (see the top of this file) and
// checks it.
func checkLemma1(p, a *program.Program, kept []depgraph.Var, r *program.Run) error {
	keep := map[depgraph.Var]bool{}
	for _, v := range kept {
		keep[v] = true
	}
	pix, aix := program.NewIndex(p), program.NewIndex(a)
	// heap block n of the run → its allocation site
	// and its number in A's run (A skips the allocations of sliced blocks,
	// so its heap#n numbering differs): P's values are renamed into A's.
	var heapSites []program.Label // by A's numbering
	heapA := map[string]string{}
	nP := 0
	for _, s := range r.Steps {
		if pix.Instr[s.Label].Op == program.OpAlloc {
			nP++
			if in := aix.Instr[s.Label]; in != nil && in.Op == program.OpAlloc {
				heapSites = append(heapSites, s.Label)
				heapA[fmt.Sprintf("heap#%d", nP)] = fmt.Sprintf("heap#%d", len(heapSites))
			} else {
				heapA[fmt.Sprintf("heap#%d", nP)] = fmt.Sprintf("sliced-heap#%d", nP)
			}
		}
	}
	renameObj := func(o string) string {
		if n, ok := heapA[o]; ok {
			return n
		}
		return o
	}
	rename := func(ws []program.Write) []program.Write {
		out := make([]program.Write, len(ws))
		for i, w := range ws {
			obj, rest := w.Loc, ""
			if k := strings.IndexAny(obj, "[."); k >= 0 {
				obj, rest = obj[:k], obj[k:]
			}
			w.Loc = renameObj(obj) + rest
			w.Val.Obj = renameObj(w.Val.Obj)
			out[i] = w
		}
		return out
	}
	keptLoc := func(loc string) bool {
		obj := loc
		if i := strings.IndexAny(obj, "[."); i >= 0 {
			obj = obj[:i]
		}
		if strings.HasPrefix(obj, "sliced-heap#") {
			return false
		}
		if strings.HasPrefix(obj, "heap#") {
			n, err := strconv.Atoi(obj[5:])
			if err != nil || n < 1 || n > len(heapSites) {
				return true
			}
			return keep[depgraph.Var("heap@"+string(heapSites[n-1]))]
		}
		return keep[depgraph.Var(obj)]
	}
	keptWrites := func(ws []program.Write) []program.Write {
		var out []program.Write
		for _, w := range ws {
			if keptLoc(w.Loc) {
				out = append(out, w)
			}
		}
		return out
	}
	// next[i]: index of the thread's next step after i, or -1
	next := make([]int, len(r.Steps))
	last := map[int]int{}
	for i := len(r.Steps) - 1; i >= 0; i-- {
		th := r.Steps[i].Thread
		if j, ok := last[th]; ok {
			next[i] = j
		} else {
			next[i] = -1
		}
		last[th] = i
	}

	runA := &program.Run{Violated: r.Violated}
	for i, s := range r.Steps {
		inP, inA := pix.Instr[s.Label], aix.Instr[s.Label]
		if inA == nil {
			return fmt.Errorf("label %s missing in A", s.Label)
		}
		s.Assigned = rename(s.Assigned)
		for k := range s.Nondet {
			s.Nondet = append([]program.Value(nil), s.Nondet...)
			s.Nondet[k].Obj = renameObj(s.Nondet[k].Obj)
		}
		ctx := &stepCtx{p: p, step: s, inP: inP, r: r, i: i, next: next[i], pix: pix}
		vals, search := ctx.nondets(inA)
		stepA := program.Step{Thread: s.Thread, Label: s.Label, Nondet: vals}
		if search != nil {
			// try the candidates by replaying A up to this step
			found := false
			prefix := &program.Run{Steps: append(append([]program.Step(nil), runA.Steps...), stepA)}
			for _, cand := range search.combos() {
				for k, pos := range search.pos {
					prefix.Steps[i].Nondet[pos] = cand[k]
				}
				o, err := interp.Replay(a, prefix)
				if err != nil || o.Status == interp.Errored {
					continue
				}
				if slices.Equal(keptWrites(o.Run.Steps[i].Assigned), keptWrites(s.Assigned)) {
					found = true
					break
				}
			}
			if !found {
				return fmt.Errorf("step %d (%s, thread %d): no nondet choice of A follows P (%s ⇒ %s)", i, s.Label, s.Thread, inP, inA)
			}
			stepA = prefix.Steps[i]
		}
		runA.Steps = append(runA.Steps, stepA)
	}
	o, err := interp.Replay(a, runA)
	if err != nil {
		return fmt.Errorf("A-run does not replay: %v", err)
	}
	if r.Violated != "" && (o.Status != interp.Violated || o.Prop != r.Violated) {
		return fmt.Errorf("P violates %s, the A-run ends %v %s", r.Violated, o.Status, o.Prop)
	}
	for i := range r.Steps {
		wp, wa := keptWrites(rename(r.Steps[i].Assigned)), keptWrites(o.Run.Steps[i].Assigned)
		if !slices.Equal(wp, wa) {
			return fmt.Errorf("step %d (%s): writes to kept variables differ: P %v, A %v", i, r.Steps[i].Label, wp, wa)
		}
	}
	return nil
}

type stepCtx struct {
	p    *program.Program
	step program.Step
	inP  *program.Instr
	r    *program.Run
	i    int
	next int
	pix  *program.LabelIndex
	vals []program.Value
	pnd  []program.Value // P's nondet values not yet consumed
	srch *search
}

type search struct {
	pos   []int // positions in vals
	cands [][]program.Value
}

func (s *search) combos() [][]program.Value {
	out := [][]program.Value{nil}
	for _, cs := range s.cands {
		var nxt [][]program.Value
		for _, o := range out {
			for _, c := range cs {
				nxt = append(nxt, append(append([]program.Value(nil), o...), c))
			}
			if len(nxt) > 5000 {
				break
			}
		}
		out = nxt
	}
	return out
}

func countNondet(e program.Expr) int {
	n := 0
	program.Walk(e, func(x program.Expr) bool {
		if _, ok := x.(*program.Nondet); ok {
			n++
		}
		return true
	})
	return n
}

// nondets returns A's Nondet values for the step, and the positions that
// need a search.
func (c *stepCtx) nondets(inA *program.Instr) ([]program.Value, *search) {
	inP := c.inP
	if inA.Op == program.OpSkip && inP.Op != program.OpSkip {
		return nil, nil
	}
	c.pnd = append([]program.Value(nil), c.step.Nondet...)
	pair := func(a, p program.Expr, role string) {
		if a == nil {
			c.skipP(p)
			return
		}
		c.align(a, p, role)
	}
	pair(inA.Lhs, inP.Lhs, "lhs")
	pair(inA.Rhs, inP.Rhs, "rhs")
	pair(inA.Func, inP.Func, "func")
	for k := range inA.Args {
		pair(inA.Args[k], inP.Args[k], "arg"+strconv.Itoa(k))
	}
	// Decl and Alloc: initial contents, one per cell (as in P)
	c.vals = append(c.vals, c.pnd...)
	return c.vals, c.srch
}

func (c *stepCtx) skipP(p program.Expr) {
	n := countNondet(p)
	if n > len(c.pnd) {
		n = len(c.pnd)
	}
	c.pnd = c.pnd[n:]
}

func (c *stepCtx) takeP(p program.Expr) {
	n := countNondet(p)
	for k := 0; k < n; k++ {
		var v program.Value
		if len(c.pnd) > 0 {
			v, c.pnd = c.pnd[0], c.pnd[1:]
		}
		c.vals = append(c.vals, v)
	}
}

func (c *stepCtx) align(a, p program.Expr, role string) {
	if a == p {
		c.takeP(p)
		return
	}
	if nd, ok := a.(*program.Nondet); ok {
		if _, pnd := p.(*program.Nondet); !pnd {
			c.skipP(p)
			if v, ok := c.known(role); ok {
				c.vals = append(c.vals, v)
			} else {
				c.searchAt(nd.T, 0)
			}
			return
		}
	}
	// an index replaced by (t)((unsigned)* % n)
	if n, ok := anyIndexLen(a); ok && countNondet(p) == 0 || ok && !sameShape(a, p) {
		c.skipP(p)
		c.searchAt(nil, n)
		return
	}
	ac, pc := childrenOf(a), childrenOf(p)
	if len(ac) != len(pc) {
		// shapes differ: search every Nondet of a
		c.skipP(p)
		for k := 0; k < countNondet(a); k++ {
			c.searchAt(program.IntT, 0)
		}
		return
	}
	for k := range ac {
		c.align(ac[k], pc[k], "inner")
	}
}

func sameShape(a, p program.Expr) bool { return fmt.Sprintf("%T", a) == fmt.Sprintf("%T", p) }

func anyIndexLen(e program.Expr) (int64, bool) {
	if c, ok := e.(*program.Cast); ok {
		e = c.X
	}
	b, ok := e.(*program.Binary)
	if !ok || b.Op != program.Rem {
		return 0, false
	}
	if _, ok := b.X.(*program.Nondet); !ok {
		return 0, false
	}
	k, ok := b.Y.(*program.Const)
	if !ok {
		return 0, false
	}
	return k.V, true
}

func childrenOf(e program.Expr) []program.Expr {
	var out []program.Expr
	first := true
	program.Walk(e, func(x program.Expr) bool {
		if first {
			first = false
			return true
		}
		out = append(out, x)
		return false
	})
	return out
}

func (c *stepCtx) searchAt(t *program.Type, n int64) {
	if c.srch == nil {
		c.srch = &search{}
	}
	c.srch.pos = append(c.srch.pos, len(c.vals))
	c.vals = append(c.vals, program.Value{})
	var cands []program.Value
	if n > 0 && n <= 256 {
		for k := int64(0); k < n; k++ {
			cands = append(cands, program.IntValue(k))
		}
	} else {
		seen := map[program.Value]bool{}
		add := func(v program.Value) {
			if !seen[v] {
				seen[v] = true
				cands = append(cands, v)
			}
		}
		for _, k := range []int64{0, 1, -1, 2} {
			add(program.IntValue(k))
		}
		for _, w := range c.step.Assigned {
			add(w.Val)
			add(program.IntValue(w.Val.Off))
			for _, m := range regexp.MustCompile(`\[(\d+)\]`).FindAllStringSubmatch(w.Loc, -1) {
				k, _ := strconv.ParseInt(m[1], 10, 64)
				add(program.IntValue(k))
			}
		}
		for k := int64(3); k < 16; k++ {
			add(program.IntValue(k))
		}
	}
	c.srch.cands = append(c.srch.cands, cands)
}

// known returns P's value of a whole operand that A replaced by a Nondet,
// when the step's role determines it.
func (c *stepCtx) known(role string) (program.Value, bool) {
	in := c.inP
	switch {
	case in.Op == program.OpGoto && role == "rhs":
		if c.next < 0 {
			return program.IntValue(0), true
		}
		nl := c.r.Steps[c.next].Label
		f := c.pix.Func[in.Label]
		fall := c.pix.Pos[in.Label] + 1
		for _, t := range in.Targets {
			if t == nl && !(fall < len(f.Body) && f.Body[fall].Label == nl) {
				return program.IntValue(1), true
			}
		}
		return program.IntValue(0), true
	case in.Op == program.OpAssert && role == "rhs":
		if c.r.Violated != "" && c.i == len(c.r.Steps)-1 {
			return program.IntValue(0), true
		}
		return program.IntValue(1), true
	case (in.Op == program.OpAssign || in.Op == program.OpReturn) && role == "rhs":
		if len(c.step.Assigned) == 1 {
			return c.step.Assigned[0].Val, true
		}
		if in.Op == program.OpReturn && len(c.step.Assigned) == 0 {
			return program.IntValue(0), true
		}
	case (in.Op == program.OpCall || in.Op == program.OpSpawn) && strings.HasPrefix(role, "arg"):
		k, _ := strconv.Atoi(role[3:])
		if fr, ok := in.Func.(*program.FuncRef); ok {
			if f := c.p.Func(fr.Name); f != nil && k < len(f.Params) {
				loc := f.Name + "::" + f.Params[k].Name
				for _, w := range c.step.Assigned {
					if w.Loc == loc {
						return w.Val, true
					}
				}
			}
		}
	case in.Op == program.OpAlloc && role == "rhs":
		t := in.Lhs.Type().Elem
		if cells := t.Cells(); cells > 0 {
			return program.IntValue(int64(len(c.step.Assigned)-1) / cells), true
		}
	}
	return program.Value{}, false
}

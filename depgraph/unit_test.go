package depgraph

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"cegpv.dev/cegpv/program"
)

// graphOf builds a Graph from edges "y->x" (every variable its own group).
func graphOf(edges ...string) *Graph {
	g := &Graph{In: map[Var]map[Var]EdgeKind{}, Out: map[Var]map[Var]EdgeKind{}, Group: map[Var]int{}, Types: map[Var]*program.Type{}}
	add := func(v Var) {
		if _, ok := g.Types[v]; !ok {
			g.Types[v] = program.IntT
			g.Group[v] = len(g.Group)
			g.Vars = append(g.Vars, v)
		}
	}
	for _, e := range edges {
		var y, x string
		fmt.Sscanf(e, "%s -> %s", &y, &x)
		add(Var(y))
		add(Var(x))
		b := &builder{g: g}
		b.edge(Var(y), Var(x), Data)
	}
	sortVars(g.Vars)
	return g
}

func TestDistancesTemporariesTransparent(t *testing.T) {
	// x <- f::__tmp_1 <- y <- z   and   x <- a <- f::__tmp_2 <- b
	// and a long way to f::__tmp_3 before a short one:
	// x <- c <- f::__tmp_3 and x <- f::__tmp_4 <- f::__tmp_3, f::__tmp_3 <- d
	g := graphOf(
		"f::__tmp_1 -> x", "y -> f::__tmp_1", "z -> y",
		"a -> x", "f::__tmp_2 -> a", "b -> f::__tmp_2",
		"c -> x", "f::__tmp_3 -> c", "f::__tmp_4 -> x", "f::__tmp_3 -> f::__tmp_4", "d -> f::__tmp_3",
	)
	got := g.Distances([]Var{"x"}, -1)
	want := map[Var]int{
		"x": 0, "f::__tmp_1": 0, "y": 1, "z": 2,
		"a": 1, "f::__tmp_2": 1, "b": 2,
		"c": 1, "f::__tmp_4": 0, "f::__tmp_3": 0, "d": 1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Distances = %v\nwant        %v", got, want)
	}
	// the paper heuristic: one step behind, temporaries free
	p := g.backward([]Var{"x"}, 1, 0)
	wantP := []Var{"a", "c", "d", "f::__tmp_1", "f::__tmp_2", "f::__tmp_3", "f::__tmp_4", "x", "y"}
	if !reflect.DeepEqual(p, wantP) {
		t.Errorf("steps1 = %v, want %v", p, wantP)
	}
	if s0 := g.backward([]Var{"x"}, 0, 0); !reflect.DeepEqual(s0, []Var{"f::__tmp_1", "f::__tmp_3", "f::__tmp_4", "x"}) {
		t.Errorf("steps0 = %v", s0)
	}
}

func TestChooseNeverEmptyAndClosed(t *testing.T) {
	g := graphOf("a -> b", "c -> d")
	g.Group["c"] = g.Group["d"]
	g.Props = map[string][]Var{"p": nil, "q": {"d"}}
	if vs := Choose(g, Steps{K: 1}, "p"); len(vs) != len(g.Vars) {
		t.Errorf("no target: V0 = %v, want every variable", vs)
	}
	if vs := Choose(g, Steps{K: 0}, "q"); !reflect.DeepEqual(vs, []Var{"c", "d"}) {
		t.Errorf("V0 = %v, want the group of d", vs)
	}
	g.Required = []Var{"a"}
	if vs := Choose(g, Steps{K: 0}, "q"); !reflect.DeepEqual(vs, []Var{"a", "c", "d"}) {
		t.Errorf("V0 = %v, want a, c, d (a is required)", vs)
	}
}

// cfgOf makes a function body from a compact description: "g3" is a
// conditional goto to 3, "j3" an unconditional one, "r" a return, "." any
// other instruction.
func funcOf(code ...string) *program.Func {
	f := &program.Func{Name: "f"}
	for i := range code {
		f.Body = append(f.Body, &program.Instr{Label: program.Label(fmt.Sprintf("f.%d", i))})
	}
	for i, c := range code {
		in := f.Body[i]
		switch c[0] {
		case 'g', 'j':
			var k int
			fmt.Sscanf(c[1:], "%d", &k)
			in.Op = program.OpGoto
			in.Targets = []program.Label{program.Label(fmt.Sprintf("f.%d", k))}
			if c[0] == 'g' {
				in.Rhs = program.True
			}
		case 'r':
			in.Op = program.OpReturn
		default:
			in.Op = program.OpSkip
		}
	}
	return f
}

func TestControlDepsSmall(t *testing.T) {
	for _, tc := range []struct {
		name string
		code []string
		want [][]int
	}{
		// if (c) { 1; 2; } 3
		{"if", []string{"g3", ".", ".", "."}, [][]int{nil, {0}, {0}, nil}},
		// if (c) 1 else 3; 4
		{"if-else", []string{"g3", ".", "j4", ".", "."}, [][]int{nil, {0}, {0}, {0}, nil}},
		// while (c) { 1; 2 }; 4 — the loop head depends on itself
		{"while", []string{"g4", ".", ".", "j0", "."}, [][]int{{0}, {0}, {0}, {0}, nil}},
		// if (c) return; 2
		{"early-return", []string{"g2", "r", ".", "."}, [][]int{nil, {0}, {0}, {0}}},
		// nested: if (a) { if (b) { 2 } 3 }
		{"nested", []string{"g4", "g3", ".", ".", "."}, [][]int{nil, {0}, {1}, {0}, nil}},
		// while (1) { if (c) { 1; 2 } } — no exit: the back edge gets a
		// virtual exit edge (a branch without guard: it reads nothing)
		{"infinite", []string{"g3", ".", ".", "j0"}, [][]int{{3}, {0}, {0}, {3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := controlDeps(funcOf(tc.code...))
			norm := func(d [][]int) [][]int {
				out := make([][]int, len(d))
				for i, x := range d {
					if len(x) > 0 {
						out[i] = x
					}
				}
				return out
			}
			if !reflect.DeepEqual(norm(got), norm(tc.want)) {
				t.Errorf("controlDeps = %v, want %v", got, tc.want)
			}
		})
	}
	// transitive: 2 depends on 1 and, through it, on 0
	d := transitive(controlDeps(funcOf("g4", "g3", ".", ".", ".")))
	if !reflect.DeepEqual(d[2], []int{0, 1}) {
		t.Errorf("transitive deps of 2 = %v, want [0 1]", d[2])
	}
}

// TestControlDepsRandom compares cdOfCFG with the definition (Ferrante,
// Ottenstein, Warren), computed by brute force on random CFGs in which every
// node reaches the exit: i depends on j iff j has a successor s such that i
// post-dominates s (or i == s) and i does not strictly post-dominate j,
// where i post-dominates x iff every path from x to the exit passes i.
func TestControlDepsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 500; iter++ {
		n := 2 + rng.Intn(9)
		succ := make([][]int, n+1)
		for i := 0; i < n; i++ {
			succ[i] = []int{i + 1}
			if rng.Intn(3) == 0 {
				succ[i] = append(succ[i], rng.Intn(n+1))
			}
			succ[i] = uniqInts(succ[i])
		}
		if r := reachesExit(succ, n); func() bool {
			for i := 0; i < n; i++ {
				if !r[i] {
					return true
				}
			}
			return false
		}() {
			continue
		}
		got := cdOfCFG(succ)
		// pdom[i][x]: every path from x to exit passes i
		pdom := func(i, x int) bool {
			if i == x {
				return true
			}
			seen := make([]bool, n+1)
			stack := []int{x}
			seen[x] = true
			for len(stack) > 0 {
				y := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if y == n {
					return false
				}
				for _, s := range succ[y] {
					if s != i && !seen[s] {
						seen[s] = true
						stack = append(stack, s)
					}
				}
			}
			return true
		}
		for i := 0; i < n; i++ {
			var want []int
			for j := 0; j < n; j++ {
				if len(succ[j]) < 2 {
					continue
				}
				dep := false
				for _, s := range succ[j] {
					if s < n && pdom(i, s) {
						dep = true
					}
				}
				if dep && !(i != j && pdom(i, j)) {
					want = append(want, j)
				}
			}
			if fmt.Sprint(got[i]) != fmt.Sprint(want) && !(len(got[i]) == 0 && len(want) == 0) {
				t.Fatalf("cfg %v: deps of %d = %v, want %v", succ, i, got[i], want)
			}
		}
	}
}

// The ladders: the paper's and steps' own, one given with WithLadder,
// and none (straight to cone); Register refuses built-in names.
func TestLevels(t *testing.T) {
	names := func(hs []Heuristic) string {
		var ns []string
		for _, h := range hs {
			ns = append(ns, h.Name())
		}
		return strings.Join(ns, " ")
	}
	for _, c := range []struct {
		h    Heuristic
		want string
	}{
		{Paper{}, "paper steps1 steps2 steps4 cone"},
		{Steps{K: 1}, "steps1 steps3 steps6 cone"},
		{Steps{K: 4}, "steps4 cone"},
		{Keep{}, "keep cone"},
		{WithLadder(Keep{}, Steps{K: 3}), "keep steps3 cone"},
		{WithLadder(Paper{}), "paper cone"},
	} {
		if got := names(Levels(c.h)); got != c.want {
			t.Errorf("Levels(%s) = %q, want %q", c.h.Name(), got, c.want)
		}
	}
	for _, bad := range []Heuristic{Paper{}, Steps{K: 9}, Cone{}, WithLadder(Cone{}), namedHeuristic("all"), namedHeuristic("a,b")} {
		if err := Register(bad); err == nil {
			t.Errorf("Register(%s) accepted a built-in name", bad.Name())
		}
	}
}

type namedHeuristic string

func (n namedHeuristic) Name() string                 { return string(n) }
func (namedHeuristic) Choose(g *Graph, t []Var) []Var { return t }

package depgraph

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Heuristic chooses the variables an abstraction keeps. Researchers add
// their own by implementing it and registering it with Register.
//
// Choose receives the graph and the target variables (those the property
// reads, see Graph.Props) and returns the variables to keep. The package
// function Choose closes the result under alias groups and guarantees it is
// not empty.
type Heuristic interface {
	Name() string
	Choose(g *Graph, target []Var) []Var
}

// Ladder is a heuristic that names its own widening: Wider returns the
// heuristics of the abstraction levels the CEGPV loop tries after its
// own, narrowest first. The loop ends every ladder with Cone and the
// whole program, and skips a level that keeps no more variables than
// the one before it, so a ladder need not be monotone to be sound (a
// level is only ever a smaller slice of the same program). A heuristic
// that is not a Ladder widens to Cone directly.
type Ladder interface {
	Heuristic
	Wider() []Heuristic
}

// WithLadder is h with the widening ladder wider (h's own, if it has one,
// is replaced): how a program registers a heuristic together with a
// ladder of its choice (cli.Registry).
func WithLadder(h Heuristic, wider ...Heuristic) Ladder {
	return laddered{h, append([]Heuristic(nil), wider...)}
}

type laddered struct {
	Heuristic
	wider []Heuristic
}

func (l laddered) Wider() []Heuristic { return l.wider }

// Levels is the ladder of h: h, the heuristics of its Wider when it is
// a Ladder, then Cone (the loop adds the whole program).
func Levels(h Heuristic) []Heuristic {
	hs := []Heuristic{h}
	if l, ok := h.(Ladder); ok {
		hs = append(hs, l.Wider()...)
	}
	return append(hs, Cone{})
}

// Steps keeps the target variables and those at most K edges behind them.
type Steps struct{ K int }

func (h Steps) Name() string { return fmt.Sprintf("steps%d", h.K) }

// Wider is steps(2K+1), then doubling K, up to steps8.
func (h Steps) Wider() []Heuristic {
	var hs []Heuristic
	for k := h.K*2 + 1; k <= 8; k *= 2 {
		hs = append(hs, Steps{K: k})
	}
	return hs
}

func (h Steps) Choose(g *Graph, target []Var) []Var { return g.backward(target, h.K, 0) }

// Paper is the heuristic of the CEGPV paper: the variables of the assertion
// (its condition and the guards, joins and locks it is control dependent
// on) plus those one data step behind them (assignments, arguments and
// results; a guard of an assignment is not a data step, but the lock
// protecting it is: a mutex, or the variables a blocking call such as a
// user-defined atomic lock waits on), and the guards of the loops around
// those assignments (how often a counter is incremented is its loop
// counter's business: without it every abstraction of a counting
// property has a spurious counterexample). Other control
// dependences further back are left to refinement and to the wider levels.
type Paper struct{}

func (Paper) Name() string { return "paper" }

// Wider is steps1, steps2, steps4: the paper's widening.
func (Paper) Wider() []Heuristic { return []Heuristic{Steps{K: 1}, Steps{K: 2}, Steps{K: 4}} }

func (Paper) Choose(g *Graph, target []Var) []Var { return g.backward(target, 1, Data|Call|Sync|Loop) }

// Cone keeps the whole backward cone of influence of the target and of the
// required variables (whose values decide whether a step fails: an
// abstraction that keeps them but not what they depend on may fail where
// the program does not).
type Cone struct{}

func (Cone) Name() string { return "cone" }
func (Cone) Choose(g *Graph, target []Var) []Var {
	return g.backward(append(append([]Var(nil), target...), g.Required...), -1, 0)
}

// Keep keeps an explicit list of variables (`--keep x,y`).
type Keep struct{ Vars []Var }

func (h Keep) Name() string { return "keep" }
func (h Keep) Choose(g *Graph, target []Var) []Var {
	return append([]Var(nil), h.Vars...)
}

// backward returns the variables within distance k behind target (k < 0:
// unbounded): a step along an edge y → x costs 1, except when y is a front-end
// temporary, which is transparent (cost 0), so that `t = y; x = t + 1`
// puts y one step behind x, as `x = y + 1` does. Distances are computed by
// 0-1 BFS: a deque where 0-cost steps go to the front, with relaxation (a
// variable first reached at cost d may later be reached at a smaller cost
// through temporaries and is then queued again).
func (g *Graph) backward(target []Var, k int, kinds EdgeKind) []Var {
	dist := g.distances(target, k, kinds)
	out := make([]Var, 0, len(dist))
	for v := range dist {
		out = append(out, v)
	}
	sortVars(out)
	return out
}

// Distances returns the distance behind target of every variable within k
// steps (k < 0: unbounded), as used by Steps and Cone.
func (g *Graph) Distances(target []Var, k int) map[Var]int { return g.distances(target, k, 0) }

// distances is Distances along the edges of the given kinds only (0: all).
func (g *Graph) distances(target []Var, k int, kinds EdgeKind) map[Var]int {
	dist := map[Var]int{}
	var deque []Var
	for _, v := range target {
		if _, ok := g.Types[v]; !ok {
			continue
		}
		if _, ok := dist[v]; !ok {
			dist[v] = 0
			deque = append(deque, v)
		}
	}
	for len(deque) > 0 {
		v := deque[0]
		deque = deque[1:]
		for _, p := range g.Pred(v) {
			if kinds != 0 && g.In[v][p]&kinds == 0 {
				continue
			}
			w := 1
			if IsTemp(p) {
				w = 0
			}
			d := dist[v] + w
			if k >= 0 && d > k {
				continue
			}
			if old, ok := dist[p]; ok && old <= d {
				continue
			}
			dist[p] = d
			if w == 0 {
				deque = append([]Var{p}, deque...)
			} else {
				deque = append(deque, p)
			}
		}
	}
	return dist
}

// Choose applies h for the given property (all properties when prop is
// empty), adds the variables every abstraction must keep (Graph.Required),
// closes the result under alias groups and makes sure it is never empty
// for a program that has variables: when the heuristic keeps nothing (an
// assertion that reads no variable and is controlled by no guard, such as
// a bare reach_error()), every variable is kept, which leaves the program
// unabstracted rather than guessing.
func Choose(g *Graph, h Heuristic, prop string) []Var {
	var target []Var
	if prop != "" {
		target = g.Props[prop]
	} else {
		var props []string
		for p := range g.Props {
			props = append(props, p)
		}
		sort.Strings(props)
		for _, p := range props {
			target = append(target, g.Props[p]...)
		}
	}
	target = dedupe(target)
	chosen := h.Choose(g, target)
	vs := g.Close(chosen)
	if len(vs) == 0 {
		vs = append([]Var(nil), g.Vars...)
	}
	return g.Close(append(vs, g.Required...))
}

// Lookup returns the heuristic with the given name: "paper",
// "stepsK" for K >= 0, "cone", or "keep:x,y".
func Lookup(name string) (Heuristic, error) {
	switch {
	case name == "paper" || name == "":
		return Paper{}, nil
	case name == "cone":
		return Cone{}, nil
	case strings.HasPrefix(name, "steps"):
		k, err := strconv.Atoi(strings.TrimPrefix(name, "steps"))
		if err != nil || k < 0 {
			return nil, fmt.Errorf("bad heuristic %q: want stepsK with K >= 0", name)
		}
		return Steps{K: k}, nil
	case strings.HasPrefix(name, "keep:"):
		var vs []Var
		for _, s := range strings.Split(strings.TrimPrefix(name, "keep:"), ",") {
			if s = strings.TrimSpace(s); s != "" {
				vs = append(vs, Var(s))
			}
		}
		return Keep{Vars: vs}, nil
	}
	if h, ok := registry[name]; ok {
		return h, nil
	}
	return nil, fmt.Errorf("unknown heuristic %q (paper, stepsK, cone, keep:x,y%s)", name, registered())
}

var registry = map[string]Heuristic{}

// Register adds a heuristic that Lookup finds by its Name (with its
// ladder when it is a Ladder, see WithLadder). A built-in's name
// (paper, cone, stepsK, keep:...) is an error, as is an empty one or
// one with a character bench's mode syntax uses.
func Register(h Heuristic) error {
	name := h.Name()
	if name == "" || name == "all" || strings.ContainsAny(name, ",/@ ") {
		return fmt.Errorf("heuristic name %q: want a non-empty name other than all, without , / @ or spaces", name)
	}
	if name == "paper" || name == "cone" || strings.HasPrefix(name, "steps") || strings.HasPrefix(name, "keep:") {
		return fmt.Errorf("heuristic name %q is a built-in one's (paper, cone, stepsK, keep:...)", name)
	}
	registry[name] = h
	return nil
}

func registered() string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	if len(ns) == 0 {
		return ""
	}
	return ", " + strings.Join(ns, ", ")
}

// unionFind is a disjoint-set forest over variables.
type unionFind struct{ parent map[Var]Var }

func newUnionFind() *unionFind { return &unionFind{parent: map[Var]Var{}} }

func (u *unionFind) add(v Var) {
	if _, ok := u.parent[v]; !ok {
		u.parent[v] = v
	}
}

func (u *unionFind) find(v Var) Var {
	u.add(v)
	for u.parent[v] != v {
		u.parent[v] = u.parent[u.parent[v]]
		v = u.parent[v]
	}
	return v
}

func (u *unionFind) union(a, b Var) {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return
	}
	// the smaller name becomes the root, for determinism
	if rb < ra {
		ra, rb = rb, ra
	}
	u.parent[rb] = ra
}

// IsTemp reports whether v is a temporary the front end introduced (a
// local named __tmp_<n>) or one CIL introduced (__cil_tmp<n>, single-use
// temporaries of the same kind: CIL splits every expression into them).
func IsTemp(v Var) bool {
	s := string(v)
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.HasPrefix(s, "__tmp_") || strings.HasPrefix(s, "__cil_tmp")
}

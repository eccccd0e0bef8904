package observer

import (
	"fmt"
	"sort"
	"strings"

	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// rinfo is one spurious run, replayed on A.
type rinfo struct {
	run   *program.Run
	cfg   []*interp.Config // cfg[i]: before step i; cfg[len]: after the run
	steps []sinfo
	fn    []string // function of each thread (its start function)
}

// sinfo describes one step of a spurious run.
type sinfo struct {
	tv   bool   // tree-visible: at a visible label, or a step that changes its thread's frames (ends it)
	key  string // identity of the step in G_R: thread, label, effect
	post string // the thread's control state after the step: "end" or "<func>:<pc>:<depth>"
	fail bool   // a failed assertion
}

// node is a node of G_R: a sequence of tree-visible steps (with their
// effects) that is a prefix of the tree-visible steps of some run of R.
type node struct {
	id     int
	parent int
	via    int  // thread of the step from the parent (-1 at the root)
	run    int  // a run of R through the node
	at     int  // index in that run of the node's last tree-visible step (-1 at the root)
	depth  int  // number of tree-visible steps from the root
	failed bool // the node or an ancestor is reached by a failed assertion
	kids   map[string]int
	order  []int // children in order of creation
	st     *state
}

// state is the configuration a node stands for, with every thread put
// right after its last tree-visible step ("lazy": the invisible steps a
// thread ran after it are undone, they are no-ops).
type state struct {
	cfg    *interp.Config // values (the lazy configuration has the same ones)
	pc     []int          // per thread: index of the next instruction in its innermost function, -1 when ended
	fn     []string       // per thread: its start function
	frames [][]frameSt    // per thread: its call stack, bottom first (nil when ended)
	prefix []program.Step // a run of A that reaches the lazy configuration
}

// frameSt is one activation of a node's configuration.
type frameSt struct {
	fn   string
	pc   int // the next instruction (lazy for the innermost frame; after the call for the others)
	vars map[string][]program.Value
}

// top returns thread k's innermost function at the node.
func (st *state) top(k int) string {
	fs := st.frames[k]
	return fs[len(fs)-1].fn
}

// flat returns the cells of a configuration by qualified location, and the
// control state of every thread. The cells of locals that are dead where
// their activation stands are left out (see liveness).
func (b *builder) flat(c *interp.Config) map[string]string {
	out := map[string]string{}
	for name, vs := range c.Globals {
		for i, v := range vs {
			out[fmt.Sprintf("%s#%d", name, i)] = v.String()
		}
	}
	for k, t := range c.Threads {
		if t.Ended {
			out[fmt.Sprintf("T%d", k)] = "end"
			continue
		}
		for d, fr := range t.Frames {
			out[fmt.Sprintf("T%d.%d", k, d)] = fmt.Sprintf("%s:%d", fr.Func, fr.PC)
			for name, vs := range fr.Vars {
				if !b.liveFrame(fr.Func, fr.PC, name, d < len(t.Frames)-1) {
					continue
				}
				for i, v := range vs {
					out[fmt.Sprintf("T%d.%d:%s#%d", k, d, name, i)] = v.String()
				}
			}
		}
		out[fmt.Sprintf("T%d.atomic", k)] = fmt.Sprint(t.Atomic)
	}
	for name, vs := range c.MainVars {
		for i, v := range vs {
			out[fmt.Sprintf("M:%s#%d", name, i)] = v.String()
		}
	}
	out["heap"] = fmt.Sprint(c.Heap)
	return out
}

// diff returns the entries of b that differ from a (or are missing from
// it, written "-"), sorted.
func diff(a, b map[string]string) string {
	var ks []string
	for k, v := range b {
		if a[k] != v {
			ks = append(ks, k+"="+v)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			ks = append(ks, k+"=-")
		}
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

func control(t *interp.ThreadConfig) string {
	if t.Ended {
		return "end"
	}
	fr := t.Top()
	return fmt.Sprintf("%s:%d:%d", fr.Func, fr.PC, len(t.Frames))
}

// analyse replays a spurious run and computes its step identities.
func (b *builder) analyse(r *program.Run) (*rinfo, error) {
	cfg, out, err := interp.Configs(b.a, r)
	if err != nil {
		return nil, program.Errorf(program.Internal, "observer: a spurious run does not replay on the abstraction: %v", err)
	}
	ri := &rinfo{run: out.Run, cfg: cfg, steps: make([]sinfo, len(r.Steps))}
	ri.run.Violated = r.Violated
	failed := map[int]bool{}
	for _, f := range out.Failures {
		failed[f.Step] = true
	}
	prev := b.flat(cfg[0])
	for i, s := range ri.run.Steps {
		next := b.flat(cfg[i+1])
		th := cfg[i+1].Threads[s.Thread]
		post := control(&th)
		pre := cfg[i].Threads[s.Thread]
		same := !th.Ended && len(th.Frames) == len(pre.Frames) && th.Top().Func == pre.Top().Func && th.Top().PC == pre.Top().PC+1
		tv := b.visible[s.Label] || !same
		if !b.visible[s.Label] && b.ix.Instr[s.Label].Op != program.OpSkip {
			return nil, program.Errorf(program.Internal, "observer: invisible step %s is not a skip", s.Label)
		}
		ri.steps[i] = sinfo{tv: tv, post: post, fail: failed[i],
			key: fmt.Sprintf("%d|%s|%s|%v|n%d|%s", s.Thread, s.Label, post, failed[i], len(cfg[i+1].Threads), diff(prev, next))}
		prev = next
	}
	// the start function of every thread
	for _, c := range cfg {
		for k := len(ri.fn); k < len(c.Threads); k++ {
			t := c.Threads[k]
			if len(t.Frames) == 0 {
				return nil, program.Errorf(program.Unsupported, "observer: thread %d ends as soon as it is created (empty start function)", k)
			}
			ri.fn = append(ri.fn, t.Frames[0].Func)
		}
	}
	return ri, nil
}

// build creates G_R from the analysed runs.
func (b *builder) buildTree() {
	b.nodes = []*node{{id: 0, parent: -1, via: -1, run: 0, at: -1, kids: map[string]int{}}}
	for r, ri := range b.runs {
		n := 0
		for i, s := range ri.steps {
			if !s.tv {
				continue
			}
			nx, ok := b.nodes[n].kids[s.key]
			if !ok {
				nx = len(b.nodes)
				b.nodes = append(b.nodes, &node{id: nx, parent: n, via: ri.run.Steps[i].Thread, run: r, at: i, depth: b.nodes[n].depth + 1,
					failed: b.nodes[n].failed || s.fail, kids: map[string]int{}})
				b.nodes[n].kids[s.key] = nx
				b.nodes[n].order = append(b.nodes[n].order, nx)
			}
			n = nx
		}
	}
}

// lazy computes the state of node n.
func (b *builder) lazy(n *node) (*state, error) {
	ri := b.runs[n.run]
	base := ri.cfg[n.at+1]
	st := &state{cfg: base}
	last := make([]int, len(base.Threads))
	for k := range last {
		last[k] = -1
	}
	for i := 0; i <= n.at; i++ {
		if ri.steps[i].tv {
			last[ri.run.Steps[i].Thread] = i
		}
	}
	if base.Heap > 0 {
		return nil, program.Errorf(program.Unsupported, "observer: heap blocks are allocated before a node of the tree (the observer does not restore the heap)")
	}
	for k, t := range base.Threads {
		st.fn = append(st.fn, ri.fn[k])
		if t.Ended {
			st.pc = append(st.pc, -1)
			continue
		}
		seen := map[string]bool{}
		for _, fr := range t.Frames {
			if seen[fr.Func] {
				return nil, program.Errorf(program.Unsupported, "observer: thread %d is in a recursive call of %s at a node of the tree (recursive call stacks are not restored)", k, fr.Func)
			}
			seen[fr.Func] = true
		}
		var at *interp.ThreadConfig
		if j := last[k]; j >= 0 {
			at = &ri.cfg[j+1].Threads[k]
		} else {
			for _, c := range ri.cfg {
				if len(c.Threads) > k {
					at = &c.Threads[k]
					break
				}
			}
		}
		if at.Ended || len(at.Frames) != len(t.Frames) || at.Top().Func != t.Top().Func {
			return nil, program.Errorf(program.Internal, "observer: thread %d changed frames through invisible steps", k)
		}
		st.pc = append(st.pc, at.Top().PC)
		var fs []frameSt
		for d, fr := range t.Frames {
			pc := fr.PC
			if d == len(t.Frames)-1 {
				pc = at.Top().PC
			}
			fs = append(fs, frameSt{fn: fr.Func, pc: pc, vars: fr.Vars})
		}
		for len(st.frames) < k {
			st.frames = append(st.frames, nil)
		}
		st.frames = append(st.frames, fs)
	}
	for len(st.frames) < len(st.pc) {
		st.frames = append(st.frames, nil)
	}
	for i := 0; i <= n.at; i++ {
		s := ri.run.Steps[i]
		if i <= last[s.Thread] {
			st.prefix = append(st.prefix, s)
		}
	}
	return st, nil
}

// walk follows the tree-visible steps of a run of A through G_R. It returns
// the last node reached and the index of the step that leaves G_R there, or
// -1 when every tree-visible step of r is an edge of G_R (r stays inside
// the tree: it is a run of R or a prefix of one, up to the placement of
// invisible steps and the values of dead locals).
func (b *builder) walk(r *program.Run) (*node, int, *rinfo, error) {
	ri, err := b.analyse(r)
	if err != nil {
		return nil, 0, nil, err
	}
	n := b.nodes[0]
	for i, s := range ri.steps {
		if !s.tv {
			continue
		}
		nx, ok := n.kids[s.key]
		if !ok {
			return n, i, ri, nil
		}
		n = b.nodes[nx]
	}
	return n, -1, ri, nil
}

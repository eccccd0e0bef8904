package observer

import (
	"errors"
	"fmt"

	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// normalize returns a run equivalent to r (same tree-visible steps in the
// same order) in which every invisible step comes right before the next
// step of its thread (and trailing invisible steps are dropped): the form
// in which the refined program can replay r, whose threads resume right
// after their last tree-visible step.
func normalize(ri *rinfo) (*program.Run, []bool) {
	out := &program.Run{Violated: ri.run.Violated}
	var tv []bool
	buf := map[int][]program.Step{}
	for i, s := range ri.run.Steps {
		if !ri.steps[i].tv {
			buf[s.Thread] = append(buf[s.Thread], s)
			continue
		}
		for _, q := range buf[s.Thread] {
			out.Steps = append(out.Steps, q)
			tv = append(tv, false)
		}
		buf[s.Thread] = nil
		out.Steps = append(out.Steps, s)
		tv = append(tv, true)
	}
	return out, tv
}

// lift builds a run of A' that maps to the run r of A, which must leave
// G_R: it runs the observer with the exit where r leaves, then r's steps
// after that exit's node, running the observer's and controllers' steps
// whenever one of them can run. It returns the run of A', or an error
// saying why r is not in A' (a completeness failure).
func (b *builder) lift(r *program.Run) (*program.Run, error) {
	n, leave, ri, err := b.walk(r)
	if err != nil {
		return nil, err
	}
	if leave < 0 {
		return nil, fmt.Errorf("the run stays in the tree")
	}
	nr, tv := normalize(ri)
	// the leaving step is the tree-visible step after the node's
	k, c := -1, 0
	for i := range nr.Steps {
		if tv[i] {
			if c == n.depth {
				k = i
				break
			}
			c++
		}
	}
	if k < 0 {
		return nil, fmt.Errorf("leaving step not found")
	}
	t := nr.Steps[k].Thread
	x := -1
	for i, ex := range b.exits {
		if ex.n == n && ex.t == t {
			x = i
		}
	}
	if x < 0 {
		return nil, fmt.Errorf("no exit at node %d for thread %d (step %d, %s)", n.id, t, leave, nr.Steps[k].Label)
	}
	// the steps to replay after the node: the deviating step, then the
	// rest except the deviating thread's invisible steps before it
	var queue []program.Step
	start := nodeLen(nr, tv, n)
	for i := start; i < len(nr.Steps); i++ {
		s := nr.Steps[i]
		if i < k && s.Thread == t {
			continue // absorbed: the controller jumps over them
		}
		if i < k {
			return nil, fmt.Errorf("step %d of another thread before the deviating step", i)
		}
		queue = append(queue, s)
	}
	st, err := interp.NewStepper(b.ap)
	if err != nil {
		return nil, err
	}
	m := b.m
	target := func(in *program.Instr, q []program.Step, th int) program.Label {
		for _, s := range q {
			if s.Thread == th {
				if tr, ok := m.tramp[in.Label]; ok {
					return tr[s.Label]
				}
				if e, ok := m.entry[s.Label]; ok {
					return e
				}
				return s.Label
			}
		}
		return ""
	}
	ix := program.NewIndex(b.ap)
	for guard := 0; guard < 100000; guard++ {
		progress := false
		for th := 0; th < st.Threads() && !progress; th++ {
			l := st.Next(th)
			if l == "" || !m.added[l] {
				if l != m.choice || l == "" {
					continue
				}
			}
			s := program.Step{Thread: th, Label: l}
			if l == m.choice {
				s.Nondet = []program.Value{{Bits: int64(x)}}
			}
			err := st.Step(s, "")
			if errors.Is(err, interp.ErrBlocked) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("controller step %s of thread %d: %v", l, th, err)
			}
			progress = true
		}
		if progress {
			continue
		}
		if len(queue) == 0 {
			return st.Run(), nil
		}
		s := queue[0]
		queue = queue[1:]
		l := st.Next(s.Thread)
		if o, ok := m.copyOf[l]; ok && o == s.Label || l == s.Label {
			// the step itself (or its copy); a declaration takes one step per cell
			if !m.first[l] {
				if err := st.Step(program.Step{Thread: s.Thread, Label: l, Nondet: s.Nondet}, target(ix.Instr[l], queue, s.Thread)); err != nil {
					return nil, fmt.Errorf("step %s of thread %d (for %s): %v", l, s.Thread, s.Label, err)
				}
				if len(queue) == 0 {
					return st.Run(), nil // the run ends with this step (maybe a violation)
				}
				continue
			}
			vals := s.Nondet
			for {
				step := program.Step{Thread: s.Thread, Label: l}
				if len(vals) > 0 {
					step.Nondet, vals = vals[:1], vals[1:]
				}
				if err := st.Step(step, ""); err != nil {
					return nil, fmt.Errorf("declaration step %s of thread %d (for %s): %v", l, s.Thread, s.Label, err)
				}
				l = st.Next(s.Thread)
				if m.cont[l] != s.Label {
					break
				}
			}
			continue
		}
		return nil, fmt.Errorf("thread %d is at %s, the run goes on with %s", s.Thread, l, s.Label)
	}
	return nil, fmt.Errorf("no progress")
}

// nodeLen returns the number of steps of nr up to and including its
// tree-visible step that reaches node n.
func nodeLen(nr *program.Run, tv []bool, n *node) int {
	if n.depth == 0 {
		return 0
	}
	c := 0
	for i := range nr.Steps {
		if tv[i] {
			c++
			if c == n.depth {
				return i + 1
			}
		}
	}
	return len(nr.Steps)
}

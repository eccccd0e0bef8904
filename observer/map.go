package observer

import (
	"cegpv.dev/cegpv/program"
)

// Map relates the runs of A' = Refine(A, visible, R) to the runs of A.
type Map struct {
	identity  bool          // R was empty: A' is a copy of A
	choice    program.Label // the observer's choice of an exit
	choiceLoc string        // the location it stores into
	exits     []exitMap
	copyOf    map[program.Label]program.Label // copy of a deviating step → the step's label in A
	cont      map[program.Label]program.Label // later cells of a declaration → the declaration's label in A
	first     map[program.Label]bool          // steps that start a declaration (Map merges the cells into them)
	added     map[program.Label]bool          // the observer's and controllers' instructions
	rowWrites map[string]bool                 // the row parameters of called functions ("f::name"), not in A
	// for tests that build runs of A' (lift_test.go)
	entry map[program.Label]program.Label                   // a declaration's label → the AtomicBegin before it
	tramp map[program.Label]map[program.Label]program.Label // copy of a goto → original target → its trampoline
}

// exitMap is what Map needs of one exit: the run of A that reaches its
// node (in the lazy configuration), followed by the invisible steps the
// deviating thread runs before its deviating step.
type exitMap struct {
	node   int
	thread int
	prefix []program.Step
}

// Exits returns the number of exits of G_R, the values the observer's
// choice can take.
func (m *Map) Exits() int { return len(m.exits) }

// Added reports whether l labels an instruction of the observer or of a
// controller (its steps are dropped by Run).
func (m *Map) Added(l program.Label) bool { return m.added[l] }

// Exit returns the exit the observer chose in the run r of A' (its index,
// from the choice step's Nondet value, else from its store), or -1 when r
// stops before the choice or the value is out of range.
func (m *Map) Exit(r *program.Run) int {
	if m.identity {
		return -1
	}
	for _, s := range r.Steps {
		if s.Label != m.choice {
			continue
		}
		var x int64 = -1
		if len(s.Nondet) > 0 {
			x = s.Nondet[0].Bits
		} else {
			for _, w := range s.Assigned {
				if w.Loc == m.choiceLoc {
					x = w.Val.Bits
				}
			}
		}
		if x < 0 || x >= int64(len(m.exits)) {
			return -1
		}
		return int(x)
	}
	return -1
}

// Run maps a run r of A' to a run of A: the run of A to the node of the
// exit the observer chose and the invisible steps of the deviating thread
// up to its deviating step, followed by r's steps after the choice without
// the observer's and controllers' steps; the copy of the deviating step
// becomes the step of A it copies, the cells of a declaration (one step
// each in A') become one Decl step. Thread ids, Nondet values and
// Run.Violated are kept. A run of A' that stops before the observer's
// choice maps to the empty run.
//
// Lemma 3 (soundness): when r replays on A', Run(r) replays on A, with the
// same verdict; if r got past the copy of the deviating step, Run(r)
// leaves G_R at the chosen exit, so it is not a run of R (nor a prefix of
// one).
func (m *Map) Run(r *program.Run) *program.Run {
	out := &program.Run{Violated: r.Violated}
	if m.identity {
		for _, s := range r.Steps {
			out.Steps = append(out.Steps, cloneStep(s))
		}
		return out
	}
	x := m.Exit(r)
	if x < 0 {
		out.Violated = ""
		return out
	}
	for _, s := range m.exits[x].prefix {
		out.Steps = append(out.Steps, cloneStep(s))
	}
	decl := map[int]int{} // thread → index in out of its declaration step being filled
	started := false
	for _, s := range r.Steps {
		if !started {
			started = s.Label == m.choice
			continue
		}
		l := s.Label
		if o, ok := m.cont[l]; ok {
			if i, ok := decl[s.Thread]; ok && out.Steps[i].Label == o {
				out.Steps[i].Nondet = append(out.Steps[i].Nondet, s.Nondet...)
				out.Steps[i].Assigned = append(out.Steps[i].Assigned, s.Assigned...)
			}
			continue
		}
		if m.added[l] {
			continue
		}
		c := cloneStep(s)
		if o, ok := m.copyOf[l]; ok {
			c.Label = o
		}
		if len(m.rowWrites) > 0 {
			var ws []program.Write
			for _, w := range c.Assigned {
				if !m.rowWrites[w.Loc] {
					ws = append(ws, w)
				}
			}
			c.Assigned = ws
		}
		if m.first[l] {
			decl[s.Thread] = len(out.Steps)
		}
		out.Steps = append(out.Steps, c)
	}
	return out
}

func cloneStep(s program.Step) program.Step {
	c := s
	c.Nondet = append([]program.Value(nil), s.Nondet...)
	c.Assigned = append([]program.Write(nil), s.Assigned...)
	return c
}

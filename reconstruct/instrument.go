package reconstruct

import (
	"fmt"
	"strconv"

	"cegpv.dev/cegpv/program"
)

// Checker returns the monitor instructions (operands only; Instrument gives
// them labels) that must run right before the visible instruction in, in the
// same atomic section as in where in's op allows it (see Instrument). The
// last instruction returned is the one that advances the monitor: Map.Visible
// reports a visible label each time that instruction executes. A Checker may
// rewrite in's operands (refine rewrites Assert conditions) provided the
// Nondet values the instruction draws stay the same, in the same order.
type Checker func(in *program.Instr) ([]*program.Instr, error)

// The shape of the code around one visible instruction.
type shape uint8

const (
	// inside: AtomicBegin; checks; in; AtomicEnd.
	inside shape = iota
	// gotoCond: AtomicBegin; checks; decl t; t = (g != 0); AtomicEnd; if (t) goto ...
	// The original goto's step is mapped to the position of "t = ...".
	gotoCond
	// gotoUncond: AtomicBegin; checks; AtomicEnd; goto ...
	// The original goto's step is mapped to the position of the AtomicEnd.
	gotoUncond
	// deferred: AtomicBegin; checks; AtomicEnd; in
	// (Call, Spawn, Return, Exit, Lock, Unlock).
	deferred
	// plain: checks; in — the instruction is already inside an atomic
	// section of the program (an atomic function, or between AtomicBegin
	// and AtomicEnd).
	plain
	// afterBegin: in; checks — an AtomicBegin outside any section: the
	// checks run first thing in the section it opens.
	afterBegin
)

func shapeOf(in *program.Instr, depth int) shape {
	if depth > 0 {
		return plain
	}
	switch in.Op {
	case program.OpGoto:
		if in.Rhs == nil {
			return gotoUncond
		}
		return gotoCond
	case program.OpAtomicBegin:
		if depth == 0 {
			return afterBegin
		}
		return deferred
	case program.OpCall, program.OpSpawn, program.OpReturn, program.OpExit, program.OpAtomicEnd,
		program.OpLock, program.OpUnlock:
		// Lock and Unlock: CBMC's and ESBMC's pthread models open an
		// atomic section of their own, and CBMC rejects nested sections.
		return deferred
	}
	return inside
}

// atomicDepth computes, for each instruction of f, the depth of the atomic
// sections of f open when it starts (forward over the control flow graph):
// a positive depth for every instruction of an atomic function, -1 where
// paths disagree or the depth would become negative (the instruction is
// then treated as outside any section).
func atomicDepth(f *program.Func) []int {
	n := len(f.Body)
	depth := make([]int, n)
	const unset = -2
	for i := range depth {
		depth[i] = unset
	}
	if n == 0 {
		return depth
	}
	base := 0
	if f.Atomic {
		base = 1
	}
	var work []int
	set := func(i, d int) {
		if i < 0 || i >= n {
			return
		}
		switch {
		case depth[i] == unset:
			depth[i] = d
		case depth[i] == d || depth[i] == -1:
			return
		default:
			depth[i] = -1
		}
		work = append(work, i)
	}
	set(0, base)
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		in, d := f.Body[i], depth[i]
		out := d
		if d >= 0 {
			switch in.Op {
			case program.OpAtomicBegin:
				out = d + 1
			case program.OpAtomicEnd:
				out = d - 1
				if out < 0 {
					out = -1
				}
			}
		}
		switch in.Op {
		case program.OpReturn, program.OpExit:
			continue
		case program.OpGoto:
			for _, t := range in.Targets {
				set(f.Index(t), out)
			}
			if in.Rhs == nil && len(in.Targets) > 0 {
				continue
			}
		}
		set(i+1, out)
	}
	for i := range depth {
		if depth[i] == unset {
			depth[i] = -1 // unreachable
		}
	}
	return depth
}

// Map relates the runs of an instrumented program (the output of OrderOnly,
// ValuesAndOrder, refine.Exclude) to the runs of the program it was made
// from.
type Map struct {
	added   map[program.Label]bool          // labels of the instructions added
	advance map[program.Label]program.Label // advancing instruction → the visible label it accounts for
	place   map[program.Label]program.Label // goto placeholder → the goto whose step it stands for
	before  map[program.Label][]program.Label
	after   map[program.Label][]program.Label
	nondet  map[program.Label]int // index in before[l] of the step that draws l's Nondet values (gotoCond)
	shape   map[program.Label]shape
	// vals: for ValuesAndOrder, how a step of the original program is
	// rewritten (Nondet of removed operands), nil otherwise.
	dropNondet map[program.Label]func([]program.Value) []program.Value
}

func newMap() *Map {
	return &Map{
		added:   map[program.Label]bool{},
		advance: map[program.Label]program.Label{},
		place:   map[program.Label]program.Label{},
		before:  map[program.Label][]program.Label{},
		after:   map[program.Label][]program.Label{},
		nondet:  map[program.Label]int{},
		shape:   map[program.Label]shape{},
	}
}

// Deferred reports whether the monitor's check of the visible label l runs
// in an atomic section of its own before l's instruction (a Call, Spawn,
// Return, Exit, Lock or Unlock outside the program's atomic sections), so
// that steps of other threads may come between the check and the step.
func (m *Map) Deferred(l program.Label) bool { return m.shape[l] == deferred }

// Added reports whether l labels an instruction added by the translation.
func (m *Map) Added(l program.Label) bool { return m.added[l] }

// Run maps a run of the instrumented program back to a run of the program it
// was made from: the steps of added instructions are dropped; the step of a
// visible goto is placed where its guard was evaluated (inside the monitor's
// atomic section, so the goto reads the same values) and carries the Nondet
// values drawn there. Thread ids, the other steps' Nondet values and
// Run.Violated are kept. Every other step is kept in its place, so the result
// replays on the original program whenever the input replays on the
// instrumented one.
func (m *Map) Run(r *program.Run) *program.Run {
	out := &program.Run{Violated: r.Violated}
	pending := map[int]program.Label{}
	for _, s := range r.Steps {
		if o, ok := m.place[s.Label]; ok {
			out.Steps = append(out.Steps, program.Step{Thread: s.Thread, Label: o, Nondet: clone(s.Nondet)})
			pending[s.Thread] = o
			continue
		}
		if m.added[s.Label] {
			continue
		}
		if o, ok := pending[s.Thread]; ok {
			delete(pending, s.Thread)
			if o == s.Label {
				continue // the goto itself: already placed
			}
		}
		c := s
		c.Nondet = clone(s.Nondet)
		if f := m.dropNondet[s.Label]; f != nil {
			c.Nondet = f(s.Nondet)
		}
		c.Assigned = append([]program.Write(nil), s.Assigned...)
		out.Steps = append(out.Steps, c)
	}
	return out
}

// Visible returns the visible labels in the order in which the monitor of the
// instrumented program accepted them in r (one per execution of an advancing
// instruction). For the instructions that run in one atomic section with
// their check (see Instrument)
// this is also their order in Run(r); a Call, Spawn, Return, Exit, Lock or
// Unlock step outside the program's own atomic sections may come later in
// Run(r) than its place here, after steps of other threads (its own thread
// does nothing in between).
func (m *Map) Visible(r *program.Run) []program.Label {
	var out []program.Label
	for _, s := range r.Steps {
		if l, ok := m.advance[s.Label]; ok {
			out = append(out, l)
		}
	}
	return out
}

// VisibleIn returns the steps of r at labels in visible: the labels the
// monitor accepted, in the order it accepted them (as Visible), and the steps
// at the labels in visible that were not instrumented, in the order they ran.
// It is the visible sequence of a run of a program instrumented over a
// subset of visible (refine.ExcludePatterns), whose monitor sees only that
// subset.
func (m *Map) VisibleIn(r *program.Run, visible map[program.Label]bool) []program.Label {
	var out []program.Label
	for _, s := range r.Steps {
		if l, ok := m.advance[s.Label]; ok {
			out = append(out, l)
			continue
		}
		if _, instrumented := m.shape[s.Label]; !instrumented && !m.added[s.Label] && visible[s.Label] {
			out = append(out, s.Label)
		}
	}
	return out
}

// Lift inserts the monitor's steps into a run of the original program: the
// result is the corresponding run of the instrumented program (it replays on
// it when the monitor accepts the run). It is the inverse of Run for runs in
// which every monitor section is immediately followed by its instruction.
func (m *Map) Lift(r *program.Run) *program.Run {
	out := &program.Run{Violated: r.Violated}
	for i, s := range r.Steps {
		k := m.nondet[s.Label]
		bs, ok := m.before[s.Label]
		if !ok {
			k = -1
		}
		for j, l := range bs {
			st := program.Step{Thread: s.Thread, Label: l}
			if j == k {
				st.Nondet = clone(s.Nondet)
			}
			out.Steps = append(out.Steps, st)
		}
		c := s
		c.Nondet = clone(s.Nondet)
		if k >= 0 {
			c.Nondet = nil
		}
		c.Assigned = append([]program.Write(nil), s.Assigned...)
		out.Steps = append(out.Steps, c)
		if i == len(r.Steps)-1 && r.Violated != "" {
			break
		}
		for _, l := range m.after[s.Label] {
			out.Steps = append(out.Steps, program.Step{Thread: s.Thread, Label: l})
		}
	}
	return out
}

func clone(vs []program.Value) []program.Value {
	if vs == nil {
		return nil
	}
	return append([]program.Value(nil), vs...)
}

// Instrument inserts, before every instruction of p at a visible label l,
// the monitor instructions check returns for it, and edits p in place (the
// caller clones its input). The code around an instruction `in` outside the
// program's own atomic sections is:
//
//	Assign, Assume, Assert, Decl, Alloc, Free, Skip, Join:
//	    AtomicBegin; checks; in; AtomicEnd
//	Goto with a guard g:
//	    AtomicBegin; checks; decl t; t = (g != 0); AtomicEnd; if (t) goto ...
//	    (t is a fresh int local per goto; the goto keeps its label)
//	unconditional Goto:
//	    AtomicBegin; checks; AtomicEnd; goto ...
//	AtomicBegin:
//	    AtomicBegin; checks   (the checks open the program's own section)
//	Call, Spawn, Return, Exit, Lock, Unlock (and an AtomicEnd outside any
//	section, which only broken programs have):
//	    AtomicBegin; checks; AtomicEnd; in
//
// Lock and Unlock are not put inside the monitor's section because the
// pthread models of CBMC and ESBMC open an atomic section themselves and
// CBMC rejects nested sections. Inside the program's own atomic sections
// (atomic functions, and instructions between AtomicBegin and AtomicEnd of
// the same function, found by a forward analysis of the control flow) the
// code is just `checks; in`, with no section of the monitor's own, so the
// output has no nested sections where the input has none (except in
// functions that are called from inside an atomic section).
//
// Every original instruction keeps its label; the added instructions get
// fresh labels derived from l ("l.a", "l.b", ...). A goto that targeted l is
// retargeted to the first added instruction before l, so that jumping to l
// runs the checks; the label l itself keeps naming the original instruction.
// Invisible instructions are unchanged.
func Instrument(p *program.Program, visible map[program.Label]bool, check Checker) (*Map, error) {
	m := newMap()
	used := map[program.Label]bool{}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			used[in.Label] = true
		}
	}
	first := map[program.Label]program.Label{}
	names := map[string]bool{}
	for _, g := range p.Globals {
		names[g.Name] = true
	}
	for _, f := range p.Funcs {
		var body []*program.Instr
		local := map[string]bool{}
		for _, v := range append(append([]*program.Var(nil), f.Params...), f.Locals...) {
			local[v.Name] = true
		}
		depth := atomicDepth(f)
		ntemp := 0
		for i, in := range f.Body {
			if !visible[in.Label] {
				body = append(body, in)
				continue
			}
			l := in.Label
			sh := shapeOf(in, depth[i])
			checks, err := check(in)
			if err != nil {
				return nil, err
			}
			if len(checks) == 0 {
				return nil, program.Errorf(program.Internal, "instrument: no monitor instructions for %s", l)
			}
			add := func(x *program.Instr) *program.Instr {
				x.Label = program.Fresh(p, string(l), used)
				if x.Pos == (program.Pos{}) {
					x.Pos = in.Pos
				}
				m.added[x.Label] = true
				body = append(body, x)
				return x
			}
			var pre, post []program.Label
			addChecks := func(into *[]program.Label) {
				var adv program.Label
				for _, c := range checks {
					x := add(c)
					*into = append(*into, x.Label)
					adv = x.Label
				}
				m.advance[adv] = l
			}
			m.shape[l] = sh
			m.nondet[l] = -1
			switch sh {
			case plain:
				addChecks(&pre)
				body = append(body, in)
			case afterBegin:
				body = append(body, in)
				addChecks(&post)
			default:
				ab := add(&program.Instr{Op: program.OpAtomicBegin, Msg: "cegpv monitor: " + string(l)})
				pre = append(pre, ab.Label)
				addChecks(&pre)
				switch sh {
				case inside:
					body = append(body, in)
					ae := add(&program.Instr{Op: program.OpAtomicEnd})
					post = append(post, ae.Label)
				case gotoCond:
					var name string
					for {
						name = "__cegpv_br" + strconv.Itoa(ntemp)
						ntemp++
						if !local[name] && !names[name] {
							break
						}
					}
					local[name] = true
					f.Locals = append(f.Locals, &program.Var{Name: name, Type: program.IntT, Pos: in.Pos})
					ref := &program.Ref{Name: name, Local: true, T: program.IntT}
					d := add(&program.Instr{Op: program.OpDecl, Var: name})
					pre = append(pre, d.Label)
					g := in.Rhs
					if k := g.Type().Kind; k != program.Int && k != program.Bool && k != program.Pointer {
						return nil, &program.Error{Kind: program.Unsupported, Pos: in.Pos, Err: fmt.Errorf("instrument: goto %s with a guard of type %s", l, g.Type())}
					}
					t := add(&program.Instr{Op: program.OpAssign, Lhs: ref, Rhs: truth(g)})
					pre = append(pre, t.Label)
					m.nondet[l] = len(pre) - 1
					m.place[t.Label] = l
					ae := add(&program.Instr{Op: program.OpAtomicEnd})
					pre = append(pre, ae.Label)
					in.Rhs = ref
					body = append(body, in)
				case gotoUncond:
					ae := add(&program.Instr{Op: program.OpAtomicEnd})
					pre = append(pre, ae.Label)
					m.place[ae.Label] = l
					body = append(body, in)
				case deferred:
					ae := add(&program.Instr{Op: program.OpAtomicEnd})
					pre = append(pre, ae.Label)
					body = append(body, in)
				}
			}
			if len(pre) > 0 {
				first[l] = pre[0]
			}
			m.before[l] = pre
			m.after[l] = post
		}
		f.Body = body
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op != program.OpGoto {
				continue
			}
			for i, t := range in.Targets {
				if n, ok := first[t]; ok {
					in.Targets[i] = n
				}
			}
		}
	}
	return m, nil
}

// truth returns g as an int that is 0 or 1: g itself when it is already a
// comparison or logical operation of type int, else g != 0. The Nondet
// values of the result are g's, in the same order.
func truth(g program.Expr) program.Expr {
	if program.Identical(g.Type(), program.IntT) {
		switch x := g.(type) {
		case *program.Binary:
			switch x.Op {
			case program.Eq, program.Ne, program.Lt, program.Le, program.Gt, program.Ge, program.LAnd, program.LOr:
				return g
			}
		case *program.Unary:
			if x.Op == program.Not {
				return g
			}
		}
	}
	return &program.Binary{Op: program.Ne, X: g, Y: zero(g.Type()), T: program.IntT}
}

// zero returns the zero constant of an integer, _Bool or pointer type t.
func zero(t *program.Type) program.Expr { return &program.Const{T: t, V: 0} }

// FreshGlobal returns a global name derived from base that p does not use
// as a global, local or function name.
func FreshGlobal(p *program.Program, base string) string {
	taken := map[string]bool{}
	for _, g := range p.Globals {
		taken[g.Name] = true
	}
	for _, f := range p.Funcs {
		taken[f.Name] = true
		for _, v := range f.Params {
			taken[v.Name] = true
		}
		for _, v := range f.Locals {
			taken[v.Name] = true
		}
	}
	if !taken[base] {
		return base
	}
	for i := 1; ; i++ {
		n := base + "_" + strconv.Itoa(i)
		if !taken[n] {
			return n
		}
	}
}

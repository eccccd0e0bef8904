package reconstruct

import (
	"fmt"
	"sort"

	"cegpv.dev/cegpv/program"
)

// ValPrefix starts the names of the value tables of ValuesAndOrder.
const ValPrefix = "__cegpv_val_"

// ValuesAndOrder is the values-and-order reconstruction (the paper's
// [[.]]co). P1 is the order-only P1 (OrderOnly: the same monitor forcing π's
// visible label sequence) in which the replaced variables — the kept
// variables (V0, named as depgraph.Var strings) that are globals of integer
// or _Bool type, whose address is never taken and that are written only by
// Assign instructions of the form `x = e` — are removed and replaced by their
// values in π:
//
//	T __cegpv_val_x[N+1] = {v_0, ..., v_N};  // v_i: x before visible step i of π
//
// (v_N is x at the end of π), computed from the initial value and π's
// Step.Assigned writes. A read of x becomes __cegpv_val_x[c], where c is
// __cegpv_cnt - 1 in a visible instruction that runs in one atomic section
// with its check (after the check advanced the counter past it) and
// __cegpv_cnt elsewhere (invisible instructions, and the deferred ones of
// Map.Deferred, whose reads are exact when they run right after their
// check). A visible `x = e` becomes, inside its atomic section,
// `assume(__cegpv_val_x[__cegpv_cnt] == e')` (the value π gave x after the
// step). Branches of visible gotos need no assume of their own: the
// monitor already forces the thread's next visible label. The assertions
// stay, so the one at the end of π is checked there.
//
// Every other kept variable (locals, arrays, structs, pointers, heap,
// mutexes, address-taken or otherwise written globals) stays a real
// variable of P1, as in the order-only variant; that only makes P1 follow π
// less closely (more runs), never unsoundly. Step.Nondet values are drawn in
// the same order as in P (a rewritten `x = e` draws e's), so Map.Run and
// Map.Lift work as for OrderOnly.
//
// Lemma 2: every run of P1 maps (Map.Run) to a run of P that follows π's
// visible label order and, on the replaced variables, π's values — for the
// deferred instructions as far as they run right after their check (a
// deferred step that reads a replaced variable after other threads moved the
// counter reads a later value of π; replaying the mapped run on P, which the
// caller must do anyway, detects that); every run of P that follows π's
// order and values is, with the monitor steps inserted (Map.Lift), a run of
// P1.
func ValuesAndOrder(p, a *program.Program, run *program.Run, kept []string) (*program.Program, *Map, error) {
	if err := sameLabels(p, a); err != nil {
		return nil, nil, err
	}
	return ValuesAndOrderSeq(p, program.Visible(a), run, kept)
}

// ValuesAndOrderSeq is ValuesAndOrder with the visible set given: P1
// forces the order of π's steps at the labels of visible (and the values
// of the replaced variables). visible must contain every label whose
// instruction reads or writes a kept global (program.SharedVisible(a) does, and
// so does program.Visible(a)); any such set is sound, as for OrderOnlySeq: P1
// contains every run of p whose projection onto the set is π's and whose
// replaced variables take π's values. A smaller set makes P1 cover more
// runs of p (every placement of the steps outside the set), which often
// makes it easier for a backend.
func ValuesAndOrderSeq(p *program.Program, vis map[program.Label]bool, run *program.Run, kept []string) (*program.Program, *Map, error) {
	seq := program.Project(run, vis)
	repl := replaceable(p, kept)
	// values of the replaced variables before each visible step
	cur := map[string]program.Value{}
	for _, x := range repl {
		g := p.Global(x)
		var v int64
		if c, ok := g.Init.(*program.Const); ok {
			v = c.V
		} else if g.Init != nil {
			return nil, nil, program.Errorf(program.Unsupported, "reconstruct: initial value of %s", x)
		}
		cur[x] = program.IntValue(v)
	}
	vals := map[string][]program.Expr{}
	for _, s := range run.Steps {
		if vis[s.Label] {
			for _, x := range repl {
				vals[x] = append(vals[x], program.IntConst(p.Global(x).Type, cur[x].Bits))
			}
		}
		for _, w := range s.Assigned {
			if _, ok := cur[w.Loc]; ok {
				if w.Val.IsPtr() {
					return nil, nil, program.Errorf(program.Unsupported, "reconstruct: pointer value stored into %s", w.Loc)
				}
				cur[w.Loc] = w.Val
			}
		}
	}
	for _, x := range repl {
		vals[x] = append(vals[x], program.IntConst(p.Global(x).Type, cur[x].Bits))
	}
	p1, m, cnt, err := orderOnlySeq(p, vis, seq)
	if err != nil {
		return nil, nil, err
	}
	cntMinus1 := &program.Binary{Op: program.Sub, X: cnt, Y: program.IntConst(program.IntT, 1), T: program.IntT}
	tables := map[string]*program.Ref{}
	var globals []*program.Var
	for _, g := range p1.Globals {
		if _, ok := cur[g.Name]; !ok {
			globals = append(globals, g)
		}
	}
	p1.Globals = globals
	for _, x := range repl {
		t := p.Global(x).Type
		tt := program.ArrayOf(t, int64(len(vals[x])))
		name := FreshGlobal(p1, ValPrefix+x)
		p1.Globals = append(p1.Globals, &program.Var{Name: name, Type: tt, Init: &program.Compound{T: tt, Elems: vals[x]}})
		tables[x] = &program.Ref{Name: name, T: tt}
	}
	rewrite := func(e program.Expr, idx program.Expr) program.Expr {
		return program.Rewrite(e, func(e program.Expr) program.Expr {
			if r, ok := e.(*program.Ref); ok && !r.Local {
				if tab := tables[r.Name]; tab != nil {
					return &program.Index{X: tab, I: idx, T: r.T}
				}
			}
			return e
		})
	}
	for _, f := range p1.Funcs {
		for _, in := range f.Body {
			idx := program.Expr(cnt)
			_, isPlace := m.place[in.Label]
			after := isPlace && m.nondet[m.place[in.Label]] >= 0 ||
				!m.added[in.Label] && vis[in.Label] && !m.Deferred(in.Label) && m.shape[in.Label] != afterBegin
			if after {
				idx = cntMinus1
			}
			if in.Op == program.OpAssign {
				if r, ok := in.Lhs.(*program.Ref); ok && !r.Local && tables[r.Name] != nil {
					if !after {
						return nil, nil, program.Errorf(program.Internal, "reconstruct: write to %s at %s outside a monitor section", r.Name, in.Label)
					}
					next := &program.Index{X: tables[r.Name], I: cnt, T: r.T}
					in.Op = program.OpAssume
					in.Rhs = &program.Binary{Op: program.Eq, X: next, Y: rewrite(in.Rhs, idx), T: program.IntT}
					in.Lhs = nil
					in.Msg = fmt.Sprintf("cegpv: %s = %s as in the run", r.Name, program.ExprString(in.Rhs.(*program.Binary).Y))
					continue
				}
			}
			in.Lhs = rewrite(in.Lhs, idx)
			in.Rhs = rewrite(in.Rhs, idx)
			in.Func = rewrite(in.Func, idx)
			for i := range in.Args {
				in.Args[i] = rewrite(in.Args[i], idx)
			}
		}
	}
	return p1, m, nil
}

// replaceable returns the kept globals that ValuesAndOrder replaces by
// tables, sorted.
func replaceable(p *program.Program, kept []string) []string {
	cand := map[string]bool{}
	for _, k := range kept {
		if g := p.Global(k); g != nil && g.Type.IsInteger() && !g.AddrTaken {
			cand[k] = true
		}
	}
	base := func(e program.Expr) string {
		if r := program.BaseRef(e); r != nil && !r.Local {
			return r.Name
		}
		return ""
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			program.Walk(in.Lhs, func(e program.Expr) bool {
				if a, ok := e.(*program.AddrOf); ok {
					delete(cand, base(a.X))
				}
				return true
			})
			for _, e := range in.Operands() {
				program.Walk(e, func(e program.Expr) bool {
					if a, ok := e.(*program.AddrOf); ok {
						delete(cand, base(a.X))
					}
					return true
				})
			}
			if in.Lhs == nil {
				continue
			}
			if in.Op == program.OpAssign {
				if _, ok := in.Lhs.(*program.Ref); ok {
					continue
				}
			}
			delete(cand, base(in.Lhs))
		}
	}
	var out []string
	for k := range cand {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package builtin

import (
	"maps"

	"cegpv.dev/cegpv/program"
)

// Busy-wait loops. A loop whose iterations only read memory and write
// locals that each iteration writes before reading them, such as
//
//	while (l != s) ;             // ticket lock
//	while (flag[j] >= 3) ;       // Szymanski's await
//
// is a wait: an iteration that goes round again changes nothing any
// thread can see, and the next iteration starts afresh. So every run is
// equivalent (same steps of every other thread, same values everywhere)
// to the run without its failed iterations, in which the thread executes
// the last iteration where the first one was. The built-in backend
// therefore executes one iteration and drops the path that goes round:
// the thread waits, for as long as it likes, before that iteration. This
// keeps every violation, needs no unwinding of the loop (no cut, so a
// bounded TRUE also covers waits of any length), and removes the
// interleavings of the failed iterations, which multiply with every
// spinning thread. With unwinding assertions it is off: a wait long enough
// reaches the loop's bound, which violates its unwinding property (as in
// CBMC), and the reduction would hide that.
//
// The conditions, checked on the loop's instructions [head, back edge]:
//   - one entry (no jump from outside into the loop after its head) and
//     jumps only forward inside the loop, out of it forward, or the back
//     edge itself;
//   - only skips, declarations and assignments of locals whose address is
//     not taken, and jumps;
//   - expressions of constants, variables, casts and integer operators
//     that cannot fail (no division, shift, pointer operand, dereference,
//     index, call or nondeterministic value): an iteration can neither go
//     wrong (enc.bad) nor draw values;
//   - every local written in the loop is written on every path from the
//     head to each of its reads in the loop and to each exit, so after
//     the loop its value comes from the last iteration.
//
// Inside an atomic section or a collapsed lock region (state depth > 0)
// loops are unwound as usual: there the thread cannot wait. Like lock-region
// collapsing, this is a reduction (redSpin; see incremental.go for where
// instances may use it).

// spinLoop says whether the goto at pc of f is the back edge of a busy-wait
// loop (cached per function).
func (e *enc) spinLoop(f *program.Func, pc int) bool {
	if e.spin == nil {
		e.spin = map[*program.Func]map[int]bool{}
	}
	m := e.spin[f]
	if m == nil {
		m = map[int]bool{}
		for b, in := range f.Body {
			if in.Op != program.OpGoto || len(in.Targets) != 1 {
				continue
			}
			if h := f.Index(in.Targets[0]); h >= 0 && h <= b && isSpinLoop(f, h, b) {
				m[b] = true
			}
		}
		e.spin[f] = m
	}
	return m[pc]
}

// isSpinLoop checks the conditions above for the loop [h, b] of f.
func isSpinLoop(f *program.Func, h, b int) bool {
	body := f.Body
	// one entry
	for pc, in := range body {
		if pc >= h && pc <= b {
			continue
		}
		for _, l := range in.Targets {
			if t := f.Index(l); t > h && t <= b {
				return false
			}
		}
	}
	localOK := func(name string) bool {
		v := f.Var(name)
		return v != nil && !v.AddrTaken
	}
	// the locals the loop writes
	written := map[string]bool{}
	for pc := h; pc <= b; pc++ {
		in := body[pc]
		switch in.Op {
		case program.OpSkip:
		case program.OpDecl:
			if !localOK(in.Var) {
				return false
			}
			written[in.Var] = true
		case program.OpAssign:
			r, ok := in.Lhs.(*program.Ref)
			if !ok || !r.Local || !localOK(r.Name) || !spinExpr(in.Rhs) {
				return false
			}
			written[r.Name] = true
		case program.OpGoto:
			if len(in.Targets) != 1 || (in.Rhs != nil && !spinExpr(in.Rhs)) {
				return false
			}
			t := f.Index(in.Targets[0])
			if t <= pc && !(pc == b && t == h) || t < h {
				return false
			}
		default:
			return false
		}
	}
	// definitely written locals, forward over the acyclic body
	defs := make([]map[string]bool, b+2) // defs[pc]: written on every path from h to pc
	var exits []map[string]bool
	join := func(pc int, d map[string]bool) {
		if pc > b {
			exits = append(exits, d)
			return
		}
		if defs[pc] == nil {
			defs[pc] = maps.Clone(d)
			return
		}
		for v := range defs[pc] {
			if !d[v] {
				delete(defs[pc], v)
			}
		}
	}
	defs[h] = map[string]bool{}
	for pc := h; pc <= b; pc++ {
		d := defs[pc]
		if d == nil {
			continue // unreachable from the head
		}
		in := body[pc]
		for _, x := range in.Operands() {
			if x == in.Lhs && in.Op == program.OpAssign {
				continue
			}
			for _, r := range program.Refs(x) {
				if r.Local && written[r.Name] && !d[r.Name] {
					return false // reads the previous iteration's value
				}
			}
		}
		switch in.Op {
		case program.OpDecl:
			d = maps.Clone(d)
			d[in.Var] = true
		case program.OpAssign:
			d = maps.Clone(d)
			d[in.Lhs.(*program.Ref).Name] = true
		case program.OpGoto:
			t := f.Index(in.Targets[0])
			if pc != b {
				join(t, d)
			}
			if in.Rhs == nil {
				continue // no fall-through
			}
		}
		join(pc+1, d)
	}
	for _, d := range exits {
		for v := range written {
			if !d[v] {
				return false
			}
		}
	}
	return true
}

// spinExpr says whether evaluating x only reads variables and cannot fail.
func spinExpr(x program.Expr) bool {
	ok := true
	program.Walk(x, func(y program.Expr) bool {
		switch z := y.(type) {
		case *program.Const, *program.Cast, *program.CondExpr:
		case *program.Ref:
			if !z.T.IsInteger() {
				ok = false
			}
		case *program.Unary:
		case *program.Binary:
			switch z.Op {
			case program.Div, program.Rem, program.Shl, program.Shr:
				ok = false
			}
			if !z.X.Type().IsInteger() || !z.Y.Type().IsInteger() {
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

package interp

import (
	"fmt"
	"strings"
	"testing"

	P "cegpv.dev/cegpv/program"
)

// A small builder for hand-made programs.

const ptrSize = 4

var (
	voidp   = P.PointerTo(P.VoidType, ptrSize)
	intp    = P.PointerTo(P.IntT, ptrSize)
	mutexp  = P.PointerTo(P.MutexType, ptrSize)
	threadT = &P.Type{Kind: P.Function, Elem: voidp, Params: []*P.Type{voidp}, Size: 1}
)

func g(name string, t *P.Type) *P.Ref  { return &P.Ref{Name: name, T: t} }
func l(name string, t *P.Type) *P.Ref  { return &P.Ref{Name: name, Local: true, T: t} }
func ci(v int64) *P.Const              { return &P.Const{T: P.IntT, V: v} }
func ct(t *P.Type, v int64) *P.Const   { return P.IntConst(t, v) }
func addr(x P.Expr) *P.AddrOf          { return &P.AddrOf{X: x, T: P.PointerTo(x.Type(), ptrSize)} }
func deref(x P.Expr) *P.Deref          { return &P.Deref{X: x, T: x.Type().Elem} }
func cast(x P.Expr, t *P.Type) *P.Cast { return &P.Cast{X: x, T: t} }
func nullp(t *P.Type) *P.Const         { return &P.Const{T: t} }
func fref(f *P.Func) *P.FuncRef        { return &P.FuncRef{Name: f.Name, T: f.Type()} }
func bin(op P.BinOp, x, y P.Expr) *P.Binary {
	t := x.Type()
	switch op {
	case P.Eq, P.Ne, P.Lt, P.Le, P.Gt, P.Ge, P.LAnd, P.LOr:
		t = P.IntT
	}
	return &P.Binary{Op: op, X: x, Y: y, T: t}
}

type fb struct {
	f *P.Func
}

func newFunc(name string, result *P.Type, params ...*P.Var) *fb {
	return &fb{f: &P.Func{Name: name, Result: result, Params: params}}
}

func (b *fb) add(in *P.Instr) *P.Instr {
	if in.Label == "" {
		in.Label = P.Label(fmt.Sprintf("%s.%d", b.f.Name, len(b.f.Body)))
	}
	in.Pos = P.Pos{File: "test.c", Line: len(b.f.Body) + 1}
	b.f.Body = append(b.f.Body, in)
	return in
}

func (b *fb) local(name string, t *P.Type) *P.Ref {
	b.f.Locals = append(b.f.Locals, &P.Var{Name: name, Type: t})
	b.add(&P.Instr{Op: P.OpDecl, Var: name})
	return l(name, t)
}

func (b *fb) assign(lhs, rhs P.Expr) *P.Instr {
	return b.add(&P.Instr{Op: P.OpAssign, Lhs: lhs, Rhs: rhs})
}

func (b *fb) assert(c P.Expr) *P.Instr {
	n := 1
	for _, in := range b.f.Body {
		if in.Op == P.OpAssert {
			n++
		}
	}
	return b.add(&P.Instr{Op: P.OpAssert, Rhs: c, Prop: fmt.Sprintf("%s.assertion.%d", b.f.Name, n)})
}

func (b *fb) op(op P.Op, rhs P.Expr) *P.Instr { return b.add(&P.Instr{Op: op, Rhs: rhs}) }

func (b *fb) ret(e P.Expr) *P.Instr { return b.add(&P.Instr{Op: P.OpReturn, Rhs: e}) }

func (b *fb) spawn(h P.Expr, f *P.Func, arg P.Expr) *P.Instr {
	return b.add(&P.Instr{Op: P.OpSpawn, Lhs: h, Func: fref(f), Args: []P.Expr{arg}})
}

func prog(t *testing.T, globals []*P.Var, fs ...*fb) *P.Program {
	t.Helper()
	p := &P.Program{File: "test.c", Model: P.ILP32, Globals: globals}
	for _, b := range fs {
		p.Funcs = append(p.Funcs, b.f)
	}
	if err := P.Check(p); err != nil {
		t.Fatalf("hand-made program does not check: %v", err)
	}
	return p
}

// steps builds a run from "thread:label" strings.
func steps(specs ...string) []P.Step {
	var out []P.Step
	for _, s := range specs {
		var th int
		i := strings.IndexByte(s, ':')
		fmt.Sscanf(s[:i], "%d", &th)
		out = append(out, P.Step{Thread: th, Label: P.Label(s[i+1:])})
	}
	return out
}

func findWrite(s P.Step, loc string) (P.Value, bool) {
	for _, w := range s.Assigned {
		if w.Loc == loc {
			return w.Val, true
		}
	}
	return P.Value{}, false
}

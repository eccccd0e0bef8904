package frontend

import (
	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// argvStrLen is the number of characters of each command-line argument the
// model represents exactly (see mainParams).
const argvStrLen = 4

// mainParams models the parameters of main(int argc, char *argv[]). They
// become locals of main, initialised first:
//
//	argc = nondet(int); assume(argc >= 1);
//
// and, only when the body mentions argv (otherwise argv is not declared at
// all):
//
//	for (i = 0; i < argc; i++) ;               // one iteration per argument
//	argv = malloc(((size_t)argc + 1) * sizeof(char *));
//	argv[argc] = 0;
//	for (i = 0; i < argc; i++) {               // the strings
//		n = nondet(int); assume(0 <= n && n <= L + 1);
//		s = malloc((n <= L ? n + 1 : L + 1) * sizeof(char));
//		if (n <= L) s[n] = 0;
//		for (j = 0; j <= L && j < n; j++) {        // unrolled
//			s[j] = nondet(char); assume(s[j] != 0);
//		}
//		argv[i] = s;
//	}
//
// with L = argvStrLen. argc has no upper bound: the loops make the number
// of arguments an ordinary loop bound, so runs with more arguments than the
// unwinding bound are cut like any other (a TRUE is then bounded, never a
// proof), and the allocation of argv is reached only by runs within the
// bound. Each string is a separate object. A string of length n <= L is
// exact: n non-NUL characters followed by its NUL, and the block ends
// there, so a read past the NUL is an invalid access (out of bounds, as in
// C). A longer string is represented by its first L+1 characters, all
// non-NUL, in a block of L+1: a read at index L+1 or beyond is an invalid
// access, which the backends report as UNKNOWN (not modelled), never as a
// value. Every real command line (of at most the unwinding bound's
// arguments) is thus a state of the model and every state of the model is a
// real command line, as far as the program can read it without an invalid
// access. Every character is drawn by an explicit nondet store rather than
// left as malloc's indeterminate contents: an external checker's trace shows
// a drawn value (a probe, backend/external) but not a heap block's initial
// contents, so a counterexample through the strings can be followed and
// replayed. Library functions that read the strings (atoi, strtol, strlen,
// sscanf, ...) stay opaque (frontend/extern.go).
func (fl *funcLowerer) mainParams(n cc.Node, body *cc.CompoundStatement) {
	l := fl.l
	ps := fl.f.Params
	if len(ps) > 2 {
		l.fail(n, "main with %d parameters (envp is not modelled)", len(ps))
	}
	fl.f.Params = nil
	argc := ps[0]
	if argc.Type.Kind != program.Int || !argc.Type.Signed || argc.Type.Size != 4 {
		l.fail(n, "main's first parameter has type %s, want int", argc.Type)
	}
	fl.cur = argc.Pos
	argcRef := &program.Ref{Name: argc.Name, Local: true, T: argc.Type}
	fl.declLocal(argc)
	fl.assign(argcRef, &program.Nondet{T: argc.Type})
	fl.emitOp(program.OpAssume, nil, &program.Binary{Op: program.Ge, X: argcRef, Y: program.IntConst(argc.Type, 1), T: program.IntT})
	if len(ps) < 2 {
		return
	}
	argv := ps[1]
	at := argv.Type
	if at.Kind != program.Pointer || at.Elem.Kind != program.Pointer || !at.Elem.Elem.IsInteger() || at.Elem.Elem.Size != 1 {
		l.fail(n, "main's second parameter has type %s, want char **", at)
	}
	if !mentions(body, argv.Name, fl.paramNames) {
		return
	}
	fl.cur = argv.Pos
	argvRef := &program.Ref{Name: argv.Name, Local: true, T: at}
	fl.declLocal(argv)
	st := l.sizeT()
	int0 := func(k int64) program.Expr { return program.IntConst(program.IntT, k) }
	bin := func(op program.BinOp, x, y program.Expr) program.Expr { return fl.binary(n, op, x, y) }
	i := fl.tmp(program.IntT)
	// loop runs body once for each i in 0..argc-1.
	loop := func(body func()) {
		fl.assign(i, int0(0))
		head, end := fl.newLabel(), fl.newLabel()
		fl.place(head)
		fl.jump(end, bin(program.Ge, i, argcRef))
		body()
		fl.assign(i, bin(program.Add, i, int0(1)))
		fl.jump(head, nil)
		fl.place(end)
	}
	loop(func() {})
	fl.emitOp(program.OpAlloc, argvRef, bin(program.Add, fl.convert(argcRef, st, true), program.IntConst(st, 1)))
	fl.assign(fl.deref(n, bin(program.Add, argvRef, argcRef)), &program.Const{T: at.Elem, V: 0})
	ct := at.Elem.Elem
	strLen := fl.tmp(program.IntT)
	str := fl.tmp(at.Elem)
	loop(func() {
		fl.assign(strLen, &program.Nondet{T: program.IntT})
		fl.emitOp(program.OpAssume, nil, &program.Binary{Op: program.LAnd,
			X: bin(program.Ge, strLen, int0(0)), Y: bin(program.Le, strLen, int0(argvStrLen+1)), T: program.IntT})
		cells := &program.CondExpr{C: bin(program.Le, strLen, int0(argvStrLen)),
			X: bin(program.Add, strLen, int0(1)), Y: int0(argvStrLen + 1), T: program.IntT}
		fl.emitOp(program.OpAlloc, str, fl.convert(cells, st, false))
		long := fl.newLabel()
		fl.jump(long, bin(program.Gt, strLen, int0(argvStrLen)))
		fl.assign(fl.deref(n, bin(program.Add, str, strLen)), program.IntConst(ct, 0))
		fl.place(long)
		done := fl.newLabel()
		for j := int64(0); j <= argvStrLen; j++ {
			fl.jump(done, bin(program.Le, strLen, int0(j)))
			fl.assign(fl.elemAt(n, str, j), &program.Nondet{T: ct})
			fl.emitOp(program.OpAssume, nil, bin(program.Ne, fl.elemAt(n, str, j), int0(0)))
		}
		fl.place(done)
		fl.assign(fl.deref(n, bin(program.Add, argvRef, i)), str)
	})
}

// declLocal declares v, a parameter turned local, with its Decl.
func (fl *funcLowerer) declLocal(v *program.Var) {
	fl.f.Locals = append(fl.f.Locals, v)
	d := fl.newInstr(program.OpDecl)
	d.Var = v.Name
	fl.body = append(fl.body, d)
}

// mentions reports whether an identifier token of body may refer to the
// parameter named name (any token spelled like it counts).
func mentions(body *cc.CompoundStatement, name string, params map[string]*program.Var) bool {
	if body == nil {
		return false
	}
	// params maps C names to variables; the program name may differ.
	var cnames []string
	for cn, v := range params {
		if v.Name == name {
			cnames = append(cnames, cn)
		}
	}
	for _, t := range cc.NodeTokens(body) {
		for _, cn := range cnames {
			if t.SrcStr() == cn {
				return true
			}
		}
	}
	return false
}

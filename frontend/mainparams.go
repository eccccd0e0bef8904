package frontend

import (
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// mainParams models the parameters of main(int argc, char *argv[]) as CBMC
// does. They become locals of main, initialised first:
//
//	argc = nondet(int); assume(argc >= 1);
//	argv = malloc(((size_t)argc + 1) * sizeof(char *));  // cells nondet
//	argv[argc] = 0;
//
// argc has no upper bound (the allocation size is computed in size_t, so
// it cannot overflow). The strings argv[0..argc-1] are not modelled: the
// cells hold nondet pointers. This is sound only because the program may
// use argv in one way, checked by checkArgvUse: an argument argv[E] of a
// library call whose model does not read the string (the source of sscanf,
// whose stores are nondet for any input; the arguments of the read-only
// functions such as printf, atoi, strcmp, whose results are opaque). Any
// other use of argv is Unsupported.
func (fl *funcLowerer) mainParams(n cc.Node) {
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
	decl := func(v *program.Var) {
		fl.f.Locals = append(fl.f.Locals, v)
		d := fl.newInstr(program.OpDecl)
		d.Var = v.Name
		fl.body = append(fl.body, d)
	}
	fl.cur = argc.Pos
	argcRef := &program.Ref{Name: argc.Name, Local: true, T: argc.Type}
	decl(argc)
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
	fl.cur = argv.Pos
	argvRef := &program.Ref{Name: argv.Name, Local: true, T: at}
	decl(argv)
	st := l.sizeT()
	count := &program.Binary{Op: program.Add, X: &program.Cast{X: argcRef, T: st}, Y: program.IntConst(st, 1), T: st}
	fl.emitOp(program.OpAlloc, argvRef, count)
	last := &program.Deref{X: &program.Binary{Op: program.Add, X: argvRef, Y: argcRef, T: at}, T: at.Elem}
	fl.assign(last, &program.Const{T: at.Elem, V: 0})
	fl.argvVar = argv
}

// checkArgvUse rejects a use of main's argv outside the allowed form.
func (fl *funcLowerer) checkArgvUse(v *program.Var, n cc.Node) {
	if v == nil || v != fl.argvVar || fl.argvOK {
		return
	}
	fl.l.fail(n, "use of argv: the contents of the command line are not modelled; "+
		"argv may only appear as an argument argv[i] of sscanf (source), printf, puts, atoi, strtol, strlen, strcmp and the like")
}

// isArgvElem reports whether e is argv[E] for main's argv, with E not
// mentioning argv.
func (fl *funcLowerer) isArgvElem(e cc.ExpressionNode) bool {
	if fl.argvVar == nil {
		return false
	}
	for {
		if c := passThrough(e); c != nil {
			e = c
			continue
		}
		switch x := e.(type) {
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionPostfix {
				e = x.PostfixExpression
				continue
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				e = x.UnaryExpression
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				e = x.AssignmentExpression
				continue
			}
		case *cc.PostfixExpression:
			if x.Case != cc.PostfixExpressionIndex {
				return false
			}
			base := x.PostfixExpression
			if p, ok := base.(*cc.PostfixExpression); ok && p.Case == cc.PostfixExpressionPrimary {
				base = p.PrimaryExpression
			}
			id, ok := base.(*cc.PrimaryExpression)
			if !ok || id.Case != cc.PrimaryExpressionIdent || fl.paramNames[id.Token.SrcStr()] != fl.argvVar {
				return false
			}
			for _, t := range cc.NodeTokens(x.ExpressionList) {
				if strings.Contains(t.SrcStr(), "argv") || t.SrcStr() == id.Token.SrcStr() {
					return false
				}
			}
			return true
		}
		return false
	}
}

package frontend

import (
	"fmt"
	"maps"
	"slices"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// What a run can reach (issue 30: reject only what a run can reach).
//
// Preprocessed files carry whole headers: glibc's static inline byte
// swaps, kernel structs, prototypes, typedefs and objects the program never
// touches. The front end lowers only the functions a run can call and the
// file-scope objects such code can name, so that a construct it does not
// model rejects the program only where a run can reach it.
//
// The call graph is resolved soundly, by names:
//
//   - main is reachable;
//   - a function named anywhere in the body of a reachable function is
//     reachable, whether it is called there or its address is taken (a
//     start routine of pthread_create, a pointer stored for a later call:
//     every function a reachable body can hand out is taken as called);
//   - a file-scope object is used when its name occurs in a reachable body
//     (as an identifier or a block-scope declaration) or in the
//     initialiser of a used object;
//   - a function named in the initialiser of a used object is reachable
//     when a reachable body calls through a pointer whose function type
//     is compatible with the function's (the only way such a function
//     can run: a call through an incompatible type is undefined, C11
//     6.5.2.2p9), or passes a pointer to a function of such a type to a
//     function without a body;
//   - a function named but not reachable (a pointer stored and compared,
//     never called) is lowered as a stub of its signature whose body is
//     assume(0), as is a function without a body that is named: no run
//     executes it. A function without a body that a reachable pointer
//     call may call is rejected, naming it (its effects are unknown).
//
// Names are compared as strings: a local that shadows a file-scope name
// makes that name used, which only keeps more. Everything else (types,
// typedefs, prototypes, tag declarations) is lowered on demand when reached
// code uses it, as before.

// reachInfo is the result: the functions with a body that a run can call
// and the file-scope objects it can use, by C name; the function types of
// the calls through pointers reachable code makes, and the types of the
// functions it names.
type reachInfo struct {
	funcs    map[string]bool
	objs     map[string]bool
	ptrCalls []cc.Type // nil: a call whose function type is not known
	ftypes   map[string]cc.Type
}

// mayCall reports whether a reachable call through a pointer may call
// function name: its type is compatible with the call's (calling a
// function through an incompatible type is undefined, C11 6.5.2.2p9).
func (r *reachInfo) mayCall(name string) bool {
	ft := r.ftypes[name]
	for _, ct := range r.ptrCalls {
		if ct == nil || ft == nil || compatibleFunc(ft, ct) {
			return true
		}
	}
	return false
}

// compatibleFunc reports whether function types a and b are compatible;
// an unprototyped one is taken as compatible with any.
func compatibleFunc(a, b cc.Type) bool {
	fa, ok1 := a.(*cc.FunctionType)
	fb, ok2 := b.(*cc.FunctionType)
	if !ok1 || !ok2 || fa.MaxArgs() < 0 || fb.MaxArgs() < 0 {
		return true
	}
	return a.IsCompatible(b) || b.IsCompatible(a)
}

// calleeType returns the function type a call through e calls (nil when
// e is not a function or a pointer to one).
func calleeType(e cc.ExpressionNode) cc.Type {
	t := e.Type()
	if t == nil {
		return nil
	}
	if t.Kind() == cc.Ptr {
		t = t.(*cc.PointerType).Elem()
	}
	if t == nil || t.Kind() != cc.Function {
		return nil
	}
	return t
}

// reach computes what a run of the translation unit can reach, from main.
// It needs l.defs.
func (l *lowerer) reach(ast *cc.AST) *reachInfo {
	inits := map[string][]cc.Node{} // file-scope object → its initialisers
	for ed := ast.TranslationUnit; ed != nil; ed = ed.TranslationUnit {
		ext := ed.ExternalDeclaration
		if ext == nil || ext.Case != cc.ExternalDeclarationDecl || ext.Declaration == nil {
			continue
		}
		for list := ext.Declaration.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
			id := list.InitDeclarator
			if id != nil && id.Declarator != nil && id.Case == cc.InitDeclaratorInit {
				name := id.Declarator.Name()
				inits[name] = append(inits[name], id.Initializer)
			}
		}
	}
	r := &reachInfo{funcs: map[string]bool{}, objs: map[string]bool{}, ftypes: map[string]cc.Type{}}
	for name, fd := range l.defs {
		r.ftypes[name] = fd.Declarator.Type()
	}
	initFuncs := map[string]bool{} // functions named in initialisers of used objects
	var work []string              // reachable functions not yet walked
	addFunc := func(name string) {
		if !r.funcs[name] {
			r.funcs[name] = true
			work = append(work, name)
		}
	}
	var addObj func(name string)
	// names records the names n mentions: functions with a body go to fn,
	// other identifiers and declarators are used objects; and the calls
	// through pointers.
	names := func(n cc.Node, fn func(string)) {
		walkNodes(n, func(m cc.Node) bool {
			switch x := m.(type) {
			case *cc.PrimaryExpression:
				if x.Case == cc.PrimaryExpressionIdent {
					name := x.Token.SrcStr()
					if d, ok := x.ResolvedTo().(*cc.Declarator); ok && d.Type() != nil && d.Type().Kind() == cc.Function && r.ftypes[name] == nil {
						r.ftypes[name] = d.Type()
					}
					if l.defs[name] != nil {
						fn(name)
					} else {
						addObj(name)
						if m, _ := l.libModelOf(name); m != "" {
							fn(m) // its calls may go to the model (libmodel.go)
						}
					}
				}
			case *cc.Declarator:
				addObj(x.Name())
			case *cc.PostfixExpression:
				if x.Case != cc.PostfixExpressionCall {
					break
				}
				name, direct := directName(x.PostfixExpression)
				if !direct {
					r.ptrCalls = append(r.ptrCalls, calleeType(x.PostfixExpression))
					break
				}
				if l.defs[name] == nil {
					// a function without a body may call the functions
					// passed to it (pthread_create's start routine held in
					// a variable)
					for _, a := range args(x) {
						if _, isName := directName(a); !isName {
							if ct := calleeType(a); ct != nil {
								r.ptrCalls = append(r.ptrCalls, ct)
							}
						}
					}
				}
			}
			return true
		})
	}
	addObj = func(name string) {
		if r.objs[name] {
			return
		}
		r.objs[name] = true
		for _, in := range inits[name] {
			names(in, func(f string) { initFuncs[f] = true })
		}
	}
	addFunc("main")
	for len(work) > 0 {
		for len(work) > 0 {
			f := work[len(work)-1]
			work = work[:len(work)-1]
			names(l.defs[f], addFunc)
		}
		for _, f := range slices.Sorted(maps.Keys(initFuncs)) {
			if !r.funcs[f] && r.mayCall(f) {
				addFunc(f)
			}
		}
	}
	return r
}

// prune removes from p the globals, functions and struct types that the
// lowered program no longer names, from main: a name reach kept can lose
// its last use in lowering (a condition variable whose signal has no
// effect in the model, `(void)f;`), and printing the program and lowering
// it again must give the same program. The functions named by the
// initialisers of the globals kept are kept (reach lowered them or made
// them stubs). A global no instruction and no used initialiser names cannot be
// read or written by a run, nor can a function no reachable body names be
// called.
func prune(p *program.Program) {
	funcs := map[string]*program.Func{}
	for _, f := range p.Funcs {
		funcs[f.Name] = f
	}
	globals := map[string]*program.Var{}
	for _, g := range p.Globals {
		globals[g.Name] = g
	}
	keptF := map[string]bool{}
	keptG := map[string]bool{}
	var work []*program.Func
	addFunc := func(name string) {
		if f := funcs[name]; f != nil && !keptF[name] {
			keptF[name] = true
			work = append(work, f)
		}
	}
	var names func(e program.Expr, fn func(string))
	addGlobal := func(name string) {
		if g := globals[name]; g != nil && !keptG[name] {
			keptG[name] = true
			names(g.Init, addFunc) // lowered or a stub: kept
		}
	}
	names = func(e program.Expr, fn func(string)) {
		program.Walk(e, func(x program.Expr) bool {
			switch x := x.(type) {
			case *program.Ref:
				if !x.Local {
					addGlobal(x.Name)
				}
			case *program.FuncRef:
				fn(x.Name)
			}
			return true
		})
	}
	addFunc("main")
	for len(work) > 0 {
		for len(work) > 0 {
			f := work[len(work)-1]
			work = work[:len(work)-1]
			for _, in := range f.Body {
				for _, e := range in.Operands() {
					names(e, addFunc)
				}
			}
		}
	}
	p.Funcs = slices.DeleteFunc(p.Funcs, func(f *program.Func) bool { return !keptF[f.Name] })
	p.Globals = slices.DeleteFunc(p.Globals, func(g *program.Var) bool { return !keptG[g.Name] })
	// struct and union types: those the rest of the program mentions
	used := map[*program.Type]bool{}
	var visit func(t *program.Type)
	visit = func(t *program.Type) {
		if t == nil || used[t] {
			return
		}
		used[t] = true
		visit(t.Elem)
		for _, q := range t.Params {
			visit(q)
		}
		for _, fd := range t.Fields {
			visit(fd.Type)
		}
	}
	expr := func(e program.Expr) {
		program.Walk(e, func(x program.Expr) bool {
			visit(x.Type())
			return true
		})
	}
	for _, g := range p.Globals {
		visit(g.Type)
		expr(g.Init)
	}
	for _, f := range p.Funcs {
		visit(f.Result)
		for _, v := range f.Params {
			visit(v.Type)
		}
		for _, v := range f.Locals {
			visit(v.Type)
		}
		for _, in := range f.Body {
			for _, e := range in.Operands() {
				expr(e)
			}
		}
	}
	p.Types = slices.DeleteFunc(p.Types, func(t *program.Type) bool { return !used[t] })
}

// stubRef designates function name, which no run calls: a stub of its
// signature whose body is assume(0) (a run that got there would not be a
// run of the model; none does, by reach's rules). A function without a
// body that a reachable call through a pointer may call is rejected.
func (l *lowerer) stubRef(name string, n cc.Node) program.Expr {
	ct := l.reached.ftypes[name]
	if ct == nil {
		l.fail(n, "function %s used as a value, of unknown type", name)
	}
	if l.defs[name] == nil && l.reached.mayCall(name) {
		l.fail(n, "function %s without a body may be called through a pointer: its effects are not known; give it a body", name)
	}
	t := l.funcType(n, ct)
	if l.stubs == nil {
		l.stubs = map[string]bool{}
	}
	if !l.stubs[name] {
		l.stubs[name] = true
		l.globalNames[name] = true
		f := &program.Func{Name: name, Result: t.Elem, Pos: toPos(n.Position())}
		if fd := l.defs[name]; fd != nil {
			f.Pos = toPos(fd.Declarator.Position())
		}
		fl := newFuncLowerer(l, f)
		var params []*cc.Parameter
		if ft, ok := ct.(*cc.FunctionType); ok {
			params = ft.Parameters()
		}
		k := 0
		for _, p := range params {
			if p.Type().Kind() == cc.Void {
				continue
			}
			pname := p.Name()
			if pname == "" {
				pname = fmt.Sprintf("arg%d", k)
			}
			v := &program.Var{Name: l.uniqueName(pname, fl.localNames), Type: t.Params[k], Pos: f.Pos}
			fl.localNames[v.Name] = true
			f.Params = append(f.Params, v)
			k++
		}
		in := fl.newInstr(program.OpAssume)
		in.Rhs = program.IntConst(program.IntT, 0)
		in.Msg = "no run calls " + name
		in.Pos = f.Pos
		fl.body = append(fl.body, in)
		l.prog.Funcs = append(l.prog.Funcs, fl.finish())
		l.log.Debug("function named but never called: a stub", "function", name)
	}
	return &program.FuncRef{Name: name, T: t}
}

// funcType converts the type of a function; a variadic function with a
// body that never reads its variable arguments has the type of its fixed
// parameters (calls evaluate and drop the others: call.go).
func (l *lowerer) funcType(n cc.Node, ct cc.Type) *program.Type {
	t := l.typ(n, ct)
	if t.Variadic {
		c := *t
		c.Variadic = false
		t = &c
	}
	return t
}

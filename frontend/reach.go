package frontend

import (
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
//     when a reachable body calls through a pointer (the only way such a
//     function can run).
//
// Names are compared as strings: a local that shadows a file-scope name
// makes that name used, which only keeps more. Everything else (types,
// typedefs, prototypes, tag declarations) is lowered on demand when reached
// code uses it, as before.

// reachInfo is the result: the functions with a body that a run can call
// and the file-scope objects it can use, by C name.
type reachInfo struct {
	funcs map[string]bool
	objs  map[string]bool
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
	r := &reachInfo{funcs: map[string]bool{}, objs: map[string]bool{}}
	initFuncs := map[string]bool{} // functions named in initialisers of used objects
	ptrCalls := false
	var work []string // reachable functions not yet walked
	addFunc := func(name string) {
		if !r.funcs[name] {
			r.funcs[name] = true
			work = append(work, name)
		}
	}
	var addObj func(name string)
	// names records the names n mentions: functions with a body go to fn,
	// other identifiers and declarators are used objects.
	names := func(n cc.Node, fn func(string)) {
		walkNodes(n, func(m cc.Node) bool {
			switch x := m.(type) {
			case *cc.PrimaryExpression:
				if x.Case == cc.PrimaryExpressionIdent {
					name := x.Token.SrcStr()
					if l.defs[name] != nil {
						fn(name)
					} else {
						addObj(name)
					}
				}
			case *cc.Declarator:
				addObj(x.Name())
			case *cc.PostfixExpression:
				if x.Case == cc.PostfixExpressionCall {
					if _, direct := directName(x.PostfixExpression); !direct {
						ptrCalls = true
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
		if ptrCalls {
			for _, f := range slices.Sorted(maps.Keys(initFuncs)) {
				addFunc(f)
			}
		}
	}
	return r
}

// prune removes from p the globals, functions and struct types that the
// lowered program no longer names, by the rules of reach applied to the
// program itself: a name reach kept can lose its last use in lowering (a
// condition variable whose signal has no effect in the model, `(void)f;`),
// and printing the program and lowering it again must give the same
// program. A global no instruction and no used initialiser names cannot be
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
	initFuncs := map[string]bool{}
	ptrCalls := false
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
			names(g.Init, func(f string) { initFuncs[f] = true })
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
				if in.Op == program.OpCall {
					if _, ok := in.Func.(*program.FuncRef); !ok {
						ptrCalls = true
					}
				}
				for _, e := range in.Operands() {
					names(e, addFunc)
				}
			}
		}
		if ptrCalls {
			for _, f := range slices.Sorted(maps.Keys(initFuncs)) {
				addFunc(f)
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

package frontend

import (
	"sort"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Thread-local variables (__thread, _Thread_local).
//
// Each thread has its own copy of a thread-local variable, initialised
// with the variable's initializer when the thread starts. The program
// model has no thread-local storage, so the copy lives in the thread's
// first frame and is handed down the calls:
//
//   - the roots are main and every function named as the start routine of
//     a pthread_create; a root that uses a thread-local variable x
//     (directly or through the functions it calls) declares a local copy
//     of x, initialised on entry, and refers to it;
//   - every other function that uses x (directly or through its callees)
//     gets a hidden last parameter `T *__tls_x` and refers to *__tls_x;
//     its callers pass the address of their copy or their own parameter.
//
// This is exact when every use of a function is a direct call or a
// start routine of pthread_create (roots are never called directly): the
// calls a thread makes then all descend from its root, so they all see
// that thread's copy. Programs where a function is otherwise used as a
// value, or a root is also called directly, are Unsupported.

// tlsVar is a thread-local variable of the program.
type tlsVar struct {
	name string
	decl *cc.Declarator
	init *cc.Initializer
	typ  *program.Type
}

// tlsInfo is the analysis of a program's thread-local variables.
type tlsInfo struct {
	vars  map[string]*tlsVar
	uses  map[string][]string // function (C name) → thread-local variables it uses, transitively, sorted
	roots map[string]bool
}

// threadLocalDecl records a file-scope thread-local declaration.
func (l *lowerer) threadLocalDecl(dd *cc.Declarator, init *cc.Initializer) {
	if l.tls == nil {
		l.tls = &tlsInfo{vars: map[string]*tlsVar{}}
	}
	name := dd.Name()
	v := l.tls.vars[name]
	if v == nil {
		v = &tlsVar{name: name, decl: dd}
		l.tls.vars[name] = v
	}
	if init != nil {
		v.init = init
	}
	v.typ = l.typ(dd, dd.Type())
}

// isThreadLocalRef reports whether d is a file-scope thread-local variable.
func (l *lowerer) isThreadLocalRef(d *cc.Declarator) bool {
	return l.tls != nil && d != nil && d.IsThreadLocal() && l.tls.vars[d.Name()] != nil
}

// analyzeTLS computes which functions use which thread-local variables and
// checks the conditions of the model.
func (l *lowerer) analyzeTLS() {
	ti := l.tls
	if ti == nil {
		return
	}
	direct := map[string]map[string]bool{} // function → thread-local variables used
	calls := map[string]map[string]bool{}  // function → functions with a body it calls
	ti.roots = map[string]bool{"main": true}
	calledDirectly := map[string]cc.Node{}
	var valueUse cc.Node
	for _, fname := range l.defOrder {
		fd := l.defs[fname]
		direct[fname] = map[string]bool{}
		calls[fname] = map[string]bool{}
		callees := map[*cc.PrimaryExpression]bool{} // identifiers used as callee or start routine
		walkNodes(fd.CompoundStatement, func(n cc.Node) bool {
			x, ok := n.(*cc.PostfixExpression)
			if !ok || x.Case != cc.PostfixExpressionCall {
				return true
			}
			name, ok := directName(x.PostfixExpression)
			if !ok {
				return true
			}
			if p, _ := identDecl(x.PostfixExpression); p != nil {
				callees[p] = true
			}
			if l.defs[name] != nil {
				calls[fname][name] = true
				calledDirectly[name] = x
			}
			if name == "pthread_create" && l.defs[name] == nil {
				if as := args(x); len(as) == 4 {
					a := strip(as[2])
					if u, ok := a.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
						a = strip(u.CastExpression)
					}
					if p, _ := a.(*cc.PrimaryExpression); p != nil && p.Case == cc.PrimaryExpressionIdent && l.defs[p.Token.SrcStr()] != nil {
						callees[p] = true
						ti.roots[p.Token.SrcStr()] = true
					}
				}
			}
			return true
		})
		walkNodes(fd.CompoundStatement, func(n cc.Node) bool {
			p, ok := n.(*cc.PrimaryExpression)
			if !ok || p.Case != cc.PrimaryExpressionIdent {
				return true
			}
			d, _ := p.ResolvedTo().(*cc.Declarator)
			if l.isThreadLocalRef(d) {
				direct[fname][d.Name()] = true
			} else if l.defs[p.Token.SrcStr()] != nil && !callees[p] && (d == nil || d.Type().Kind() == cc.Function) && valueUse == nil {
				valueUse = p
			}
			return true
		})
	}
	// transitive uses
	ti.uses = map[string][]string{}
	used := map[string]map[string]bool{}
	for f := range direct {
		used[f] = map[string]bool{}
		for x := range direct[f] {
			used[f][x] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for f := range calls {
			for g := range calls[f] {
				for x := range used[g] {
					if !used[f][x] {
						used[f][x] = true
						changed = true
					}
				}
			}
		}
	}
	some := false
	for _, f := range l.defOrder {
		xs := used[f]
		if len(xs) == 0 {
			continue
		}
		some = true
		var names []string
		for x := range xs {
			names = append(names, x)
		}
		sort.Strings(names)
		ti.uses[f] = names
	}
	if !some {
		return
	}
	if valueUse != nil {
		l.fail(valueUse, "thread-local variable in a program that uses the function %s as a value (the thread of a call through a pointer is not known)", valueUse.(*cc.PrimaryExpression).Token.SrcStr())
	}
	for _, r := range l.defOrder {
		if n := calledDirectly[r]; ti.roots[r] && n != nil && len(ti.uses[r]) > 0 {
			l.fail(n, "thread-local variable used by %s, which is both a thread's start routine (or main) and called directly", r)
		}
	}
}

// tlsParamTypes returns the types of the hidden parameters of function f.
func (l *lowerer) tlsParamTypes(f string) []*program.Type {
	if l.tls == nil || l.tls.roots[f] {
		return nil
	}
	var out []*program.Type
	for _, x := range l.tls.uses[f] {
		out = append(out, l.ptrTo(l.tls.vars[x].typ))
	}
	return out
}

// tlsSetup gives the function being lowered access to its thread-local
// variables: local copies in a root, hidden parameters elsewhere.
func (fl *funcLowerer) tlsSetup() {
	l := fl.l
	if l.tls == nil || len(l.tls.uses[fl.cname]) == 0 {
		return
	}
	fl.tlsExpr = map[string]program.Expr{}
	fl.tlsAddr = map[string]program.Expr{}
	fl.cur = fl.f.Pos
	for _, x := range l.tls.uses[fl.cname] {
		tv := l.tls.vars[x]
		if l.tls.roots[fl.cname] {
			v := &program.Var{Name: l.uniqueName(x, fl.localNames), Type: tv.typ, Pos: toPos(tv.decl.Position())}
			fl.localNames[v.Name] = true
			fl.declLocal(v)
			ref := &program.Ref{Name: v.Name, Local: true, T: v.Type}
			var init program.Expr
			if tv.init != nil {
				init = l.constInit(tv.typ, tv.init)
			}
			fl.assignCompound(ref, init)
			fl.tlsExpr[x] = ref
			fl.tlsAddr[x] = &program.AddrOf{X: ref, T: l.ptrTo(v.Type)}
			continue
		}
		pt := l.ptrTo(tv.typ)
		v := &program.Var{Name: l.uniqueName("__tls_"+x, fl.localNames), Type: pt, Temp: true, Pos: toPos(tv.decl.Position())}
		fl.localNames[v.Name] = true
		fl.f.Params = append(fl.f.Params, v)
		ref := &program.Ref{Name: v.Name, Local: true, T: pt}
		fl.tlsExpr[x] = &program.Deref{X: ref, T: tv.typ}
		fl.tlsAddr[x] = ref
	}
}

// tlsArgs returns the hidden arguments of a call of the function f.
func (fl *funcLowerer) tlsArgs(n cc.Node, f string) []program.Expr {
	l := fl.l
	if l.tls == nil || l.tls.roots[f] {
		return nil
	}
	var out []program.Expr
	for _, x := range l.tls.uses[f] {
		a := fl.tlsAddr[x]
		if a == nil {
			l.fail(n, "thread-local variable %s not available in %s", x, fl.cname)
		}
		if ad, ok := a.(*program.AddrOf); ok {
			fl.markAddr(ad.X)
		}
		out = append(out, a)
	}
	return out
}

// tlsRef returns the expression for a use of the thread-local variable d.
func (fl *funcLowerer) tlsRef(d *cc.Declarator, n cc.Node) program.Expr {
	e := fl.tlsExpr[d.Name()]
	if e == nil {
		fl.l.fail(n, "thread-local variable %s used outside a function", d.Name())
	}
	return e
}

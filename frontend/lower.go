package frontend

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"modernc.org/token"

	"github.com/hashicorp/go-hclog"
	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// lowerer holds the state of one translation unit.
type lowerer struct {
	unionUses map[*program.Type][]unionUse        // union.go
	opaque    map[*program.Type]map[string]string // opaque members by struct type and name: why (opaque.go)

	file  string
	model program.DataModel
	log   hclog.Logger
	ast   *cc.AST
	prog  *program.Program
	pos   program.Pos // position of the construct being lowered, for errors

	structs     map[structKey]*program.Type
	structOrder []*program.Type
	tags        map[string]bool
	anon        int

	globals     map[string]*program.Var // by C name (file scope)
	staticVars  map[*cc.Declarator]*program.Var
	staticInit  map[*cc.Declarator]staticDecl
	externs     map[string]*cc.Declarator
	globalNames map[string]bool // names of globals and functions in the output

	defs      map[string]*cc.FunctionDefinition // functions with a body, by C name
	defOrder  []string
	funcNames map[string]string // C name -> program name for functions with a body
	logged    map[string]bool
	strings   map[string]*program.Var
	fptrCalls bool
	tls       *tlsInfo        // thread-local variables (tls.go), nil if none
	enums     enumInfo        // enum.go
	reached   *reachInfo      // what a run can reach (reach.go)
	stubs     map[string]bool // functions lowered as stubs (reach.go)
	pt        *pthreadModel   // pthread.go, nil until a model type is used

	mallocMayFail bool // Options.MallocMayFail
}

func newLowerer(file string, model program.DataModel, log hclog.Logger) *lowerer {
	return &lowerer{
		file: file, model: model, log: log,
		structs: map[structKey]*program.Type{}, tags: maps.Clone(printedHeaderTags),
		globals: map[string]*program.Var{}, staticVars: map[*cc.Declarator]*program.Var{}, staticInit: map[*cc.Declarator]staticDecl{}, externs: map[string]*cc.Declarator{},
		globalNames: map[string]bool{}, defs: map[string]*cc.FunctionDefinition{},
		funcNames: map[string]string{}, logged: map[string]bool{}, strings: map[string]*program.Var{},
	}
}

// printedHeaderTags are the struct and union tags that the headers a
// printed program includes (program.Print: glibc's pthread.h, assert.h,
// stdlib.h, in both data models) define: a program's struct of such a tag
// (struct timeval of a preprocessed file) is renamed (timeval_2), so that
// the printed C compiles. struct timespec is not among them: the printer
// leaves its definition to the header (program.headerStructs).
var printedHeaderTags = map[string]bool{
	"__cancel_jmp_buf_tag": true, "__jmp_buf_tag": true, "__locale_data": true, "__locale_struct": true,
	"__pthread_cleanup_frame": true, "__pthread_cond_s": true, "__pthread_internal_list": true,
	"__pthread_internal_slist": true, "__pthread_mutex_s": true, "__pthread_rwlock_arch_t": true,
	"_pthread_cleanup_buffer": true, "drand48_data": true, "itimerspec": true, "pthread_attr_t": true,
	"random_data": true, "sched_param": true, "sigevent": true, "timeval": true, "tm": true,
}

func toPos(p token.Position) program.Pos {
	return program.Pos{File: p.Filename, Line: p.Line}
}

// fail aborts the lowering with an Unsupported error at n.
func (l *lowerer) fail(n cc.Node, format string, args ...any) {
	pos := l.pos
	if n != nil {
		if p := n.Position(); p.IsValid() {
			pos = toPos(p)
		}
	}
	panic(bailout{&program.Error{Kind: program.Unsupported, Pos: pos, Err: fmt.Errorf(format, args...)}})
}

func (l *lowerer) setPos(n cc.Node) {
	if n == nil {
		return
	}
	if p := n.Position(); p.IsValid() {
		l.pos = toPos(p)
	}
}

func (l *lowerer) debugOnce(key, msg string, args ...any) {
	if l.logged[key] {
		return
	}
	l.logged[key] = true
	l.log.Debug(msg, args...)
}

// builtinBodies are functions whose user definitions are not lowered: the
// front end gives calls to them their SV-COMP meaning.
func builtinName(name string) bool {
	switch name {
	case "__VERIFIER_error", "reach_error", "__VERIFIER_assume", "__assert_fail", "assert",
		"abort", "exit", "malloc", "calloc", "realloc", "alloca", "free", program.ReallocFunc:
		return true
	}
	return strings.HasPrefix(name, "__VERIFIER_nondet_") || strings.HasPrefix(name, "pthread_")
}

func (l *lowerer) run(ast *cc.AST) (*program.Program, error) {
	l.ast = ast
	l.prog = &program.Program{File: l.file, Model: l.model}
	l.checkEnums(ast)
	// Collect function definitions and global names first.
	for ed := ast.TranslationUnit; ed != nil; ed = ed.TranslationUnit {
		ext := ed.ExternalDeclaration
		if ext == nil {
			continue
		}
		switch ext.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ext.FunctionDefinition
			name := fd.Declarator.Name()
			if builtinName(name) {
				continue
			}
			if _, dup := l.defs[name]; !dup {
				l.defOrder = append(l.defOrder, name)
			}
			l.defs[name] = fd
		case cc.ExternalDeclarationAsmStmt:
			l.fail(ext, "inline assembly")
		}
	}
	for _, name := range l.defOrder {
		pname := name
		if name == "__VERIFIER_atomic_begin" || name == "__VERIFIER_atomic_end" {
			pname = name + "_user"
		}
		l.funcNames[name] = pname
		l.globalNames[pname] = true
	}
	if _, ok := l.defs["main"]; !ok {
		l.fail(nil, "no definition of main")
	}
	// Only what a run can reach is lowered (reach.go).
	l.reached = l.reach(ast)
	var dropped []string
	l.defOrder = slices.DeleteFunc(l.defOrder, func(name string) bool {
		if !l.reached.funcs[name] {
			dropped = append(dropped, name)
			return true
		}
		return false
	})
	if len(dropped) > 0 {
		l.log.Debug("functions no run can call are not lowered", "count", len(dropped), "functions", dropped)
	}
	l.checkAtomics(ast)
	// Globals, in declaration order.
	for ed := ast.TranslationUnit; ed != nil; ed = ed.TranslationUnit {
		ext := ed.ExternalDeclaration
		if ext == nil || ext.Case != cc.ExternalDeclarationDecl {
			continue
		}
		l.globalDecl(ext.Declaration)
	}
	l.analyzeTLS()
	// Functions.
	for _, name := range l.defOrder {
		f := l.function(l.defs[name])
		l.prog.Funcs = append(l.prog.Funcs, f)
	}
	l.prog.Types = orderTypes(l.structOrder)
	prune(l.prog)
	return l.prog, nil
}

// globalDecl lowers a file-scope declaration.
func (l *lowerer) globalDecl(d *cc.Declaration) {
	if d == nil || d.Case != cc.DeclarationDecl {
		return
	}
	l.setPos(d)
	for list := d.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
		id := list.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		dd := id.Declarator
		if dd.IsTypename() {
			continue
		}
		t := dd.Type()
		if t.Kind() == cc.Function {
			continue
		}
		var init *cc.Initializer
		if id.Case == cc.InitDeclaratorInit {
			init = id.Initializer
		}
		if !l.reached.objs[dd.Name()] {
			continue // no reachable code names it (reach.go)
		}
		if dd.IsThreadLocal() {
			l.threadLocalDecl(dd, init)
			continue
		}
		if dd.IsExtern() && init == nil && l.globals[dd.Name()] == nil {
			// Declared only: created when used.
			if l.externs[dd.Name()] == nil {
				l.externs[dd.Name()] = dd
			}
			continue
		}
		l.global(dd, dd.Name(), init)
	}
}

// global declares (or completes) the global named name.
func (l *lowerer) global(dd *cc.Declarator, name string, init *cc.Initializer) *program.Var {
	l.setPos(dd)
	if dd.IsThreadLocal() {
		l.fail(dd, "thread-local variable %s", name)
	}
	t := l.typ(dd, dd.Type())
	v := l.globals[name]
	if v == nil {
		v = &program.Var{Name: name, Type: t, Pos: toPos(dd.Position())}
		l.globals[name] = v
		l.globalNames[name] = true
		l.prog.Globals = append(l.prog.Globals, v)
	} else if v.Type.Kind == program.Array && t.Kind == program.Array && t.Len > v.Type.Len {
		v.Type = t
	}
	if init != nil {
		v.Init = l.constInit(t, init)
		if v.Type.Kind == program.Array && v.Type.Len == 0 {
			v.Type = t
		}
	}
	return v
}

// constInit lowers the initializer of a static object.
func (l *lowerer) constInit(t *program.Type, in *cc.Initializer) program.Expr {
	l.setPos(in)
	if l.isPthreadModel(t) {
		return l.pthreadInit(t, in)
	}
	if t.Kind == program.Mutex || t.Kind == program.Cond {
		if !l.allZero(in) {
			l.fail(in, "non-zero initializer of a %s", t)
		}
		return &program.Const{T: t, V: 0}
	}
	switch in.Case {
	case cc.InitializerExpr:
		e := in.AssignmentExpression
		if t.Kind == program.Array {
			if s, ok := stringLit(e); ok && t.Elem.IsInteger() && t.Elem.Size == 1 {
				return stringCompound(t, s)
			}
			l.fail(in, "array initialised with an expression")
		}
		if t.Kind == program.Struct || t.Kind == program.Union {
			l.fail(in, "struct initialised with an expression")
		}
		return l.constExpr(t, e)
	case cc.InitializerInitList:
		switch t.Kind {
		case program.Array, program.Struct, program.Union:
			return l.compound(t, in.InitializerList, true, nil)
		}
		// scalar in braces
		if il := in.InitializerList; il != nil && il.Initializer != nil {
			return l.constInit(t, il.Initializer)
		}
		return zero(t)
	}
	l.fail(in, "initializer")
	return nil
}

func stringLit(e cc.ExpressionNode) (string, bool) {
	if v, ok := e.Value().(cc.StringValue); ok {
		if p, ok := e.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionString {
			return string(v), true
		}
	}
	return "", false
}

func stringCompound(t *program.Type, s string) program.Expr {
	c := &program.Compound{T: t}
	for i := 0; i < len(s) && int64(i) < t.Len; i++ {
		if s[i] == 0 {
			break
		}
		c.Elems = append(c.Elems, program.IntConst(t.Elem, int64(s[i])))
	}
	return c
}

func (l *lowerer) allZero(in *cc.Initializer) bool {
	switch in.Case {
	case cc.InitializerExpr:
		k, ok := l.constInt(in.AssignmentExpression)
		return ok && k == 0
	case cc.InitializerInitList:
		for il := in.InitializerList; il != nil; il = il.InitializerList {
			if il.Initializer != nil && !l.allZero(il.Initializer) {
				return false
			}
		}
		return true
	}
	return false
}

// zero returns the zero value of t as an initializer expression.
func zero(t *program.Type) program.Expr {
	switch t.Kind {
	case program.Array, program.Struct, program.Union:
		return &program.Compound{T: t}
	}
	return &program.Const{T: t, V: 0}
}

func intValue(v cc.Value) (int64, bool) {
	switch v := v.(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

// constExpr lowers a constant expression of a static initializer: an
// integer constant or an address constant.
func (l *lowerer) constExpr(t *program.Type, e cc.ExpressionNode) program.Expr {
	if t.IsInteger() || t.Kind == program.Mutex || t.Kind == program.Cond {
		if k, ok := l.constInt(e); ok && cc.IsIntegerType(e.Type()) {
			return program.IntConst(t, k)
		}
		if t.IsInteger() && e.Type().Kind() == cc.Ptr {
			l.fail(e, "pointer value in an integer initializer")
		}
	}
	// General case: lower the expression in a scratch function and require
	// a pure, constant result.
	fl := newFuncLowerer(l, nil)
	x := fl.rval(e)
	if len(fl.body) > 0 {
		l.fail(e, "non-constant initializer")
	}
	x = fl.convert(x, t, true)
	ok := true
	program.Walk(x, func(s program.Expr) bool {
		switch s := s.(type) {
		case *program.Ref:
			ok = false
		case *program.Nondet:
			ok = false
		case *program.AddrOf:
			if !constAddr(s.X) {
				ok = false
			}
			return false
		}
		return ok
	})
	if !ok {
		l.fail(e, "non-constant initializer")
	}
	return x
}

// constAddr reports whether lv designates a static object at a constant
// offset.
func constAddr(lv program.Expr) bool {
	switch lv := lv.(type) {
	case *program.Ref:
		return !lv.Local
	case *program.Index:
		_, ok := lv.I.(*program.Const)
		return ok && constAddr(lv.X)
	case *program.FieldSel:
		return constAddr(lv.X)
	case *program.FuncRef:
		return true
	}
	return false
}

// uniqueName returns name, or name_<n>, avoiding taken and the global names.
func (l *lowerer) uniqueName(name string, taken map[string]bool) string {
	cand := name
	for i := 1; taken[cand] || l.globalNames[cand] || l.defs[cand] != nil || (i == 1 && reservedName(cand)); i++ {
		cand = fmt.Sprintf("%s_%d", name, i)
	}
	return cand
}

func reservedName(n string) bool {
	switch n {
	case "assert", "main", "malloc", "free", "reach_error":
		return true
	}
	return strings.HasPrefix(n, "__VERIFIER_") || strings.HasPrefix(n, "pthread_")
}

// sortedKeys is a helper for deterministic iteration.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

type staticDecl struct {
	fn   string
	init *cc.Initializer
}

// staticVar returns the global of a static local, creating it on first use.
func (l *lowerer) staticVar(dd *cc.Declarator) *program.Var {
	if v := l.staticVars[dd]; v != nil {
		return v
	}
	sd, ok := l.staticInit[dd]
	if !ok {
		return nil
	}
	name := l.uniqueName(sd.fn+"$"+dd.Name(), nil)
	v := l.global(dd, name, sd.init)
	l.staticVars[dd] = v
	return v
}

package program

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// LineMap maps a 1-based line of Print's output to the label of the
// instruction printed on it.
type LineMap map[int]Label

// Lines returns the lines of m in increasing order.
func (m LineMap) Lines() []int {
	out := make([]int, 0, len(m))
	for line := range m {
		out = append(out, line)
	}
	sort.Ints(out)
	return out
}

// Print writes p as one C translation unit in the SV-COMP dialect (see
// docs/conventions.md, "Printing"), one instruction per line, and returns
// the line of every instruction. The output is deterministic.
//
// Order: header comment, includes, prototypes of the __VERIFIER_* functions
// used, typedefs of integer type names that the headers do not define,
// struct/union forward declarations and definitions (p.Types order),
// prototypes of all functions (before the globals, so that a global may be
// initialised with a function's address), globals, function bodies.
func Print(w io.Writer, p *Program) (LineMap, error) {
	pr := &printer{p: p, lines: LineMap{}, labels: map[Label]string{}}
	if err := pr.program(); err != nil {
		return nil, err
	}
	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(pr.b.String()); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return pr.lines, nil
}

type printer struct {
	p      *Program
	b      strings.Builder
	line   int // lines written so far
	lines  LineMap
	labels map[Label]string // label -> C goto label
}

func (pr *printer) emit(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	pr.b.WriteString(s)
	pr.b.WriteByte('\n')
	pr.line += 1 + strings.Count(s, "\n")
}

// headerTypedefs are integer type names defined by the included headers
// (pthread.h, assert.h, stdlib.h with glibc); any other Int type Name gets a
// typedef of its own.
var headerTypedefs = map[string]bool{
	"pthread_t": true, "pthread_key_t": true, "pthread_once_t": true, "pthread_spinlock_t": true,
	"size_t": true, "ssize_t": true, "wchar_t": true, "pid_t": true, "off_t": true, "uid_t": true, "gid_t": true,
	"int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true,
	"u_int8_t": true, "u_int16_t": true, "u_int32_t": true, "u_int64_t": true,
	"clockid_t": true, "time_t": true, "clock_t": true, "mode_t": true, "dev_t": true, "ino_t": true,
	"register_t": true, "key_t": true, "useconds_t": true, "suseconds_t": true, "id_t": true, "nlink_t": true,
	"blksize_t": true, "blkcnt_t": true, "fsblkcnt_t": true, "fsfilcnt_t": true,
	"u_char": true, "u_short": true, "u_int": true, "u_long": true, "ushort": true, "uint": true, "ulong": true,
	"quad_t": true, "u_quad_t": true, "caddr_t": true, "daddr_t": true, "loff_t": true, "fsid_t": true,
}

// headerStructs are struct tags the included headers define (pthread.h
// includes time.h): their definitions are not printed.
var headerStructs = map[string]bool{"timespec": true}

// nondetFuncs gives the return type of each SV-COMP nondet function.
var nondetFuncs = map[string]string{
	"__VERIFIER_nondet_bool":      "_Bool",
	"__VERIFIER_nondet_char":      "char",
	"__VERIFIER_nondet_uchar":     "unsigned char",
	"__VERIFIER_nondet_short":     "short",
	"__VERIFIER_nondet_ushort":    "unsigned short",
	"__VERIFIER_nondet_int":       "int",
	"__VERIFIER_nondet_uint":      "unsigned int",
	"__VERIFIER_nondet_longlong":  "long long",
	"__VERIFIER_nondet_ulonglong": "unsigned long long",
}

// nondetFunc returns the name of the function NondetCall(t) calls and its
// prototype.
func nondetFunc(t *Type) (name, proto string) {
	call := NondetCall(t)
	if strings.HasPrefix(call, "(") {
		// a cast prefix "(T)" or "(T *)": skip to its closing parenthesis
		depth := 0
		for i, c := range call {
			if c == '(' {
				depth++
			} else if c == ')' {
				depth--
				if depth == 0 {
					call = call[i+1:]
					break
				}
			}
		}
	}
	name = strings.TrimSuffix(call, "()")
	switch {
	case name == "__VERIFIER_nondet_pointer":
		return name, "void *__VERIFIER_nondet_pointer(void);"
	case nondetFuncs[name] != "":
		return name, nondetFuncs[name] + " " + name + "(void);"
	}
	return name, TypeDecl(t, name+"(void)") + ";"
}

// label returns the C goto label of l.
func (pr *printer) label(l Label) string {
	return pr.labels[l]
}

// assignLabels gives every instruction a unique C label L_<label> with
// characters outside [A-Za-z0-9_] replaced by '_', in program order.
func (pr *printer) assignLabels() {
	used := map[string]bool{}
	for _, f := range pr.p.Funcs {
		for _, in := range f.Body {
			base := "L_" + sanitize(string(in.Label))
			name := base
			for i := 2; used[name]; i++ {
				name = fmt.Sprintf("%s_%d", base, i)
			}
			used[name] = true
			pr.labels[in.Label] = name
		}
	}
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// allExprs calls f for every expression of p (global initialisers and
// instruction operands).
func allExprs(p *Program, f func(Expr)) {
	for _, g := range p.Globals {
		if g.Init != nil {
			f(g.Init)
		}
	}
	for _, fn := range p.Funcs {
		for _, in := range fn.Body {
			for _, e := range in.Operands() {
				f(e)
			}
		}
	}
}

// typeNames collects the Int type names used anywhere in p (variables,
// fields, expressions), reaching through pointers, arrays and functions.
func typeNames(p *Program) map[string]*Type {
	out := map[string]*Type{}
	seen := map[*Type]bool{}
	var visit func(t *Type)
	visit = func(t *Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind {
		case Int:
			if t.Name != "" {
				if _, ok := out[t.Name]; !ok {
					out[t.Name] = t
				}
			}
		case Pointer, Array:
			visit(t.Elem)
		case Function:
			visit(t.Elem)
			for _, q := range t.Params {
				visit(q)
			}
		case Struct, Union:
			for _, f := range t.Fields {
				visit(f.Type)
			}
		}
	}
	for _, t := range p.Types {
		visit(t)
	}
	for _, g := range p.Globals {
		visit(g.Type)
	}
	for _, f := range p.Funcs {
		visit(f.Result)
		for _, v := range f.Params {
			visit(v.Type)
		}
		for _, v := range f.Locals {
			visit(v.Type)
		}
	}
	allExprs(p, func(e Expr) {
		Walk(e, func(x Expr) bool {
			visit(x.Type())
			return true
		})
	})
	return out
}

func (pr *printer) program() error {
	p := pr.p
	pr.assignLabels()
	defined := map[string]bool{}
	for _, f := range p.Funcs {
		defined[f.Name] = true
	}

	// Which __VERIFIER_* functions are used.
	protos := map[string]string{}
	var perr error
	allExprs(p, func(e Expr) {
		Walk(e, func(x Expr) bool {
			if nd, ok := x.(*Nondet); ok {
				if nd.T.Kind == Array || nd.T.Kind == Void || nd.T.Kind == Function {
					perr = Errorf(Internal, "cannot print a nondet value of type %s", nd.T)
				}
				name, proto := nondetFunc(nd.T)
				protos[name] = proto
			}
			return true
		})
	})
	if perr != nil {
		return perr
	}
	realloc := false
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			realloc = realloc || in.Op == OpRealloc
			switch in.Op {
			case OpAssume, OpRealloc:
				protos["__VERIFIER_assume"] = "void __VERIFIER_assume(int cond);"
			case OpAtomicBegin:
				protos["__VERIFIER_atomic_begin"] = "void __VERIFIER_atomic_begin(void);"
			case OpAtomicEnd:
				protos["__VERIFIER_atomic_end"] = "void __VERIFIER_atomic_end(void);"
			case OpGoto:
				if len(in.Targets) > 1 {
					protos["__VERIFIER_nondet_int"] = nondetFuncs["__VERIFIER_nondet_int"] + " __VERIFIER_nondet_int(void);"
				}
			}
		}
	}

	pr.emit("/* Generated by cegpv (program.Print): one instruction per line. */")
	pr.emit("#include <pthread.h>")
	pr.emit("#include <assert.h>")
	pr.emit("#include <stdlib.h>")
	if len(protos) > 0 {
		pr.emit("")
		for _, name := range sortedKeys(protos) {
			if !defined[name] {
				pr.emit("extern %s", protos[name])
			}
		}
	}
	if realloc {
		pr.emit("")
		pr.emit("/* realloc that does not fail (a failure is a branch of the program's own) */")
		pr.emit("static void *%s(void *p, size_t n) { void *q = realloc(p, n); __VERIFIER_assume(q != 0); return q; }", ReallocFunc)
	}

	// typedefs of integer names the headers do not provide
	names := typeNames(p)
	var tds []string
	for _, n := range sortedKeys(names) {
		if !headerTypedefs[n] {
			t := names[n]
			tds = append(tds, fmt.Sprintf("typedef %s %s;", baseName(IntType(t.Size, t.Signed)), n))
		}
	}
	if len(tds) > 0 {
		pr.emit("")
		for _, s := range tds {
			pr.emit("%s", s)
		}
	}

	if len(p.Types) > 0 {
		pr.emit("")
		for _, t := range p.Types {
			if t.Name == "" || (t.Kind != Struct && t.Kind != Union) {
				return Errorf(Internal, "Program.Types holds a type of kind %d without tag (or not a struct/union)", t.Kind)
			}
			pr.emit("%s;", baseName(t))
		}
		for _, t := range p.Types {
			if t.Kind == Struct && headerStructs[t.Name] {
				continue
			}
			var fs []string
			for _, f := range t.Fields {
				fs = append(fs, TypeDecl(f.Type, f.Name)+";")
			}
			if len(fs) == 0 {
				pr.emit("%s { };", baseName(t))
			} else {
				pr.emit("%s { %s };", baseName(t), strings.Join(fs, " "))
			}
		}
	}

	if len(p.Funcs) > 0 {
		pr.emit("")
		for _, f := range p.Funcs {
			pr.emit("%s;", funcHeader(f))
		}
	}

	if len(p.Globals) > 0 {
		pr.emit("")
		for _, g := range initOrder(p.Globals) {
			s := TypeDecl(g.Type, g.Name)
			if g.Init != nil {
				init, err := initString(g.Init)
				if err != nil {
					return fmt.Errorf("global %s: %w", g.Name, err)
				}
				s += " = " + init
			}
			pr.emit("%s;", s)
		}
	}

	for _, f := range p.Funcs {
		if err := pr.function(f); err != nil {
			return err
		}
	}
	return nil
}

// initOrder returns the globals in their order, except that a global named
// by another's initialiser comes before it (C needs the declaration first:
// a string literal's object, __str_N, is added after the globals that point
// into it). A cycle keeps the order it is entered in.
func initOrder(gs []*Var) []*Var {
	byName := map[string]*Var{}
	for _, g := range gs {
		byName[g.Name] = g
	}
	state := map[string]int{} // 1: visiting, 2: done
	var out []*Var
	var visit func(g *Var)
	visit = func(g *Var) {
		if state[g.Name] != 0 {
			return
		}
		state[g.Name] = 1
		if g.Init != nil {
			Walk(g.Init, func(e Expr) bool {
				if r, ok := e.(*Ref); ok && !r.Local && byName[r.Name] != nil {
					visit(byName[r.Name])
				}
				return true
			})
		}
		state[g.Name] = 2
		out = append(out, g)
	}
	for _, g := range gs {
		visit(g)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// funcHeader returns the C declarator of f with parameter names.
func funcHeader(f *Func) string {
	var ps []string
	for i, v := range f.Params {
		name := v.Name
		if name == "" {
			name = fmt.Sprintf("__param%d", i)
		}
		ps = append(ps, TypeDecl(v.Type, name))
	}
	if len(ps) == 0 {
		ps = []string{"void"}
	}
	res := f.Result
	if res == nil {
		res = VoidType
	}
	base, decl := declParts(res, f.Name+"("+strings.Join(ps, ", ")+")")
	if strings.HasPrefix(decl, "*") && strings.HasSuffix(base, "*") {
		return base + decl
	}
	return base + " " + decl
}

// initString prints a global initialiser; zero mutexes and condition
// variables print as their static initialisers.
func initString(e Expr) (string, error) {
	switch e := e.(type) {
	case *Compound:
		var parts []string
		for _, x := range e.Elems {
			s, err := initString(x)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		if len(parts) == 0 {
			return "{ }", nil
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	case *Const:
		switch e.T.Kind {
		case Mutex:
			if e.V != 0 {
				return "", Errorf(Internal, "cannot print a mutex initialised to %d", e.V)
			}
			return "PTHREAD_MUTEX_INITIALIZER", nil
		case Cond:
			return "PTHREAD_COND_INITIALIZER", nil
		}
	}
	return ExprString(e), nil
}

func (pr *printer) function(f *Func) error {
	targets := map[Label]bool{}
	for _, in := range f.Body {
		if in.Op == OpGoto {
			for _, t := range in.Targets {
				targets[t] = true
			}
		}
	}
	pr.emit("")
	pr.emit("%s", funcHeader(f))
	pr.emit("{")
	for _, in := range f.Body {
		s, err := pr.instr(f, in)
		if err != nil {
			return fmt.Errorf("%s (%s): %w", in.Label, in.Pos, err)
		}
		if in.Op != OpSkip && targets[in.Label] {
			if in.Op == OpDecl {
				s = pr.label(in.Label) + ": ; " + s
			} else {
				s = pr.label(in.Label) + ": " + s
			}
		}
		pr.lines[pr.line+1] = in.Label
		pr.emit("  %s", s)
	}
	pr.emit("}")
	return nil
}

func (pr *printer) instr(f *Func, in *Instr) (string, error) {
	e := ExprString
	need := func(x Expr, what string) error {
		if x == nil {
			return Errorf(Internal, "%s without %s", in.Op, what)
		}
		return nil
	}
	switch in.Op {
	case OpSkip:
		return pr.label(in.Label) + ": ;", nil
	case OpAssign:
		if err := need(in.Lhs, "lhs"); err != nil {
			return "", err
		}
		if err := need(in.Rhs, "rhs"); err != nil {
			return "", err
		}
		if in.Lhs.Type().Kind == Array {
			return "", Errorf(Internal, "cannot print an assignment of an array (%s) in C", ExprString(in.Lhs))
		}
		if k := in.Lhs.Type().Kind; k == Mutex || k == Cond {
			if c, ok := in.Rhs.(*Const); ok {
				if c.V != 0 {
					return "", Errorf(Internal, "cannot print the assignment of %d to a %s", c.V, in.Lhs.Type())
				}
				fn := "pthread_mutex_init"
				if k == Cond {
					fn = "pthread_cond_init"
				}
				return fmt.Sprintf("%s(&%s, 0);", fn, exprAt(in.Lhs, precUnary)), nil
			}
		}
		return e(in.Lhs) + " = " + e(in.Rhs) + ";", nil
	case OpAssume:
		if err := need(in.Rhs, "condition"); err != nil {
			return "", err
		}
		c := in.Rhs
		if c.Type().Kind == Pointer {
			// __VERIFIER_assume takes an int: a pointer converts only
			// with a warning, an error in ESBMC's clang
			c = &Unary{Op: Not, X: &Unary{Op: Not, X: c, T: IntT}, T: IntT}
		}
		return "__VERIFIER_assume(" + e(c) + ");", nil
	case OpAssert:
		if err := need(in.Rhs, "condition"); err != nil {
			return "", err
		}
		return "assert(" + e(in.Rhs) + ");", nil
	case OpGoto:
		if len(in.Targets) == 0 {
			return "", Errorf(Internal, "goto without target")
		}
		var jump string
		if len(in.Targets) == 1 {
			jump = "goto " + pr.label(in.Targets[0]) + ";"
		} else {
			var b strings.Builder
			b.WriteString("switch (__VERIFIER_nondet_int()) {")
			for i, t := range in.Targets {
				if i == len(in.Targets)-1 {
					b.WriteString(" default:")
				} else {
					fmt.Fprintf(&b, " case %d:", i)
				}
				b.WriteString(" goto " + pr.label(t) + ";")
			}
			b.WriteString(" }")
			jump = b.String()
		}
		if in.Rhs != nil {
			return "if (" + e(in.Rhs) + ") " + jump, nil
		}
		return jump, nil
	case OpCall:
		if err := need(in.Func, "callee"); err != nil {
			return "", err
		}
		s := CallString(in.Func, in.Args) + ";"
		if in.Lhs != nil {
			s = e(in.Lhs) + " = " + s
		}
		return s, nil
	case OpReturn:
		if in.Rhs == nil {
			return "return;", nil
		}
		return "return " + e(in.Rhs) + ";", nil
	case OpSpawn:
		if err := need(in.Func, "start function"); err != nil {
			return "", err
		}
		h := "0"
		if in.Lhs != nil {
			h = "&" + exprAt(in.Lhs, precUnary)
		}
		arg := "0"
		if len(in.Args) > 0 {
			arg = exprAt(in.Args[0], precCond)
		}
		return fmt.Sprintf("pthread_create(%s, 0, %s, %s);", h, exprAt(in.Func, precCond), arg), nil
	case OpJoin:
		if err := need(in.Rhs, "thread id"); err != nil {
			return "", err
		}
		res := "0"
		if in.Lhs != nil {
			res = "&" + exprAt(in.Lhs, precUnary)
			if in.Lhs.Type().Elem.Kind != Void {
				res = "(void **)" + res
			}
		}
		return "pthread_join(" + e(in.Rhs) + ", " + res + ");", nil
	case OpLock:
		if err := need(in.Rhs, "mutex"); err != nil {
			return "", err
		}
		return "pthread_mutex_lock(" + e(in.Rhs) + ");", nil
	case OpUnlock:
		if err := need(in.Rhs, "mutex"); err != nil {
			return "", err
		}
		return "pthread_mutex_unlock(" + e(in.Rhs) + ");", nil
	case OpAtomicBegin:
		return "__VERIFIER_atomic_begin();", nil
	case OpAtomicEnd:
		return "__VERIFIER_atomic_end();", nil
	case OpDecl:
		v := f.Var(in.Var)
		if v == nil {
			return "", Errorf(Internal, "decl of unknown local %s", in.Var)
		}
		return TypeDecl(v.Type, v.Name) + ";", nil
	case OpAlloc, OpRealloc:
		if err := need(in.Lhs, "lhs"); err != nil {
			return "", err
		}
		if err := need(in.Rhs, "count"); err != nil {
			return "", err
		}
		pt := in.Lhs.Type()
		if pt.Kind != Pointer {
			return "", Errorf(Internal, "%s into a %s", in.Op, pt)
		}
		if in.Op == OpAlloc {
			return fmt.Sprintf("%s = malloc((%s) * sizeof(%s));", e(in.Lhs), e(in.Rhs), TypeDecl(pt.Elem, "")), nil
		}
		if len(in.Args) != 1 {
			return "", Errorf(Internal, "realloc with %d old pointers", len(in.Args))
		}
		return fmt.Sprintf("%s = %s(%s, (%s) * sizeof(%s));", e(in.Lhs), ReallocFunc, e(in.Args[0]), e(in.Rhs), TypeDecl(pt.Elem, "")), nil
	case OpFree:
		if err := need(in.Rhs, "pointer"); err != nil {
			return "", err
		}
		return "free(" + e(in.Rhs) + ");", nil
	case OpExit:
		if in.Rhs != nil {
			return "pthread_exit(" + exprAt(in.Rhs, precCond) + ");", nil
		}
		return "pthread_exit(0);", nil
	}
	return "", Errorf(Internal, "unknown op %d", in.Op)
}

// exprAt prints e as an operand at precedence prec.
func exprAt(e Expr, prec int) string {
	var b strings.Builder
	writeExpr(&b, e, prec)
	return b.String()
}

// Show writes the readable labelled listing of p used by `cegpv show`:
// struct types, globals with their types and initial values, then for each
// function a header and one line per instruction:
//
//	<label padded>  <Instr.String()>   // <file:line>
func Show(w io.Writer, p *Program) error {
	var b strings.Builder
	model := p.Model
	if model == "" {
		model = ILP32
	}
	fmt.Fprintf(&b, "// program %s (%s)\n", p.File, model)
	if len(p.Types) > 0 {
		b.WriteString("\ntypes:\n")
		for _, t := range p.Types {
			var fs []string
			for _, f := range t.Fields {
				fs = append(fs, TypeDecl(f.Type, f.Name)+";")
			}
			fmt.Fprintf(&b, "  %s { %s }\n", baseName(t), strings.Join(fs, " "))
		}
	}
	b.WriteString("\nglobals:\n")
	if len(p.Globals) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, g := range p.Globals {
		init := "0"
		if g.Init != nil {
			init = ExprString(g.Init)
		} else if !g.Type.IsScalar() {
			init = "{0}"
		}
		extra := ""
		if g.AddrTaken {
			extra = "   // address taken"
		}
		fmt.Fprintf(&b, "  %s = %s%s\n", TypeDecl(g.Type, g.Name), init, extra)
	}
	for _, f := range p.Funcs {
		b.WriteString("\n")
		b.WriteString(funcHeader(f))
		if f.Atomic {
			b.WriteString("   // atomic")
		}
		b.WriteString("\n")
		if len(f.Locals) > 0 {
			var ls []string
			for _, v := range f.Locals {
				ls = append(ls, TypeDecl(v.Type, v.Name))
			}
			fmt.Fprintf(&b, "  locals: %s\n", strings.Join(ls, "; "))
		}
		width := 0
		for _, in := range f.Body {
			if len(in.Label) > width {
				width = len(in.Label)
			}
		}
		for _, in := range f.Body {
			var opaque []string
			for _, e := range in.Operands() {
				opaque = append(opaque, Opaque(e)...)
			}
			extra := ""
			if len(opaque) > 0 {
				extra = " (opaque: " + strings.Join(opaque, ", ") + ")"
			}
			fmt.Fprintf(&b, "  %-*s  %s   // %s%s\n", width, in.Label, in.String(), in.Pos, extra)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

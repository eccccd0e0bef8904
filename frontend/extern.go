package frontend

import (
	"fmt"
	"slices"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Calls of functions without a body ("external" functions).
//
// The model of an external call must contain every behaviour of the real
// function (soundness of SAFE) and say when it contains more (a FALSE that
// depends on such a behaviour may be spurious):
//
//   - Library functions that write memory with a statically known extent
//     are lowered precisely, one function per construct: strcpy, strncpy,
//     memset, memcpy (libWrite), and the scanf family (scanf).
//   - Nondeterministic sources (__VERIFIER_nondet_*, any function whose name
//     contains "nondet", rand, random) return a genuine Nondet.
//   - readOnlyExternals never write program memory; their results are
//     opaque (program.Nondet.Origin is the function's name).
//   - Any other external call that passes a pointer to non-const data, an
//     array, a function or an aggregate is Unsupported: the function may
//     write through it. Other calls are modelled as "returns some value and
//     changes nothing the program can see"; their result is opaque, and a
//     call whose result is not used leaves an opaque marker
//     assume(nondet) (the call may also not return), so that a run through
//     it is recognisable as depending on the external function.
//
// Residual assumption (as CBMC's): an external function does not write the
// program's global variables.

// readOnlyExternals are the library functions that only read through their
// pointer arguments, audited one by one. The value says why; checks that
// depend on the arguments are in readOnlyCall.
var readOnlyExternals = map[string]string{
	"printf":   "writes to stdout only; a %n conversion (a write) is rejected",
	"fprintf":  "writes to the stream only (FILE is opaque to the program); %n rejected",
	"puts":     "writes to stdout only",
	"fputs":    "writes to the stream only",
	"putchar":  "writes to stdout only",
	"fputc":    "writes to the stream only",
	"putc":     "writes to the stream only",
	"perror":   "writes to stderr only",
	"fflush":   "flushes the stream; FILE is opaque to the program",
	"atoi":     "reads its argument",
	"atol":     "reads its argument",
	"atoll":    "reads its argument",
	"strtol":   "reads its argument; the end pointer must be NULL (else it is written)",
	"strtoul":  "reads its argument; the end pointer must be NULL",
	"strtoll":  "reads its argument; the end pointer must be NULL",
	"strtoull": "reads its argument; the end pointer must be NULL",
}

// maxLibCells bounds the number of element stores a memset/memcpy/strcpy is
// expanded to.
const maxLibCells = 256

// isNondetSource reports whether an external function returns a genuine
// nondeterministic input.
func isNondetSource(name string) bool {
	return strings.Contains(name, "nondet") || name == "rand" || name == "random"
}

// external lowers a call of a function without a body that is not one of
// the SV-COMP or pthread builtins.
func (fl *funcLowerer) external(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	l := fl.l
	switch name {
	case "strcpy", "strncpy", "memset", "memcpy":
		return fl.libWrite(x, name, as, want)
	case "scanf", "sscanf", "fscanf":
		return fl.scanf(x, name, as, want)
	case "strcat", "strncat":
		l.fail(x, "%s: the length of the destination string is not known statically", name)
	case "sleep", "usleep", "nanosleep", "sched_yield":
		return fl.sleep(x, name, as, want)
	}
	if _, ok := readOnlyExternals[name]; ok {
		return fl.readOnlyCall(x, name, as, want)
	}
	fl.checkNoWritableArgs(x, name, as)
	for _, a := range as {
		fl.effect(a)
	}
	t := l.typ(x, x.Type())
	if isNondetSource(name) {
		if t.Kind == program.Void || !want {
			return nil
		}
		if !t.IsScalar() {
			l.fail(x, "call of %s without a body returning %s", name, t)
		}
		if name == "rand" || name == "random" {
			// 0 <= result <= RAND_MAX, which is the largest value of int
			// (glibc) and of the 32-bit long of ILP32.
			r := fl.tmp(t)
			fl.assign(r, &program.Nondet{T: t})
			fl.emitOp(program.OpAssume, nil, fl.binary(x, program.Ge, r, program.IntConst(t, 0)))
			if t.Size > 4 {
				fl.emitOp(program.OpAssume, nil, fl.binary(x, program.Le, r, program.IntConst(t, 0x7fffffff)))
			}
			return r
		}
		return &program.Nondet{T: t}
	}
	if !slices.Contains(l.prog.Bodiless, name) {
		// CBMC's warning; the model is CBMC's too (program.Program.Bodiless)
		l.prog.Bodiless = append(l.prog.Bodiless, name)
		l.log.Warn(fmt.Sprintf("function %s has no body: a call returns an arbitrary value and changes no variable", name), "at", fl.cur.String())
	}
	if t.Kind == program.Void || !want {
		// A marker: the call may return or not; a run through it depends on
		// the external function.
		in := fl.newInstr(program.OpAssume)
		in.Rhs = &program.Nondet{T: program.IntT, Origin: name}
		in.Msg = "call of " + name
		fl.emit(in)
		return nil
	}
	if !t.IsScalar() {
		l.fail(x, "call of %s without a body returning %s", name, t)
	}
	return &program.Nondet{T: t, Origin: name}
}

// sleep lowers sleep, usleep, nanosleep and sched_yield to nothing: the
// model has no time, and another thread may run at any step anyway, so
// giving up the processor adds no run. The model delivers no signals,
// so sleep and usleep (glibc on Linux: a valid nanosleep) return 0 and
// nanosleep never writes the remaining time; nanosleep returns -1
// (EINVAL) when tv_sec is negative or tv_nsec is outside 0..999999999,
// else 0 (POSIX), computed from *req when its result is used. The
// arguments are evaluated for their effects.
func (fl *funcLowerer) sleep(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	if name == "nanosleep" && want {
		if len(as) != 2 {
			fl.l.fail(x, "nanosleep called with %d arguments, want 2", len(as))
		}
		req := fl.rval(as[0])
		fl.effect(as[1])
		rt := req.Type()
		var sec, nsec []int
		if rt.Kind == program.Pointer && rt.Elem.Kind == program.Struct {
			sec, nsec = fieldPath(rt.Elem, "tv_sec"), fieldPath(rt.Elem, "tv_nsec")
		}
		if sec == nil || nsec == nil || len(sec) > 1 || len(nsec) > 1 {
			fl.l.fail(x, "nanosleep of a %s, not a struct timespec *", rt)
		}
		req = fl.stablePtr(req)
		get := func(path []int, what string) program.Expr {
			v := fl.tmp(rt.Elem.Fields[path[0]].Type)
			fl.assign(v, fl.selectPath(fl.deref(x, req), path, what, x))
			return v
		}
		s, ns := get(sec, "tv_sec"), get(nsec, "tv_nsec")
		zero := program.IntConst(program.IntT, 0)
		bad := fl.binary(x, program.LOr, fl.binary(x, program.Lt, s, zero),
			fl.binary(x, program.LOr, fl.binary(x, program.Lt, ns, zero), fl.binary(x, program.Gt, ns, program.IntConst(program.IntT, 999999999))))
		t := fl.l.typ(x, x.Type())
		return &program.CondExpr{C: bad, X: program.IntConst(t, -1), Y: program.IntConst(t, 0), T: t}
	}
	for _, a := range as {
		if !a.Pure() {
			fl.effect(a)
		}
	}
	if !want {
		return nil
	}
	return program.IntConst(fl.l.typ(x, x.Type()), 0)
}

// checkNoWritableArgs rejects a call of an unknown external function that
// passes something it may write through.
func (fl *funcLowerer) checkNoWritableArgs(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	var params []*cc.Parameter
	if ft := calleeFuncType(x); ft != nil {
		params = ft.Parameters()
	}
	for i, a := range as {
		at := a.Type()
		if at == nil {
			continue
		}
		switch at.Kind() {
		case cc.Ptr, cc.Array, cc.Function, cc.Struct, cc.Union:
		default:
			continue
		}
		if i < len(params) && params[i].Type() != nil && params[i].Type().Kind() == cc.Ptr && readOnlyPtr(params[i].Type()) {
			continue
		}
		fl.l.fail(x, "external function %s may write through its pointer argument %d; give it a body or a stub", name, i+1)
	}
}

// calleeFuncType returns the prototype of the called function, if known.
func calleeFuncType(x *cc.PostfixExpression) *cc.FunctionType {
	t := x.PostfixExpression.Type()
	if t == nil {
		return nil
	}
	if t.Kind() == cc.Ptr {
		t = t.(*cc.PointerType).Elem()
	}
	ft, _ := t.(*cc.FunctionType)
	return ft
}

// readOnlyPtr reports whether pointer type t gives no write access: its
// pointee is const and, if it is a pointer itself, read-only too.
func readOnlyPtr(t cc.Type) bool {
	pt, ok := t.(*cc.PointerType)
	if !ok {
		return false
	}
	e := pt.Elem()
	if e == nil || !e.Attributes().IsConst() {
		return false
	}
	switch {
	case e.Kind() == cc.Void || cc.IsArithmeticType(e):
		return true
	case e.Kind() == cc.Ptr:
		return readOnlyPtr(e)
	}
	return false
}

// readOnlyCall lowers a call of a function of readOnlyExternals.
func (fl *funcLowerer) readOnlyCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	l := fl.l
	switch name {
	case "printf", "fprintf":
		fi := 0
		if name == "fprintf" {
			fi = 1
		}
		if len(as) <= fi {
			l.fail(x, "%s without a format", name)
		}
		if f, ok := fl.literalArg(as[fi], 0); ok {
			if printfHasN(f) {
				l.fail(x, "%s with a %%n conversion (writes through its argument)", name)
			}
		} else {
			for _, a := range as[fi+1:] {
				if t := a.Type(); t != nil && (t.Kind() == cc.Ptr || t.Kind() == cc.Array) {
					l.fail(x, "%s with a non-literal format and a pointer argument (a %%n conversion would write through it)", name)
				}
			}
		}
	case "strtol", "strtoul", "strtoll", "strtoull":
		if len(as) != 3 {
			l.fail(x, "%s called with %d arguments, want 3", name, len(as))
		}
		if v, ok := l.constInt(as[1]); !ok || v != 0 {
			l.fail(x, "external function %s may write through its pointer argument 2 (end pointer not NULL); give it a body or a stub", name)
		}
	}
	for _, a := range as {
		fl.effect(a)
	}
	t := l.typ(x, x.Type())
	if t.Kind == program.Void || !want {
		return nil
	}
	if !t.IsScalar() {
		l.fail(x, "call of %s returning %s", name, t)
	}
	return &program.Nondet{T: t, Origin: name}
}

// printfHasN reports whether a printf format contains a %n conversion.
func printfHasN(f string) bool {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("0123456789.-+ #*'hlLqjzt", f[j]) >= 0 {
			j++
		}
		if j < len(f) && f[j] == 'n' {
			return true
		}
		i = j
	}
	return false
}

// literalArg returns the string literal an argument is, through
// parentheses, casts to pointer types and locals that are only ever
// assigned that one literal (CIL passes formats through temporaries). Such a
// local holds the literal's address whenever it holds a determinate value:
// its address is never taken and every store into it stores that address
// (reading it before the first store reads an indeterminate value).
func (fl *funcLowerer) literalArg(e cc.ExpressionNode, depth int) (string, bool) {
	if s, ok := literalArg(e); ok {
		return s, true
	}
	e = strip(e)
	if c, ok := e.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast && c.Type() != nil && c.Type().Kind() == cc.Ptr {
		return fl.literalArg(c.CastExpression, depth)
	}
	_, d := identDecl(e)
	if d == nil || depth > 4 || fl.ai == nil || !fl.ai.autos[d] || fl.ai.other[d] || len(fl.ai.defs[d]) == 0 {
		return "", false
	}
	var out string
	for i, def := range fl.ai.defs[d] {
		s, ok := fl.literalArg(def, depth+1)
		if !ok || (i > 0 && s != out) {
			return "", false
		}
		out = s
	}
	return out, true
}

// literalArg returns the string literal an argument is, through
// parentheses.
func literalArg(e cc.ExpressionNode) (string, bool) {
	p, ok := strip(e).(*cc.PrimaryExpression)
	if !ok {
		return "", false
	}
	s, ok := stringLit(p)
	if ok {
		if i := strings.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
	}
	return s, ok
}

// stablePtr returns p, or a non-shared temporary holding p when p's value
// could change before it is used again (it reads shared memory).
func (fl *funcLowerer) stablePtr(p program.Expr) program.Expr {
	switch q := p.(type) {
	case *program.Const:
		return p
	case *program.AddrOf:
		if stableAddr(q.X) {
			return p
		}
	}
	if isStableLocal(fl, p) {
		return p
	}
	t := fl.tmp(p.Type())
	fl.assign(t, p)
	return t
}

// stableAddr reports whether the address of lv does not depend on memory.
func stableAddr(lv program.Expr) bool {
	switch lv := lv.(type) {
	case *program.Ref:
		return true
	case *program.Index:
		_, ok := lv.I.(*program.Const)
		return ok && stableAddr(lv.X)
	case *program.FieldSel:
		return stableAddr(lv.X)
	}
	return false
}

// elemAt returns the lvalue *(p + i).
func (fl *funcLowerer) elemAt(n cc.Node, p program.Expr, i int64) program.Expr {
	// &a[k] + i is a[k+i] when that is inside the array.
	if ad, ok := p.(*program.AddrOf); ok {
		if ix, ok := ad.X.(*program.Index); ok {
			if k, ok := ix.I.(*program.Const); ok && k.V+i >= 0 && k.V+i < ix.X.Type().Len {
				return &program.Index{X: ix.X, I: program.IntConst(k.T, k.V+i), T: ix.T}
			}
		}
	}
	return fl.deref(n, fl.binary(n, program.Add, p, program.IntConst(program.IntT, i)))
}

// libWrite lowers strcpy, strncpy, memset and memcpy whose extent is known
// statically to element-wise stores, in increasing address order, one
// instruction each (the real functions are not atomic either). The result
// is the destination pointer. libWriteExact decides whether it applies
// (otherwise the C library model takes the call, see libmodel.go).
func (fl *funcLowerer) libWrite(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	l := fl.l
	if why := fl.libWriteExact(name, as); why != "" {
		l.fail(x, "%s", why)
	}
	dst := fl.rval(as[0])
	elem := dst.Type().Elem
	var stores []func(d program.Expr)
	switch name {
	case "strcpy", "strncpy":
		s, _ := fl.literalArg(as[1], 0)
		bytes := []byte(s + "\x00")
		if name == "strncpy" {
			n, _ := l.constInt(as[2])
			b := make([]byte, n)
			copy(b, s)
			bytes = b
		}
		for i, c := range bytes {
			i, c := int64(i), int64(c)
			stores = append(stores, func(d program.Expr) {
				fl.assign(fl.elemAt(x, d, i), program.IntConst(elem, c))
			})
		}
	case "memset":
		n, _ := l.constInt(as[2])
		var val program.Expr // nil: zero of any type
		if c, ok := l.constInt(as[1]); ok {
			if b := c & 0xff; b != 0 {
				v := int64(0)
				for k := int64(0); k < elem.Size; k++ {
					v = v<<8 | b
				}
				val = program.IntConst(elem, v)
			}
		} else {
			v := fl.rval(as[1])
			if !isStableLocal(fl, v) {
				if _, ok := v.(*program.Const); !ok {
					t := fl.tmp(v.Type())
					fl.assign(t, v)
					v = t
				}
			}
			val = fl.convert(v, elem, true)
		}
		for i := int64(0); i < n/elem.Size; i++ {
			i := i
			stores = append(stores, func(d program.Expr) {
				fl.assignCompound(fl.elemAt(x, d, i), val)
			})
		}
	case "memcpy":
		src := fl.stablePtr(fl.rval(as[1]))
		n, _ := l.constInt(as[2])
		for i := int64(0); i < n/elem.Size; i++ {
			i := i
			stores = append(stores, func(d program.Expr) {
				fl.assign(fl.elemAt(x, d, i), fl.elemAt(x, src, i))
			})
		}
	}
	d := fl.stablePtr(dst)
	for _, s := range stores {
		s(d)
	}
	if !want {
		return nil
	}
	return fl.convert(d, l.typ(x, x.Type()), true)
}

// libWriteExact returns "" when libWrite lowers the call exactly, or why
// not: the extent or the source string is not a constant, the types of the
// source and the destination differ, a partial element, more than
// maxLibCells cells. It reads the arguments' types only (no code emitted).
func (fl *funcLowerer) libWriteExact(name string, as []cc.ExpressionNode) string {
	l := fl.l
	nargs := map[string]int{"strcpy": 2, "strncpy": 3, "memset": 3, "memcpy": 3}[name]
	if len(as) != nargs {
		return fmt.Sprintf("%s called with %d arguments, want %d", name, len(as), nargs)
	}
	pointee := func(a cc.ExpressionNode) (*program.Type, *program.Type) {
		t := l.typ(a, a.Type())
		if t.Kind == program.Array {
			return t.Elem, program.PointerTo(t.Elem, l.model.PtrSize())
		}
		return t.Elem, t
	}
	elem, dt := pointee(as[0])
	if dt.Kind != program.Pointer || elem.Kind == program.Void || elem.Kind == program.Function || elem.Size <= 0 {
		return fmt.Sprintf("%s into a %s: element type unknown", name, dt)
	}
	constArg := func(a cc.ExpressionNode) (int64, bool) {
		k, ok := l.constInt(a)
		return k, ok && k >= 0
	}
	switch name {
	case "strcpy", "strncpy":
		s, ok := fl.literalArg(as[1], 0)
		if !ok {
			return fmt.Sprintf("%s from something other than a string literal", name)
		}
		if !elem.IsInteger() || elem.Size != 1 {
			return fmt.Sprintf("%s into a %s", name, dt)
		}
		n := int64(len(s) + 1)
		if name == "strncpy" {
			if n, ok = constArg(as[2]); !ok {
				return fmt.Sprintf("%s with a non-constant length", name)
			}
		}
		if n > maxLibCells {
			return fmt.Sprintf("%s of %d bytes (more than %d)", name, n, maxLibCells)
		}
	case "memset":
		n, ok := constArg(as[2])
		if !ok {
			return fmt.Sprintf("%s with a non-constant size", name)
		}
		if n%elem.Size != 0 {
			return fmt.Sprintf("memset of %d bytes into elements of %d bytes (a partial element)", n, elem.Size)
		}
		if cnt := n / elem.Size; cnt*int64(elem.Cells()) > maxLibCells {
			return fmt.Sprintf("memset of %d elements (more than %d cells)", cnt, maxLibCells)
		}
		if c, ok := l.constInt(as[1]); ok {
			if b := c & 0xff; b != 0 && !(elem.IsInteger() && elem.Kind != program.Bool) {
				return fmt.Sprintf("memset of a %s with the byte %d", elem, b)
			}
		} else if !elem.IsInteger() || elem.Kind == program.Bool || elem.Size != 1 {
			return fmt.Sprintf("memset of a %s with a non-constant byte", elem)
		}
	case "memcpy":
		selem, st := pointee(as[1])
		if st.Kind != program.Pointer || !sameType(selem, elem) {
			return fmt.Sprintf("memcpy from a %s into a %s", st, dt)
		}
		n, ok := constArg(as[2])
		if !ok {
			return fmt.Sprintf("%s with a non-constant size", name)
		}
		if n%elem.Size != 0 {
			return fmt.Sprintf("memcpy of %d bytes of elements of %d bytes (a partial element)", n, elem.Size)
		}
		if cnt := n / elem.Size; cnt*int64(elem.Cells()) > maxLibCells {
			return fmt.Sprintf("memcpy of %d elements (more than %d cells)", cnt, maxLibCells)
		}
	}
	return ""
}

// sameType reports whether a and b are the same type (pointer identity or
// structural equality of their declarations).
func sameType(a, b *program.Type) bool {
	return a == b || program.TypeDecl(a, "") == program.TypeDecl(b, "") && a.Size == b.Size
}

// scanf lowers scanf(fmt, p...), sscanf(s, fmt, p...) and fscanf(f, fmt,
// p...) with a literal format of integer and character conversions: each
// pointer argument gets *p = nondet. The values are genuine inputs when they
// come from stdin or a stream (every value of the type is the result of
// some input); from a string (sscanf) they are opaque, whatever the string:
// the model does not read it, and two conversions of the same string must
// agree (the strings of argv are program memory too, see mainParams). The
// return value (how many conversions succeeded) is always opaque: the model
// does not tie it to the stores (when a conversion fails the real function
// leaves the object unchanged, a value the nondet store includes).
func (fl *funcLowerer) scanf(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, want bool) program.Expr {
	l := fl.l
	fi := 1
	if name == "scanf" {
		fi = 0
	}
	if len(as) <= fi {
		l.fail(x, "%s without a format", name)
	}
	origin := ""
	if name == "sscanf" {
		origin = name
	}
	if name != "scanf" {
		fl.effect(as[0])
	}
	f, ok := fl.literalArg(as[fi], 0)
	if !ok {
		l.fail(x, "%s with a non-literal format", name)
	}
	convs, err := scanfConversions(f)
	if err != nil {
		l.fail(x, "%s format %q: %v", name, f, err)
	}
	ptrs := as[fi+1:]
	if len(convs) != len(ptrs) {
		l.fail(x, "%s format %q has %d conversions for %d arguments", name, f, len(convs), len(ptrs))
	}
	// C evaluates every argument before the call stores anything.
	var targets []program.Expr
	for i, a := range ptrs {
		p := fl.rval(a)
		pt := p.Type()
		if pt.Kind != program.Pointer || !pt.Elem.IsInteger() || pt.Elem.Kind == program.Bool {
			l.fail(x, "%s conversion %%%c into a %s", name, convs[i], pt)
		}
		if convs[i] == 'c' && pt.Elem.Size != 1 {
			l.fail(x, "%s conversion %%c into a %s", name, pt)
		}
		targets = append(targets, fl.stablePtr(p))
	}
	for _, p := range targets {
		e := p.Type().Elem
		fl.assign(fl.deref(x, p), &program.Nondet{T: e, Origin: origin})
	}
	if !want {
		return nil
	}
	return &program.Nondet{T: l.typ(x, x.Type()), Origin: name}
}

// scanfConversions returns the conversion characters of the assigning
// conversions of a scanf format. Only integer conversions and %c (width 1)
// are modelled.
func scanfConversions(f string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		suppress := false
		if i < len(f) && f[i] == '*' {
			suppress = true
			i++
		}
		width := ""
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			width += string(f[i])
			i++
		}
		for i < len(f) && strings.IndexByte("hlLqjzt", f[i]) >= 0 {
			i++
		}
		if i >= len(f) {
			return nil, fmt.Errorf("incomplete conversion")
		}
		c := f[i]
		switch c {
		case 'd', 'i', 'u', 'o', 'x', 'X':
		case 'c':
			if width != "" && width != "1" {
				return nil, fmt.Errorf("%%%sc writes several characters", width)
			}
		default:
			return nil, fmt.Errorf("conversion %%%c is not modelled", c)
		}
		if !suppress {
			out = append(out, c)
		}
	}
	return out, nil
}

package program

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Helpers for building programs by hand.

func gref(name string, t *Type) *Ref { return &Ref{Name: name, T: t} }
func lref(name string, t *Type) *Ref { return &Ref{Name: name, Local: true, T: t} }
func ic(v int64) *Const              { return &Const{T: IntT, V: v} }
func bin(op BinOp, x, y Expr) *Binary {
	t := x.Type()
	switch op {
	case Eq, Ne, Lt, Le, Gt, Ge, LAnd, LOr:
		t = IntT
	}
	return &Binary{Op: op, X: x, Y: y, T: t}
}

type builder struct {
	f *Func
	n int
}

func (b *builder) add(in *Instr) *Instr {
	if in.Label == "" {
		in.Label = Label(fmt.Sprintf("%s.%d", b.f.Name, b.n))
	}
	b.n++
	in.Pos = Pos{File: "hand.c", Line: 10 + b.n}
	b.f.Body = append(b.f.Body, in)
	return in
}

func (b *builder) local(name string, t *Type) *Ref {
	b.f.Locals = append(b.f.Locals, &Var{Name: name, Type: t})
	b.add(&Instr{Op: OpDecl, Var: name})
	return lref(name, t)
}

// richProgram uses every Op, every operator, structs, arrays, pointers,
// function pointers, names with '$', typedef'd integers, heap, nondet of
// several types and a multi-target goto.
func richProgram() *Program {
	const ps = 8
	voidp := PointerTo(VoidType, ps)
	pthreadT := &Type{Kind: Int, Size: 8, Name: "pthread_t"}
	myint := &Type{Kind: Int, Size: 4, Signed: true, Name: "myint_t"}
	node := &Type{Kind: Struct, Name: "node", Size: 16}
	nodep := PointerTo(node, ps)
	node.Fields = []Field{{Name: "val", Type: IntT}, {Name: "next", Type: nodep}}
	pair := &Type{Kind: Struct, Name: "pair$s", Size: 48}
	pair.Fields = []Field{{Name: "lock", Type: MutexType}, {Name: "items", Type: ArrayOf(IntT, 4)}, {Name: "head", Type: node}}
	un := &Type{Kind: Union, Name: "u", Size: 8}
	un.Fields = []Field{{Name: "i", Type: IntT}, {Name: "c", Type: CharType}}
	LayOut(node)
	LayOut(pair)
	LayOut(un)
	workerT := &Type{Kind: Function, Elem: voidp, Params: []*Type{voidp}, Size: 1}
	fnp := PointerTo(workerT, ps)
	intp := PointerTo(IntT, ps)
	arr := ArrayOf(IntT, 4)
	mutexp := PointerTo(MutexType, ps)

	p := &Program{File: "hand.c", Model: LP64, Types: []*Type{node, pair, un}}
	p.Globals = []*Var{
		{Name: "x", Type: IntT, Init: ic(0), AddrTaken: true},
		{Name: "y$1", Type: UIntType, Init: &Const{T: UIntType, V: 4294967295}},
		{Name: "c", Type: CharType, Init: &Const{T: CharType, V: -3}},
		{Name: "uc", Type: UCharType},
		{Name: "ll", Type: LLongType, Init: &Const{T: LLongType, V: -1 << 63}},
		{Name: "b", Type: BoolType, Init: &Const{T: BoolType, V: 1}},
		{Name: "a", Type: arr, Init: &Compound{T: arr, Elems: []Expr{ic(1), ic(2)}}},
		{Name: "m", Type: MutexType, Init: &Const{T: MutexType}},
		{Name: "m2", Type: MutexType},
		{Name: "cv", Type: CondType},
		{Name: "pr", Type: pair, Init: &Compound{T: pair, Elems: []Expr{&Const{T: MutexType},
			&Compound{T: arr, Elems: []Expr{ic(7)}}, &Compound{T: node, Elems: []Expr{ic(1), &Const{T: nodep}}}}}},
		{Name: "un", Type: un},
		{Name: "px", Type: intp, Init: &AddrOf{X: gref("x", IntT), T: intp}},
		{Name: "fp", Type: fnp, Init: &FuncRef{Name: "worker", T: workerT}},
		{Name: "mi", Type: myint},
		{Name: "list", Type: nodep},
	}

	// worker
	w := &Func{Name: "worker", Result: voidp, Params: []*Var{{Name: "arg", Type: voidp}}}
	wb := &builder{f: w}
	tmp := wb.local("t", IntT)
	wb.add(&Instr{Op: OpLock, Rhs: &AddrOf{X: gref("m", MutexType), T: mutexp}})
	wb.add(&Instr{Op: OpAssign, Lhs: tmp, Rhs: gref("x", IntT)})
	wb.add(&Instr{Op: OpAssign, Lhs: gref("x", IntT), Rhs: bin(Add, tmp, ic(1))})
	wb.add(&Instr{Op: OpUnlock, Rhs: &AddrOf{X: gref("m", MutexType), T: mutexp}})
	wb.add(&Instr{Op: OpAtomicBegin})
	wb.add(&Instr{Op: OpAssign, Lhs: &FieldSel{X: gref("pr", pair), Name: "head", Field: 2, T: node}, Rhs: &Deref{X: gref("list", nodep), T: node}})
	wb.add(&Instr{Op: OpAtomicEnd})
	wb.add(&Instr{Op: OpReturn, Rhs: &Const{T: voidp}})

	// an atomic function with a $ in a local name
	af := &Func{Name: "__VERIFIER_atomic_inc", Result: VoidType, Atomic: true}
	ab := &builder{f: af}
	l := ab.local("v$2", IntT)
	ab.add(&Instr{Op: OpAssign, Lhs: l, Rhs: gref("x", IntT)})
	ab.add(&Instr{Op: OpAssign, Lhs: gref("x", IntT), Rhs: bin(Add, l, ic(1))})
	ab.add(&Instr{Op: OpReturn})

	// add(int, int) returns int
	addf := &Func{Name: "add", Result: IntT, Params: []*Var{{Name: "p", Type: IntT}, {Name: "q", Type: IntT}}}
	adb := &builder{f: addf}
	adb.add(&Instr{Op: OpReturn, Rhs: bin(Add, lref("p", IntT), lref("q", IntT))})

	// main
	mf := &Func{Name: "main", Result: IntT}
	mb := &builder{f: mf}
	h := mb.local("h", pthreadT)
	i := mb.local("i", IntT)
	u := mb.local("u", UIntType)
	q := mb.local("q", nodep)
	r := mb.local("r", IntT)
	loc := mb.local("loc", ArrayOf(node, 2))
	mb.add(&Instr{Op: OpSpawn, Lhs: h, Func: &FuncRef{Name: "worker", T: workerT}, Args: []Expr{&Const{T: voidp}}})
	mb.add(&Instr{Op: OpSpawn, Func: gref("fp", fnp), Args: []Expr{&Cast{X: &AddrOf{X: gref("x", IntT), T: intp}, T: voidp}}})
	mb.add(&Instr{Op: OpAssign, Lhs: i, Rhs: &Nondet{T: IntT}})
	mb.add(&Instr{Op: OpAssign, Lhs: u, Rhs: &Nondet{T: UIntType}})
	mb.add(&Instr{Op: OpAssign, Lhs: gref("c", CharType), Rhs: &Nondet{T: CharType}})
	mb.add(&Instr{Op: OpAssign, Lhs: gref("uc", UCharType), Rhs: &Nondet{T: UCharType}})
	mb.add(&Instr{Op: OpAssign, Lhs: gref("b", BoolType), Rhs: &Nondet{T: BoolType}})
	mb.add(&Instr{Op: OpAssign, Lhs: gref("ll", LLongType), Rhs: &Nondet{T: LLongType}})
	mb.add(&Instr{Op: OpAssign, Lhs: q, Rhs: &Nondet{T: nodep}})
	mb.add(&Instr{Op: OpAssign, Lhs: gref("mi", myint), Rhs: &Nondet{T: myint}})
	mb.add(&Instr{Op: OpAssign, Lhs: &Index{X: loc, I: ic(1), T: node}, Rhs: &Nondet{T: node}})
	mb.add(&Instr{Op: OpAssume, Rhs: bin(LAnd, bin(Ge, i, ic(0)), bin(Lt, i, ic(4)))})
	// every binary operator on ints and one on unsigned
	for op := Add; op <= LOr; op++ {
		mb.add(&Instr{Op: OpAssign, Lhs: r, Rhs: bin(op, i, bin(Add, r, ic(1)))})
	}
	mb.add(&Instr{Op: OpAssign, Lhs: u, Rhs: bin(Shr, u, &Const{T: UIntType, V: 3})})
	mb.add(&Instr{Op: OpAssign, Lhs: r, Rhs: &Unary{Op: Neg, X: &Unary{Op: Neg, X: i, T: IntT}, T: IntT}})
	mb.add(&Instr{Op: OpAssign, Lhs: r, Rhs: &Unary{Op: Neg, X: ic(-5), T: IntT}})
	mb.add(&Instr{Op: OpAssign, Lhs: r, Rhs: &Unary{Op: Not, X: r, T: IntT}})
	mb.add(&Instr{Op: OpAssign, Lhs: u, Rhs: &Unary{Op: BitNot, X: u, T: UIntType}})
	mb.add(&Instr{Op: OpAssign, Lhs: r, Rhs: &CondExpr{C: bin(Lt, r, ic(0)), X: ic(1), Y: &Cast{X: u, T: IntT}, T: IntT}})
	mb.add(&Instr{Op: OpAssign, Lhs: &Index{X: gref("a", arr), I: i, T: IntT}, Rhs: &Index{X: gref("a", arr), I: bin(Sub, ic(3), i), T: IntT}})
	mb.add(&Instr{Op: OpAssign, Lhs: gref("px", intp), Rhs: bin(Add, gref("px", intp), ic(1))})
	mb.add(&Instr{Op: OpAssign, Lhs: &Deref{X: gref("px", intp), T: IntT}, Rhs: ic(5)})
	mb.add(&Instr{Op: OpAssign, Lhs: &Index{X: &FieldSel{X: gref("pr", pair), Name: "items", Field: 1, T: arr}, I: ic(2), T: IntT}, Rhs: ic(9)})
	mb.add(&Instr{Op: OpAssign, Lhs: &FieldSel{X: gref("un", un), Name: "c", Field: 1, T: CharType}, Rhs: &Cast{X: i, T: CharType}})
	mb.add(&Instr{Op: OpAlloc, Lhs: gref("list", nodep), Rhs: ic(1)})
	mb.add(&Instr{Op: OpAssign, Lhs: &FieldSel{X: &Deref{X: gref("list", nodep), T: node}, Name: "next", Field: 1, T: nodep}, Rhs: q})
	mb.add(&Instr{Op: OpAssign, Lhs: &FieldSel{X: &Deref{X: gref("list", nodep), T: node}, Name: "val", Field: 0, T: IntT}, Rhs: gref("x", IntT)})
	mb.add(&Instr{Op: OpCall, Lhs: r, Func: &FuncRef{Name: "add", T: addf.Type()}, Args: []Expr{r, ic(2)}})
	mb.add(&Instr{Op: OpCall, Func: &FuncRef{Name: "__VERIFIER_atomic_inc", T: af.Type()}})
	mb.add(&Instr{Op: OpCall, Lhs: &Deref{X: gref("px", intp), T: IntT}, Func: &Deref{X: &AddrOf{X: &FuncRef{Name: "add", T: addf.Type()}, T: PointerTo(addf.Type(), ps)}, T: addf.Type()}, Args: []Expr{ic(1), ic(2)}})
	loop := mb.add(&Instr{Op: OpSkip, Label: "main.loop"})
	mb.n--
	// a label that sanitises to the same C identifier as "main.loop"
	clash := mb.add(&Instr{Op: OpSkip, Label: "main_loop"})
	mb.n--
	// multi-target goto (nondet choice) guarded, and one unguarded
	end := Label("main.end")
	mb.add(&Instr{Op: OpGoto, Rhs: bin(Lt, i, ic(3)), Targets: []Label{loop.Label, clash.Label, end}})
	mb.add(&Instr{Op: OpGoto, Targets: []Label{loop.Label, end}})
	// a Decl that is a goto target
	mb.add(&Instr{Op: OpGoto, Targets: []Label{"main.declt"}})
	mf.Locals = append(mf.Locals, &Var{Name: "late", Type: CharType})
	mb.add(&Instr{Op: OpDecl, Var: "late", Label: "main.declt"})
	mb.n--
	mb.add(&Instr{Op: OpAssert, Rhs: bin(Eq, gref("x", IntT), ic(2)), Prop: "main.assertion.1", Msg: "x == 2"})
	mb.add(&Instr{Op: OpJoin, Rhs: h})
	mb.add(&Instr{Op: OpFree, Rhs: gref("list", nodep)})
	mb.add(&Instr{Op: OpAssign, Lhs: gref("m2", MutexType), Rhs: &Const{T: MutexType}})
	mb.add(&Instr{Op: OpLock, Rhs: &AddrOf{X: &FieldSel{X: gref("pr", pair), Name: "lock", Field: 0, T: MutexType}, T: mutexp}})
	mb.add(&Instr{Op: OpExit, Label: end})
	mb.n--
	mb.add(&Instr{Op: OpReturn, Rhs: ic(0)})

	p.Funcs = []*Func{w, af, addf, mf}
	return p
}

// tinyProgram is a small second program: two threads incrementing a counter.
func tinyProgram() *Program {
	voidp := PointerTo(VoidType, 4)
	ft := &Type{Kind: Function, Elem: voidp, Params: []*Type{voidp}, Size: 1}
	p := &Program{File: "tiny.c", Model: ILP32}
	p.Globals = []*Var{{Name: "cnt", Type: IntT}}
	t := &Func{Name: "t", Result: voidp, Params: []*Var{{Name: "a", Type: voidp}}}
	tb := &builder{f: t}
	tmp := tb.local("__tmp_0", IntT)
	tb.add(&Instr{Op: OpAssign, Lhs: tmp, Rhs: gref("cnt", IntT)})
	tb.add(&Instr{Op: OpAssign, Lhs: gref("cnt", IntT), Rhs: bin(Add, tmp, ic(1))})
	tb.add(&Instr{Op: OpReturn, Rhs: &Const{T: voidp}})
	m := &Func{Name: "main", Result: IntT}
	mb := &builder{f: m}
	h1 := mb.local("h1", UIntType)
	mb.add(&Instr{Op: OpSpawn, Lhs: h1, Func: &FuncRef{Name: "t", T: ft}, Args: []Expr{&Const{T: voidp}}})
	mb.add(&Instr{Op: OpSpawn, Func: &FuncRef{Name: "t", T: ft}, Args: []Expr{&Const{T: voidp}}})
	mb.add(&Instr{Op: OpJoin, Rhs: h1})
	mb.add(&Instr{Op: OpAssert, Rhs: bin(Le, gref("cnt", IntT), ic(2)), Prop: "main.assertion.1"})
	mb.add(&Instr{Op: OpReturn, Rhs: ic(0)})
	p.Funcs = []*Func{t, m}
	return p
}

func printString(t *testing.T, p *Program) (string, LineMap) {
	t.Helper()
	var b bytes.Buffer
	lm, err := Print(&b, p)
	if err != nil {
		t.Fatalf("Print: %v", err)
	}
	return b.String(), lm
}

func gccSyntax(t *testing.T, name, src string) {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found on PATH; skipping the compile check of printed C")
	}
	f := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gcc, "-fsyntax-only", "-std=gnu11", "-Werror=implicit-function-declaration", f).CombinedOutput()
	if err != nil {
		var num strings.Builder
		for i, l := range strings.Split(src, "\n") {
			fmt.Fprintf(&num, "%4d %s\n", i+1, l)
		}
		t.Fatalf("gcc -fsyntax-only failed: %v\n%s\nsource:\n%s", err, out, num.String())
	}
}

func TestPrintCompiles(t *testing.T) {
	for name, p := range map[string]*Program{"rich": richProgram(), "tiny": tinyProgram()} {
		t.Run(name, func(t *testing.T) {
			if err := Check(p); err != nil {
				t.Fatalf("Check: %v", err)
			}
			src, lm := printString(t, p)
			gccSyntax(t, name, src)
			// deterministic
			for k := 0; k < 3; k++ {
				again, lm2 := printString(t, p)
				if again != src {
					t.Fatal("Print is not deterministic")
				}
				if fmt.Sprint(lm) != fmt.Sprint(lm2) {
					t.Fatal("LineMap is not deterministic")
				}
			}
			// every instruction has exactly one line, and the line holds it
			lines := strings.Split(src, "\n")
			seen := map[Label]int{}
			for ln, l := range lm {
				if ln < 1 || ln > len(lines) {
					t.Fatalf("line %d out of range", ln)
				}
				if _, dup := seen[l]; dup {
					t.Errorf("label %s on two lines", l)
				}
				seen[l] = ln
			}
			ix := NewIndex(p)
			for l, in := range ix.Instr {
				ln, ok := seen[l]
				if !ok {
					t.Errorf("label %s has no line", l)
					continue
				}
				text := lines[ln-1]
				if want := instrKeyword(in); !strings.Contains(text, want) {
					t.Errorf("line %d for %s (%s) is %q, want it to contain %q", ln, l, in.Op, text, want)
				}
			}
			if len(seen) != len(ix.Instr) {
				t.Errorf("LineMap has %d lines, program %d instructions", len(seen), len(ix.Instr))
			}
		})
	}
}

func instrKeyword(in *Instr) string {
	switch in.Op {
	case OpSkip:
		return "L_"
	case OpAssume:
		return "__VERIFIER_assume("
	case OpAssert:
		return "assert("
	case OpGoto:
		return "goto L_"
	case OpReturn:
		return "return"
	case OpSpawn:
		return "pthread_create("
	case OpJoin:
		return "pthread_join("
	case OpLock:
		return "pthread_mutex_lock("
	case OpUnlock:
		return "pthread_mutex_unlock("
	case OpAtomicBegin:
		return "__VERIFIER_atomic_begin();"
	case OpAtomicEnd:
		return "__VERIFIER_atomic_end();"
	case OpDecl:
		return in.Var
	case OpAlloc:
		return "malloc("
	case OpFree:
		return "free("
	case OpExit:
		return "pthread_exit(0);"
	case OpCall:
		return "("
	case OpAssign:
		if in.Lhs.Type().Kind == Mutex {
			return "pthread_mutex_init("
		}
	}
	return " = "
}

func TestPrintLines(t *testing.T) {
	p := richProgram()
	src, lm := printString(t, p)
	lines := strings.Split(src, "\n")
	byLabel := map[Label]string{}
	for ln, l := range lm {
		byLabel[l] = strings.TrimSpace(lines[ln-1])
	}
	want := map[Label]string{
		"main.6":   "pthread_create(&h, 0, worker, (void *)0);",
		"main.7":   "pthread_create(0, 0, fp, (void *)&x);",
		"main.8":   "i = __VERIFIER_nondet_int();",
		"main.13":  "ll = __VERIFIER_nondet_longlong();",
		"main.16":  "loc[1] = __VERIFIER_nondet_struct_node();",
		"main.17":  "__VERIFIER_assume(i >= 0 && i < 4);",
		"main.1":   "int i;",
		"worker.1": "pthread_mutex_lock(&m);",
	}
	for l, w := range want {
		if byLabel[l] != w {
			t.Errorf("%s printed as %q, want %q", l, byLabel[l], w)
		}
	}
	// labels sanitise to unique C identifiers
	if byLabel["main.loop"] == byLabel["main_loop"] {
		t.Errorf("main.loop and main_loop print the same: %q", byLabel["main.loop"])
	}
	if !regexp.MustCompile(`^L_main_loop: ;$`).MatchString(byLabel["main.loop"]) {
		t.Errorf("main.loop printed as %q", byLabel["main.loop"])
	}
	// the multi-target goto is a nondet switch on one line
	found := false
	for _, s := range byLabel {
		if strings.HasPrefix(s, "if (i < 3) switch (__VERIFIER_nondet_int()) { case 0: goto L_main_loop; case 1: goto L_main_loop_2; default: goto L_main_end; }") {
			found = true
		}
	}
	if !found {
		t.Errorf("no nondet switch for the three-target goto in\n%s", src)
	}
	for _, s := range []string{
		"pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;",
		"struct pair$s pr = {PTHREAD_MUTEX_INITIALIZER, {7}, {1, (struct node *)0}};",
		"void *(*fp)(void *) = worker;",
		"typedef int myint_t;",
		"struct node { int val; struct node *next; };",
		"pthread_mutex_init(&m2, 0);",
		"L_main_declt: ; signed char late;",
		"L_main_end: pthread_exit(0);",
		"list = malloc((1) * sizeof(struct node));",
		"extern struct node __VERIFIER_nondet_struct_node(void);",
	} {
		if !strings.Contains(src, s) {
			t.Errorf("output lacks %q:\n%s", s, src)
		}
	}
	if strings.Contains(src, "typedef unsigned long long pthread_t") {
		t.Error("pthread_t must come from <pthread.h>")
	}
}

func TestShow(t *testing.T) {
	p := richProgram()
	var a, b bytes.Buffer
	if err := Show(&a, p); err != nil {
		t.Fatal(err)
	}
	if err := Show(&b, p); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatal("Show is not deterministic")
	}
	out := a.String()
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			line := fmt.Sprintf("%s   // %s", in.String(), in.Pos)
			re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(string(in.Label)) + ` +` + regexp.QuoteMeta(line) + `$`)
			if !re.MatchString(out) {
				t.Errorf("Show lacks the line of %s: %q", in.Label, line)
			}
		}
	}
	for _, s := range []string{"int x = 0", "unsigned int y$1 = 4294967295U", "int a[4] = {1, 2}", "void *worker(void *arg)", "void __VERIFIER_atomic_inc(void)   // atomic"} {
		if !strings.Contains(out, s) {
			t.Errorf("Show lacks %q:\n%s", s, out)
		}
	}
}

func TestPrintRejectsUnprintable(t *testing.T) {
	p := tinyProgram()
	p.Globals = append(p.Globals, &Var{Name: "held", Type: MutexType, Init: &Const{T: MutexType, V: 1}})
	if _, err := Print(&bytes.Buffer{}, p); err == nil {
		t.Error("a mutex initialised as held printed without error")
	}
}

// TestPrintInitOrder: a global whose initialiser names another global that
// comes after it in Program.Globals (the front end adds a string literal's
// object, __str_N, after the globals pointing into it) is printed after
// that one, so the C compiles (ESBMC rejected char_generic_nvram of
// sv-comp-new: "use of undeclared identifier '__str_0'").
func TestPrintInitOrder(t *testing.T) {
	str := ArrayOf(CharType, 3)
	cp := PointerTo(CharType, 4)
	p := tinyProgram()
	p.Globals = append(p.Globals,
		&Var{Name: "name", Type: cp, Init: &AddrOf{X: &Index{X: gref("__str_0", str), I: ic(0), T: CharType}, T: cp}},
		&Var{Name: "__str_0", Type: str, Init: &Compound{T: str, Elems: []Expr{&Const{T: CharType, V: 'h'}, &Const{T: CharType, V: 'i'}, &Const{T: CharType, V: 0}}}})
	src, _ := printString(t, p)
	if strings.Index(src, "__str_0[3] =") > strings.Index(src, "name = ") {
		t.Errorf("name printed before __str_0:\n%s", src)
	}
	gccSyntax(t, "initorder", src)
}

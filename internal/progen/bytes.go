package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// GenerateBytes returns a concurrent program that looks at memory as
// bytes, for differential tests of the memory model against gcc -m32 and
// -m64 (issue 26). It declares padded structs of random members (every
// integer width, long, enums of both signednesses, void pointers, arrays,
// nested structs), arrays of them, a union (written and read through
// different members in a third of the programs) and a few scalars; two or three
// threads each own one array element (reached through its address or,
// with container_of, through a member's) and bytes of shared scalars, and
// write them through char pointers plus offsetof, through character
// stores into scalars, memset-like loops and pointer differences. After
// joining them main computes the observations (Globals, long long): members
// and their bytes read back, byte walks over members, pointer differences and
// comparisons in bytes, container_of, sizeof/_Alignof/offsetof, enum
// values and comparisons, union members read through another member, &&
// with a pointer operand.
//
// No two threads write the same byte and main reads only after the joins,
// so every schedule gives the same observations and one gcc run per data
// model decides them (they differ between -m32 and -m64: sizes, offsets).
// Byte reads and walks touch neither pointers (an address's bytes differ
// between runs) nor padding (unspecified in C once a member is stored,
// C11 6.2.6.1p6; gcc leaves it zero, the model calls it not modelled).
// Unwind is the unwinding the loops need to end.
func GenerateBytes(seed int64) Arith {
	g := &bytesGen{r: rand.New(rand.NewSource(seed))}
	return g.program()
}

// bScalar is a scalar C type of the generated structs.
type bScalar struct {
	c        string // the C type
	min      int    // its size in the smaller data model (ILP32)
	ptr      bool   // void *
	enum     bool
	unsigned bool
}

var bScalars = []bScalar{
	{c: "char", min: 1}, {c: "unsigned char", min: 1, unsigned: true},
	{c: "short", min: 2}, {c: "unsigned short", min: 2, unsigned: true},
	{c: "int", min: 4}, {c: "unsigned", min: 4, unsigned: true},
	{c: "long", min: 4}, {c: "unsigned long", min: 4, unsigned: true},
	{c: "long long", min: 8}, {c: "unsigned long long", min: 8, unsigned: true},
	{c: "enum E0", min: 4, enum: true, unsigned: true}, {c: "enum E1", min: 4, enum: true},
	{c: "void *", min: 4, ptr: true},
}

// bMember is a member of a generated struct: a scalar, an array of one,
// or an earlier struct.
type bMember struct {
	name string
	sc   *bScalar
	n    int      // array length (0: not an array)
	sub  *bStruct // nested struct
}

type bStruct struct {
	name    string // "struct S0"
	members []bMember
}

// bSlot is a scalar inside a struct: its access path from the struct
// (".a[1]", ".m.x"), its byte offset as a C constant expression, its type.
type bSlot struct {
	path, off string
	sc        *bScalar
	top       string // the top-level member it lies in
}

func (s *bStruct) hasPtr() bool {
	for _, sl := range s.slots() {
		if sl.sc.ptr {
			return true
		}
	}
	return false
}

// slots lists s's scalars; offsets are written with offsetof, sometimes
// with a member designator (offsetof(struct S, m.x), offsetof(struct S,
// a[1])), which C allows, sometimes as sums.
func (s *bStruct) slots() []bSlot {
	var out []bSlot
	for i := range s.members {
		m := &s.members[i]
		base := fmt.Sprintf("offsetof(%s, %s)", s.name, m.name)
		switch {
		case m.sub != nil:
			for j, sl := range m.sub.slots() {
				off := base + " + " + sl.off
				if j%2 == 1 {
					off = fmt.Sprintf("offsetof(%s, %s%s)", s.name, m.name, sl.path)
				}
				out = append(out, bSlot{path: "." + m.name + sl.path, off: off, sc: sl.sc, top: m.name})
			}
		case m.n > 0:
			for k := 0; k < m.n; k++ {
				off := fmt.Sprintf("%s + %d * sizeof(%s)", base, k, m.sc.c)
				if k%2 == 1 {
					off = fmt.Sprintf("offsetof(%s, %s[%d])", s.name, m.name, k)
				}
				out = append(out, bSlot{path: fmt.Sprintf(".%s[%d]", m.name, k), off: off, sc: m.sc, top: m.name})
			}
		default:
			out = append(out, bSlot{path: "." + m.name, off: base, sc: m.sc, top: m.name})
		}
	}
	return out
}

// elems is the length of each struct's global array.
const elems = 3

type bytesGen struct {
	r       *rand.Rand
	b       strings.Builder
	structs []*bStruct
	obs     []string
	loop    int  // the longest loop's iterations
	union   bool // thread 1 writes gu and main reads it (a third of the programs)
}

func (g *bytesGen) p(format string, args ...any) {
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *bytesGen) value() string {
	vs := []string{"0", "1", "2", "7", "100", "255", "-1", "-2", "300", "65537", "-129", "0x12345678"}
	return vs[g.r.Intn(len(vs))]
}

// negValue is a value, negative half of the time (for enums: their
// signedness shows in negative values).
func (g *bytesGen) negValue() string {
	if g.r.Intn(2) == 0 {
		return "-" + []string{"1", "2", "3", "129", "70000"}[g.r.Intn(5)]
	}
	return g.value()
}

func (g *bytesGen) program() Arith {
	g.p("#include <pthread.h>")
	g.p("#include <stddef.h>")
	g.p("#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))")
	g.p("enum E0 { E0_A, E0_B, E0_C };")
	g.p("enum E1 { E1_N = -2, E1_M, E1_P };")
	g.union = g.r.Intn(3) == 0
	ns := 1 + g.r.Intn(3)
	for i := 0; i < ns; i++ {
		g.structs = append(g.structs, g.structType(i))
	}
	g.p("union U { unsigned int w; unsigned char b[4]; unsigned short h[2]; long long ll; };")
	for i, s := range g.structs {
		g.p("%s g%d[%d];", s.name, i, elems)
	}
	g.p("unsigned int w;")
	g.p("long long q;")
	g.p("enum E0 ev0;")
	g.p("enum E1 ev1;")
	g.p("union U gu;")
	g.p("int mw;")
	nobs := 5 + g.r.Intn(5)
	for i := 0; i < nobs; i++ {
		g.obs = append(g.obs, fmt.Sprintf("o%d", i))
		g.p("long long o%d;", i)
	}

	// each thread owns one (struct, element) pair
	type pair struct{ s, e int }
	var pairs []pair
	for i := range g.structs {
		for e := 0; e < elems; e++ {
			pairs = append(pairs, pair{i, e})
		}
	}
	g.r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	nt := 2 + g.r.Intn(2)
	args := make([]string, nt)
	for t := 0; t < nt; t++ {
		pr := pairs[t]
		s := g.structs[pr.s]
		g.p("void *t%d(void *arg) {", t)
		if g.r.Intn(2) == 0 {
			m := s.members[g.r.Intn(len(s.members))]
			args[t] = fmt.Sprintf("&g%d[%d].%s", pr.s, pr.e, m.name)
			g.p("  %s *e = container_of(arg, %s, %s);", s.name, s.name, m.name)
		} else {
			args[t] = fmt.Sprintf("&g%d[%d]", pr.s, pr.e)
			g.p("  %s *e = (%s *)arg;", s.name, s.name)
		}
		g.p("  char *b = (char *)e;")
		for k := 0; k < 1+g.r.Intn(4); k++ {
			g.threadStmt(s)
		}
		g.p("  ((unsigned char *)&w)[%d] = (unsigned char)(%s);", t, g.value())
		switch t {
		case 0:
			g.p("  ev0 = (enum E0)(%s);", g.negValue())
			g.p("  *((unsigned char *)&q + %d) = (unsigned char)(%s);", g.r.Intn(8), g.value())
		case 1:
			g.p("  ev1 = (enum E1)(%s);", g.negValue())
			if !g.union {
				break
			}
			if g.r.Intn(2) == 0 {
				g.p("  gu.w = (unsigned int)(%s);", g.value())
			} else {
				g.p("  gu.h[%d] = (unsigned short)(%s);", g.r.Intn(2), g.value())
			}
		}
		g.p("  return 0;")
		g.p("}")
	}

	g.p("int main(void) {")
	for t := 0; t < nt; t++ {
		g.p("  pthread_t h%d;", t)
	}
	for t := 0; t < nt; t++ {
		g.p("  pthread_create(&h%d, 0, t%d, %s);", t, t, args[t])
	}
	for t := 0; t < nt; t++ {
		g.p("  pthread_join(h%d, 0);", t)
	}
	// the observations' kinds: a permutation of all of them, so that a
	// few programs together cover every kind
	kinds := g.r.Perm(nObsKinds)
	for i, o := range g.obs {
		g.observe(o, kinds[i%nObsKinds])
	}
	g.p("  return 0;")
	g.p("}")
	unwind := 0
	if g.loop > 0 {
		unwind = g.loop + 1
	}
	return Arith{Src: g.b.String(), Globals: g.obs, Unwind: unwind}
}

func (g *bytesGen) structType(i int) *bStruct {
	s := &bStruct{name: fmt.Sprintf("struct S%d", i)}
	nm := 2 + g.r.Intn(3)
	for k := 0; k < nm; k++ {
		m := bMember{name: fmt.Sprintf("m%d", k)}
		switch c := g.r.Intn(10); {
		case c < 2 && i > 0 && len(g.structs[c%i].slots()) <= 6:
			m.sub = g.structs[c%i]
		case c < 4:
			m.sc = &bScalars[g.r.Intn(len(bScalars)-1)] // no arrays of pointers
			m.n = 1 + g.r.Intn(3)
		default:
			m.sc = &bScalars[g.r.Intn(len(bScalars))]
		}
		s.members = append(s.members, m)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s {", s.name)
	for _, m := range s.members {
		switch {
		case m.sub != nil:
			fmt.Fprintf(&b, " %s %s;", m.sub.name, m.name)
		case m.n > 0:
			fmt.Fprintf(&b, " %s %s[%d];", m.sc.c, m.name, m.n)
		default:
			fmt.Fprintf(&b, " %s %s;", m.sc.c, m.name)
		}
	}
	b.WriteString(" };")
	g.p("%s", b.String())
	return s
}

// scalarSlot picks a slot of s that is not a pointer, or returns false.
func (g *bytesGen) scalarSlot(s *bStruct) (bSlot, bool) {
	var ok []bSlot
	for _, sl := range s.slots() {
		if !sl.sc.ptr {
			ok = append(ok, sl)
		}
	}
	if len(ok) == 0 {
		return bSlot{}, false
	}
	return ok[g.r.Intn(len(ok))], true
}

// threadStmt writes part of the thread's element e (b is (char *)e).
func (g *bytesGen) threadStmt(s *bStruct) {
	slots := s.slots()
	sl := slots[g.r.Intn(len(slots))]
	if sl.sc.ptr {
		g.p("  *(void **)(b + %s) = (void *)&w;", sl.off)
		return
	}
	switch g.r.Intn(5) {
	case 0:
		g.p("  *(%s *)(b + %s) = (%s)(%s);", sl.sc.c, sl.off, sl.sc.c, g.value())
	case 1:
		g.p("  ((unsigned char *)(b + %s))[%d] = (unsigned char)(%s);", sl.off, g.r.Intn(sl.sc.min), g.value())
	case 2:
		// memset-like over the top-level member, when it holds no pointer
		var m *bMember
		for i := range s.members {
			if s.members[i].name == sl.top {
				m = &s.members[i]
			}
		}
		if (m.sub != nil && m.sub.hasPtr()) || (m.sc != nil && m.sc.ptr) {
			g.p("  e->%s = (%s)(%s);", sl.path[1:], sl.sc.c, g.value())
			return
		}
		g.loop = max(g.loop, 8)
		g.p("  for (int i = 0; i < (int)sizeof(e->%s) && i < 8; i++)", m.name)
		g.p("    ((unsigned char *)&e->%s)[i] = (unsigned char)(%s + i);", m.name, g.value())
	case 3:
		other := slots[g.r.Intn(len(slots))]
		g.p("  *(%s *)(b + %s) = (%s)((char *)&e->%s - (char *)e);", sl.sc.c, sl.off, sl.sc.c, other.path[1:])
	default:
		g.p("  e->%s = (%s)(%s);", sl.path[1:], sl.sc.c, g.value())
	}
}

// nObsKinds is the number of kinds of observations.
const nObsKinds = 16

// observe emits main's computation of observation o, of the given kind.
func (g *bytesGen) observe(o string, kind int) {
	si := g.r.Intn(len(g.structs))
	s := g.structs[si]
	gs := fmt.Sprintf("g%d", si)
	e := g.r.Intn(elems)
	slots := s.slots()
	sl := slots[g.r.Intn(len(slots))]
	sl2 := slots[g.r.Intn(len(slots))]
	switch kind {
	case 0, 1:
		if sl.sc.ptr {
			g.p("  %s = %s[%d]%s == (void *)&w;", o, gs, e, sl.path)
		} else {
			g.p("  %s = %s[%d]%s;", o, gs, e, sl.path)
		}
	case 2:
		// a byte of a scalar, reached through the struct's address and
		// the scalar's offset
		if sl.sc.ptr {
			g.p("  %s = sizeof(%s) * 100 + _Alignof(%s);", o, s.name, s.name)
			return
		}
		g.p("  %s = ((unsigned char *)&%s[%d] + %s)[%d];", o, gs, e, sl.off, g.r.Intn(sl.sc.min))
	case 3:
		// a byte walk over a member without padding (a scalar or an
		// array of them), else over q
		var walk []string
		for _, m := range s.members {
			if m.sc != nil && !m.sc.ptr {
				walk = append(walk, fmt.Sprintf("%s[%d].%s", gs, e, m.name))
			}
		}
		obj := "q"
		if len(walk) > 0 {
			obj = walk[g.r.Intn(len(walk))]
		}
		g.loop = max(g.loop, 16)
		g.p("  {")
		g.p("    unsigned h = 0;")
		g.p("    for (int i = 0; i < (int)sizeof(%s) && i < 16; i++)", obj)
		g.p("      h = h * 31u + ((unsigned char *)&%s)[i];", obj)
		g.p("    %s = h;", o)
		g.p("  }")
	case 4:
		g.p("  %s = (char *)&%s[%d]%s - (char *)&%s[%d]%s;", o, gs, e, sl.path, gs, g.r.Intn(elems), sl2.path)
	case 5:
		m := s.members[g.r.Intn(len(s.members))]
		g.p("  %s = container_of(&%s[%d].%s, %s, %s) - %s;", o, gs, e, m.name, s.name, m.name, gs)
	case 6:
		op := []string{"<", "==", ">=", "!="}[g.r.Intn(4)]
		g.p("  %s = (char *)&%s[0]%s + %d %% sizeof(%s) %s (char *)&%s[0]%s;", o, gs, sl.path, g.r.Intn(12), s.name, op, gs, sl2.path)
	case 7:
		switch g.r.Intn(3) {
		case 0:
			g.p("  %s = sizeof(%s);", o, s.name)
		case 1:
			g.p("  %s = _Alignof(%s);", o, s.name)
		default:
			g.p("  %s = %s;", o, sl.off)
		}
	case 8:
		exprs := []string{"ev0", "ev0 > 0", "ev0 > E0_B", "ev0 / 2", "ev1", "ev1 < 0", "ev1 < E1_M", "(enum E0)ev1 > E0_B", "ev1 / 2", "sizeof(enum E1) + sizeof ev0"}
		g.p("  %s = %s;", o, exprs[g.r.Intn(len(exprs))])
	case 9:
		g.p("  %s = w;", o)
	case 10:
		if !g.union {
			g.p("  %s = sizeof(union U) * 10 + _Alignof(union U);", o)
			return
		}
		exprs := []string{"gu.w", fmt.Sprintf("gu.b[%d]", g.r.Intn(4)), fmt.Sprintf("gu.h[%d]", g.r.Intn(2)), "gu.ll"}
		g.p("  %s = %s;", o, exprs[g.r.Intn(len(exprs))])
	case 11:
		if g.r.Intn(2) == 0 {
			g.p("  %s = q;", o)
		} else {
			g.p("  %s = ((unsigned char *)&q)[%d];", o, g.r.Intn(8))
		}
	case 12:
		if sl.sc.ptr {
			g.p("  %s = w != 0 && %s[%d]%s;", o, gs, e, sl.path)
		} else {
			g.p("  {")
			g.p("    char *p = (char *)&%s[%d];", gs, e)
			g.p("    %s = (%s[%d]%s == 0 && p) + (!p || w == 0);", o, gs, e, sl.path)
			g.p("  }")
		}
	case 13:
		g.loop = max(g.loop, 4)
		g.p("  for (int i = 0; i < 4; i++)")
		g.p("    ((unsigned char *)&mw)[i] = (unsigned char)(%s + i);", g.value())
		g.p("  %s = mw;", o)
	case 14:
		g.p("  %s = (char *)&%s[%d] - (char *)%s + (&%s[%d] - &%s[0]);", o, gs, e, gs, gs, e, gs)
	default:
		if sl.sc.ptr {
			g.p("  %s = *(void **)((char *)&%s[%d] + %s) == (void *)&w;", o, gs, e, sl.off)
		} else {
			g.p("  %s = *(%s *)((char *)&%s[%d] + %s);", o, sl.sc.c, gs, e, sl.off)
		}
	}
}

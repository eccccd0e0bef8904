package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// GenerateHeap returns a concurrent program that grows and shrinks heap
// blocks with realloc, for differential tests of the heap model against
// gcc -m32 and -m64 (issue 30: realloc). Two threads each own a vector
// (a global pointer and its length) of one element type (an integer type
// or a padded struct, whose members are written one by one); each
// allocates it (malloc, or realloc of a null pointer), writes every
// element, then grows it (writing the new elements), shrinks it or
// overwrites an element, once or twice (a block of the concurrent
// encoding costs events per cell and reader: kept small), through realloc in the forms real
// code writes: the result in a typed pointer, or in a void * tested
// against NULL before it is assigned, with sizes that are constants or
// computed from the length (sizeof(T) or sizeof *v). After joining them
// main observes elements (long long globals o0, o1, ...), the lengths,
// and whether realloc to size zero gave a null pointer (glibc frees the
// block and returns NULL).
//
// No thread touches the other's vector and main reads only after the
// joins, so every schedule gives the same observations and one gcc run
// per data model decides them. No element is read before it is written,
// and malloc and realloc of these sizes do not fail (a failed one leaves
// the thread early: its observations would be of unwritten elements, so
// the test's gcc run would be unreliable; it does not happen). The program
// has no loop.
func GenerateHeap(seed int64) Arith {
	g := &heapGen{r: rand.New(rand.NewSource(seed))}
	return g.program()
}

type heapGen struct {
	r   *rand.Rand
	b   strings.Builder
	obs []string
}

// heapElem is an element type of a vector; members is nil for an
// integer type.
type heapElem struct {
	c       string
	members []string
}

var heapElems = []heapElem{
	{c: "int"}, {c: "unsigned char"}, {c: "short"}, {c: "long long"}, {c: "unsigned"},
	{c: "struct P", members: []string{"a", "b", "c"}},
}

func (g *heapGen) p(format string, args ...any) {
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// value is a small constant, negative in a third of the cases.
func (g *heapGen) value() string {
	v := g.r.Intn(200)
	if g.r.Intn(3) == 0 {
		v = -v
	}
	return fmt.Sprint(v)
}

// write writes element i of vector v (type e).
func (g *heapGen) write(v string, e heapElem, i int) {
	if e.members == nil {
		g.p("  %s[%d] = (%s)(%s);", v, i, e.c, g.value())
		return
	}
	for _, m := range e.members {
		g.p("  %s[%d].%s = %s;", v, i, m, g.value())
	}
}

// size is the byte size of n elements of vector v (type e, length
// variable nv whose value is n): a constant count, the length variable
// plus a constant, times sizeof the type or of an element.
func (g *heapGen) size(v, nv string, e heapElem, n, cur int) string {
	count := fmt.Sprint(n)
	if g.r.Intn(2) == 0 {
		switch d := n - cur; {
		case d > 0:
			count = fmt.Sprintf("(%s + %d)", nv, d)
		case d < 0:
			count = fmt.Sprintf("(%s - %d)", nv, -d)
		default:
			count = nv
		}
	}
	if g.r.Intn(2) == 0 {
		return fmt.Sprintf("%s * sizeof(%s)", count, e.c)
	}
	return fmt.Sprintf("%s * sizeof *%s", count, v)
}

// resize reallocates vector v from cur to n elements.
func (g *heapGen) resize(v, nv string, e heapElem, cur, n int) {
	sz := g.size(v, nv, e, n, cur)
	if g.r.Intn(2) == 0 {
		g.p("  { %s *q = realloc(%s, %s); if (!q) return 0; %s = q; }", e.c, v, sz, v)
	} else {
		g.p("  { void *tmp = realloc(%s, %s); if (tmp == NULL) return 0; %s = tmp; }", v, sz, v)
	}
	g.p("  %s = %d;", nv, n)
}

func (g *heapGen) program() Arith {
	g.p("#include <pthread.h>")
	g.p("#include <stdlib.h>")
	g.p("struct P { short a; long long b; char c; };")
	const nt = 2
	elems := make([]heapElem, nt)
	for t := range nt {
		elems[t] = heapElems[g.r.Intn(len(heapElems))]
		g.p("%s *v%d;", elems[t].c, t)
		g.p("int n%d;", t)
	}
	nobs := 4 + g.r.Intn(4)
	for i := range nobs {
		g.obs = append(g.obs, fmt.Sprintf("o%d", i))
		g.p("long long o%d;", i)
	}
	lens := make([]int, nt)
	for t := range nt {
		e := elems[t]
		v, nv := fmt.Sprintf("v%d", t), fmt.Sprintf("n%d", t)
		g.p("void *t%d(void *arg) {", t)
		n := 1 + g.r.Intn(2)
		if g.r.Intn(3) == 0 {
			g.p("  %s = realloc(0, %d * sizeof(%s));", v, n, e.c)
		} else {
			g.p("  %s = malloc(%d * sizeof(%s));", v, n, e.c)
		}
		g.p("  if (%s == 0) return 0;", v)
		g.p("  %s = %d;", nv, n)
		for i := range n {
			g.write(v, e, i)
		}
		for range 1 + g.r.Intn(2) {
			switch k := g.r.Intn(3); {
			case k == 0 || n == 1: // grow, writing the new elements
				m := n + 1
				g.resize(v, nv, e, n, m)
				for i := n; i < m; i++ {
					g.write(v, e, i)
				}
				n = m
			case k == 1: // shrink
				m := 1 + g.r.Intn(n-1)
				g.resize(v, nv, e, n, m)
				n = m
			default: // overwrite an element
				g.write(v, e, g.r.Intn(n))
			}
		}
		g.p("  return 0;")
		g.p("}")
		lens[t] = n
	}
	g.p("int main(void) {")
	g.p("  pthread_t h0, h1;")
	g.p("  pthread_create(&h0, 0, t0, 0);")
	g.p("  pthread_create(&h1, 0, t1, 0);")
	g.p("  pthread_join(h0, 0);")
	g.p("  pthread_join(h1, 0);")
	zero := g.r.Intn(2) == 0 // the last observation: realloc of v1 to size zero
	for i, o := range g.obs {
		t := g.r.Intn(nt)
		switch {
		case zero && i == len(g.obs)-1:
			g.p("  { %s *z = realloc(v1, 0); %s = z == 0; }", elems[1].c, o)
		case g.r.Intn(5) == 0:
			g.p("  %s = n%d;", o, t)
		case elems[t].members != nil:
			m := elems[t].members[g.r.Intn(len(elems[t].members))]
			g.p("  %s = v%d[%d].%s;", o, t, g.r.Intn(lens[t]), m)
		default:
			g.p("  %s = v%d[%d];", o, t, g.r.Intn(lens[t]))
		}
	}
	g.p("  return 0;")
	g.p("}")
	return Arith{Src: g.b.String(), Globals: g.obs}
}

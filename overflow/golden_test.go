package overflow

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/program"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/overflow/*.txtar")

// TestGolden adds the overflow checks to the input.c section of every
// archive in testdata/overflow (lowered in ILP32, or LP64 when an options
// section says so) and compares program.Show (-- show --) and
// program.Print (-- print.c --) of the result, and where each check went
// (-- layout --), with the archive. The output must pass program.Check,
// compile with gcc -fsyntax-only and lower again (lemmatest.CheckOutput);
// the input must be unchanged, keep every label in order, and adding the
// checks again must change nothing.
func TestGolden(t *testing.T) {
	lemmatest.Goldens(t, "overflow", func(t *testing.T, file string) {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := lemmatest.Section(a, "input.c")
		model := program.ILP32
		if o, _ := lemmatest.Section(a, "options"); strings.Contains(o, "LP64") {
			model = program.LP64
		}
		p, err := frontend.Lower("input.c", []byte(src), frontend.Options{Model: model})
		if err != nil {
			t.Fatal(err)
		}
		var before, after bytes.Buffer
		program.Show(&before, p)
		q, lay := Add(p)
		program.Show(&after, p)
		if before.String() != after.String() {
			t.Errorf("Add changed its input")
		}
		keptInOrder(t, p, q)
		show, print := lemmatest.CheckOutput(t, q)
		var lb strings.Builder
		for _, f := range p.Funcs {
			for _, in := range f.Body {
				if l, ok := lay[in.Label]; ok {
					fmt.Fprintf(&lb, "%s: %d hoisted, %v\n", in.Label, l.Hoisted, l.Labels)
				}
			}
		}
		var again bytes.Buffer
		q2, lay2 := Add(q)
		program.Show(&again, q2)
		if again.String() != show || len(lay2) != 0 {
			t.Errorf("adding the checks twice changed the program")
		}
		got := map[string]string{"layout": lb.String(), "show": show, "print.c": print}
		lemmatest.CompareGolden(t, file, a, got, []string{"layout", "show", "print.c"}, *update)
	})
}

// keptInOrder checks that q has every instruction label of p, in p's order
// within each function.
func keptInOrder(t *testing.T, p, q *program.Program) {
	t.Helper()
	for _, f := range p.Funcs {
		g := q.Func(f.Name)
		j := 0
		for _, in := range g.Body {
			if j < len(f.Body) && in.Label == f.Body[j].Label {
				j++
			}
		}
		if j != len(f.Body) {
			t.Errorf("%s: the labels of the input are not all kept in order (%d of %d)", f.Name, j, len(f.Body))
		}
	}
}

package refine

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/refine/*.txtar")

var haveGCC = func() bool { _, err := exec.LookPath("gcc"); return err == nil }()

func TestMain(m *testing.M) {
	flag.Parse()
	if !haveGCC {
		fmt.Fprintln(os.Stderr, "gcc not found: skipping the gcc -fsyntax-only checks of printed C")
	}
	os.Exit(m.Run())
}

func lower(t testing.TB, name string, src []byte) *program.Program {
	t.Helper()
	p, err := frontend.Lower(name, src, frontend.Options{})
	if err != nil {
		t.Fatalf("lower %s: %v", name, err)
	}
	return p
}

func progFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "progs", "*.c"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in testdata/progs (%v)", err)
	}
	return files
}

// abstraction is one choice of V0 and the abstraction it gives.
type abstraction struct {
	name string
	a    *program.Program
	kept []depgraph.Var
}

// abstractions returns a few abstractions of p: the paper's heuristic
// (Steps K=1), K=0, and single alias groups of globals; duplicates and
// choices the slicer rejects are skipped.
func abstractions(t testing.TB, p *program.Program) []abstraction {
	g := depgraph.Build(p)
	var choices [][]depgraph.Var
	choices = append(choices, depgraph.Choose(g, depgraph.Steps{K: 1}, ""), depgraph.Choose(g, depgraph.Steps{K: 0}, ""))
	n := 0
	for _, v := range p.Globals {
		if n >= 3 {
			break
		}
		choices = append(choices, depgraph.Choose(g, depgraph.Keep{Vars: []depgraph.Var{depgraph.Var(v.Name)}}, ""))
		n++
	}
	seen := map[string]bool{}
	var out []abstraction
	for _, c := range choices {
		a, kept, err := slice.Abstract(p, g, c)
		if err != nil {
			continue
		}
		key := fmt.Sprint(kept)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, abstraction{name: key, a: a, kept: kept})
	}
	return out
}

// checkOutput runs program.Check on q, prints it, compiles the C with gcc
// -fsyntax-only and lowers it again; it returns Show and Print output.
func checkOutput(t testing.TB, q *program.Program) (show, print string) {
	t.Helper()
	if err := program.Check(q); err != nil {
		t.Errorf("Check: %v", err)
	}
	var sb, pb bytes.Buffer
	if err := program.Show(&sb, q); err != nil {
		t.Fatalf("Show: %v", err)
	}
	if _, err := program.Print(&pb, q); err != nil {
		t.Fatalf("Print: %v", err)
	}
	if haveGCC {
		cmd := exec.Command("gcc", "-fsyntax-only", "-w", "-x", "c", "-")
		cmd.Stdin = bytes.NewReader(pb.Bytes())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("printed C does not compile: %v\n%s", err, out)
		}
	}
	q2, err := frontend.Lower("printed.c", pb.Bytes(), frontend.Options{Model: q.Model})
	if err != nil {
		t.Errorf("lowering the printed C: %v", err)
	} else if err := program.Check(q2); err != nil {
		t.Errorf("Check after re-lowering: %v", err)
	}
	return sb.String(), pb.String()
}

func isPrefix(a, b []program.Label) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func labelsString(ls []program.Label) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(l))
	}
	return b.String()
}

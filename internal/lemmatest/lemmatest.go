// Package lemmatest holds the helpers shared by the lemma and golden tests
// of packages reconstruct and refine: lowering test programs, choosing a few
// abstractions of a program, and checking a translation's output (sanity
// checker, printing, gcc -fsyntax-only, re-lowering).
package lemmatest

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

// HaveGCC reports whether gcc is on PATH; without it CheckOutput skips the
// compilation of printed C.
var HaveGCC = func() bool { _, err := exec.LookPath("gcc"); return err == nil }()

// Lower lowers C source in ILP32 or fails the test: the golden files and
// the lemma tests name a data model, so that their outputs do not depend on
// the host's.
func Lower(t testing.TB, name string, src []byte) *program.Program {
	t.Helper()
	p, err := frontend.Lower(name, src, frontend.Options{Model: program.ILP32})
	if err != nil {
		t.Fatalf("lower %s: %v", name, err)
	}
	return p
}

// ProgFiles returns testdata/progs/*.c seen from a package directory.
func ProgFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "progs", "*.c"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in testdata/progs (%v)", err)
	}
	return files
}

// Abstraction is one choice of V0 and the abstraction it gives.
type Abstraction struct {
	Name string
	A    *program.Program
	Kept []depgraph.Var
}

// Abstractions returns a few abstractions of p: the paper's heuristic
// (Steps K=1), K=0, and single alias groups of globals; duplicates and
// choices the slicer rejects are skipped.
func Abstractions(t testing.TB, p *program.Program) []Abstraction {
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
	var out []Abstraction
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
		out = append(out, Abstraction{Name: key, A: a, Kept: kept})
	}
	return out
}

// CheckOutput runs program.Check on q, prints it, compiles the C with gcc
// -fsyntax-only and lowers it again; it returns Show and Print output.
func CheckOutput(t testing.TB, q *program.Program) (show, print string) {
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
	if HaveGCC {
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

// IsPrefix reports whether a is a prefix of b.
func IsPrefix(a, b []program.Label) bool {
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

// LabelsString joins labels with spaces.
func LabelsString(ls []program.Label) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(l))
	}
	return b.String()
}

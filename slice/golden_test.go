package slice

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/slice/*.txtar")

var haveGCC = func() bool { _, err := exec.LookPath("gcc"); return err == nil }()

// TestGolden slices the input.c section of every archive in testdata/slice
// to the variables of its -- keep -- section and compares the kept set
// (-- kept --), program.Show (-- show --) and program.Print (-- print.c --)
// of the abstraction with the archive. Every abstraction must pass
// program.Check, keep every label at its place, leave its input unchanged,
// compile with gcc -fsyntax-only, lower again with the front end, and
// satisfy Lemma 1 on simulated runs of the input.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/slice/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	if !haveGCC {
		t.Log("gcc not found: skipping the gcc -fsyntax-only checks of printed C")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			golden(t, file)
		})
	}
}

func golden(t *testing.T, file string) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := section(a, "input.c")
	if src == nil {
		t.Fatal("no input.c section")
	}
	p, err := frontend.Lower("input.c", src, frontend.Options{Model: program.ILP32})
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	var keep []depgraph.Var
	for _, s := range strings.Split(string(section(a, "keep")), ",") {
		if s = strings.TrimSpace(s); s != "" {
			keep = append(keep, depgraph.Var(s))
		}
	}
	g := depgraph.Build(p)
	for _, v := range keep {
		if _, ok := g.Group[v]; !ok {
			t.Fatalf("keep: no variable %s", v)
		}
	}
	var before bytes.Buffer
	program.Show(&before, p)
	abs, kept, err := Abstract(p, g, keep)
	if err != nil {
		t.Fatalf("Abstract: %v", err)
	}
	var after bytes.Buffer
	program.Show(&after, p)
	if before.String() != after.String() {
		t.Errorf("Abstract modified its input:\n%s", after.String())
	}
	if err := program.Check(abs); err != nil {
		t.Errorf("Check: %v", err)
	}
	checkLabels(t, p, abs)
	var show, print bytes.Buffer
	if err := program.Show(&show, abs); err != nil {
		t.Fatal(err)
	}
	if _, err := program.Print(&print, abs); err != nil {
		t.Fatal(err)
	}
	if haveGCC {
		cmd := exec.Command("gcc", "-fsyntax-only", "-w", "-x", "c", "-")
		cmd.Stdin = bytes.NewReader(print.Bytes())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("printed C does not compile: %v\n%s", err, out)
		}
	}
	if p2, err := frontend.Lower("print.c", print.Bytes(), frontend.Options{Model: program.ILP32}); err != nil {
		t.Errorf("lowering the printed abstraction: %v", err)
	} else if err := program.Check(p2); err != nil {
		t.Errorf("Check of the re-lowered abstraction: %v", err)
	}
	// Lemma 1 on this program and V0
	for seed := 0; seed < 200; seed++ {
		o, err := interp.Simulate(p, interp.SimOptions{Seed: int64(seed), MaxSteps: 2000, ContextSwitchProb: 0.3, Unwind: 3})
		if err != nil {
			t.Fatal(err)
		}
		run := o.Run
		if o.Status == interp.Errored {
			run = &program.Run{Steps: run.Steps[:len(run.Steps)-1]}
		}
		if err := checkLemma1(p, abs, kept, run); err != nil {
			t.Errorf("Lemma 1, seed %d: %v", seed, err)
			break
		}
	}
	got := map[string]string{
		"kept":    depgraph.JoinVars(kept) + "\n",
		"show":    show.String(),
		"print.c": print.String(),
	}
	names := []string{"kept", "show", "print.c"}
	if *update {
		for _, n := range names {
			setSection(a, n, []byte(got[n]))
		}
		if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, n := range names {
		if want := section(a, n); string(want) != got[n] {
			t.Errorf("%s differs:\n--- got\n%s--- want\n%s", n, got[n], want)
		}
	}
}

// checkLabels checks that every instruction of p is in a at the same
// function and position, with the same label, and that a has nothing else.
func checkLabels(t *testing.T, p, a *program.Program) {
	t.Helper()
	if len(p.Funcs) != len(a.Funcs) {
		t.Fatalf("functions: %d, want %d", len(a.Funcs), len(p.Funcs))
	}
	for i, f := range p.Funcs {
		g := a.Funcs[i]
		if g.Name != f.Name || len(g.Body) != len(f.Body) {
			t.Errorf("function %s: %s with %d instructions, want %d", f.Name, g.Name, len(g.Body), len(f.Body))
			continue
		}
		for j, in := range f.Body {
			if g.Body[j].Label != in.Label {
				t.Errorf("%s[%d]: label %s, want %s", f.Name, j, g.Body[j].Label, in.Label)
			}
		}
	}
}

func section(a *txtar.Archive, name string) []byte {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func setSection(a *txtar.Archive, name string, data []byte) {
	for i, f := range a.Files {
		if f.Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: data})
}

var _ = fmt.Sprint

package observer

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/observer/*.txtar")

func TestMain(m *testing.M) {
	flag.Parse()
	if !lemmatest.HaveGCC {
		fmt.Fprintln(os.Stderr, "gcc not found: skipping the gcc -fsyntax-only checks of printed C")
	}
	os.Exit(m.Run())
}

// TestGolden reads testdata/observer/*.txtar. Sections:
//
//	input.c   the program P
//	kept      the kept variables V0, one per line (depgraph names);
//	          A = slice.Abstract(P, depgraph.Build(P), V0)
//	run       a spurious run of A (one section per run): lines "thread
//	          label [nondet...]" (the thread id, the label, the integer
//	          Nondet values the step draws), replayed on A; '#' starts a
//	          comment line
//
// and the expected outputs: show (program.Show of A' = Refine(A,
// program.Visible(A), runs)) and print.c (program.Print of A'), or
// error. Regenerate with -update. A' is also checked (program.Check),
// compiled with gcc -fsyntax-only and lowered again, and every run of R is
// checked to stay in the tree while a random run of A' that gets past its
// deviating step leaves it.
func TestGolden(t *testing.T) { lemmatest.Goldens(t, "observer", golden) }

var section = lemmatest.Section

// parseRun reads a "run" section and returns the run of a it describes.
func parseRun(t *testing.T, a *program.Program, text string) *program.Run {
	t.Helper()
	run := lemmatest.ParseSteps(t, text)
	out, err := interp.Replay(a, run)
	if err != nil {
		t.Fatalf("the run does not replay on A: %v", err)
	}
	out.Run.Violated = out.Prop
	return out.Run
}

func golden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src, ok := section(ar, "input.c")
	if !ok {
		t.Fatal("no input.c section")
	}
	p := lemmatest.Lower(t, "input.c", []byte(src))
	keptText, _ := section(ar, "kept")
	var keep []depgraph.Var
	for _, f := range strings.Fields(keptText) {
		keep = append(keep, depgraph.Var(f))
	}
	a, _, err := slice.Abstract(p, depgraph.Build(p), keep)
	if err != nil {
		t.Fatalf("abstract: %v", err)
	}
	var R []*program.Run
	for _, f := range ar.Files {
		if f.Name == "run" {
			R = append(R, parseRun(t, a, string(f.Data)))
		}
	}
	if len(R) == 0 {
		t.Fatal("no run section")
	}
	got := map[string]string{}
	b, err := refine(a, program.Visible(a), R)
	if err != nil {
		got["error"] = err.Error() + "\n"
	} else {
		got["show"], got["print.c"] = lemmatest.CheckOutput(t, b.ap)
		for i, r := range R {
			if _, leave, _, err := b.walk(r); err != nil || leave >= 0 {
				t.Errorf("run %d of R does not stay in the tree (%v)", i+1, err)
			}
		}
		c := lemmaCase{name: filepath.Base(file), ab: lemmatest.Abstraction{A: a}, R: R}
		var n counts
		if soundness(t, c, b, &n, true)+completeness(t, c, b, &n, true) == 0 {
			t.Logf("%+v", n)
		}
	}
	names := []string{"error", "show", "print.c"}
	lemmatest.CompareGolden(t, file, ar, got, names, *update)
}

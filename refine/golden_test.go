package refine

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

// TestGolden reads testdata/refine/*.txtar. Sections:
//
//	input.c   the program P
//	kept      the kept variables V0, one per line (depgraph names);
//	          A = slice.Abstract(P, depgraph.Build(P), V0)
//	spurious  the excluded visible label sequences of A, one per line,
//	          labels separated by white space; '#' starts a comment line
//
// and the expected outputs: show and print.c of A' = Exclude(A,
// program.Visible(A), spurious), or error. Regenerate with -update. A' is also
// checked, compiled with gcc -fsyntax-only and lowered again.
func TestGolden(t *testing.T) { lemmatest.Goldens(t, "refine", golden) }

var section = lemmatest.Section

func golden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src, ok := section(ar, "input.c")
	if !ok {
		t.Fatal("no input.c section")
	}
	p := lower(t, "input.c", []byte(src))
	keptText, _ := section(ar, "kept")
	var keep []depgraph.Var
	for _, f := range strings.Fields(keptText) {
		keep = append(keep, depgraph.Var(f))
	}
	a, _, err := slice.Abstract(p, depgraph.Build(p), keep)
	if err != nil {
		t.Fatalf("abstract: %v", err)
	}
	spText, _ := section(ar, "spurious")
	var R [][]program.Label
	for _, line := range strings.Split(spText, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var seq []program.Label
		for _, f := range strings.Fields(line) {
			seq = append(seq, program.Label(f))
		}
		R = append(R, seq)
	}
	got := map[string]string{}
	ap, _, err := Exclude(a, program.Visible(a), R)
	if err != nil {
		got["error"] = err.Error() + "\n"
	} else {
		got["show"], got["print.c"] = checkOutput(t, ap)
	}
	names := []string{"error", "show", "print.c"}
	lemmatest.CompareGolden(t, file, ar, got, names, *update)
}

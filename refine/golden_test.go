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
//	          labels separated by white space; '#' starts a comment line;
//	          a line may start with its own label set in braces,
//	          "{l1 l2 ...} seq", a pattern over that set
//
// and the expected outputs: show and print.c of A' = Exclude(A,
// program.Visible(A), spurious), or ExcludePatterns(A, patterns) when a
// line has its own label set (the others are over program.Visible(A)), or
// error. Regenerate with -update. A' is also
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
	var ps []Pattern
	own := false
	vis := program.Visible(a)
	for _, line := range strings.Split(spText, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w := vis
		if rest, ok := strings.CutPrefix(line, "{"); ok {
			set, seqText, ok := strings.Cut(rest, "}")
			if !ok {
				t.Fatalf("unclosed label set: %s", line)
			}
			w = map[program.Label]bool{}
			for _, f := range strings.Fields(set) {
				w[program.Label(f)] = true
			}
			line, own = seqText, true
		}
		var seq []program.Label
		for _, f := range strings.Fields(line) {
			seq = append(seq, program.Label(f))
		}
		R = append(R, seq)
		ps = append(ps, Pattern{Labels: w, Seq: seq})
	}
	got := map[string]string{}
	var ap *program.Program
	if own {
		ap, _, err = ExcludePatterns(a, ps)
	} else {
		ap, _, err = Exclude(a, vis, R)
	}
	if err != nil {
		got["error"] = err.Error() + "\n"
	} else {
		got["show"], got["print.c"] = checkOutput(t, ap)
	}
	names := []string{"error", "show", "print.c"}
	lemmatest.CompareGolden(t, file, ar, got, names, *update)
}

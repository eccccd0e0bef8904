package refine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/reconstruct"
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
// Visible(A), spurious), or error. Regenerate with -update. A' is also
// checked, compiled with gcc -fsyntax-only and lowered again.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "refine", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files in testdata/refine")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) { golden(t, file) })
	}
}

func section(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
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
	ap, _, err := Exclude(a, reconstruct.Visible(a), R)
	if err != nil {
		got["error"] = err.Error() + "\n"
	} else {
		got["show"], got["print.c"] = checkOutput(t, ap)
	}
	names := []string{"error", "show", "print.c"}
	if *update {
		var fs []txtar.File
		for _, f := range ar.Files {
			if f.Name != "error" && f.Name != "show" && f.Name != "print.c" {
				fs = append(fs, f)
			}
		}
		for _, n := range names {
			if g, ok := got[n]; ok {
				fs = append(fs, txtar.File{Name: n, Data: []byte(g)})
			}
		}
		ar.Files = fs
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, n := range names {
		want, has := section(ar, n)
		g, ok := got[n]
		switch {
		case ok && !has:
			t.Errorf("unexpected %s:\n%s", n, g)
		case !ok && has:
			t.Errorf("missing %s, want:\n%s", n, want)
		case ok && g != want:
			t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", n, g, want)
		}
	}
}

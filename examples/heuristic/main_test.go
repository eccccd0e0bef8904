package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// build builds the example program into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "heuristic")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The program's own command line finds shared1 with its ladder: the
// depgraph command's output is the golden file (what the package
// comment's heuristic keeps), and bench runs shared1 beside the paper's
// heuristic in loop-only mode, in child processes of the same binary.
func TestExample(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	bin := build(t)
	progs, _ := filepath.Abs("../../testdata/progs")

	out, err := exec.Command(bin, "depgraph", "--heuristic", "shared1", filepath.Join(progs, "lazy_counter_unsafe.c")).CombinedOutput()
	if err != nil {
		t.Fatalf("depgraph: %v\n%s", err, out)
	}
	golden := filepath.Join("testdata", "depgraph.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, out, 0o644)
	}
	if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(out, want) {
		t.Errorf("depgraph --heuristic shared1 (-update rewrites %s): %v\n%s", golden, err, out)
	}

	dir := t.TempDir()
	man := filepath.Join(dir, "manifest.tsv")
	os.WriteFile(man, []byte("file\tcategory\texpected_verdict\n"+
		filepath.Join(progs, "lazy_counter_unsafe.c")+"\tprogs\tfalse\n"+
		filepath.Join(progs, "locked_counter_safe.c")+"\tprogs\ttrue\n"+
		filepath.Join(progs, "paper_fig2.c")+"\tprogs\tfalse\n"), 0o644)
	res := filepath.Join(dir, "out")
	cmd := exec.Command(bin, "bench", "--loop-only", "--heuristics", "paper,shared1", "-j", "1", "--timeout", "60s", "--unwind", "3", "--out", res, man)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bench: %v\n%s", err, out)
	}
	f, err := os.Open(filepath.Join(res, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	seen := map[string]int{}
	for _, r := range rows[1:] {
		seen[r[col["mode"]]]++
		if r[col["status"]] != "correct" {
			t.Errorf("%s %s: %s (%s)", r[col["file"]], r[col["mode"]], r[col["status"]], r[col["reason"]])
		}
		checkLoopColumns(t, col, r)
	}
	if seen["cegpv/shared1"] != 3 || seen["cegpv/paper"] != 3 {
		t.Errorf("modes %v, want 3 rows of cegpv/paper and of cegpv/shared1", seen)
	}
	if b, _ := os.ReadFile(filepath.Join(res, "report.html")); !strings.Contains(string(b), "cegpv/shared1") {
		t.Errorf("report.html does not name cegpv/shared1")
	}
}

// checkLoopColumns checks the loop's figures of a row of results.csv in
// loop-only mode: every verdict is the loop's, which ran at least one
// level and iteration and kept a part of the program's variables.
func checkLoopColumns(t *testing.T, col map[string]int, r []string) {
	t.Helper()
	num := func(name string) float64 {
		i, ok := col[name]
		if !ok {
			t.Fatalf("results.csv has no column %s", name)
		}
		f, err := strconv.ParseFloat(r[i], 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return f
	}
	what := r[col["file"]] + " " + r[col["mode"]]
	if by := r[col["decided_by"]]; by != "the CEGPV loop" {
		t.Errorf("%s: decided by %q, want the loop", what, by)
	}
	if num("levels") < 1 || num("iterations") < 1 || num("spurious") > num("iterations") {
		t.Errorf("%s: %v levels, %v iterations, %v spurious", what, num("levels"), num("iterations"), num("spurious"))
	}
	if kept, of, share := num("kept_vars"), num("program_vars"), num("kept_share"); kept < 1 || kept > of || share <= 0 || share > 1 {
		t.Errorf("%s: kept %v of %v variables, share %v", what, kept, of, share)
	}
	if num("abstract_seconds") <= 0 {
		t.Errorf("%s: no time in abstract checks", what)
	}
}

// smallcone keeps the cone where it has at most 16 variables
// (lazy_counter_unsafe.c: 4) and the paper's set where it has more
// (calls_safe.c: 18 against the paper's 11): its first kept set (V0 of
// depgraph) is the one or the other.
func TestSmallcone(t *testing.T) {
	bin := build(t)
	progs, _ := filepath.Abs("../../testdata/progs")
	v0 := func(h, prog string) []string {
		t.Helper()
		out, err := exec.Command(bin, "depgraph", "--heuristic", h, filepath.Join(progs, prog)).CombinedOutput()
		if err != nil {
			t.Fatalf("depgraph --heuristic %s %s: %v\n%s", h, prog, err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if rest, ok := strings.CutPrefix(l, "V0 ("+h+"): "); ok {
				return strings.Split(rest, ", ")
			}
		}
		t.Fatalf("depgraph --heuristic %s %s: no V0 line\n%s", h, prog, out)
		return nil
	}
	for _, c := range []struct{ prog, like string }{
		{"lazy_counter_unsafe.c", "cone"},
		{"calls_safe.c", "paper"},
	} {
		got, want := v0("smallcone", c.prog), v0(c.like, c.prog)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: smallcone keeps %v, want %s's %v", c.prog, got, c.like, want)
		}
		if c.like == "paper" && len(v0("cone", c.prog)) <= 16 {
			t.Errorf("%s: the cone has at most 16 variables; the test wants a larger one", c.prog)
		}
	}
}

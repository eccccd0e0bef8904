package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// TestTraceGolden replays the run section of every archive in
// testdata/trace on its input.c (lowered in ILP32) and compares the
// counterexample in both --trace styles (-- source.txt --, -- steps.txt --)
// and the JSON trace's reads (-- reads --) with the archive; -update
// rewrites them. Every run must end in a violation, as a FALSE's does.
func TestTraceGolden(t *testing.T) {
	lemmatest.Goldens(t, "trace", func(t *testing.T, file string) {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := lemmatest.Section(ar, "input.c")
		runText, _ := lemmatest.Section(ar, "run")
		// the source file on disk, for the source listing's text
		path := filepath.Join(t.TempDir(), "input.c")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := frontend.Lower(path, []byte(src), frontend.Options{Model: program.ILP32})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := interp.Replay(p, lemmatest.ParseSteps(t, runText))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != interp.Violated {
			t.Fatalf("the run replays to %s, not a violation", rep.Status)
		}
		o := &Outcome{File: path, Program: p}
		o.SetTrace(p, rep.Run)
		if o.TraceError != "" {
			t.Fatal(o.TraceError)
		}
		got := map[string]string{}
		for _, style := range TraceStyles {
			var b strings.Builder
			WriteTrace(&b, o, style)
			got[style+".txt"] = b.String()
		}
		lemmatest.CompareGolden(t, file, ar, got, []string{"source.txt", "steps.txt"}, *update)
	})
}

// In the lost update, the source listing shows both workers reading the
// initial 0 of counter: the point of the bug.
func TestTraceLostUpdateReads(t *testing.T) {
	ar, err := txtar.ParseFile("../testdata/trace/lost_update.txtar")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := lemmatest.Section(ar, "source.txt")
	for _, th := range []string{"1:worker", "2:worker"} {
		row := strings.Index(out, th+"       7 ")
		if row < 0 {
			t.Fatalf("no row of %s at line 7:\n%s", th, out)
		}
		next := out[row:]
		next = next[strings.Index(next, "\n")+1:]
		if !strings.HasPrefix(strings.TrimSpace(next), "reads counter=0 (initial value)") {
			t.Errorf("%s's read of counter at line 7 is not shown as the initial 0:\n%s", th, out)
		}
	}
	if !strings.Contains(out, "Initial values: counter=0\n") {
		t.Errorf("no initial value of counter:\n%s", out)
	}
}

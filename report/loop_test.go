package report

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestLoopMetrics reads testdata/loop.txtar: a bench run of two
// heuristics in loop-only mode (results.json, whose rows have their
// loop statistics only in "loop", as earlier runs wrote them) and the
// golden outputs: results.csv with the loop's columns, the text summary
// with its CEGPV loop table, and the page with the loop's section and
// plots (-update rewrites them). The figures are checked by hand too.
func TestLoopMetrics(t *testing.T) {
	file := filepath.Join("testdata", "loop.txtar")
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "results.json" {
			os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644)
		}
	}
	res, err := Read(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	modes := res.Modes()
	res.Summary = Summarize(res.Tasks, modes)

	// locked.c in cegpv/paper: two spurious iterations with patterns of
	// 3 and 2 labels, a second level keeping 2 of 4 variables
	var locked Row
	for _, r := range res.Tasks {
		if r.File == "locked.c" && r.Mode == "cegpv/paper" {
			locked = r
		}
	}
	want := LoopMetrics{Levels: 2, Iterations: 3, Spurious: 2, KeptVars: 2, ProgramVars: 4, Patterns: 2, PatternLabels: 5}
	got := locked.LoopMetrics
	got.AbstractSec, got.ReconstructSec = 0, 0
	if got != want || locked.KeptShare() != 0.5 || !near(locked.AbstractSec, 1.9) || !near(locked.ReconstructSec, 1.3) {
		t.Errorf("locked.c cegpv/paper: %+v, want %+v, abstract 1.9 s, reconstruct 1.3 s", locked.LoopMetrics, want)
	}
	l := res.Summary[0].Loop
	if l == nil || l.Runs != 3 || l.ByLoop != 2 || l.ByOther != 0 || l.Iterations != 7 || !near(l.MeanKeptShare, (3.0/9+0.5+0.5)/3) {
		t.Errorf("cegpv/paper's loop summary %+v", l)
	}

	var csvOut bytes.Buffer
	w := csv.NewWriter(&csvOut)
	w.Write(CSVHeader)
	for _, r := range res.Tasks {
		w.Write(r.CSV())
	}
	w.Flush()
	// the CSV reads back to the same figures
	os.WriteFile(filepath.Join(dir, "results.csv"), csvOut.Bytes(), 0o644)
	back, err := Read(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range back.Tasks {
		if r.LoopMetrics.KeptVars != res.Tasks[i].KeptVars || r.Iterations != res.Tasks[i].Iterations || r.DecidedBy != res.Tasks[i].DecidedBy ||
			!near(r.AbstractSec, res.Tasks[i].AbstractSec) {
			t.Errorf("row %d read back from the CSV: %+v, want %+v", i, r.LoopMetrics, res.Tasks[i].LoopMetrics)
		}
	}

	var text, page bytes.Buffer
	WriteSummaryText(&text, res.Summary)
	if err := WriteBench(&page, []*Results{res}, dir); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, page.Bytes(), "all")
	if n := strings.Count(page.String(), "<svg "); n != 5 {
		t.Errorf("%d plots, want 5: a time scatter, a quantile plot, kept share against time, the cactus plot of iterations, a kept-share scatter", n)
	}
	outs := map[string][]byte{"results.csv": csvOut.Bytes(), "summary.txt": text.Bytes(), "report.html": page.Bytes()}
	for i, f := range ar.Files {
		g, ok := outs[f.Name]
		if !ok {
			continue
		}
		delete(outs, f.Name)
		if *update {
			ar.Files[i].Data = g
		} else if !bytes.Equal(g, f.Data) {
			t.Errorf("%s: %s differs (go test ./report -run TestLoopMetrics -update rewrites it); got:\n%s", file, f.Name, g)
		}
	}
	for name, g := range outs {
		if !*update {
			t.Errorf("%s has no section %s", file, name)
		}
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: g})
	}
	if *update {
		os.WriteFile(file, txtar.Format(ar), 0o644)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

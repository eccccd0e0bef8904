package report

import (
	"bytes"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		expected, verdict, property string
		proof                       bool
		reason                      string
		status, result              string
		missed                      bool
		score                       int
	}{
		{"true", "TRUE", "", false, "", "correct", "true", false, 2},
		{"true", "TRUE", "", true, "", "correct", "true", false, 2},
		{"false", "FALSE", "", false, "", "correct", "false(unreach-call)", false, 1},
		{"false", "TRUE", "", false, "", "incorrect true", "true", true, -32},
		{"false", "TRUE", "", true, "", "incorrect true", "true", false, -32},
		{"true", "FALSE", "", false, "", "incorrect false", "false(unreach-call)", false, -16},
		{"true", "UNKNOWN", "", false, "budget of 1000 backend checks exhausted", "unknown", "unknown", false, 0},
		{"false", "", "", false, "", "unknown", "unknown", false, 0},
		{"false", "UNKNOWN", "", false, "timeout", "error", "TIMEOUT", false, 0},
		{"true", "UNKNOWN", "", false, "out of memory: 600 MB over --memlimit 500 MB", "error", "OUT OF MEMORY", false, 0},
		{"true", "UNKNOWN", "", false, "unsupported input: t.c:3: C parse error", "error", "ERROR (unsupported input)", false, 0},
		// --unwinding-assertions: a run reached a bound; --signed-overflow-check:
		// an overflow. Neither answers unreach-call (as the tool-info module).
		{"false", "FALSE", "main.unwind.0", false, "", "unknown", "unknown", false, 0},
		{"true", "FALSE", "worker.unwind.2", false, "", "unknown", "unknown", false, 0},
		{"true", "FALSE", "f.recursion", false, "", "unknown", "unknown", false, 0},
		{"true", "FALSE", "main.overflow.1", false, "", "unknown", "unknown", false, 0},
		{"false", "FALSE", "main.assertion.1", false, "", "correct", "false(unreach-call)", false, 1},
		{"true", "FALSE", "main.assertion.1", false, "", "incorrect false", "false(unreach-call)", false, -16},
	} {
		r := Row{Expected: c.expected, Verdict: c.verdict, Property: c.property, Proof: c.proof, Reason: c.reason}
		Classify(&r)
		if r.Status != c.status || r.Result != c.result || r.Missed != c.missed {
			t.Errorf("Classify(%s, %s, %v, %q) = %q %q missed=%v, want %q %q %v", c.expected, c.verdict, c.proof, c.reason, r.Status, r.Result, r.Missed, c.status, c.result, c.missed)
		}
		if got := Score(r); got != c.score {
			t.Errorf("Score(%s, %s) = %d, want %d", c.expected, c.verdict, got, c.score)
		}
	}
}

// TestSummarizeBaseline checks the side-by-side comparison: each mode's
// time is summed over exactly the tasks the first mode solved.
func TestSummarizeBaseline(t *testing.T) {
	rows := []Row{
		{File: "a", Category: "c", Mode: "plain", Status: "correct", WallSec: 10},
		{File: "a", Category: "c", Mode: "cegpv", Status: "correct", WallSec: 1},
		{File: "b", Category: "c", Mode: "plain", Status: "unknown", WallSec: 60},
		{File: "b", Category: "c", Mode: "cegpv", Status: "correct", WallSec: 2},
		{File: "d", Category: "c", Mode: "plain", Status: "correct", WallSec: 4},
		{File: "d", Category: "c", Mode: "cegpv", Status: "unknown", WallSec: 60},
	}
	sums := Summarize(rows, []string{"plain", "cegpv"})
	if p, c := sums[0], sums[1]; p.BaseSolved != 2 || p.BaseSec != 14 || c.BaseSolved != 2 || c.BaseSec != 61 || c.Correct != 2 || p.TotalSec != 74 {
		t.Fatalf("summaries: plain %+v, cegpv %+v", *p, *c)
	}
	var buf bytes.Buffer
	WriteSummaryText(&buf, sums)
	if !strings.Contains(buf.String(), "on the 2 tasks plain solved: plain 14.0s cegpv 61.0s (4.36x of plain)") {
		t.Errorf("summary text:\n%s", buf.String())
	}
}

// benchRuns are two runs as bench-report reads them: one JSON with two
// modes, one CSV of an earlier run (fewer columns) with a mode of the same
// name.
func benchRuns(t *testing.T) []*Results {
	t.Helper()
	a, err := Read("testdata/bench/a/results.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Read("testdata/bench/b/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	return []*Results{a, b}
}

// TestBenchPage checks the report of two runs: well-formed XHTML, the
// scores and counts per category and mode, one scatter plot per mode
// after the first, one quantile line per mode, one table row per task with
// links to the outputs; deterministic (golden testdata/bench.golden.html).
func TestBenchPage(t *testing.T) {
	runs := benchRuns(t)
	var buf bytes.Buffer
	if err := WriteBench(&buf, runs, "testdata/bench"); err != nil {
		t.Fatal(err)
	}
	page := buf.Bytes()
	wellFormed(t, page, "all")
	s := html.UnescapeString(string(page)) // html/template writes "+" as &#43;
	// a: plain + cegpv, b: cegpv (earlier run, CSV): the two cegpv modes
	// are named after their runs
	for _, want := range []string{
		// plain in a: t1 TRUE correct (+2), t2 FALSE correct (+1), t3 bounded TRUE on an unsafe task (incorrect true, missed, -32), t4 timeout (error)
		`<tr class="all"><td>plain</td><td>all</td><td class="num">4</td><td class="num correct">2</td><td class="num wrong">1</td><td class="num">1</td><td class="num">0</td><td class="num">0</td><td class="num">1</td><td class="num">-29</td>`,
		// a:cegpv: t1 proof TRUE, t2 FALSE, t3 FALSE, t4 FALSE on a safe task (incorrect false, -16)
		`<tr class="all"><td>a:cegpv</td><td>all</td><td class="num">4</td><td class="num correct">3</td><td class="num">0</td><td class="num">0</td><td class="num wrong">1</td><td class="num">0</td><td class="num">0</td><td class="num">-12</td>`,
		`<td class="error" title="timeout"><a href="a/out/t4.c.plain.log">TIMEOUT</a>`,
		`<td>b:cegpv</td><td>all</td>`,
		`<a href="a/out/t2.c.plain.log">FALSE</a>`,
		`TRUE (proof)`,
		"+2 correct true, +1 correct false, -32 incorrect true, -16 incorrect false",
		"b has no CPU times",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if n := strings.Count(s, "<svg "); n != 3 {
		t.Errorf("%d plots, want 2 scatter plots and a quantile plot", n)
	}
	if n := strings.Count(s, "<polyline "); n != 3 {
		t.Errorf("%d quantile lines, want 3", n)
	}
	body := s[strings.Index(s, "<table class=\"tasks"):]
	body = body[strings.Index(body, "<tbody>"):]
	if n := strings.Count(body, "<tr>"); n != 5 {
		t.Errorf("%d task rows, want 5 (t1..t5)", n)
	}
	golden(t, "bench.golden.html", page)
}

// TestReadCSV reads an earlier run's CSV (no cpu_seconds, no output
// columns) and classifies it anew.
func TestReadCSV(t *testing.T) {
	r, err := Read("testdata/bench/b/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tasks) != 3 || r.Tasks[0].Status != "correct" || r.Tasks[2].Status != "incorrect true" || !r.Tasks[2].Missed || r.Tasks[1].WallSec != 3.5 {
		t.Errorf("tasks %+v", r.Tasks)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "none.json")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

// TestBenchPageChromium opens the report in headless chromium sorted by
// the plain CPU time column, descending (#sort=4-desc, the script's
// sorting), and checks the order of the task rows in the DOM chromium
// built: t4 (110 s), t3 (30 s), t1, t2, then t5 (no plain run).
func TestBenchPageChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (make chromium)")
	}
	var buf bytes.Buffer
	if err := WriteBench(&buf, benchRuns(t), "testdata/bench"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "report.html")
	if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, dir, "file://"+f+"#sort=4-desc", "--dump-dom"))
	body := dom[strings.Index(dom, "<table class=\"tasks"):]
	var order []string
	for _, row := range strings.Split(body, "<tr>")[2:] {
		name := row[strings.Index(row, "<td>")+4:]
		order = append(order, name[:strings.Index(name, "</td>")])
	}
	if got := strings.Join(order, " "); got != "y/t4.c y/t3.c x/t1.c x/t2.c x/t5.c" {
		t.Errorf("rows sorted by plain CPU time, descending: %s", got)
	}
	if *update { // the screenshot in docs/
		shot := filepath.Join(dir, "shot.png")
		runChromium(t, bin, dir, "file://"+f, "--screenshot="+shot, "--window-size=1100,1400", "--hide-scrollbars")
		b, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "docs", "bench-report.png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

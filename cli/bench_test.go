package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/report"
)

const benchSelfEnv = "CEGPV_TEST_RUN_CLI"

// TestMain lets the test binary stand for cegpv when bench runs it as
// `self verify ...` (TestBenchRun).
func TestMain(m *testing.M) {
	if os.Getenv(benchSelfEnv) == "1" && len(os.Args) > 1 && os.Args[1] == "verify" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestBenchModes(t *testing.T) {
	for _, c := range []struct {
		modes, heuristics, want string
	}{
		{"plain,cegpv", "", "plain cegpv"},
		{"cegpv", "paper,cone,steps2", "cegpv/paper cegpv/cone cegpv/steps2"},
		{"plain,cegpv@builtin", "cone", "plain cegpv@builtin/cone"},
		{"plain,cegpv/cone", "paper", "plain cegpv/cone"},
	} {
		got, err := benchModes(c.modes, c.heuristics)
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("benchModes(%q, %q) = %q, %v; want %q", c.modes, c.heuristics, got, err, c.want)
		}
	}
	for _, bad := range []string{"plain/cone", "fast", "cegpv@nobackend", "cegpv/nosuch", "plain,plain"} {
		if _, err := benchModes(bad, ""); err == nil {
			t.Errorf("benchModes(%q) accepted", bad)
		}
	}
}

// TestBenchRun runs the bench on two hand-written programs in two modes
// (a few seconds) and checks what it writes: results.csv/json with CPU
// times, report.html (well-formed), each task's output and the
// counterexample page of the FALSE.
func TestBenchRun(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	// bench runs `self verify`: the test binary runs the CLI then (TestMain)
	t.Setenv(benchSelfEnv, "1")
	dir := t.TempDir()
	abs, _ := filepath.Abs("../testdata/progs")
	progs, err := filepath.Rel(dir, abs) // manifest paths are relative to its directory
	if err != nil {
		t.Fatal(err)
	}
	man := filepath.Join(dir, "manifest.tsv")
	if err := os.WriteFile(man, []byte("file\tcategory\texpected_verdict\n"+
		filepath.Join(progs, "lazy_counter_unsafe.c")+"\tprogs\tfalse\n"+
		filepath.Join(abs, "locked_counter_safe.c")+"\tprogs\ttrue\n"), 0o644); err != nil { // an absolute path is used as given
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"bench", "--modes", "plain,cegpv", "--timeout", "60s", "--unwind", "3", "--verify-flags", "--probe 0", "--out", out, man}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	res, err := report.Read(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tasks) != 4 {
		t.Fatalf("%d rows, want 4", len(res.Tasks))
	}
	for _, r := range res.Tasks {
		if r.Status != "correct" || r.CPUSec <= 0 || r.WallSec <= 0 || r.RSSMB <= 0 {
			t.Errorf("row %+v", r)
		}
		b, err := os.ReadFile(filepath.Join(out, r.Output))
		if err != nil || !bytes.Contains(b, []byte(`"verdict": "`+r.Verdict+`"`)) {
			t.Errorf("output of %s %s: %v\n%s", r.File, r.Mode, err, b)
		}
		if (r.Page != "") != (r.Verdict == "FALSE") {
			t.Errorf("%s %s: page %q for verdict %s", r.File, r.Mode, r.Page, r.Verdict)
		} else if r.Page != "" {
			if _, err := os.Stat(filepath.Join(out, r.Page)); err != nil {
				t.Error(err)
			}
		}
	}
	if res.Loop == nil || res.Loop[res.Tasks[1].File]["cegpv"] == nil {
		t.Errorf("no loop statistics for cegpv mode in results.json")
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg ", `<td>cegpv</td><td>all</td><td class="num">2</td><td class="num correct">2</td>`, "lazy_counter_unsafe.c.plain.log"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("report.html lacks %s", want)
		}
	}
	if !strings.Contains(stderr.String(), "[4/4] 4 correct") {
		t.Errorf("progress lines:\n%s", stderr.String())
	}
	if m := res.Meta; m == nil || m.Tool != "cegpv" || m.Version == "" || m.Date == "" || m.Host == "" || m.Cores < 1 || m.TimeLimit != 60 || m.Jobs != 2 {
		t.Errorf("metadata %+v", res.Meta)
	}
	for _, mode := range []string{"plain", "cegpv"} {
		x, err := os.ReadFile(filepath.Join(out, benchXMLName(mode)))
		if err != nil || !bytes.Contains(x, []byte(`<column title="category" value="correct"></column>`)) || !bytes.Contains(x, []byte(`value="false(unreach-call)"`)) {
			t.Errorf("%s: %v\n%s", benchXMLName(mode), err, x)
		}
	}
	tableGenerator(t, out, filepath.Join(out, benchXMLName("plain")), filepath.Join(out, benchXMLName("cegpv")))
}

// tableGenerator runs BenchExec's table-generator (from the project venv
// that make deps fills, else PATH) on result XML files and checks that it
// read both runs of each: its CSV table has a row per task with the
// status of each run set.
func tableGenerator(t *testing.T, dir string, xmls ...string) {
	t.Helper()
	tg, err := filepath.Abs("../.tools/venv/bin/table-generator")
	if err == nil {
		_, err = os.Stat(tg)
	}
	if err != nil {
		if tg, err = exec.LookPath("table-generator"); err != nil {
			t.Log("table-generator not installed (make deps installs BenchExec): BenchExec XML not checked with it")
			return
		}
	}
	outDir := filepath.Join(dir, "tables")
	cmd := exec.Command(tg, append([]string{"--format", "csv", "--outputpath", outDir, "--quiet"}, xmls...)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("table-generator: %v\n%s", err, b)
	}
	csvs, _ := filepath.Glob(filepath.Join(outDir, "*.csv"))
	if len(csvs) == 0 {
		t.Fatalf("table-generator wrote no table:\n%s", b)
	}
	table, err := os.ReadFile(csvs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lazy_counter_unsafe.c", "locked_counter_safe.c", "false(unreach-call)", "true"} {
		if !bytes.Contains(table, []byte(want)) {
			t.Errorf("table-generator's table lacks %q:\n%s", want, table)
		}
	}
	t.Logf("table-generator:\n%s", table)
}

// A manifest that names missing files is a usage error before any run.
func TestBenchMissingFiles(t *testing.T) {
	dir := t.TempDir()
	man := filepath.Join(dir, "manifest.tsv")
	if err := os.WriteFile(man, []byte("file\tcategory\texpected_verdict\nnosuch.c\tprogs\tfalse\n/nonexistent/x.c\tprogs\ttrue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, errs := cliRun(t, "bench", "--out", out, man)
	if code != exitUsage || stdout != "" || !strings.Contains(errs, "task files missing: "+filepath.Join(dir, "nosuch.c")+", /nonexistent/x.c") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("bench created %s before failing", out)
	}
}

// bench-report builds one page from earlier runs (a JSON and an older CSV).
func TestBenchReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"bench-report", "--out", out, "../report/testdata/bench/a/results.json", "../report/testdata/bench/b/results.csv"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(b, []byte("<td>a:cegpv</td>")) || !bytes.Contains(b, []byte("<td>b:cegpv</td>")) {
		t.Errorf("page: %v", err)
	}
	if code := run(context.Background(), []string{"bench-report", "--out", out, "nosuch.json"}, &stdout, &stderr); code != exitUsage {
		t.Errorf("missing input: exit %d", code)
	}
}

// bench takes SV-COMP task definitions (files or directories of them), the
// expected verdict from each task's unreach-call property; a manifest as
// before.
func TestBenchTaskDefinitions(t *testing.T) {
	tasks, err := benchTasks([]string{"../tools/benchexec/tasks"})
	if err != nil || len(tasks) != 6 {
		t.Fatalf("%d tasks, %v", len(tasks), err)
	}
	want := map[string]string{"lazy_counter_unsafe.yml": "false", "locked_counter_safe.yml": "true"}
	for _, tk := range tasks {
		if w, ok := want[filepath.Base(tk.File)]; ok && tk.Expected != w {
			t.Errorf("%s: expected %q, want %q", tk.File, tk.Expected, w)
		}
		if tk.Category != "tasks" || !filepath.IsAbs(tk.Path) {
			t.Errorf("%+v", tk)
		}
	}
	if _, err := benchTasks([]string{"../testdata/svcomp/spin_ticket_unsafe.yml"}); err != nil {
		t.Errorf("one task file: %v", err)
	}
	if _, err := benchTasks([]string{"../testdata/progs"}); err == nil {
		t.Errorf("a directory without task definitions was accepted")
	}
}

// verify checks a task definition: its C file, data model and
// unreach-call property.
func TestVerifyTaskDefinition(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"verify", "--unwind", "3", "../tools/benchexec/tasks/lazy_counter_unsafe.yml"}, &out, &errb)
	if code != exitUnsafe || !strings.HasSuffix(out.String(), "FALSE(unreach-call) property main.assertion.1\n") || !strings.Contains(out.String(), "lazy_counter_unsafe.c") {
		t.Errorf("exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// TestMemlimit: a memory limit no run can keep (1 MB: a Go process alone
// is bigger) gives UNKNOWN "out of memory" from verify (exit 5), and
// OUT OF MEMORY (BenchExec's error) in a bench run's results, with the
// limit in its metadata.
func TestMemlimit(t *testing.T) {
	file := filepath.Join(testenv.ModuleRoot(), "testdata", "progs", "lazy_counter_unsafe.c")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"verify", "--memlimit", "1", file}, &stdout, &stderr)
	if code != exitUnknown || !strings.Contains(stdout.String(), "UNKNOWN: out of memory: ") || !strings.Contains(stdout.String(), "over the memory limit of 1 MB") {
		t.Errorf("verify --memlimit 1: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	dir := t.TempDir()
	man := filepath.Join(dir, "manifest.tsv")
	if err := os.WriteFile(man, []byte("file\tcategory\texpected_verdict\n"+file+"\tprogs\tfalse\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	stdout.Reset()
	stderr.Reset()
	code = run(context.Background(), []string{"bench", "--memlimit", "1", "--timeout", "60s", "--out", out, man}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	res, err := report.Read(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tasks) != 1 || res.Tasks[0].Result != "OUT OF MEMORY" || res.Tasks[0].Status != "error" {
		t.Errorf("rows %+v", res.Tasks)
	}
	if res.Meta == nil || res.Meta.MemLimit != 1<<20 {
		t.Errorf("meta %+v", res.Meta)
	}
}

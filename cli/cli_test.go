package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/ (help texts)")

// cli runs the command line and returns its exit code, stdout and stderr.
func cliRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s drifted (go test -run %s -update rewrites it); got:\n%s", path, t.Name(), got)
	}
}

// Help goes to standard output (cegpv --help | less), exit 0: cegpv's with
// the commands in groups, a command's with its synopsis and its flags in
// groups; `cegpv help CMD` is `cegpv CMD --help`; cegpv alone prints the
// help with the exit code of a usage error. The texts are golden files:
// the data model default names the host's, so they hold on LP64 hosts.
func TestHelp(t *testing.T) {
	code, root, errs := cliRun(t, "--help")
	if code != 0 || errs != "" || !strings.HasPrefix(root, "Usage: cegpv COMMAND") {
		t.Fatalf("--help: exit %d, stderr %q, stdout:\n%s", code, errs, root)
	}
	golden(t, "help.txt", root)
	if code, out, _ := cliRun(t); code != exitUsage || out != root {
		t.Errorf("no arguments: exit %d, stdout differs from --help:\n%s", code, out)
	}
	code, verify, _ := cliRun(t, "help", "verify")
	if code != 0 || !strings.HasPrefix(verify, "Usage: cegpv verify [flags] FILE.c|TASK.yml\n") {
		t.Fatalf("help verify: exit %d:\n%s", code, verify)
	}
	for _, g := range []string{"\nInput flags:\n", "\nEngine flags:\n", "\nBounds flags:\n", "\nCEGPV loop flags:\n", "\nOutput flags:\n", "\nLogging flags:\n"} {
		if !strings.Contains(verify, g) {
			t.Errorf("help verify has no group %q", g)
		}
	}
	golden(t, "help-verify.txt", verify)
	if _, again, _ := cliRun(t, "verify", "--help"); again != verify {
		t.Errorf("verify --help differs from help verify:\n%s", again)
	}
	code, val, _ := cliRun(t, "validate", "--help")
	if code != 0 || !regexpMatch(`--witness string +the violation witness to check \(GraphML or YAML 2\.0\): an\s+input`, val) || strings.Contains(val, "--html") {
		t.Errorf("validate --help: exit %d:\n%s", code, val)
	}
	for _, cmd := range []string{"bench", "bench-report", "show", "print", "depgraph", "slice", "seq"} {
		if code, out, _ := cliRun(t, "help", cmd); code != 0 || !strings.HasPrefix(out, "Usage: cegpv "+cmd) {
			t.Errorf("help %s: exit %d:\n%s", cmd, code, out)
		}
	}
}

// A usage error is one line naming the mistake (with the closest flag or
// command when one is near) and where the help is, on stderr, exit 1,
// before any work: nothing on stdout.
func TestUsageErrors(t *testing.T) {
	prog := "../testdata/progs/lazy_counter_unsafe.c"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--unwnd", "3", prog}, "cegpv verify: unknown flag: --unwnd (did you mean --unwind?)"},
		{[]string{"verify", "--timout", "3", prog}, "(did you mean --timeout?)"},
		{[]string{"verfy", prog}, `cegpv: unknown command "verfy" (did you mean verify?)`},
		{[]string{"help", "verfy"}, `no command "verfy" (did you mean verify?)`},
		{[]string{"verify", "--32", "--64", prog}, "--32 with --64: two data models"},
		{[]string{"verify", "--data-model", "LP64", "--32", prog}, "two data models"},
		{[]string{"verify", "--timeout", "soon", prog}, "--timeout soon: want seconds (30) or a duration"},
		{[]string{"verify", "--solver", "nosuch-solver", prog}, "--solver nosuch-solver: nosuch-solver not found"},
		{[]string{"verify", "--heuristic", "keep:nosuchvar", prog}, `--heuristic keep:nosuchvar: no variable "nosuchvar"`},
		{[]string{"verify", "--mode", "cegpv", "--each-property", "--heuristic", "keep:nosuchvar", prog}, `no variable "nosuchvar"`},
		{[]string{"verify", "--each-property", "--html", "p.html", prog}, "--each-property with --html"},
		{[]string{"verify", "--each-property", "--witness", "w.graphml", prog}, "--each-property with --witness"},
		{[]string{"verify", prog, prog}, "want exactly one input file"},
		{[]string{"validate", prog}, "want --witness FILE"},
		{[]string{"slice", "--keep", "nosuchvar", prog}, `no variable "nosuchvar"`},
		{[]string{"bench"}, "want a manifest"},
	} {
		code, out, errs := cliRun(t, tc.args...)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) || len(lines) != 2 || !strings.HasPrefix(lines[1], "Run 'cegpv") {
			t.Errorf("%v: exit %d, want %d and %q in two lines; stdout %q, stderr:\n%s", tc.args, code, exitUsage, tc.want, out, errs)
		}
	}
	// an external checker that is not installed is a usage error too
	for _, be := range []string{"cbmc", "esbmc"} {
		if _, err := exec.LookPath(be); err == nil {
			continue
		}
		if code, _, errs := cliRun(t, "verify", "--backend", be, prog); code != exitUsage || !strings.Contains(errs, "--backend "+be+": "+be+" not found") {
			t.Errorf("--backend %s without %s: exit %d, %s", be, be, code, errs)
		}
	}
	if code, _, errs := cliRun(t, "verify", "--backend", "cbmc", "--cbmc", "/nonexistent/cbmc", prog); code != exitUsage || !strings.Contains(errs, "--cbmc /nonexistent/cbmc: no such program") {
		t.Errorf("--cbmc /nonexistent: exit %d, %s", code, errs)
	}
}

// The command line as CBMC and ESBMC users type it: --timeout in seconds,
// `cegpv FILE.c` for verify, --trace before the file without taking it,
// the Go-style single-dash long flags of earlier versions, --flag=value.
func TestCommandLineForms(t *testing.T) {
	needZ3CLI(t)
	prog := "../testdata/progs/lazy_counter_unsafe.c"
	for _, args := range [][]string{
		{prog, "--timeout", "30", "--unwind", "3"},
		{"--timeout", "30", "--unwind", "3", prog},
		{"verify", "--timeout=30s", "--unwind=3", prog},
		{"verify", "-unwind", "3", "-timeout", "60", prog},
		{"verify", "--unwind", "3", "--trace", prog},
		{"verify", "--unwind", "3", "--trace", "steps", prog},
		{"verify", "--unwind", "3", prog, "--trace=source", "-v"},
	} {
		code, out, errs := cliRun(t, args...)
		if code != exitUnsafe || !strings.HasSuffix(out, "FALSE(unreach-call) property main.assertion.1\n") {
			t.Errorf("%v: exit %d, want %d; stdout:\n%s\nstderr:\n%s", args, code, exitUnsafe, out, errs)
		}
		if slicesContain(args, "--trace") != strings.Contains(out, "  statement  ") {
			t.Errorf("%v: --trace alone or --trace steps lists the model's steps, else the source lines:\n%s", args, out)
		}
	}
	var d time.Duration
	for in, want := range map[string]time.Duration{"30": 30 * time.Second, "1.5": 1500 * time.Millisecond, "2m": 2 * time.Minute, "0": 0} {
		if err := (secondsValue{&d}).Set(in); err != nil || d != want {
			t.Errorf("--timeout %s: %v, %v; want %v", in, d, err, want)
		}
	}
	// a missing file is rejected input without a stats line
	code, out, _ := cliRun(t, "nosuch.c")
	if code != exitUnsupported || strings.Contains(out, "stats:") || !strings.Contains(out, "UNKNOWN: ") {
		t.Errorf("nosuch.c: exit %d:\n%s", code, out)
	}
}

func slicesContain(s []string, x string) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}

func needZ3CLI(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
}

// Input errors (issue 28 item 6): a syntax error names file:line:column
// and is rejected input (exit 6, as CBMC's PARSING ERROR); C++ is named as
// C++; a call of a function without a body is CBMC's warning on stderr and
// the assumption is stated beside the TRUE; a missing file prints no
// stats line.
func TestInputErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	syntax := write("syntax.c", "int main(void) {\n  int x = 1\n  return x;\n}\n")
	code, out, _ := cliRun(t, "verify", syntax)
	if code != exitUnsupported || !strings.HasSuffix(out, "UNKNOWN: "+syntax+":3:3: unsupported input: C parse error: unexpected 'return', expected ';'\n") || strings.Contains(out, "stats:") {
		t.Errorf("syntax error: exit %d:\n%s", code, out)
	}
	cxx := write("thread.c", "#include <thread>\nint main() { return 0; }\n")
	if code, out, _ := cliRun(t, "verify", cxx); code != exitUnsupported || !strings.Contains(out, "C++ input: <thread> is a C++ header") {
		t.Errorf("C++: exit %d:\n%s", code, out)
	}
	needZ3CLI(t)
	// (gcc rejects the file: foo_assert is declared nowhere; CBMC warns and
	// says SUCCESS)
	undecl := write("undecl.c", "int x;\nint main(void) {\n  x = 1;\n  foo_assert(x == 2);\n  return 0;\n}\n")
	code, out, errs := cliRun(t, "verify", "--unwind", "2", undecl)
	if code != exitSafe || !strings.Contains(errs, "function foo_assert has no body") ||
		!strings.Contains(out, "(assuming, as CBMC, that foo_assert, without a body, returns an arbitrary value and changes no variable)\n(the program has no assertion: nothing can fail)\n") {
		t.Errorf("undeclared function: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

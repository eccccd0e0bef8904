package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/spf13/pflag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// A counterexample that draws an opaque value (here atoi's result) is not
// a FALSE; verify then looks for one that draws none and reports it when
// there is one (a bug on the argc == 1 path), in both modes.
func TestVerifyAvoidsOpaqueCounterexamples(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	dir := t.TempDir()
	write := func(name, src string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	both := write("both.c", `#include <stdlib.h>
extern void reach_error(void);
int main(int argc, char **argv) {
	int n = 2;
	if (argc > 1)
		n = atoi(argv[1]);
	if (n == 2)
		reach_error();
	return 0;
}
`)
	only := write("only.c", `#include <stdlib.h>
extern void reach_error(void);
int main(int argc, char **argv) {
	if (argc > 1 && atoi(argv[1]) == 7)
		reach_error();
	return 0;
}
`)
	for _, tc := range []struct {
		file, mode string
		code       int
		out        string
	}{
		{both, "plain", exitUnsafe, "FALSE(unreach-call)"},
		{both, "cegpv", exitUnsafe, "FALSE(unreach-call)"},
		{only, "plain", exitUnknown, "(none avoids them within the bounds)"},
		{only, "cegpv", exitUnknown, "(none avoids them within the bounds)"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"verify", "--sanity", "--mode", tc.mode, "--unwind", "3", "--timeout", "60s", tc.file}, &out, &errb)
		name := filepath.Base(tc.file) + " " + tc.mode
		if code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("%s: exit %d, want %d, with %q; stdout:\n%s\nstderr:\n%s", name, code, tc.code, tc.out, out.String(), errb.String())
		}
	}
}

// A bug beyond the unwinding is reported after the bounded check found
// none (--beyond, on by default), in both modes, and says how it was
// found; --beyond 0 keeps the bounded TRUE.
func TestVerifyBeyond(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	f := filepath.Join(t.TempDir(), "deep.c")
	src := `#include <pthread.h>
int x;
void *check(void *a) { assert(x < 20); return 0; }
void *w(void *a) { int t = x; x = t + 1; return 0; }
int main(void) { pthread_t c, h; pthread_create(&c, 0, check, 0); for (int i = 0; i < 20; i++) pthread_create(&h, 0, w, 0); return 0; }
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, beyond string
		code         int
		out          string
	}{
		{"plain", "20s", exitUnsafe, `"found_beyond": "explicit-state search`},
		{"cegpv", "20s", exitUnsafe, `"found_beyond": "explicit-state search`},
		{"plain", "0", exitSafe, `"verdict": "TRUE"`},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"verify", "--json", "--mode", tc.mode, "--unwind", "3", "--beyond", tc.beyond, "--timeout", "60s", f}, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("%s --beyond %s: exit %d, want %d with %q\n%s%s", tc.mode, tc.beyond, code, tc.code, tc.out, out.String(), errb.String())
		}
		if by := `"decided_by": "the search beyond the bounds"`; code == exitUnsafe && !strings.Contains(out.String(), by) {
			t.Errorf("%s --beyond %s: the output lacks %s\n%s", tc.mode, tc.beyond, by, out.String())
		}
	}
}

// --max-threads N bounds the threads of a run (main included) in the
// built-in backend and the explicit-state search, and a TRUE that cut a
// run there names N. Five workers each add 1 under a lock, and main
// asserts the sum is not 5: violated in every run (gcc -pthread -m32 and
// -m64, 200 runs each: the assertion failed every time). With 6 threads
// allowed the violation is found; with 4, no run reaches it, and the TRUE
// says why, whatever the engine that answers (the search beyond the
// bounds lifts the cap, here with --beyond 0 off).
func TestVerifyMaxThreads(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	f := filepath.Join(t.TempDir(), "cap.c")
	src := `#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
void *t(void *a) { pthread_mutex_lock(&m); counter++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t h[5];
  for (int i = 0; i < 5; i++) pthread_create(&h[i], 0, t, 0);
  for (int i = 0; i < 5; i++) pthread_join(h[i], 0);
  assert(counter != 5);
  return 0;
}
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, max string
		code      int
		out       string
	}{
		{"plain", "6", exitUnsafe, "FALSE(unreach-call)"},
		{"plain", "4", exitSafe, "TRUE (bounded: no violation within unwind 6, at most 4 threads in a run)"},
		{"cegpv", "4", exitSafe, "at most 4 threads in a run)"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"verify", "--mode", tc.mode, "--unwind", "6", "--max-threads", tc.max, "--beyond", "0", "--timeout", "60s", f}, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("%s --max-threads %s: exit %d, want %d with %q\n%s%s", tc.mode, tc.max, code, tc.code, tc.out, out.String(), errb.String())
		}
	}
}

// --each-property checks every assertion on its own, in parallel: one
// violated property makes the file FALSE, the one that holds is TRUE, in
// both modes (the verdicts come from cegpv.CheckEach).
func TestVerifyEachProperty(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	f := filepath.Join(t.TempDir(), "two.c")
	src := `#include <pthread.h>
#include <assert.h>
int x, y;
void *w(void *a) { x = 1; y = y + 1; return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, w, 0);
	pthread_join(t, 0);
	assert(x == 1);
	assert(y == 0);
	return 0;
}
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"plain", "cegpv"} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"verify", "--each-property", "-j", "2", "--mode", mode, "--unwind", "2", "--timeout", "60s", f}, &out, &errb)
		s := out.String()
		// CBMC's ** Results: list, then the verdict as the last line
		if code != exitUnsafe || !regexpMatch(`\[main\.assertion\.1\] line \d+ assertion x == 1: SUCCESS`, s) ||
			!regexpMatch(`\[main\.assertion\.2\] line \d+ assertion y == 0: FAILURE`, s) || !strings.Contains(s, "** 1 of 2 failed") ||
			!strings.HasSuffix(s, "\nVERIFICATION FAILED\nFALSE(unreach-call) property main.assertion.2\n") {
			t.Errorf("%s: exit %d, want %d; output:\n%s\n%s", mode, code, exitUnsafe, s, errb.String())
		}
	}
}

// --show-properties lists every assertion with its id, file:line and
// function, in CBMC's words and as JSON, and checks nothing.
func TestShowProperties(t *testing.T) {
	f := "../testdata/progs/peterson_broken_unsafe.c"
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--show-properties", f}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := "Property p0.assertion.1:\n  file " + f + " line 23 function p0\n  call to reach_error()\n"
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "Property p1.assertion.1:") || strings.Contains(out.String(), "VERIFICATION") {
		t.Errorf("output:\n%s\nwant it to contain:\n%s", out.String(), want)
	}
	out.Reset()
	if code := run(context.Background(), []string{"verify", "--show-properties", "--json", f}, &out, &errb); code != 0 {
		t.Fatalf("--json: exit %d", code)
	}
	var props []struct {
		ID, File, Function, Description string
		Line                            int
	}
	if err := json.Unmarshal(out.Bytes(), &props); err != nil || len(props) != 2 || props[1].ID != "p1.assertion.1" || props[1].Line != 36 || props[1].Function != "p1" {
		t.Errorf("--json: %v %+v\n%s", err, props, out.String())
	}
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// Flag values that name nothing or bound nothing are usage errors (exit
// 1) naming the flag; a missing file or a directory is rejected input
// (exit 6), not UNKNOWN.
func TestVerifyRejects(t *testing.T) {
	file := "../testdata/progs/lazy_counter_unsafe.c"
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--unwind", "-1", file}, exitUsage, "--unwind -1"},
		{[]string{"--unwind", "0", file}, exitUsage, "--unwind 0"},
		{[]string{"--timeout", "-5s", file}, exitUsage, "--timeout -5s"},
		{[]string{"--each-property", "-j", "0", file}, exitUsage, "-j 0"},
		{[]string{"--threads", "-2", file}, exitUsage, "--threads -2"},
		{[]string{"--max-threads", "0", file}, exitUsage, "--max-threads 0"},
		{[]string{"--backend", "nusmv", file}, exitUsage, `unknown --backend "nusmv"`},
		{[]string{"--mode", "fast", file}, exitUsage, `unknown --mode "fast"`},
		{[]string{"--heuristic", "magic", file}, exitUsage, "magic"},
		{[]string{"--data-model", "LP128", file}, exitUsage, "LP128"},
		{[]string{"--solver", "z3 'unterminated", file}, exitUsage, "without closing quote"},
		{[]string{"/nonexistent/x.c"}, exitUnsupported, "no such file"},
		{[]string{t.TempDir()}, exitUnsupported, "is a directory"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"verify"}, tc.args...), &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.msg) {
			t.Errorf("verify %v: exit %d, want %d and a message with %q; got:\n%s%s", tc.args, code, tc.code, tc.msg, out.String(), errb.String())
		}
	}
}

// A check stopped by the user (SIGINT/SIGTERM cancel the context) is
// reported as interrupted, not as a timeout.
func TestVerifyInterrupted(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupt signal received"))
	var out, errb bytes.Buffer
	code := run(ctx, []string{"verify", "../testdata/progs/lazy_counter_unsafe.c"}, &out, &errb)
	if code != exitUnknown || !strings.Contains(out.String(), "interrupted: ") || !strings.Contains(out.String(), "interrupt signal received") || strings.Contains(out.String(), "timeout") {
		t.Errorf("exit %d; output:\n%s%s", code, out.String(), errb.String())
	}
}

// A thread's result reaches pthread_join: this assertion holds in every
// gcc -pthread run (the thread returns &g) and its negation fails in every
// one, in both modes (the result was once modelled as an opaque value,
// which gave a wrong FALSE and later UNKNOWN).
func TestVerifyJoinResult(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	f := filepath.Join(t.TempDir(), "join_result.c")
	src := `#include <pthread.h>
#include <assert.h>
int g;
void *t(void *a) { g = 6; return &g; }
int main(void) {
  pthread_t h; void *r;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, &r);
  assert(r == &g);
  return 0;
}
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	neg := filepath.Join(t.TempDir(), "join_result_neg.c")
	if err := os.WriteFile(neg, []byte(strings.Replace(src, "r == &g", "r != &g", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"plain", "cegpv"} {
		for file, want := range map[string]int{f: exitSafe, neg: exitUnsafe} {
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"verify", "--mode", mode, "--timeout", "60s", file}, &out, &errb)
			if code != want {
				t.Errorf("%s %s: exit %d, want %d; output:\n%s", mode, filepath.Base(file), code, want, out.String())
			}
		}
	}
}

// SV-COMP input and output: --propertyfile (an unsupported property is
// UNKNOWN with exit 7), --32, --witness for FALSE and TRUE (GraphML and
// YAML), --version; the verdict is the last line of the output.
func TestVerifySVCOMP(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	dir := t.TempDir()
	prp := "../testdata/svcomp/unreach-call-2015.prp"
	for _, tc := range []struct {
		file, witness, last, inWitness string
		code                           int
	}{
		{"../testdata/progs/lazy_counter_unsafe.c", "v.graphml", "FALSE(unreach-call)", "violation_witness", exitUnsafe},
		{"../testdata/progs/lazy_counter_unsafe.c", "v.yml", "FALSE(unreach-call)", "violation_sequence", exitUnsafe},
		{"../testdata/progs/locked_counter_safe.c", "c.graphml", "TRUE", "correctness_witness", exitSafe},
		{"../testdata/progs/locked_counter_safe.c", "c.yml", "TRUE", "entry_type: invariant_set", exitSafe},
	} {
		var out, errb bytes.Buffer
		w := filepath.Join(dir, tc.witness)
		code := run(context.Background(), []string{"verify", "--32", "--unwind", "3", "--beyond", "0", "--propertyfile", prp, "--witness", w, tc.file}, &out, &errb)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if code != tc.code || !strings.HasPrefix(lines[len(lines)-1], tc.last) {
			t.Errorf("%s: exit %d, last line %q; want %d and %s", tc.file, code, lines[len(lines)-1], tc.code, tc.last)
		}
		b, err := os.ReadFile(w)
		if err != nil || !strings.Contains(string(b), tc.inWitness) {
			t.Errorf("%s: witness %s: %v, want one with %q", tc.file, tc.witness, err, tc.inWitness)
		}
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"verify", "--propertyfile", "../testdata/svcomp/valid-memsafety.prp", "../testdata/progs/lazy_counter_unsafe.c"}, &out, &errb)
	if code != exitUnsupportedProperty || !strings.HasSuffix(strings.TrimSpace(out.String()), "UNKNOWN: unsupported property valid-memsafety (cegpv checks unreach-call)") {
		t.Errorf("memsafety: exit %d, output %q", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"--version"}, &out, &errb); code != 0 || strings.TrimSpace(out.String()) == "" {
		t.Errorf("--version: exit %d, %q", code, out.String())
	}
}

// --no-generalise reaches the library's option (and only that: policy is
// the library's).
func TestVerifyNoGeneraliseFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"--no-generalise"}, true}} {
		var vf verifyFlags
		fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
		vf.register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		opts, err := vf.checkOptions(hclog.NewNullLogger())
		if err != nil {
			t.Fatal(err)
		}
		if opts.NoGeneralise != tc.want {
			t.Errorf("%v: NoGeneralise %v, want %v", tc.args, opts.NoGeneralise, tc.want)
		}
	}
}

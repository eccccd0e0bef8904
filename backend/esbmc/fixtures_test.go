package esbmc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cegpv.dev/cegpv/backend/external"
	"cegpv.dev/cegpv/internal/testenv"
)

// fixtureDir returns ../shared/fixtures/esbmc-8.4.0 or skips.
func fixtureDir(t testing.TB) string {
	m := testenv.FindSVCOMP15()
	if m == "" {
		t.Skip("../shared is absent: ESBMC fixtures not tested")
	}
	d := filepath.Join(filepath.Dir(m), "..", "..", "fixtures", "esbmc-8.4.0")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("no ESBMC fixtures at %s", d)
	}
	return d
}

// TestFixtures parses the stderr of every recorded ESBMC run (the five runs
// of each input) and checks it against the exit code and, for the
// counterexamples, against the facts of fixtures/README.md.
func TestFixtures(t *testing.T) {
	dir := fixtureDir(t)
	inputs, _ := filepath.Glob(filepath.Join(dir, "*"))
	runs := 0
	for _, in := range inputs {
		for _, run := range []string{"", "compact-trace.", "witness-graphml.", "witness-yaml.", "json-report."} {
			se, err := os.ReadFile(filepath.Join(in, run+"stderr.txt"))
			if err != nil {
				continue
			}
			ecb, err := os.ReadFile(filepath.Join(in, run+"exit_code.txt"))
			if err != nil {
				t.Fatal(err)
			}
			ec, _ := strconv.Atoi(strings.TrimSpace(string(ecb)))
			runs++
			name := filepath.Base(in) + "/" + run + "stderr.txt"
			r := Parse(string(se))
			switch ec {
			case 0:
				if r.Verdict != "SUCCESSFUL" || (r.Trace != nil && r.Trace.Violation != nil) || len(r.Failed) != 0 {
					t.Errorf("%s: exit 0 but verdict %q, failed %v", name, r.Verdict, r.Failed)
				}
			case 1:
				tr := r.Trace
				if r.Verdict != "FAILED" || tr == nil || tr.Violation == nil {
					t.Fatalf("%s: exit 1 but verdict %q, no violation", name, r.Verdict)
				}
				v := tr.Violation
				if v.Thread < 0 || v.Line <= 0 || v.File == "" || tr.Comment == "" || tr.Property == "" {
					t.Errorf("%s: violation %+v comment %q property %q", name, *v, tr.Comment, tr.Property)
				}
				for _, s := range tr.States {
					if s.Thread < 0 || s.Lhs == "" {
						t.Errorf("%s: state %+v", name, s)
					}
				}
			default:
				t.Errorf("%s: exit code %d", name, ec)
			}
		}
	}
	if runs != 13*5 {
		t.Errorf("%d runs parsed, want 65", runs)
	}
}

// TestFixtureFacts checks details the README of the fixtures states.
func TestFixtureFacts(t *testing.T) {
	dir := fixtureDir(t)
	read := func(p string) *Report {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return Parse(string(b))
	}
	r := read("own-race/compact-trace.stderr.txt")
	if v := r.Trace.Violation; v.Line != 30 || v.Thread != 0 || r.Trace.Property != "main.assertion.1" || r.Trace.Comment != "assertion counter == 2" {
		t.Errorf("own-race violation %+v %q %q", *v, r.Trace.Property, r.Trace.Comment)
	}
	threads := map[int]bool{}
	for _, s := range r.Trace.States {
		threads[s.Thread] = true
	}
	if !threads[1] || !threads[2] {
		t.Errorf("own-race compact trace: threads %v", threads)
	}
	// a negative value printed signed
	r = read("own-atomic-nondet/compact-trace.stderr.txt")
	found := false
	for _, s := range r.Trace.States {
		if s.Lhs == "key" {
			if v, ok := external.IntValue(s.Value); ok && v.Bits == -1412567295 {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("own-atomic-nondet: no state key = -1412567295")
	}
	// fib_bench: a state without location
	r = read("fib_bench_false-unreach-call/compact-trace.stderr.txt")
	noLoc := false
	for _, s := range r.Trace.States {
		if s.File == "" && s.Line == 0 {
			noLoc = true
		}
	}
	if !noLoc {
		t.Errorf("fib_bench: the state without location was not read")
	}
	// the error of __VERIFIER_error()
	r = read("lazy01_false-unreach-call/stderr.txt")
	if r.Trace.Comment != "__VERIFIER_error" {
		t.Errorf("lazy01: comment %q", r.Trace.Comment)
	}
}

// FuzzParse: the parser does not panic and keeps its invariants on any
// input; seeds are fixture outputs.
func FuzzParse(f *testing.F) {
	f.Add("State 1 file a.c line 3 column 1 function main thread 0\n----\n  x = 1 (0000 0001)\nViolated property:\n  file a.c line 4 column 1 function main\n  assertion x == 2\n  x == 2\n\nVERIFICATION FAILED\n")
	if m := testenv.FindSVCOMP15(); m != "" {
		for _, p := range []string{"own-race/compact-trace.stderr.txt", "own-atomic-nondet/stderr.txt", "own-race-mutex/stderr.txt"} {
			if b, err := os.ReadFile(filepath.Join(filepath.Dir(m), "..", "..", "fixtures", "esbmc-8.4.0", p)); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Parse(s)
		if r.Verdict != "" && r.Verdict != "FAILED" && r.Verdict != "SUCCESSFUL" {
			t.Fatalf("verdict %q", r.Verdict)
		}
		if r.Trace != nil {
			for _, st := range r.Trace.States {
				if st.Lhs == "" {
					t.Fatalf("state without assignment %+v", st)
				}
			}
		}
	})
}

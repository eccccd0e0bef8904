package smt

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"cegpv.dev/cegpv/program"
)

func needZ3(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
}

func start(t *testing.T, ctx context.Context) *Solver {
	t.Helper()
	s, err := Start(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSatUnsat(t *testing.T) {
	needZ3(t)
	s := start(t, context.Background())
	s.KeepTranscript()
	must(t, s.Declare("x", "(_ BitVec 8)"))
	must(t, s.Assert("(bvugt x #x10)"))
	r, err := s.CheckSat()
	if err != nil || r != Sat {
		t.Fatalf("got %v %v, want sat", r, err)
	}
	must(t, s.Assert("(bvult x #x05)"))
	r, err = s.CheckSat()
	if err != nil || r != Unsat {
		t.Fatalf("got %v %v, want unsat", r, err)
	}
	if !strings.Contains(s.Transcript(), "(declare-fun x () (_ BitVec 8))") {
		t.Errorf("transcript misses the declaration:\n%s", s.Transcript())
	}
	st := s.Stats()
	if st.Assertions != 2 || st.BytesSent == 0 || st.Checks != 2 {
		t.Errorf("stats %+v", st)
	}
}

func TestGetValueAndPushPop(t *testing.T) {
	needZ3(t)
	s := start(t, context.Background())
	must(t, s.Declare("x", "(_ BitVec 32)"))
	must(t, s.Declare("b", "Bool"))
	must(t, s.Declare("y", "(_ BitVec 3)"))
	must(t, s.Assert("(= x #xdeadbeef)"))
	must(t, s.Assert("(= y #b101)"))
	must(t, s.Push())
	must(t, s.Assert("b"))
	if r, err := s.CheckSat(); r != Sat || err != nil {
		t.Fatal(r, err)
	}
	vs, err := s.GetValue([]string{"x", "b", "y", "(bvadd x #x00000001)"})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Uint64() != 0xdeadbeef || vs[0].Width != 32 || !vs[1].Bool || vs[2].Uint64() != 5 || vs[3].Uint64() != 0xdeadbef0 {
		t.Fatalf("values %+v", vs)
	}
	must(t, s.Assert("(not b)"))
	if r, _ := s.CheckSat(); r != Unsat {
		t.Fatal("want unsat inside push")
	}
	must(t, s.Pop())
	if r, _ := s.CheckSat(); r != Sat {
		t.Fatal("want sat after pop")
	}
}

func TestCancelKillsProcess(t *testing.T) {
	needZ3(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	s := start(t, ctx)
	pid := s.Pid()
	// A hard problem: factor a 64-bit semiprime-like number.
	must(t, s.Declare("a", "(_ BitVec 64)"))
	must(t, s.Declare("b", "(_ BitVec 64)"))
	must(t, s.Assert("(= (bvmul a b) #x9e3779b97f4a7c15)"))
	must(t, s.Assert("(bvugt a #x0000000000000001)"))
	must(t, s.Assert("(bvugt b #x0000000000000001)"))
	must(t, s.Assert("(bvult a #x0000000100000000)"))
	must(t, s.Assert("(bvult b #x0000000100000000)"))
	must(t, s.Assert("(= ((_ extract 7 0) (bvmul a a b b a)) #x17)"))
	_, err := s.CheckSat()
	if err == nil {
		t.Skip("the solver was faster than the deadline")
	}
	if program.KindOf(err) != program.Timeout {
		t.Fatalf("got %v, want a Timeout error", err)
	}
	// gone and reaped when CheckSat returns (a zombie still answers
	// kill 0): its CPU time is counted, and no process outlives the check
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("solver process %d still exists when the cancelled check returns", pid)
	}
}

func TestCrashingSolver(t *testing.T) {
	s, err := Start(context.Background(), []string{"sh", "-c", "exit 3"}, nil)
	if err != nil {
		if program.KindOf(err) != program.Crash {
			t.Fatalf("start: %v", err)
		}
		return
	}
	defer s.Close()
	s.Declare("x", "Bool")
	_, err = s.CheckSat()
	if program.KindOf(err) != program.Crash {
		t.Fatalf("got %v, want a Crash error", err)
	}
}

func TestSolverError(t *testing.T) {
	needZ3(t)
	s := start(t, context.Background())
	must(t, s.Assert("(= undeclared 1)"))
	_, err := s.CheckSat()
	if program.KindOf(err) != program.Crash {
		// z3 reports the error and then answers the check-sat: accept either
		// an error or a later sat, but not silence.
		t.Logf("answer after an error: %v", err)
	}
}

func TestParseValue(t *testing.T) {
	for in, want := range map[string]uint64{"#b101": 5, "#xff": 255, "(_ bv7 8)": 7, "12": 12} {
		x, err := parseSexp(bufioReader(in))
		if err != nil {
			t.Fatal(err)
		}
		v, err := parseValue(x)
		if err != nil || v.Uint64() != want {
			t.Errorf("%s: %v %v", in, v, err)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// Every preset solver that is installed (on PATH, or linked into the
// project's bin/ by make deps) answers check-sat-assuming with an unsat
// core of the assumptions, in its own dialect (yices: set-logic, unsat
// assumptions).
func TestCheckSatAssumingCore(t *testing.T) {
	for _, name := range PresetNames() {
		t.Run(name, func(t *testing.T) {
			argv, err := Command(name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := exec.LookPath(argv[0]); err != nil {
				cand := filepath.Join("..", "..", "bin", argv[0])
				if _, err := os.Stat(cand); err != nil {
					t.Skipf("%s not installed (make deps installs the wheels' solvers into bin/)", argv[0])
				}
				argv[0] = cand
			}
			s, err := Start(context.Background(), argv, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			checkSatAssumingCore(t, s)
		})
	}
}

func checkSatAssumingCore(t *testing.T, s *Solver) {
	must(t, s.EnableCores())
	must(t, s.Declare("x", "Int"))
	must(t, s.Assert("(> x 5)"))
	for _, a := range []string{"a1", "a2", "a3"} {
		must(t, s.Declare(a, "Bool"))
	}
	must(t, s.Assert("(=> a1 (< x 3))"))
	must(t, s.Assert("(=> a2 (> x 100))"))
	must(t, s.Assert("(=> a3 (< x 200))"))
	r, err := s.CheckSatAssuming([]string{"a2", "a3"})
	if err != nil || r != Sat {
		t.Fatalf("a2 a3: got %v %v, want sat", r, err)
	}
	r, err = s.CheckSatAssuming([]string{"a1", "a2", "a3"})
	if err != nil || r != Unsat {
		t.Fatalf("a1 a2 a3: got %v %v, want unsat", r, err)
	}
	// a2 and a3 hold together, so every core has a1; z3 and yices give
	// exactly that, cvc5 1.0 all three (a core, not a minimal one)
	core, err := s.UnsatCore()
	if err != nil || !slices.Contains(core, "a1") || len(core) > 3 {
		t.Fatalf("core %v %v, want [a1] or a superset of it among the assumptions", core, err)
	}
	for _, a := range core {
		if !slices.Contains([]string{"a1", "a2", "a3"}, a) {
			t.Fatalf("core %v: %s is no assumption", core, a)
		}
	}
	// assumptions do not stay
	if r, err := s.CheckSat(); err != nil || r != Sat {
		t.Fatalf("after: got %v %v, want sat", r, err)
	}
	// unsat without assumptions: the core is empty, whatever the dialect
	must(t, s.Assert("(< x 0)"))
	if r, err := s.CheckSat(); err != nil || r != Unsat {
		t.Fatalf("x > 5 and x < 0: got %v %v, want unsat", r, err)
	}
	if core, err := s.UnsatCore(); err != nil || len(core) != 0 {
		t.Fatalf("core after a plain check-sat: %v %v, want none", core, err)
	}
}

// A solver that stops at its memory limit (z3 -memory:N prints
// (error "out of memory") and exits) gives a Memout error, not a crash.
func TestSolverOutOfMemory(t *testing.T) {
	s, err := Start(context.Background(), []string{"sh", "-c", `echo '(error "out of memory")' >&2; exit 101`}, nil)
	if err == nil { // (Start asks the solver its name: the error may come then)
		defer s.Close()
		s.Declare("x", "Bool")
		_, err = s.CheckSat()
	}
	if k := program.KindOf(err); k != program.Memout {
		t.Fatalf("got %v (kind %v), want an out-of-memory error", err, k)
	}
}

// Command splits a command line as a shell would (quotes keep spaces) and
// rejects an unterminated quote and an empty command.
func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want string // argv joined by |, or "error"
	}{
		{"/opt/z3 -in -smt2", "/opt/z3|-in|-smt2"},
		{`/opt/my solver/z3`, "/opt/my|solver/z3"},
		{`'/opt/my solver/z3' -in "-memory:100"`, "/opt/my solver/z3|-in|-memory:100"},
		{`/opt/z3 'unterminated`, "error"},
		{"  ", "error"},
	} {
		argv, err := Command(tc.spec)
		got := strings.Join(argv, "|")
		if err != nil {
			got = "error"
		}
		if got != tc.want {
			t.Errorf("Command(%q) = %q (%v), want %q", tc.spec, got, err, tc.want)
		}
	}
	if argv, err := Command("z3"); err != nil || argv[1] != "-in" {
		t.Errorf("preset z3: %v %v", argv, err)
	}
}

// Available: a program on PATH or at a path that is an executable file.
func TestAvailable(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "notexec")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv []string
		want bool
	}{
		{[]string{"sh", "-c", "true"}, true},
		{[]string{"/bin/sh"}, true},
		{[]string{"cegpv-no-such-solver"}, false},
		{[]string{filepath.Join(dir, "missing")}, false},
		{[]string{dir}, false},   // a directory
		{[]string{plain}, false}, // not executable
		{nil, false},
	} {
		if got := Available(c.argv); got != c.want {
			t.Errorf("Available(%q) = %v, want %v", c.argv, got, c.want)
		}
	}
}

// A solver is driven in the dialect of the solver it says it is (get-info
// :name), whatever its program is called: Yices behind a wrapper script
// gets its set-logic and is asked for unsat assumptions.
func TestDialectByName(t *testing.T) {
	y, err := Command("yices")
	if err != nil || !Available(y) {
		t.Skip("yices not installed (make deps)")
	}
	wrapper := filepath.Join(t.TempDir(), "my-solver")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+strings.Join(y, " ")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Start(context.Background(), []string{wrapper}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.dialect.logic != "ALL" || !s.dialect.assumptions {
		t.Fatalf("dialect %+v, want Yices's", s.dialect)
	}
	must(t, s.Declare("x", "Int"))
	must(t, s.Assert("(> x 5)"))
	if r, err := s.CheckSat(); err != nil || r != Sat {
		t.Fatalf("got %v %v, want sat", r, err)
	}
}

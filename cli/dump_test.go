package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --dump: a second run into the same directory dumps into DIR.1; a run
// dumps every label with its source line, the kept set of every level
// and the blockers of its spurious counterexamples with the source line
// beside each label.
func TestDumpDirs(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	dir := filepath.Join(t.TempDir(), "d")
	const prog = "../testdata/progs/peterson_safe.c"
	for i, want := range []string{dir, dir + ".1"} {
		code, _, errs := cliRun(t, "verify", "--loop-only", "--dump", dir, prog)
		if code != exitSafe {
			t.Fatalf("run %d: exit %d: %s", i, code, errs)
		}
		if i > 0 && !strings.Contains(errs, "dumping into "+want) {
			t.Errorf("run %d does not say where it dumps: %s", i, errs)
		}
		if _, err := os.Stat(filepath.Join(want, "sources.txt")); err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	read := func(pattern string) string {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		if len(m) == 0 {
			t.Fatalf("no %s in the dump", pattern)
		}
		b, _ := os.ReadFile(m[0])
		return string(b)
	}
	if s := read("sources.txt"); !strings.Contains(s, "p0.12\tassign\t"+prog+":20: in_cs = in_cs + 1;") {
		t.Errorf("sources.txt:\n%s", s)
	}
	if s := read("u5-L0-kept.txt"); !strings.Contains(s, "level 0, heuristic paper:") || !strings.Contains(s, "in_cs\n") {
		t.Errorf("u5-L0-kept.txt:\n%s", s)
	}
	if s := read("*blockers.txt"); !strings.Contains(s, "p0:p0.12  # ") || !strings.Contains(s, "p0.12 "+prog+":20: in_cs = in_cs + 1;") {
		t.Errorf("blockers:\n%s", s)
	}
}

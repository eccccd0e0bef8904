package lemmatest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/program"
)

// Goldens runs fn as a subtest on every ../testdata/dir/*.txtar (the test
// runs in a package directory) and fails when there is none.
func Goldens(t *testing.T, dir string, fn func(t *testing.T, file string)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no golden files in testdata/%s", dir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) { fn(t, file) })
	}
}

// Section returns the text of the named file of a txtar archive.
func Section(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// ParseSteps reads a run written as lines "thread label [nondet...]" (the
// thread id, the label, and the integer Nondet values the step draws);
// blank lines and lines starting with # are skipped.
func ParseSteps(t *testing.T, text string) *program.Run {
	t.Helper()
	run := &program.Run{}
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 2 {
			t.Fatalf("bad run line %q", line)
		}
		th, err := strconv.Atoi(fs[0])
		if err != nil {
			t.Fatalf("bad thread in %q", line)
		}
		s := program.Step{Thread: th, Label: program.Label(fs[1])}
		for _, v := range fs[2:] {
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil {
				t.Fatalf("bad value in %q", line)
			}
			s.Nondet = append(s.Nondet, program.IntValue(n))
		}
		run.Steps = append(run.Steps, s)
	}
	return run
}

// CompareGolden compares the outputs got (section name → text) with the
// sections names of the golden archive ar read from file, or, with update,
// rewrites file with them (keeping the other sections).
func CompareGolden(t *testing.T, file string, ar *txtar.Archive, got map[string]string, names []string, update bool) {
	t.Helper()
	if update {
		var fs []txtar.File
		for _, f := range ar.Files {
			if !slices.Contains(names, f.Name) {
				fs = append(fs, f)
			}
		}
		for _, n := range names {
			if g, ok := got[n]; ok {
				fs = append(fs, txtar.File{Name: n, Data: []byte(g)})
			}
		}
		ar.Files = fs
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, n := range names {
		want, has := Section(ar, n)
		g, ok := got[n]
		switch {
		case ok && !has:
			t.Errorf("unexpected %s:\n%s", n, g)
		case !ok && has:
			t.Errorf("missing %s, want:\n%s", n, want)
		case ok && g != want:
			t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", n, g, want)
		}
	}
}

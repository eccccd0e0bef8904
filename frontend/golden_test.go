package frontend

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/program"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/frontend/*.txtar")

const goldenDir = "../testdata/frontend"

// TestGolden lowers the input.c section of every archive in
// testdata/frontend and compares program.Show and program.Print output (or
// the error) with the expected sections. Every lowered program is also
// checked, compiled with gcc -fsyntax-only, and lowered again from its
// printed form, which must print identically.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			golden(t, file)
		})
	}
}

func section(a *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func setSection(a *txtar.Archive, name string, data []byte) {
	for i, f := range a.Files {
		if f.Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: data})
}

func dropSection(a *txtar.Archive, name string) {
	var out []txtar.File
	for _, f := range a.Files {
		if f.Name != name {
			out = append(out, f)
		}
	}
	a.Files = out
}

func golden(t *testing.T, file string) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src, ok := section(a, "input.c")
	if !ok {
		t.Fatal("no input.c section")
	}
	opts := Options{Model: program.ILP32} // a named model: the output does not depend on the host's
	if o, ok := section(a, "options"); ok {
		if strings.Contains(string(o), "LP64") {
			opts.Model = program.LP64
		}
		opts.MallocMayFail = strings.Contains(string(o), "malloc-may-fail")
	}
	got := map[string]string{}
	p, err := Lower("input.c", src, opts)
	if err != nil {
		got["error"] = err.Error() + "\n"
	} else {
		if err := program.Check(p); err != nil {
			t.Errorf("Check: %v", err)
		}
		var show, print bytes.Buffer
		if err := program.Show(&show, p); err != nil {
			t.Fatalf("Show: %v", err)
		}
		if _, err := program.Print(&print, p); err != nil {
			t.Fatalf("Print: %v", err)
		}
		got["show"] = show.String()
		got["print.c"] = print.String()
		// the printed program has its allocations' failures explicit
		again := opts
		again.MallocMayFail = false
		roundTrip(t, "input.c", print.Bytes(), again)
	}
	if *update {
		for _, name := range []string{"error", "show", "print.c"} {
			if g, ok := got[name]; ok {
				setSection(a, name, []byte(g))
			} else {
				dropSection(a, name)
			}
		}
		if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range []string{"error", "show", "print.c"} {
		want, has := section(a, name)
		g, ok := got[name]
		switch {
		case ok && !has:
			t.Errorf("unexpected %s:\n%s", name, g)
		case !ok && has:
			t.Errorf("missing %s, want:\n%s", name, want)
		case ok && g != string(want):
			t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, g, want)
		}
	}
}

// roundTrip checks that printed C compiles and lowers to a program that
// prints identically.
func roundTrip(t testing.TB, name string, printed []byte, opts Options) {
	t.Helper()
	if err := gccCheck(printed); err != nil {
		t.Errorf("%s: printed C does not compile: %v", name, err)
	}
	p2, err := Lower(name, printed, opts)
	if err != nil {
		t.Errorf("%s: lowering the printed C: %v", name, err)
		return
	}
	if err := program.Check(p2); err != nil {
		t.Errorf("%s: Check after round trip: %v", name, err)
	}
	var again bytes.Buffer
	if _, err := program.Print(&again, p2); err != nil {
		t.Errorf("%s: Print after round trip: %v", name, err)
		return
	}
	if !bytes.Equal(again.Bytes(), printed) {
		t.Errorf("%s: printing is not idempotent:\n%s", name, firstDiff(string(printed), again.String()))
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  first:  %s\n  second: %s", i+1, x, y)
		}
	}
	return "(equal)"
}

var haveGCC = func() bool { _, err := exec.LookPath("gcc"); return err == nil }()

func gccCheck(src []byte) error {
	if !haveGCC {
		return nil
	}
	cmd := exec.Command("gcc", "-fsyntax-only", "-w", "-x", "c", "-")
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, firstLines(string(out), 6))
	}
	return nil
}

func TestMain(m *testing.M) {
	flag.Parse()
	if !haveGCC {
		fmt.Fprintln(os.Stderr, "gcc not found: skipping the gcc -fsyntax-only checks of printed C")
	}
	os.Exit(m.Run())
}

package progen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Compile compiles the C file with gcc -w -O0 -pthread and flags (-m32,
// -m64) into a binary beside it and returns the binary's path; the error
// carries gcc's messages. The differential tests decide the truth of
// generated programs by running what gcc makes of them.
func Compile(file string, flags ...string) (string, error) {
	bin := strings.TrimSuffix(file, ".c") + strings.Join(flags, "")
	args := append([]string{"-w", "-O0", "-pthread"}, flags...)
	if out, err := exec.Command("gcc", append(args, "-o", bin, file)...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("gcc %s %s: %v\n%s", strings.Join(flags, " "), file, err, out)
	}
	return bin, nil
}

// CompileRun writes src to dir/name, compiles it (Compile) and runs the
// binary once; it returns what the run printed.
func CompileRun(dir, name, src string, flags ...string) ([]byte, error) {
	c := filepath.Join(dir, name)
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		return nil, err
	}
	bin, err := Compile(c, flags...)
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", bin, err)
	}
	return out, nil
}

// DataModelFlags returns which of -m32 and -m64 gcc compiles a pthread
// program for here (-m32 needs the 32-bit libc headers, libc6-dev-i386,
// which make deps installs), and why each other one is left out; with no
// gcc, none.
func DataModelFlags(dir string) (ok, why []string) {
	if _, err := exec.LookPath("gcc"); err != nil {
		return nil, []string{"gcc not installed"}
	}
	c := filepath.Join(dir, "probe.c")
	if err := os.WriteFile(c, []byte("#include <pthread.h>\n#include <assert.h>\n#include <stddef.h>\n#include <stdio.h>\nint main(void) { return 0; }\n"), 0o644); err != nil {
		return nil, []string{err.Error()}
	}
	for _, f := range []string{"-m32", "-m64"} {
		if _, err := Compile(c, f); err != nil {
			why = append(why, err.Error())
			continue
		}
		ok = append(ok, f)
	}
	return ok, why
}

// Model is a data model, named as program.DataModel names it ("ILP32",
// "LP64": progen is a leaf and does not import the model), and the gcc
// flag that compiles for it.
type Model struct {
	Name string
	Flag string
}

// probe is DataModelFlags, run once per test binary.
var probe = sync.OnceValues(func() ([]string, []string) {
	dir, err := os.MkdirTemp("", "progen")
	if err != nil {
		return nil, []string{err.Error()}
	}
	defer os.RemoveAll(dir)
	return DataModelFlags(dir)
})

// Models returns the data models gcc -pthread compiles for here: it skips
// t when there is none (no gcc), and logs why one is left out (-m32
// without the 32-bit libc headers).
func Models(t testing.TB) []Model {
	t.Helper()
	flags, why := probe()
	for _, w := range why {
		t.Logf("data model left out: %s", w)
	}
	if len(flags) == 0 {
		t.Skipf("gcc compiles for neither -m32 nor -m64: %v", why)
	}
	var out []Model
	for _, f := range flags {
		m := Model{"LP64", f}
		if f == "-m32" {
			m.Name = "ILP32"
		}
		out = append(out, m)
	}
	return out
}

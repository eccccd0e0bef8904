// Package lowertest lowers C sources for tests: the front end, then
// program.Check, failing the test on either error. It is a package of its
// own, not part of internal/testenv, because the front end's own tests use
// testenv and cannot import a package that imports the front end.
package lowertest

import (
	"testing"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/program"
)

// C lowers src, named name, with the default options (the host's data
// model); the program checks.
func C(t testing.TB, name, src string) *program.Program {
	t.Helper()
	return CModel(t, "", name, src)
}

// CModel is C in the data model m ("": the host's).
func CModel(t testing.TB, m program.DataModel, name, src string) *program.Program {
	t.Helper()
	p, err := frontend.Lower(name, []byte(src), frontend.Options{Model: m})
	if err != nil {
		t.Fatalf("lower %s: %v", name, err)
	}
	if err := program.Check(p); err != nil {
		t.Fatalf("lower %s: the program does not check: %v", name, err)
	}
	return p
}

package analysis

import (
	"testing"

	"cegpv.dev/cegpv/frontend"
	P "cegpv.dev/cegpv/program"
)

func lowerC(t *testing.T, name, src string) *P.Program {
	t.Helper()
	p, err := frontend.Lower(name, []byte(src), frontend.Options{})
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	return p
}

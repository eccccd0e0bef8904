package analysis

import (
	"testing"

	"cegpv.dev/cegpv/internal/lowertest"
	P "cegpv.dev/cegpv/program"
)

func lowerC(t *testing.T, name, src string) *P.Program { return lowertest.C(t, name, src) }
